// The analysis of a game, drawn from its JSON (ludotheque.analysis's to_dict): the marks of the
// move list (?!, ?, ??, with the better move beside each error), the chart of the winning
// chances across the game (both sides, errors marked, a click goes to that move), the summary
// per side and the list of errors. Nothing here judges a move: the server's analysis did.
import { w } from "/analysis/words.js";
import { grouped } from "/static/boards/backgammon.js";

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2).toLowerCase(), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

// numbers as the page's language writes them ("57%", "57 %"; "+0.017", "+0,017")
const locale = () => document.documentElement.lang || "en";
const percent = (p, digits = 0) =>
  new Intl.NumberFormat(locale(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p);
const signed = (x) => // a true minus sign, as the game page's rating changes have
  new Intl.NumberFormat(locale(), { minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: "always" }).format(x).replace("-", "−");
const plain = (x, digits) => new Intl.NumberFormat(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);

// A move's value for the side that plays it: its proven result where there is one (the
// General's solution: "the rebels win in 18", never a percentage), else a winning chance, or
// backgammon's equity.
export function valueText(move, measure) {
  if (measure === "equity" && move.equity !== null && move.equity !== undefined) return signed(move.equity);
  if (move.proof) return proofText(move.proof);
  return percent(move.win);
}

export function lossText(loss, measure) {
  return measure === "equity" ? plain(loss, 3) : percent(loss, 1);
}

// What a judged move cost: where the best move's win is proven, the win given away or how
// many plies later it comes; elsewhere the winning chance (or equity) lost.
export function lossWords(d, measure) {
  const best = d.best.length ? d.best[0] : null;
  const mine = d.played;
  if (measure !== "equity" && best && best.proof && best.proof.winner === d.side) {
    if (!mine.proof || mine.proof.winner !== d.side) return w("analysis.gives_away");
    if (best.proof.plies !== null && mine.proof.plies !== null && mine.proof.plies > best.proof.plies) {
      return w("analysis.slower", { n: mine.proof.plies - best.proof.plies });
    }
  }
  return w("analysis.loss", { loss: lossText(d.loss, measure) });
}

// "the general wins in 23", "the rebels win" (the distance not known), "a draw with best play"
export function proofText(proof) {
  if (!proof) return "";
  if (proof.winner === null) return w("proof.draw");
  if (proof.moves === null || proof.moves === undefined) return w(`proof.wins.${proof.winner}`);
  return w(`proof.${proof.winner}`, { n: proof.moves });
}

export const labelName = (label) => w(`label.${label}`);

// The decision judged at each ply of the record (a history entry's index).
export function byPly(analysis) {
  const map = new Map();
  for (const d of analysis.decisions) map.set(d.ply, d);
  return map;
}

// The best move when it is not the one played (the better move shown beside an error).
export function betterMove(d) {
  return d.best.length && d.best[0].move !== d.played.move ? d.best[0] : null;
}

// Mark the move list (app.js draws it: cells ``.ply`` with ``data-ply`` = history index + 1).
export function markMoves(list, analysis) {
  const decisions = byPly(analysis);
  for (const cell of list.querySelectorAll(".ply[data-ply]")) {
    cell.querySelectorAll(".mark, .better").forEach((n) => n.remove());
    const d = decisions.get(Number(cell.dataset.ply) - 1);
    if (!d || !d.label) continue;
    cell.classList.add("judged");
    const name = labelName(d.label);
    const mark = el("span", { className: `mark mark-${d.label}`, title: name, text: d.symbol });
    mark.append(el("span", { className: "visually-hidden", text: ` (${name})` }));
    const button = cell.querySelector("button");
    (button ? button : cell).after(mark);
    const better = betterMove(d);
    if (better) mark.after(el("span", { className: "better", text: w("analysis.better", { move: grouped(better.move) }) }));
  }
}

// What the engine says of the move that led to ``plies`` (the position shown).
export function comment(analysis, plies, sideName) {
  const d = byPly(analysis).get(plies - 1);
  if (!d) {
    // a roll of the dice: its luck for the side that plays it
    const roll = (analysis.rolls || []).find((r) => r.ply === plies - 1);
    if (!roll) return "";
    const luck = roll.label ? `${w(`luck.${roll.label}`)}, ` : "";
    return w("analysis.roll", { side: sideName(roll.side), roll: roll.roll, luck: `${luck}${signed(roll.luck)}` });
  }
  const measure = analysis.measure;
  const parts = [`${w("analysis.played", { side: sideName(d.side), move: grouped(d.played.move) })} (${valueText(d.played, measure)})`];
  if (d.forced) parts.push(w("analysis.forced"));
  else if (d.label) parts.push(`${labelName(d.label)} ${d.symbol}, ${lossWords(d, measure)}`);
  else parts.push(w("analysis.good"));
  if (d.draw) parts.push(w(`draw.${d.draw}`)); // a winning position given away for a draw
  if (!d.forced && d.best.length) {
    const best = d.best.map((m) => `${grouped(m.move)} (${valueText(m, measure)})`).join(", ");
    parts.push(w("analysis.best_was", { moves: best }));
  }
  const proof = proofText(d.proof);
  if (proof && !d.best.some((m) => m.proof)) parts.push(proof);
  return parts.join(" — ");
}

// Whether every position of the game has its proven result (the General's solution; the last
// may be the end itself): the chart then says who wins with best play, not a chance.
export function provenThroughout(analysis) {
  const points = [...analysis.timeline].sort((a, b) => a.ply - b.ply);
  return (
    points.length > 0 &&
    analysis.measure !== "equity" &&
    points.every((pt, i) => pt.proof || (i === points.length - 1 && analysis.result))
  );
}

// The chart's title: who wins with best play where every position is proven, else the chances.
export function chartTitle(analysis) {
  return w(provenThroughout(analysis) ? "analysis.chart_proven" : "analysis.chart");
}

// The chart: the first side's winning chance and the other's, across the plies of the game.
export function drawChart(holder, analysis, { sideName, current = null, onJump = null }) {
  const points = [...analysis.timeline].sort((a, b) => a.ply - b.ply);
  holder.replaceChildren();
  if (!points.length) return;
  const [first, second] = analysis.sides;
  const proven = provenThroughout(analysis);
  const W = 600;
  const H = 190;
  const left = proven ? 72 : 40;
  const right = 10;
  const top = 10;
  const bottom = 24;
  const last = Math.max(1, points[points.length - 1].ply);
  const x = (ply) => left + ((W - left - right) * ply) / last;
  const y = (p) => top + (H - top - bottom) * (1 - p);
  const errors = analysis.decisions.filter((d) => d.label);
  const start = points[0].win;
  const end = points[points.length - 1].win;
  const said = (pt) => (pt.proof ? proofText(pt.proof) : analysis.result && analysis.result.winner ? w(`proof.wins.${analysis.result.winner}`) : w("proof.draw"));
  const label = proven
    ? w("analysis.chart_proven_label", { start: said(points[0]), end: said(points[points.length - 1]), errors: errors.length })
    : w("analysis.chart_label", { first: sideName(first), start: percent(start), end: percent(end), errors: errors.length });
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "img", "aria-label": label });
  svgEl("rect", { x: left, y: top, width: W - left - right, height: H - top - bottom, class: "frame" }, svg);
  const axis = { 0: proven ? sideName(second) : percent(0), 0.5: proven ? w("analysis.axis_draw") : percent(0.5), 1: proven ? sideName(first) : percent(1) };
  for (const p of [0, 0.5, 1]) {
    svgEl("line", { x1: left, x2: W - right, y1: y(p), y2: y(p), class: p === 0.5 ? "even" : "grid" }, svg);
    const text = svgEl("text", { x: left - 5, y: y(p) + 4, class: "axis", "text-anchor": "end" }, svg);
    text.textContent = axis[p];
  }
  const path = (value) => points.map((pt, i) => `${i ? "L" : "M"}${x(pt.ply).toFixed(1)},${y(value(pt)).toFixed(1)}`).join(" ");
  // the first side's chance as an area, so that the lead reads at a glance
  svgEl("path", { d: `${path((pt) => pt.win)} L${x(points[points.length - 1].ply)},${y(0)} L${x(points[0].ply)},${y(0)} Z`, class: "area first" }, svg);
  svgEl("path", { d: path((pt) => 1 - pt.win), class: "line second" }, svg);
  svgEl("path", { d: path((pt) => pt.win), class: "line first" }, svg);
  if (current !== null) {
    svgEl("line", { x1: x(current), x2: x(current), y1: top, y2: H - bottom, class: "cursor" }, svg);
  }
  const after = new Map(points.map((pt) => [pt.ply, pt.win]));
  for (const d of errors) {
    // on the line of the side that erred, just after its move
    const ply = Math.min(last, d.ply + 1);
    const firstWin = after.has(ply) ? after.get(ply) : d.side === first ? d.played.win : 1 - d.played.win;
    const big = d.label === "blunder" || d.label === "very-bad";
    const mark = svgEl("circle", { cx: x(ply), cy: y(d.side === first ? firstWin : 1 - firstWin), r: big ? 6 : 4.5, class: `error mark-${d.label}` }, svg);
    mark.dataset.ply = String(d.ply + 1);
    const title = svgEl("title", {}, mark);
    title.textContent = `${sideName(d.side)} ${grouped(d.played.move)} ${d.symbol} (${labelName(d.label)})`;
  }
  const xs = svgEl("text", { x: left, y: H - 6, class: "axis" }, svg);
  xs.textContent = w("analysis.start");
  const xe = svgEl("text", { x: W - right, y: H - 6, class: "axis", "text-anchor": "end" }, svg);
  xe.textContent = String(last);
  if (onJump) {
    svg.addEventListener("click", (event) => {
      const target = event.target.closest("circle.error");
      if (target) {
        onJump(Number(target.dataset.ply));
        return;
      }
      const box = svg.getBoundingClientRect();
      const px = ((event.clientX - box.left) / box.width) * W;
      const ply = Math.round(((px - left) / (W - left - right)) * last);
      onJump(Math.max(0, Math.min(last, ply)));
    });
  }
  const legend = el(
    "p",
    { className: "analysis-legend" },
    el("span", { className: "key first", "aria-hidden": "true" }),
    ` ${sideName(first)} `,
    el("span", { className: "key second", "aria-hidden": "true" }),
    ` ${sideName(second)}`,
  );
  holder.append(svg, legend);
}

// One row per side: its moves, average loss, the count of each label (and backgammon's error
// rate and luck).
export function renderSummary(holder, analysis, { sideName }) {
  const equity = analysis.measure === "equity";
  const labels = analysis.labels;
  const head = [w("analysis.side"), w("analysis.moves"), equity ? w("analysis.error_rate") : w("analysis.average_loss"), ...labels.map((l) => w(`labels.${l}`))];
  if (equity) head.push(w("analysis.luck"));
  const table = el("table", { className: "analysis-summary" });
  const hr = el("tr");
  head.forEach((text, i) => hr.append(el("th", { scope: "col", text, className: i > 0 ? "num" : null })));
  table.append(el("thead", {}, hr));
  const body = el("tbody");
  for (const side of analysis.sides) {
    const s = analysis.summary[side];
    if (!s) continue;
    const row = el("tr", { "data-side": side });
    row.append(el("th", { scope: "row", text: sideName(side) }));
    row.append(el("td", { className: "num", text: String(s.moves) }));
    row.append(el("td", { className: "num", text: equity ? plain(s.error_rate ?? 0, 1) : lossText(s.average_loss, "win") }));
    for (const l of labels) row.append(el("td", { className: "num", "data-label": l, text: String(s.labels[l] ?? 0) }));
    if (equity) row.append(el("td", { className: "num", text: s.luck === null ? "" : signed(s.luck) }));
    body.append(row);
  }
  table.append(body);
  holder.replaceChildren(
    el("div", { className: "table-scroll" }, table),
    el("p", { className: "analysis-note", text: equity ? w("analysis.luck_note") : w("analysis.loss_note") }),
  );
}

// Every error, in the order of the game: a button each, that goes to the move.
export function renderErrors(holder, analysis, { sideName, onJump }) {
  holder.replaceChildren();
  const errors = analysis.decisions.filter((d) => d.label);
  if (!errors.length) {
    holder.append(el("li", { className: "none", text: w("analysis.no_errors") }));
    return;
  }
  for (const d of errors) {
    const better = betterMove(d);
    const text = [
      better ? w("analysis.better", { move: grouped(better.move) }) : "",
      lossWords(d, analysis.measure),
    ].filter(Boolean).join(" — ");
    // one span inside: a button laid out as a flex box (phones) would drop the spaces
    const words = el(
      "span",
      {},
      `${Math.floor(d.move_index / 2) + 1}. ${w("analysis.played", { side: sideName(d.side), move: grouped(d.played.move) })} `,
      el("span", { className: `mark mark-${d.label}`, title: labelName(d.label), text: d.symbol }),
      el("span", { className: "visually-hidden", text: ` (${labelName(d.label)})` }),
      ` — ${text}`,
    );
    const button = el("button", { type: "button", className: "error-link", "data-ply": d.ply + 1, onClick: () => onJump(d.ply + 1) }, words);
    holder.append(el("li", {}, button));
  }
}

// Hints or the board's engine lines: each move with its value, a button that plays it.
export function renderLines(holder, moves, measure, { onPick = null } = {}) {
  holder.replaceChildren();
  const list = el("ol", { className: "engine-lines" });
  for (const m of moves) {
    const value = valueText(m, measure);
    // a proven result is the value itself (said once), except beside backgammon's equity
    const proof = measure === "equity" ? proofText(m.proof) : "";
    const label = `${grouped(m.move)} ${value}${proof ? ` — ${proof}` : ""}`;
    const item = el("li", { "data-move": m.move });
    if (onPick) {
      // its name is the words seen ("a4-b4 57%"), after a word for screen readers ("play")
      const [say] = w("hints.play", { move: "\u0000" }).split("\u0000");
      item.append(el("button", { type: "button", className: "line-move", title: w("hints.play", { move: m.move }), onClick: () => onPick(m.move) },
        el("span", { className: "visually-hidden", text: say }), el("span", { className: "line-notation", text: m.move }), " ", el("span", { className: "line-value", text: value })));
      if (proof) item.append(el("span", { className: "line-proof", text: ` ${proof}` }));
    } else {
      item.textContent = label;
    }
    list.append(item);
  }
  holder.append(list);
}

export { el };
