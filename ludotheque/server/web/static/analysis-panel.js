// The analysis on the game page (app.js calls render() after each drawing of the page):
// - a finished game gets "Analyse": the server runs it as a job, the page polls its progress,
//   then marks the move list, draws the chart and the summary (analysis.js);
// - at one screen and against the computer (unrated), a "Best moves" switch shows the
//   engine's three best moves of the position to play, each a button that plays it, and
//   draws them on the board too, numbered as in the list (boards/svg.js, HINTS_EVENT);
// - a link opens the position shown on the analysis board.
import { w } from "/analysis/words.js";
import { betterMove, chartTitle, comment, drawChart, el, markMoves, renderErrors, renderLines, renderSummary } from "./analysis.js";
import { HINTS_EVENT } from "./boards/svg.js";
import { readReply } from "./board-host.js";

const STRENGTHS = ["quick", "normal", "deep"];
const POLL_MS = 700;

// What a running analysis says: how far it is (a percentage of the plies) and the time left,
// estimated from the pace seen since this page first saw it run (``pace``: { at, done }, the
// time in ms and the plies done then; ``now`` in ms). Before a ply has been seen done, the
// estimate is being made.
export function progressText(view, pace, now) {
  const total = Math.max(1, view.total);
  const percent = Math.min(100, Math.floor((100 * view.done) / total));
  const head = w("analysis.running", { percent, done: view.done, total: view.total });
  const seconds = (now - pace.at) / 1000;
  const rate = seconds > 0 ? (view.done - pace.done) / seconds : 0; // plies a second
  if (!(rate > 0)) return `${head} — ${w("analysis.eta_unknown")}`;
  const left = Math.max(1, Math.ceil((view.total - view.done) / rate));
  const eta = left < 90 ? w("analysis.eta_seconds", { n: left }) : w("analysis.eta_minutes", { n: Math.round(left / 60) });
  return `${head} — ${eta}`;
}

function stylesheet() {
  if (document.querySelector('link[href="/static/analysis.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/analysis.css" }));
}

async function json(url, options = {}) {
  const response = await fetch(url, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  return readReply(response);
}

export function attachAnalysis({ mode, token, sideName, step, play }) {
  stylesheet();
  const $ = (id) => document.getElementById(id);
  const panel = document.querySelector(".panel");
  const asked = new URLSearchParams(location.search).get("analyse") === "1";

  // -- the analysis section ----------------------------------------------------------------
  const select = el("select", { id: "analysis-strength" });
  for (const name of STRENGTHS) select.append(el("option", { value: name, text: w(`analysis.strength.${name}`), selected: name === "normal" }));
  const analyseButton = el("button", { type: "button", id: "analyse", text: w("analysis.analyse") });
  const status = el("p", { id: "analysis-status", className: "analysis-status", role: "status" });
  const progress = el("progress", { id: "analysis-progress", max: "1", value: "0", hidden: true, "aria-labelledby": "analysis-status" });
  const commentBox = el("p", { id: "analysis-comment", className: "analysis-comment", "aria-live": "polite" });
  const chart = el("div", { id: "analysis-chart", className: "analysis-chart-box" });
  const chartHeading = el("h3", { id: "analysis-chart-title", text: w("analysis.chart") });
  const summary = el("div", { id: "analysis-summary" });
  const errors = el("ol", { id: "analysis-errors", className: "analysis-errors" });
  const intro = el("p", { className: "analysis-intro" });
  const result = el(
    "div",
    { id: "analysis-result", hidden: true },
    intro,
    commentBox,
    chartHeading,
    chart,
    el("p", { className: "analysis-note", text: w("analysis.chart_note") }),
    el("h3", { text: w("analysis.summary") }),
    summary,
    el("h3", { text: w("analysis.errors") }),
    errors,
  );
  const section = el(
    "section",
    { id: "analysis", className: "analysis", "aria-labelledby": "analysis-title", hidden: true },
    el("h2", { id: "analysis-title", text: w("analysis.title") }),
    el("div", { className: "analysis-ask" }, el("label", { for: "analysis-strength", text: `${w("analysis.strength")} ` }), select, analyseButton),
    status,
    progress,
    result,
  );
  const steps = panel.querySelector(".steps");
  (steps || panel.lastElementChild).after(section);

  // -- hints -------------------------------------------------------------------------------
  const hintsToggle = el("button", { type: "button", id: "hints-toggle", "aria-pressed": "false", "aria-controls": "hints-body", text: w("hints.toggle") });
  const hintsBody = el("div", { id: "hints-body", className: "hints-body", "aria-live": "polite", hidden: true });
  const hints = el("section", { id: "hints", className: "hints", "aria-label": w("hints.title"), hidden: true }, hintsToggle, hintsBody);
  const controls = panel.querySelector(".controls");
  (controls || panel.firstElementChild).after(hints);

  // -- the analysis board's link -----------------------------------------------------------
  const boardLink = el("a", { id: "analysis-board-link", hidden: true, text: w("analysis.open_board") });
  const links = panel.querySelector(".links");
  if (links) links.append(boardLink);

  let snap = null;
  let plies = 0;
  let analysis = null; // the analysis shown (JSON)
  let state = null; // the server's last word on the analysis asked
  let started = false; // the first look at the server's analyses was made
  let timer = null;
  let pace = null; // when this page first saw the analysis run, and how far it was then
  // "Best moves" stays as the player left it, game after game (kept in this browser)
  const HINTS_KEY = "ludotheque.hints";
  let hintsOn = localStorage.getItem(HINTS_KEY) === "on";
  let hintKey = null; // the position whose hints are shown (or asked)

  const gameId = () => snap && snap.id;

  function show(view) {
    state = view;
    const s = view.status;
    progress.hidden = !(s === "queued" || s === "running");
    analyseButton.disabled = s === "queued" || s === "running";
    if (s !== "running") pace = null;
    if (s === "queued") {
      status.textContent = w("analysis.queued");
      progress.removeAttribute("value");
    } else if (s === "running") {
      const now = performance.now();
      if (!pace || view.done < pace.done) pace = { at: now, done: view.done };
      status.textContent = progressText(view, pace, now);
      progress.max = Math.max(1, view.total);
      progress.value = view.done;
    } else if (s === "failed") {
      status.textContent = w("analysis.failed", { error: view.error || "?" });
    } else if (s === "done" && view.analysis) {
      select.value = view.strength;
      status.textContent = w("analysis.done", { strength: w(`analysis.strength.${view.strength}`) });
      analysis = view.analysis;
      section.dataset.status = "done";
      drawResult();
    } else {
      status.textContent = "";
    }
    if (s !== "done") section.dataset.status = s;
    if (s === "queued" || s === "running") poll();
  }

  function poll() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        show(await json(`/api/games/${gameId()}/analysis?strength=${encodeURIComponent(state.strength)}`));
      } catch {
        poll();
      }
    }, POLL_MS);
  }

  async function look() {
    try {
      const view = await json(`/api/games/${gameId()}/analysis`);
      if (view.status === "none" && asked) return ask();
      show(view);
    } catch (error) {
      status.textContent = w("analysis.error", { error: error.message });
    }
  }

  async function ask() {
    analyseButton.disabled = true;
    try {
      show(await json(`/api/games/${gameId()}/analysis`, { method: "POST", body: JSON.stringify({ strength: select.value }) }));
    } catch (error) {
      analyseButton.disabled = false;
      status.textContent = w("analysis.error", { error: error.message });
    }
  }

  analyseButton.addEventListener("click", ask);
  select.addEventListener("change", async () => {
    // another depth: show it if it is there, else offer to run it
    try {
      const view = await json(`/api/games/${gameId()}/analysis?strength=${encodeURIComponent(select.value)}`);
      if (view.status !== "none") show(view);
      else {
        status.textContent = "";
        analyseButton.disabled = false;
      }
    } catch (error) {
      status.textContent = w("analysis.error", { error: error.message });
    }
  });

  // a jump from the list of errors or the chart: the board shows that move, and stays in
  // view (on a phone, where the list is far below the board, it comes into view)
  const jump = (ply) => {
    step(ply);
    const board = document.getElementById("board");
    if (!board) return;
    const box = board.getBoundingClientRect();
    const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    if (seen < Math.min(box.height, window.innerHeight) / 2) board.scrollIntoView({ block: "nearest" });
  };

  function drawResult() {
    if (!analysis || !snap) return;
    result.hidden = false;
    intro.textContent = analysis.measure === "equity" ? w("analysis.intro_bg") : w("analysis.intro");
    renderSummary(summary, analysis, { sideName });
    renderErrors(errors, analysis, { sideName, onJump: jump });
    decorate();
    if (hints.hidden) review();
  }

  // The better move of the error shown (the view right after it), drawn on the board as the
  // hints are; gone on any other move.
  function review() {
    const d = analysis && snap && plies > 0 ? analysis.decisions.find((x) => x.label && x.ply + 1 === plies) : null;
    const better = d ? betterMove(d) : null;
    if (!better) return boardHints();
    boardHints([better.move], snap.history[plies - 1].position, d.side);
  }

  // what depends on the ply shown: the marks (the list is drawn again each time), the
  // chart's cursor, the comment
  function decorate() {
    if (!analysis) return;
    markMoves(document.getElementById("move-list"), analysis);
    chartHeading.textContent = chartTitle(analysis);
    drawChart(chart, analysis, { sideName, current: plies, onJump: jump });
    commentBox.textContent = comment(analysis, plies, sideName);
    for (const button of errors.querySelectorAll("button[data-ply]")) {
      if (Number(button.dataset.ply) === plies) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
  }

  // -- hints -------------------------------------------------------------------------------

  const hintsFair = () =>
    mode === "play" && !snap.watch && !snap.outcome && (snap.mode === "local" || snap.mode === "computer") && snap.undo && snap.undo.allowed !== false;

  hintsToggle.setAttribute("aria-pressed", String(hintsOn));
  hintsToggle.addEventListener("click", () => {
    hintsOn = !hintsOn;
    localStorage.setItem(HINTS_KEY, hintsOn ? "on" : "off");
    hintsToggle.setAttribute("aria-pressed", String(hintsOn));
    hintKey = null;
    renderHints();
  });

  // the hints drawn on the board: the moves of the list, for the position they were asked for
  let drawn = "";
  function boardHints(moves = [], position = null, side = null) {
    const key = JSON.stringify([moves, position, side]);
    if (key === drawn) return;
    drawn = key;
    const holder = document.getElementById("board");
    if (holder) holder.dispatchEvent(new CustomEvent(HINTS_EVENT, { detail: { moves, position, side } }));
  }

  async function renderHints() {
    hintsBody.hidden = !hintsOn;
    if (!hintsOn || !snap) return boardHints();
    const myTurn = snap.can_move && snap.to_move && snap.to_move !== "chance" && snap.legal.length > 0;
    if (!myTurn) {
      hintKey = null;
      boardHints();
      hintsBody.replaceChildren(el("p", { className: "hint-wait", text: w("hints.wait") }));
      return;
    }
    const key = `${snap.ply}|${snap.position}`;
    if (key === hintKey) return;
    hintKey = key;
    const position = snap.position;
    boardHints();
    hintsBody.replaceChildren(el("p", { className: "hint-wait", text: w("hints.thinking") }));
    try {
      const answer = await json(`/api/play/${token}/hints`, { method: "POST", body: "{}" });
      if (hintKey !== key || !hintsOn) return;
      const measure = snap.game === "backgammon" ? "equity" : "win";
      hintsBody.replaceChildren(el("p", { className: "hint-title", text: w("hints.title") }));
      const box = el("div");
      renderLines(box, answer.moves, measure, { onPick: (move) => play(move) });
      hintsBody.append(box);
      hintsBody.dataset.ply = String(answer.ply);
      boardHints(answer.moves.slice(0, 3).map((m) => m.move), position);
    } catch (error) {
      if (hintKey !== key) return;
      hintKey = null;
      hintsBody.replaceChildren(el("p", { className: "hint-wait", text: w("hints.failed", { error: error.message }) }));
    }
  }

  return {
    render(newSnap, shown) {
      snap = newSnap;
      plies = shown;
      const over = Boolean(snap.outcome);
      // a game without moves, or aborted before it began, has nothing to analyse
      const analysable = over && snap.outcome.reason !== "aborted" && snap.history.some((h) => h.kind === "move");
      section.hidden = !analysable;
      if (analysable && !started) {
        started = true;
        look();
      }
      if (analysis) decorate();
      hints.hidden = !hintsFair();
      if (hints.hidden) {
        hintsBody.hidden = true;
        review(); // a finished game's: the better move of the error shown, if any
      } else renderHints();
      const position = shown === 0 ? snap.start : snap.history[shown - 1].position;
      boardLink.hidden = !(over || hintsFair());
      boardLink.href = `/analysis?game=${encodeURIComponent(snap.game)}&ruleset=${encodeURIComponent(snap.ruleset)}&position=${encodeURIComponent(position)}`;
    },
  };
}
