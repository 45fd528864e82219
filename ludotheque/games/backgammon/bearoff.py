"""The bear-off databases. The one-sided one: for every way to place up to 15 checkers on the six
points of a home board, how many rolls it takes to bear them all off, and how many to bear off
the first. The two-sided one (``bearoff2.npz``, as GNU Backgammon ships): for every pair of home
boards of up to six checkers each, the exact chance that the side on roll wins.

Both were computed by our own code (``tools/backgammon_bearoff.py``). In the one-sided database
a position's distribution mixes, over the 21 rolls, the distribution of the play that bears off
fastest on average; when both sides are bearing off, the chances of the game follow from the two
distributions, the side on roll counting its rolls first — exact for the race as each side plays
it alone, which is how programs since Jellyfish's have read such databases. Near the end the
best play for the race differs from the fastest (a side behind takes a chance of a quick finish,
a side ahead the surest way): where both sides have six checkers or fewer left, the two-sided
database answers with the chance of the race played to win it by both sides (up to 1% from the
one-sided estimate). Nine checkers or more off on both sides: no gammon is possible there.

Positions are numbered by the combinatorial number system: the counts ``c1 … c6`` (point 1
first) with running sums ``s_j`` map to ``sum(C(s_j + j - 1, j))``, a number below
``C(21, 6) = 54,264``.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from math import comb
from types import ModuleType

import numpy as np
import numpy.typing as npt

POINTS = 6
CHECKERS = 15
POSITIONS = comb(CHECKERS + POINTS, POINTS)
Array = npt.NDArray[np.float64]
_BINOMIAL = np.array([[comb(n, k) for k in range(POINTS + 1)] for n in range(CHECKERS + POINTS)])


def index_of(counts: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """The database index of rows of six counts (points 1–6)."""
    sums = np.cumsum(counts.astype(np.int64), axis=1) + np.arange(POINTS)
    return _BINOMIAL[sums, np.arange(1, POINTS + 1)].sum(axis=1)  # type: ignore[no-any-return]


def index_one(counts: tuple[int, ...] | list[int]) -> int:
    """The database index of one home board (counts of points 1–6)."""
    total = 0
    running = 0
    for j, n in enumerate(counts, start=1):
        running += n
        total += comb(running + j - 1, j)
    return total


@cache
def tables() -> tuple[Array, Array]:
    """``(rolls, first)``: per position, the chance to need exactly ``n`` rolls (column ``n``)
    to bear off every checker, and to bear off the first one."""
    with files(__package__).joinpath("bearoff.npz").open("rb") as handle, np.load(handle) as data:
        rolls = data["rolls"].astype(np.float64)
        first = data["first"].astype(np.float64)
    rolls /= rolls.sum(axis=1, keepdims=True)
    first /= first.sum(axis=1, keepdims=True)
    return rolls, first


@cache
def two_sided() -> tuple[npt.NDArray[np.uint16], int]:
    """``(win, checkers)``: the two-sided database, ``win[a, b]`` the chance (x 65535) that the
    side on roll with board ``a`` wins against board ``b`` (indexes of ``index_of``), for
    boards of at most ``checkers`` checkers."""
    with files(__package__).joinpath("bearoff2.npz").open("rb") as handle, np.load(handle) as data:
        return np.ascontiguousarray(data["win"]), int(data["checkers"])


def in_two_sided(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Rows (26 counts per side) both in their home boards with few enough checkers left for
    the two-sided database."""
    _, most = two_sided()
    few = (15 - a[:, 0].astype(np.int64) <= most) & (15 - b[:, 0].astype(np.int64) <= most)
    return both_home(a, b) & few


def both_home(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Rows (26 counts per side) where both sides have every checker home or borne off."""
    away = np.asarray(a[:, 7:].any(axis=1) | b[:, 7:].any(axis=1), dtype=np.bool_)
    return ~away


def _survival(dist: Array) -> Array:
    """``out[:, n]`` = the chance of needing ``n`` rolls or more."""
    tail = np.cumsum(dist[:, ::-1], axis=1)[:, ::-1]
    return np.concatenate([tail, np.zeros((dist.shape[0], 1))], axis=1)


def chances(on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> Array:
    """The five outcome chances of the side on roll when both sides are bearing off (rows of 26
    counts, each side in its own view): win, win gammon, win backgammon (never here), lose
    gammon, lose backgammon (never)."""
    rolls, first = tables()
    width = rolls.shape[1]
    a = index_of(on_roll[:, 1:7])
    b = index_of(other[:, 1:7])
    exact = in_two_sided(on_roll, other)
    if exact.all():
        win, _ = two_sided()
        out = np.zeros((len(a), 5))
        out[:, 0] = win[a, b] / 65535
        return out
    pa, pb = rolls[a], rolls[b]
    # the side on roll wins when it needs no more rolls than the other: its n-th roll comes
    # before the other's n-th
    win = (pa * _survival(pb)[:, :width]).sum(axis=1)
    out = np.zeros((len(a), 5))
    out[:, 0] = win
    # a gammon: the loser has all fifteen on the board and the winner finishes before the
    # loser's first checker comes off
    gammonable_b = other[:, 0] == 0
    gammonable_a = on_roll[:, 0] == 0
    if gammonable_b.any():
        fb = first[b[gammonable_b]]
        out[gammonable_b, 1] = (pa[gammonable_b] * _survival(fb)[:, :width]).sum(axis=1)
    if gammonable_a.any():
        fa = first[a[gammonable_a]]
        # the other side wins a gammon when it finishes strictly before our first checker is off
        out[gammonable_a, 3] = (pb[gammonable_a] * _survival(fa)[:, 1 : width + 1]).sum(axis=1)
    if exact.any():
        win, _ = two_sided()
        out[exact] = 0.0
        out[exact, 0] = win[a[exact], b[exact]] / 65535
    return out


def expected_rolls(counts: tuple[int, ...] | list[int]) -> float:
    """The average number of rolls that one home board (counts of points 1–6) needs to bear
    off, playing to bear off fastest on average."""
    rolls, _ = tables()
    dist = rolls[index_one(counts)]
    return float(dist @ np.arange(dist.shape[0]))


def load_core(core: ModuleType) -> None:
    """Give the compiled core (``_cbackgammon.c``) the databases, which it reads as this module
    does."""
    rolls, first = tables()
    win, checkers = two_sided()
    core.bearoff_load(
        np.ascontiguousarray(rolls), np.ascontiguousarray(first), rolls.shape[1], win, checkers
    )
