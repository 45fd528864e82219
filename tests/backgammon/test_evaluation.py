"""The backgammon evaluation: the network's inputs, the bear-off database, cubeful equity and
match equity, batches, and what the shipped evaluation knows (clear races, closed boards,
textbook opening plays)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings

import ludotheque
from ludotheque.ai.greedy import GreedyAgent
from ludotheque.games.backgammon import bearoff, equity, met, network
from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.network import (
    INPUTS,
    INPUTS2,
    INPUTS3,
    Network,
    encode,
    escape_table,
    hit_chances,
    outcome_chances,
    shot_chance,
    unpack_many,
)
from tests.backgammon.strategies import positions

GAME = ludotheque.load("backgammon", "standard")
MONEY = ludotheque.load("backgammon", "money")
MATCH = ludotheque.load("backgammon", "match")
ROOT = Path(__file__).resolve().parents[2]
ROLLS = [(h, lo) for h in range(1, 7) for lo in range(1, h + 1)]


def plain_shots(own: list[int], other: list[int]) -> float:
    """The chance that ``other`` can hit a blot of ``own`` next roll, counted roll by roll."""
    behind = [other[25] > 0] + [other[25 - a] > 0 for a in range(1, 25)]
    distances = {b - a for b in range(1, 25) if own[b] == 1 for a in range(b) if behind[a]}
    chance = 0.0
    for high, low in ROLLS:
        reach = {high, 2 * high, 3 * high, 4 * high} if high == low else {high, low, high + low}
        if reach & distances:
            chance += (1 if high == low else 2) / 36
    return chance


def plain_side(own: list[int], other: list[int]) -> list[float]:
    """One side's inputs, written out plainly from the network's description."""
    out: list[float] = []
    for p in range(1, 25):
        n = own[p]
        out += [float(n >= 1), float(n >= 2), float(n >= 3), max(n - 3, 0) / 2]
    pips = sum(i * n for i, n in enumerate(own))
    back = max((p for p in range(1, 26) if own[p]), default=0)
    run = best = 0
    for p in range(1, 25):
        run = run + 1 if own[p] >= 2 else 0
        best = max(best, run)
    home = sum(1 for p in range(1, 7) if own[p] >= 2)
    return [
        *out,
        float(own[25] >= 1),
        max(own[25] - 1, 0) / 2,
        own[0] / 15,
        pips / 200,
        plain_shots(own, other),
        back / 25,
        min(best, 6) / 6,
        home / 6,
    ]


def plain_inputs(me: list[int], them: list[int]) -> list[float]:
    back = max((p for p in range(1, 26) if me[p]), default=0)
    back_them = max((p for p in range(1, 26) if them[p]), default=0)
    pips, pips_them = (sum(i * n for i, n in enumerate(c)) for c in (me, them))
    return [
        *plain_side(me, them),
        *plain_side(them, me),
        float(back + back_them >= 25),
        (pips_them - pips) / (pips + pips_them + 1),
    ]


@settings(max_examples=150, deadline=None)
@given(positions(cap=0))
def test_inputs_are_as_described(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = state._packed("white"), state._packed("black")
    assert unpack_many([white, black]).tolist() == [B.unpack(white), B.unpack(black)]
    got = encode([white], [black])[0]
    assert got.shape == (INPUTS,)
    assert np.allclose(got, plain_inputs(B.unpack(white), B.unpack(black)))


def plain_hits(own: list[int], other: list[int]) -> tuple[float, float]:
    """The second encoding's shot chance and pip loss, roll by roll and checker by checker:
    ``other`` lands only on open points on the way and enters from its bar first."""
    open_ = [p == 0 or own[p] < 2 for p in range(25)] + [True] * 30
    sources = [a for a in range(1, 25) if other[25 - a] > 0]
    bar = other[25]
    chance = loss = 0.0
    for high, low in ROLLS:
        reach: set[int] = set()
        if high == low:
            d = high
            starts, steps = list(sources), 4
            if bar:
                if not open_[d]:
                    continue
                reach.add(d)
                starts, steps = [*sources, d], max(4 - bar, 0)
            for a in starts:
                at = a
                for _ in range(steps):
                    at += d
                    if at > 24:
                        break
                    reach.add(at)
                    if not open_[at]:
                        break
        elif bar >= 2:
            reach = {d for d in (high, low) if open_[d]}
        elif bar == 1:
            for di, dj in ((high, low), (low, high)):
                if open_[di]:
                    reach |= {di, di + dj} | {a + dj for a in sources}
        else:
            for a in sources:
                for di, dj in ((high, low), (low, high)):
                    reach.add(a + di)
                    if open_[a + di]:
                        reach.add(a + di + dj)
        hit = [b for b in reach if b <= 24 and own[b] == 1]
        if hit:
            weight = (1 if high == low else 2) / 36
            chance += weight
            loss += weight * (25 - min(hit))
    return chance, loss / 24


def plain_escapes(blocked: set[int], at: int) -> int:
    """Ordered rolls of two dice that carry a checker at ``at`` past every blocked point
    among the twelve in front of it, landing only on open points."""
    ahead = [k for k in range(1, 13) if at - k in blocked]
    if not ahead:
        return 36
    farthest = max(ahead)

    def free(k: int) -> bool:
        return k > 12 or (at - k) not in blocked

    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            paths = [[d1, d1 * 2, d1 * 3, d1 * 4]] if d1 == d2 else [[d1, d1 + d2], [d2, d1 + d2]]
            for path in paths:
                landed = []
                for k in path:
                    if not free(k):
                        break
                    landed.append(k)
                if any(k > farthest for k in landed):
                    count += 1
                    break
    return count


def plain_extra(own: list[int], other: list[int]) -> list[float]:
    """A side's further inputs in the second encoding, from their description."""
    blocked = {b for b in range(1, 25) if other[25 - b] >= 2}
    back = max((p for p in range(1, 26) if own[p]), default=0)
    theirs = max((p for p in range(1, 26) if other[p]), default=0)
    front = 25 - theirs
    contact = sum(own[p] * (p - front) for p in range(1, 26) if p > front) if theirs else 0
    made = sum(1 for q in range(1, 7) if other[q] >= 2)
    return [
        plain_hits(own, other)[1],
        plain_escapes(blocked, back) / 36 if back else 1.0,
        min(plain_escapes(blocked, p) for p in range(13, 25)) / 36,
        contact / 152,
        (made / 6) ** 2,
    ]


def plain_inputs2(me: list[int], them: list[int]) -> list[float]:
    first = plain_inputs(me, them)
    mine, theirs = first[:104], first[104:208]
    mine[100], theirs[100] = plain_hits(me, them)[0], plain_hits(them, me)[0]
    return [*mine, *plain_extra(me, them), *theirs, *plain_extra(them, me), *first[208:]]


@settings(max_examples=150, deadline=None)
@given(positions(cap=0))
def test_the_second_inputs_are_as_described(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = state._packed("white"), state._packed("black")
    got = encode([white], [black], INPUTS2)[0]
    assert got.shape == (INPUTS2,)
    assert np.allclose(got, plain_inputs2(B.unpack(white), B.unpack(black)))


def plain_third(own: list[int]) -> list[float]:
    """The third encoding's inputs of one side, as its docstring tells them."""
    anchors = [p for p in range(19, 25) if own[p] >= 2]
    return [
        sum(own[7:26]) / 15,
        sum(own[p] * (p - 6) for p in range(7, 26)) / 100,
        sum(own[1:4]) / 15,
        len(anchors) / 3,
        (25 - min(anchors)) / 6 if anchors else 0.0,
        sum(1 for p in range(1, 7) if own[p] == 1) / 6,
    ]


@settings(max_examples=150, deadline=None)
@given(positions(cap=0))
def test_the_third_inputs_are_the_second_and_six_more_a_side(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = state._packed("white"), state._packed("black")
    got = encode([white], [black], INPUTS3)[0]
    me, them = B.unpack(white), B.unpack(black)
    assert got.shape == (INPUTS3,)
    assert np.allclose(got[:INPUTS2], plain_inputs2(me, them))
    assert np.allclose(got[INPUTS2:], [*plain_third(me), *plain_third(them)])


def test_the_third_inputs_of_the_opening() -> None:
    """At the start: ten checkers outside home needing 77 pips (two on the 24, five on the 13,
    three on the 8), none deep, one anchor (the 24 point, the least advanced), no blot."""
    start = GAME.start()
    got = encode([start._packed("white")], [start._packed("black")], INPUTS3)[0]
    assert np.allclose(got[INPUTS2 : INPUTS2 + 6], [10 / 15, 0.77, 0.0, 1 / 3, 1 / 6, 0.0])


def test_a_network_reading_the_third_inputs_evaluates() -> None:
    """A network of the third encoding evaluates through numpy (the compiled core reads the
    second); widened from the shipped one with no weight on the new inputs, it answers as the
    shipped one does."""
    shipped = network.shipped()
    more = np.zeros((INPUTS3 - INPUTS2, shipped.hidden_units))
    wider = Network(
        np.concatenate([shipped.w1, more]), shipped.b1, shipped.w2, shipped.b2, shipped.middle
    )
    assert wider.inputs == INPUTS3
    state = GAME.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    before = outcome_chances([state._packed("white")], [state._packed("black")])
    network.use(wider)
    try:
        assert network.core() is None
        after = outcome_chances([state._packed("white")], [state._packed("black")])
    finally:
        network.use(None)
    assert np.allclose(before, after)


def _rows(places: dict[int, int]) -> np.ndarray:
    counts = [0] * 26
    for p, n in places.items():
        counts[p] = n
    counts[0] = 15 - sum(counts[1:])
    return np.array([counts], dtype=np.uint8)


def test_shots_that_must_land_on_open_points_or_enter_first() -> None:
    # a blot eight away: 6-2, 5-3, 4-4 and 2-2 hit it (6 rolls of 36) ...
    own, other = _rows({10: 1, 13: 2}), _rows({23: 1})
    chance, loss = hit_chances(own, other)
    assert chance[0] == pytest.approx(6 / 36) and loss[0] == pytest.approx(6 / 36 * 15 / 24)
    # ... but with our point made two pips in front of the hitter, 2-2 cannot go through
    own = _rows({10: 1, 4: 2, 13: 2})
    assert hit_chances(own, other)[0][0] == pytest.approx(5 / 36)
    # two checkers on the bar: rolls with a 3 hit a blot on our 3 point as they enter, and 1-1
    # (both enter, one goes on), but none hits our 9 point
    bar2 = _rows({25: 2})
    assert hit_chances(_rows({3: 1, 6: 2}), bar2)[0][0] == pytest.approx(12 / 36)
    assert hit_chances(_rows({9: 1, 6: 2}), bar2)[0][0] == 0
    # one on the bar: it enters, then 6-3, 5-4 (either way) or 3-3 reaches the 9 point
    bar1 = _rows({25: 1})
    assert hit_chances(_rows({9: 1}), bar1)[0][0] == pytest.approx(5 / 36)
    # a closed board keeps a checker on the bar out, and nothing else of it moves
    closed = _rows({p: 2 for p in range(1, 7)} | {12: 1})
    assert hit_chances(closed, _rows({25: 1, 20: 1}))[0][0] == 0


def test_escapes_past_a_blockade() -> None:
    table = escape_table()
    assert table[0] == 36  # nothing in front
    assert table[1 << 6] == 20  # one point six pips ahead: 18 non-doubles, 4-4 and 5-5
    assert table[0b111111 << 6] == 0  # a full prime directly in front
    assert table[0b11111 << 7] == 11  # five points in front: only rolls with a 6
    for pattern in (1 << 6, 0b1011 << 3, 0b110001010011):
        blocked = {13 - k for k in range(1, 13) if pattern >> (12 - k) & 1}
        assert table[pattern] == plain_escapes(blocked, 13)


def test_shots_count_direct_indirect_and_double_shots() -> None:
    def board(places: dict[int, int]) -> np.ndarray:
        counts = [0] * 26
        for p, n in places.items():
            counts[p] = n
        return np.array([counts], dtype=np.uint8)

    # a blot on our 10 and an opposing checker on our 4 (its 21): six away
    own, other = board({10: 1, 6: 14}), board({21: 1})
    # direct 6s (11 rolls), 5-1, 4-2 (2 each), 3-3 and 2-2 (1 each)
    assert shot_chance(own, other)[0] == pytest.approx(17 / 36)
    # a checker on the bar enters onto our 1–6: a blot on our 3 is three away
    assert shot_chance(board({3: 1, 6: 14}), board({25: 1}))[0] == pytest.approx(
        plain_shots([0, 0, 0, 1] + [0] * 22, [0] * 25 + [1])
    )
    # no blot, no shot; a blot ahead of every opposing checker is safe
    assert shot_chance(board({6: 2}), board({21: 1}))[0] == 0
    assert shot_chance(board({3: 1}), board({1: 2}))[0] == 0


# -- the bear-off database ----------------------------------------------------------------------


def test_bearoff_numbering_is_a_bijection() -> None:
    def boards_of(points: int, most: int) -> list[tuple[int, ...]]:
        if points == 0:
            return [()]
        return [(n, *rest) for n in range(most + 1) for rest in boards_of(points - 1, most - n)]

    boards = boards_of(6, 15)
    assert len(boards) == bearoff.POSITIONS == 54_264
    numbers = bearoff.index_of(np.array(boards))
    assert sorted(numbers.tolist()) == list(range(bearoff.POSITIONS))
    assert all(bearoff.index_one(c) == n for c, n in zip(boards[:500], numbers, strict=False))


def test_bearoff_distributions() -> None:
    rolls, first = bearoff.tables()
    assert rolls.shape[0] == first.shape[0] == bearoff.POSITIONS
    assert np.allclose(rolls.sum(axis=1), 1) and np.allclose(first.sum(axis=1), 1)
    # one checker on the six-point: off in one roll unless 11, 21, 31, 41 or 32
    assert bearoff.expected_rolls([0, 0, 0, 0, 0, 1]) == pytest.approx(1 + 9 / 36, abs=1e-3)
    assert bearoff.expected_rolls([2, 0, 0, 0, 0, 0]) == pytest.approx(1, abs=1e-4)
    assert bearoff.expected_rolls([4, 0, 0, 0, 0, 0]) == pytest.approx(1 + 30 / 36, abs=1e-3)
    # fifteen on the one-point: a double takes four, anything else two, so 8 rolls at most
    assert 4 < bearoff.expected_rolls([15, 0, 0, 0, 0, 0]) < 8


def test_bearoff_chances() -> None:
    def counts(home: dict[int, int]) -> list[int]:
        c = [0] * 26
        for p, n in home.items():
            c[p] = n
        c[0] = 15 - sum(home.values())
        return c

    ahead = B.pack(dict(enumerate(counts({1: 1}))))
    behind = B.pack(dict(enumerate(counts({6: 3}))))
    full = B.pack(dict(enumerate(counts({6: 5, 5: 5, 4: 5}))))
    p = outcome_chances([ahead, behind, ahead], [behind, ahead, full])
    assert p[0, 0] == pytest.approx(1.0)  # on roll with one checker on the one-point
    assert p[1, 0] == pytest.approx(1 / 36, abs=1e-4)  # only 6-6 takes three off the six-point
    # fifteen checkers still home: the side on roll finishing now wins a gammon
    assert p[2, 0] == pytest.approx(1.0) and p[2, 1] == pytest.approx(1.0)
    # the other way round: the side on roll with fifteen home loses a gammon unless it gets
    # a checker off first
    q = outcome_chances([full], [B.pack(dict(enumerate(counts({1: 2}))))])
    assert q[0, 0] == pytest.approx(0.0) and 0 < q[0, 3] <= 1


# -- cubeful equity and the match equity table --------------------------------------------------


def chances(win: float, wg: float = 0.0, lg: float = 0.0) -> np.ndarray:
    return np.array([[win, wg, 0.0, lg, 0.0]])


X = np.array([0.68])


def test_janowski_money_decisions() -> None:
    nd, dt, dp = equity.money_decision(chances(0.7), -1, X, False)
    assert nd[0] == pytest.approx(0.5813, abs=1e-3) and dt[0] == pytest.approx(0.596, abs=1e-3)
    assert dp[0] == 1.0  # a double and a take
    # at 20% (no gammons) a live-cube take is just right: double take equals double pass
    _, dt, dp = equity.money_decision(chances(0.8), -1, np.array([1.0]), False)
    assert dt[0] == pytest.approx(1.0, abs=1e-9)
    # too good: with many gammons playing on beats cashing
    nd, dt, dp = equity.money_decision(chances(0.95, wg=0.6), -1, X, False)
    assert nd[0] > dp[0] and dt[0] > dp[0]
    # the Jacoby rule: gammons do not count while the cube is in the middle
    jac = equity.money(chances(0.95, wg=0.6), -1, X, jacoby=True)
    assert jac[0] < nd[0]
    # a dead cube is the cubeless equity
    assert equity.money(chances(0.6, wg=0.2), -1, np.array([0.0]))[0] == pytest.approx(
        equity.cubeless(chances(0.6, wg=0.2))[0]
    )


def test_the_match_equity_table() -> None:
    for i in range(met.LENGTH):
        for j in range(met.LENGTH):
            assert met.PRE_CRAWFORD[i][j] + met.PRE_CRAWFORD[j][i] == pytest.approx(1, abs=2e-5)
    assert equity.mwc(1, 1, post=False) == 0.5
    assert equity.mwc(0, 3, post=False) == 1.0 and equity.mwc(3, 0, post=True) == 0.0
    assert equity.mwc(2, 1, post=True) == met.POST_CRAWFORD[1]
    assert equity.mwc(1, 2, post=False) == met.PRE_CRAWFORD[0][1]  # the Crawford game


def test_match_cube_decisions() -> None:
    ctx = equity.Context("match", 1, -1, False, (7, 7))
    nd, dt, dp = equity.match_decision(chances(0.7), ctx, X)
    assert nd[0] < dt[0] < dp[0]  # a double and a take at 7-away 7-away
    # the Crawford game: the cube is dead, no-double and double are the same game
    crawford = equity.Context("match", 1, -1, False, (3, 1), crawford=True)
    assert crawford.may_double(0) is False
    # post-Crawford the trailer doubles at once: it has nothing to lose by it
    post = equity.Context("match", 1, -1, False, (4, 1), post=True)
    nd, dt, dp = equity.match_decision(chances(0.45), post, X)
    assert dt[0] >= nd[0] - 1e-9
    # at double match point the cube is dead
    dmp = equity.Context("match", 1, -1, False, (1, 1))
    assert not dmp.may_double(0) and not dmp.may_double(1)
    # a long match plays much like money: the same decision at 25-away 25-away
    long = equity.Context("match", 1, -1, False, (25, 25))
    nd, dt, dp = equity.match_decision(chances(0.7), long, X)
    assert nd[0] < dt[0] < dp[0]


# -- the values agents see -------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(positions(cap=0))
def test_values_are_zero_sum_and_batches_agree(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = GAME.evaluate(state, "white"), GAME.evaluate(state, "black")
    assert -1 <= white <= 1
    assert white == pytest.approx(-black)
    children = [state.play(m) for m in state.legal_moves()]
    one_by_one = [GAME.evaluate(c, "white") for c in children]
    # the network reads in single precision: a batch may differ from one by one by 1e-7
    assert GAME.evaluate_many(children, "white") == pytest.approx(one_by_one, abs=1e-5)


@settings(max_examples=60, deadline=None)
@given(positions(cap=0))
def test_values_with_the_cube_are_zero_sum(text: str) -> None:
    for game, tail in ((MONEY, "cube 2w jacoby"), (MATCH, "cube 1 match 7 2-3")):
        state = game.parse_position(f"{text} {tail}")
        white, black = game.evaluate(state, "white"), game.evaluate(state, "black")
        assert -1 <= white <= 1 and white == pytest.approx(-black)


def test_finished_and_opening_states() -> None:
    assert GAME.evaluate(GAME.start(), "white") == 0.0
    won = GAME.parse_position("W[] B[6x5,5x5,4x5] - -")
    assert won.outcome() is not None
    assert GAME.evaluate(won, "white") == 1.0
    assert GAME.evaluate_many([won, GAME.start()], "black") == [-1.0, 0.0]


@pytest.mark.parametrize(
    ("text", "side", "at_least"),
    [
        # a race all but won: two checkers left against fifteen at home
        ("W[1x2] B[6x5,5x5,4x5] b -", "white", 0.9),
        # a closed board with two opposing checkers on the bar
        ("W[6x3,5x2,4x2,3x2,2x2,1x2,8x2] B[barx2,6x4,5x3,4x3,3x3] w -", "white", 0.6),
        # far ahead in the race, on roll
        ("W[6x3,5x3,4x3,3x3,2x3] B[24x2,13x5,8x3,6x5] w -", "white", 0.6),
    ],
)
def test_the_evaluation_knows_clear_positions(text: str, side: str, at_least: float) -> None:
    assert GAME.evaluate(GAME.parse_position(text), side) >= at_least


def test_a_side_far_ahead_in_the_race_cashes_or_plays_for_the_gammon() -> None:
    text = "W[6x3,5x3,4x3,3x3,2x3] B[24x2,13x5,8x3,6x5] w - cube 1"
    # with the Jacoby rule gammons count only once the cube is turned: double, and the other
    # side drops (one point: a third of the scale)
    assert MONEY.evaluate(MONEY.parse_position(f"{text} jacoby"), "white") == pytest.approx(1 / 3)
    # without it, fifteen checkers far back are a gammon waiting: too good to double, playing on
    # is worth clearly more than the point a double would cash (GNU Backgammon 2-ply: 82% to
    # win, 63% gammons, 1.38 points cubeless)
    assert MONEY.evaluate(MONEY.parse_position(text), "white") > 1 / 3 + 0.03


@pytest.mark.parametrize(
    ("roll", "play"),
    [("w3b1", "8/5 6/5"), ("w4b2", "8/4 6/4"), ("w6b1", "13/7 8/7"), ("w5b3", "8/3 6/3")],
)
def test_textbook_opening_plays(roll: str, play: str) -> None:
    state = GAME.start().play(roll)
    assert str(GreedyAgent(1).choose(state)) == play


def test_save_and_load(tmp_path: Path) -> None:
    net = Network.random(7, np.random.default_rng(1))
    net.save(tmp_path / "net.npz")
    back = Network.load(tmp_path / "net.npz")
    x = encode([B.pack({6: 5, 8: 3})], [B.pack({24: 2, 13: 5})])
    p = net.probabilities(x)
    assert back.probabilities(x) == pytest.approx(p, abs=1e-6)
    assert p.shape == (1, 5)
    # consistent chances: a backgammon is a gammon, a gammon is a win
    assert p[0, 2] <= p[0, 1] <= p[0, 0] and p[0, 4] <= p[0, 3] <= 1 - p[0, 0]


# -- the training tool (numba, training only) ---------------------------------------------------


def _training_tool() -> ModuleType:
    pytest.importorskip("numba")
    spec = importlib.util.spec_from_file_location("train_bg", ROOT / "tools/train_backgammon.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_bg"] = module
    spec.loader.exec_module(module)
    return module


def test_the_training_kernels_agree_with_the_engine_and_learn() -> None:
    """The compiled move generator and inputs match the engine's on random positions; a few
    self-play games change the weights; a match credits the right network."""
    tool = _training_tool()
    tool.check(300, seed=random.randrange(1000))
    net = Network.random(8, np.random.default_rng(2))
    before = net.w1.copy()
    w1, b1, w2, b2 = tool._weights(net)
    rolls, first, binom = tool.database()
    K = tool.K
    positions_seen, error = K.train_games(
        3, 1, 0.02, 0.7, 0.2, w1, b1, w2, b2, rolls, first, binom, K.buffers(8),
        K.ZOBRIST, K.WEIGHT, K.REACH, tool.START,
    )  # fmt: skip
    assert positions_seen > 30 and error > 0
    assert not np.allclose(before, w1)
    trained = Network(w1, b1, w2, b2)
    share, _ = tool.versus(trained, trained, 4, 1)
    assert share == pytest.approx(0.5)  # pairs of games share their dice: one each


def test_one_blas_thread_unless_asked_otherwise() -> None:
    """numpy reads its BLAS thread count when it is imported: the package sets one before any
    of its modules imports numpy (the backgammon player imports numpy before the network)."""
    import os
    import subprocess

    code = (
        "import os, sys; import ludotheque.ai.backgammon; "
        "print(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["1", "True"], done.stderr
    env["OPENBLAS_NUM_THREADS"] = "2"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["2", "True"], done.stderr
