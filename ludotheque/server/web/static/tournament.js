// A tournament's page follows it: its live part (standings, pairings, games) is read again
// every few seconds while it is not finished (polling: any server process answers it).
import { t } from "./i18n.js";

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
      const part = live.querySelector("#tour-status");
      const status = part?.dataset.status;
      // started or finished: the whole page changes (its buttons too); the reader's game, the
      // first one too, opens by itself (as the lobby's does: a player who waits here would let
      // it abort); one that ended takes its link and Berserk away
      const changed = Boolean(status) && status !== root.dataset.status;
      const mine = part ? part.dataset.myGame || "" : root.dataset.myGame || "";
      if (changed || mine !== (root.dataset.myGame || "")) {
        if (mine && (!changed || status === "running")) window.location.assign(`/resume/${encodeURIComponent(mine)}`);
        else window.location.reload();
        return;
      }
    }
  } catch {
    // the server is away for a moment: try again at the next beat
  }
  window.setTimeout(refresh, EVERY);
}

// beside the start (or an arena's end) still to come, how long until then, every second
function countdowns() {
  for (const time of live.querySelectorAll("time.countdown[datetime]")) {
    const seconds = Math.round((Date.parse(time.dateTime) - Date.now()) / 1000);
    let note = time.nextElementSibling;
    if (!note || !note.classList.contains("countdown-left")) {
      note = document.createElement("span");
      note.className = "countdown-left";
      time.after(note);
    }
    const m = Math.floor(Math.max(0, seconds) / 60);
    const left = m ? t("tour.in_min", { m, s: Math.max(0, seconds) % 60 }) : t("tour.in_s", { s: Math.max(0, seconds) });
    note.textContent = ` (${left})`;
  }
}

if (root && live && root.dataset.status !== "finished") {
  window.setTimeout(refresh, EVERY);
  countdowns();
  window.setInterval(countdowns, 1000);
}
