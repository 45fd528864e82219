"""Fast move generation for Le Général et les rebelles, on the packed boards of a state.

``rebel_moves`` and ``general_moves`` are the compiled core's (``_cgeneral.c``) when it was
built, else the pure-Python ``rebel_moves_py`` and ``general_moves_py`` below, which the core
follows exactly (tests/general/test_fast_paths.py checks that they agree).

The moves are the interned objects of ``moves.py``; here they are only looked up, in the order
``rules.py`` has always listed them (rebels by source point then destination; the general by
destination, then capture pair, the flight's landings at the place of his step onto s4).

- The rebels: ``REBEL_MOVES_TO[src][targets]`` is the tuple of a rebel's moves to the empty
  points among its targets, and ``REBEL_CHUNKS`` lists the rebels of each byte of the mask with
  their tables: one look-up and one ``extend`` per rebel, no loop over destinations.
- The general: for each of his points and each neighbour, the moves there depend only on the
  rebels at the ends of the capture lines through that neighbour: one look-up per empty
  neighbour, in tables filled on first use (10,709 keys in all).
"""

from __future__ import annotations

from collections.abc import Callable

from .._compiled import compiled
from .board import NEIGHBOURS, NUM_POINTS, PAIRS_AT, S4
from .moves import FLIGHTS, GENERAL_STEPS, REBEL_MOVE, REBEL_MOVES_TO, REBEL_TARGETS, GeneralMove

Moves = tuple[GeneralMove, ...]


# REBEL_CHUNKS[k][byte]: ((targets, moves by targets), ...) for the rebels on the points of bits
# 8k…8k+7 set in ``byte``, by point: REBEL_TARGETS[src] and REBEL_MOVES_TO[src] of each.
REBEL_CHUNKS: tuple[tuple[tuple[tuple[int, dict[int, Moves]], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (REBEL_TARGETS[p], REBEL_MOVES_TO[p])
            for i in range(8)
            if (byte >> i) & 1 and (p := 8 * k + i) < NUM_POINTS
        )
        for byte in range(256)
    )
    for k in range(4)
)
_C0, _C1, _C2, _C3 = REBEL_CHUNKS


def rebel_moves_py(rebels: int, general: int) -> list[GeneralMove]:
    """The rebels' moves, by source point then destination: one look-up per rebel."""
    empty = ~(rebels | (1 << general))
    out: list[GeneralMove] = []
    extend = out.extend
    for targets, moves in (
        *_C0[rebels & 255],
        *_C1[(rebels >> 8) & 255],
        *_C2[(rebels >> 16) & 255],
        *_C3[rebels >> 24],
    ):
        extend(moves[targets & empty])
    return out


def _ends(point: int) -> int:
    """The points at the ends of the capture lines through ``point``."""
    out = 0
    for pair in PAIRS_AT[point]:
        out |= pair
    return out


# STEPS[g] = ((dst, ends, table), ...): table[rebels & ends] is the tuple of the general's moves
# onto dst (its captures, else the plain step), filled on first use.
STEPS: tuple[tuple[tuple[int, int, dict[int, Moves]], ...], ...] = tuple(
    tuple((dst, _ends(dst), {}) for dst in NEIGHBOURS[g]) for g in range(NUM_POINTS)
)
_FLIGHT_POINTS = tuple(S4 in NEIGHBOURS[g] for g in range(NUM_POINTS))


def _step_moves(general: int, index: int, rebels: int) -> Moves:
    """The moves of the general onto his ``index``-th neighbour (not a flight)."""
    _dst, plain, captures = GENERAL_STEPS[general][index]
    found = tuple(move for pair, move in captures if rebels & pair == pair)
    return found or (plain,)


def general_moves_py(rebels: int, general: int, flight: bool) -> list[GeneralMove]:
    """The general's moves: by destination, then capture pair; a step onto s4 with the flight
    unused is replaced by the flight's landings, in order."""
    if flight and _FLIGHT_POINTS[general]:
        return _with_flight(rebels, general)
    out: list[GeneralMove] = []
    extend = out.extend
    try:
        for dst, ends, table in STEPS[general]:
            if not (rebels >> dst) & 1:
                extend(table[rebels & ends])
    except KeyError:
        out.clear()
        for i, (dst, ends, table) in enumerate(STEPS[general]):
            if not (rebels >> dst) & 1:
                key = rebels & ends
                found = table.get(key)
                if found is None:
                    found = table[key] = _step_moves(general, i, rebels)
                extend(found)
    return out


def _with_flight(rebels: int, general: int) -> list[GeneralMove]:
    """The general's moves from a point next to s4 while his flight is unused."""
    out: list[GeneralMove] = []
    for i, (dst, _plain, _captures) in enumerate(GENERAL_STEPS[general]):
        if (rebels >> dst) & 1:
            continue
        if dst != S4:
            out.extend(_step_moves(general, i, rebels))
            continue
        for land, plain, captures in FLIGHTS[general]:
            if (rebels >> land) & 1:
                continue
            found = [move for pair, move in captures if rebels & pair == pair]
            out.extend(found or (plain,))
    return out


# -- the compiled core, when it was built ---------------------------------------------------

rebel_moves: Callable[[int, int], list[GeneralMove]] = rebel_moves_py
"""The rebels' moves (``rebels``, ``general``): the compiled core's, else ``rebel_moves_py``."""
general_moves: Callable[[int, int, bool], list[GeneralMove]] = general_moves_py
"""The general's moves (``rebels``, ``general``, ``flight``): the compiled core's, else
``general_moves_py``."""

CORE = compiled("ludotheque.games.general._cgeneral", 1)
"""The compiled core (``_cgeneral.c``), or ``None``: the same functions in C."""
if CORE is not None:
    CORE.setup(REBEL_MOVE, REBEL_TARGETS, GENERAL_STEPS, FLIGHTS, S4)
    rebel_moves = CORE.rebel_moves
    general_moves = CORE.general_moves
