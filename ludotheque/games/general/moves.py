"""Moves of Le Général et les rebelles and their canonical notation.

Every move that can ever be legal is built once, at import, so that move generation only looks
moves up: ``REBEL_STEPS``, ``GENERAL_STEPS`` and ``FLIGHTS`` below, and the faster tables built
from them (``REBEL_MOVES_TO``, ``REBEL_REACH``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .board import NAMES, NEIGHBOURS, NUM_POINTS, PAIRS_AT, S4, SANCTUARY_MASK


def _or(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


class GeneralMove(NamedTuple):
    """One move: a step ``src → dst``; for a flight the ``landing`` point (else -1); and the
    bitmask of the two rebels ``captured`` (else 0).

    ``str(move)`` is the canonical notation: ``a1-b2``, ``c3-b2xa3c1``, ``s2-s4*c3xb3d3``.
    """

    src: int
    dst: int
    landing: int
    captured: int

    def __str__(self) -> str:
        text = f"{NAMES[self.src]}-{NAMES[self.dst]}"
        if self.landing >= 0:
            text += f"*{NAMES[self.landing]}"
        if self.captured:
            text += "x" + "".join(NAMES[i] for i in range(NUM_POINTS) if (self.captured >> i) & 1)
        return text

    @property
    def end(self) -> int:
        """Where the moving piece ends: the landing point of a flight, else ``dst``."""
        return self.landing if self.landing >= 0 else self.dst

    @property
    def is_flight(self) -> bool:
        """True for the general's flight."""
        return self.landing >= 0

    def captured_points(self) -> list[str]:
        """The names of the captured rebels (empty, or two names)."""
        return [NAMES[i] for i in range(NUM_POINTS) if (self.captured >> i) & 1]


def _variants(
    src: int, dst: int, landing: int, end: int
) -> tuple[GeneralMove, tuple[tuple[int, GeneralMove], ...]]:
    plain = GeneralMove(src, dst, landing, 0)
    captures = tuple((pair, GeneralMove(src, dst, landing, pair)) for pair in PAIRS_AT[end])
    return plain, captures


# REBEL_STEPS[src] = ((dst, move), ...): rebels never enter the sanctuary.
REBEL_STEPS: tuple[tuple[tuple[int, GeneralMove], ...], ...] = tuple(
    tuple(
        (dst, GeneralMove(src, dst, -1, 0))
        for dst in NEIGHBOURS[src]
        if not (SANCTUARY_MASK >> dst) & 1
    )
    for src in range(NUM_POINTS)
)

# REBEL_TARGETS[src]: bitmask of the points a rebel on src may step to when empty;
# REBEL_MOVE[src][dst]: the move object (None where there is no such step).
REBEL_TARGETS: tuple[int, ...] = tuple(sum(1 << dst for dst, _ in steps) for steps in REBEL_STEPS)
REBEL_MOVE: tuple[tuple[GeneralMove | None, ...], ...] = tuple(
    tuple(dict(steps).get(dst) for dst in range(NUM_POINTS)) for steps in REBEL_STEPS
)

# GENERAL_STEPS[src] = ((dst, plain move, ((pair, capturing move), ...)), ...)
GENERAL_STEPS: tuple[
    tuple[tuple[int, GeneralMove, tuple[tuple[int, GeneralMove], ...]], ...], ...
] = tuple(
    tuple((dst, *_variants(src, dst, -1, dst)) for dst in NEIGHBOURS[src])
    for src in range(NUM_POINTS)
)

# FLIGHTS[src] = ((landing, plain move, ((pair, capturing move), ...)), ...) for src next to s4.
FLIGHTS: tuple[tuple[tuple[int, GeneralMove, tuple[tuple[int, GeneralMove], ...]], ...], ...] = (
    tuple(
        tuple((land, *_variants(src, S4, land, land)) for land in range(NUM_POINTS) if land != S4)
        if S4 in NEIGHBOURS[src]
        else ()
        for src in range(NUM_POINTS)
    )
)


def _subsets(mask: int) -> list[int]:
    """Every subset of ``mask`` (the empty one included)."""
    out = [0]
    while mask:
        bit = mask & -mask
        mask ^= bit
        out += [s | bit for s in out]
    return out


# REBEL_MOVES_TO[src][targets]: the moves of a rebel on src to each point of ``targets`` (a subset
# of REBEL_TARGETS[src]: the targets that are empty), by ascending destination: one look-up per
# rebel instead of one per destination.
REBEL_MOVES_TO: tuple[dict[int, tuple[GeneralMove, ...]], ...] = tuple(
    {
        targets: tuple(move for dst, move in REBEL_STEPS[src] if (targets >> dst) & 1)
        for targets in _subsets(REBEL_TARGETS[src])
    }
    for src in range(NUM_POINTS)
)

# REBEL_REACH[k][byte]: the union of REBEL_TARGETS of the rebels in bits 8k…8k+7 given by
# ``byte``: whether the rebels can move at all is four look-ups and a mask.
REBEL_REACH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        _or(REBEL_TARGETS[p] for i in range(8) if (byte >> i) & 1 and (p := 8 * k + i) < NUM_POINTS)
        for byte in range(256)
    )
    for k in range(4)
)

# The ids of the rebel steps of REBEL_MOVE: play() checks one of these by the rules in a few
# operations instead of searching the list of legal moves.
REBEL_MOVE_IDS: frozenset[int] = frozenset(id(m) for row in REBEL_STEPS for _, m in row)
