"""Where each position of the General lives in the solved tables.

The positions fall into *layers* by rebel count (16, 14, …, 6; at 4 the general has won), and
each layer into two *sub-layers* by the flight (``0`` used, ``1`` available): a flight only ever
goes from ``1`` to ``0`` and a capture from ``k`` rebels to ``k - 2``, so each sub-layer reads
only finished ones.

Inside a sub-layer a position's index is ``rank(rebels) * slots(k) + 2 * g + side`` where

- ``rank`` is the colex rank of the rebel set among the ``k``-subsets of the 25 square points
  (``sum(C(p_i, i + 1))`` over its points ``p_0 < p_1 < …``): consecutive ranks are the subsets
  in increasing numeric order of their bitmasks;
- ``g`` is the general's slot: how many of the ``29 - k`` points free of rebels lie below his
  point (``point - popcount(rebels below it)``);
- ``side`` is ``0`` for the rebels to move, ``1`` for the general.

One slot per sub-layer is impossible (the general on ``s4`` with his flight unused); it is kept
and never used, so that the index stays arithmetic. Everything here is plain Python and numpy;
the solver's compiled kernels use the same tables.
"""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..games.general.board import (
    GATES_MASK,
    INDEX,
    NAMES,
    NUM_POINTS,
    S4,
    SANCTUARY_MASK,
    START_GENERAL,
    START_REBELS,
)
from ..games.general.rules import GAME, GENERAL, REBELS, GeneralState

SQUARE_POINTS = 25
"""Rebels stand only on the 25 points of the square (indices 0–24)."""
LAYERS = (6, 8, 10, 12, 14, 16)
"""The rebel counts of the solved layers (4 rebels: the general has won)."""
MAX_REBELS = 16
WON = 4
"""Rebel count at which the general has won (twelve captured)."""


class Position(NamedTuple):
    """A position in the solver's terms: the general's point, the rebels' bitmask, the side to
    move (0 rebels, 1 general) and the flight (1 available)."""

    general: int
    rebels: int
    side: int
    flight: int

    @property
    def layer(self) -> int:
        """The number of rebels (the layer)."""
        return self.rebels.bit_count()


START = Position(START_GENERAL, START_REBELS, 0, 1)
"""The starting position."""


def slots(k: int) -> int:
    """Entries per rebel set in the layer of ``k`` rebels: ``29 - k`` general slots × 2 sides."""
    return 2 * (NUM_POINTS - k)


def rebel_sets(k: int) -> int:
    """How many sets of ``k`` rebels the square holds: C(25, k)."""
    return math.comb(SQUARE_POINTS, k)


def sublayer_size(k: int) -> int:
    """Entries of one sub-layer (one flight value) of the layer of ``k`` rebels."""
    return rebel_sets(k) * slots(k)


def sublayers(top: int = MAX_REBELS) -> list[tuple[int, int]]:
    """The sub-layers up to ``top`` rebels in solving order: (6, 0), (6, 1), (8, 0), …"""
    return [(k, f) for k in LAYERS if k <= top for f in (0, 1)]


@cache
def binomials() -> npt.NDArray[np.int64]:
    """``C[n, r]`` for ``0 <= n, r <= 32``."""
    table = np.zeros((33, 33), dtype=np.int64)
    for n in range(33):
        for r in range(n + 1):
            table[n, r] = math.comb(n, r)
    return table


LOW_BITS = 13
"""The rank is read from two lookups: the low 13 square points and the high 12."""


@cache
def rank_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(low, high)`` with ``rank(R) = low[R & 0x1FFF] + high[popcount(R & 0x1FFF), R >> 13]``."""
    # each table entry is the entry without the mask's top point plus that point's term
    low = [0] * (1 << LOW_BITS)
    for mask in range(1, 1 << LOW_BITS):
        top = mask.bit_length() - 1
        low[mask] = low[mask ^ (1 << top)] + math.comb(top, mask.bit_count())
    high_bits = SQUARE_POINTS - LOW_BITS
    high = [[0] * (1 << high_bits) for _ in range(LOW_BITS + 1)]
    for j, row in enumerate(high):
        for mask in range(1, 1 << high_bits):
            top = mask.bit_length() - 1
            row[mask] = row[mask ^ (1 << top)] + math.comb(LOW_BITS + top, j + mask.bit_count())
    return np.array(low, dtype=np.int64), np.array(high, dtype=np.int64)


def rank(rebels: int) -> int:
    """The colex rank of a rebel set among the sets of its size.

    >>> rank(0b111), rank(0b1011), rank(0b1101), rank(0b1110)
    (0, 1, 2, 3)
    """
    low, high = rank_tables()
    part = rebels & ((1 << LOW_BITS) - 1)
    return int(low[part]) + int(high[part.bit_count(), rebels >> LOW_BITS])


def unrank(r: int, k: int) -> int:
    """The rebel set of colex rank ``r`` among the sets of ``k`` points (inverse of ``rank``).

    >>> unrank(3, 3) == 0b1110
    True
    """
    mask = 0
    for i in range(k, 0, -1):
        p = i - 1
        while math.comb(p + 1, i) <= r:
            p += 1
        mask |= 1 << p
        r -= math.comb(p, i)
    return mask


def general_slot(general: int, rebels: int) -> int:
    """The general's slot: the points free of rebels below his."""
    return general - (rebels & ((1 << general) - 1)).bit_count()


def general_at(slot: int, rebels: int) -> int:
    """The point of a general's slot (inverse of ``general_slot``)."""
    seen = -1
    for point in range(NUM_POINTS):
        if not (rebels >> point) & 1:
            seen += 1
            if seen == slot:
                return point
    raise ValueError(f"slot {slot} is beyond the free points")


def index(position: Position) -> int:
    """The position's index inside its sub-layer ``(position.layer, position.flight)``."""
    k = position.layer
    return (
        rank(position.rebels) * slots(k)
        + 2 * general_slot(position.general, position.rebels)
        + position.side
    )


def position_at(k: int, flight: int, idx: int) -> Position:
    """The position at ``idx`` of sub-layer ``(k, flight)`` (it may be the unused slot: the
    general on s4 with the flight available)."""
    r, rest = divmod(idx, slots(k))
    rebels = unrank(r, k)
    return Position(general_at(rest // 2, rebels), rebels, rest % 2, flight)


def is_valid(position: Position) -> bool:
    """Whether a position has a place in the tables (the rebels even, 6–16, on the square; the
    general on a point of his own; not on s4 with the flight available)."""
    g, rebels, side, flight = position
    return (
        position.layer in LAYERS
        and rebels & ~((1 << SQUARE_POINTS) - 1) == 0
        and 0 <= g < NUM_POINTS
        and not (rebels >> g) & 1
        and side in (0, 1)
        and flight in (0, 1)
        and not (g == S4 and flight)
    )


def is_shut_in(general: int, rebels: int) -> bool:
    """The general in the sanctuary with rebels on all three gates."""
    return bool((SANCTUARY_MASK >> general) & 1) and rebels & GATES_MASK == GATES_MASK


def from_state(state: GeneralState) -> Position:
    """The solver's view of an engine state."""
    rebels = 0
    for point in state.rebels:
        rebels |= 1 << INDEX[point]
    return Position(
        INDEX[state.general], rebels, 0 if state.side == REBELS else 1, int(state.flight_available)
    )


def to_state(position: Position) -> GeneralState:
    """The engine state of a position (``InvalidPosition`` if it is not one)."""
    g, rebels, side, flight = position
    return GAME.from_parts(
        NAMES[g],
        [NAMES[p] for p in range(NUM_POINTS) if (rebels >> p) & 1],
        REBELS if side == 0 else GENERAL,
        bool(flight),
    )
