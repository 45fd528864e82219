// The analysis board: any position, moves played on it, and the engine's best moves with their
// values after each. The board is the game's own module (static/boards/<game>.js); the server
// says what is legal (/api/analysis/position, /partial) and what is best (/api/analysis/best).
// The address always holds the position shown, so that a link opens it again.
import { t } from "./i18n.js";
import { w } from "/analysis/words.js";
import { renderLines } from "./analysis.js";
import { createEditor } from "./analysis-editor.js";
import { $, announce, drawPosition, partialAsker, postJson, say, turnControls, wireTurnButtons } from "./board-host.js";

const root = $("board-root");
const { game, ruleset } = root.dataset;
let start = root.dataset.start; // the position set up (by the address, or by the editor)
const boardModule = await import(`./boards/${game}.js`);
const measure = game === "backgammon" ? "equity" : "win";
const HISTORY = 40;

let line = []; // the moves played here: history entries { kind, text, side, position }
let view = 0; // how many of them are shown
let current = null; // the server's view of the position shown
let version = 0; // a new number for every position shown (the boards compare it)
let busy = false;
const positions = new Map(); // position string -> the server's view
const best = new Map(); // position string -> the engine's lines

const sideName = (side) => t(`side.${side}`);

const post = (url, body) => postJson(url, body); // the analysis API takes no token

const positionAt = (n) => (n === 0 ? start : line[n - 1].position);

// the boards ask for part of a turn (a backgammon checker, a Defiance action)
const ask = partialAsker(post, () => ({ game, ruleset, position: positionAt(view) }));
const onTurn = turnControls();

const board = boardModule.createBoard($("board"), { t, onMove: (notation) => play(notation), chooser: $("chooser"), say, ask, onTurn, announce });

async function viewOf(position) {
  if (!positions.has(position)) positions.set(position, await post("/api/analysis/position", { game, ruleset, position }));
  return positions.get(position);
}

// Play a move (or a roll) on the position shown: the moves after it are replaced.
async function play(notation) {
  if (busy) return false;
  busy = true;
  say("");
  try {
    const reply = await post("/api/analysis/position", { game, ruleset, position: positionAt(view), move: notation });
    positions.set(reply.position, reply);
    line = line.slice(0, view).concat([{ ...reply.played, position: reply.position }]);
    view = line.length;
    busy = false;
    await show();
    return true;
  } catch (error) {
    busy = false;
    say(error.message, true);
    await show();
    return false;
  }
}

function rollText(roll) {
  let m = /^w(\d)b(\d)$/.exec(roll);
  if (m) return `${sideName("white")} ${m[1]}, ${sideName("black")} ${m[2]}`;
  m = /^(\d)(\d)$/.exec(roll);
  return m ? `${m[1]}-${m[2]}` : roll;
}

function address(position) {
  const query = new URLSearchParams({ game, ruleset, position });
  return `/analysis?${query.toString()}`;
}

async function show() {
  const position = positionAt(view);
  try {
    current = await viewOf(position);
  } catch (error) {
    say(error.message, true);
    return;
  }
  version += 1;
  const shown = line.slice(0, view);
  const live = current.to_move && current.to_move !== "chance" && !current.outcome;
  const snap = drawPosition(board, {
    id: "analysis", game, view: current, position, start, seat: "both", mySides: current.sides, canMove: Boolean(live),
    ply: version, history: shown, last: shown.length ? shown[shown.length - 1] : null,
    before: view > 0 ? positionAt(view - 1) : null, animate: false,
  });
  // what the page says around the board
  const o = current.outcome;
  if (o) {
    const result = o.winner ? t("play.result.win", { side: sideName(o.winner) }) : t("play.result.draw");
    $("status").textContent = w("board.over", { result: `${result} — ${t(`reason.${o.reason}`)}` });
  } else if (current.to_move === "chance") {
    $("status").textContent = w("board.roll_help");
  } else {
    $("status").textContent = w("board.to_move", { side: sideName(current.to_move) });
  }
  // the roll: two dice (at the opening, each side's die)
  const rolls = $("rolls");
  rolls.hidden = current.to_move !== "chance";
  const opening = current.rolls.some((roll) => roll.startsWith("w"));
  $("die-1-label").textContent = opening ? w("board.die", { side: "white" }) : w("board.die1");
  $("die-2-label").textContent = opening ? w("board.die", { side: "black" }) : w("board.die2");
  $("move-input").disabled = !(live || current.to_move === "chance");
  $("move-submit").disabled = $("move-input").disabled;
  renderMoves();
  $("back").disabled = view === 0;
  $("reset").disabled = view === 0;
  const described = boardModule.describe ? boardModule.describe(snap, position, t) : [];
  $("extra").replaceChildren(...(Array.isArray(described) ? described : [described]));
  const url = address(position);
  history.replaceState(null, "", url);
  $("link").value = new URL(url, location.href).href;
  $("play-here").href = `/?${new URLSearchParams({ game, ruleset, position }).toString()}`;
  root.dataset.position = position;
  await lines(position, live);
}

async function lines(position, live) {
  const holder = $("lines");
  if (!live) {
    holder.replaceChildren(Object.assign(document.createElement("p"), { className: "hint-wait", textContent: current.to_move === "chance" ? w("board.roll_help") : w("board.none") }));
    root.dataset.lines = "none";
    return;
  }
  const title = Object.assign(document.createElement("p"), { className: "hint-title", textContent: w("board.lines", { side: current.to_move }) });
  if (!best.has(position)) {
    holder.replaceChildren(title, Object.assign(document.createElement("p"), { className: "hint-wait", textContent: w("hints.thinking") }));
    root.dataset.lines = "thinking";
    const earlier = [start, ...line.slice(0, Math.max(0, view - 1)).map((e) => e.position)].slice(-HISTORY);
    try {
      const answer = await post("/api/analysis/best", { game, ruleset, position, history: view > 0 ? earlier : [] });
      best.set(position, answer.moves);
    } catch (error) {
      if (positionAt(view) === position) {
        holder.replaceChildren(title, Object.assign(document.createElement("p"), { className: "hint-wait", textContent: w("hints.failed", { error: error.message }) }));
        root.dataset.lines = "failed";
      }
      return;
    }
  }
  if (positionAt(view) !== position) return; // the user moved on meanwhile
  const box = document.createElement("div");
  renderLines(box, best.get(position), measure, { onPick: (move) => play(move) });
  holder.replaceChildren(title, box);
  root.dataset.lines = "ready";
}

function renderMoves() {
  const list = $("move-list");
  list.replaceChildren();
  line.forEach((entry, i) => {
    const item = document.createElement("li");
    item.className = "board-move";
    const button = document.createElement("button");
    button.type = "button";
    const who = entry.side && entry.side !== "chance" ? `${sideName(entry.side)}: ` : "";
    button.textContent = `${i + 1}. ${who}${entry.kind === "chance" ? rollText(entry.text) : entry.text}`;
    if (i + 1 === view) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => go(i + 1));
    item.append(button);
    list.append(item);
  });
}

function go(n) {
  view = Math.max(0, Math.min(line.length, n));
  say("");
  show();
}

$("back").addEventListener("click", () => go(view - 1));
$("reset").addEventListener("click", () => go(0));
wireTurnButtons(() => board);
$("set-roll").addEventListener("click", () => {
  const [a, b] = [$("die-1").value, $("die-2").value];
  play(current.rolls.some((roll) => roll.startsWith("w")) ? `w${a}b${b}` : `${a}${b}`);
});
$("move-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (text && (await play(text))) input.value = "";
});
$("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("link").value);
  } catch {
    $("link").select();
  }
  say(w("board.copied"));
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, #editor")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "ArrowLeft") go(view - 1);
  else if (event.key === "ArrowRight") go(view + 1);
  else if (event.key === "Home" || event.key === "End") {
    // the line's start and its end, as on a game's page (the page does not scroll)
    event.preventDefault();
    go(event.key === "Home" ? 0 : line.length);
  }
});

// -- the editor: the board is set up by hand, then analysed from there -----------------------

const editor = createEditor({
  game, ruleset, boardModule, post, cap: Number(root.dataset.cap), pool: Number(root.dataset.pool), initial: root.dataset.initial,
  text: $("setup-position"),
  onAnalyse(position) {
    start = position;
    root.dataset.start = position;
    line = [];
    view = 0;
    editing(false);
    show();
  },
  onLeave: () => editing(false),
});

function editing(on) {
  root.dataset.mode = on ? "edit" : "play";
  $("editor").hidden = !on;
  $("edit").setAttribute("aria-expanded", String(on));
  $("setup-edit").disabled = !on;
  if (on) {
    say("");
    editor.open(positionAt(view));
    $("editor-palette").querySelector('[aria-pressed="true"]').focus(); // the piece chosen
  } else $("edit").focus();
}
$("edit").addEventListener("click", () => editing(root.dataset.mode !== "edit"));

show();
if (root.dataset.editing) editing(true);
