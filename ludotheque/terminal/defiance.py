"""Text drawing of Defiance and Domain: both lattices at once.

Counters sit in the cells as ``r↑`` (Rebel) or ``i↙`` (Imperial) with an arrow for their Line of
Attack; Commands sit on the points as ``R`` and ``I`` (``Ï`` for two Imperial Commands on one
point); key points are ``+``, other points ``·``; sector borders are drawn double.
"""

from __future__ import annotations

from ..games.defiance import DefianceState
from ..games.defiance.geometry import FILES
from ..games.defiance.rules import arrow

CELL = 3  # characters per cell


def render(state: DefianceState) -> str:
    """Cells, points, Commands, sector borders, key points, and the coordinates of both."""
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
            mark = commands.get(name) or ("+" if geo.is_key[geo.point(x, y)] else "·")
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
            cells.append(
                f"{'ri'[owner[0] == 'imperium']}{arrow(owner[1])} " if owner else " " * CELL
            )
        cells.append("│")
        lines.append(f"{j + 1:>2}    " + "".join(cells))
    lines.append("      " + "".join(f"  {FILES[i]} " for i in range(n)) + "  (cells)")
    return "\n".join(lines)


def status(state: DefianceState) -> str:
    """Whose turn, pools, and the Rebels' key points sector by sector."""
    controlled = state.controlled()
    progress = " ".join(f"{len(ps)}" for ps in controlled)
    sectors = sum(1 for ps in controlled if ps)
    turn = state.side or "game over"
    pools = state.pools
    return (
        f"{turn} to move · pools: rebels {pools['rebels']}, imperium {pools['imperium']} · "
        f"rebel key points per sector: {progress} ({sectors}/4 sectors)"
    )


def moves_text(state: DefianceState) -> str:
    """A summary of the legal turns: whole lists are thousands long."""
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
        lines.append(f"  place (cell>DIR) on {len(places)} cells" + (
            f"; dead zones: {' '.join(dead)}" if dead else ""))  # fmt: skip
    if rotations:
        lines.append(f"  rotate (cell@DIR): {' '.join(rotations)}")
    if commands:
        lines.append(f"  Command moves: {' '.join(commands)}")
    lines.append("  e.g. " + "  ".join(str(t) for t in turns[:: max(1, len(turns) // 5)][:5]))
    return "\n".join(lines)


def _cell_key(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]
