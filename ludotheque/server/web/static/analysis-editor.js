// The analysis board's position editor: a plain board of buttons for each game, a palette of
// the game's pieces, and the fields a position string has besides the pieces (side to move,
// dice, cube, match score, Commands, flight). A piece goes on by choosing it, then a place
// (click, tap, Enter), or by dragging it there; a piece dragged off the board is taken away.
// Every change writes the position string into the set-up form's text box and asks the
// server's parser whether it is legal (/api/analysis/position); a string typed there is read
// back into the editor once the server accepts it. The server's canonical string wins.
//
// Test hooks: targets are <button data-target="c3"> (backgammon: "1"…"24", "bar-white",
// "bar-black", "off-white", "off-black"; Defiance: cell names), tools
// <button data-tool="…" aria-pressed>; #editor-status has data-valid="yes" | "no" | "checking".
import { t } from "./i18n.js";
import { w } from "/analysis/words.js";

const $ = (id) => document.getElementById(id);

function make(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else if (key.startsWith("data") || key.startsWith("aria") || key === "for" || key === "role") node.setAttribute(key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

// a labelled select: its options are [value, text] pairs
function field(id, label, options, value, onChange) {
  const select = make("select", { id }, ...options.map(([v, text]) => make("option", { value: String(v), text: String(text) })));
  select.value = String(value);
  select.addEventListener("change", () => onChange(select.value));
  return { node: make("label", { className: "editor-field", for: id }, make("span", { text: label }), select), select };
}

function checkbox(id, label, checked, onChange) {
  const input = make("input", { id, type: "checkbox", checked });
  input.addEventListener("change", () => onChange(input.checked));
  return make("label", { className: "editor-check", for: id }, input, make("span", { text: label }));
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

// -- Le Général et les rebelles --------------------------------------------------------------

const GENERAL_ROWS = [["s4"], ["s1", "s2", "s3"], ...[5, 4, 3, 2, 1].map((r) => [..."abcde"].map((c) => `${c}${r}`))];
const GENERAL_COLUMNS = { s4: [3], s1: [2], s2: [3], s3: [4] };

// the board's lines (as static/boards/general.js draws them), drawn behind the points
const GENERAL_LINES = [
  "a1 b1 c1 d1 e1", "a2 b2 c2 d2 e2", "a3 b3 c3 d3 e3", "a4 b4 c4 d4 e4", "a5 b5 c5 d5 e5",
  "a1 a2 a3 a4 a5", "b1 b2 b3 b4 b5", "c1 c2 c3 c4 c5 s2 s4", "d1 d2 d3 d4 d5", "e1 e2 e3 e4 e5",
  "a1 b2 c3 d4 e5", "e1 d2 c3 b4 a5", "c1 b2 a3", "a3 b4 c5", "c5 d4 e3", "e3 d2 c1",
  "b5 s1 s4", "d5 s3 s4", "s1 s2 s3",
].map((line) => line.split(" "));
const SVG = "http://www.w3.org/2000/svg";

function generalLines(board) {
  const where = {};
  GENERAL_ROWS.forEach((row, r) => row.forEach((name, c) => (where[name] = [(GENERAL_COLUMNS[name] ? GENERAL_COLUMNS[name][0] : c + 1) - 0.5, r + 0.5])));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 5 7");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("class", "editor-lines");
  svg.setAttribute("aria-hidden", "true");
  for (const line of GENERAL_LINES) {
    const poly = document.createElementNS(SVG, "polyline");
    poly.setAttribute("points", line.map((p) => where[p].join(",")).join(" "));
    poly.setAttribute("vector-effect", "non-scaling-stroke");
    svg.append(poly);
  }
  board.append(svg);
}

function generalSpec(ctx) {
  let s = { general: null, rebels: new Set(), side: "r", flight: true };
  const order = GENERAL_ROWS.flat();
  return {
    tools: [["general", w("editor.piece.general")], ["rebel", w("editor.piece.rebel")]],
    layout(board) {
      generalLines(board);
      GENERAL_ROWS.forEach((row, r) => row.forEach((name, c) => {
        const col = GENERAL_COLUMNS[name] ? GENERAL_COLUMNS[name][0] : c + 1;
        ctx.target(board, name, r + 1, col, name.startsWith("s") ? "sanctuary" : "");
      }));
    },
    paint(key, button) {
      const what = s.general === key ? "general" : s.rebels.has(key) ? "rebel" : null;
      button.replaceChildren(make("span", { className: "editor-name", text: key }));
      if (what) button.append(make("span", { className: `editor-piece ${what}` }));
      const said = what === "general" ? w("editor.the_general") : what ? w("editor.a_rebel") : w("editor.empty");
      button.setAttribute("aria-label", w("editor.place", { place: key, what: said }));
      return what;
    },
    put(tool, key) {
      if (tool === "general") {
        if (s.general === key) s.general = null;
        else [s.general, s.rebels] = [key, new Set([...s.rebels].filter((p) => p !== key))];
      } else if (s.rebels.has(key)) s.rebels.delete(key);
      else {
        s.rebels.add(key);
        if (s.general === key) s.general = null;
      }
    },
    take(key) {
      if (s.general === key) s.general = null;
      s.rebels.delete(key);
    },
    count: () => w("editor.rebels", { n: s.rebels.size }),
    fields(box, changed) {
      const side = field("editor-side", w("editor.to_move"), [["r", t("side.rebels")], ["g", t("side.general")]], s.side, (v) => changed((s.side = v)));
      box.append(side.node, checkbox("editor-flight", w("editor.flight"), s.flight, (v) => changed((s.flight = v))));
    },
    build() {
      const rebels = order.filter((p) => s.rebels.has(p));
      return `${s.general || "-"} ${rebels.join(",") || "-"} ${s.side} ${s.flight ? 1 : 0}`;
    },
    load(position) {
      const p = ctx.boardModule.parsePosition(position);
      s = { general: p.general, rebels: new Set(p.rebels), side: p.side, flight: p.flight };
    },
    clear() {
      s = { ...s, general: null, rebels: new Set() };
    },
  };
}

// -- backgammon --------------------------------------------------------------------------------

const OTHER = { white: "black", black: "white" };

function backgammonSpec(ctx) {
  const cap = ctx.cap || 15;
  // counts by side in white's numbering of the points, 25 the bar; borne off is what is left
  let s = null;
  const stakesKind = /\bcube\b/.test(ctx.initial) ? (/\bmatch\b/.test(ctx.initial) ? "match" : "money") : null;
  const placeOf = (key) => (key.startsWith("bar-") ? 25 : Number(key));
  const onBoard = (side) => s[side].reduce((a, b) => a + b, 0);
  // a key's checkers: the side there and how many
  function at(key) {
    if (key.startsWith("off-")) return null;
    if (key.startsWith("bar-")) {
      const side = key.slice(4);
      return s[side][25] ? { side, n: s[side][25] } : null;
    }
    const p = Number(key);
    if (s.white[p]) return { side: "white", n: s.white[p] };
    if (s.black[p]) return { side: "black", n: s.black[p] };
    return null;
  }
  const quarter = (points) => points.map(String);
  const TOP = [quarter(range(13, 18)), "bar-black", quarter(range(19, 24)), "off-black"];
  const BOTTOM = [quarter(range(7, 12).reverse()), "bar-white", quarter(range(1, 6).reverse()), "off-white"];
  return {
    tools: [["white", w("editor.piece.white")], ["black", w("editor.piece.black")]],
    layout(board) {
      [TOP, BOTTOM].forEach((half, r) => {
        const row = make("div", { className: `editor-half ${r ? "bottom" : "top"}` });
        let col = 1;
        for (const part of half) {
          const group = make("div", { className: Array.isArray(part) ? "editor-quarter" : "editor-side-slot" });
          for (const key of Array.isArray(part) ? part : [part]) {
            const kind = key.startsWith("bar") ? "bar" : key.startsWith("off") ? "off" : "point";
            ctx.target(group, key, r + 1, col++, kind);
          }
          row.append(group);
        }
        board.append(row);
      });
    },
    paint(key, button) {
      let label;
      let what = null;
      const side = key.includes("-") ? key.split("-")[1] : null;
      if (key.startsWith("off-")) {
        const n = 15 - onBoard(side);
        label = w("editor.place", { place: w(`editor.off@${side}`), what: w(`editor.${side}s`, { n }) });
        button.replaceChildren(make("span", { className: "editor-name", text: w("editor.off_short") }), make("span", { className: `editor-piece off ${side}`, dataN: String(n) }));
      } else {
        const here = at(key);
        const place = side ? w(`editor.bar@${side}`) : w("editor.point", { p: key });
        label = w("editor.place", { place, what: here ? w(`editor.${here.side}s`, { n: here.n }) : w("editor.empty") });
        button.replaceChildren(make("span", { className: "editor-name", text: side ? w("editor.bar_short") : key }));
        if (here) {
          button.append(make("span", { className: `editor-piece checker ${here.side}`, dataN: String(here.n) }));
          what = here.side;
        }
      }
      button.setAttribute("aria-label", label);
      return what;
    },
    put(tool, key) {
      if (key.startsWith("off-")) return null; // the trays only take checkers dragged off
      if (key.startsWith("bar-") && key.slice(4) !== tool) return w("editor.one_side");
      if (onBoard(tool) >= 15) return w("editor.all_on", { side: tool });
      const here = at(key);
      if (here && here.side !== tool) return w("editor.one_side");
      if (here && placeOf(key) !== 25 && here.n >= cap) return w("editor.cap", { cap });
      s[tool][placeOf(key)] += 1;
      return null;
    },
    take(key) {
      const here = at(key);
      if (here) s[here.side][placeOf(key)] -= 1;
    },
    count: () => "",
    fields(box, changed) {
      const sides = [["w", t("side.white")], ["b", t("side.black")], ["-", w("editor.before_opening")]];
      box.append(field("editor-side", w("editor.to_move"), sides, s.side, (v) => changed((s.side = v))).node);
      const dice = [["-", w("editor.no_die")], ...range(1, 6).map((d) => [d, d])];
      const setDie = (i, v) => {
        s.dice[i] = v;
        changed();
      };
      const d1 = field("editor-die-1", w("board.die1"), dice, s.dice[0], (v) => setDie(0, v));
      const d2 = field("editor-die-2", w("board.die2"), dice, s.dice[1], (v) => setDie(1, v));
      box.append(d1.node, d2.node);
      if (!s.stakes) return;
      const k = s.stakes;
      const values = range(0, 6).map((i) => [2 ** i, 2 ** i]);
      box.append(field("editor-cube", w("editor.cube_value"), values, k.value, (v) => changed((k.value = Number(v)))).node);
      const owners = [["", w("editor.cube_middle")], ["white", t("side.white")], ["black", t("side.black")]];
      box.append(field("editor-owner", w("editor.cube_owner"), owners, k.owner || "", (v) => changed((k.owner = v || null))).node);
      if (stakesKind === "money") box.append(checkbox("editor-jacoby", w("editor.jacoby"), k.jacoby, (v) => changed((k.jacoby = v))));
      if (stakesKind !== "match") return;
      box.append(field("editor-length", w("editor.length"), range(1, 25).map((n) => [n, n]), k.length, (v) => changed((k.length = Number(v)))).node);
      for (const side of ["white", "black"]) {
        const scores = range(0, 24).map((n) => [n, n]);
        box.append(field(`editor-score-${side}`, w("editor.score", { side }), scores, k.score[side], (v) => changed((k.score[side] = Number(v)))).node);
      }
      box.append(checkbox("editor-crawford", w("editor.crawford"), k.crawford, (v) => changed((k.crawford = v))));
    },
    build() {
      const listing = (counts) => {
        const parts = [];
        if (counts[25]) parts.push(counts[25] > 1 ? `barx${counts[25]}` : "bar");
        for (let p = 24; p >= 1; p--) if (counts[p]) parts.push(counts[p] > 1 ? `${p}x${counts[p]}` : String(p));
        return parts.join(",");
      };
      // black's own numbering is the mirror of white's
      const black = s.black.map((n, p) => (p === 0 || p === 25 ? n : s.black[25 - p]));
      const dice = s.dice.includes("-") ? "-" : s.dice.join("");
      let text = `W[${listing(s.white)}] B[${listing(black)}] ${s.side} ${dice}`;
      const k = s.stakes;
      if (k) {
        text += ` cube ${k.value}${k.owner ? k.owner[0] : ""}`;
        if (k.pending === "resign") text += ` resign ${k.offer}`;
        else if (k.pending) text += ` ${k.pending}`;
        if (k.jacoby) text += " jacoby";
        if (k.length) text += ` match ${k.length} ${k.score.white}-${k.score.black}${k.crawford ? " crawford" : ""}`;
      }
      return text;
    },
    load(position) {
      const p = ctx.boardModule.parsePosition(position);
      const mirror = (counts) => counts.map((n, i) => (i === 0 || i === 25 ? n : counts[25 - i]));
      const stakes = p.stakes ? { ...p.stakes, score: p.stakes.score || { white: 0, black: 0 } } : null;
      if (stakes && !stakes.length && stakesKind === "match") stakes.length = 1;
      s = { white: p.white.slice(), black: mirror(p.black), side: p.side, dice: p.dice === "-" ? ["-", "-"] : [...p.dice], stakes };
      s.white[0] = 0;
      s.black[0] = 0;
    },
    clear() {
      s.white = new Array(26).fill(0);
      s.black = new Array(26).fill(0);
      s.side = "-";
      s.dice = ["-", "-"];
    },
  };
}

// -- Defiance and Domain ---------------------------------------------------------------------

const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const FILES = "abcdefghijklmnopqrstuvwxyz";
const SIDE_OF = { rebels: "R", imperium: "I" };

function defianceSpec(ctx) {
  let s = null;
  let facing = "N";
  const n = () => s.n;
  const onBoard = (side) => Object.values(s.counters).filter((c) => c.side === side).length;
  const commandNames = [w("editor.command.rebels"), w("editor.command.imperium1"), w("editor.command.imperium2")];
  return {
    tools: [["rebels", w("editor.piece.rebels")], ["imperium", w("editor.piece.imperium")]],
    layout(board) {
      board.style.setProperty("--n", String(n()));
      for (let j = n() - 1; j >= 0; j--) {
        for (let i = 0; i < n(); i++) ctx.target(board, `${FILES[i]}${j + 1}`, n() - j, i + 1, "cell");
      }
      const marks = make("div", { className: "editor-commands", ariaHidden: "true" });
      board.append(marks);
    },
    paint(key, button) {
      const here = s.counters[key];
      button.replaceChildren(make("span", { className: "editor-name", text: key }));
      if (here) button.append(make("span", { className: `editor-piece counter ${here.side}`, dataDir: here.dir }, make("span", { className: "arrow", text: "↑" })));
      const what = here ? w("editor.counter", { side: here.side, dir: w(`editor.dir.${here.dir}`) }) : w("editor.empty");
      button.setAttribute("aria-label", w("editor.place", { place: key, what }));
      return here ? here.side : null;
    },
    after(board) {
      const marks = board.querySelector(".editor-commands");
      marks.replaceChildren(...s.commands.map((c, i) => {
        const mark = make("span", { className: `editor-command ${i ? "imperium" : "rebels"}` });
        mark.style.left = `${(100 * c.x) / n()}%`;
        mark.style.top = `${(100 * (n() - c.y)) / n()}%`;
        return mark;
      }));
    },
    put(tool, key, moving) {
      const here = s.counters[key];
      const dir = moving ? moving.dir : facing;
      if (here && here.side === tool && here.dir === dir && !moving) delete s.counters[key];
      else {
        if ((!here || here.side !== tool) && onBoard(tool) >= ctx.pool) return w("editor.pool_empty", { side: tool });
        s.counters[key] = { side: tool, dir };
      }
      return null;
    },
    pieceOf: (key) => (s.counters[key] ? { ...s.counters[key] } : null),
    take(key) {
      delete s.counters[key];
    },
    count: () => w("editor.pools", { r: ctx.pool - onBoard("rebels"), i: ctx.pool - onBoard("imperium") }),
    fields(box, changed) {
      const dirs = DIRS.map((d) => [d, `${d} — ${w(`editor.dir.${d}`)}`]);
      // the palette's counters face the way chosen
      const turn = (v) => {
        facing = v;
        for (const swatch of document.querySelectorAll("#editor-palette .editor-piece.counter")) swatch.dataset.dir = v;
      };
      box.append(field("editor-facing", w("editor.facing"), dirs, facing, turn).node);
      turn(facing);
      const sides = [["r", t("side.rebels")], ["i", t("side.imperium")], ["-", w("editor.nobody")]];
      box.append(field("editor-side", w("editor.to_move"), sides, s.side, (v) => changed((s.side = v))).node);
      const lines = range(0, n()).map((v) => [v, v]);
      s.commands.forEach((c, i) => {
        const group = make("fieldset", { className: "editor-command-fields" }, make("legend", { text: commandNames[i] }));
        group.append(field(`editor-command-${i}-x`, w("editor.column"), lines, c.x, (v) => changed((c.x = Number(v)))).node);
        group.append(field(`editor-command-${i}-y`, w("editor.row"), lines, c.y, (v) => changed((c.y = Number(v)))).node);
        box.append(group);
      });
    },
    build() {
      const rows = [];
      for (let j = n() - 1; j >= 0; j--) {
        let row = "";
        let run = 0;
        for (let i = 0; i < n(); i++) {
          const c = s.counters[`${FILES[i]}${j + 1}`];
          if (!c) {
            run += 1;
            continue;
          }
          if (run) row += String(run);
          run = 0;
          row += `${SIDE_OF[c.side]}${c.dir}`;
        }
        rows.push(row + (run ? String(run) : ""));
      }
      const pools = `r${ctx.pool - onBoard("rebels")},i${ctx.pool - onBoard("imperium")}`;
      const commands = s.commands.map((c, i) => `${i ? "I" : "R"}${c.x}.${c.y}`).join(",");
      return `${rows.join("/")} ${pools} ${commands} ${s.side}`;
    },
    load(position) {
      const p = ctx.boardModule.parsePosition(position);
      const rebel = p.commands.filter((c) => c.side === "rebels");
      const imperial = p.commands.filter((c) => c.side === "imperium");
      s = { n: p.n, counters: p.counters, side: p.side, commands: [...rebel, ...imperial].map((c) => ({ x: c.x, y: c.y })) };
    },
    clear() {
      s.counters = {};
    },
  };
}

const SPECS = { general: generalSpec, backgammon: backgammonSpec, defiance: defianceSpec };

// The editor of the game ``game``: ``open(position)`` shows it on that position; ``onAnalyse``
// is given the server's canonical string of a legal position when the user asks to analyse it.
export function createEditor({ game, ruleset, boardModule, post, cap, pool, initial, text, onAnalyse, onLeave }) {
  const board = $("editor-board");
  const palette = $("editor-palette");
  const status = $("editor-status");
  const buttons = new Map(); // key -> button
  let focusKey = null;
  let tool = null;
  let checked = { text: null, valid: null, view: null, error: null };
  let asking = 0;
  let typed = null; // the timer of text typed in the text box
  let drag = null;
  let dragged = false;

  const ctx = {
    boardModule, cap, pool, initial,
    target(parent, key, row, col, kind) {
      const button = make("button", { type: "button", className: `editor-target ${kind}`, dataTarget: key, tabIndex: -1 });
      button.dataset.row = String(row);
      button.dataset.col = String(col);
      if (game !== "backgammon") {
        button.style.gridRow = String(row);
        button.style.gridColumn = String(col);
      }
      button.addEventListener("click", () => {
        if (!dragged) place(key);
      });
      button.addEventListener("pointerdown", (event) => grab(event, { key }));
      button.addEventListener("focus", () => (focusKey = key));
      button.addEventListener("keydown", (event) => arrows(event, key));
      parent.append(button);
      buttons.set(key, button);
    },
  };
  const spec = SPECS[game](ctx);

  // the palette: the game's pieces and Remove, one chosen (aria-pressed)
  const tools = [...spec.tools, ["remove", w("editor.remove")]];
  for (const [id, label] of tools) {
    const counter = game === "defiance" && id !== "remove";
    const swatch = make("span", { className: `editor-piece ${id === "remove" ? "remove" : "swatch"}${counter ? " counter" : ""} ${id}`, ariaHidden: "true", text: id === "remove" ? "×" : "" });
    if (counter) swatch.append(make("span", { className: "arrow", text: "↑" }));
    const button = make("button", { type: "button", className: "editor-tool", dataTool: id, ariaPressed: "false" }, swatch, make("span", { text: label }));
    button.addEventListener("click", () => {
      if (!dragged) choose(id);
    });
    button.addEventListener("pointerdown", (event) => grab(event, { tool: id }));
    palette.append(button);
  }
  function choose(id) {
    tool = id;
    for (const b of palette.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.tool === id));
  }
  choose(spec.tools[0][0]);

  function say(message) {
    if (message) {
      status.textContent = message;
      status.dataset.valid = "no";
    }
  }

  // a place chosen with the chosen piece (or Remove)
  function place(key) {
    if (tool === "remove") spec.take(key);
    else {
      const refused = spec.put(tool, key);
      if (refused) return say(refused);
    }
    changed();
  }

  function paint() {
    for (const [key, button] of buttons) {
      const what = spec.paint(key, button);
      button.classList.toggle("filled", Boolean(what));
      button.dataset.piece = what || "";
      button.tabIndex = key === (focusKey || buttons.keys().next().value) ? 0 : -1;
    }
    if (spec.after) spec.after(board);
    $("editor-count").textContent = spec.count();
  }

  function fields() {
    const box = $("editor-fields");
    box.replaceChildren();
    spec.fields(box, () => changed());
  }

  // the editor changed: the string is written and checked
  function changed() {
    paint();
    const position = spec.build();
    text.value = position;
    check(position, true);
  }

  async function check(position, fromEditor) {
    const mine = ++asking;
    status.textContent = w("editor.checking");
    status.dataset.valid = "checking";
    let view = null;
    let error = null;
    try {
      view = await post("/api/analysis/position", { game, ruleset, position });
    } catch (problem) {
      error = problem.message;
    }
    if (mine !== asking) return checked;
    checked = { text: position, valid: Boolean(view), view, error };
    if (view) {
      const o = view.outcome;
      status.textContent = o ? w("editor.valid_over") : view.to_move === "chance" ? w("editor.valid_roll") : w("editor.valid", { side: view.to_move });
      status.dataset.valid = "yes";
      if (fromEditor && text.value === position) text.value = view.position;
      if (!fromEditor) {
        spec.load(view.position);
        paint();
        fields();
      }
    } else {
      status.textContent = w("board.invalid", { error });
      status.dataset.valid = "no";
    }
    return checked;
  }

  // the text box: what an expert types is read into the editor once the server accepts it
  text.addEventListener("input", () => {
    if (board.closest("[hidden]")) return;
    clearTimeout(typed);
    typed = setTimeout(() => check(text.value.trim(), false), 350);
  });

  // keyboard: the board is one tab stop, arrows move between places (by their row and column)
  function arrows(event, key) {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!step) return;
    event.preventDefault();
    const here = buttons.get(key).dataset;
    const [r0, c0] = [Number(here.row), Number(here.col)];
    let best = null;
    let bestScore = Infinity;
    for (const [other, button] of buttons) {
      const dr = Number(button.dataset.row) - r0;
      const dc = Number(button.dataset.col) - c0;
      const along = step[0] ? dr * step[0] : dc * step[1];
      const across = step[0] ? Math.abs(dc) : Math.abs(dr);
      if (other === key || along <= 0) continue;
      const score = along * 10 + across;
      if (score < bestScore) [best, bestScore] = [other, score];
    }
    if (best) {
      focusKey = best;
      paint();
      buttons.get(best).focus();
    }
  }

  // dragging (mouse, pen, and touch from the palette): a piece follows the pointer and lands
  // where it is let go; one taken from the board and let go off it is removed
  function grab(event, source) {
    if (event.button !== 0) return;
    if (source.key) {
      const button = buttons.get(source.key);
      if (!button.classList.contains("filled") || source.key.startsWith("off-")) return;
    }
    drag = { source, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
  }
  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      const from = drag.source.key ? buttons.get(drag.source.key) : palette.querySelector(`[data-tool="${drag.source.tool}"]`);
      const piece = from.querySelector(".editor-piece");
      drag.ghost = make("div", { className: "editor-ghost", ariaHidden: "true" }, piece ? piece.cloneNode(true) : "");
      document.body.append(drag.ghost);
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  });
  const drop = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { source, ghost } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    dragged = true;
    setTimeout(() => (dragged = false), 0);
    if (event.type === "pointercancel") return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const target = under && under.closest("#editor-board [data-target]");
    if (source.tool) {
      if (!target) return;
      if (source.tool === "remove") spec.take(target.dataset.target);
      else {
        const refused = spec.put(source.tool, target.dataset.target);
        if (refused) return say(refused);
      }
    } else if (target && target.dataset.target !== source.key) {
      const key = target.dataset.target;
      // one piece on a place, but for backgammon's stacks: a piece let go on another stays
      if (game !== "backgammon" && target.classList.contains("filled")) return;
      const moving = spec.pieceOf ? spec.pieceOf(source.key) : null;
      const piece = buttons.get(source.key).dataset.piece;
      spec.take(source.key);
      if (!key.startsWith("off-")) {
        const refused = spec.put(piece, key, moving);
        if (refused) {
          spec.put(piece, source.key, moving);
          say(refused);
          paint();
          return;
        }
      }
    } else if (!target && !(under && under.closest("#editor-board"))) spec.take(source.key);
    else return;
    changed();
  };
  document.addEventListener("pointerup", drop);
  document.addEventListener("pointercancel", drop);

  $("editor-clear").addEventListener("click", () => {
    spec.clear();
    fields();
    changed();
  });
  $("editor-start").addEventListener("click", () => {
    spec.load(initial);
    fields();
    changed();
  });
  $("editor-analyse").addEventListener("click", async () => {
    clearTimeout(typed);
    const result = checked.text === text.value.trim() ? checked : await check(text.value.trim(), true);
    if (result.valid) onAnalyse(result.view.position);
  });
  $("editor-leave").addEventListener("click", () => onLeave());

  let laidOut = false;
  return {
    open(position) {
      spec.load(position);
      if (!laidOut) {
        spec.layout(board);
        laidOut = true;
      }
      paint();
      fields();
      text.value = position;
      check(position, true);
    },
  };
}
