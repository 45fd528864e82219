"""The evaluation of backgammon positions (cubeless, win or lose): the shipped network's chance
for the side on roll to win (see ``network``), as a value in [-1, 1] for the side asked about.

A position between turns belongs to the side about to roll; a position with the dice rolled
belongs to the side that will play them (the dice themselves are not an input, as in the
programs this follows: the search looks at them). Batches of positions — the children of one
node — are evaluated together, which is what makes a network cheap enough for search.
"""

from __future__ import annotations

from collections.abc import Sequence

from .network import win_chances
from .rules import BackgammonState


def evaluate_many(states: Sequence[BackgammonState], side: str) -> list[float]:
    """The value of each unfinished state for ``side`` in [-1, 1]."""
    on_roll: list[int] = []
    other: list[int] = []
    sign: list[float] = []
    out = [0.0] * len(states)
    index: list[int] = []
    for i, state in enumerate(states):
        roller = state.side
        if roller is None:  # before the opening roll: the sides are even
            continue
        mover, opponent = state._mover_boards()
        on_roll.append(mover)
        other.append(opponent)
        sign.append(1.0 if roller == side else -1.0)
        index.append(i)
    if index:
        chances = win_chances(on_roll, other)
        for i, s, p in zip(index, sign, chances.tolist(), strict=True):
            out[i] = s * (2 * p - 1)
    return out
