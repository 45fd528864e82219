// The game page: connection, move list, history, controls. The board itself is a module per
// game (static/boards/<game>.js); the server decides what is legal, the page only shows it.
import { t } from "./i18n.js";
import { extensions } from "./table.js";
import { attachAnalysis } from "./analysis-panel.js";
import { heartbeat } from "./heartbeat.js";
import { createConfirm, readerSide, resultView } from "./results.js";

const root = document.getElementById("game-root");
const { token, mode, game: gameName, gameId } = root.dataset;
const $ = (id) => document.getElementById(id);
const boardModule = await import(`./boards/${gameName}.js`);

let snap = null; // the latest state from the server
let view = null; // null: the live position; else the number of plies shown
let socket = null;
let retry = 400;
let pending = false; // a move was sent and its answer has not come yet
let online = mode === "archive"; // the socket is open (an archive needs none)
let previous = null; // the state before the latest one (to animate captures)

let askCounter = 0;
let stepUndo = false; // the board can take back part of the turn being made (its own button)
const waiting = new Map(); // answers to requests the board made (one-checker moves)

// a word of the page, or ``fallback`` while the dictionary does not have it yet
function tr(key, fallback, values = {}) {
  const text = t(key, values);
  return text === key ? fallback : text;
}

const offlineReply = () => ({ type: "error", offline: true, message: t("play.offline") });

function ask(message) {
  const id = ++askCounter;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    if (!send({ ...message, id })) {
      waiting.delete(id);
      resolve(offlineReply());
    }
  });
}

function onTurn({ canFinish, canUndo, hidden, labels }) {
  if (canUndo) cancelForced(); // the player moves checkers: the turn is theirs to make
  $("turn-controls").hidden = Boolean(hidden);
  $("turn-done").disabled = !canFinish;
  // only while part of a turn can be taken back: never beside the panel's Undo for nothing
  $("turn-undo").hidden = !canUndo;
  // and then it is the only undo on the page: the panel's wait until the turn is made
  stepUndo = Boolean(canUndo) && !hidden;
  if (snap) undoButtons();
  if (labels) {
    $("turn-done").textContent = labels.done;
    $("turn-undo").textContent = labels.undo;
  }
}

// what sits around the board: players and clocks, the chat, sounds and notices (table.js)
const plugins = extensions({ t, send: (message) => send(message), sideName: (side) => sideName(side), mode, online: () => online, shownPlies: () => (snap ? shownPlies() : 0) });

const board = boardModule.createBoard($("board"), {
  t,
  onMove: (notation) => submit(notation),
  chooser: $("chooser"),
  say: (text, isError = false) => say(text, isError),
  ask,
  onTurn,
  giveUp: () => send({ type: "resign" }), // a board that asks its own questions before resigning
  announce: (text) => tell(text), // a piece chosen, for screen readers
});

// The page's live region says ``text`` (emptied first, so that the same words said twice are
// heard twice).
let telling = null;
function tell(text) {
  const region = $("announce");
  region.textContent = "";
  clearTimeout(telling);
  telling = setTimeout(() => (region.textContent = text), 60);
}

// the analysis of a finished game, hints where they are fair, the analysis board (analysis-panel.js)
const analysis = attachAnalysis({ mode, token, sideName: (side) => sideName(side), step: (ply) => step(ply), play: (notation) => submit(notation) });

// -- talking to the server -----------------------------------------------------------------

function connect() {
  if (mode === "archive") {
    fetch(`/api/games/${gameId}`)
      .then((r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        return r.json();
      })
      .then((s) => {
        snap = s;
        view = 0;
        say("");
        render();
        // what of the table a finished game shows: the players' strips (not the chat: it is
        // the live game's)
        for (const ext of plugins) if (ext.forArchive) ext.onMessage({ type: "state", game: s }, snap, null);
      })
      .catch(() => {
        // the server is away or the answer is not a game: say so, and try again a little later
        say(tr("play.load_failed", "Could not load this game — trying again…"), true);
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 5000);
      });
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  // a server that stops answering is noticed: "Reconnecting…", then a new connection
  const pulse = heartbeat(socket, {
    onLate: () => {
      $("connection").textContent = t("play.reconnecting");
      $("connection").classList.add("offline");
    },
    onBack: () => {
      $("connection").textContent = t("play.online");
      $("connection").classList.remove("offline");
    },
  });
  socket.addEventListener("open", () => {
    retry = 400;
    online = true;
    $("connection").textContent = t("play.online");
    $("connection").classList.remove("offline");
    if ($("message").dataset.offline) say("");
    // the server sends the state at once: the board comes back with it
  });
  socket.addEventListener("message", (event) => {
    pulse.heard();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return; // not ours to read
    }
    if (message && typeof message === "object") handle(message);
  });
  socket.addEventListener("close", (event) => {
    pulse.stop();
    const wasOnline = online;
    online = false;
    $("connection").textContent = t("play.offline");
    $("connection").classList.add("offline");
    pending = false;
    // nobody will answer the board's questions now: answer them here, so it stops asking
    for (const resolve of waiting.values()) resolve(offlineReply());
    waiting.clear();
    if (wasOnline || !$("message").dataset.offline) {
      say(t("play.offline"), true);
      $("message").dataset.offline = "1";
    }
    render();
    // a server that stops for a restart (1012) or goes away (1001) says so: connect again at
    // once (spread over a quarter of a second), to whichever process answers
    const restart = event.code === 1012 || event.code === 1001;
    setTimeout(connect, restart ? Math.random() * 250 : retry);
    if (!restart) retry = Math.min(retry * 2, 5000);
  });
}

// A state after the first one brings only the history entries the page lacks, from
// ``history_from`` on: join them to what it has (or ask for the whole state if it cannot).
function joined(game) {
  if (typeof game.history_from !== "number") return game;
  const from = game.history_from;
  if (!snap || snap.id !== game.id || snap.history.length < from) return null;
  return { ...game, history: snap.history.slice(0, from).concat(game.history) };
}

function handle(message) {
  if (message.type === "state") {
    const game = joined(message.game);
    if (game === null) {
      send({ type: "sync" });
      return;
    }
    previous = snap;
    snap = game;
    pending = false;
    // a refusal speaks of the position it was made in: once the game has moved on, it goes
    const box = $("message");
    if (previous && previous.ply !== snap.ply && box.classList.contains("error") && !box.dataset.offline) say("");
    // so does the announcement of a forced play, once it is played or the game is over
    if (box.dataset.forced && (box.dataset.forced !== String(snap.ply) || snap.outcome)) say("");
    if (view !== null && mode !== "archive" && previous && view === previous.history.length) view = null;
    render();
    announce(previous, snap);
    followRematch(previous, snap);
  } else if (message.type === "error" && message.id && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
  } else if (message.type === "partial" && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
  } else if (message.type === "error" && typeof message.id !== "string") {
    // (an answer to the chat, whose ids are words, is the chat's: shown beside it)
    pending = false;
    say(message.message, true);
    render();
  } else if (message.type === "rematch" && message.url) {
    location.href = message.url; // (an offer waits: the page shows it with the next state)
  }
  // the clocks, the players, the chat, the sounds (table.js): they see every message
  for (const ext of plugins) ext.onMessage(message, snap, previous);
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    say(t("play.offline"), true);
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

// Send a move. Until its answer comes the box and the board are disabled (render() reads
// ``pending``), so a second move cannot be typed into a box that would drop it.
function submit(notation) {
  if (!snap || pending || !snap.can_move) return false;
  say("");
  if (!send({ type: "move", move: notation, ply: snap.ply })) return false;
  pending = true;
  render();
  return true;
}

// Backgammon: a play that is the only legal one is made by itself, after a pause to be seen
// (backgammon servers do the same), once per turn: not if the player chose to make such plays
// by hand (kept in this browser), nor once they start moving checkers during the pause.
const FORCED_KEY = "ludotheque.forced";
const forcedByItself = () => localStorage.getItem(FORCED_KEY) !== "off";
let forcedTimer = null;
let forcedPly = null; // the ply whose only play was announced
function playForced() {
  if (gameName !== "backgammon" || snap.legal.length !== 1 || forcedPly === snap.ply) return;
  const ply = snap.ply;
  const only = snap.legal[0];
  forcedPly = ply;
  say(t("bg.forced", { play: only }));
  $("message").dataset.forced = String(ply);
  if (!forcedByItself()) return;
  forcedTimer = setTimeout(() => {
    forcedTimer = null;
    const now = snap && snap.ply === ply && snap.can_move && !pending;
    if (!now || !submit(only)) forcedPly = null; // not sent: announced again when it can be
  }, 900);
}

function cancelForced() {
  if (forcedTimer !== null) clearTimeout(forcedTimer);
  forcedTimer = null;
}

const forcedToggle = $("forced-toggle");
if (forcedToggle) {
  const show = () => {
    forcedToggle.setAttribute("aria-pressed", String(forcedByItself()));
    forcedToggle.textContent = t(forcedByItself() ? "prefs.forced" : "prefs.forced_off");
  };
  forcedToggle.addEventListener("click", () => {
    localStorage.setItem(FORCED_KEY, forcedByItself() ? "off" : "on");
    if (!forcedByItself()) cancelForced();
    show();
  });
  show();
}

function say(text, isError = false) {
  const box = $("message");
  box.textContent = text;
  delete box.dataset.offline;
  delete box.dataset.forced;
  box.classList.toggle("error", Boolean(isError && text));
}

// -- drawing the page ----------------------------------------------------------------------

// Screen readers hear every move in a polite live region: the other side's (and the
// computer's) by the side's name, the reader's own as "You played …" once the server has
// taken it (at one screen, where both sides are the reader's, by the sides' names).
function announce(before, now) {
  if (!before || before.id !== now.id || now.history.length <= before.history.length) return;
  const me = readerSide(now, mode);
  const moves = now.history.slice(before.history.length).filter((h) => h.kind === "move");
  if (!moves.length) return;
  $("announce").textContent = moves
    .map((h) => {
      const text = boardModule.historyText ? boardModule.historyText(h, t) : h.text;
      if (me && h.side === me) return t("play.announce_mine", { move: text });
      return t("play.announce", { side: sideName(h.side), move: text });
    })
    .join(" ");
}

// Both players wanted the rematch: once it is made, a player who waited for it (or who just
// accepted it) goes to it; their seat in it is registered when they ask.
function followRematch(before, now) {
  if (!before || before.id !== now.id || before.rematch || !now.rematch) return;
  if (mode !== "play" || now.watch || now.mode !== "friend" || !now.my_sides.length) return;
  if (rematchAsked || (now.rematch_declined && now.my_sides.includes(now.rematch_declined))) return;
  rematchAsked = true;
  send({ type: "rematch" });
}

function sideName(side) {
  return t(`side.${side}`);
}

function shownPlies() {
  return view === null ? snap.history.length : view;
}

function positionAt(plies) {
  return plies === 0 ? snap.start : snap.history[plies - 1].position;
}

function render() {
  if (!snap) return;
  const plies = shownPlies();
  const live = plies === snap.history.length && mode !== "archive";
  const interactive = live && snap.can_move && !pending && online;
  const last = plies > 0 ? snap.history[plies - 1] : null;
  const before = plies > 0 ? positionAt(plies - 1) : null;
  board.update({
    position: positionAt(plies),
    livePosition: snap.position,
    legal: interactive ? snap.legal : [],
    last,
    before,
    animate: live && previous && previous.history.length === snap.history.length - 1,
    snap,
    mySides: snap.my_sides,
  });
  renderStatus(live);
  renderControls(live);
  renderMoves(plies);
  analysis.render(snap, plies);
  if (interactive) playForced();
  const described = boardModule.describe ? boardModule.describe(snap, positionAt(plies), t) : [];
  $("extra").replaceChildren(...(Array.isArray(described) ? described : [described]));
  keepOpened($("extra"));
  wireVerify();
  // while a move is on its way, or the connection is down, the board and the box wait
  const holder = $("board");
  const waitingLive = live && snap.can_move;
  holder.classList.toggle("pending", waitingLive && pending);
  holder.classList.toggle("offline", mode !== "archive" && !online);
  holder.setAttribute("aria-busy", waitingLive && pending ? "true" : "false");
  $("move-form").classList.toggle("pending", waitingLive && pending);
  // where the view is, the last move included (it used to go blank there)
  // backgammon counts turns (its plies are rolls, plays and cube actions), the others moves
  const counted = boardModule.counter ? boardModule.counter(snap.history, plies) : { n: plies, total: snap.history.length, key: "play.viewing" };
  $("step-info").textContent = snap.history.length ? t(counted.key, counted) : "";
  // watchers, replays and finished games have no move to type: no box that does nothing
  $("move-form").hidden = mode !== "play" || snap.watch || Boolean(snap.outcome);
  const input = $("move-input");
  const hadFocus = document.activeElement === input || input.dataset.refocus === "1";
  input.disabled = !interactive;
  $("move-submit").disabled = !interactive;
  // a box disabled while its move was on its way gets the focus back with the answer
  if (input.disabled) {
    if (hadFocus) input.dataset.refocus = "1";
  } else if (input.dataset.refocus) {
    delete input.dataset.refocus;
    input.focus();
  }
}

function renderStatus(live) {
  const status = $("status");
  const result = $("result");
  if (snap.outcome) {
    const o = snap.outcome;
    const words = resultView(snap, { t, sideName, mode });
    // how the game was won, where the board says more than the reason (a gammon, a backgammon)
    const told = boardModule.resultDetail ? boardModule.resultDetail(snap, t) : "";
    if (told) words.detail = told;
    // a game played for points: what it was won for (backgammon's points, the match score)
    const note = boardModule.resultNote ? boardModule.resultNote(snap, t) : "";
    const key = JSON.stringify([words, note]);
    result.hidden = false;
    if (result.dataset.key !== key) {
      // drawn again only when it changes: the region speaks its news once
      result.dataset.key = key;
      result.replaceChildren();
      const strong = document.createElement("strong");
      strong.className = "result-head";
      strong.textContent = words.head;
      result.append(strong);
      if (words.detail) result.append(` — ${words.detail}`);
      for (const [text, id] of [[note, "result-note"], [words.rating, "result-rating"]]) {
        if (!text) continue;
        const line = document.createElement("span");
        line.className = id;
        line.id = id;
        line.textContent = text;
        result.append(document.createElement("br"), line);
      }
    }
    result.dataset.winner = o.winner || "";
    result.dataset.reason = o.reason;
    result.dataset.meaning = words.meaning;
    status.textContent = words.head;
  } else {
    result.hidden = true;
    let text = t("play.to_move", { side: snap.to_move }); // each side's own sentence
    if (snap.computer && snap.to_move === snap.computer.side) text += ` — ${t("play.thinking")}`;
    // (at one screen both sides are yours: no "your turn"; against the computer, yours is)
    else if (snap.can_move && (snap.seat !== "both" || snap.computer)) text += ` — ${t("play.your_turn")}`;
    status.textContent = text;
  }
  status.dataset.toMove = snap.to_move || "";
  const seat = $("seat-line");
  if (mode === "archive" || snap.watch) seat.textContent = t("play.watching");
  else if (snap.my_sides.length > 1) seat.textContent = t("play.you_both");
  else if (snap.my_sides.length === 1) seat.textContent = t("play.you_are", { side: snap.my_sides[0] });
  else seat.textContent = "";
  if (!live && mode !== "archive") status.textContent += ` (${t("play.viewing", { n: shownPlies(), total: snap.history.length })})`;
}

// A draw offer (the General and Defiance): the button to offer one, the opponent's offer with
// Accept and Decline, the offerer's wait, and a declined offer (with how many more moves
// before another may be made). None in a rated game the player has not begun (``abortOnly``).
function renderDraw(player, over, offers, abortOnly) {
  const me = readerSide(snap, mode);
  const can = player && !over && Boolean(offers.draw_allowed) && me !== null && !abortOnly;
  const standing = can ? offers.draw : null;
  $("offer-draw").hidden = !(can && !standing && !offers.draw_wait);
  const box = $("draw-box");
  let text = "";
  const theirs = Boolean(standing) && standing !== me;
  if (standing) text = theirs ? t("play.draw_offer_them") : t("play.draw_offered");
  else if (can && offers.draw_declined) {
    text = t("play.draw_declined");
    if (offers.draw_wait) text += ` ${t("play.draw_wait", { n: offers.draw_wait })}`;
  }
  box.hidden = !text;
  if ($("draw-text").textContent !== text) $("draw-text").textContent = text;
  $("accept-draw").hidden = !theirs;
  $("decline-draw").hidden = !theirs;
}

function hasMoveOf(sides) {
  return snap.history.some((h) => h.kind === "move" && sides.includes(h.side));
}

// The panel's Undo (or Ask to undo): one undo control at a time, so none while the board
// offers to take back a step of the turn being made.
function undoButtons() {
  const player = mode === "play" && !snap.watch;
  // a finished game is final: no undo once the result is shown
  const undoable = player && !snap.outcome && snap.undo.allowed !== false && hasMoveOf(snap.my_sides) && !stepUndo;
  $("undo").hidden = !(undoable && snap.undo.free);
  $("ask-undo").hidden = !(undoable && !snap.undo.free && !snap.undo.request);
}

function renderControls(live) {
  const player = mode === "play" && !snap.watch;
  const over = Boolean(snap.outcome);
  const offers = snap.offers || {};
  undoButtons();
  // a rated game the player has not begun is called off (no result), not lost: Abort only
  const abortOnly = Boolean(offers.abort && snap.table && snap.table.rated);
  $("resign").hidden = !(player && !over && !abortOnly);
  $("abort").hidden = !(player && !over && offers.abort);
  renderDraw(player, over, offers, abortOnly);
  // a question whose step is no longer there goes (the game ended, the first move was made)
  if (confirmBox.open && confirmBox.opener && confirmBox.opener.hidden) confirmBox.close(false);
  // between two people a rematch is an offer: the one who did not offer sees it, with
  // Accept and Decline, until they answer; the offerer waits on this page, and both go to
  // the rematch once it is made. A declined offer is in the log: a reload does not bring it
  // back. A player who stays away from the page lets it lapse.
  const ours = (side) => Boolean(side) && snap.my_sides.includes(side);
  const between = player && over && snap.mode === "friend";
  const iDeclined = between && ours(snap.rematch_declined);
  const theyDeclined = between && Boolean(snap.rematch_declined) && !iDeclined;
  const standing = between && !snap.rematch ? offers.rematch : null;
  const offered = Boolean(standing) && !ours(standing);
  const waiting = Boolean(standing) && ours(standing);
  // an opponent away from the page is offered nothing (it would lapse): they may come back
  const away = Object.keys((snap.table && snap.table.away) || {});
  const opponentAway = between && !snap.rematch && away.some((side) => !ours(side));
  const offerBox = $("rematch-offer");
  const newOffer = offered && offerBox.hidden;
  offerBox.hidden = !offered;
  // a phone shows the result first: an offer that comes in below it is brought into view
  if (newOffer) offerBox.scrollIntoView({ block: "nearest" });
  // a tournament's game has no rematch: the tournament pairs its players (see tour-follow.js)
  const inTournament = Boolean(document.getElementById("tour-strip"));
  $("rematch").hidden = !(player && over) || inTournament || offered || waiting || iDeclined || theyDeclined || opponentAway;
  const declined = $("rematch-declined");
  declined.hidden = !(iDeclined || theyDeclined);
  declined.textContent = iDeclined ? t("play.rematch_you_declined") : theyDeclined ? t("play.rematch_declined") : "";
  // a match goes on with its next game (same sides), or a new match: their own words
  const labels = (boardModule.nextLabels && boardModule.nextLabels(snap, t)) || {};
  const lapsed = between && !standing && !snap.rematch && !snap.rematch_declined ? offers.rematch_lapsed : null;
  const note = $("rematch-status");
  let noteText = "";
  if (waiting) noteText = labels.waiting || t("play.rematch_waiting");
  else if (lapsed) noteText = t(ours(lapsed) ? "play.rematch_lapsed_you" : "play.rematch_lapsed_them");
  else if (opponentAway && !offered && !theyDeclined && !iDeclined) noteText = t("play.rematch_opponent_away");
  note.hidden = !noteText;
  if (note.textContent !== noteText) note.textContent = noteText;
  // a watcher is offered the players' rematch as soon as it exists
  $("watch-rematch").hidden = !(mode === "watch" && snap.rematch);
  $("rematch").textContent = between && snap.rematch ? labels.go || t("play.rematch_go") : labels.rematch || t("play.rematch");
  $("rematch-offer").querySelector("span").textContent = labels.offer || t("play.rematch_offer");
  $("accept-rematch").textContent = labels.accept || t("play.rematch_accept");
  $("watch-rematch").textContent = labels.watch || t("play.watch_rematch");
  const request = snap.undo.request;
  const box = $("undo-request");
  if (player && request && !snap.undo.free) {
    box.hidden = false;
    const mine = snap.my_sides.includes(request);
    $("undo-request-text").textContent = mine ? t("play.undo_asked") : t("play.undo_request");
    $("accept-undo").hidden = mine;
    $("refuse-undo").hidden = mine;
  } else if (player && !snap.undo.free && snap.undo.refused && snap.my_sides.includes(snap.undo.refused)) {
    // the one who asked is told of the refusal (until the next move)
    box.hidden = false;
    $("undo-request-text").textContent = t("play.undo_refused");
    $("accept-undo").hidden = true;
    $("refuse-undo").hidden = true;
  } else {
    box.hidden = true;
  }
  const download = $("download");
  download.href = mode === "archive" ? `/api/games/${snap.id}/record` : `/api/play/${token}/record`;
  const share = $("share");
  share.hidden = !over;
  share.href = `/archive/${snap.id}`;
  $("start-here").href = `/?game=${encodeURIComponent(snap.game)}&ruleset=${encodeURIComponent(snap.ruleset)}&position=${encodeURIComponent(positionAt(shownPlies()))}`;
  for (const id of ["step-first", "step-prev"]) $(id).disabled = shownPlies() === 0;
  for (const id of ["step-next", "step-last"]) $(id).disabled = shownPlies() === snap.history.length;
}

// The history grouped as players write it: numbered turns, each with one part per side, a part
// being the side's rolls (if any) and then its move: "1. a2-b2 c3-b4xa3c5",
// "1. 31: 8/5 6/5  64: 24/18 13/9". A new turn starts when a side that already moved in this
// one moves again (so a game that starts with either side, or a side moving twice, still reads).
function turnsOf(history) {
  const turns = [];
  let part = null; // the part being built: its rolls come before its move
  let turn = null;
  history.forEach((entry, index) => {
    if (!part) part = { side: null, plies: [] };
    part.plies.push({ entry, ply: index + 1 });
    // rolls join the move they lead to; a cube action is its side's own part, in its column
    if (entry.kind === "chance") return;
    part.side = entry.side;
    if (!turn || turn.parts.some((p) => p.side === part.side)) {
      turn = { parts: [] };
      turns.push(turn);
    }
    turn.parts.push(part);
    part = null;
  });
  if (part) {
    // rolls whose move has not come: they belong to the side to move now
    part.side = snap.to_move;
    if (!turn || turn.parts.some((p) => p.side === part.side)) {
      turn = { parts: [] };
      turns.push(turn);
    }
    turn.parts.push(part);
  }
  return turns;
}

function plyLabel(entry) {
  if (boardModule.listText) return boardModule.listText(entry, t);
  return { text: boardModule.historyText ? boardModule.historyText(entry, t) : entry.text };
}

function renderMoves(plies) {
  const list = $("move-list");
  list.replaceChildren();
  turnsOf(snap.history).forEach((turn, number) => {
    const item = document.createElement("li");
    item.className = "turn";
    item.value = number + 1;
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = `${number + 1}.`;
    item.append(num);
    for (const part of turn.parts) {
      const half = document.createElement("span");
      half.className = "half";
      half.dataset.side = part.side || "";
      for (const { entry, ply } of part.plies) {
        // each ply stays a button that steps the board to it
        const label = plyLabel(entry);
        const cell = document.createElement("span");
        cell.className = `ply ${entry.kind}`;
        cell.dataset.ply = String(ply);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label.text;
        const full = boardModule.historyText ? boardModule.historyText(entry, t) : entry.text;
        const who = entry.side && entry.side !== "chance" ? sideName(entry.side) : "";
        button.title = label.title || (who ? `${who}${t("punct.colon")}${full}` : full);
        button.addEventListener("click", () => {
          view = ply === snap.history.length && mode !== "archive" ? null : ply;
          render();
        });
        if (ply === plies) {
          cell.classList.add("current");
          item.classList.add("current");
          button.setAttribute("aria-current", "step");
        }
        cell.append(button);
        if (label.note) {
          const note = document.createElement("span");
          note.className = "note";
          note.textContent = label.note;
          cell.append(note);
        }
        half.append(cell);
      }
      item.append(half);
    }
    list.append(item);
  });
  const current = list.querySelector(".ply.current");
  if (current && view !== null) scrollWithin(list, current);
  else list.scrollTop = list.scrollHeight;
}

// Bring ``item`` into view inside the list that scrolls, and only there: scrollIntoView would
// scroll the page as well, taking the board away from a reader who clicked a move far below it.
function scrollWithin(list, item) {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

// The panels a player opened or closed in the box under the board (backgammon's fair dice) stay
// so when it is drawn again at the next move; untouched, each keeps the board's own choice.
const opened = new Map(); // a <details>'s id -> whether the player left it open
$("extra").addEventListener("click", (event) => {
  const summary = event.target.closest("summary");
  const details = summary && summary.parentElement;
  if (details && details.id) opened.set(details.id, !details.open); // the state the click gives
}, true);  // prettier-ignore

function keepOpened(holder) {
  for (const details of holder.querySelectorAll("details[id]")) {
    if (opened.has(details.id)) details.open = opened.get(details.id);
  }
}

function wireVerify() {
  const button = $("verify-dice");
  if (!button || !boardModule.verifyDice) return;
  button.addEventListener("click", async () => {
    const fromOpening = / - -$/.test(snap.start);
    const result = await boardModule.verifyDice(snap.dice, fromOpening);
    const box = $("verify-result");
    box.replaceChildren();
    const head = document.createElement("p");
    head.className = result.allOk ? "verified" : "not-verified";
    head.textContent = result.allOk ? t("bg.verified_ok", { n: result.rows.length }) : t("bg.verified_bad");
    box.append(head);
    const table = document.createElement("table");
    table.className = "verify-table";
    const headRow = document.createElement("tr");
    for (const text of ["#", t("bg.recorded"), t("bg.computed"), ""]) {
      const th = document.createElement("th");
      th.textContent = text;
      headRow.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(headRow);
    table.append(thead);
    const body = document.createElement("tbody");
    for (const row of result.rows) {
      const tr = document.createElement("tr");
      tr.className = row.ok ? "ok" : "bad";
      for (const value of [row.index, row.recorded, row.computed, row.ok ? "✓" : "✗"]) {
        const td = document.createElement("td");
        td.textContent = String(value);
        tr.append(td);
      }
      body.append(tr);
    }
    table.append(body);
    box.append(table);
    box.dataset.verified = result.allOk ? "yes" : "no";
  });
}

// -- controls ------------------------------------------------------------------------------

function step(to) {
  const total = snap.history.length;
  const target = Math.max(0, Math.min(total, to));
  view = target === total && mode !== "archive" ? null : target;
  render();
}

$("step-first").addEventListener("click", () => step(0));
$("step-prev").addEventListener("click", () => step(shownPlies() - 1));
$("step-next").addEventListener("click", () => step(shownPlies() + 1));
$("step-last").addEventListener("click", () => step(snap.history.length));
document.addEventListener("keydown", (event) => {
  if (!snap || event.target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "ArrowLeft") step(shownPlies() - 1);
  else if (event.key === "ArrowRight") step(shownPlies() + 1);
  else if (event.key === "Home" || event.key === "End") {
    // the start and the end of the game, as the arrows step (the page does not scroll)
    event.preventDefault();
    step(event.key === "Home" ? 0 : snap.history.length);
  }
});

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  if (submit(text)) input.value = "";
});

$("turn-done").addEventListener("click", () => board.finish && board.finish());
$("turn-undo").addEventListener("click", () => board.undoStep && board.undoStep());
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("ask-undo").addEventListener("click", () => send({ type: "undo-request" }));
$("accept-undo").addEventListener("click", () => send({ type: "undo-answer", accept: true }));
$("refuse-undo").addEventListener("click", () => send({ type: "undo-answer", accept: false }));
// Resign and Abort ask first, in the page (results.js): a step that cannot be taken back
const confirmBox = createConfirm();
$("resign").addEventListener("click", () => {
  if (board.resign && board.resign()) return; // the board offers its own choices
  confirmBox.ask(t("play.resign_confirm"), t("play.resign_yes"), () => send({ type: "resign" }), $("resign"));
});
$("abort").addEventListener("click", () => {
  confirmBox.ask(t("play.abort_confirm"), t("play.abort_yes"), () => send({ type: "abort" }), $("abort"));
});
$("offer-draw").addEventListener("click", () => send({ type: "draw-offer" }));
$("accept-draw").addEventListener("click", () => send({ type: "draw-answer", accept: true }));
$("decline-draw").addEventListener("click", () => send({ type: "draw-answer", accept: false }));
// this page asked to go to the rematch (accepted it, or went to it): the answer leads there,
// it need not follow it too. An offer only waits: the page follows once it is made.
let rematchAsked = false;
$("rematch").addEventListener("click", () => {
  rematchAsked = Boolean(snap && (snap.rematch || snap.mode !== "friend"));
  send({ type: "rematch" });
});
{
  const button = document.createElement("button");
  Object.assign(button, { type: "button", id: "watch-rematch", hidden: true, textContent: t("play.watch_rematch") });
  button.addEventListener("click", () => send({ type: "rematch" })); // the answer leads to its watch page
  document.querySelector(".panel .controls").append(button);
}
$("accept-rematch").addEventListener("click", () => {
  rematchAsked = true;
  send({ type: "rematch" });
});
$("decline-rematch").addEventListener("click", () => send({ type: "rematch-decline" }));
$("copy-position").addEventListener("click", async () => {
  const text = positionAt(shownPlies());
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // no clipboard here: the position is shown all the same
  }
  say(`${t("play.position")}${t("punct.colon")}${text}`);
});

connect();
