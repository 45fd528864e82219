"""Text drawing of Defiance and Domain: both lattices at once.

Counters sit in the cells as ``r↑`` (Rebel) or ``i↙`` (Imperial) with an arrow for their Line of
Attack; Commands sit on the points as ``R`` and ``I`` (``Ï`` for two Imperial Commands on one
point); key points are ``+``, other points ``·``; sector borders are drawn double.
"""

from __future__ import annotations

import textwrap

from ..games.defiance import DefianceState
from ..games.defiance.geometry import FILES
from ..games.defiance.rules import arrow
from .style import CYAN, RED, Side, paint

CELL = 3  # characters per cell
SIDES = {
    "rebels": Side("the Rebels", plural=True, style=RED),
    "imperium": Side("the Imperium", style=CYAN),
}


def render(state: DefianceState, *, colour: bool = False) -> str:
    """Cells, points, Commands, sector borders, key points, and the coordinates of both (counters
    and Commands in colour when ``colour``)."""
    geo = state.game.geo
    n, h = geo.n, geo.h
    counters = state.counters()
    commands: dict[str, str] = {state.rebel_command: "R"}
    for name in state.imperial_commands:
        commands[name] = "Ï" if commands.get(name) == "I" else "I"
    lines = ["      " + "".join(f"{x:<{CELL + 1}}" for x in range(n + 1)) + "  (points x)"]
    for y in range(n, -1, -1):
        row = []
        for x in range(n + 1):
            name = f"P{x}.{y}"
            command = commands.get(name)
            if command:
                mark = paint(command, RED if command == "R" else CYAN, colour)
            else:
                mark = "+" if geo.is_key[geo.point(x, y)] else "·"
            row.append(mark)
            if x < n:
                row.append(("═" if y == h else "─") * CELL)
        lines.append(f"   {y:>2} " + "".join(row))
        if y == 0:
            break
        j = y - 1
        cells = []
        for i in range(n):
            cells.append("║" if i == h else "│")
            owner = counters.get(f"{FILES[i]}{j + 1}")
            if owner:
                imperial = owner[0] == "imperium"
                counter = f"{'ri'[imperial]}{arrow(owner[1])}"
                cells.append(paint(counter, CYAN if imperial else RED, colour) + " ")
            else:
                cells.append(" " * CELL)
        cells.append("│")
        lines.append(f"{j + 1:>2}    " + "".join(cells))
    lines.append("      " + "".join(f"  {FILES[i]} " for i in range(n)) + "  (cells)")
    return "\n".join(lines)


def status(state: DefianceState, over: bool = False) -> str:
    """Whose turn (none once the game is ``over``: its record may end it, the turn limit, while
    the position names a side to move), pools, and the Rebels' key points sector by sector."""
    controlled = state.controlled()
    progress = " ".join(f"{len(ps)}" for ps in controlled)
    sectors = sum(1 for ps in controlled if ps)
    turn = f"{SIDES[state.side].name} to move" if state.side in SIDES and not over else "game over"
    pools = state.pools
    return (
        f"{turn} · pools: Rebels {pools['rebels']}, Imperium {pools['imperium']} · "
        f"rebel key points per sector: {progress} ({sectors}/4 sectors)"
    )


def moves_text(state: DefianceState, width: int = 80) -> str:
    """A summary of the legal turns (whole lists are thousands long), wrapped to ``width``."""
    geo = state.game.geo
    turns = state.legal_moves()
    if not turns:
        return "No legal moves."
    actions = state.legal_actions()
    places = sorted({geo.cell_names[a.cell] for a in actions if a.kind == 0}, key=_cell_key)
    rotations = sorted({geo.cell_names[a.cell] for a in actions if a.kind == 1}, key=_cell_key)
    commands = sorted({t.command.text(geo) for t in turns if t.command is not None})
    dead = state.dead_zones()
    lines = [f"{len(turns)} legal turns (action, then optionally ';' and a Command move)."]
    if places:
        lines.append(f"  place (cell>DIR) on {len(places)} cells")
    if dead:
        lines.append(f"  dead zones: {' '.join(dead)}")
    if rotations:
        lines.append(f"  rotate (cell@DIR): {' '.join(rotations)}")
    if commands:
        lines.append(f"  Command moves: {' '.join(commands)}")
    lines.append("  e.g. " + "  ".join(str(t) for t in turns[:: max(1, len(turns) // 5)][:5]))
    wrap = textwrap.TextWrapper(
        width=max(width, 40),
        subsequent_indent="      ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join(part for line in lines for part in wrap.wrap(line))


def _cell_key(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]
