"""Static board diagrams (SVG) for the rules pages, drawn from position strings."""

from __future__ import annotations

from html import escape

from ..games.general.board import LINES, NAMES

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
