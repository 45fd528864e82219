// The backgammon board in SVG, seen from the player's side (white at the bottom for watchers
// and at one screen). Checkers move one at a time: after each single move the server says which
// single moves may come next and whether the turn can end (the browser never decides).
//
// Games played for points (rulesets ``money`` and ``match``) add the doubling cube on the bar
// (in the middle, or at its owner's end), the decisions that are not checker plays (roll or
// double, take or drop, accept or decline an offer to resign) as buttons under the board, the
// match score above it, and offers to resign a single game, a gammon or a backgammon.
//
// On a phone the points of the whole board are under 44 px: a tap there zooms into the part
// of the board it touched (and chooses the checker it touched, which the large view confirms:
// moves are made only there, where every point and the tray are 44 px or more).
//
// Test hooks: the board <svg> has data-position; each point is <g data-point="N"> with N in the
// bottom player's numbering, the bar is data-point="bar" and the bottom player's tray
// data-point="off"; checkers are <circle class="checker" data-point data-side>; the cube is
// <g class="cube" data-value data-owner>; the decisions are buttons #cube-roll, #cube-double,
// #cube-take, #cube-drop, #resign-accept and #resign-decline.
import {
  arrowMarker, boardTools, clearHints, coarse, el, h, hintBadge, hintLine, hintMarks, keyboardHelp, newMove, roving, showChoices, slide,
  toLocal,
} from "./svg.js";

// the decisions that are moves but not checker plays (see games/backgammon/cube.py)
const CUBE_WORDS = new Set(["roll", "double", "take", "drop", "accept", "decline"]);
export const isCubeWord = (text) => CUBE_WORDS.has(text) || /^resign (single|gammon|backgammon)$/.test(text);
const RESIGNS = ["single", "gammon", "backgammon"];

const W = 800;
const H = 600;
const PW = 50; // point width
const R = 22; // checker radius
const LEFT = 30;
const BAR_X = 340;
const BAR_W = 40;
const TRAY_X = 714;
const TOP_Y = -40; // the band of point numbers above the frame starts here
const BAND = 40; // and the one below the frame is this tall

export function parsePosition(position) {
  const m = /^W\[([^\]]*)\] B\[([^\]]*)\] (\S) (\S+)(?: (.*))?$/.exec(position.trim());
  const sides = {};
  for (const [name, listing] of [["white", m[1]], ["black", m[2]]]) {
    const counts = new Array(26).fill(0);
    for (const entry of listing.split(",").filter(Boolean)) {
      const [place, n] = entry.split("x");
      counts[place === "bar" ? 25 : Number(place)] = Number(n || 1);
    }
    counts[0] = 15 - counts.slice(1).reduce((a, b) => a + b, 0);
    sides[name] = counts;
  }
  return { white: sides.white, black: sides.black, side: m[3], dice: m[4], stakes: m[5] ? parseStakes(m[5]) : null };
}

// The fields after the dice in ``money`` and ``match`` (``cube 2w doubled match 7 2-3``…):
// { value, owner, pending: "rolling" | "doubled" | "resign" | null, offer, jacoby, length,
// score: { white, black }, crawford }.
export function parseStakes(text) {
  const words = text.trim().split(/\s+/);
  const side = { w: "white", b: "black" };
  const out = { value: 1, owner: null, pending: null, offer: null, jacoby: false, length: 0, score: null, crawford: false };
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "cube") {
      const c = /^(\d+)([wb]?)$/.exec(words[++i] || "");
      if (c) [out.value, out.owner] = [Number(c[1]), side[c[2]] || null];
    } else if (word === "rolling" || word === "doubled") out.pending = word;
    else if (word === "resign") [out.pending, out.offer] = ["resign", words[++i]];
    else if (word === "jacoby") out.jacoby = true;
    else if (word === "crawford") out.crawford = true;
    else if (word === "match") {
      out.length = Number(words[++i]);
      const [w, b] = (words[++i] || "0-0").split("-").map(Number);
      out.score = { white: w, black: b };
    }
  }
  return out;
}

// "1 point", "3 points"
export const pointsText = (t, n) => t("points", { n });

// The points a side scores when the other gives up ``times`` (1, 2, 3) the cube: gammons count
// single with the Jacoby rule while the cube is in the middle.
export function stakeOf(stakes, times) {
  const gammons = !(stakes.jacoby && !stakes.length && !stakes.owner);
  return stakes.value * (gammons ? times : 1);
}

const upper = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// x of the centre of a point in the bottom player's numbering; top row or not
function pointXY(p) {
  if (p <= 12) {
    const index = p <= 6 ? 6 - p : 12 - p; // 6..1 on the right, 12..7 on the left
    const x = p <= 6 ? BAR_X + BAR_W + index * PW + PW / 2 : LEFT + index * PW + PW / 2;
    return { x, top: false };
  }
  const index = p >= 19 ? p - 19 : p - 13; // 13..18 left, 19..24 right
  const x = p >= 19 ? BAR_X + BAR_W + index * PW + PW / 2 : LEFT + index * PW + PW / 2;
  return { x, top: true };
}

// the triangle of a point (bottom numbering)
function triangle(p, inset = 2) {
  const { x, top } = pointXY(p);
  const tipY = top ? 260 : 340;
  const baseY = top ? 20 : 580;
  return `${x - PW / 2 + inset},${baseY} ${x + PW / 2 - inset},${baseY} ${x},${tipY}`;
}

export function createBoard(holder, { t, onMove, chooser, say, ask, onTurn, giveUp, announce = () => {} }) {
  const { tools, flipped } = boardTools(holder, t, () => {
    orient();
    markLast(lastFound);
    draw();
    drawHints();
  });
  // above the board: the match (or money game) and, on a phone, the way back to the whole board
  const matchLine = h("p", { className: "match-line", id: "match-line", hidden: true });
  const zoomOut = h("button", { type: "button", id: "bg-zoom-out", hidden: true }, t("bg.zoom_out"));
  const diceLine = h("span", { className: "dice-line", id: "dice-line", hidden: true });
  tools.prepend(matchLine, diceLine, zoomOut);
  zoomOut.addEventListener("click", () => {
    zoom = null;
    draw();
  });
  // the numbers of the points sit in bands above and below the frame, large enough to read
  const svg = el("svg", { viewBox: `0 ${TOP_Y} ${W} ${H - TOP_Y + BAND}`, class: "board backgammon", role: "group" });
  svg.setAttribute("aria-label", t("game.backgammon"));
  holder.append(svg);
  keyboardHelp(holder, svg, t);
  const arrow = arrowMarker(svg, "backgammon-arrow");
  el("rect", { x: 10, y: 10, width: 690, height: 580, rx: 12, class: "frame" }, svg);
  el("rect", { x: BAR_X, y: 10, width: BAR_W, height: 580, class: "bar" }, svg);
  el("rect", { x: TRAY_X - 6, y: 10, width: 80, height: 580, rx: 10, class: "tray-frame" }, svg);
  const pointGroups = {};
  const slots = {};
  for (let p = 1; p <= 24; p++) {
    const { x, top } = pointXY(p);
    const g = el("g", { class: "pt", "data-point": String(p), tabindex: "-1", role: "button" }, svg);
    el("polygon", { points: triangle(p), class: `tri ${p % 2 ? "odd" : "even"}` }, g);
    el("rect", { x: x - PW / 2, y: top ? 15 : 305, width: PW, height: 280, class: "hit" }, g);
    slots[p] = el("g", { class: "marks" }, g); // the last move's tint, under the checkers
    el("text", { x, y: top ? -6 : 626, class: "num" }, svg, String(p));
    pointGroups[p] = g;
  }
  const barGroup = el("g", { class: "pt bar-area", "data-point": "bar", tabindex: "-1", role: "button" }, svg);
  el("rect", { x: BAR_X, y: 300, width: BAR_W, height: 290, class: "hit" }, barGroup);
  slots.bar = el("g", { class: "marks" }, barGroup);
  const trayGroup = el("g", { class: "pt tray", "data-point": "off", tabindex: "-1", role: "button" }, svg);
  el("rect", { x: TRAY_X, y: 305, width: 68, height: 280, rx: 8, class: "hit tray-slot" }, trayGroup);
  slots.off = el("g", { class: "marks" }, trayGroup);
  el("rect", { x: TRAY_X, y: 15, width: 68, height: 280, rx: 8, class: "tray-slot top" }, svg);
  const marks = el("g", { class: "marks" }, svg); // the top tray's mark (nothing is clicked there)
  const diceLayer = el("g", { class: "dice" }, svg);
  const cubeLayer = el("g", { class: "cube-layer" }, svg);
  const labels = el("g", { class: "pips" }, svg);
  const arrows = el("g", { class: "marks last-arrows" }, svg); // above the checkers
  const hintLayer = el("g", { class: "hint-marks", "aria-hidden": "true" }, svg); // the hints' arrows
  const hints = hintMarks(holder, svg, "backgammon-hint", () => drawHints());
  const nav = roving(svg, {
    items: () => [...Object.values(pointGroups), barGroup, trayGroup],
    keyOf: (node) => node.dataset.point,
    preferred: (list) => list.find((n) => n.classList.contains("source")),
    onEscape: () => {
      if (selected !== null) {
        selected = null;
        draw();
      } else if (interactive && done.length && !busy) {
        done.pop();
        refresh();
      }
    },
  });

  let bottom = "white";
  let top = "black";
  let snap = null;
  let mover = null; // the side whose turn is being made here
  let turn = null; // the server's partial-turn answer
  let done = [];
  let selected = null; // mover's numbering
  let interactive = false;
  let shownPosition = null;
  let busy = false; // a step was sent and its answer has not come yet
  let natural = "white"; // the side at the bottom when the board is not flipped
  let lastFound = null; // the last move shown, and the places it marks (for the labels)
  let lastFrom = new Set();
  let lastTo = new Set();
  const seen = { id: null, length: 0 };
  let played = null; // the play this board just sent: it is drawn already, no need to animate
  let offers = []; // the decisions offered now (roll, double, take, …), as the server lists them
  let zoom = null; // on a phone: { x } the middle of the part of the board shown large, or null
  let zoomPly = -1; // the ply the zoom was made for (a new turn starts with the whole board)

  // under the board: the cube's decisions, an offer to resign and its answer
  const cubeText = h("p", { id: "cube-text", className: "cube-text" });
  const cubeButtons = h("div", { className: "cube-buttons" });
  const cubeBar = h("div", { className: "cube-bar", id: "cube-bar", hidden: true }, cubeText, cubeButtons);
  cubeBar.setAttribute("role", "group");
  cubeBar.setAttribute("aria-label", t("cube.name"));
  // on a game's page it goes under the bottom player's strip (the board and that player's
  // clock stay together); elsewhere under the board
  const strip = document.getElementById("strip-bottom");
  if (strip && strip.parentElement === holder.parentElement) strip.after(cubeBar);
  else svg.after(cubeBar);

  const toBottom = (side, p) => (side === bottom ? p : 25 - p); // a side's point, on screen
  const toSide = (side, pb) => (side === bottom ? pb : 25 - pb);

  function orient() {
    bottom = flipped() ? (natural === "white" ? "black" : "white") : natural;
    top = bottom === "white" ? "black" : "white";
    svg.dataset.bottom = bottom;
    svg.dataset.flipped = flipped() ? "1" : "0";
  }

  function clearChooser() {
    chooser.hidden = true;
    chooser.innerHTML = "";
  }

  // Ask the server where the turn stands after the steps in ``done``. A refused step is taken
  // back (one at a time, so this ends); with no connection it stops at once: the page says it
  // is offline and starts the turn again when the socket is back.
  let asking = 0; // the latest request: older answers are stale
  async function refresh() {
    if (!interactive) return;
    const mine = ++asking;
    busy = true;
    const reply = await ask({ type: "partial", steps: done.map((s) => [s.src, s.dst, s.die]) });
    if (mine !== asking || !interactive) return;
    busy = false;
    if (reply.type === "error") {
      say(reply.message, true);
      if (reply.offline || !done.length) {
        turn = null;
        done = [];
        selected = null;
        draw();
        onTurn({ canFinish: false, canUndo: false, play: null });
        return;
      }
      done.pop();
      return refresh();
    }
    turn = reply;
    selected = null;
    if (!done.length) nav.restart();
    draw();
    onTurn({ canFinish: Boolean(turn.play), canUndo: done.length > 0, play: turn.play });
  }

  function sources() {
    return turn ? new Set(turn.next.map((s) => s.src)) : new Set();
  }

  // The checkers moved in this turn, each as the steps it made: { origin, end, steps }. A step
  // that starts where an earlier one ended is taken as the same checker moving on.
  function chains() {
    const list = [];
    done.forEach((s, i) => {
      const chain = list.findLast((c) => c.end === s.src && c.end !== 0);
      if (chain) {
        chain.end = s.dst;
        chain.steps.push(i);
      } else list.push({ origin: s.src, end: s.dst, steps: [i] });
    });
    return list;
  }

  // where the selected checker could be taken back to: origin -> its chain (latest first)
  function takeBacks() {
    const found = new Map();
    if (selected === null) return found;
    for (const chain of chains().reverse()) {
      if (chain.end === selected && !found.has(chain.origin)) found.set(chain.origin, chain);
    }
    return found;
  }

  function apply(step) {
    clearChooser();
    done.push(step);
    refresh();
  }

  // "undo this checker": its steps leave the turn, the others stay (the server checks them
  // again, and drops the last ones that no longer stand)
  function takeBack(chain) {
    clearChooser();
    selected = null;
    done = done.filter((_, i) => !chain.steps.includes(i));
    say("");
    refresh();
  }

  const placeName = (mine) => (mine === 25 ? t("bg.bar") : t("bg.point", { n: toBottom(mover, mine) }));

  function clickPlace(place) {
    if (!interactive || !turn || busy) return;
    // place: a bottom-numbered point, "bar" or "off"
    const mine = place === "bar" ? 25 : place === "off" ? 0 : toSide(mover, place);
    if (selected !== null) {
      const options = turn.next.filter((s) => s.src === selected && s.dst === mine);
      if (options.length === 1) return apply(options[0]);
      if (options.length > 1) return chooseDie(options);
      const back = takeBacks().get(mine);
      if (back) return takeBack(back);
    }
    if (sources().has(mine) && mine !== 0 && selected !== mine) {
      // a checker that can do nothing but bear off goes off at once (with its only die), or
      // asks which die at once: the tray needs no click
      const steps = turn.next.filter((s) => s.src === mine);
      if (steps.every((s) => s.dst === 0)) {
        if (new Set(steps.map((s) => s.die)).size === 1) {
          selected = null;
          return apply(steps[0]);
        }
        selected = mine;
        draw();
        tellChosen();
        return chooseDie(steps);
      }
    }
    const ends = new Set(chains().map((c) => c.end));
    if ((sources().has(mine) && mine !== 0) || ends.has(mine)) {
      selected = selected === mine ? null : mine;
      clearChooser();
      const backs = takeBacks();
      if (backs.size) say(t("bg.take_back_hint", { place: [...backs.keys()].map(placeName).join(` ${t("board.or")} `) }));
      draw();
      tellChosen();
    } else if (selected !== null) {
      selected = null;
      clearChooser();
      draw();
      tellChosen();
    }
  }

  // a screen reader hears the checker chosen and how many places it may go (or that the
  // choice was taken back)
  function tellChosen() {
    if (selected === null) return announce(t("board.unchosen"));
    const n = turn ? new Set(turn.next.filter((s) => s.src === selected).map((s) => s.dst)).size : 0;
    announce(t("board.chosen.checker", { place: placeName(selected), n }));
  }

  function chooseDie(options) {
    showChoices(
      chooser,
      t("bg.which_die"),
      options.map((step) => ({
        text: t("bg.use_die", { die: step.die }),
        className: "die-choice",
        data: { die: String(step.die) },
        onClick: () => apply(step),
      })),
    );
  }

  for (const [p, g] of Object.entries(pointGroups)) {
    g.addEventListener("click", () => clickPlace(Number(p)));
    g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickPlace(Number(p))));
  }
  barGroup.addEventListener("click", () => clickPlace("bar"));
  trayGroup.addEventListener("click", () => clickPlace("off"));
  for (const g of [barGroup, trayGroup]) {
    g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), g.dispatchEvent(new Event("click"))));
  }

  // dragging a checker onto a destination
  let drag = null;
  svg.addEventListener("pointerdown", (event) => {
    const checker = event.target.closest && event.target.closest("circle.checker.movable");
    if (!checker || !interactive || (zoomable() && !zoom)) return;
    drag = { place: checker.dataset.place, x: event.clientX, y: event.clientY, side: checker.dataset.side, ghost: null, moved: false, id: event.pointerId };
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.moved && Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) < 8) return;
    if (!drag.moved) {
      drag.moved = true;
      svg.setPointerCapture(drag.id);
      clickPlace(drag.place === "bar" ? "bar" : Number(drag.place));
      // choosing the checker redraws the board: the checker in the hand is drawn on top of
      // it, apart, and follows the pointer (it stood still before: its node had been replaced)
      drag.ghost = el("circle", { r: R - 1, class: `checker ${drag.side} dragging`, "aria-hidden": "true" }, svg);
    }
    const { x, y } = toLocal(svg, event.clientX, event.clientY);
    drag.ghost.setAttribute("cx", x);
    drag.ghost.setAttribute("cy", y);
  });
  svg.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
  });
  svg.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const moved = drag.moved;
    if (drag.ghost) drag.ghost.remove();
    drag = null;
    if (!moved) return;
    const { x, y } = toLocal(svg, event.clientX, event.clientY);
    let place = null;
    if (x >= TRAY_X) place = "off";
    else if (x >= BAR_X && x <= BAR_X + BAR_W) place = "bar";
    else {
      for (let p = 1; p <= 24; p++) {
        const { x: px, top: isTop } = pointXY(p);
        if (Math.abs(px - x) <= PW / 2 && (isTop ? y < 300 : y >= 300)) place = p;
      }
    }
    if (place !== null) clickPlace(place);
    draw();
  });

  function boards() {
    if (interactive && turn) return { white: turn.white, black: turn.black };
    const pos = parsePosition(shownPosition);
    return { white: pos.white, black: pos.black };
  }

  // checkers are drawn inside their point's group, so that a click on them is a click there
  const stacks = {};
  for (const [p, g] of Object.entries(pointGroups)) stacks[p] = el("g", { class: "stack" }, g);
  stacks.bar = el("g", { class: "stack" }, barGroup);
  stacks.off = el("g", { class: "stack" }, trayGroup);
  stacks.topOff = el("g", { class: "stack" }, svg);

  const slotY = (isTop, i) => (isTop ? 20 + R + i * 2 * R : 580 - R - i * 2 * R);

  function stack(x, top, count, side, place, movable) {
    const shown = Math.min(count, 5);
    for (let i = 0; i < shown; i++) {
      const cy = slotY(top, i);
      el("circle", { cx: x, cy, r: R - 1, class: `checker ${side}${movable && i === shown - 1 ? " movable" : ""}`,
                     "data-side": side, "data-point": String(place), "data-place": String(place) }, stacks[place]);  // prettier-ignore
      if (i === shown - 1 && count > 5) el("text", { x, y: cy + 6, class: `count ${side}` }, stacks[place], String(count));
    }
  }

  function draw() {
    for (const g of Object.values(stacks)) g.innerHTML = "";
    const b = boards();
    const src = sources();
    const targets = new Set();
    if (selected !== null && turn) for (const s of turn.next) if (s.src === selected) targets.add(s.dst);
    const backs = takeBacks();
    for (let p = 1; p <= 24; p++) {
      const { x, top: isTop } = pointXY(p);
      const bottomCount = b[bottom][p];
      const topCount = b[top][25 - p];
      const moverHere = interactive && mover && src.has(toSide(mover, p)) && (mover === bottom ? bottomCount : topCount);
      if (bottomCount) stack(x, isTop, bottomCount, bottom, p, moverHere && mover === bottom);
      if (topCount) stack(x, isTop, topCount, top, p, moverHere && mover === top);
      const g = pointGroups[p];
      const mine = mover ? toSide(mover, p) : null;
      const target = mine !== null && targets.has(mine);
      const back = mine !== null && backs.has(mine);
      g.classList.toggle("highlight", target);
      g.classList.toggle("selected", mine !== null && selected === mine);
      g.classList.toggle("source", Boolean(moverHere));
      g.classList.toggle("takeback", back);
      const label = bottomCount ? `${bottomCount} ${t("side." + bottom)}` : topCount ? `${topCount} ${t("side." + top)}` : t("bg.empty");
      const words = [`${t("bg.point", { n: p })}${t("punct.colon")}${label}`];
      if (moverHere) words.push(t("board.can_move"));
      if (target) words.push(t("board.target"));
      if (back) words.push(t("bg.take_back"));
      if (lastFrom.has(p)) words.push(t("board.last_from"));
      if (lastTo.has(p)) words.push(t("board.last_to"));
      g.setAttribute("aria-label", words.join(", "));
      g.setAttribute("aria-pressed", mine !== null && selected === mine ? "true" : "false");
    }
    // the bar: the bottom player's checkers below the middle, the top player's above
    for (const [side, isTop] of [[bottom, false], [top, true]]) {
      const n = b[side][25];
      for (let i = 0; i < Math.min(n, 4); i++) {
        const cy = isTop ? 250 - i * 2 * R : 350 + i * 2 * R;
        const movable = interactive && side === mover && src.has(25);
        el("circle", { cx: BAR_X + BAR_W / 2, cy, r: R - 3, class: `checker ${side}${movable && i === 0 ? " movable" : ""}`,
                       "data-side": side, "data-point": "bar", "data-place": "bar" }, stacks.bar);  // prettier-ignore
      }
      if (n > 4) el("text", { x: BAR_X + BAR_W / 2, y: isTop ? 130 : 480, class: `count ${side}` }, stacks.bar, String(n));
    }
    barGroup.classList.toggle("selected", selected === 25);
    barGroup.classList.toggle("source", interactive && src.has(25));
    barGroup.classList.toggle("takeback", backs.has(25));
    // the trays
    for (const [side, isTop] of [[bottom, false], [top, true]]) {
      const n = b[side][0];
      // fifteen slabs stop short of the pip count by the tray's inner edge (at 17 px apart
      // the last ones covered it)
      for (let i = 0; i < n; i++) {
        el("rect", { x: TRAY_X + 6, y: isTop ? 20 + i * 16 : 565 - i * 16, width: 56, height: 13, rx: 3,
                     class: `off ${side}`, "data-side": side }, isTop ? stacks.topOff : stacks.off);  // prettier-ignore
      }
    }
    trayGroup.classList.toggle("highlight", targets.has(0));
    trayGroup.classList.toggle("selected", selected === 0);
    const trayWords = [t("bg.off", { n: b[bottom][0] })];
    if (targets.has(0)) trayWords.push(t("board.target"));
    trayGroup.setAttribute("aria-label", trayWords.join(", "));
    barGroup.setAttribute("aria-label", [t("bg.bar"), ...(backs.has(25) ? [t("bg.take_back")] : [])].join(", "));
    for (const g of [barGroup, trayGroup]) g.setAttribute("aria-pressed", g.classList.contains("selected") ? "true" : "false");
    drawDice();
    drawPips(b);
    drawCube();
    if (hintLayer) drawHints(); // (the turn's steps change what is left to draw)
    follow();
    layout();
    nav.sync();
  }

  // -- the doubling cube ----------------------------------------------------------------------

  // The cube of the shown position: on the bar, in the middle at 64 (that is, 1) or at its
  // owner's end; a double waiting for its answer shows the cube offered, at twice the value, in
  // the doubler's half; an offer to resign, a white flag with what it gives (1, 2 or 3).
  function drawCube() {
    cubeLayer.innerHTML = "";
    const pos = shownPosition ? parsePosition(shownPosition) : null;
    const stakes = pos && pos.stakes;
    matchLine.hidden = !stakes;
    if (!stakes) return;
    matchLine.textContent = matchText(stakes, t);
    const onTurn = { w: "white", b: "black" }[pos.side] || null;
    const half = (side) => (side === bottom ? BAR_X + BAR_W + 150 : LEFT + 150); // where its dice go
    let [cx, cy, value, offered] = [BAR_X + BAR_W / 2, 300, stakes.value, false];
    if (stakes.owner) cy = stakes.owner === bottom ? 555 : 45;
    if (stakes.pending === "doubled" && onTurn) [cx, cy, value, offered] = [half(onTurn), 300, stakes.value * 2, true];
    const label = stakes.owner
      ? t("cube.owned", { value: stakes.value, side: stakes.owner })
      : t("cube.middle", { value: stakes.value });
    const g = el("g", { class: `cube${offered ? " offered" : ""}`, "data-value": String(value), "data-owner": stakes.owner || "",
                        role: "img", "aria-label": label }, cubeLayer);  // prettier-ignore
    el("rect", { x: cx - 21, y: cy - 21, width: 42, height: 42, rx: 7 }, g);
    el("text", { x: cx, y: cy + 8 }, g, value === 1 ? "64" : String(value));
    if (stakes.pending === "resign" && onTurn) {
      const times = RESIGNS.indexOf(stakes.offer) + 1;
      const x = half(onTurn) + 100; // beside the dice
      const flag = el("g", { class: "resign-flag", "data-offer": stakes.offer || "", role: "img",
                             "aria-label": t(`resign.${stakes.offer}`) }, cubeLayer);  // prettier-ignore
      el("line", { x1: x - 24, y1: 330, x2: x - 24, y2: 262 }, flag);
      el("path", { d: `M${x - 24},262 h50 l-10,16 l10,16 h-50 z` }, flag);
      el("text", { x: x + 2, y: 285 }, flag, `×${times}`);
    }
  }

  // -- the phone's zoom -----------------------------------------------------------------------

  const svgWidth = () => svg.getBoundingClientRect().width;
  // whether the whole board's points are under 44 px here (a phone's, or a small touch screen's)
  const zoomable = () => interactive && coarse() && svgWidth() > 0 && (svgWidth() * PW) / W < 44;
  // the width shown when zoomed: points of 45.5 px
  const zoomWidth = () => Math.min(W, (svgWidth() * PW) / 45.5);

  // where a place (the mover's numbering) lies across the board: [left, right]
  function span(mine) {
    if (mine === 25) return [BAR_X, BAR_X + BAR_W];
    if (mine === 0) return [TRAY_X, TRAY_X + 68];
    const { x } = pointXY(toBottom(mover, mine));
    return [x - PW / 2, x + PW / 2];
  }

  // zoomed, the view follows the chosen checker: it and every place it can go, when they fit
  function follow() {
    if (!zoom || selected === null || !turn || !mover) return;
    const spans = [selected, ...turn.next.filter((s) => s.src === selected).map((s) => s.dst)].map(span);
    const lo = Math.min(...spans.map((r) => r[0]));
    const hi = Math.max(...spans.map((r) => r[1]));
    if (hi - lo <= zoomWidth()) zoom.x = (lo + hi) / 2;
  }

  // zoomed with no checker chosen, a checker that can move is in sight: after a step the
  // ones left to move may all be at the other end, and the view goes to the nearest
  function showSources() {
    if (!zoom || selected !== null || !turn || !mover) return;
    const spans = [...sources()].filter((s) => s !== 25).map(span); // (the bar's is chosen by itself)
    if (!spans.length) return;
    const width = zoomWidth();
    const x0 = Math.max(0, Math.min(W - width, zoom.x - width / 2));
    if (spans.some(([lo, hi]) => lo >= x0 - 0.5 && hi <= x0 + width + 0.5)) return;
    const middle = ([lo, hi]) => (lo + hi) / 2;
    const near = spans.reduce((a, b) => (Math.abs(middle(a) - zoom.x) <= Math.abs(middle(b) - zoom.x) ? a : b));
    zoom.x = middle(near);
  }

  function layout() {
    if (zoom && !zoomable()) zoom = null;
    showSources();
    const width = zoom ? zoomWidth() : W;
    const x0 = zoom ? Math.max(0, Math.min(W - width, zoom.x - width / 2)) : 0;
    svg.setAttribute("viewBox", `${x0} ${TOP_Y} ${width} ${H - TOP_Y + BAND}`);
    svg.dataset.zoom = zoom ? "in" : "out";
    zoomOut.hidden = !zoom;
    // zoomed, a place cut by the edge of the view to under 44 px is no target (the view
    // follows the chosen checker to where it can go), nor is the bar, narrower than a finger:
    // a checker there is chosen by itself (it must come in first), and one that came in is
    // taken back with its button
    const scale = svgWidth() / width;
    const cut = (lo, hi) => Boolean(zoom) && (Math.min(hi, x0 + width) - Math.max(lo, x0)) * scale < 44;
    for (const [p, g] of Object.entries(pointGroups)) {
      const { x } = pointXY(Number(p));
      g.classList.toggle("untouched", cut(x - PW / 2, x + PW / 2));
    }
    trayGroup.classList.toggle("untouched", cut(TRAY_X, TRAY_X + 68));
    barGroup.classList.toggle("untouched", Boolean(zoom));
    // zoomed, the dice may be out of sight: they are said above the board
    const dice = snap && snap.extra.dice;
    diceLine.hidden = !(zoom && dice);
    if (zoom && dice) {
      const left = turn ? turn.dice_left : dice;
      diceLine.textContent = t("bg.dice_left", { dice: left.join(" ") || "—" });
    }
  }

  // A tap on the whole board of a phone zooms into the part it touched, and chooses the checker
  // there (or the bar's, which must come in first); nothing moves until the large view.
  svg.addEventListener(
    "click",
    (event) => {
      if (zoom || !zoomable()) return;
      event.stopPropagation();
      const { x } = toLocal(svg, event.clientX, event.clientY);
      zoom = { x };
      zoomPly = snap ? snap.ply : -1;
      const src = sources();
      const group = event.target.closest && event.target.closest("g.pt");
      const place = group ? group.dataset.point : null;
      if (src.has(25)) selected = 25;
      else if (place && place !== "off" && place !== "bar" && !busy && src.has(toSide(mover, Number(place)))) {
        selected = toSide(mover, Number(place));
      }
      clearChooser();
      draw();
      if (selected !== null) tellChosen();
    },
    true,
  );

  // -- decisions that are not checker plays ---------------------------------------------------

  function button(id, text, word, primary = false) {
    const node = h("button", { type: "button", id, className: primary ? "primary" : "" }, text);
    node.addEventListener("click", () => onMove(word));
    return node;
  }

  // The bar under the board: the buttons of the decision that is this player's now, or what the
  // other side is deciding.
  function showDecisions(live) {
    const pos = parsePosition(live);
    const stakes = pos.stakes;
    const onTurn = { w: "white", b: "black" }[pos.side] || null;
    const name = (side) => t(`side.${side}`);
    cubeButtons.replaceChildren();
    let text = "";
    if (offers.includes("double")) {
      text = t("cube.decide", { value: stakes.value * 2 });
      cubeButtons.append(button("cube-roll", t("cube.roll"), "roll", true), button("cube-double", t("cube.double"), "double"));
    } else if (offers.includes("take")) {
      text = t("cube.doubled", { side: onTurn, value: stakes.value * 2, points: pointsText(t, stakes.value) });
      cubeButtons.append(button("cube-take", t("cube.take"), "take", true), button("cube-drop", t("cube.drop"), "drop"));
    } else if (offers.includes("accept")) {
      const times = RESIGNS.indexOf(stakes.offer) + 1;
      text = t("resign.offered", { side: onTurn, what: t(`resign.${stakes.offer}`), points: pointsText(t, stakeOf(stakes, times)) });
      cubeButtons.append(button("resign-accept", t("resign.accept"), "accept", true), button("resign-decline", t("resign.decline"), "decline"));
    } else if (stakes && onTurn && stakes.pending === "doubled") {
      text = t("cube.doubled_wait", { side: onTurn, value: stakes.value * 2 });
    } else if (stakes && onTurn && stakes.pending === "resign") {
      text = t("resign.offered_wait", { side: onTurn, what: t(`resign.${stakes.offer}`) });
    }
    cubeText.textContent = text;
    cubeBar.hidden = !text;
    cubeBar.dataset.decision = offers.filter((o) => CUBE_WORDS.has(o)).join(" ");
  }

  function drawDice() {
    diceLayer.innerHTML = "";
    if (!snap) return;
    const dice = snap.extra.dice;
    if (!dice) return;
    const all = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
    // a copy either way: the marking below takes dice out of it
    const left = interactive && turn ? [...turn.dice_left] : [...all];
    const used = all.map((d) => {
      const i = left.indexOf(d);
      if (i >= 0) {
        left.splice(i, 1);
        return false;
      }
      return true;
    });
    // the side whose roll it is (not the side answering its offer to resign)
    const side = { w: "white", b: "black" }[parsePosition(snap.position).side] || snap.to_move;
    const cx = side === bottom ? BAR_X + BAR_W + 150 : LEFT + 150;
    const size = all.length === 4 ? 34 : 44;
    all.forEach((d, i) => {
      const x = cx - (all.length * (size + 10)) / 2 + i * (size + 10);
      const g = el("g", { class: `die ${side}${used[i] ? " used" : ""}`, "data-die": String(d) }, diceLayer);
      el("rect", { x, y: 300 - size / 2, width: size, height: size, rx: 7 }, g);
      const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
                     5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] }[d];  // prettier-ignore
      for (const [dx, dy] of pips) el("circle", { cx: x + size / 2 + dx * size * 0.27, cy: 300 + dy * size * 0.27, r: size * 0.08, class: "pip" }, g);
    });
    diceLayer.setAttribute("data-dice", String(dice.join("")));
  }

  function drawPips(b) {
    labels.innerHTML = "";
    const pips = (counts) => counts.reduce((sum, n, p) => sum + n * p, 0);
    // each number says what it is: the pip count of the side whose tray it stands by
    for (const [side, y, labelY] of [[bottom, 322, 338], [top, 290, 273]]) {
      const count = pips(b[side]);
      const group = el("g", { class: "pips", "data-side": side }, labels);
      el("title", {}, group, `${t(`side.${side}`)}${t("punct.colon")}${t("bg.pips")} ${count}`);
      el("text", { x: TRAY_X + 34, y, class: `pip-count ${side}`, "data-pips": String(count) }, group, `${count}`);
      el("text", { x: TRAY_X + 34, y: labelY, class: "pip-label", "aria-hidden": "true" }, group, t("bg.pips_short"));
    }
  }

  // the single moves of a play in the mover's numbering: [[from, to, hit], ...]
  const singles = (text) =>
    text.split(" ").filter(Boolean).map((part) => {
      const [from, to] = part.split("/");
      return [from, to.replace("*", ""), to.includes("*")];
    });

  // where an arrow of the last move starts or ends at ``place`` (the mover's numbering)
  function anchor(side, place) {
    const sideIsTop = side === top;
    if (place === "bar") return [BAR_X + BAR_W / 2, sideIsTop ? 250 : 350];
    if (place === "off") return [TRAY_X + 34, sideIsTop ? 250 : 350];
    const { x, top: isTop } = pointXY(toBottom(side, Number(place)));
    return [x, isTop ? 250 : 350];
  }

  // The last move: each origin tinted, each destination outlined, an arrow from one to the other.
  function markLast(found) {
    for (const slot of [marks, arrows, ...Object.values(slots)]) slot.innerHTML = "";
    lastFound = found;
    lastFrom = new Set();
    lastTo = new Set();
    if (!found || found.entry.text === "pass") return;
    const side = found.entry.side;
    for (const [from, to] of singles(found.entry.text)) {
      if (from === "bar") {
        el("rect", { x: BAR_X + 3, y: side === top ? 20 : 305, width: BAR_W - 6, height: 275, rx: 6, class: "last-from" }, slots.bar);
      } else {
        const pb = toBottom(side, Number(from));
        lastFrom.add(pb);
        el("polygon", { points: triangle(pb, 0), class: "last-from" }, slots[pb]);
      }
      if (to === "off") {
        el("rect", { x: TRAY_X + 2, y: side === top ? 17 : 307, width: 64, height: 276, rx: 8, class: "last-to" }, side === top ? marks : slots.off);
      } else {
        const pb = toBottom(side, Number(to));
        lastTo.add(pb);
        el("polygon", { points: triangle(pb, 3), class: "last-to" }, slots[pb]);
      }
      const [x1, y1] = anchor(side, from);
      const [x2, y2] = anchor(side, to);
      // along a row the arrow bows towards the middle of the board, across it goes straight
      const bow = Math.abs(y1 - y2) < 1 ? (y1 < 300 ? 30 : -30) : 0;
      const d = `M${x1},${y1} Q${(x1 + x2) / 2},${(y1 + y2) / 2 + bow} ${x2},${y2}`;
      el("path", { d, class: "last-arrow", "marker-end": arrow }, arrows);
    }
  }

  // The engine's best plays (the "Best moves" switch): a light arrow for each checker moved,
  // numbered by the play's rank, each rank bowed further so that plays sharing a move keep
  // their numbers apart. Only on the live position they were asked for, or on the past one a
  // review names (a cube decision has no arrow: the list says it).
  // What is left of a hinted play once the turn's first steps are made ([[from, to], ...] in
  // the mover's numbering, 25 the bar and 0 off), or null when the steps left it.
  function hintLeft(text, steps) {
    const parts = singles(text).map(([from, to]) => [from === "bar" ? 25 : Number(from), to === "off" ? 0 : Number(to)]);
    for (const step of steps) {
      const i = parts.findIndex(([f, to]) => f === step.src && (to === step.dst || (to < step.dst && step.dst < f)));
      if (i < 0) return null;
      if (parts[i][1] === step.dst) parts.splice(i, 1);
      else parts[i] = [step.dst, parts[i][1]];
    }
    return parts;
  }

  // The best plays drawn on the board, one arrow a checker's move, from the checker that moves
  // to where it lands (not through the bar and the dice); redrawn as the turn goes: what the
  // player has already moved is no longer drawn, and a play the player has left goes.
  function drawHints() {
    const now = snap && shownPosition === snap.position;
    const live = snap && hints.position === shownPosition && (now || hints.side);
    const side = live ? hints.side || snap.to_move : null; // a review's: the side that erred
    const steps = interactive && turn && now ? turn.done : [];
    const plays = side === "white" || side === "black"
      ? hints.moves.map((text, i) => ({ rank: i + 1, left: text.includes("/") ? hintLeft(text, steps) : null })).filter((p) => p.left && p.left.length)
      : [];  // prettier-ignore
    clearHints(hintLayer, plays.length);
    const b = boards();
    const lands = {}; // how many arrows already end on a point: each lands one checker higher
    for (const { rank, left } of plays) {
      const used = {}; // the checkers of a point this play already moves: the next is below
      for (const [from, to] of left) {
        const depth = used[from] || 0;
        used[from] = depth + 1;
        const [x1, y1] = hintFrom(side, from, b, depth);
        const key = `${rank}:${to}`;
        const [x2, y2] = hintTo(side, to, b, lands[key] || 0);
        lands[key] = (lands[key] || 0) + 1;
        const along = Math.abs(y1 - y2) < 2 * R;
        const bow = along ? (y1 < 300 ? 1 : -1) * (30 + 26 * (rank - 1)) : 0;
        const sway = along ? 0 : (rank - 2) * 24;
        const [cx, cy] = [(x1 + x2) / 2 + sway, (y1 + y2) / 2 + bow];
        hintLine(hintLayer, `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`, rank, hints.arrow);
        hintBadge(hintLayer, (x1 + 2 * cx + x2) / 4, (y1 + 2 * cy + y2) / 4, rank);
      }
    }
  }

  // where a hint's arrow starts: the checker that moves (``depth`` below the top of its stack)
  function hintFrom(side, place, b, depth) {
    if (place === 25) return [BAR_X + BAR_W / 2, side === top ? 160 + depth * 2 * R : 440 - depth * 2 * R];
    const pb = toBottom(side, place);
    const { x, top: isTop } = pointXY(pb);
    return [x, slotY(isTop, Math.max(0, Math.min(b[side][place], 5) - 1 - depth))];
  }

  // where it ends: the place the checker lands on (the tray for a checker borne off)
  function hintTo(side, place, b, already) {
    if (place === 0) return [TRAY_X + 34, side === top ? 80 + already * 20 : 520 - already * 20];
    const pb = toBottom(side, place);
    const { x, top: isTop } = pointXY(pb);
    return [x, slotY(isTop, Math.min(b[side][place] + already, 4))];
  }

  // the checker of ``side`` at ``place`` (mover's numbering) drawn ``depth`` from the top
  function checkerAt(side, place, depth) {
    let nodes;
    if (place === "off") nodes = [...(side === bottom ? stacks.off : stacks.topOff).querySelectorAll(`rect.off[data-side="${side}"]`)];
    else if (place === "bar") nodes = [...stacks.bar.querySelectorAll(`circle.checker[data-side="${side}"]`)];
    else nodes = [...stacks[toBottom(side, Number(place))].querySelectorAll(`circle.checker[data-side="${side}"]`)];
    return nodes[nodes.length - 1 - depth] || null;
  }

  function centreOf(node) {
    if (node.tagName === "rect") return [Number(node.getAttribute("x")) + 28, Number(node.getAttribute("y")) + 7];
    return [Number(node.getAttribute("cx")), Number(node.getAttribute("cy"))];
  }

  // where a checker of ``side`` leaving ``place`` was drawn (on top of what is left there)
  function spot(side, place, b) {
    if (place === "bar") return [BAR_X + BAR_W / 2, side === top ? 250 : 350];
    const pb = toBottom(side, Number(place));
    const { x, top: isTop } = pointXY(pb);
    return [x, slotY(isTop, Math.min(b[side][Number(place)], 4))];
  }

  // A play that has just arrived: each checker travels its way (each a little after the one
  // before), and a checker it hits goes to the bar.
  function animate(found) {
    if (found.entry.text === "pass") return;
    const side = found.entry.side;
    const other = side === "white" ? "black" : "white";
    const b = boards();
    const paths = [];
    for (const [from, to, hit] of singles(found.entry.text)) {
      const path = paths.findLast((p) => p.places[p.places.length - 1] === from && from !== "off");
      if (path) path.places.push(to);
      else paths.push({ places: [from, to], hits: [] });
      if (hit) (path || paths[paths.length - 1]).hits.push(to);
    }
    const depth = {};
    let delay = 0;
    let any = false;
    let hits = 0;
    for (const path of paths) {
      const end = path.places[path.places.length - 1];
      const node = checkerAt(side, end, depth[end] || 0);
      depth[end] = (depth[end] || 0) + 1;
      if (!node) continue;
      const [ex, ey] = centreOf(node);
      const offsets = path.places.slice(0, -1).map((place) => {
        const [x, y] = spot(side, place, b);
        return [x - ex, y - ey];
      });
      if (slide(node, offsets[0][0], offsets[0][1], { via: offsets.slice(1), delay, duration: 280 })) any = true;
      for (const place of path.hits) {
        // the hit checker waits on its point, then goes to the bar
        const victim = checkerAt(other, "bar", hits++);
        if (!victim) continue;
        const [vx, vy] = centreOf(victim);
        const { x, top: isTop } = pointXY(toBottom(side, Number(place)));
        const [hx, hy] = [x, slotY(isTop, 0)];
        slide(victim, hx - vx, hy - vy, { delay: delay + 280 * (offsets.length - 1), duration: 280 });
      }
      delay += 160; // the next checker sets off before this one lands: the whole play stays short
    }
    if (any) svg.dataset.animations = String(Number(svg.dataset.animations || 0) + 1);
  }

  return {
    update({ position, livePosition, legal, last, snap: s, mySides }) {
      snap = s;
      natural = mySides.length === 1 ? mySides[0] : "white";
      orient();
      svg.dataset.position = livePosition;
      svg.dataset.shownPosition = position;
      shownPosition = position;
      const wasInteractive = interactive;
      const live = position === livePosition;
      offers = live ? legal : [];
      // a decision of the cube (or an answer to an offer) has buttons of its own, not checkers
      interactive = legal.length > 0 && live && !legal.some(isCubeWord);
      mover = interactive ? s.to_move : null;
      if (!interactive || zoomPly !== s.ply) zoom = null; // a new turn is seen whole first
      clearChooser();
      const fresh = newMove(seen, s, live);
      markLast(lastPlayOf(s, last));
      if (live) showDecisions(livePosition);
      else cubeBar.hidden = true;
      if (interactive) {
        if (!wasInteractive || !turn || turn.ply !== s.ply) {
          done = [];
          turn = null;
          refresh().then(() => turn && (turn.ply = s.ply));
        }
      } else {
        turn = null;
        done = [];
        busy = false;
        asking++;
        onTurn({ canFinish: false, canUndo: false, play: null, hidden: true });
      }
      svg.classList.toggle("interactive", interactive);
      draw();
      drawHints();
      // (the page redraws while the play is on its way: it is forgotten once it is back)
      if (fresh) {
        if (fresh.entry.text !== played && !isCubeWord(fresh.entry.text)) animate(fresh);
        played = null;
      }
    },
    // The page's Resign button, in a game played for points: offers to resign a single game, a
    // gammon or a backgammon (on this player's turn; the other side accepts or declines), or
    // giving the game up at once (everything it can still lose). False elsewhere: the page asks.
    resign() {
      if (!snap || !snap.extra.cube) return false;
      const stakes = parsePosition(snap.position).stakes;
      const answers = ["take", "drop", "accept", "decline"];
      const canOffer = offers.length > 0 && !offers.some((o) => answers.includes(o));
      const side = snap.my_sides.length === 1 ? snap.my_sides[0] : snap.to_move || "white";
      const atStake = pointsText(t, (snap.extra.cube.at_stake || {})[side] || stakes.value);
      const choices = [];
      if (canOffer) {
        RESIGNS.forEach((name, i) => {
          const what = t(`resign.${name}`);
          choices.push({
            text: upper(t("resign.choice", { what, points: pointsText(t, stakeOf(stakes, i + 1)) })),
            className: "resign-offer",
            data: { offer: name },
            onClick: () => {
              clearChooser();
              onMove(`resign ${name}`);
            },
          });
        });
      }
      choices.push({
        text: t("resign.give_up", { points: atStake }),
        className: "give-up",
        data: { offer: "all" },
        onClick: () => {
          if (!window.confirm(t("resign.give_up_confirm", { points: atStake }))) return;
          clearChooser();
          giveUp();
        },
      });
      choices.push({ text: t("play.cancel"), className: "cancel", onClick: clearChooser });
      showChoices(chooser, t("resign.title"), choices);
      chooser.append(h("p", { className: "resign-help" }, t(canOffer ? "resign.help" : "resign.later")));
      return true;
    },
    undoStep() {
      if (done.length && !busy) {
        done.pop();
        refresh();
      }
    },
    finish() {
      if (turn && turn.play && !busy) {
        played = turn.play;
        onMove(turn.play);
      }
    },
  };
}

// The last checker play up to ``last`` (a history entry): { entry, index } or null. Rolls and
// the cube's decisions are passed over.
function lastPlayOf(snap, last) {
  if (!snap || !last) return null;
  let index = snap.history.lastIndexOf(last);
  while (index >= 0 && (snap.history[index].kind !== "move" || isCubeWord(snap.history[index].text))) index--;
  return index >= 0 ? { entry: snap.history[index], index } : null;
}

// A decision of the cube or an offer to resign, in words ("doubles → 4", "offers a gammon").
function cubeText(entry, t) {
  const [word, what] = entry.text.split(" ");
  if (word === "double") return t("cube.list.double", { value: entry.note || "" });
  if (word === "resign") return t("cube.list.resign", { what: t(`resign.${what}`) });
  return t(`cube.list.${word}`);
}

// The move list keeps a turn's decisions of the cube (and an offer to resign with its answer)
// in the part of the checker play that follows them, as the rolls are.
// The counter under the board counts turns, not plies: a turn is a side's roll and play (or
// pass); rolls and cube actions belong to the turn they open. While a turn is under way (its
// roll shown, its play not yet), it is counted.
export function counter(history, plies) {
  const isPlay = (entry) => entry.kind === "move" && !isCubeWord(entry.text);
  const playsIn = (entries) => entries.filter(isPlay).length;
  const shown = history.slice(0, plies);
  const underWay = (entries) => (entries.length && !isPlay(entries[entries.length - 1]) ? 1 : 0);
  return { key: "bg.viewing", n: playsIn(shown) + underWay(shown), total: playsIn(history) + underWay(history) };
}

// How a finished game was won, said under the result: a gammon or a backgammon in every
// ruleset (after the reason), with whether it scores (the Jacoby rule, a game played for the
// win alone); what a resignation gave up where that scores (else: a resignation). Empty for
// a single game borne off, a drop or a
// time-out: the reason says it all.
export function resultDetail(snap, t) {
  const about = snap.game_extra || {};
  const o = snap.outcome;
  if (!o || !o.winner || !about.win_kind) return "";
  if (o.reason === "resignation") {
    // played for the win alone, what the position would have given up does not count
    if (!about.kind_scores) return t("reason.resignation");
    return t("bg.won_resigned", { kind: t(`resign.${about.win_kind}`) });
  }
  if (about.win_kind === "single") return "";
  const how = o.reason === "borne-off" ? `${t("reason.borne-off")} — ${t(`bg.won_by.${about.win_kind}`)}` : t(`reason.${o.reason}`);
  if (about.kind_scores) return how;
  const played = about.points === undefined || about.points === null;
  return `${how}; ${t(played ? "bg.kind_for_win" : "bg.kind_jacoby")}`;
}

export function historyText(entry, t) {
  if (entry.kind === "chance") {
    const m = /^w(\d)b(\d)$/.exec(entry.text);
    if (m) return t("bg.opening", { w: m[1], b: m[2] });
    const side = parsePosition(entry.position).side === "w" ? "white" : "black";
    return t("bg.rolled", { side: t(`side.${side}`), dice: entry.text });
  }
  if (isCubeWord(entry.text)) return cubeText(entry, t);
  if (entry.text === "pass" && entry.note) return `${t("bg.pass")} — ${passNote(entry)}`;
  if (entry.text === "pass") return t("bg.pass");
  return entry.text;
}

// Why a pass was forced: the engine's words, in French on a French page (see engine_words.py).
function passNote(entry) {
  const french = typeof document !== "undefined" && document.documentElement.lang === "fr";
  return (french && entry.note_fr) || entry.note || "";
}

// The move list as backgammon players write it: the roll ("31:") beside its play; the reason
// for a forced pass goes in a note under it (returned as ``note``).
export function listText(entry, t) {
  if (entry.kind === "chance") {
    const m = /^w(\d)b(\d)$/.exec(entry.text);
    const dice = m ? [m[1], m[2]].sort().reverse().join("") : entry.text;
    return { text: `${dice}:`, title: historyText(entry, t) };
  }
  if (entry.text === "pass") return { text: t("bg.pass"), note: passNote(entry) };
  if (isCubeWord(entry.text)) return { text: cubeText(entry, t) };
  return { text: grouped(entry.text), title: entry.text };
}

// A play as players write it: the same move twice or more once, with its count
// ("bar/23 bar/23 6/5" -> "bar/23(2) 6/5"), in the order the moves come.
export function grouped(play) {
  const counts = new Map();
  for (const part of play.split(" ")) counts.set(part, (counts.get(part) || 0) + 1);
  return [...counts].map(([part, n]) => (n > 1 ? `${part}(${n})` : part)).join(" ");
}

// "Match to 7 points · White 2 – 3 Black · Crawford game", or "Money game · Jacoby rule"
export function matchText(stakes, t) {
  if (!stakes.length) {
    return [t("match.money"), ...(stakes.jacoby ? [t("cube.jacoby_short")] : [])].join(" · ");
  }
  const score = t("match.score", { white: t("side.white"), black: t("side.black"), w: stakes.score.white, b: stakes.score.black });
  const parts = [t("match.title", { length: stakes.length }), score];
  if (stakes.crawford) parts.push(t("match.crawford"));
  else if (Math.max(stakes.score.white, stakes.score.black) === stakes.length - 1) parts.push(t("match.post_crawford"));
  return parts.join(" · ");
}

// Under the result of a game played for points: what the winner scored, the match score after
// the game, and the match's winner.
export function resultNote(snap, t) {
  const about = snap.game_extra || {};
  const winner = snap.outcome && snap.outcome.winner;
  if (!winner || about.points === null || about.points === undefined) return "";
  const parts = [t("match.points_won", { side: winner, points: pointsText(t, about.points) })];
  if (about.score_after) {
    const score = t("match.score", { white: t("side.white"), black: t("side.black"), w: about.score_after.white, b: about.score_after.black });
    parts.push(t("match.score_after", { score }));
  }
  if (about.match_winner) parts.push(t("match.won", { side: about.match_winner }));
  return parts.join(" · ");
}

// The words of the rematch's buttons when a match goes on (the next game, same sides) or is
// won (a new match); null for a single game.
export function nextLabels(snap, t) {
  const next = (snap.game_extra || {}).next;
  if (next === "next") {
    return {
      rematch: t("match.next"), offer: t("match.next_offer"), accept: t("match.next_join"), watch: t("match.watch_next"),
      waiting: t("match.next_waiting"), go: t("match.next_join"),
    };  // prettier-ignore
  }
  if (next === "new-match") return { rematch: t("match.new") };
  return null;
}

export function describe(snap, position, t) {
  const pos = parsePosition(position);
  const pips = (counts) => counts.reduce((sum, n, p) => sum + n * p, 0);
  const parts = [
    h("p", { className: "pips-line", data: { pipsWhite: String(pips(pos.white)), pipsBlack: String(pips(pos.black)) } },
      `${t("bg.pips")}${t("punct.colon")}${t("side.white")} ${pips(pos.white)} · ${t("side.black")} ${pips(pos.black)}`),  // prettier-ignore
    h("p", {}, `${t("side.white")}${t("punct.colon")}${pos.white[0]} ${t("bg.borne")} · ${t("side.black")}${t("punct.colon")}${pos.black[0]} ${t("bg.borne")}`),  // prettier-ignore
  ];
  if (snap.extra.cap) parts.push(h("p", { className: "cap-note" }, t("bg.cap", { n: snap.extra.cap })));
  if (pos.stakes) {
    const stakes = pos.stakes;
    const cube = stakes.owner
      ? t("cube.owned", { value: stakes.value, side: stakes.owner })
      : t("cube.middle", { value: stakes.value });
    parts.push(h("p", { className: "cube-line", id: "cube-line" }, cube));
    parts.push(h("p", { className: "match-info", id: "match-info" }, matchText(stakes, t)));
    if (stakes.jacoby) parts.push(h("p", { className: "jacoby-note" }, t("cube.jacoby")));
  }
  if (snap.extra.gnubg) {
    for (const [name, id, value] of [["GNU Backgammon ID", "gnubg-id", snap.extra.gnubg], ["XGID", "xgid", snap.extra.xgid]]) {
      parts.push(h("p", { className: "ids" }, h("label", {}, `${name} `, h("input", { readOnly: true, id, value: String(value) }))));
    }
  }
  if (snap.dice) {
    const fair = h("details", { className: "fair", id: "fair", open: Boolean(snap.dice.seed) },
      h("summary", {}, t("bg.fair")),
      h("p", {}, `${t("bg.commitment")} `, h("code", { id: "seed-hash" }, String(snap.dice.sha256))));  // prettier-ignore
    if (snap.dice.seed) {
      fair.append(
        h("p", {}, `${t("bg.seed")} `, h("code", { id: "seed" }, String(snap.dice.seed))),
        h("button", { type: "button", id: "verify-dice" }, t("bg.verify")),
        h("div", { id: "verify-result", className: "verify-result" }),
      );
    } else {
      fair.append(h("p", {}, t("bg.seed_hidden")));
    }
    fair.append(h("p", {}, h("a", { href: "/dice" }, t("bg.how"))));
    parts.push(fair);
  }
  return parts;
}

// -- verifying the dice: the documented procedure, recomputed in the browser ----------------

const OPENINGS = [];
for (let w = 1; w <= 6; w++) for (let b = 1; b <= 6; b++) if (w !== b) OPENINGS.push([`w${w}b${b}`, 1]);
const ROLLS = [];
for (let h = 1; h <= 6; h++) for (let l = 1; l <= h; l++) ROLLS.push([`${h}${l}`, h === l ? 1 : 2]);

async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function drawRoll(seed, index, outcomes) {
  const total = BigInt(outcomes.reduce((s, [, w]) => s + w, 0));
  const two64 = 1n << 64n;
  const limit = two64 - (two64 % total);
  for (let attempt = 0; ; attempt++) {
    const digest = await sha256(`${seed}:${index}:${attempt}`);
    let x = 0n;
    for (let i = 0; i < 8; i++) x = (x << 8n) | BigInt(digest[i]);
    if (x < limit) {
      let r = x % total;
      for (const [name, weight] of outcomes) {
        if (r < BigInt(weight)) return name;
        r -= BigInt(weight);
      }
    }
  }
}

export async function verifyDice(dice, startsWithOpening = true) {
  const hashOk = hex(await sha256(dice.seed)) === dice.sha256;
  const rows = [];
  for (let i = 0; i < dice.rolls.length; i++) {
    const list = i === 0 && startsWithOpening ? OPENINGS : ROLLS;
    // each roll's draw number (rolls an undo took back are skipped, never drawn again)
    const draw = dice.draws ? dice.draws[i] : i;
    const computed = await drawRoll(dice.seed, draw, list);
    rows.push({ index: i + 1, recorded: dice.rolls[i], computed, ok: computed === dice.rolls[i] });
  }
  return { hashOk, rows, allOk: hashOk && rows.every((r) => r.ok) };
}
