"""Static board diagrams (SVG) for the rules pages, drawn from position strings."""

from __future__ import annotations

from html import escape
from typing import Any

from ... import load
from ...games.general.board import LINES, NAMES

_COLS = "abcde"
_POINTS: dict[str, tuple[float, float]] = {
    f"{c}{r}": (50 + 75 * i, 470 - 75 * (r - 1)) for i, c in enumerate(_COLS) for r in range(1, 6)
}
_POINTS.update({"s4": (200, 20), "s1": (162.5, 95), "s2": (200, 95), "s3": (237.5, 95)})


def general(
    position: str,
    highlight: tuple[str, ...] = (),
    path: tuple[str, ...] = (),
    captured: tuple[str, ...] = (),
    label: str = "",
) -> str:
    """An SVG diagram of a General position: pieces, highlighted points, a move's path, and
    captured rebels (crossed out)."""
    general_point, rebels_text, *_ = position.split()
    rebels = set(rebels_text.split(","))
    parts = [
        f'<svg viewBox="0 0 400 520" class="board general diagram" role="img" '
        f'aria-label="{escape(label)}">',
        '<polygon class="sanctuary" points="'
        + " ".join(f"{x},{y}" for x, y in (_POINTS["b5"], _POINTS["d5"], _POINTS["s4"]))
        + '"/>',
    ]
    for line in LINES:
        pts = " ".join(f"{_POINTS[NAMES[p]][0]},{_POINTS[NAMES[p]][1]}" for p in line)
        parts.append(f'<polyline class="line" points="{pts}"/>')
    if path:
        pts = " ".join(f"{_POINTS[p][0]},{_POINTS[p][1]}" for p in path)
        parts.append(f'<polyline class="last-move" points="{pts}"/>')
    for name in NAMES:
        x, y = _POINTS[name]
        classes = "pt" + (" highlight" if name in highlight else "")
        parts.append(f'<g class="{classes}" transform="translate({x} {y})">')
        parts.append('<circle r="5" class="dot"/><circle r="26" class="target"/>')
        if name == general_point:
            parts.append(
                '<g class="piece general"><circle r="24"/><text class="crown" y="9">♔</text></g>'
            )
        elif name in rebels:
            parts.append('<g class="piece rebel"><circle r="20"/></g>')
        elif name in captured:
            parts.append(
                '<g class="piece rebel captured"><circle r="20" opacity="0.35"/>'
                '<path d="M-14,-14 L14,14 M14,-14 L-14,14" stroke="#a40000" stroke-width="4"/></g>'
            )
        x_label, y_label = (11, -8) if name.startswith("s") else (21, -19)
        parts.append(f'<text class="label" x="{x_label}" y="{y_label}">{name}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


_FILES = "abcdefghij"
_VEC = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1),
        "W": (-1, 0), "NW": (-1, 1)}  # fmt: skip


def defiance(
    counters: dict[str, str],
    n: int = 6,
    rebel: tuple[int, int] | None = None,
    imperial: tuple[tuple[int, int], ...] = (),
    captured: tuple[str, ...] = (),
    dead: tuple[str, ...] = (),
    walls: tuple[tuple[int, int, int, int], ...] = (),
    steps: tuple[tuple[int, int, int, int], ...] = (),
    border: int | None = None,
    label: str = "",
) -> str:
    """A flat diagram of part of a Defiance and Domain board (``n``×``n`` cells from a1):
    counters (``{"e5": "RN"}``), Commands on points, captured counters (crossed), dead zones,
    wall segments and Command steps (point to point), and a sector border at x = y = ``border``."""
    u = 40
    size = n * u
    parts = [
        f'<svg viewBox="-10 -10 {size + 20} {size + 20}" class="board defiance diagram" '
        f'role="img" aria-label="{escape(label)}">'
    ]
    for i in range(n):
        for j in range(n):
            name = f"{_FILES[i]}{j + 1}"
            x, y = i * u, (n - 1 - j) * u
            parts.append(f'<rect x="{x}" y="{y}" width="{u}" height="{u}" class="sq s0"/>')
            if name in dead:
                parts.append(
                    f'<rect x="{x + 3}" y="{y + 3}" width="{u - 6}" height="{u - 6}" class="dead"/>'
                )
    for k in range(n + 1):
        cls = "border" if k == border else "grid"
        parts.append(f'<line x1="{k * u}" y1="0" x2="{k * u}" y2="{size}" class="{cls}"/>')
        parts.append(f'<line x1="0" y1="{k * u}" x2="{size}" y2="{k * u}" class="{cls}"/>')
    for name, code in counters.items():
        i, j = _FILES.index(name[0]), int(name[1:]) - 1
        cx, cy = i * u + u / 2, (n - 1 - j) * u + u / 2
        side = "rebels" if code[0] == "R" else "imperium"
        dx, dy = _VEC[code[1:]]
        rx = 15 if side == "rebels" else 4
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, -dy / length
        ax, ay = cx + dx * 15, cy - dy * 15
        head = (
            f"{ax:.1f},{ay:.1f} {ax - ux * 8 - uy * 5:.1f},{ay - uy * 8 + ux * 5:.1f} "
            f"{ax - ux * 8 + uy * 5:.1f},{ay - uy * 8 - ux * 5:.1f}"
        )
        parts.append(
            f'<g class="counter {side}"><rect x="{cx - 15}" y="{cy - 15}" width="30" height="30" '
            f'rx="{rx}" class="body"/><line x1="{cx - dx * 8}" y1="{cy + dy * 8}" '
            f'x2="{cx + dx * 12}" y2="{cy - dy * 12}" class="arrow"/>'
            f'<polygon points="{head}" class="head"/></g>'
        )
        if name in captured:
            parts.append(
                f'<path d="M{cx - 12},{cy - 12} L{cx + 12},{cy + 12} M{cx + 12},{cy - 12} '
                f'L{cx - 12},{cy + 12}" class="captured"/>'
            )
    for x1, y1, x2, y2 in walls:
        parts.append(
            f'<line x1="{x1 * u}" y1="{size - y1 * u}" x2="{x2 * u}" y2="{size - y2 * u}" '
            'class="wall"/>'
        )
    for x1, y1, x2, y2 in steps:
        parts.append(
            f'<line x1="{x1 * u}" y1="{size - y1 * u}" x2="{x2 * u}" y2="{size - y2 * u}" '
            'class="command-path"/>'
        )
    if rebel is not None:
        rx, ry = rebel[0] * u, size - rebel[1] * u
        parts.append(f'<circle cx="{rx}" cy="{ry}" r="10" class="command rebels"/>')
    for x, y in imperial:
        parts.append(
            f'<rect x="{x * u - 9}" y="{size - y * u - 9}" width="18" height="18" rx="3" '
            'class="command imperium"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


_BG_PW, _BG_R, _BG_LEFT, _BG_BAR, _BG_TRAY, _BG_Y = 50, 22, 30, 340, 714, 30


def _bg_x(p: int) -> tuple[float, bool]:
    """The centre x of white's point ``p`` and whether it is in the top row."""
    if p <= 12:
        i = 6 - p if p <= 6 else 12 - p
        base = _BG_BAR + 40 if p <= 6 else _BG_LEFT
        return base + i * _BG_PW + _BG_PW / 2, False
    i = p - 19 if p >= 19 else p - 13
    base = _BG_BAR + 40 if p >= 19 else _BG_LEFT
    return base + i * _BG_PW + _BG_PW / 2, True


def _bg_place(p: int, depth: int = 0) -> tuple[float, float]:
    """Where a checker of white's place ``p`` (0 off, 25 bar) is drawn."""
    if p == 25:
        return _BG_BAR + 20, _BG_Y + 330 + depth * 2 * _BG_R
    if p == 0:
        return _BG_TRAY + 34, _BG_Y + 560
    x, top = _bg_x(p)
    y = _BG_Y + 10 + _BG_R + depth * 2 * _BG_R if top else _BG_Y + 570 - _BG_R - depth * 2 * _BG_R
    return x, y


def backgammon(
    position: str,
    play: str = "",
    ruleset: str = "seed",
    direction: bool = False,
    label: str = "",
) -> str:
    """A backgammon diagram seen from white's side (white's point numbers), drawn from a position
    parsed by the engine; with ``play`` (white's, in the notation), the position after it with
    the play's checker moves drawn as arrows; ``direction`` draws white's way round the board."""
    state: Any = load("backgammon", ruleset).parse_position(position)
    moves: list[tuple[int, int, bool]] = []
    dice = ""
    if play:
        dice = position.split()[-1]
        chosen = state.parse_move(play)
        moves = [(s.src, s.dst, s.hit) for s in chosen.steps]
        state = state.play(chosen)
    white, black = state.board("white"), state.board("black")
    y0 = _BG_Y
    parts = [
        f'<svg viewBox="0 0 800 {y0 * 2 + 580}" class="board backgammon diagram bg-diagram" '
        f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>',
        f'<rect x="10" y="{y0}" width="690" height="580" rx="12" class="frame"/>',
        f'<rect x="{_BG_BAR}" y="{y0}" width="40" height="580" class="bar"/>',
        f'<rect x="{_BG_TRAY - 6}" y="{y0}" width="80" height="580" rx="10" class="tray-frame"/>',
    ]
    for p in range(1, 25):
        x, top = _bg_x(p)
        base, tip = (y0 + 10, y0 + 250) if top else (y0 + 570, y0 + 330)
        parts.append(
            f'<polygon points="{x - 23},{base} {x + 23},{base} {x},{tip}" '
            f'class="tri {"odd" if p % 2 else "even"}"/>'
        )
        parts.append(f'<text x="{x}" y="{y0 - 8 if top else y0 + 604}" class="bg-num">{p}</text>')
    for side, counts in (("white", white), ("black", black)):
        for place in range(1, 25):
            n = counts[place]
            for i in range(min(n, 5)):
                x, y = _bg_place(place if side == "white" else 25 - place, i)
                parts.append(f'<circle cx="{x}" cy="{y}" r="{_BG_R - 1}" class="checker {side}"/>')
            if n > 5:
                parts.append(f'<text x="{x}" y="{y + 6}" class="count {side}">{n}</text>')
        for i in range(counts[25]):
            x, y = _bg_place(25, i)
            if side == "black":
                y = y0 + 250 - i * 2 * _BG_R
            parts.append(f'<circle cx="{x}" cy="{y}" r="{_BG_R - 3}" class="checker {side}"/>')
        for i in range(counts[0]):
            ty = y0 + 555 - i * 17 if side == "white" else y0 + 10 + i * 17
            parts.append(
                f'<rect x="{_BG_TRAY + 6}" y="{ty}" width="56" height="14" rx="3" '
                f'class="off {side}"/>'
            )
    for src, dst, hit in moves:
        (x1, y1), (x2, y2) = _bg_place(src), _bg_place(dst)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="bg-move"/>')
        parts.append(f'<circle cx="{x2}" cy="{y2}" r="7" class="bg-move-end"/>')
        if hit:
            bx, by = _BG_BAR + 20, y0 + 250
            parts.append(f'<line x1="{x2}" y1="{y2}" x2="{bx}" y2="{by}" class="bg-hit"/>')
    if direction:
        parts.append(
            f'<path d="M 690 {y0 + 270} L 50 {y0 + 270} Q 20 {y0 + 290} 50 {y0 + 310} '
            f'L 700 {y0 + 310}" class="bg-direction"/>'
            f'<polygon points="712,{y0 + 310} 692,{y0 + 300} 692,{y0 + 320}" class="bg-arrow"/>'
        )
    for k, d in enumerate(dice if dice.isdigit() else ""):
        x = _BG_BAR + 40 + 110 + k * 60
        parts.append(
            f'<g class="die white"><rect x="{x}" y="{y0 + 268}" width="44" height="44" rx="7"/>'
            f'<text x="{x + 22}" y="{y0 + 299}" class="bg-die">{d}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)
