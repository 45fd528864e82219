// A tournament game's page follows the player to their next game of the tournament: once this
// one is over, the tournament pairs them again (an arena at once, a Swiss at the next round),
// and the new game opens by itself, as the tournament's page opens it. Polling the tournament
// (any server process answers it) from the moment the game's result shows until the tournament
// ends: while the game goes on, no request at all.
const strip = document.getElementById("tour-strip");
const page = document.getElementById("game-root");
const EVERY = 3000;

async function follow() {
  try {
    const response = await fetch(`/api/tournament/${encodeURIComponent(strip.dataset.tournament)}`, {
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      const view = await response.json();
      const mine = view.my_game;
      // (one game at a time in a tournament: another one means this one is over)
      if (mine && mine.game_id && mine.game_id !== page.dataset.gameId) {
        window.location.assign(mine.url);
        return;
      }
      if (view.status === "finished") return;
    }
  } catch {
    // the server is away for a moment: try again at the next beat
  }
  window.setTimeout(follow, EVERY);
}

function whenOver() {
  const result = document.getElementById("result");
  if (!result) return;
  if (!result.hidden) {
    follow();
    return;
  }
  const watch = new MutationObserver(() => {
    if (result.hidden) return;
    watch.disconnect();
    follow();
  });
  watch.observe(result, { attributes: true, attributeFilter: ["hidden"] });
}

if (strip && page && strip.dataset.tournament && page.dataset.gameId && page.dataset.seat !== "watch") {
  whenOver();
}
