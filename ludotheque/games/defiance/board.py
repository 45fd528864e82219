"""Board questions of Defiance and Domain: flanks, captures, control, dead zones.

Pure functions of the geometry and the cells (one code per cell: 0 empty, ``1 + d`` a Rebel
counter facing ``d``, ``9 + d`` an Imperial one), each also in a bitboard form (one mask of
cells per counter code) that answers for every cell of the board at once: the legal turns of a
position need the dead zones of all its empty cells and the captures of all its actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Geometry

Cells = list[int] | tuple[int, ...]
Bitboards = tuple[tuple[int, ...], int, int]
"""(one mask of cells per counter code 0–16, the Rebel counters, the Imperial counters)."""


@dataclass
class AfterAction:
    """The board between the two parts of a turn: cells, pools, the counter captured (if any)
    and whether the action won."""

    cells: list[int]
    pools: list[int]
    captured: list[int]
    won: bool


def owner(code: int) -> int:
    """0 for a Rebel counter, 1 for an Imperial one (``code`` non-zero)."""
    return (code - 1) >> 3


def pair(geo: Geometry, a: int, b: int) -> tuple[int, int]:
    """Two Imperial Commands in canonical order: sorted by (x, y)."""
    return (a, b) if geo.point_xy[a] <= geo.point_xy[b] else (b, a)


def active_sectors(geo: Geometry, side: int, rebel: int, imperial: tuple[int, int]) -> set[int]:
    """The sectors where ``side`` has a Command (its diagonal captures work there)."""
    points = (rebel,) if side == 0 else imperial
    return {geo.point_sector[p] for p in points} - {-1}


def flanked(geo: Geometry, cells: Cells, t: int, enemy: int, active: set[int]) -> bool:
    """Whether a counter on ``t`` is flanked by ``enemy``'s counters in a way that captures:
    orthogonally always, diagonally only inside one sector where ``enemy`` has a Command."""
    base = 1 + 8 * enemy
    nb = geo.neighbours[t]
    for d in (0, 1, 2, 3):
        a, b = nb[d], nb[d + 4]
        if a < 0 or b < 0 or cells[a] != base + d + 4 or cells[b] != base + d:
            continue
        if d & 1:
            s = geo.cell_sector[t]
            if geo.cell_sector[a] != s or geo.cell_sector[b] != s or s not in active:
                continue
        return True
    return False


def diagonal_flanks(geo: Geometry, cells: Cells, t: int, enemy: int) -> bool:
    """Whether ``t`` is flanked diagonally inside its sector by ``enemy`` (Commands aside)."""
    base = 1 + 8 * enemy
    nb = geo.neighbours[t]
    s = geo.cell_sector[t]
    for d in (1, 3):
        a, b = nb[d], nb[d + 4]
        if (
            a >= 0
            and b >= 0
            and cells[a] == base + d + 4
            and cells[b] == base + d
            and geo.cell_sector[a] == s
            and geo.cell_sector[b] == s
        ):
            return True
    return False


def capture_by(geo: Geometry, cells: Cells, c: int, d: int, side: int, active: set[int]) -> int:
    """The enemy counter that ``side``'s counter on ``c``, facing ``d``, captures with a
    partner beyond it (a counter attacks one cell, so an action captures at most one), or -1."""
    t = geo.neighbours[c][d]
    if t < 0:
        return -1
    code = cells[t]
    if not code or owner(code) == side:
        return -1
    p = geo.neighbours[t][d]
    if p < 0 or cells[p] != 1 + 8 * side + (d + 4) % 8:
        return -1
    if d & 1:
        s = geo.cell_sector[t]
        if geo.cell_sector[c] != s or geo.cell_sector[p] != s or s not in active:
            return -1
    return t


def controls(geo: Geometry, cells: Cells, p: int) -> bool:
    """Whether the Rebels control key point ``p`` (its four cells hold Rebel counters)."""
    if not geo.is_key[p]:
        return False
    return all(0 < cells[c] <= 8 for c in geo.point_cells[p])


def controlled_by_sector(geo: Geometry, cells: Cells) -> list[list[int]]:
    """The key points the Rebels control, sector by sector."""
    out: list[list[int]] = [[], [], [], []]
    for p in geo.key_points:
        if controls(geo, cells, p):
            out[geo.point_sector[p]].append(p)
    return out


def completes_win(geo: Geometry, cells: Cells, c: int, counts: list[int]) -> bool:
    """Whether a Rebel counter placed on empty ``c`` gives the Rebels all four sectors, given
    how many key points they control in each sector (``counts``)."""
    gained = list(counts)
    for q in geo.cell_corners[c]:
        if geo.is_key[q] and all(
            other == c or 0 < cells[other] <= 8 for other in geo.point_cells[q]
        ):
            gained[geo.point_sector[q]] += 1
    return all(gained)


def entering(geo: Geometry, cells: Cells, dst: int, side: int, before: set[int]) -> tuple[int, ...]:
    """Enemy counters captured when ``side``'s Command steps onto ``dst``: the diagonal flanks
    standing in a sector where ``side`` had no Command before."""
    s = geo.point_sector[dst]
    if s < 0 or s in before:
        return ()
    enemy = 1 - side
    lo, hi = 1 + 8 * enemy, 8 + 8 * enemy
    return tuple(
        t
        for t in geo.sector_cells[s]
        if lo <= cells[t] <= hi and diagonal_flanks(geo, cells, t, side)
    )


# -- the same questions for every cell at once ----------------------------------------------


def bitboards_of(cells: Cells) -> Bitboards:
    """The bitboards of ``cells``: one mask per counter code, and each side's counters."""
    masks = [0] * 17
    for c, code in enumerate(cells):
        if code:
            masks[code] |= 1 << c
    rebel = masks[1] | masks[2] | masks[3] | masks[4] | masks[5] | masks[6] | masks[7] | masks[8]
    imperial = (
        masks[9] | masks[10] | masks[11] | masks[12] | masks[13] | masks[14] | masks[15] | masks[16]
    )
    return tuple(masks), rebel, imperial


def sectors_mask(geo: Geometry, sectors: set[int]) -> int:
    """The cells of ``sectors``."""
    out = 0
    for s in sectors:
        out |= geo.sector_masks[s]
    return out


def flanked_mask(geo: Geometry, masks: tuple[int, ...], enemy: int, active: int) -> int:
    """The cells where a counter of ``enemy``'s opponent would be flanked by ``enemy`` in a way
    that captures; ``active`` is the mask of the sectors where ``enemy`` has a Command."""
    shift = geo.shift
    same = geo.same_sector
    base = 1 + 8 * enemy
    out = 0
    for d in (0, 1, 2, 3):
        # the cell on the d side holds a counter facing d + 4, the one on the other side faces d
        found = shift(masks[base + d + 4], d + 4) & shift(masks[base + d], d)
        if d & 1:
            found &= same[d] & same[d + 4] & active
        out |= found
    return out


def capture_masks(
    geo: Geometry, masks: tuple[int, ...], enemies: int, side: int, active: int
) -> list[int]:
    """For each direction ``d``: the cells from which a counter of ``side`` facing ``d``
    captures (an enemy next to it that way, and ``side``'s counter beyond, facing back);
    ``enemies`` are the enemy's counters, ``active`` the sectors of ``side``'s Commands."""
    shift = geo.shift
    same = geo.same_sector
    base = 1 + 8 * side
    out = []
    for d in range(8):
        back = (d + 4) % 8
        targets = shift(masks[base + back], back) & enemies
        if d & 1:
            targets &= same[d] & same[back] & active
        out.append(shift(targets, back))
    return out


def full_blocks(geo: Geometry, rebel: int) -> int:
    """The bottom-left cells of the 2×2 blocks whose four cells hold Rebel counters (a block's
    cells are a cell and its east, north and north-east neighbours)."""
    shift = geo.shift
    return rebel & shift(rebel, 6) & shift(rebel, 4) & shift(rebel, 5)


def four_sectors(geo: Geometry, rebel: int) -> bool:
    """Whether the Rebel counters ``rebel`` control a key point in every sector."""
    full = full_blocks(geo, rebel)
    return all(full & origins for origins in geo.block_origins)
