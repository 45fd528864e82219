// The game page: connection, move list, history, controls. The board itself is a module per
// game (static/boards/<game>.js); the server decides what is legal, the page only shows it.
import { t } from "./i18n.js";

const root = document.getElementById("game-root");
const { token, mode, game: gameName, gameId } = root.dataset;
const $ = (id) => document.getElementById(id);
const boardModule = await import(`./boards/${gameName}.js`);

let snap = null; // the latest state from the server
let view = null; // null: the live position; else the number of plies shown
let socket = null;
let retry = 400;
let pending = false; // a move was sent and its answer has not come yet
let previous = null; // the state before the latest one (to animate captures)

let askCounter = 0;
let rematchDeclined = false; // this player turned the opponent's rematch offer down
const waiting = new Map(); // answers to requests the board made (one-checker moves)

function ask(message) {
  const id = ++askCounter;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    if (!send({ ...message, id })) {
      waiting.delete(id);
      resolve({ type: "error", message: t("play.offline") });
    }
  });
}

function onTurn({ canFinish, canUndo, hidden, labels }) {
  $("turn-controls").hidden = Boolean(hidden);
  $("turn-done").disabled = !canFinish;
  // only while part of a turn can be taken back: never beside the panel's Undo for nothing
  $("turn-undo").hidden = !canUndo;
  if (labels) {
    $("turn-done").textContent = labels.done;
    $("turn-undo").textContent = labels.undo;
  }
}

const board = boardModule.createBoard($("board"), {
  t,
  onMove: (notation) => submit(notation),
  chooser: $("chooser"),
  say: (text, isError = false) => say(text, isError),
  ask,
  onTurn,
});

// -- talking to the server -----------------------------------------------------------------

function connect() {
  if (mode === "archive") {
    fetch(`/api/games/${gameId}`)
      .then((r) => r.json())
      .then((s) => {
        snap = s;
        view = 0;
        render();
      });
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.addEventListener("open", () => {
    retry = 400;
    $("connection").textContent = t("play.online");
    $("connection").classList.remove("offline");
  });
  socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    $("connection").textContent = t("play.offline");
    $("connection").classList.add("offline");
    pending = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

function handle(message) {
  if (message.type === "state") {
    previous = snap;
    snap = message.game;
    pending = false;
    if (view !== null && mode !== "archive" && previous && view === previous.history.length) view = null;
    render();
  } else if (message.type === "error" && message.id && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
  } else if (message.type === "partial" && waiting.has(message.id)) {
    waiting.get(message.id)(message);
    waiting.delete(message.id);
  } else if (message.type === "error") {
    pending = false;
    say(message.message, true);
    render();
  } else if (message.type === "rematch") {
    location.href = message.url;
  }
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    say(t("play.offline"), true);
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function submit(notation) {
  if (!snap || pending) return;
  say("");
  if (send({ type: "move", move: notation, ply: snap.ply })) pending = true;
}

function say(text, isError = false) {
  const box = $("message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError && text));
}

// -- drawing the page ----------------------------------------------------------------------

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
  const interactive = live && snap.can_move && !pending;
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
  $("extra").innerHTML = boardModule.describe ? boardModule.describe(snap, positionAt(plies), t) : "";
  wireVerify();
  // where the view is, the last move included (it used to go blank there)
  $("step-info").textContent = snap.history.length ? t("play.viewing", { n: plies, total: snap.history.length }) : "";
  // watchers and replays have no move to type: no box that does nothing
  $("move-form").hidden = mode !== "play" || snap.watch;
  $("move-input").disabled = !interactive;
  $("move-submit").disabled = !interactive;
}

function renderStatus(live) {
  const status = $("status");
  const result = $("result");
  if (snap.outcome) {
    const o = snap.outcome;
    const head = o.winner ? t("play.result.win", { side: sideName(o.winner) }) : t("play.result.draw");
    result.hidden = false;
    result.innerHTML = "";
    const strong = document.createElement("strong");
    strong.textContent = head;
    result.append(strong, ` — ${t(`reason.${o.reason}`)}`);
    result.dataset.winner = o.winner || "";
    result.dataset.reason = o.reason;
    status.textContent = head;
  } else {
    result.hidden = true;
    let text = t("play.to_move", { side: sideName(snap.to_move) });
    if (snap.computer && snap.to_move === snap.computer.side) text += ` — ${t("play.thinking")}`;
    else if (snap.can_move && snap.seat !== "both") text += ` — ${t("play.your_turn")}`;
    status.textContent = text;
  }
  status.dataset.toMove = snap.to_move || "";
  const seat = $("seat-line");
  if (mode === "archive" || snap.watch) seat.textContent = t("play.watching");
  else if (snap.my_sides.length > 1) seat.textContent = t("play.you_both");
  else if (snap.my_sides.length === 1) seat.textContent = t("play.you_are", { side: sideName(snap.my_sides[0]) });
  else seat.textContent = "";
  if (!live && mode !== "archive") status.textContent += ` (${t("play.viewing", { n: shownPlies(), total: snap.history.length })})`;
}

function hasMoveOf(sides) {
  return snap.history.some((h) => h.kind === "move" && sides.includes(h.side));
}

function renderControls(live) {
  const player = mode === "play" && !snap.watch;
  const over = Boolean(snap.outcome);
  // a finished game is final: no undo once the result is shown
  $("undo").hidden = !(player && snap.undo.free && hasMoveOf(snap.my_sides) && !over);
  $("ask-undo").hidden = !(player && !snap.undo.free && !over && hasMoveOf(snap.my_sides) && !snap.undo.request);
  $("resign").hidden = !(player && !over);
  // between friends, the one who did not ask first sees the other's offer
  const offered = player && over && snap.mode === "friend" && snap.rematch && !rematchDeclined;
  $("rematch-offer").hidden = !offered;
  $("rematch").hidden = !(player && over) || offered;
  const request = snap.undo.request;
  const box = $("undo-request");
  if (player && request && !snap.undo.free) {
    box.hidden = false;
    const mine = snap.my_sides.includes(request);
    $("undo-request-text").textContent = mine ? t("play.undo_asked") : t("play.undo_request");
    $("accept-undo").hidden = mine;
    $("refuse-undo").hidden = mine;
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

function renderMoves(plies) {
  const list = $("move-list");
  list.innerHTML = "";
  snap.history.forEach((entry, index) => {
    const item = document.createElement("li");
    item.className = entry.kind;
    item.dataset.ply = String(index + 1);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = boardModule.historyText ? boardModule.historyText(entry, t) : entry.text;
    button.title = entry.side && entry.side !== "chance" ? sideName(entry.side) : "";
    button.addEventListener("click", () => {
      view = index + 1 === snap.history.length ? null : index + 1;
      render();
    });
    if (index + 1 === plies) item.classList.add("current");
    item.append(button);
    list.append(item);
  });
  const current = list.querySelector(".current");
  if (current && view !== null) current.scrollIntoView({ block: "nearest" });
  else list.scrollTop = list.scrollHeight;
}

function wireVerify() {
  const button = $("verify-dice");
  if (!button || !boardModule.verifyDice) return;
  button.addEventListener("click", async () => {
    const fromOpening = / - -$/.test(snap.start);
    const result = await boardModule.verifyDice(snap.dice, fromOpening);
    const box = $("verify-result");
    box.innerHTML = "";
    const head = document.createElement("p");
    head.className = result.allOk ? "verified" : "not-verified";
    head.textContent = result.allOk ? t("bg.verified_ok", { n: result.rows.length }) : t("bg.verified_bad");
    box.append(head);
    const table = document.createElement("table");
    table.className = "verify-table";
    table.innerHTML = `<thead><tr><th>#</th><th>${t("bg.recorded")}</th><th>${t("bg.computed")}</th><th></th></tr></thead>`;
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
  if (!snap || event.target.closest("input, textarea")) return;
  if (event.key === "ArrowLeft") step(shownPlies() - 1);
  else if (event.key === "ArrowRight") step(shownPlies() + 1);
});

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  submit(text);
  input.value = "";
});

$("turn-done").addEventListener("click", () => board.finish && board.finish());
$("turn-undo").addEventListener("click", () => board.undoStep && board.undoStep());
$("undo").addEventListener("click", () => send({ type: "undo" }));
$("ask-undo").addEventListener("click", () => send({ type: "undo-request" }));
$("accept-undo").addEventListener("click", () => send({ type: "undo-answer", accept: true }));
$("refuse-undo").addEventListener("click", () => send({ type: "undo-answer", accept: false }));
$("resign").addEventListener("click", () => {
  if (window.confirm(t("play.resign_confirm"))) send({ type: "resign" });
});
$("rematch").addEventListener("click", () => send({ type: "rematch" }));
$("accept-rematch").addEventListener("click", () => send({ type: "rematch" }));
$("decline-rematch").addEventListener("click", () => {
  rematchDeclined = true;
  render();
});
$("copy-position").addEventListener("click", async () => {
  const text = positionAt(shownPlies());
  try {
    await navigator.clipboard.writeText(text);
    say(`${t("play.position")}: ${text}`);
  } catch {
    say(`${t("play.position")}: ${text}`);
  }
});

connect();
