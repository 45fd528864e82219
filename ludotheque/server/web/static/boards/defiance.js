// Defiance and Domain in SVG: a diamond seen from the player's corner (the Rebels' corner
// P0.0 at the bottom, or the Imperium's P{N}.{N} for its player), or a flat square. A turn is
// built in parts: an action (a cell, then a direction), then perhaps a Command move; the server
// says which actions are legal and what each does (captures, Command moves), the page shows it.
//
// Test hooks: the <svg> has data-position; cells are <g data-cell="e5">, points
// <g data-point="P2.2">, direction buttons <g data-direction="NE">.
import {
  arrowMarker, besideLine, boardTools, clearHints, coarse, el, h, hintBadge, hintLine, hintMarks, keyboardHelp, lastMoveOf, newMove, play, positionBefore,
  roving, slide, toLocal,
} from "./svg.js";

const U = 40; // a cell
const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const VEC = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const FILES = "abcdefghijklmnopqrstuvwxyz";

// A counter: a round (Rebel) or square (Imperial) body with an arrow the way it faces.
function drawCounter(g, cx, cy, side, dir) {
  const [dx, dy] = VEC[dir];
  const body = el("g", { class: `counter ${side}`, "data-direction": dir }, g);
  el("rect", { x: cx - 15, y: cy - 15, width: 30, height: 30, rx: side === "rebels" ? 15 : 4, class: "body" }, body);
  el("line", { x1: cx - dx * 8, y1: cy + dy * 8, x2: cx + dx * 12, y2: cy - dy * 12, class: "arrow" }, body);
  const ax = cx + dx * 15;
  const ay = cy - dy * 15;
  const len = Math.hypot(dx, dy);
  const ux = dx / len;
  const uy = -dy / len;
  el("polygon", { points: `${ax},${ay} ${ax - ux * 8 - uy * 5},${ay - uy * 8 + ux * 5} ${ax - ux * 8 + uy * 5},${ay - uy * 8 - ux * 5}`, class: "head" }, body);
}

export function parsePosition(position) {
  const [cells, pools, commands, side] = position.trim().split(/\s+/);
  const rows = cells.split("/");
  const n = rows.length;
  const counters = {};
  rows.forEach((row, r) => {
    const j = n - 1 - r;
    let i = 0;
    for (const m of row.matchAll(/(\d+)|([RI])(NE|NW|SE|SW|N|E|S|W)/g)) {
      if (m[1]) i += Number(m[1]);
      else {
        counters[`${FILES[i]}${j + 1}`] = { side: m[2] === "R" ? "rebels" : "imperium", dir: m[3] };
        i += 1;
      }
    }
  });
  const pool = Object.fromEntries([...pools.matchAll(/([ri])(\d+)/g)].map((m) => [m[1], Number(m[2])]));
  const cmds = [...commands.matchAll(/([RI])(\d+)\.(\d+)/g)].map((m) => ({ side: m[1] === "R" ? "rebels" : "imperium", x: Number(m[2]), y: Number(m[3]) }));
  return { n, counters, pools: { rebels: pool.r, imperium: pool.i }, commands: cmds, side };
}

export function createBoard(holder, { t, onMove, say, ask, onTurn, announce = () => {} }) {
  const { tools, flipped } = boardTools(holder, t, () => {
    layout();
    draw();
  });
  const zoomOut = h("button", { type: "button", id: "zoom-out", hidden: true }, t("dd.zoom_out"));
  tools.prepend(
    h("label", {}, h("input", { type: "checkbox", id: "show-dead" }), ` ${t("dd.show_dead")}`),
    h("button", { type: "button", id: "flat-view" }, t("dd.flat")),
    zoomOut,
  );
  const svg = el("svg", { class: "board defiance", role: "group" });
  svg.setAttribute("aria-label", t("game.defiance"));
  holder.append(svg);
  keyboardHelp(holder, svg, t);
  const arrow = arrowMarker(svg, "defiance-arrow");
  const rotor = el("g", {}, svg);
  const plane = el("g", {}, rotor);
  const hints = hintMarks(holder, svg, "defiance-hint", () => draw());
  let flat = localStorage.getItem("dd-flat") === "1";
  let showDead = false;

  let n = 0;
  let pos = null;
  let snap = null;
  let live = "";
  let actions = []; // legal actions (strings)
  let interactive = false;
  let stage = "idle"; // idle | direction | command | ready
  let cell = null; // the cell of the action being built
  let kind = null; // ">" place | "@" rotate
  let view = null; // the server's answer for the chosen action
  let commandSrc = null;
  let command = null; // the chosen Command move ("P2.2-P3.3")
  let natural = "rebels"; // the side whose corner is at the bottom when the board is not flipped
  let bottomSide = "rebels";
  let lastPly = -1;
  let zoom = null; // on a phone: the centre of the part of the board shown large, or null
  let last = null; // the last turn: { cell, src, dst, captured: Set, entry }
  let before = null; // the position before the last turn (parsed)
  const seen = { id: null, length: 0 };
  let played = null; // the turn this board just sent (already shown: no animation)

  const cellXY = (name) => [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
  const cellName = (i, j) => `${FILES[i]}${j + 1}`;
  const px = (x, y) => [x * U, (n - y) * U]; // a point, in plane coordinates
  const pointXY = (name) => name.slice(1).split(".").map(Number);

  const nav = roving(svg, {
    items: () => {
      if (stage === "direction") return [...plane.querySelectorAll("g.dir")];
      if (stage === "command") return [...plane.querySelectorAll('g.pnt[data-focusable="1"]')];
      return [...plane.querySelectorAll("g.cell")];
    },
    keyOf: (node) => node.dataset.cell || node.dataset.point || `dir:${node.dataset.direction}`,
    preferred: (list) =>
      list.find((node) => node.dataset.cell === cell) ||
      list.find((node) => node.matches("g.dir")) ||
      list.find((node) => node.dataset.point === commandSrc) ||
      list.find((node) => node.classList.contains("actionable")),
    onEscape: () => interactive && stage !== "idle" && undoStep(),
  });

  tools.querySelector("#show-dead").addEventListener("change", (e) => {
    showDead = e.target.checked;
    draw();
  });
  tools.querySelector("#flat-view").addEventListener("click", () => {
    flat = !flat;
    localStorage.setItem("dd-flat", flat ? "1" : "0");
    layout();
    draw();
  });
  zoomOut.addEventListener("click", () => {
    zoom = null;
    layout();
    draw();
  });

  let angle = 0; // the board's rotation, undone for text so numbers stay upright
  const upright = (x, y) => `rotate(${-angle} ${x} ${y})`;

  // a point of the plane, in the <svg>'s coordinates (after the rotation)
  function toView(x, y) {
    const a = (angle * Math.PI) / 180;
    const [dx, dy] = [x - (n * U) / 2, y - (n * U) / 2];
    return [dx * Math.cos(a) - dy * Math.sin(a), dx * Math.sin(a) + dy * Math.cos(a)];
  }

  // half the width of the whole view, in board units
  const fullHalf = () => (flat ? (n * U) / 2 + 36 : (n * U * Math.SQRT2) / 2 + 36);

  // On a phone the cells of the whole board are under 44 px: a tap there zooms into that part
  // (and, on a cell, chooses it too: the choice is confirmed in the large view, where every
  // cell, direction and point is a target of 44 px or more). Not on a desktop.
  function zoomable() {
    const width = svg.getBoundingClientRect().width;
    return interactive && coarse() && width > 0 && (width * U) / (2 * fullHalf()) < 44;
  }

  // half the width shown when zoomed: cells of 52 px
  const zoomHalf = () => (svg.getBoundingClientRect().width * U) / (2 * 52);

  function layout() {
    const size = n * U;
    bottomSide = flipped() ? (natural === "rebels" ? "imperium" : "rebels") : natural;
    angle = flat ? (bottomSide === "rebels" ? 0 : 180) : bottomSide === "rebels" ? -45 : 135;
    const half = fullHalf();
    if (zoom && !zoomable()) zoom = null;
    if (zoom) {
      const zh = zoomHalf();
      const limit = Math.max(0, half + 40 - zh); // the direction ring may stand off the board
      const cx = Math.max(-limit, Math.min(limit, zoom.x));
      const cy = Math.max(-limit, Math.min(limit, zoom.y));
      svg.setAttribute("viewBox", `${cx - zh} ${cy - zh} ${2 * zh} ${2 * zh}`);
    } else {
      svg.setAttribute("viewBox", `${-half} ${-half} ${2 * half} ${2 * half}`);
    }
    svg.dataset.zoom = zoom ? "in" : "out";
    zoomOut.hidden = !zoom;
    rotor.setAttribute("transform", `rotate(${angle})`);
    plane.setAttribute("transform", `translate(${-size / 2} ${-size / 2})`);
    svg.dataset.view = flat ? "flat" : "diamond";
    svg.dataset.flipped = flipped() ? "1" : "0";
    svg.dataset.bottom = bottomSide;
    tools.querySelector("#flat-view").textContent = flat ? t("dd.diamond") : t("dd.flat");
  }

  // Where the zoomed view looks for the stage of the turn: the chosen cell and its ring of
  // directions; the Command moves (all of them if they fit, else those of one Command).
  function followStage() {
    if (!zoom) return;
    if (stage === "direction" && cell) {
      const [i, j] = cellXY(cell);
      const [x, y] = px(i, j + 1);
      [zoom.x, zoom.y] = toView(x + U / 2, y + U / 2);
    } else if (stage === "command" && view && view.command_moves.length) {
      const moves = view.command_moves.filter((m) => !commandSrc || m.src === commandSrc);
      const spots = moves.flatMap((m) => [m.src, m.dst]).map((p) => toView(...px(...pointXY(p))));
      const xs = spots.map((p) => p[0]);
      const ys = spots.map((p) => p[1]);
      const room = 2 * zoomHalf() - 2 * U;
      if (Math.max(...xs) - Math.min(...xs) <= room && Math.max(...ys) - Math.min(...ys) <= room) {
        [zoom.x, zoom.y] = [(Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2];
      } else {
        // the Command nearest the cell just played
        const [i, j] = cellXY(cell || "a1");
        const [cx, cy] = toView(...px(i + 0.5, j + 0.5));
        const near = [...new Set(moves.map((m) => m.src))]
          .map((p) => toView(...px(...pointXY(p))))
          .sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy))[0];
        [zoom.x, zoom.y] = near;
      }
    }
    layout();
  }

  // a tap on the whole board of a phone zooms in where it landed; in the Command stage it
  // does only that (points are too small to aim at before)
  svg.addEventListener(
    "click",
    (event) => {
      if (zoom || !zoomable()) return;
      const { x, y } = toLocal(svg, event.clientX, event.clientY);
      zoom = { x, y };
      layout();
      if (stage === "command" || stage === "ready") {
        event.stopPropagation();
        followStage();
        draw();
      }
    },
    true,
  );

  function actionsFor(name) {
    return actions.filter((a) => a.startsWith(name) && /[>@]/.test(a[name.length]));
  }

  function reset() {
    stage = "idle";
    cell = kind = view = commandSrc = command = null;
    onTurn({ canFinish: false, canUndo: false, hidden: !interactive, labels: labels() });
  }

  function labels() {
    return { done: t("dd.end_turn"), undo: t("dd.undo_step") };
  }

  async function chooseAction(text) {
    const reply = await ask({ type: "partial", action: text });
    if (reply.type === "error") {
      say(reply.message, true);
      reset();
      draw();
      return;
    }
    view = reply;
    stage = view.outcome ? "ready" : "command";
    say(view.captured.length ? t("dd.captures", { cells: view.captured.join(", ") }) : "");
    onTurn({ canFinish: true, canUndo: true, labels: labels() });
    followStage();
    draw();
  }

  function clickCell(name) {
    if (!interactive) return;
    if (stage === "command" || stage === "ready") return;
    const mine = actionsFor(name);
    if (!mine.length) {
      const dead = snap && snap.extra.dead_zones.includes(name);
      say(dead ? t("dd.dead", { cell: name }) : t("dd.no_action", { cell: name }), dead);
      reset();
      draw();
      return;
    }
    cell = name;
    kind = mine[0][name.length];
    stage = "direction";
    say(t(kind === ">" ? "dd.pick_direction" : "dd.pick_rotation"));
    onTurn({ canFinish: false, canUndo: true, labels: labels() });
    followStage();
    draw();
    // a screen reader hears the cell (or the counter turned there) and its directions
    const n = new Set(mine.map((a) => a.slice(name.length + 1))).size;
    const counter = kind === "@" && pos ? pos.counters[name] : null;
    announce(counter ? t("board.chosen.counter", { side: counter.side, cell: name, n }) : t("board.chosen.cell", { cell: name, n }));
  }

  function clickDirection(dir) {
    if (stage !== "direction") return;
    const text = `${cell}${kind}${dir}`;
    if (!actions.includes(text)) return;
    chooseAction(text);
  }

  function clickPoint(name) {
    if (!interactive || stage !== "command" || !view) return;
    const moves = view.command_moves;
    const fromHere = moves.filter((m) => m.src === name);
    const toHere = moves.filter((m) => m.dst === name && (!commandSrc || m.src === commandSrc));
    if (toHere.length === 1) {
      command = toHere[0];
      stage = "ready";
      say(command.captures.length ? t("dd.command_captures", { cells: command.captures.join(", ") }) : t("dd.ready"));
      draw();
      return;
    }
    if (fromHere.length) {
      commandSrc = commandSrc === name ? null : name;
      followStage();
      draw();
      const n = new Set(fromHere.map((m) => m.dst)).size;
      announce(commandSrc ? t("board.chosen.command", { point: name, n }) : t("board.unchosen"));
    }
  }

  function undoStep() {
    if (stage === "ready" && command) {
      command = null;
      stage = "command";
    } else if (stage === "command" || stage === "ready" || stage === "direction") {
      const back = cell;
      reset();
      nav.moveTo(back); // the keyboard goes back to the cell it came from
    }
    say("");
    onTurn({ canFinish: stage === "command" || stage === "ready", canUndo: stage !== "idle", labels: labels() });
    draw();
  }

  function finish() {
    if (!view) return;
    played = command ? `${view.action};${command.move}` : view.action;
    onMove(played);
  }

  function draw() {
    const hadFocus = nav.hasFocus();
    plane.innerHTML = "";
    svg.dataset.stage = stage;
    if (!pos) return;
    const size = n * U;
    const h = n / 2;
    const big = Boolean(zoom); // zoomed on a phone: larger rings and points
    const dead = new Set(showDead && snap ? snap.extra.dead_zones : []);
    const captured = new Set([...(view ? view.captured : []), ...(command ? command.captures : [])]);
    // legal Command destinations, each with the cells a move there would capture
    const targets = new Map();
    if (stage === "command" && view) {
      for (const m of view.command_moves) {
        if (commandSrc && m.src !== commandSrc) continue;
        const gains = targets.get(m.dst) || new Set();
        for (const c of m.captures) gains.add(c);
        targets.set(m.dst, gains);
      }
    }
    const movers = new Set(stage === "command" && view ? view.command_moves.map((m) => m.src) : []);
    const controlled = new Set((snap ? snap.extra.controlled : []).flat());
    const placeable = new Set(actions.filter((a) => a.includes(">")).map((a) => a.split(">")[0]));
    const rotatable = new Set(actions.filter((a) => a.includes("@")).map((a) => a.split("@")[0]));
    const showLast = last && stage === "idle";
    // cells
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const name = cellName(i, j);
        const [x, y] = px(i, j + 1);
        const g = el("g", { class: "cell", "data-cell": name, tabindex: "-1", role: "button" }, plane);
        const sector = (i >= h ? 1 : 0) + (j >= h ? 2 : 0);
        el("rect", { x, y, width: U, height: U, class: `sq s${sector} hit` }, g);
        if (showLast && last.cell === name) el("rect", { x: x + 2, y: y + 2, width: U - 4, height: U - 4, class: "last-cell" }, g);
        if (dead.has(name)) el("rect", { x: x + 3, y: y + 3, width: U - 6, height: U - 6, class: "dead" }, g);
        if (name === cell) el("rect", { x: x + 2, y: y + 2, width: U - 4, height: U - 4, class: "chosen" }, g);
        const c = pos.counters[name];
        const shown = name === cell && stage !== "direction" && view ? actionDirection(view.action) : null;
        if (c || shown) drawCounter(g, x + U / 2, y + U / 2, shown ? pos.side === "i" ? "imperium" : "rebels" : c.side, shown || c.dir);
        if (captured.has(name)) {
          el("path", { d: `M${x + 8},${y + 8} L${x + U - 8},${y + U - 8} M${x + U - 8},${y + 8} L${x + 8},${y + U - 8}`, class: "captured" }, g);
        }
        const lost = showLast && last.captured.has(name);
        if (lost) {
          // a counter the last turn took: its outline stays, crossed out
          el("rect", { x: x + 6, y: y + 6, width: U - 12, height: U - 12, rx: 4, class: "last-captured" }, g);
          el("path", { d: `M${x + 11},${y + 11} L${x + U - 11},${y + U - 11} M${x + U - 11},${y + 11} L${x + 11},${y + U - 11}`, class: "last-captured" }, g);
        }
        const actionable = interactive && stage === "idle" && (placeable.has(name) || rotatable.has(name));
        g.classList.toggle("actionable", actionable);
        const words = [c ? `${name}${t("punct.colon")}${t(`side.${c.side}`)} ${c.dir}` : name];
        if (dead.has(name)) words.push(t("dd.dead_short"));
        if (actionable) words.push(t("dd.can_play"));
        if (name === cell) words.push(t("dd.chosen"));
        if (showLast && last.cell === name) words.push(t("board.last_to"));
        if (lost) words.push(t("board.captured"));
        g.setAttribute("aria-label", words.join(", "));
        g.addEventListener("click", () => clickCell(name));
        g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickCell(name)));
      }
    }
    // grid and sector borders
    for (let k = 0; k <= n; k++) {
      const cls = k === h ? "border" : k === 0 || k === n ? "edge" : "grid";
      el("line", { x1: k * U, y1: 0, x2: k * U, y2: size, class: cls }, plane);
      el("line", { x1: 0, y1: k * U, x2: size, y2: k * U, class: cls }, plane);
    }
    // coordinates on every edge, upright however the board is turned: typed moves need them
    for (let k = 0; k < n; k++) {
      for (const [x, y, text] of [
        [k + 0.5, -0.45, FILES[k]], [k + 0.5, n + 0.45, FILES[k]],
        [-0.45, k + 0.5, String(k + 1)], [n + 0.45, k + 0.5, String(k + 1)],
      ]) {
        const [cx, cy] = px(x, y);
        el("text", { x: cx, y: cy, class: "coord", "text-anchor": "middle", "dominant-baseline": "central",
                     transform: upright(cx, cy), "aria-hidden": "true" }, plane, text);  // prettier-ignore
      }
    }
    // the last turn's Command move: its origin tinted, an arrow to where it went
    if (showLast && last.src) {
      const [x1, y1] = px(...pointXY(last.src));
      const [x2, y2] = px(...pointXY(last.dst));
      el("circle", { cx: x1, cy: y1, r: 13, class: "last-from" }, plane);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      el("line", { x1, y1, x2: x2 - ((x2 - x1) / len) * 14, y2: y2 - ((y2 - y1) / len) * 14, class: "last-arrow", "marker-end": arrow }, plane);
    }
    // points: key points, Commands, targets
    const cmds = pos.commands;
    for (let x = 0; x <= n; x++) {
      for (let y = 0; y <= n; y++) {
        const name = `P${x}.${y}`;
        const here = cmds.filter((c) => c.x === x && c.y === y);
        const key = x >= 1 && x <= n - 1 && y >= 1 && y <= n - 1 && x !== h && y !== h;
        if (!here.length && !targets.has(name) && !key) continue;
        const [cx, cy] = px(x, y);
        const choosable = targets.has(name) || movers.has(name);
        const g = el("g", { class: "pnt", "data-point": name, role: "button", tabindex: "-1" }, plane);
        if (here.length || targets.has(name)) g.dataset.focusable = "1";
        // in the Command stage the points are the targets: large enough for a finger
        el("circle", { cx, cy, r: stage === "command" ? (big ? 18 : 16) : 11, class: "hit" }, g);
        if (key) el("circle", { cx, cy, r: controlled.has(name) ? 6 : 3.5, class: controlled.has(name) ? "key held" : "key" }, g);
        const gains = targets.get(name);
        if (gains) el("circle", { cx, cy, r: big ? 16 : 12, class: "target" }, g);
        for (const [k, c] of here.entries()) {
          if (c.side === "rebels") el("circle", { cx, cy, r: 10, class: "command rebels" }, g);
          else el("rect", { x: cx - 9 + k * 4, y: cy - 9 - k * 4, width: 18, height: 18, rx: 3, class: "command imperium" }, g);
        }
        if (commandSrc === name) el("circle", { cx, cy, r: 14, class: "src" }, g);
        if (gains && gains.size) {
          // a badge with the number of counters this Command move would capture
          const b = el("g", { class: "gain", "data-captures": String(gains.size) }, g);
          el("circle", { cx: cx + 11, cy: cy - 11, r: 8 }, b);
          el("text", { x: cx + 11, y: cy - 11, "text-anchor": "middle", "dominant-baseline": "central", transform: upright(cx + 11, cy - 11) }, b, String(gains.size));
        }
        const words = [here.length ? `${name}${t("punct.colon")}${here.map((c) => t(`dd.cmd.${c.side}`)).join(", ")}` : key ? `${name}${t("punct.colon")}${t("dd.key_point")}` : name];
        if (gains) words.push(t("board.target"));
        if (gains && gains.size) words.push(t("dd.command_captures", { cells: [...gains].join(", ") }));
        if (movers.has(name) && !gains) words.push(t("board.can_move"));
        if (showLast && last.src === name) words.push(t("board.last_from"));
        if (showLast && last.dst === name) words.push(t("board.last_to"));
        g.setAttribute("aria-label", words.join(", "));
        g.classList.toggle("choosable", choosable);
        g.addEventListener("click", (e) => {
          e.stopPropagation();
          clickPoint(name);
        });
        g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickPoint(name)));
      }
    }
    // the chosen Command move, shown before the turn ends
    if (command) {
      const [x1, y1] = px(...pointXY(command.src));
      const [x2, y2] = px(...pointXY(command.dst));
      el("line", { x1, y1, x2, y2, class: "command-path" }, plane);
      const rebel = pos.side === "r";
      if (rebel) el("circle", { cx: x2, cy: y2, r: 10, class: "command rebels ghost" }, plane);
      else el("rect", { x: x2 - 9, y: y2 - 9, width: 18, height: 18, rx: 3, class: "command imperium ghost" }, plane);
    }
    // the direction picker around the chosen cell (wider, with larger buttons, when zoomed)
    if (stage === "direction" && cell) {
      const [i, j] = cellXY(cell);
      const [x, y] = px(i, j + 1);
      const current = kind === "@" ? pos.counters[cell].dir : null;
      // zoomed, the ring stands off far enough to leave the near half of each neighbour free
      const reach = big ? 1.5 : 0.75;
      const r = big ? 20 : 12;
      for (const d of DIRS) {
        if (!actions.includes(`${cell}${kind}${d}`)) continue;
        const [dx, dy] = VEC[d];
        const cx = x + U / 2 + dx * U * reach;
        const cy = y + U / 2 - dy * U * reach;
        const g = el("g", { class: "dir", "data-direction": d, role: "button", tabindex: "-1" }, plane);
        g.setAttribute("aria-label", `${t("dd.face")} ${d}`);
        el("circle", { cx, cy, r, class: current === d ? "dir-button current hit" : "dir-button hit" }, g);
        // an arrow with its head, so that the way it points reads at a glance
        const k = r / 12;
        const len = Math.hypot(dx, dy);
        const [ux, uy] = [dx / len, -dy / len];
        el("line", { x1: cx - ux * 7 * k, y1: cy - uy * 7 * k, x2: cx + ux * 3 * k, y2: cy + uy * 3 * k, class: "dir-arrow" }, g);
        const [tx, ty] = [cx + ux * 9 * k, cy + uy * 9 * k];
        const [bx, by] = [cx + ux * 2 * k, cy + uy * 2 * k];
        el("polygon", { points: `${tx},${ty} ${bx - uy * 5 * k},${by + ux * 5 * k} ${bx + uy * 5 * k},${by - ux * 5 * k}`, class: "dir-head" }, g);
        g.addEventListener("click", (e) => {
          e.stopPropagation();
          clickDirection(d);
        });
        g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickDirection(d)));
      }
    }
    drawHints();
    nav.sync(hadFocus);
  }

  // The engine's best turns (the "Best moves" switch), drawn lightly over the plane: the
  // action's cell outlined with the way its counter will face, the Command move's arrow, each
  // numbered by the turn's rank (turns that share a cell put their numbers round it). Only
  // while no turn is being built, on the position they were asked for.
  function drawHints() {
    const layer = el("g", { class: "hint-marks", "aria-hidden": "true" }, plane);
    const shown = stage === "idle" && hints.position === svg.dataset.shownPosition ? hints.moves : [];
    const turns = shown.map((text) => /^([a-z]\d+)[>@]([NSEW]{1,2})(?:;(P\d+\.\d+)-(P\d+\.\d+))?$/.exec(text));
    clearHints(layer, turns.filter(Boolean).length);
    const corners = [[-0.28, -0.28], [0.28, -0.28], [-0.28, 0.28]];
    turns.forEach((m, i) => {
      if (!m) return;
      const rank = i + 1;
      const [, name, dir, src, dst] = m;
      const [ci, cj] = cellXY(name);
      const [x, y] = px(ci, cj + 1);
      const [cx, cy] = [x + U / 2, y + U / 2];
      el("rect", { x: x + 3, y: y + 3, width: U - 6, height: U - 6, rx: 4, class: `hint-cell hint-${rank}` }, layer);
      const [dx, dy] = VEC[dir];
      const len = Math.hypot(dx, dy);
      hintLine(layer, `M${cx},${cy} L${cx + (dx / len) * U * 0.32},${cy - (dy / len) * U * 0.32}`, rank, hints.arrow);
      const [ox, oy] = corners[i % corners.length];
      const [bx, by] = [cx + ox * U, cy + oy * U];
      hintBadge(layer, bx, by, rank, { transform: upright(bx, by), small: true });
      if (!src) return;
      const [x1, y1] = px(...pointXY(src));
      const [x2, y2] = px(...pointXY(dst));
      const d = Math.hypot(x2 - x1, y2 - y1) || 1;
      // the Command moves of one cell part a little to each side, and stop short of the point
      const [nx, ny] = [(-(y2 - y1) / d) * (rank - 2) * 5, ((x2 - x1) / d) * (rank - 2) * 5];
      const [ex, ey] = [x2 - ((x2 - x1) / d) * 10 + nx, y2 - ((y2 - y1) / d) * 10 + ny];
      hintLine(layer, `M${x1 + nx},${y1 + ny} L${ex},${ey}`, rank, hints.arrow);
      const [sx, sy] = besideLine(x1 + nx, y1 + ny, ex, ey, 0.5, 9);
      hintBadge(layer, sx, sy, rank, { transform: upright(sx, sy), small: true });
    });
  }

  function actionDirection(text) {
    return text.split(/[>@]/)[1];
  }


  // the last turn, read from its notation and the positions around it
  function readLast(found) {
    last = null;
    before = null;
    if (!found) return;
    const [action, move] = found.entry.text.split(";");
    const m = /^([a-z]\d+)[>@]/.exec(action);
    before = parsePosition(positionBefore(snap, found.index));
    const after = parsePosition(found.entry.position);
    const captured = new Set(Object.keys(before.counters).filter((c) => !after.counters[c]));
    const [src, dst] = move ? move.split("-") : [null, null];
    last = { cell: m ? m[1] : null, src, dst, captured, entry: found.entry };
  }

  // A turn that has just arrived: the counter comes down on its cell (or turns to its new
  // direction), the Command slides along its step, the counters taken fade away.
  function animate() {
    if (!last) return;
    let any = false;
    const g = last.cell && plane.querySelector(`g.cell[data-cell="${last.cell}"] .counter`);
    if (g) {
      const [i, j] = cellXY(last.cell);
      const [x, y] = px(i, j + 1);
      const [cx, cy] = [x + U / 2, y + U / 2];
      const was = before.counters[last.cell];
      const turnFrom = was ? (Math.atan2(-VEC[was.dir][1], VEC[was.dir][0]) * 180) / Math.PI : null;
      const turnTo = was ? (Math.atan2(-VEC[g.dataset.direction][1], VEC[g.dataset.direction][0]) * 180) / Math.PI : null;
      const around = (op) => `translate(${cx}px, ${cy}px) ${op} translate(${-cx}px, ${-cy}px)`;
      const frames = was
        ? [{ transform: around(`rotate(${(((turnFrom - turnTo + 540) % 360) - 180)}deg)`) }, { transform: around("rotate(0deg)") }]
        : [{ transform: around("scale(1.8)"), opacity: 0 }, { transform: around("scale(1)"), opacity: 1 }];
      any = play(g, frames, { duration: 360 }) || any;
    }
    if (last.src) {
      const node = [...plane.querySelectorAll(`g.pnt[data-point="${last.dst}"] .command`)].pop();
      const [x1, y1] = px(...pointXY(last.src));
      const [x2, y2] = px(...pointXY(last.dst));
      any = slide(node, x1 - x2, y1 - y2, { delay: g ? 300 : 0, duration: 360 }) || any;
    }
    for (const name of last.captured) {
      const c = before.counters[name];
      const [i, j] = cellXY(name);
      const [x, y] = px(i, j + 1);
      const ghost = el("g", { class: "leaving" }, plane);
      drawCounter(ghost, x + U / 2, y + U / 2, c.side, c.dir);
      if (play(ghost, [{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0 }], { duration: 1100, fill: "forwards" })) {
        setTimeout(() => ghost.remove(), 1200);
      } else ghost.remove();
    }
    if (any) svg.dataset.animations = String(Number(svg.dataset.animations || 0) + 1);
  }

  return {
    update({ position, livePosition, legal, last: shownLast, snap: s, mySides }) {
      snap = s;
      pos = parsePosition(position);
      n = pos.n;
      live = livePosition;
      svg.dataset.position = livePosition;
      svg.dataset.shownPosition = position;
      natural = mySides.length === 1 ? mySides[0] : "rebels";
      const wasLive = interactive;
      const moved = s.ply !== lastPly;
      lastPly = s.ply;
      actions = legal;
      interactive = legal.length > 0 && position === livePosition;
      const fresh = newMove(seen, s, position === livePosition);
      readLast(lastMoveOf(s, shownLast));
      if (!interactive || !wasLive || moved || stage === "idle") reset();
      else onTurn({ canFinish: Boolean(view), canUndo: true, labels: labels() });
      if (moved) {
        zoom = null; // a new turn is seen whole first
        nav.restart();
      }
      svg.classList.toggle("interactive", interactive);
      layout();
      draw();
      // (the page redraws while the turn is on its way: it is forgotten once it is back)
      if (fresh) {
        if (fresh.entry.text !== played) animate();
        played = null;
      }
    },
    undoStep,
    finish,
    get live() {
      return live;
    },
  };
}

// The four sectors as players name them, in the order the server lists them (sector (i, j) is
// number i + 2j): by the compass of the notation (N is up the ranks, E along the files).
const SECTORS = ["dd.sector.sw", "dd.sector.se", "dd.sector.nw", "dd.sector.ne"];

// A small picture for the legend: an <svg> of one cell or point, drawn as the board draws it.
function icon(draw) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: "28", height: "28", class: "dd-icon", "aria-hidden": "true" });
  draw(svg);
  return svg;
}

// What the board's marks mean: the counters, the Commands, key points (held or not), dead zones.
export function legend(t) {
  const items = [
    [icon((s) => drawCounter(s, 20, 20, "rebels", "NE")), t("dd.legend.rebel")],
    [icon((s) => drawCounter(s, 20, 20, "imperium", "S")), t("dd.legend.imperial")],
    [icon((s) => el("circle", { cx: 20, cy: 20, r: 10, class: "command rebels" }, s)), t("dd.legend.rebel_command")],
    [icon((s) => el("rect", { x: 11, y: 11, width: 18, height: 18, rx: 3, class: "command imperium" }, s)), t("dd.legend.imperial_command")],
    [icon((s) => el("circle", { cx: 20, cy: 20, r: 4, class: "key" }, s)), t("dd.legend.key")],
    [icon((s) => el("circle", { cx: 20, cy: 20, r: 7, class: "key held" }, s)), t("dd.legend.held")],
    [icon((s) => el("rect", { x: 4, y: 4, width: 32, height: 32, class: "dead" }, s)), t("dd.legend.dead")],
  ];
  return h("details", { className: "dd-legend", id: "dd-legend" },
    h("summary", {}, t("dd.legend")),
    h("ul", {}, ...items.map(([pic, words]) => h("li", {}, pic, ` ${words}`))));  // prettier-ignore
}

export function describe(snap, position, t) {
  const pos = parsePosition(position);
  const held = snap.extra.controlled.map((ps, i) =>
    h("li", { className: ps.length ? "held" : "", data: { sector: String(i) } },
      `${t(SECTORS[i])}${t("punct.colon")}${ps.length ? ps.join(" ") : "—"}`));  // prettier-ignore
  const count = snap.extra.controlled.filter((ps) => ps.length).length;
  return [
    h("p", { className: "pools" }, `${t("dd.pools")}${t("punct.colon")}${t("side.rebels")} `,
      h("strong", { data: { pool: "rebels" } }, String(pos.pools.rebels)), ` · ${t("side.imperium")} `,
      h("strong", { data: { pool: "imperium" } }, String(pos.pools.imperium))),  // prettier-ignore
    h("p", { className: "progress", data: { sectors: String(count) } }, t("dd.progress", { n: count })),
    h("ul", { className: "sectors" }, held),
    legend(t),
  ];
}
