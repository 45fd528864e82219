// A lesson: one step at a time, a small position where the player makes the move that shows a
// rule. The board is the game's own module (static/boards/<game>.js), used as the analysis
// board uses it: the server says what is legal (/api/analysis/position, /partial); the lesson's
// API judges the move with the engine (/api/lessons/<game>/<step>): solved, missed (why, and the
// position set back) or refused (the engine's words). A guest's progress is kept in this
// browser; an account's by the server (and what the browser kept before is given to it).
import { t } from "./i18n.js";
import { HINTS_EVENT } from "./boards/svg.js";
import { $, announce, drawPosition, partialAsker, postJson, say, turnControls, verdict, wireTurnButtons } from "./board-host.js";

const root = $("lesson-root");
const game = root.dataset.game;
const data = JSON.parse($("lesson-data").textContent);
const { steps, words: W, account } = data;
const boardModule = await import(`./boards/${game}.js`);
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
const STORE = `lessons.${game}`;

const fill = (text, values = {}) => text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));

let index = 0; // the step shown
let solvedHere = false; // whether the step shown is solved (the board then rests)
let busy = false;
let version = 0; // a new number for every position shown (the boards compare it)
let shown = null; // the position on the board
let solved = new Set(data.solved);

function kept() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(found) ? found.filter((id) => steps.some((s) => s.id === id)) : [];
  } catch {
    return [];
  }
}

function keep(ids) {
  try {
    localStorage.setItem(STORE, JSON.stringify([...ids]));
  } catch {
    /* a browser that keeps nothing: the progress lasts as long as the page */
  }
}

// the CSRF token goes with the requests where the page has one
const post = (url, body) => postJson(url, body, csrf ? { "X-CSRF-Token": csrf } : {});

const step = () => steps[index];

const ask = partialAsker(post, () => ({ game, ruleset: step().ruleset, position: shown }));
const onTurn = turnControls(() => solvedHere); // a solved step's board rests

const board = boardModule.createBoard($("board"), {
  t, onMove: (notation) => tryMove(notation), chooser: $("chooser"), say, ask, onTurn, announce, giveUp: () => {},
});

// Show ``position``: ``live``, the player may move on it (the step's own position); ``last``,
// the move that led to it from ``before`` (a history entry, drawn as the boards draw a last move).
async function show(position, live, last = null, before = null) {
  let view;
  try {
    view = await post("/api/analysis/position", { game, ruleset: step().ruleset, position });
  } catch (error) {
    verdict(fill(W["learn.error"], { error: error.message }), "error");
    return;
  }
  shown = position;
  version += 1;
  const canMove = Boolean(live && view.to_move && view.to_move !== "chance" && !view.outcome);
  drawPosition(board, {
    id: "lesson", game, view, position, start: before ?? position, seat: "both", mySides: view.sides, canMove, ply: version,
    history: last ? [last] : [], last, before, animate: false,
  });
  $("rolls").hidden = !(live && view.to_move === "chance");
  $("move-input").disabled = !live;
  $("move-submit").disabled = !live;
  if (!canMove) $("turn-controls").hidden = true;
  root.dataset.position = position;
}

function renderSteps() {
  for (const [i, button] of [...$("steps").querySelectorAll("button")].entries()) {
    const id = steps[i].id;
    button.classList.toggle("solved", solved.has(id));
    if (i === index) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
    let mark = button.querySelector(".step-done");
    if (solved.has(id) && !mark) {
      mark = Object.assign(document.createElement("span"), { className: "step-done", textContent: `✓ ${W["learn.done_mark"]}` });
      button.append(mark);
    }
  }
  $("progress").textContent = fill(W["learn.progress"], { done: solved.size, total: steps.length });
}

async function go(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const s = step();
  solvedHere = false;
  root.dataset.solved = "";
  $("step-count").textContent = fill(W["learn.step_of"], { n: index + 1, total: steps.length });
  $("step-title").textContent = s.title;
  $("step-do").textContent = s.do;
  $("step-side").textContent = s.side === "chance" ? W["learn.roll"] : fill(W["learn.you_play"], { side: t(`side.${s.side}`) });
  $("hint").textContent = s.hint;
  $("hint").hidden = true;
  $("hint-button").setAttribute("aria-expanded", "false");
  $("hint-button").hidden = false;
  drawHint(false);
  $("next").hidden = true;
  $("retry").hidden = true;
  verdict("");
  say("");
  const url = new URL(location.href);
  url.searchParams.set("step", s.id);
  history.replaceState(null, "", url);
  renderSteps();
  await show(s.position, true);
  root.dataset.step = s.id; // the step is ready to be played (tests wait for it)
}

async function tryMove(notation) {
  if (busy || solvedHere) return false;
  busy = true;
  say("");
  const s = step();
  let reply;
  try {
    reply = await post(`/api/lessons/${game}/${s.id}`, { move: notation });
  } catch (error) {
    busy = false;
    await show(s.position, true);
    verdict(fill(W["learn.error"], { error: error.message }), "error");
    return false;
  }
  busy = false;
  if (reply.result === "solved") {
    solvedHere = true;
    root.dataset.solved = "1";
    solved = new Set(account ? reply.solved : [...solved, s.id]);
    if (!account) keep(solved);
    const last = index === steps.length - 1;
    verdict(`${W["learn.solved"]} ${reply.message}${solved.size === steps.length && last ? ` ${W["learn.finished"]}` : ""}`, "solved");
    const kind = s.side === "chance" ? "chance" : "move";
    await show(reply.position, false, { kind, text: reply.played, side: s.side, position: reply.position }, s.position);
    $("hint-button").hidden = true;
    $("hint").hidden = true;
    drawHint(false);
    $("next").hidden = last;
    $("retry").hidden = false;
    renderSteps();
    ($("next").hidden ? $("retry") : $("next")).focus();
    return true;
  }
  await show(s.position, true); // the position set back, then why
  verdict(reply.message, reply.result);
  return false;
}

// the hint: its words, and a move that meets the goal drawn on the board as the boards draw the
// engine's best moves (none at a roll)
function drawHint(on) {
  if (shown === null) return;
  const move = on ? step().hint_move : null;
  $("board").dispatchEvent(new CustomEvent(HINTS_EVENT, { detail: { moves: move ? [move] : [], position: shown } }));
}
$("hint-button").addEventListener("click", () => {
  const open = $("hint").hidden;
  $("hint").hidden = !open;
  $("hint-button").setAttribute("aria-expanded", String(open));
  drawHint(open);
});
$("next").addEventListener("click", () => go(index + 1));
$("retry").addEventListener("click", () => go(index));
wireTurnButtons(() => board);
$("move-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (text && !busy && !solvedHere) {
    $("move-input").value = "";
    await tryMove(text);
  }
});
$("set-roll").addEventListener("click", () => tryMove(`w${$("die-1").value}b${$("die-2").value}`));
for (const [i, button] of [...$("steps").querySelectorAll("button")].entries()) button.addEventListener("click", () => go(i));

// a guest's steps; an account takes what this browser kept before signing in
if (!account) solved = new Set(kept());
else if (kept().length) {
  try {
    const reply = await post("/api/lessons/progress", { game, steps: kept() });
    solved = new Set(reply.solved[game]);
    localStorage.removeItem(STORE);
  } catch {
    /* kept in the browser for another time */
  }
}
const wanted = steps.findIndex((s) => s.id === new URLSearchParams(location.search).get("step"));
const first = steps.findIndex((s) => !solved.has(s.id));
go(wanted >= 0 ? wanted : Math.max(first, 0));
