"""The two-sided bear-off database against a direct computation: for sampled pairs of home boards,
the chance that the side on roll wins when both play to win, worked out here by recursion over
every roll and play (the engine's move generator), is the database's to its 16-bit precision;
the evaluation reads it (compiled or not), and the search trusts it."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

import ludotheque
from ludotheque.ai.backgammon import BackgammonAgent
from ludotheque.ai.levels import make_agent
from ludotheque.games.backgammon import bearoff, network
from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.movegen import generate

ROLLS = [(h, lo, (1 if h == lo else 2) / 36) for h in range(1, 7) for lo in range(1, h + 1)]
GAME = ludotheque.load("backgammon", "standard")


@cache
def plays(board: tuple[int, ...], high: int, low: int) -> list[tuple[int, ...]]:
    """The home boards (points 1-6) a roll's plays leave."""
    packed = B.pack({p + 1: n for p, n in enumerate(board) if n}) + 15 - sum(board)
    found, _ = generate(packed, 0, high, low, 0)
    return [tuple(B.unpack(me)[1:7]) for me, _ in found]


@cache
def win(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """The chance that the side on roll with board ``a`` wins against ``b``, both playing to
    win: for each roll, the play that leaves the other side the least."""
    total = 0.0
    for high, low, weight in ROLLS:
        total += weight * max(1.0 if not any(n) else 1.0 - win(b, n) for n in plays(a, high, low))
    return total


def small_boards() -> list[tuple[int, ...]]:
    """Home boards of one to six checkers and at most ten pips (what recursion reaches fast)."""
    return [
        c
        for c in itertools.product(range(7), repeat=6)
        if 0 < sum(c) <= 6 and sum((i + 1) * n for i, n in enumerate(c)) <= 10
    ]


def counts(board: tuple[int, ...]) -> list[int]:
    return [15 - sum(board), *board, *[0] * 19]


def test_the_two_sided_database_is_the_race_played_to_win() -> None:
    table, most = bearoff.two_sided()
    assert most == 6 and table.shape == (924, 924)
    rng = random.Random()
    boards = small_boards()
    pairs = [(rng.choice(boards), rng.choice(boards)) for _ in range(40)]
    pairs.append(((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 2)))  # two on the six-point each
    for a, b in pairs:
        stored = table[bearoff.index_one(a), bearoff.index_one(b)] / 65535
        assert stored == pytest.approx(win(a, b), abs=1 / 65535), (a, b)
    # the evaluation reads it (compiled or numpy): no gammon with nine checkers off or more
    rows_a = np.array([counts(a) for a, _ in pairs], dtype=np.uint8)
    rows_b = np.array([counts(b) for _, b in pairs], dtype=np.uint8)
    chances = network.chances_of_counts(rows_a, rows_b)
    expected = [win(a, b) for a, b in pairs]
    assert chances[:, 0] == pytest.approx(expected, abs=1 / 65535)
    assert (chances[:, 1:] == 0).all()


def test_playing_to_win_is_not_bearing_off_fastest() -> None:
    """Two checkers on the six-point against two on the one-point, to roll: only 3-3 and the
    higher doubles win; and where a side behind must take a risk, the exact chance is above the
    one-sided estimate (each side alone, bearing off fastest on average)."""
    rows = np.array([counts((0, 0, 0, 0, 0, 2)), counts((2, 0, 0, 0, 0, 0))], dtype=np.uint8)
    assert network.chances_of_counts(rows[:1], rows[1:])[0, 0] == pytest.approx(4 / 36, abs=1e-4)
    # three on the three-point, one on the four and one on the five, against three on the
    # one-point: the side behind wins more often by playing to win than the one-sided estimate
    # (fastest on average) says: 15.8% against 14.6%
    behind, ahead = (0, 0, 3, 1, 1, 0), (3, 0, 0, 0, 0, 0)
    table, _ = bearoff.two_sided()
    exact = table[bearoff.index_one(behind), bearoff.index_one(ahead)] / 65535
    assert exact == pytest.approx(win(behind, ahead), abs=1 / 65535)
    rows = np.array([counts(behind), counts(ahead)], dtype=np.uint8)
    rolls, _ = bearoff.tables()
    assert exact - _one_sided(rows[:1], rows[1:], rolls) > 0.01


def _one_sided(a: np.ndarray, b: np.ndarray, rolls: np.ndarray) -> float:
    pa = rolls[bearoff.index_of(a[:, 1:7])][0]
    pb = rolls[bearoff.index_of(b[:, 1:7])][0]
    survival = np.cumsum(pb[::-1])[::-1]
    return float((pa * survival).sum())


def test_hard_plays_the_exact_race_without_searching() -> None:
    """In a race the two-sided database knows after every play, hard takes the one-ply best
    (exact) and searches nothing deeper."""
    state = GAME.parse_position("W[5x2,3x1,2x1] B[6x2,4x1,1x2] w 41")
    agent = make_agent("backgammon", "hard", seed=1)
    assert isinstance(agent, BackgammonAgent)
    move = agent.choose(state)
    assert agent.nodes == 0
    best = max(state.legal_moves(), key=lambda m: -GAME.evaluate(state.play(m), "black"))
    assert move == best
