"""Text drawing of Le Général et les rebelles: the square, its diagonals and the sanctuary."""

from __future__ import annotations

from ..games.general import GeneralState
from ..games.general.board import EDGES, INDEX, NAMES
from .style import CYAN, RED, Side, paint

REBEL = "R"
GENERAL = "G"
EMPTY = "·"
SIDES = {
    "rebels": Side("the rebels", plural=True, style=RED),
    "general": Side("the general", style=CYAN),
}

_STEP = 4  # characters between two columns of the square
_LEFT = 4  # x of column a


def _x(col: int) -> int:
    return _LEFT + _STEP * col


# Where each point is drawn: (line, x). Line 0 is the apex; the square's row 5 is line 4.
_SQUARE_TOP = 4
_PLACE: dict[str, tuple[int, int]] = {
    f"{c}{r}": (_SQUARE_TOP + 2 * (5 - r), _x(ci))
    for ci, c in enumerate("abcde")
    for r in range(1, 6)
}
_PLACE.update({"s4": (0, _x(2)), "s1": (2, _x(2) - 2), "s2": (2, _x(2)), "s3": (2, _x(2) + 2)})


def _has(a: str, b: str) -> bool:
    return frozenset((INDEX[a], INDEX[b])) in EDGES


def _canvas() -> list[list[str]]:
    height = _SQUARE_TOP + 9
    width = _x(4) + 1
    grid = [[" "] * width for _ in range(height)]
    # horizontal and vertical lines of the square, and the diagonals of each cell
    for r in range(1, 6):
        line = _PLACE[f"a{r}"][0]
        for x in range(_x(0), _x(4)):
            grid[line][x] = "─"
    for ci, c in enumerate("abcde"):
        for r in range(1, 5):
            grid[_PLACE[f"{c}{r}"][0] - 1][_x(ci)] = "│"
    for ci in range(4):
        for r in range(1, 5):
            line = _PLACE[f"a{r}"][0] - 1
            x = _x(ci) + _STEP // 2
            c0, c1 = "abcde"[ci], "abcde"[ci + 1]
            if _has(f"{c0}{r}", f"{c1}{r + 1}"):
                grid[line][x] = "╱"
            elif _has(f"{c0}{r + 1}", f"{c1}{r}"):
                grid[line][x] = "╲"
    # the triangle: b5–s1–s4, d5–s3–s4, c5–s2–s4 and the crossbar s1–s2–s3
    cx = _x(2)
    grid[3][cx - 3], grid[3][cx], grid[3][cx + 3] = "╱", "│", "╲"
    grid[1][cx - 1], grid[1][cx], grid[1][cx + 1] = "╱", "│", "╲"
    grid[2][cx - 1] = grid[2][cx + 1] = "─"
    return grid


_BLANK = _canvas()


def render(state: GeneralState, *, colour: bool = False) -> str:
    """The board with its pieces, row numbers, column letters and sanctuary labels (the pieces
    in colour when ``colour``)."""
    grid = [row[:] for row in _BLANK]
    rebels = set(state.rebels)
    for name in NAMES:
        line, x = _PLACE[name]
        if name == state.general:
            mark = paint(GENERAL, CYAN, colour)
        elif name in rebels:
            mark = paint(REBEL, RED, colour)
        else:
            mark = EMPTY
        grid[line][x] = mark
    rows = ["".join(row).rstrip() for row in grid]
    rows[0] += "   s4 (apex)"
    rows[2] += "   s1 s2 s3: the sanctuary"
    for r in range(1, 6):
        line = _PLACE[f"a{r}"][0]
        rows[line] = f" {r}" + rows[line][2:]
    rows.append(" " * _LEFT + (" " * (_STEP - 1)).join("abcde"))
    return "\n".join(rows)


def status(state: GeneralState, over: bool = False) -> str:
    """One line: rebels left, captures, the flight (it names no side to move, ``over`` or not)."""
    captured = 16 - state.rebel_count
    flight = "available" if state.flight_available else "used"
    return (
        f"{state.rebel_count} rebels on the board, {captured} captured; "
        f"the general's flight: {flight}"
    )
