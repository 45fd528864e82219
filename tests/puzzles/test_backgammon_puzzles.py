"""The shipped backgammon puzzles re-checked by search: every one at the depth that found it
(one ply for plays, one roll ahead for the cube), a spread sample at the deeper depth that
confirmed it (two plies on every play; two rolls ahead)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon import network
from ludotheque.games.backgammon.rules import BackgammonState
from ludotheque.puzzles import backgammon
from ludotheque.puzzles.model import Puzzle, shipped

SET = shipped("backgammon")
SAMPLE = SET[:: max(1, len(SET) // 24)]


def test_the_set_is_shipped_and_large_enough() -> None:
    assert len(SET) >= 1000
    assert [p.id for p in SET] == [f"b{i:05d}" for i in range(1, len(SET) + 1)]
    assert len({p.position for p in SET}) == len(SET)
    themes = Counter(t for p in SET for t in p.themes)
    for theme in ("cube", "hit", "blitz", "prime", "bear-off", "anchor", "back game", "race"):
        assert themes[theme] > 0, theme
    answers = Counter(p.line[0] for p in SET if "cube" in p.themes)
    assert set(answers) == {"double", "no double", "take", "drop"}


def test_every_puzzle_at_the_shallow_depth() -> None:
    problems = [problem for p in SET for problem in backgammon.verify(p, deep=False)]
    assert problems == []


@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p.id for p in SAMPLE])
def test_a_sample_at_the_deeper_depth(puzzle: Puzzle) -> None:
    assert backgammon.verify(puzzle, deep=True) == []
    assert puzzle.facts["margin"] >= backgammon.MARGIN


def test_a_wrong_answer_is_caught() -> None:
    play = next(p for p in SET if "cube" not in p.themes)
    state = play.state()
    assert isinstance(state, BackgammonState)
    other = next(str(m) for m in state.legal_moves() if str(m) != play.line[0])
    assert backgammon.verify(Puzzle.from_json({**play.to_json(), "line": [other]}), False)
    cube = next(p for p in SET if p.line == ("take",))
    assert backgammon.verify(Puzzle.from_json({**cube.to_json(), "line": ["drop"]}), False)


def test_features_name_simple_positions() -> None:
    home = B.pack({1: 5, 2: 5, 3: 5})
    far = B.pack({1: 15})
    assert "bear-off" in backgammon.features(home, far, None)
    racing = B.pack({8: 5, 9: 10})
    assert "race" in backgammon.features(racing, far, None)


def test_the_puzzles_keep_their_network_whatever_the_engine_reads() -> None:
    """The set is checked against the network that found it: another network in use (a
    stronger one shipped later, or a bench's) changes neither the verdicts nor the process's
    choice after the check."""
    stranger = network.Network.random(8, np.random.default_rng(3), network.INPUTS2)
    puzzle = SAMPLE[1]
    network.use(stranger)
    try:
        assert backgammon.verify(puzzle, deep=False) == []
        assert network.current() is stranger
        with network.using(backgammon.puzzles_network()):
            assert network.current() is backgammon.puzzles_network()
        assert network.current() is stranger
    finally:
        network.use(None)
    assert network.current() is network.shipped()


def test_the_puzzles_network_is_read_in_the_check() -> None:
    """With another network pinned, a recorded margin no longer holds: the pin is what makes
    the check pass, not a check that cannot fail."""
    stranger = network.Network.random(8, np.random.default_rng(3), network.INPUTS2)
    puzzle = next(p for p in SET if "cube" not in p.themes)
    with network.using(stranger):
        state = puzzle.state()
        assert isinstance(state, BackgammonState)
        found = backgammon.check_play(state, deep=False)
    assert found is None or abs(found.shallow - puzzle.facts["shallow_margin"]) > 1e-3
