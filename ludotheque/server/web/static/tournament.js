// A tournament's page follows it: its live part (standings, pairings, games) is read again
// every few seconds while it is not finished (polling: any server process answers it).
const root = document.getElementById("tournament");
const live = document.getElementById("tour-live");
const EVERY = 3000;

async function refresh() {
  try {
    const response = await fetch(live.dataset.part, { headers: { Accept: "text/html" } });
    if (response.ok) {
      const html = await response.text();
      if (html !== live.dataset.last) {
        live.dataset.last = html;
        live.innerHTML = html;
      }
      const status = live.querySelector("#tour-status")?.dataset.status;
      if (status && status !== root.dataset.status) {
        // started or finished: the whole page changes (its buttons too)
        window.location.reload();
        return;
      }
    }
  } catch {
    // the server is away for a moment: try again at the next beat
  }
  window.setTimeout(refresh, EVERY);
}

if (root && live && root.dataset.status !== "finished") {
  window.setTimeout(refresh, EVERY);
}
