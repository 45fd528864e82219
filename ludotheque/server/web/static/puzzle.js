// A puzzle's page: the board is the game's own module (static/boards/<game>.js), used as the
// analysis board uses it: the server says what is legal (/api/analysis/position, /partial).
// The answers go to the puzzle's attempt (/api/puzzles/attempts/<id>/move): a right move is
// played with the reply, a wrong one is said and the position comes back. After the answer the
// proof steps through the whole line with what its source measured.
import { t } from "./i18n.js";
import { w } from "/analysis/words.js";
import { $, announce, drawPosition, partialAsker, postJson, readReply, say, turnControls, verdict, wireTurnButtons } from "./board-host.js";

const root = $("board-root");
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
const REPLY_DELAY = 450;

let puzzle = null; // the puzzle as the API gives it (no solution)
let attempt = null; // the attempt's id
let streak = null; // the streak going on, if any
let position = null; // the position shown
let board = null;
let boardModule = null;
let boardGame = null; // the game the board was made for
let view = null; // the server's view of the position shown
let busy = false;
let answered = false; // an answer is known (right first time, or a wrong move)
let proof = null; // the whole line, once asked
let proofAt = 0;
let version = 0;
let last = null; // the last move shown (for the board's marks)

const sideName = (side) => t(`side.${side}`);
// a theme's name in the page's language (its own word when it has none)
const themeName = (theme) => {
  const key = `puzzle.theme.${theme}`;
  const name = t(key);
  return name === key ? theme : name;
};
// a step of the line as the board's last move (a cube's "no double" is the roll it leads to)
const lastOf = (step) => ({ kind: "move", text: step.move === "no double" ? "roll" : step.move, side: step.side, position: step.position });

const post = (url, body) => postJson(url, body, { "X-CSRF-Token": csrf });
const get = async (url) => readReply(await fetch(url));

// the boards ask for part of a turn (a backgammon checker, a Defiance action)
const ask = partialAsker(post, () => ({ game: puzzle.game, ruleset: puzzle.ruleset, position }));
const onTurn = turnControls();

// a guest's answered puzzles, kept in the browser so that the next puzzle is a new one
const SEEN = 300;
const seenKey = (game) => `puzzle-seen-${game}`;
const seenOf = (game) => {
  try {
    return JSON.parse(localStorage.getItem(seenKey(game)) || "[]").slice(-SEEN);
  } catch {
    return [];
  }
};
function remember(game, id) {
  const seen = seenOf(game).filter((other) => other !== id);
  localStorage.setItem(seenKey(game), JSON.stringify([...seen, id].slice(-SEEN)));
}

const storedBest = (game) => Number(localStorage.getItem(`puzzle-streak-best-${game}`) || 0);

// Show a position: the solver may move on it when ``live`` (their turn in the puzzle).
async function show(shown, live, before = null) {
  position = shown;
  try {
    view = await post("/api/analysis/position", { game: puzzle.game, ruleset: puzzle.ruleset, position: shown });
  } catch (error) {
    say(error.message, true);
    return;
  }
  version += 1;
  const movable = Boolean(live && !puzzle.cube && view.to_move && view.to_move !== "chance" && !view.outcome);
  drawPosition(board, {
    id: "puzzle", game: puzzle.game, view, position: shown, start: puzzle.position, seat: puzzle.side, mySides: [puzzle.side],
    canMove: movable, ply: version, history: last ? [last] : [], last, before, animate: Boolean(before),
  });
  const cube = $("cube-answers");
  cube.hidden = !(live && puzzle.cube);
  if (!cube.hidden) {
    for (const button of cube.querySelectorAll("button")) {
      const answer = button.dataset.answer;
      const offered = view.legal.includes("double") ? ["double", "no double"] : ["take", "drop"];
      button.hidden = !offered.includes(answer);
    }
  }
  root.dataset.position = shown;
}

function prompt() {
  const who = sideName(puzzle.side);
  $("status").textContent = puzzle.cube ? t("puzzle.cube", { who }) : t("puzzle.find", { who });
}

// the puzzle's line: its game, its rating, its themes
function describeInfo() {
  const parts = attempt.mode === "mistake" ? [] : [t("puzzle.rating", { rating: puzzle.rating })];
  if (puzzle.themes.length) parts.push(t("puzzle.themes", { themes: puzzle.themes.map(themeName).join(", ") }));
  $("puzzle-info").textContent = `${t(`game.${puzzle.game}`)} · ${parts.join(" · ")}`;
}

function describe() {
  describeInfo();
  const mode = attempt.mode;
  $("puzzle-title").textContent = t(`puzzle.mode.${mode}`);
  if (root.dataset.signedIn) $("rated-note").textContent = attempt.rated ? t("puzzle.rated") : t("puzzle.unrated");
  showStreak();
}

function showStreak() {
  const box = $("streak-info");
  box.hidden = !streak;
  if (!streak) return;
  const best = Math.max(streak.best, storedBest(puzzle.game));
  const told = streak.over ? t("puzzle.streak_over", { n: streak.count }) : t("puzzle.streak_count", { n: streak.count });
  box.textContent = `${told} · ${t("puzzle.streak_best", { n: best })}`;
  root.dataset.streak = String(streak.count);
}

async function start() {
  const mode = root.dataset.mode;
  const body = { mode, game: root.dataset.game || null };
  if (root.dataset.theme) body.theme = root.dataset.theme;
  if (mode === "puzzle") body.id = root.dataset.puzzle;
  if (mode === "streak" && streak && !streak.over) body.streak = streak.id;
  if (mode === "play" && !root.dataset.signedIn && body.game) body.seen = seenOf(body.game);
  root.dataset.state = "loading";
  say("");
  verdict("");
  try {
    attempt = await post("/api/puzzles/start", body);
  } catch (error) {
    $("status").textContent = "";
    say(error.message, true);
    root.dataset.state = "error";
    return;
  }
  puzzle = attempt.puzzle;
  streak = attempt.streak;
  answered = false;
  proof = null;
  last = null;
  $("proof").hidden = true;
  $("show-proof").hidden = true;
  $("next-puzzle").hidden = true;
  root.dataset.game = puzzle.game;
  root.dataset.puzzleId = puzzle.id;
  if (!board || boardGame !== puzzle.game) {
    boardModule = await import(`./boards/${puzzle.game}.js`);
    boardGame = puzzle.game;
    $("board").replaceChildren();
    board = boardModule.createBoard($("board"), { t, onMove: (notation) => answer(notation), chooser: $("chooser"), say, ask, onTurn, announce });
  }
  describe();
  prompt();
  await show(puzzle.position, true);
  root.dataset.state = "solving";
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(move) {
  if (busy || root.dataset.state !== "solving") return false;
  busy = true;
  say("");
  let result;
  try {
    result = await post(`/api/puzzles/attempts/${attempt.attempt}/move`, { move });
  } catch (error) {
    busy = false;
    say(error.message, true);
    await show(position, true);
    return false;
  }
  if (result.streak) streak = result.streak;
  if (!result.right) {
    verdict(t("puzzle.failed"), "wrong");
    say(t(streak && streak.over ? "puzzle.wrong_over" : "puzzle.wrong", { move: moveText(move) }), true);
    answered = true;
    await show(position, !(streak && streak.over)); // the position comes back
    ended(false, result);
    busy = false;
    return false;
  }
  // the solver's move, then the reply
  let before = position;
  for (const [i, step] of result.played.entries()) {
    if (i > 0) await wait(REPLY_DELAY);
    last = lastOf(step);
    await show(step.position, i === result.played.length - 1 && !result.solved, before);
    before = step.position;
  }
  if (result.solved) {
    answered = true;
    // found after a wrong first answer: the line is complete, and the puzzle still missed
    verdict(result.result === "win" ? t("puzzle.solved") : t("puzzle.line_found"), result.result === "win" ? "solved" : "right");
    ended(true, result);
  } else {
    verdict(t("puzzle.right_more"), "right");
    prompt();
  }
  busy = false;
  return true;
}

function ended(solved, result) {
  if (!root.dataset.signedIn && attempt.mode === "play") remember(puzzle.game, puzzle.id);
  if (result.rating) {
    const change = Math.round(result.rating.change);
    // provisional as /puzzles writes it ("1560?"); the puzzle is rated by the answer too
    const rating = `${Math.round(result.rating.after)}${result.rating.provisional ? "?" : ""}`;
    $("rated-note").textContent = t("puzzle.your_rating", { rating, change: change >= 0 ? `+${change}` : `−${-change}` });
    if (typeof result.rating.puzzle === "number") {
      puzzle.rating = Math.round(result.rating.puzzle);
      describeInfo();
    }
  }
  if (streak) {
    const best = Math.max(streak.best, streak.count);
    if (!root.dataset.signedIn && best > storedBest(puzzle.game)) localStorage.setItem(`puzzle-streak-best-${puzzle.game}`, String(best));
    showStreak();
  }
  $("show-proof").hidden = false;
  const streakOver = Boolean(streak && streak.over);
  const mode = root.dataset.mode;
  const next = $("next-puzzle");
  next.hidden = mode === "daily" || (mode === "streak" && !solved && !streakOver);
  next.textContent = streakOver ? t("puzzle.new_streak") : mode === "puzzle" ? t("puzzle.again") : t("puzzle.next");
  root.dataset.state = solved ? "solved" : streakOver ? "over" : "solving";
  if (solved) $("status").textContent = $("verdict").textContent;
  if (streakOver) $("status").textContent = t("puzzle.streak_over", { n: streak.count });
}

// -- the proof: the whole line, stepped through on the board ----------------------------------

function fact(name, value) {
  const facts = proof.facts;
  if (name === "wins_in") return t(proof.source === "tables" ? "puzzle.fact.wins_in_tables" : "puzzle.fact.wins_in", { n: value });
  if (name === "margin") {
    const margin = Number(value).toLocaleString(document.documentElement.lang || "en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    if (puzzle.game !== "backgammon") return t("puzzle.fact.margin_win", { margin: `${Math.round(Number(value) * 100)} %` });
    if (facts.checked === "two plies, every play") return t("puzzle.fact.margin_plays", { margin });
    if (facts.checked === "cube two rolls ahead") return t("puzzle.fact.margin_cube", { margin });
    return t("puzzle.fact.margin", { margin, n: facts.plies ?? 2 });
  }
  if (name === "choices") return t("puzzle.fact.choices", { n: value });
  if (name === "played") return t("puzzle.fact.mistake", { played: value, label: w(`label.${facts.label}`) });
  if (name === "legal") return t("puzzle.fact.legal", { n: value });
  if (["plies", "label", "loss", "game_id", "ply", "move_index", "proof", "winner", "rebels", "checked", "found", "shallow_margin"].includes(name)) return null;
  return t("puzzle.fact.other", { name, value: typeof value === "object" ? JSON.stringify(value) : value });
}

// a move as the page says it (a cube's action in words)
const CUBE = { double: "puzzle.double", "no double": "puzzle.no_double", take: "puzzle.take", drop: "puzzle.drop" };
const moveText = (move) => (CUBE[move] ? t(CUBE[move]) : move);

async function openProof() {
  if (!proof) {
    try {
      proof = await get(`/api/puzzles/attempts/${attempt.attempt}/proof`);
    } catch (error) {
      say(error.message, true);
      return;
    }
  }
  $("proof").hidden = false;
  $("status").textContent = t("puzzle.proof");
  const facts = Object.entries(proof.facts).map(([name, value]) => fact(name, value)).filter(Boolean);
  facts.push(t(`puzzle.source.${proof.source}`));
  $("proof-facts").replaceChildren(...facts.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  root.dataset.state = root.dataset.state === "solving" ? "proof" : root.dataset.state;
  await proofStep(0);
  $("proof-next").focus();
}

async function proofStep(n) {
  proofAt = Math.max(0, Math.min(proof.steps.length, n));
  const list = $("proof-line");
  list.replaceChildren();
  proof.steps.forEach((step, i) => {
    const item = document.createElement("li");
    item.className = "board-move";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${sideName(step.side)}: ${moveText(step.move)}`;
    if (i + 1 === proofAt) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => proofStep(i + 1));
    item.append(button);
    list.append(item);
  });
  $("proof-back").disabled = proofAt === 0;
  $("proof-start").disabled = proofAt === 0;
  $("proof-next").disabled = proofAt === proof.steps.length;
  const step = proofAt > 0 ? proof.steps[proofAt - 1] : null;
  last = step ? lastOf(step) : null;
  const before = proofAt > 0 ? (proofAt > 1 ? proof.steps[proofAt - 2].position : proof.start) : null;
  root.dataset.proofAt = String(proofAt);
  await show(step ? step.position : proof.start, false, before);
  const o = view && view.outcome;
  if (o) {
    const result = o.winner ? t("play.result.win", { side: sideName(o.winner) }) : t("play.result.draw");
    $("status").textContent = `${t("puzzle.proof")} — ${result} (${t(`reason.${o.reason}`)})`;
  } else $("status").textContent = t("puzzle.proof");
}

$("show-proof").addEventListener("click", openProof);
$("proof-start").addEventListener("click", () => proofStep(0));
$("proof-back").addEventListener("click", () => proofStep(proofAt - 1));
$("proof-next").addEventListener("click", () => proofStep(proofAt + 1));
$("next-puzzle").addEventListener("click", () => {
  if (streak && streak.over) streak = null;
  start();
});
wireTurnButtons(() => board);
for (const button of $("cube-answers").querySelectorAll("button")) {
  button.addEventListener("click", () => answer(button.dataset.answer));
}

start();
