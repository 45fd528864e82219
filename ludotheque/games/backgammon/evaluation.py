"""The evaluation of backgammon positions: the shipped network's (or the bear-off database's)
chances for the side whose turn it is, turned into a value in [-1, 1] for the side asked about.

In ``seed`` and ``standard`` a game is won or lost: the value is 2p - 1 from the chance to win.
In ``money`` and ``match`` the value counts the cube (see ``equity``): a third of the cubeful
equity per cube in money play, 2 MWC - 1 from the chance to win the match in match play. A
position before its roll may be doubled by the side on roll when the cube allows; a position
with a double pending is worth the other side's better answer; a pending resignation, the
better of accepting and playing on. ``measure_many`` gives the same values unclipped, in the
ruleset's own measure (points, or the chance to win the match), with finished games worth
what they score (``result_value``): what the analysis compares across cube levels.

A position between turns belongs to the side about to roll; a position with the dice rolled
belongs to the side that will play them (the dice themselves are not an input, as in the
programs this follows: the search looks at them). Batches of positions — the children of one
node — are evaluated together, which is what makes a network cheap enough for search.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from . import equity
from .cube import DOUBLED, NONE, RESIGNING, ROLLING
from .network import chances_of_counts, rearmost, unpack_many
from .rules import SIDES, BackgammonState

Array = npt.NDArray[np.float64]
_PIPS = np.arange(26, dtype=np.float64)


def roller_counts(
    states: Sequence[BackgammonState],
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The counts (26 per side, own views) of the side whose turn it is and of the other."""
    boards: list[int] = []
    for state in states:
        mover, opponent = state.mover_boards()
        boards += (mover, opponent)
    counts = unpack_many(boards).reshape(len(states), 2, 26)
    return counts[:, 0], counts[:, 1]


def cube_efficiency(on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> Array:
    """The cube's efficiency for positions given by counts (see ``equity.efficiency``)."""
    contact = rearmost(on_roll) + rearmost(other) >= 25
    return equity.efficiency(contact, on_roll @ _PIPS)


def evaluate_many(states: Sequence[BackgammonState], side: str) -> list[float]:
    """The value of each unfinished state for ``side`` in [-1, 1]."""
    out = [0.0] * len(states)
    index = [i for i, s in enumerate(states) if s.side is not None]  # the opening is even
    if not index:
        return out
    batch = [states[i] for i in index]
    on_roll, other = roller_counts(batch)
    chances = chances_of_counts(on_roll, other)
    if batch[0].stakes is None:
        for k, (i, state) in enumerate(zip(index, batch, strict=True)):
            sign = 1.0 if state.side == side else -1.0
            # clipped: the bear-off database's sums of probabilities can exceed 1 by an ulp
            out[i] = sign * min(1.0, max(-1.0, 2 * float(chances[k, 0]) - 1))
        return out
    x = cube_efficiency(on_roll, other)
    for k, (i, state) in enumerate(zip(index, batch, strict=True)):
        value, ctx = stake_value(state, chances[k : k + 1], x[k : k + 1])
        if state.side != side:
            value = equity.opposite(ctx)(value)
            ctx = ctx.other()
        out[i] = float(equity.unit(ctx, value)[0])
    return out


def measure_many(states: Sequence[BackgammonState], side: str) -> list[float]:
    """The value of each state for ``side`` in its ruleset's measure, unclipped (what the
    analysis compares): points in ``money`` (the cube's value, gammons and the cube's access
    counted), the chance to win the match in ``match``, 2p - 1 in the cubeless rulesets. A
    finished game is worth its result (``result_value``); the opening, before its roll, is
    even: 0 points, or the match equity table's chance at the score."""
    out = [0.0] * len(states)
    index: list[int] = []
    for i, s in enumerate(states):
        if s.outcome() is not None:
            out[i] = result_value(s, side)
        elif s.side is None:
            out[i] = _opening_value(s, side)
        else:
            index.append(i)
    if not index:
        return out
    batch = [states[i] for i in index]
    on_roll, other = roller_counts(batch)
    chances = chances_of_counts(on_roll, other)
    if batch[0].stakes is None:
        for k, (i, state) in enumerate(zip(index, batch, strict=True)):
            sign = 1.0 if state.side == side else -1.0
            # clipped: the bear-off database's sums of probabilities can exceed 1 by an ulp
            out[i] = sign * min(1.0, max(-1.0, 2 * float(chances[k, 0]) - 1))
        return out
    x = cube_efficiency(on_roll, other)
    # the value depends on the state only through its stakes, the side on roll and whether
    # the dice are rolled: each such group is valued in one call
    groups: dict[tuple[object, ...], list[int]] = {}
    for k, state in enumerate(batch):
        groups.setdefault((state.stakes, state.side, state.dice is None), []).append(k)
    for rows in groups.values():
        first = batch[rows[0]]
        value, ctx = stake_value(first, chances[rows], x[rows])
        if first.side != side:
            value = equity.opposite(ctx)(value)
        for k, v in zip(rows, value.tolist(), strict=True):
            out[index[k]] = float(v)
    return out


def result_value(state: BackgammonState, side: str) -> float:
    """What a finished game is worth to ``side`` in its ruleset's measure: the points won
    (positive) or lost in ``money``; in ``match`` the chance to win the match at the score
    after it (1 or 0 once the match is won); +1 or -1 in the cubeless rulesets."""
    outcome = state.outcome()
    assert outcome is not None
    won = outcome.winner == side
    stakes = state.stakes
    if stakes is None or outcome.winner is None:
        return 0.0 if outcome.winner is None else 1.0 if won else -1.0
    points = state.points()
    assert points is not None
    if not stakes.length:
        return float(points if won else -points)
    ctx = equity.Context.of(stakes, SIDES.index(side))
    ax, ao = ctx.away
    post = ctx.crawford or ctx.post  # after this game
    return equity.mwc(ax - points, ao, post) if won else equity.mwc(ax, ao - points, post)


def single_game(state: BackgammonState, side: str) -> tuple[float, float]:
    """What winning and losing a single game at the cube's present value would be worth to
    ``side``, in the ruleset's measure: ``(cube, -cube)`` points in ``money``, the chances to
    win the match after either in ``match``, ``(1, -1)`` cubeless. GNU Backgammon's
    normalised equity (EMG: equivalent to money game) maps these to +1 and -1: see
    ``normalised``."""
    stakes = state.stakes
    if stakes is None:
        return 1.0, -1.0
    if not stakes.length:
        return float(stakes.value), -float(stakes.value)
    ctx = equity.Context.of(stakes, SIDES.index(side))
    ax, ao = ctx.away
    post = ctx.crawford or ctx.post
    return equity.mwc(ax - ctx.cube, ao, post), equity.mwc(ax, ao - ctx.cube, post)


def normalised(value: float, win: float, lose: float) -> float:
    """A value in the measure as normalised equity (GNU Backgammon's ``mwc2eq``: +1 the value
    of winning a single game at the present cube, -1 that of losing one): in money play the
    points per unit of the cube, in match play (2 MWC - (W + L)) / (W - L)."""
    return (2 * value - (win + lose)) / (win - lose)


def _opening_value(state: BackgammonState, side: str) -> float:
    stakes = state.stakes
    if stakes is None or not stakes.length:
        return 0.0
    ctx = equity.Context.of(stakes, SIDES.index(side))
    return equity.mwc(ctx.away[0], ctx.away[1], ctx.post)


def stake_value(state: BackgammonState, p: Array, x: Array) -> tuple[Array, equity.Context]:
    """The value of ``state`` in its ruleset's measure for the side whose turn it is, given
    that side's chances ``p`` (one row) and the cube's efficiency; and that side's context."""
    stakes = state.stakes
    assert stakes is not None and state.side is not None
    me = SIDES.index(state.side)
    ctx = equity.Context.of(stakes, me)
    if stakes.pending == DOUBLED:
        _, take, drop = equity.decision(p, ctx, x)
        return np.minimum(take, drop), ctx
    # no double once the dice are rolled or the side has chosen to roll
    settled = state.dice is not None or stakes.pending == ROLLING
    play_on = equity.on_roll(p, ctx, x, may_double=False if settled else None)
    if stakes.pending == RESIGNING:
        accept = resignation_value(ctx, stakes.offer)
        return np.minimum(play_on, accept), ctx
    assert stakes.pending == NONE or stakes.pending == ROLLING
    return play_on, ctx


def resignation_value(ctx: equity.Context, offer: int) -> Array:
    """What a resignation of ``offer`` (1, 2, 3) by this side leaves it, in the measure."""
    points = ctx.cube * (1 if ctx.kind == "money" and ctx.jacoby and ctx.owner < 0 else offer)
    if ctx.kind == "match":
        return np.array([equity.mwc(ctx.away[0], ctx.away[1] - points, ctx.crawford or ctx.post)])
    return np.array([-float(points)])
