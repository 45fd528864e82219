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
