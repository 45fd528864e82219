// The tournament form shows only what applies to the choices made: the rounds for a Swiss,
// the minutes for an arena, the match length for backgammon's match play, and the time
// controls of the game chosen (the server checks them all the same).
const form = document.getElementById("tour-form");
if (form) {
  const kind = form.querySelector("#tour-kind");
  const variant = form.querySelector("#tour-variant");
  const control = form.querySelector("#tour-control");
  const field = (id) => form.querySelector(`#${id}`).closest(".field");
  const games = [...control.querySelectorAll("optgroup")];
  const update = () => {
    const [game, ruleset] = variant.value.split("/");
    field("tour-rounds").hidden = kind.value !== "swiss";
    field("tour-minutes").hidden = kind.value !== "arena";
    field("tour-length").hidden = !(game === "backgammon" && ruleset === "match");
    const gameOf = (group) => group.dataset.game;
    for (const group of games) group.hidden = gameOf(group) !== game;
    const chosen = control.selectedOptions[0];
    if (!chosen || gameOf(chosen.parentElement) !== game) {
      const first = games.find((group) => gameOf(group) === game)?.querySelector("option");
      if (first) control.value = first.value;
    }
  };
  kind.addEventListener("change", update);
  variant.addEventListener("change", update);
  update();
}
