// The board of Le Général et les rebelles, drawn in SVG. It knows the shape of the board and
// reads moves out of their notation; which moves are legal comes from the server.
import {
  arrowMarker, besideLine, boardTools, clearHints, el, h, hintBadge, hintLine, hintMarks, keyboardHelp, lastMoveOf, newMove, roving, showChoices, slide,
  toLocal,
} from "./svg.js";

const COLS = "abcde";
export const POINTS = {};
for (let c = 0; c < 5; c++) {
  for (let r = 1; r <= 5; r++) POINTS[`${COLS[c]}${r}`] = [50 + 75 * c, 470 - 75 * (r - 1)];
}
POINTS.s4 = [200, 20];
POINTS.s1 = [162.5, 95];
POINTS.s2 = [200, 95];
POINTS.s3 = [237.5, 95];
const LINES = [
  "a1 b1 c1 d1 e1", "a2 b2 c2 d2 e2", "a3 b3 c3 d3 e3", "a4 b4 c4 d4 e4", "a5 b5 c5 d5 e5",
  "a1 a2 a3 a4 a5", "b1 b2 b3 b4 b5", "c1 c2 c3 c4 c5 s2 s4", "d1 d2 d3 d4 d5", "e1 e2 e3 e4 e5",
  "a1 b2 c3 d4 e5", "e1 d2 c3 b4 a5", "c1 b2 a3", "a3 b4 c5", "c5 d4 e3", "e3 d2 c1",
  "b5 s1 s4", "d5 s3 s4", "s1 s2 s3",
].map((line) => line.split(" "));
const SANCTUARY = ["s1", "s2", "s3", "s4"];
const GATES = ["b5", "c5", "d5"];
// Where each point's name is written, from the point (the middle of the text): beside it, in a
// gap between its lines and out of reach of any piece (the General, ringed, reaches 26 from its
// point), so that no piece covers a name and no line runs through one. A point of the grid has
// its name up and to its right (between its row and its diagonal) however the board is turned;
// the sanctuary's points are too close together for that, so their names keep their places on
// the board: s1's and s3's outside, s4's beside the apex, s2's on its line to the apex (a halo
// keeps it readable). A name inside the sanctuary's fill takes its colour for its halo.
const LABEL_AT = { s1: [-36, 0], s2: [0, -37], s3: [36, 0], s4: [36, 0] };
const LABEL_GRID = [33, -14];
const IN_SANCTUARY = ["b5", "c5"]; // their names, on the board the right way up (and s2's)
const MOVE = /^([a-e][1-5]|s[1-4])-([a-e][1-5]|s[1-4])(?:\*([a-e][1-5]|s[1-4]))?(?:x([a-e][1-5]|s[1-4])([a-e][1-5]|s[1-4]))?$/;

export function parseMove(text) {
  const m = MOVE.exec(text);
  if (!m) return null;
  return { text, from: m[1], to: m[2], landing: m[3] || null, pair: m[4] ? [m[4], m[5]] : null };
}

export function parsePosition(position) {
  const [general, rebels, side, flight] = position.split(" ");
  return { general, rebels: rebels.split(","), side, flight: flight === "1" };
}

export function createBoard(holder, { t, onMove, chooser, say, announce = () => {} }) {
  const { flipped } = boardTools(holder, t, () => (orient(), paint(), drawHints()));
  const svg = el("svg", { viewBox: "0 0 400 520", class: "board general", role: "group" });
  svg.setAttribute("aria-label", t("game.general"));
  holder.append(svg);
  keyboardHelp(holder, svg, t);
  const arrow = arrowMarker(svg, "general-arrow");
  // everything is drawn in the board's own coordinates inside ``flipper``, which turns it round
  const flipper = el("g", { class: "flipper" }, svg);
  const s4 = POINTS.s4;
  el("polygon", { points: `${POINTS.b5.join(",")} ${POINTS.d5.join(",")} ${s4.join(",")}`, class: "sanctuary" }, flipper);
  for (const line of LINES) {
    el("polyline", { points: line.map((p) => POINTS[p].join(",")).join(" "), class: "line" }, flipper);
  }
  const marks = el("g", { class: "marks" }, flipper);
  const layer = el("g", { class: "points" }, flipper);
  const ghosts = el("g", { class: "ghosts" }, flipper);
  const hintLayer = el("g", { class: "hint-marks", "aria-hidden": "true" }, flipper);
  const hints = hintMarks(holder, svg, "general-hint", () => drawHints());
  const groups = {};
  const labels = [];
  for (const [name, [x, y]] of Object.entries(POINTS)) {
    const g = el("g", { class: "pt", "data-point": name, tabindex: "-1", role: "button", transform: `translate(${x} ${y})` }, layer);
    if (SANCTUARY.includes(name)) g.classList.add("sanctuary-point");
    if (GATES.includes(name)) g.classList.add("gate");
    if (name === "s4") g.classList.add("apex");
    el("circle", { r: 30, class: "hit" }, g);
    el("circle", { r: name === "s4" ? 7 : 5, class: "dot" }, g);
    el("circle", { r: 26, class: "target" }, g);
    const [lx, ly] = LABEL_AT[name] || LABEL_GRID;
    const label = el("text", { class: "label", x: lx, y: ly, "text-anchor": "middle", "dominant-baseline": "central" }, g, name);
    labels.push({ label, name, lx, ly });
    groups[name] = g;
    g.addEventListener("click", () => clicked(name));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        clicked(name);
      }
    });
    g.addEventListener("pointerdown", (event) => startDrag(event, name));
  }
  const nav = roving(svg, {
    items: () => Object.values(groups),
    keyOf: (node) => node.dataset.point,
    preferred: (list) => list.find((n) => n.classList.contains("selected")) || list.find((n) => n.classList.contains("movable")),
    onEscape: () => reset(),
  });

  let moves = [];
  let current = null; // parsed position
  let selected = null;
  let stage = "idle"; // idle | to | landing | pair
  let candidates = [];
  let lastMarks = { from: null, to: null, captured: [] }; // the last move, for the labels
  const seen = { id: null, length: 0 }; // the history the board has shown (for animations)
  let dropped = null; // a move just made by dragging: it is where it should be already

  // the board turned round (the General's side at the bottom) or not; text stays upright
  function orient() {
    const on = flipped();
    flipper.setAttribute("transform", on ? "rotate(180 200 260)" : "");
    for (const { label, name, lx, ly } of labels) {
      // turned about its point (still up and to its right), or a sanctuary's about its middle
      const sanctuary = name in LABEL_AT;
      label.setAttribute("transform", !on ? "" : sanctuary ? `rotate(180 ${lx} ${ly})` : "rotate(180)");
      label.classList.toggle("in-sanctuary", name === "s2" || (!on && IN_SANCTUARY.includes(name)));
    }
    svg.dataset.flipped = on ? "1" : "0";
  }

  function reset() {
    selected = null;
    stage = "idle";
    candidates = [];
    chooser.hidden = true;
    chooser.innerHTML = "";
    paint();
  }

  function origins() {
    return new Set(moves.map((m) => m.from));
  }

  function targets() {
    if (stage === "to") return new Set(moves.filter((m) => m.from === selected).map((m) => m.to));
    if (stage === "landing") return new Set(candidates.map((m) => m.landing));
    if (stage === "pair") return new Set(candidates.flatMap((m) => m.pair));
    return new Set();
  }

  function finish(list) {
    if (list.length === 1) {
      const text = list[0].text;
      reset();
      onMove(text);
      return;
    }
    if (list.some((m) => m.landing) && new Set(list.map((m) => m.landing)).size > 1) {
      stage = "landing";
      candidates = list;
      say(t("play.choose_landing"));
      paint();
      return;
    }
    stage = "pair";
    candidates = list;
    say(t("play.choose_pair"));
    showChoices(chooser, t("play.choose_pair"), [
      ...list.map((m) => ({
        text: `${m.pair[0]} + ${m.pair[1]}`,
        className: "pair",
        data: { move: m.text },
        onClick: () => finish([m]),
      })),
      { text: t("play.cancel"), onClick: reset },
    ]);
    paint();
  }

  // a screen reader hears the piece chosen and how many places it may go (or that the
  // choice was taken back)
  function tellChosen() {
    if (selected === null) return announce(t("board.unchosen"));
    const kind = current && current.general === selected ? "general" : "rebel";
    const n = new Set(moves.filter((m) => m.from === selected).map((m) => m.to)).size;
    announce(t(`board.chosen.${kind}`, { point: selected, n }));
  }

  function clicked(name) {
    if (!moves.length) return;
    if (stage === "idle") {
      if (origins().has(name)) {
        selected = name;
        stage = "to";
        paint();
        tellChosen();
      }
      return;
    }
    if (stage === "to") {
      if (name === selected) {
        reset();
        return tellChosen();
      }
      const list = moves.filter((m) => m.from === selected && m.to === name);
      if (list.length) return finish(list);
      if (origins().has(name)) {
        selected = name;
        paint();
        tellChosen();
        return;
      }
      return reset();
    }
    if (stage === "landing") {
      const list = candidates.filter((m) => m.landing === name);
      if (list.length) return finish(list);
      return reset();
    }
    if (stage === "pair") {
      const list = candidates.filter((m) => m.pair && m.pair.includes(name));
      if (list.length === 1) return finish(list);
    }
  }

  // dragging a piece: drop it on a point to play there (same as a second click)
  let drag = null;
  function pointAt(event) {
    const { x, y } = toLocal(flipper, event.clientX, event.clientY);
    let best = null;
    let bestD = 35 * 35;
    for (const [name, [px, py]] of Object.entries(POINTS)) {
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < bestD) {
        best = name;
        bestD = d;
      }
    }
    return best;
  }
  function startDrag(event, name) {
    if (stage !== "idle" || !origins().has(name) || event.button !== 0) return;
    drag = { name, moved: false, x: event.clientX, y: event.clientY, id: event.pointerId,
             piece: groups[name].querySelector(".piece") };
  }
  svg.addEventListener("pointermove", (event) => {
    if (!drag || !drag.piece) return;
    if (!drag.moved) {
      if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) < 8) return;
      drag.moved = true;
      svg.setPointerCapture(drag.id); // from now on the pointer belongs to the drag
    }
    const [px, py] = POINTS[drag.name];
    const { x, y } = toLocal(flipper, event.clientX, event.clientY);
    drag.piece.setAttribute("transform", `translate(${x - px} ${y - py})`);
  });
  svg.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const { name, moved, piece } = drag;
    drag = null;
    if (!moved) return; // a plain click: the click handler takes it
    if (piece) piece.removeAttribute("transform");
    const target = pointAt(event);
    selected = name;
    stage = "to";
    if (target && target !== name) {
      dropped = target;
      clicked(target);
    } else paint();
  });
  svg.addEventListener("pointercancel", () => {
    if (drag && drag.piece) drag.piece.removeAttribute("transform");
    drag = null;
  });

  function paint() {
    const pos = current;
    const rebels = new Set(pos ? pos.rebels : []);
    const from = origins();
    const to = targets();
    const on = flipped();
    for (const [name, g] of Object.entries(groups)) {
      g.querySelector(".piece")?.remove();
      const occupant = pos && pos.general === name ? "general" : rebels.has(name) ? "rebel" : null;
      if (occupant) {
        const piece = el("g", { class: `piece ${occupant}` });
        g.insertBefore(piece, g.querySelector(".label")); // under the point's name
        el("circle", { r: occupant === "general" ? 24 : 20 }, piece);
        if (occupant === "general") {
          const crown = el("text", { class: "crown", y: 9 }, piece);
          crown.textContent = "♔";
          if (on) crown.setAttribute("transform", "rotate(180)");
        }
      }
      const movable = from.has(name) && stage !== "pair";
      g.classList.toggle("movable", movable);
      g.classList.toggle("selected", name === selected);
      g.classList.toggle("highlight", to.has(name));
      // what a screen reader says on reaching the point: who is there, and what it can do
      const words = [t(occupant === "general" ? "point.general" : occupant === "rebel" ? "point.rebel" : "point.empty", { name })];
      if (movable && stage === "idle") words.push(t("board.can_move"));
      if (to.has(name)) words.push(t("board.target"));
      if (lastMarks.from === name) words.push(t("board.last_from"));
      if (lastMarks.to === name) words.push(t("board.last_to"));
      if (lastMarks.captured.includes(name)) words.push(t("board.captured"));
      g.setAttribute("aria-label", words.join(", "));
      g.setAttribute("aria-pressed", name === selected ? "true" : "false");
    }
    nav.sync();
  }

  // The last move: its origin tinted, an arrow along its way, its end ringed, and a cross on
  // each rebel it took.
  function markLast(found) {
    marks.innerHTML = "";
    lastMarks = { from: null, to: null, captured: [] };
    const m = found ? parseMove(found.entry.text) : null;
    if (!m) return;
    const end = m.landing || m.to;
    lastMarks = { from: m.from, to: end, captured: m.pair || [] };
    const [fx, fy] = POINTS[m.from];
    el("circle", { cx: fx, cy: fy, r: 27, class: "last-from" }, marks);
    const path = [m.from, m.to, ...(m.landing ? [m.landing] : [])].map((p) => POINTS[p]);
    // the arrow stops short of the piece at its end, so its head is seen
    const [ax, ay] = path[path.length - 2];
    const [bx, by] = path[path.length - 1];
    const len = Math.hypot(bx - ax, by - ay) || 1;
    path[path.length - 1] = [bx - ((bx - ax) / len) * 30, by - ((by - ay) / len) * 30];
    el("polyline", { points: path.map((p) => p.join(",")).join(" "), class: "last-move", "marker-end": arrow }, marks);
    const [ex, ey] = POINTS[end];
    el("circle", { cx: ex, cy: ey, r: 29, class: "last-point" }, marks);
    for (const p of m.pair || []) {
      const [x, y] = POINTS[p];
      el("path", { d: `M${x - 9},${y - 9} L${x + 9},${y + 9} M${x + 9},${y - 9} L${x - 9},${y + 9}`, class: "last-captured" }, marks);
    }
  }

  // The engine's best moves (the "Best moves" switch): a light arrow along each, numbered by
  // its rank on its last leg, on the position they were asked for.
  function drawHints() {
    const shown = hints.position === svg.dataset.shownPosition ? hints.moves : [];
    const moves = shown.map(parseMove);
    clearHints(hintLayer, moves.filter(Boolean).length);
    moves.forEach((m, i) => {
      if (!m) return;
      const rank = i + 1;
      const path = [m.from, m.to, ...(m.landing ? [m.landing] : [])].map((p) => [...POINTS[p]]);
      const [ax, ay] = path[path.length - 2];
      const [bx, by] = path[path.length - 1];
      const len = Math.hypot(bx - ax, by - ay) || 1;
      path[path.length - 1] = [bx - ((bx - ax) / len) * 24, by - ((by - ay) / len) * 24];
      hintLine(hintLayer, `M${path.map((p) => p.join(",")).join(" L")}`, rank, hints.arrow);
      // the number beside the last leg, half way: moves to one point keep theirs apart
      const [x, y] = besideLine(ax, ay, bx, by, 0.45, 17);
      hintBadge(hintLayer, x, y, rank, { transform: flipped() ? `rotate(180 ${x} ${y})` : null });
    });
  }

  // a move that has just arrived: the piece travels along its way, the rebels it took fade out
  function animate(found) {
    const m = parseMove(found.entry.text);
    if (!m) return;
    const end = m.landing || m.to;
    const piece = groups[end].querySelector(".piece");
    const [ex, ey] = POINTS[end];
    const rel = (p) => [POINTS[p][0] - ex, POINTS[p][1] - ey];
    const via = m.landing ? [rel(m.to)] : [];
    const [dx, dy] = rel(m.from);
    if (!slide(piece, dx, dy, { via, duration: 300 })) return;
    svg.dataset.animations = String(Number(svg.dataset.animations || 0) + 1);
    for (const p of m.pair || []) {
      const [x, y] = POINTS[p];
      const ghost = el("g", { class: "leaving", transform: `translate(${x} ${y})`, "data-captured": p }, ghosts);
      el("circle", { r: 20 }, ghost); // the style sheet fades it out
      setTimeout(() => ghost.remove(), 1600);
    }
  }

  return {
    update({ position, livePosition, legal, last, snap }) {
      current = parsePosition(position);
      svg.dataset.position = livePosition; // the game's position now (a test hook)
      svg.dataset.shownPosition = position; // what the board shows (history stepping)
      moves = legal.map(parseMove).filter(Boolean);
      svg.classList.toggle("interactive", moves.length > 0);
      const live = position === livePosition;
      const fresh = snap ? newMove(seen, snap, live) : null;
      markLast(snap ? lastMoveOf(snap, last) : null);
      if (fresh) nav.restart();
      orient();
      reset(); // draws the pieces
      drawHints();
      // (the page redraws while the move is on its way: the drop is forgotten once it is back)
      if (fresh) {
        if (!(dropped && parseMove(fresh.entry.text)?.to === dropped)) animate(fresh);
        dropped = null;
      }
    },
  };
}

export function describe(snap, position, t) {
  const pos = parsePosition(position);
  const captured = 16 - pos.rebels.length;
  return [
    h("p", { data: { captured: String(captured) } }, t("play.captured", { n: captured })),
    h("p", {}, t("play.flight", { state: t(pos.flight ? "play.flight.yes" : "play.flight.no") })),
  ];
}
