// The friend links page: full addresses in the boxes, and a copy button for each.
import { t } from "./i18n.js";

for (const input of document.querySelectorAll("input.link")) input.value = location.origin + input.value;
for (const button of document.querySelectorAll("button.copy")) {
  button.addEventListener("click", async () => {
    const input = button.parentElement.querySelector("input");
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
    button.textContent = t("home.copied");
  });
}
