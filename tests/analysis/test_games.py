"""Known best moves and known errors of each game get the right labels."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque.analysis import Analysis, analyse, best_moves
from ludotheque.analysis.labels import BLUNDER, INACCURACY, MISTAKE, VERY_BAD
from ludotheque.record import Record

# -- the General ---------------------------------------------------------------------------
# (the search's own judgement: with 10 or more rebels the solution knows the general lost
# whatever he plays, so that none of his moves is an error)

# the general can take a2 and a4 from b2; every other move leaves the pairs alone
CAPTURE = "b2 a1,a2,a4,a5,b1,b4,c5,d1,d4,e1,e2,e3,e4,e5 g 1"
# one capture takes the twelfth rebel and wins at once
WINNING_CAPTURE = "c2 a1,c3,e1,e2,a4,a5 g 1"
# d2-c2xc1c3 captures; d2-d1 walks into a corner where the rebels shut him in
TRAP = "d2 b2,b3,c1,c3,c4,c5,d3,e2,e3,e5 g 1"


def judge(game: str, start: str, move: str, ruleset: str | None = None) -> Analysis:
    """The analysis of a one-move record from ``start``."""
    record = Record.new(game, ruleset, start=start, seed="test")
    record.play(move)
    return analyse(record)


def test_the_capture_is_the_best_move_and_unmarked() -> None:
    d = judge("general", CAPTURE, "b2-a3xa2a4").decisions[0]
    assert d.best[0].move == "b2-a3xa2a4" == d.played.move
    assert d.loss == 0.0 and d.label is None and d.symbol == ""


@pytest.mark.usefixtures("search_alone")
def test_a_missed_capture_is_an_error_with_the_capture_shown() -> None:
    d = judge("general", CAPTURE, "b2-c3").decisions[0]
    assert d.label in (INACCURACY, MISTAKE, BLUNDER)
    assert d.best[0].move == "b2-a3xa2a4"
    assert d.loss == pytest.approx(d.best[0].win - d.played.win, abs=1e-4)
    assert d.loss >= 0.05


def test_a_missed_winning_capture_is_a_mistake_at_least() -> None:
    d = judge("general", WINNING_CAPTURE, "c2-c1").decisions[0]
    assert d.proof is not None and d.proof.text() == "the general wins in 1"
    assert d.best[0].win == 1.0 and "x" in d.best[0].move
    assert d.label in (MISTAKE, BLUNDER)
    assert d.played.proof is None or d.played.proof.winner != "general"


@pytest.mark.usefixtures("search_alone")
def test_walking_into_a_lost_corner_is_a_blunder() -> None:
    d = judge("general", TRAP, "d2-d1").decisions[0]
    assert d.label == BLUNDER and d.symbol == "??"
    assert d.played.win == 0.0
    assert d.played.proof is not None and d.played.proof.winner == "rebels"
    assert d.best[0].move == "d2-c2xc1c3"


# -- backgammon ----------------------------------------------------------------------------

# white bears off with 64 while black, on the bar, has a five-point board (and its 1 point):
# 6/2 6/off leaves no blot; 6/off 4/off leaves two, and a hit checker would be shut out
BEAR_OFF = "W[6x2,5x3,4x3,3x3,2x2] B[bar,6x2,5x2,4x2,3x2,2x2,1x4] w 64"


def test_the_safe_play_is_best_and_leaving_a_shot_is_very_bad() -> None:
    safe = judge("backgammon", BEAR_OFF, "6/2 6/off", "standard").decisions[0]
    assert safe.best[0].move == "6/2 6/off" and safe.label is None
    shot = judge("backgammon", BEAR_OFF, "6/off 4/off", "standard").decisions[0]
    assert shot.label == VERY_BAD and shot.symbol == "??"
    assert shot.best[0].move == "6/2 6/off"
    assert shot.played.equity is not None and shot.best[0].equity is not None
    assert shot.loss == pytest.approx(shot.best[0].equity - shot.played.equity, abs=1e-4)
    assert shot.played.plies == shot.best[0].plies == 2  # judged at the same depth


def test_the_luck_of_a_roll_averages_to_zero() -> None:
    from ludotheque.analysis import Analyst

    game = ludotheque.load("backgammon", "standard")
    analyst = Analyst(game, "quick")
    assert analyst.dice is not None
    for position in (
        "W[8x2,6x4,5x4,4x3,3x2] B[24x2,1x13] b -",
        "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -",
    ):
        state = game.parse_position(position)
        total = 0.0
        for outcome, p in state.chance_outcomes():
            side, luck = analyst.dice.luck(state, outcome)
            total += p * (luck if side == "white" else -luck)
        assert total == pytest.approx(0.0, abs=1e-6)


# -- Defiance and Domain -------------------------------------------------------------------

# the Rebel Command on P1.4; the Imperial Commands on P1.6 and P5.2
COMMANDS = (
    "5INRW1/2ISW3INE1/3IS4/RNIERSRE2RS1/RWRSERW2INERN1/INRNERN1ISERWIN1/RNEINIERNWRNWRNE1RS/"
    "1IEISISRWIN1IN r22,i24 R1.4,I1.6,I5.2 r"
)


def test_a_command_walking_into_capture_is_a_blunder() -> None:
    d = judge("defiance", COMMANDS, "a1>N;P1.4-P1.5", "8x8").decisions[0]
    assert d.label == BLUNDER
    assert d.played.win == 0.0
    assert d.played.proof is not None and d.played.proof.text() == "the imperium wins in 1"
    assert d.loss >= 0.15 and d.best[0].win >= 0.15  # the rebels' best keeps real chances


def test_the_capture_of_the_command_is_the_best_move() -> None:
    game = ludotheque.load("defiance", "8x8")
    after = game.parse_position(COMMANDS).play("a1>N;P1.4-P1.5")
    best = best_moves(after, 1)[0]
    assert best.win == 1.0
    assert best.proof is not None and best.proof.winner == "imperium" and best.proof.plies == 1
    assert after.play(best.move).outcome() == ludotheque.Outcome("imperium", "command-captured")
