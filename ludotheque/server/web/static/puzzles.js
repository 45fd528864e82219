// The puzzles' page: a guest's best streak per game, kept in this browser by the puzzle page
// (an account's is in the page already, from the server).
for (const line of document.querySelectorAll(".guest-best[data-game]")) {
  let best = 0;
  try {
    best = Number(localStorage.getItem(`puzzle-streak-best-${line.dataset.game}`) || 0);
  } catch {
    /* a browser that keeps nothing */
  }
  if (best > 0) {
    line.textContent = line.dataset.text.replace("{n}", String(best));
    line.hidden = false;
  }
}
