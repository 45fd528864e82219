"""Defiance's evaluation: features that count the Rebels' way to the four sectors, a value that
is the fitted chance, and a search that uses it to finish a won game."""

from __future__ import annotations

import math

import pytest

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import analyse
from ludotheque.arena import play_game
from ludotheque.games.defiance import evaluation
from ludotheque.games.defiance.rules import DefianceState
from ludotheque.record import Record

GAME = ludotheque.load("defiance", "8x8")

# Three sectors controlled (key points P2.2, P6.2, P2.6) and three of the four cells around
# P6.6 held: one placement in g7 wins.
THREE_AND_NEAR = "8/1RNRN2RN2/1RNRN2RNRN1/8/8/1RNRN2RNRN1/1RNRN2RNRN1/8 r25,i40 R2.2,I6.7,I7.7 r"


def state(position: str) -> DefianceState:
    found = GAME.parse_position(position)
    assert isinstance(found, DefianceState)
    return found


def test_the_start_misses_everything() -> None:
    f = evaluation.features(state(GAME.start().position()))
    assert (f["controlled"], f["need"], f["need_max"], f["need_second"]) == (0, 16, 4, 4)
    assert list(f) == list(evaluation.FEATURES)
    assert len(evaluation.WEIGHTS) == len(evaluation.FEATURES)


def test_features_count_the_way_to_the_four_sectors() -> None:
    f = evaluation.features(state(THREE_AND_NEAR))
    assert (f["controlled"], f["need"], f["need_max"], f["need_second"]) == (3, 1, 1, 0)
    # an Imperial counter inside the last block spoils it: the best clean block there is
    # another key point's, which holds fewer Rebel counters
    spoiled = THREE_AND_NEAR.replace("1RNRN2RN2", "1RNRN2RNIS1").replace("i40", "i39")
    g = evaluation.features(state(spoiled))
    assert g["controlled"] == 3 and g["need"] == g["need_max"] > 1


def test_the_value_is_the_fitted_chance() -> None:
    s = state(THREE_AND_NEAR)
    z = evaluation.BIAS + sum(
        w * x for w, x in zip(evaluation.WEIGHTS, evaluation.vector(s), strict=True)
    )
    assert evaluation.evaluate(s, "rebels") == pytest.approx(math.tanh(z / 2))
    assert evaluation.evaluate(s, "imperium") == pytest.approx(-math.tanh(z / 2))
    # three sectors and the fourth one placement away: the Rebels are far ahead of the start
    start = GAME.evaluate(GAME.start(), "rebels")
    assert GAME.evaluate(s, "rebels") > start + 0.5


def test_the_search_takes_the_fourth_sector() -> None:
    s = state(THREE_AND_NEAR)
    after = s.play(make_agent("defiance", "hard", seed=1).choose(s))
    outcome = after.outcome()
    assert outcome is not None and outcome.reason == "four-sectors"


def test_the_chart_moves_with_the_game() -> None:
    """The issue's analysis sat flat near 50% for 380 plies. Each side's win now shows: the
    Rebels' chance climbs through a game they win and sinks through one they lose."""
    seen = {}
    for index in range(2):  # hard the Rebels, then the Imperium
        result = play_game("defiance", "8x8", "hard", "easy", index, 7, True)
        assert result.record is not None
        record = Record.from_json(result.record)
        timeline = [p.win for p in analyse(record, "quick").timeline]
        before_end = timeline[-2]  # the last position before the result
        seen[result.winner] = (timeline[0], before_end, max(timeline[:-1]) - min(timeline[:-1]))
    assert set(seen) == {"rebels", "imperium"}
    start, end, spread = seen["rebels"]
    assert end > start + 0.25 and spread > 0.25
    start, end, spread = seen["imperium"]
    assert end < start - 0.05
