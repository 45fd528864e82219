// A game's end said to its reader, and the questions the page asks before a step that cannot be
// taken back. A player reads "You won", "You lost", "Draw" (and "You left the game — you lost"
// when they left); a watcher, the archive and one screen read the sides' names ("The General
// won"). The result is styled by what it means to its reader (won, lost, draw, aborted; "ended"
// for watchers), never by a side's colour. A rated game adds the new rating and its change
// once the server has rated it ("1523 (+23)").

// the one side the reader plays, or null (watchers, the archive, both sides at one screen)
export function readerSide(snap, mode) {
  if (mode !== "play" || snap.watch) return null;
  return snap.my_sides.length === 1 ? snap.my_sides[0] : null;
}

// "1523 (+23)", "1477? (−23)" while provisional
export function ratingText(change) {
  const value = Math.round(change.change);
  const sign = value >= 0 ? "+" : "−";
  return `${Math.round(change.after)}${change.provisional ? "?" : ""} (${sign}${Math.abs(value)})`;
}

// { head, detail, meaning, rating } of a finished game for its reader
export function resultView(snap, { t, sideName, mode }) {
  const o = snap.outcome;
  const me = readerSide(snap, mode);
  const reason = () => t(`reason.${o.reason}`);
  let head;
  let detail = "";
  let meaning;
  if (o.reason === "aborted") {
    head = t("result.aborted");
    meaning = "aborted";
    if (!o.by) detail = t("result.aborted_clock");
    else if (me) detail = o.by === me ? t("result.aborted_you") : t("result.aborted_them");
    else if (o.by !== "both") detail = t("result.aborted_by", { side: o.by });
  } else if (o.reason === "abandoned") {
    head = t("result.abandoned");
    detail = reason();
    meaning = "aborted";
  } else if (me && o.reason === "left" && (o.winner || o.by)) {
    // the claimer (``by``) stayed; without a winner, the game was drawn all the same
    if (o.winner) {
      head = t(o.winner === me ? "result.left_won" : "result.left_lost");
      meaning = o.winner === me ? "won" : "lost";
    } else {
      head = t(o.by === me ? "result.left_draw_them" : "result.left_draw_you");
      meaning = "draw";
    }
  } else if (o.winner) {
    if (me) {
      head = t(o.winner === me ? "result.you_won" : "result.you_lost");
      meaning = o.winner === me ? "won" : "lost";
    } else {
      head = t("result.won", { side: o.winner });
      meaning = "ended";
    }
    detail = reason();
  } else {
    head = t("result.draw");
    detail = reason();
    meaning = "draw";
  }
  return { head, detail, meaning, rating: ratingLine(snap, me, { t, sideName }) };
}

function ratingLine(snap, me, { t, sideName }) {
  const table = snap.table || {};
  const o = snap.outcome;
  if (!table.rated || o.reason === "aborted" || o.reason === "abandoned") return "";
  const changes = table.ratings;
  if (!changes) return t("result.rating_pending");
  if (me && changes[me]) return t("result.your_rating", { rating: ratingText(changes[me]) });
  return snap.sides
    .filter((side) => changes[side])
    .map((side) => t("result.side_rating", { side: sideName(side), rating: ratingText(changes[side]) }))
    .join(" · ");
}

// An inline confirmation (no window.confirm): the box is an alert dialog in the page; the
// focus moves into it (on "No"), Escape or "No" closes it and gives the focus back, "Yes" does
// the step. ``ask(question, yesLabel, onYes, opener)``.
export function createConfirm() {
  const $ = (id) => document.getElementById(id);
  const box = $("confirm");
  const yes = $("confirm-yes");
  const no = $("confirm-no");
  let action = null;
  let opener = null;

  function close(giveFocusBack = true) {
    if (box.hidden) return;
    box.hidden = true;
    action = null;
    if (giveFocusBack && opener && !opener.hidden && document.contains(opener)) opener.focus();
    opener = null;
  }

  yes.addEventListener("click", () => {
    const run = action;
    close(false);
    if (run) run();
  });
  no.addEventListener("click", () => close());
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  });

  return {
    ask(question, yesLabel, onYes, from) {
      $("confirm-text").textContent = question;
      yes.textContent = yesLabel;
      action = onYes;
      opener = from || null;
      box.hidden = false;
      no.focus();
    },
    close,
    get open() {
      return !box.hidden;
    },
    get opener() {
      return opener;
    },
  };
}
