// What the pages that host a game's board module on a position the server describes share: the
// lesson's, the puzzle's and the analysis board's (static/boards/<game>.js, fed by
// /api/analysis/position and /partial). Each page keeps its own rules (who may move, what a
// move does); here are the requests, the page's lines around the board and the snapshot the
// boards read, written once.

export const $ = (id) => document.getElementById(id);

// A JSON reply, or an Error carrying the server's words (``detail``) and its ``code`` (the game
// page's analysis panel reads its replies so too).
export async function readReply(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.detail) || `HTTP ${response.status}`);
    error.code = data && data.code;
    throw error;
  }
  return data;
}

// POST ``body`` as JSON with the page's own extra ``headers`` (a CSRF token where it sends one).
export async function postJson(url, body, headers = {}) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return readReply(response);
}

// what the board says itself (choose a direction, …), an error in red
export function say(text, isError = false) {
  const box = $("message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError && text));
}

// the page's verdict on a move (solved, wrong, …), its kind for the styles
export function verdict(text, kind = "") {
  const box = $("verdict");
  box.textContent = text;
  box.dataset.kind = kind;
  // a verdict out of sight is brought into view (on a phone a move typed under the board left
  // it above the fold: only the position set back was seen)
  if (text) {
    const { top, bottom } = box.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
  }
}

// a piece chosen is said in the live region (emptied first, so that it is heard each time)
let telling = null;
export function announce(text) {
  $("announce").textContent = "";
  clearTimeout(telling);
  telling = setTimeout(() => ($("announce").textContent = text), 60);
}

// The boards' ``onTurn``: the turn's buttons (Done, Undo a step) shown as the board asks, and
// kept hidden while ``resting()`` says the page takes no move.
export function turnControls(resting = () => false) {
  return ({ canFinish, canUndo, hidden, labels }) => {
    $("turn-controls").hidden = Boolean(hidden) || resting();
    $("turn-done").disabled = !canFinish;
    $("turn-undo").hidden = !canUndo;
    if (labels) {
      $("turn-done").textContent = labels.done;
      $("turn-undo").textContent = labels.undo;
    }
  };
}

// The boards' ``ask`` for part of a turn (a backgammon checker, a Defiance action) on the
// position ``where()`` gives ({ game, ruleset, position }), answered as a game's socket would.
export function partialAsker(post, where) {
  return async (message) => {
    try {
      const reply = await post("/api/analysis/partial", { ...where(), ...message });
      return { type: "partial", id: message.id, ...reply };
    } catch (error) {
      return { type: "error", id: message.id, message: error.message };
    }
  };
}

// The turn's buttons wired to the board ``current()`` gives (none yet: nothing happens).
export function wireTurnButtons(current) {
  $("turn-done").addEventListener("click", () => {
    const board = current();
    if (board && board.finish) board.finish();
  });
  $("turn-undo").addEventListener("click", () => {
    const board = current();
    if (board && board.undoStep) board.undoStep();
  });
}

// Draw ``position`` as the server's ``view`` of it says, as a game's snapshot in analysis mode
// (free undo, no clock, no chat): ``canMove``, the seat may play its ``legal`` moves; ``last``
// and ``before``, the move drawn as the last one and the position it came from. Returns the
// snapshot (a board module's ``describe`` reads it).
export function drawPosition(board, { id, game, view, position, start, seat, mySides, canMove, ply, history, last, before, animate }) {
  const snap = {
    id, game, ruleset: view.ruleset, mode: "analysis", sides: view.sides, seat, my_sides: mySides, start, position,
    to_move: view.to_move, can_move: canMove, ply, history, legal: view.legal, extra: view.extra, outcome: view.outcome,
    undo: { free: true, request: null, allowed: true }, rematch: false, watch: false, table: null, chat: null, dice: null,
  };
  board.update({ position, livePosition: position, legal: canMove ? view.legal : [], last, before, animate, snap, mySides });
  return snap;
}
