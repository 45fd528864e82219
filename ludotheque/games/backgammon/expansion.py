"""Every roll's plays from a batch of positions, with the evaluation of each position they
leave: the step of a search through the dice, in one call.

For positions given as counts (the side to move first, each side in its own view), ``expand``
lists, for each position and each of the 21 rolls (``ROLLS``' order), the positions its legal
plays leave — in the order ``movegen.generate`` finds them — turned round so that the side now
on roll comes first; their five outcome chances for that side (``network.chances_of_counts``);
which of them end the game (the mover has borne off its last checker: 1, 2 or 3 for a single
game, a gammon, a backgammon); and where each roll's plays begin. The compiled core
(``_cbackgammon.c``) does it all in C; the numpy code here is its reference and the fallback,
and gives the same positions in the same order with the same chances.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import board as B
from .cube import multiplier
from .movegen import generate
from .network import OUTPUTS, chances_numpy, core, counts_rows, unpack_many

Array = npt.NDArray[np.float64]
Counts = npt.NDArray[np.uint8]
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
"""The 21 rolls, in the order of the expansion's groups."""
WEIGHTS = np.array([(1 if h == lo else 2) / 36 for h, lo in ROLLS])
"""Each roll's chance."""


@dataclass(frozen=True)
class Expansion:
    """The children of a batch of positions, roll by roll (see the module's docstring):
    ``counts[i]`` (2 x 26: the side now on roll, then the mover), ``chances[i]`` (zeros where
    the game is over), ``ends[i]`` (0, or the multiplier of the mover's win) and
    ``offsets[21 * k + r]``, where the children of position ``k`` for roll ``r`` begin
    (``offsets[-1]`` is their number; no group is empty: with no legal play the position is
    its own one child)."""

    counts: Counts
    chances: Array
    ends: npt.NDArray[np.int8]
    offsets: npt.NDArray[np.int64]

    @property
    def starts(self) -> npt.NDArray[np.int64]:
        """Where each group (position, roll) begins."""
        return self.offsets[:-1]

    @property
    def sizes(self) -> npt.NDArray[np.int64]:
        """How many children each group has."""
        return np.diff(self.offsets)

    def group_min(self, values: Array) -> Array:
        """The least of ``values`` (one per child) in each group."""
        return np.minimum.reduceat(values, self.starts)

    def group_max(self, values: Array) -> Array:
        """The greatest of ``values`` (one per child) in each group."""
        return np.maximum.reduceat(values, self.starts)

    def group_argmin(self, values: Array) -> npt.NDArray[np.int64]:
        """The index of the first least child of each group."""
        least = np.repeat(self.group_min(values), self.sizes)
        hits = np.flatnonzero(values <= least)
        group = np.searchsorted(self.offsets, hits, side="right") - 1
        _, first = np.unique(group, return_index=True)  # every group has its least
        return hits[first]


def expand(rows: Counts, cap: int = 0) -> Expansion:
    """The expansion of the positions ``rows`` (n x 2 x 26 counts, the mover first) under the
    ruleset's cap on a point (0: none)."""
    fast = core()
    if fast is not None:
        flat = counts_rows(rows[:, 0], rows[:, 1])
        kids, chances, ends, offsets = fast.expand(flat, cap)
        return Expansion(
            np.frombuffer(kids, dtype=np.uint8).reshape(-1, 2, 26),
            np.frombuffer(chances, dtype=np.float64).reshape(-1, OUTPUTS),
            np.frombuffer(ends, dtype=np.int8),
            np.frombuffer(offsets, dtype=np.int32).astype(np.int64),
        )
    return expand_numpy(rows, cap)


def expand_numpy(rows: Counts, cap: int = 0) -> Expansion:
    """``expand`` in Python and numpy: the reference of the compiled core's."""
    mover_boards: list[int] = []
    other_boards: list[int] = []
    ends: list[int] = []
    offsets = [0]
    for mover, other in rows:
        me = _pack(mover)
        opp = _pack(other)
        for high, low in ROLLS:
            found, _ = generate(me, opp, high, low, cap)
            for mine, theirs in found:
                mover_boards.append(mine)
                other_boards.append(theirs)
                ends.append(multiplier(B.unpack(theirs)) if mine & 15 == B.CHECKERS else 0)
            offsets.append(len(ends))
    n = len(ends)
    counts = unpack_many([b for pair in zip(other_boards, mover_boards, strict=True) for b in pair])
    counts = counts.reshape(n, 2, 26)
    ended = np.array(ends, dtype=np.int8)
    chances = np.zeros((n, OUTPUTS))
    going = ended == 0
    if going.any():
        chances[going] = chances_numpy(counts[going, 0], counts[going, 1])
    return Expansion(counts, chances, ended, np.array(offsets, dtype=np.int64))


def _pack(counts: npt.NDArray[np.uint8]) -> int:
    return sum(int(n) << (4 * p) for p, n in enumerate(counts.tolist()))
