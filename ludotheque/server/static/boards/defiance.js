// Defiance and Domain in SVG: a diamond seen from the player's corner (the Rebels' corner
// P0.0 at the bottom, or the Imperium's P{N}.{N} for its player), or a flat square. A turn is
// built in parts: an action (a cell, then a direction), then perhaps a Command move; the server
// says which actions are legal and what each does (captures, Command moves), the page shows it.
//
// Test hooks: the <svg> has data-position; cells are <g data-cell="e5">, points
// <g data-point="P2.2">, direction buttons <g data-direction="NE">.
import { el, h } from "./svg.js";

const U = 40; // a cell
const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const VEC = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const FILES = "abcdefghijklmnopqrstuvwxyz";

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

export function createBoard(holder, { t, onMove, say, ask, onTurn }) {
  const tools = document.createElement("div");
  tools.className = "board-tools";
  tools.append(
    h("label", {}, h("input", { type: "checkbox", id: "show-dead" }), ` ${t("dd.show_dead")}`),
    " ",
    h("button", { type: "button", id: "flat-view" }, t("dd.flat")),
  );
  holder.append(tools);
  const svg = el("svg", { class: "board defiance", role: "group" });
  svg.setAttribute("aria-label", t("game.defiance"));
  holder.append(svg);
  const rotor = el("g", {}, svg);
  const plane = el("g", {}, rotor);
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
  let bottomSide = "rebels";
  let lastPly = -1;

  const cellXY = (name) => [FILES.indexOf(name[0]), Number(name.slice(1)) - 1];
  const cellName = (i, j) => `${FILES[i]}${j + 1}`;
  const px = (x, y) => [x * U, (n - y) * U]; // a point, in plane coordinates

  tools.querySelector("#show-dead").addEventListener("change", (e) => {
    showDead = e.target.checked;
    draw();
  });
  tools.querySelector("#flat-view").addEventListener("click", () => {
    flat = !flat;
    localStorage.setItem("dd-flat", flat ? "1" : "0");
    layout();
  });

  let angle = 0; // the board's rotation, undone for text so numbers stay upright
  const upright = (x, y) => `rotate(${-angle} ${x} ${y})`;

  function layout() {
    const size = n * U;
    angle = flat ? (bottomSide === "rebels" ? 0 : 180) : bottomSide === "rebels" ? -45 : 135;
    const half = flat ? size / 2 + 36 : (size * Math.SQRT2) / 2 + 36;
    svg.setAttribute("viewBox", `${-half} ${-half} ${2 * half} ${2 * half}`);
    rotor.setAttribute("transform", `rotate(${angle})`);
    plane.setAttribute("transform", `translate(${-size / 2} ${-size / 2})`);
    svg.dataset.view = flat ? "flat" : "diamond";
    tools.querySelector("#flat-view").textContent = flat ? t("dd.diamond") : t("dd.flat");
  }

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
    draw();
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
      draw();
    }
  }

  function undoStep() {
    if (stage === "ready" && command) {
      command = null;
      stage = "command";
    } else if (stage === "command" || stage === "ready" || stage === "direction") {
      reset();
    }
    say("");
    onTurn({ canFinish: stage === "command" || stage === "ready", canUndo: stage !== "idle", labels: labels() });
    draw();
  }

  function finish() {
    if (!view) return;
    onMove(command ? `${view.action};${command.move}` : view.action);
  }

  function draw() {
    plane.innerHTML = "";
    if (!pos) return;
    const size = n * U;
    const h = n / 2;
    const dead = new Set(showDead && snap ? snap.extra.dead_zones : []);
    const captured = new Set([...(view ? view.captured : []), ...(command ? command.captures : [])]);
    // legal Command destinations, each with the cells a move there would capture
    const targets = new Map();
    if (stage === "command" && view) {
      for (const m of view.command_moves) {
        if (commandSrc && m.src !== commandSrc) continue;
        const seen = targets.get(m.dst) || new Set();
        for (const c of m.captures) seen.add(c);
        targets.set(m.dst, seen);
      }
    }
    const controlled = new Set((snap ? snap.extra.controlled : []).flat());
    const placeable = new Set(actions.filter((a) => a.includes(">")).map((a) => a.split(">")[0]));
    const rotatable = new Set(actions.filter((a) => a.includes("@")).map((a) => a.split("@")[0]));
    // cells
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const name = cellName(i, j);
        const [x, y] = px(i, j + 1);
        const g = el("g", { class: "cell", "data-cell": name, tabindex: "0", role: "button" }, plane);
        const sector = (i >= h ? 1 : 0) + (j >= h ? 2 : 0);
        el("rect", { x, y, width: U, height: U, class: `sq s${sector}` }, g);
        if (dead.has(name)) el("rect", { x: x + 3, y: y + 3, width: U - 6, height: U - 6, class: "dead" }, g);
        if (name === cell) el("rect", { x: x + 2, y: y + 2, width: U - 4, height: U - 4, class: "chosen" }, g);
        const c = pos.counters[name];
        const shown = name === cell && stage !== "direction" && view ? actionDirection(view.action) : null;
        if (c || shown) drawCounter(g, x + U / 2, y + U / 2, shown ? pos.side === "i" ? "imperium" : "rebels" : c.side, shown || c.dir);
        if (captured.has(name)) {
          el("path", { d: `M${x + 8},${y + 8} L${x + U - 8},${y + U - 8} M${x + U - 8},${y + 8} L${x + 8},${y + U - 8}`, class: "captured" }, g);
        }
        g.classList.toggle("actionable", interactive && stage === "idle" && (placeable.has(name) || rotatable.has(name)));
        const label = c ? `${name}: ${t(`side.${c.side}`)} ${c.dir}` : name;
        g.setAttribute("aria-label", label + (dead.has(name) ? ` (${t("dd.dead_short")})` : ""));
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
    // points: key points, Commands, targets
    const cmds = pos.commands;
    for (let x = 0; x <= n; x++) {
      for (let y = 0; y <= n; y++) {
        const name = `P${x}.${y}`;
        const here = cmds.filter((c) => c.x === x && c.y === y);
        const key = x >= 1 && x <= n - 1 && y >= 1 && y <= n - 1 && x !== h && y !== h;
        if (!here.length && !targets.has(name) && !key) continue;
        const [cx, cy] = px(x, y);
        const g = el("g", { class: "pnt", "data-point": name, role: "button", tabindex: here.length || targets.has(name) ? "0" : "-1" }, plane);
        el("circle", { cx, cy, r: 11, class: "hit" }, g);
        if (key) el("circle", { cx, cy, r: controlled.has(name) ? 6 : 3.5, class: controlled.has(name) ? "key held" : "key" }, g);
        const gains = targets.get(name);
        if (gains) el("circle", { cx, cy, r: 12, class: "target" }, g);
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
        let label = here.length ? `${name}: ${here.map((c) => t(`dd.cmd.${c.side}`)).join(", ")}` : name;
        if (gains && gains.size) label += ` (${t("dd.command_captures", { cells: [...gains].join(", ") })})`;
        g.setAttribute("aria-label", label);
        g.addEventListener("click", (e) => {
          e.stopPropagation();
          clickPoint(name);
        });
        g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickPoint(name)));
      }
    }
    // the chosen Command move, shown before the turn ends
    if (command) {
      const [sx, sy] = command.src.slice(1).split(".").map(Number);
      const [dx, dy] = command.dst.slice(1).split(".").map(Number);
      const [x1, y1] = px(sx, sy);
      const [x2, y2] = px(dx, dy);
      el("line", { x1, y1, x2, y2, class: "command-path" }, plane);
      const rebel = pos.side === "r";
      if (rebel) el("circle", { cx: x2, cy: y2, r: 10, class: "command rebels ghost" }, plane);
      else el("rect", { x: x2 - 9, y: y2 - 9, width: 18, height: 18, rx: 3, class: "command imperium ghost" }, plane);
    }
    // the direction picker around the chosen cell
    if (stage === "direction" && cell) {
      const [i, j] = cellXY(cell);
      const [x, y] = px(i, j + 1);
      const current = kind === "@" ? pos.counters[cell].dir : null;
      for (const d of DIRS) {
        if (!actions.includes(`${cell}${kind}${d}`)) continue;
        const [dx, dy] = VEC[d];
        const cx = x + U / 2 + dx * U * 0.75;
        const cy = y + U / 2 - dy * U * 0.75;
        const g = el("g", { class: "dir", "data-direction": d, role: "button", tabindex: "0" }, plane);
        g.setAttribute("aria-label", `${t("dd.face")} ${d}`);
        el("circle", { cx, cy, r: 12, class: current === d ? "dir-button current" : "dir-button" }, g);
        el("line", { x1: cx - dx * 6, y1: cy + dy * 6, x2: cx + dx * 7, y2: cy - dy * 7, class: "dir-arrow" }, g);
        g.addEventListener("click", (e) => {
          e.stopPropagation();
          clickDirection(d);
        });
        g.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), clickDirection(d)));
      }
    }
  }

  function actionDirection(text) {
    return text.split(/[>@]/)[1];
  }

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

  return {
    update({ position, livePosition, legal, snap: s, mySides }) {
      snap = s;
      pos = parsePosition(position);
      n = pos.n;
      live = livePosition;
      svg.dataset.position = livePosition;
      svg.dataset.shownPosition = position;
      bottomSide = mySides.length === 1 ? mySides[0] : "rebels";
      const wasLive = interactive;
      const moved = s.ply !== lastPly;
      lastPly = s.ply;
      actions = legal;
      interactive = legal.length > 0 && position === livePosition;
      if (!interactive || !wasLive || moved || stage === "idle") reset();
      else onTurn({ canFinish: Boolean(view), canUndo: true, labels: labels() });
      svg.classList.toggle("interactive", interactive);
      layout();
      draw();
    },
    undoStep,
    finish,
    get live() {
      return live;
    },
  };
}

export function describe(snap, position, t) {
  const pos = parsePosition(position);
  const names = ["(0,0)", "(1,0)", "(0,1)", "(1,1)"];
  const held = snap.extra.controlled.map((ps, i) =>
    h("li", { className: ps.length ? "held" : "", data: { sector: String(i) } },
      `${t("dd.sector")} ${names[i]}: ${ps.length ? ps.join(" ") : "—"}`));  // prettier-ignore
  const count = snap.extra.controlled.filter((ps) => ps.length).length;
  return [
    h("p", { className: "pools" }, `${t("dd.pools")}: ${t("side.rebels")} `,
      h("strong", { data: { pool: "rebels" } }, String(pos.pools.rebels)), ` · ${t("side.imperium")} `,
      h("strong", { data: { pool: "imperium" } }, String(pos.pools.imperium))),  // prettier-ignore
    h("p", { className: "progress", data: { sectors: String(count) } }, t("dd.progress", { n: count })),
    h("ul", { className: "sectors" }, held),
  ];
}
