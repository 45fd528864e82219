// The home page form: show the fields that fit the chosen game and mode.
const form = document.getElementById("new-game");
const params = new URLSearchParams(location.search);

function chosen(name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function update() {
  const game = chosen("game");
  const mode = chosen("mode");
  for (const field of ["ruleset", "side"]) {
    let first = null;
    let any = false;
    for (const label of form.querySelectorAll(`label.${field}`)) {
      const mine = label.dataset.game === game;
      label.hidden = !mine;
      const input = label.querySelector("input");
      input.disabled = !mine;
      if (mine) {
        any = true;
        if (!first) first = input;
      } else {
        input.checked = false;
      }
    }
    if (first && !form.querySelector(`input[name="${field}"]:checked:not(:disabled)`)) first.checked = true;
    if (field === "ruleset") document.getElementById("ruleset-field").hidden = form.querySelectorAll(`label.ruleset:not([hidden])`).length < 2;
    if (field === "side") document.getElementById("side-field").hidden = !(any && mode === "computer");
  }
  // backgammon's match: its length in points (the field is sent only then)
  // (a position carries its own match score: then no length)
  const match = chosen("ruleset") === "match" && !document.getElementById("position").value.trim();
  document.getElementById("length-field").hidden = !match;
  document.getElementById("length").disabled = !match;
  document.getElementById("level-field").hidden = mode !== "computer";
  // the perfect level plays only the solved games (the General)
  for (const label of form.querySelectorAll("label.level-solved")) {
    const input = label.querySelector("input");
    const solved = label.dataset.games.split(",").includes(game);
    label.hidden = !solved;
    input.disabled = !solved;
    if (!solved && input.checked) form.querySelector('input[name="level"][value="medium"]').checked = true;
  }
  document.getElementById("position-field").hidden = mode === "friend";
  controls(game, mode);
}

// The time controls of the chosen game (none, for a casual game, is always there); a rated
// game is one against the computer, signed in, with a clock and from the start.
const presets = JSON.parse(document.getElementById("presets-data").textContent);
const lang = document.documentElement.lang || "en";
function controls(game, mode) {
  const select = document.getElementById("control");
  const before = select.value;
  const options = [select.options[0]];
  for (const preset of presets[game] || []) {
    const option = document.createElement("option");
    option.value = preset.key;
    option.textContent = preset[lang] || preset.en;
    options.push(option);
  }
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === before)) select.value = before;
  const rated = document.getElementById("rated");
  const signedIn = !rated.hasAttribute("data-anonymous");
  const position = document.getElementById("position").value.trim();
  const casual = chosen("ruleset") === "money"; // backgammon's money games are never rated
  const can = signedIn && mode === "computer" && select.value !== "" && !position && !casual;
  document.getElementById("rated-field").hidden = mode !== "computer";
  document.getElementById("rated-help").hidden = mode !== "computer";
  rated.disabled = !can;
  if (!can) rated.checked = false;
}
document.getElementById("control").addEventListener("change", update);
document.getElementById("position").addEventListener("input", update);

form.addEventListener("change", update);
if (params.get("game")) {
  const radio = form.querySelector(`input[name="game"][value="${CSS.escape(params.get("game"))}"]`);
  if (radio) radio.checked = true;
}
update();
if (params.get("ruleset")) {
  const radio = form.querySelector(`input[name="ruleset"][value="${CSS.escape(params.get("ruleset"))}"]:not(:disabled)`);
  if (radio) radio.checked = true;
}
if (params.get("position")) document.getElementById("position").value = params.get("position");

// The form is sent by the page when it can: a refusal (a position that is not one, too many
// games a minute) is said above the Start button and everything typed stays; without scripts
// the form posts as a plain form and a refusal is a page of its own.
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("start-error");
  const start = document.getElementById("start");
  start.disabled = true;
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      location.assign(response.url); // the game (or its links), where the form leads
      return;
    }
    let detail = "";
    try {
      detail = (await response.json()).detail || "";
    } catch {
      // not an answer of ours (a proxy's page): the plain form says what it can
    }
    if (!detail) {
      form.submit();
      return;
    }
    error.textContent = detail;
    error.hidden = false;
    if (response.status === 422) document.getElementById("position").focus();
  } catch {
    form.submit(); // no answer at all: the plain form, which shows what happened
  } finally {
    start.disabled = false;
  }
});
