// Helpers every board module shares: SVG elements, and the panel that asks the player to choose.

export const SVG = "http://www.w3.org/2000/svg";

// An SVG element with its attributes (and text), appended to ``parent`` when given.
export function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

// Show ``title`` and one button per choice in ``chooser``; each choice is
// { text, className, data: { key: value }, onClick }.
export function showChoices(chooser, title, choices) {
  chooser.hidden = false;
  chooser.innerHTML = "";
  const heading = document.createElement("p");
  heading.textContent = title;
  chooser.append(heading);
  for (const choice of choices) {
    const button = document.createElement("button");
    button.type = "button";
    if (choice.className) button.className = choice.className;
    for (const [k, v] of Object.entries(choice.data || {})) button.dataset[k] = v;
    button.textContent = choice.text;
    button.addEventListener("click", choice.onClick);
    chooser.append(button);
  }
}

// An HTML element: ``attrs`` are properties (className, id, value, open, …) except ``data``
// (its dataset); ``children`` are nodes or strings (text, never HTML), falsy ones skipped.
export function h(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "data") Object.assign(node.dataset, v);
    else if (k === "for") node.htmlFor = v;
    else node[k] = v;
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

// -- what every board shares: tools, the keyboard, animation ---------------------------------

// The user asked the page to keep still (``prefers-reduced-motion``): no animation at all.
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// A phone, or a touch screen: where a target must be at least 44 px (as the style sheet says).
export const coarse = () => window.matchMedia("(max-width: 760px), (pointer: coarse)").matches;

// A point of the page (a pointer event's clientX/clientY) in the user coordinates of ``node``
// (an <svg> or any of its groups): rotation, flipping and zoom are all taken into account.
export function toLocal(node, clientX, clientY) {
  const matrix = node.getScreenCTM();
  if (!matrix) return { x: 0, y: 0 };
  const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return { x: p.x, y: p.y };
}

// The row of tools above a board, with the "flip board" button. The orientation is kept per game
// page (localStorage, keyed by the page's address), so a reload shows the board as it was left.
// ``onFlip(flipped)`` redraws the board; returns { tools, flipped() }.
export function boardTools(holder, t, onFlip) {
  const tools = h("div", { className: "board-tools" });
  const key = `ludotheque.flip:${location.pathname}`;
  let flipped = false;
  try {
    flipped = localStorage.getItem(key) === "1";
  } catch {
    flipped = false; // storage refused (a private window): the board just starts unflipped
  }
  const button = h("button", { type: "button", id: "flip-board", className: "flip" }, t("board.flip"));
  button.setAttribute("aria-pressed", String(flipped));
  button.addEventListener("click", () => {
    flipped = !flipped;
    button.setAttribute("aria-pressed", String(flipped));
    try {
      localStorage.setItem(key, flipped ? "1" : "0");
    } catch {
      // not kept, but the board still turns
    }
    onFlip(flipped);
  });
  tools.append(button);
  holder.append(tools);
  return { tools, flipped: () => flipped };
}

// The board's description for screen readers, linked from the <svg> (aria-describedby): how the
// keyboard works inside it.
export function keyboardHelp(holder, svg, t) {
  const id = "board-keys";
  const help = h("p", { id, className: "visually-hidden" }, t("board.keys"));
  holder.append(help);
  svg.setAttribute("aria-describedby", id);
}

// One tab stop for the whole board, and the arrow keys inside it (a roving tabindex, as
// accessible grids and toolbars do). ``items()`` lists what the arrows move between now (it may
// change with the stage of a turn); ``keyOf(node)`` names an item so that it is found again
// after a redraw; ``preferred(list)`` is the item to start on; ``onEscape()`` backs out a step.
// The arrows go to the nearest item on screen in their direction (so rotated, flipped or
// zoomed boards need nothing special); on a tie, the one clockwise of the arrow wins. Enter and
// Space are the items' own business (their keydown handlers click them).
export function roving(svg, { items, keyOf, preferred = () => null, onEscape = null }) {
  let current = null; // the key of the item holding the tab stop
  const known = () => items().filter(Boolean);
  // Chrome puts an inline <svg> in the tab order by itself: the board's one stop is its item
  svg.setAttribute("tabindex", "-1");

  function centre(node) {
    const r = (node.querySelector(".hit") || node).getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  }

  // Give the tab stop to the current item (or the preferred one, or the first); every other
  // focusable thing of the board gets -1. ``refocus``: the focus was in the board before a
  // redraw removed its node: put it back on the item of the same key.
  function sync(refocus = false) {
    const list = known();
    let holder = list.find((n) => keyOf(n) === current) || preferred(list) || list[0] || null;
    for (const node of svg.querySelectorAll("[tabindex]")) node.setAttribute("tabindex", "-1");
    if (!holder) return;
    holder.setAttribute("tabindex", "0");
    current = keyOf(holder);
    if (refocus && !svg.contains(document.activeElement)) holder.focus({ preventScroll: true });
  }

  function move(from, key) {
    const list = known();
    if (!list.length) return null;
    if (key === "Home") return list[0];
    if (key === "End") return list[list.length - 1];
    const [dx, dy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
    const [x0, y0] = centre(from);
    let best = null;
    let bestScore = Infinity;
    let bestTurn = -Infinity;
    for (const node of list) {
      if (node === from) continue;
      const [x, y] = centre(node);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along < 1) continue;
      const across = (y - y0) * dx - (x - x0) * dy; // > 0: clockwise of the arrow (y goes down)
      const angle = Math.atan2(Math.abs(across), along);
      if (angle > (70 * Math.PI) / 180) continue;
      const score = Math.hypot(along, across) * (1 + 0.3 * angle);
      if (score < bestScore - 0.5 || (Math.abs(score - bestScore) <= 0.5 && across > bestTurn)) {
        best = node;
        bestScore = Math.min(score, bestScore);
        bestTurn = across;
      }
    }
    return best;
  }

  svg.addEventListener("focusin", (event) => {
    const node = known().find((n) => n === event.target || n.contains(event.target));
    if (!node) return;
    current = keyOf(node);
    for (const other of svg.querySelectorAll('[tabindex="0"]')) if (other !== node) other.setAttribute("tabindex", "-1");
    node.setAttribute("tabindex", "0");
  });
  svg.addEventListener("keydown", (event) => {
    const keys = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"];
    if (event.key === "Escape" && onEscape) {
      event.preventDefault();
      onEscape();
      return;
    }
    if (!keys.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    // the arrows belong to the board here (the page's history stepping must not see them)
    event.preventDefault();
    event.stopPropagation();
    const from = known().find((n) => n === event.target || n.contains(event.target));
    const to = from ? move(from, event.key) : known().find((n) => keyOf(n) === current) || known()[0];
    if (!to) return;
    current = keyOf(to);
    sync();
    to.focus({ preventScroll: true });
  });

  return {
    sync,
    // a new turn: unless the focus is in the board, the stop goes back to the preferred item
    restart() {
      if (!svg.contains(document.activeElement)) current = null;
    },
    // the focus is on one of the board's items (asked before a redraw that replaces them)
    hasFocus: () => svg.contains(document.activeElement),
    // move the tab stop (and the focus, if it is in the board) to the item called ``key``
    moveTo(key) {
      const had = svg.contains(document.activeElement);
      current = key;
      sync();
      if (had) {
        const node = known().find((n) => keyOf(n) === key);
        if (node) node.focus({ preventScroll: true });
      }
    },
  };
}

// Slide ``node`` from ``(dx, dy)`` away (in its own user units) to where it is drawn, through
// ``via`` (more offsets, for a checker that moved twice). Nothing moves when the user prefers
// reduced motion. Returns whether an animation started.
export function slide(node, dx, dy, { via = [], delay = 0, duration = 320 } = {}) {
  if (!node || reducedMotion() || typeof node.animate !== "function") return false;
  const frames = [[dx, dy], ...via, [0, 0]].map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)` }));
  node.animate(frames, { duration: duration * (frames.length - 1), delay, easing: "ease-in-out", fill: "backwards" });
  return true;
}

// An animation of any keyframes (``transform`` or ``opacity``), under the same reduced-motion rule.
export function play(node, frames, options) {
  if (!node || reducedMotion() || typeof node.animate !== "function") return false;
  node.animate(frames, { easing: "ease-out", fill: "backwards", ...options });
  return true;
}

// An arrowhead for the last move's line, defined once per board (``id`` must be unique).
export function arrowMarker(svg, id) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id, viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "4", markerHeight: "4",
                                orient: "auto-start-reverse", markerUnits: "strokeWidth" }, defs);  // prettier-ignore
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);
  return `url(#${id})`;
}

// The move that the board shows as "last": ``last`` if it is a move, else the latest move
// before it (backgammon puts the next roll after every move). Returns { entry, index } or null.
export function lastMoveOf(snap, last) {
  if (!snap || !last) return null;
  let index = snap.history.lastIndexOf(last);
  while (index >= 0 && snap.history[index].kind !== "move") index--;
  return index >= 0 ? { entry: snap.history[index], index } : null;
}

// New plies arrived live since the board last looked: the latest new move to animate, or null.
// ``seen`` is the board's memory { id, length }; it is brought up to date here.
export function newMove(seen, snap, live) {
  const before = seen.id === snap.id ? seen.length : null;
  seen.id = snap.id;
  seen.length = snap.history.length;
  if (before === null || !live || snap.history.length <= before) return null;
  for (let i = snap.history.length - 1; i >= before; i--) {
    if (snap.history[i].kind === "move") return { entry: snap.history[i], index: i };
  }
  return null;
}

// The position before history entry ``index``.
export const positionBefore = (snap, index) => (index > 0 ? snap.history[index - 1].position : snap.start);

// -- hints -----------------------------------------------------------------------------------

// The page's "Best moves" switch (analysis-panel.js) asks the board to draw the engine's best
// moves: a ``board-hints`` event on the board's holder, ``detail.moves`` their notation, best
// first (an empty list takes them away). Each board draws them lightly in a layer of its own,
// each numbered by its rank (the values are in the list beside the board), and draws them
// again whenever it redraws; only on the position they were asked for (``detail.position``).
// The review of an analysed game uses them too: the better move of an error, drawn on the
// position the error left (``detail.side``: the side that erred).
export const HINTS_EVENT = "board-hints";

// Listen for the hints on ``holder``; ``draw()`` is called on each change. Returns the state:
// { moves, position, arrow } (``arrow``: the hints' own arrowhead, for ``marker-end``).
export function hintMarks(holder, svg, id, draw) {
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id, class: "hint-marker", viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "4", markerHeight: "4",
                                orient: "auto-start-reverse", markerUnits: "strokeWidth" }, defs);  // prettier-ignore
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "hint-head" }, marker);
  const state = { moves: [], position: null, side: null, arrow: `url(#${id})` };
  holder.addEventListener(HINTS_EVENT, (event) => {
    const detail = event.detail || {};
    state.moves = Array.isArray(detail.moves) ? detail.moves.slice(0, 3) : [];
    state.position = detail.position || null;
    state.side = detail.side || null; // a move of the past (a review): the side that made it
    draw();
  });
  return state;
}

// Empty ``layer`` and say how many hints it holds (``data-hints``: a test hook).
export function clearHints(layer, count = 0) {
  layer.replaceChildren();
  layer.dataset.hints = String(count);
}

// A hint's line (an SVG path ``d``) with its arrowhead, in the colour of its rank.
export function hintLine(layer, d, rank, arrow) {
  return el("path", { d, class: `hint-line hint-${rank}`, "marker-end": arrow }, layer);
}

// A hint's number in a small disc at (x, y), of radius ``r`` (``small``: for small cells);
// ``transform`` keeps it upright on a turned board.
export function hintBadge(layer, x, y, rank, { transform = null, small = false } = {}) {
  const g = el("g", { class: `hint-badge hint-${rank}${small ? " small" : ""}`, "data-rank": String(rank) }, layer);
  if (transform) g.setAttribute("transform", transform);
  el("circle", { cx: x, cy: y, r: small ? 7.5 : 11 }, g);
  el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central" }, g, String(rank));
  return g;
}

// The point ``off`` to the left of the way from (x1, y1) to (x2, y2), ``at`` of the way along:
// where a line's number sits beside it, leaving the line and its head in sight.
export function besideLine(x1, y1, x2, y2, at, off) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  return [x1 + (x2 - x1) * at + ((y2 - y1) / len) * off, y1 + (y2 - y1) * at - ((x2 - x1) / len) * off];
}
