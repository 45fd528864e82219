// The header's menu on a phone: one row (the site's name, who is signed in, a Menu button), and
// the pages and the account's links behind the button, a disclosure as the ARIA practices
// describe it (aria-expanded on the button; Escape closes and gives the focus back to the
// button; the menu closes when the focus or a click goes elsewhere). Without this script the
// button stays hidden and the header shows everything, as on a desktop (site.css).
const header = document.getElementById("top");
const button = document.getElementById("menu-button");
const phone = window.matchMedia("(max-width: 760px)");

if (header && button) {
  header.classList.add("has-menu");
  button.hidden = false;
  const links = () => [...header.querySelectorAll("#site-nav a, #account-actions a, #account-actions button")];

  const isOpen = () => button.getAttribute("aria-expanded") === "true";

  function setOpen(open, { focus = null } = {}) {
    button.setAttribute("aria-expanded", String(open));
    header.classList.toggle("menu-open", open);
    if (focus === "first" && open) links()[0]?.focus();
    else if (focus === "button") button.focus();
  }

  // opened with the keyboard, the focus goes to the first page; a tap leaves it on the button
  let byKeyboard = false;
  button.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") byKeyboard = true;
  });
  button.addEventListener("click", () => {
    setOpen(!isOpen(), { focus: byKeyboard ? "first" : null });
    byKeyboard = false;
  });

  header.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      event.preventDefault();
      setOpen(false, { focus: "button" });
    }
  });
  // the focus leaves the header (Tab past the last link, or elsewhere): the menu closes
  header.addEventListener("focusout", (event) => {
    if (isOpen() && event.relatedTarget && !header.contains(event.relatedTarget)) setOpen(false);
  });
  document.addEventListener("pointerdown", (event) => {
    if (isOpen() && !header.contains(event.target)) setOpen(false);
  });
  // a phone turned into a wide screen shows the whole header again: nothing stays open
  phone.addEventListener("change", () => {
    if (!phone.matches) setOpen(false);
  });
}
