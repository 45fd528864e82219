"""The computer's cube decisions, answers to resignations and resignations, on positions whose
chances the bear-off database knows exactly (so that they hold whatever network ships)."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque.ai import Budget
from ludotheque.ai.backgammon import BackgammonAgent
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE

MONEY = ludotheque.load("backgammon", "money")
MATCH = ludotheque.load("backgammon", "match")
START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5]"


def hard() -> BackgammonAgent:
    return BackgammonAgent(1, Budget(iterations=2))


@pytest.mark.parametrize(
    ("white", "black", "double", "take"),
    [
        ("5x2,4", "6x2,5", True, False),  # on roll and far ahead: double, and it is a drop
        ("6,5,4", "6,5,3", True, True),  # a little ahead: double and take
        ("6x2", "1x2", False, True),  # behind: no double
    ],
)
def test_money_cube_decisions(white: str, black: str, double: bool, take: bool) -> None:
    state = MONEY.parse_position(f"W[{white}] B[{black}] w - cube 1")
    nd, dt, dp = hard().cube_equities(state)
    assert (min(dt, dp) > nd) == double
    assert str(hard().choose(state)) == ("double" if double else "roll")
    assert str(hard().choose(state.play("double"))) == ("take" if take else "drop")


def test_the_trailer_doubles_at_once_after_the_crawford_game() -> None:
    post = MATCH.parse_position(f"{START} w - cube 1 match 5 2-4")
    assert str(hard().choose(post)) == "double"
    assert str(hard().choose(MATCH.parse_position(f"{START} w - cube 1 match 7 0-0"))) == "roll"


def test_answers_to_resignations() -> None:
    # white is ahead and offers a single game: black gladly accepts
    ahead = MONEY.parse_position("W[5x2,4] B[6x2,5] w 21 cube 1").play("resign single")
    assert str(hard().choose(ahead)) == "accept"
    # fifteen checkers home against one on the one-point: a gammon is coming, a single is
    # not enough
    lost = MONEY.parse_position("W[6x5,5x5,4x5] B[1] w 21 cube 1").play("resign single")
    assert str(hard().choose(lost)) == "decline"
    assert str(hard().choose(lost.play("decline").play("resign gammon"))) == "accept"


def test_resigns_a_race_lost_whatever_the_dice() -> None:
    # black has one checker on its one-point; white, on roll before its roll, cannot finish
    # five checkers in one roll: lost, with no gammon possible (ten are off)
    state = MONEY.parse_position("W[6x4,5] B[1] w - cube 2w")
    assert state.to_move == "white"  # white owns the cube: a decision before its roll
    assert str(hard().choose(state)) == "resign single"


def test_easy_makes_cube_errors_hard_does_not() -> None:
    """On a borderline double, easy's noisy judgement answers both ways; hard always the same."""
    state = MONEY.parse_position("W[6,5,4] B[6,5,3] w - cube 1")
    easy = {str(make_agent("backgammon", "easy", seed=s).choose(state)) for s in range(40)}
    assert easy == {"double", "roll"}
    steady = {str(make_agent("backgammon", "hard", seed=s).choose(state)) for s in range(5)}
    assert steady == {"double"}


def test_levels_play_whole_games_for_points() -> None:
    rng = random.Random(3)
    for start in (MONEY.start(), MATCH.start(length=3)):
        players = {"white": make_agent("backgammon", "medium", seed=1),
                   "black": make_agent("backgammon", "easy", seed=2)}  # fmt: skip
        state = start
        while state.outcome() is None:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices([o for o, _ in outcomes],
                                               [p for _, p in outcomes])[0])  # fmt: skip
            else:
                state = state.play(players[str(state.to_move)].choose(state))
        points = state.points()
        assert points is not None and points >= 1


def deep_hard() -> BackgammonAgent:
    return BackgammonAgent(1, Budget(iterations=2), cube_plies=2)


@pytest.mark.parametrize(
    ("white", "black", "double", "take"),
    [
        ("5x2,4", "6x2,5", True, False),
        ("6,5,4", "6,5,3", True, True),
        ("6x2", "1x2", False, True),
    ],
)
def test_two_rolls_ahead_decides_the_exact_races_alike(
    white: str, black: str, double: bool, take: bool
) -> None:
    state = MONEY.parse_position(f"W[{white}] B[{black}] w - cube 1")
    nd, dt, dp = deep_hard().cube_equities(state)
    assert (min(dt, dp) > nd) == double and (dp >= dt) == take


@pytest.mark.parametrize(
    "position",
    [
        "W[24x2,13x5,8x3,6x5] B[24,13x4,9,8x3,6x4,5,4] w - cube 1 jacoby",
        "W[24,23,13x4,11,9,8x3,6x2,5,3] B[24,23x3,13x2,8x3,7x2,6x4] b - cube 2b jacoby",
        "W[23,20x3,16,13x3,8x2,7,6x2,3x2] B[24,20x2,13x2,8x2,7,6x4,4x2,1] b - cube 2b jacoby",
        "W[22x2,13x3,8,6x2,4,3x2,2x2,1x2] B[20,13x4,8x4,6x3,5,4,1] w - cube 2w jacoby",
    ],
)
def test_two_rolls_ahead_agrees_with_the_puzzles_slower_check(position: str) -> None:
    """The search's two-roll cube values, computed in batches, against the puzzles' checker
    (money play), which walks the rolls one state at a time and chooses each play among five
    by two plies: they may differ only where that wider choice finds a better play."""
    from ludotheque.puzzles.backgammon import cube_equities

    state = MONEY.parse_position(position)
    nd, dt, dp = deep_hard().cube_equities(state)
    slow = [v * state.cube_value for v in cube_equities(state, True)]
    assert nd == pytest.approx(slow[0], abs=0.03 * state.cube_value)
    assert dt == pytest.approx(slow[1], abs=0.06 * state.cube_value)
    assert dp == pytest.approx(slow[2])


def test_a_sure_win_under_the_jacoby_rule_is_cashed() -> None:
    """A gammon that cannot be saved does not count with the cube in the middle (Jacoby): not
    doubling and doubling out are worth the same single point, and the tie doubles."""
    state = MONEY.parse_position("W[21x5,20x5,19x5] B[3x5,2x5,1x5] b - cube 1 jacoby")
    nd, dt, dp = deep_hard().cube_equities(state)
    assert nd == pytest.approx(dp) and dt > dp
    assert str(deep_hard().choose(state)) == "double"
    assert str(make_agent("backgammon", "hard", seed=1).choose(state)) == "double"
