"""The shipped Defiance puzzles re-proved by search over every legal turn (and, for an
escape, every Imperium reply to each): every escape and sector puzzle, and a spread sample of
the Command hunts (each takes a search of a few thousand turns)."""

from __future__ import annotations

from collections import Counter

import pytest

import ludotheque
from ludotheque.puzzles import defiance
from ludotheque.puzzles.model import Puzzle, shipped

SET = shipped("defiance")
HUNTS = [p for p in SET if p.facts["kind"] == "capture"]
SAMPLE = [p for p in SET if p.facts["kind"] != "capture"] + HUNTS[:: max(1, len(HUNTS) // 120)]


def test_the_set_is_shipped() -> None:
    assert len(SET) >= 500
    assert [p.id for p in SET] == [f"d{i:05d}" for i in range(1, len(SET) + 1)]
    assert len({p.position for p in SET}) == len(SET)
    assert set(Counter(p.ruleset for p in SET)) == {"8x8", "10x10"}


@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p.id for p in SAMPLE])
def test_a_puzzle_is_proved_by_search(puzzle: Puzzle) -> None:
    assert defiance.verify(puzzle) == []


def test_a_wrong_answer_is_caught() -> None:
    puzzle = next(p for p in HUNTS if p.accepted)
    state = puzzle.state()
    wrong = next(str(m) for m in state.legal_moves() if not puzzle.accepts(0, str(m)))
    assert defiance.verify(Puzzle.from_json({**puzzle.to_json(), "line": [wrong]}))
    assert defiance.verify(Puzzle.from_json({**puzzle.to_json(), "accepted": []}))


def test_a_command_move_with_any_action_is_one_answer() -> None:
    legal = ["a1@N;P1-P2", "b1@N;P1-P2", "a1@N", "a1@N;P1-P3", "b1@N;P1-P3"]
    assert defiance.answers(["a1@N;P1-P2", "b1@N;P1-P2"], legal) == ["*;P1-P2"]
    assert defiance.answers(["a1@N;P1-P3"], legal) == ["a1@N;P1-P3"]
    puzzle = Puzzle("d1", "defiance", "8x8", "", "imperium", ("a1@N;P1-P2",), (), 1500.0,
                    "search", (("*;P1-P2",),))  # fmt: skip
    assert puzzle.accepts(0, "b1@N;P1-P2")
    assert not puzzle.accepts(0, "b1@N;P1-P3") and not puzzle.accepts(0, "b1@N")


def test_the_start_is_no_puzzle() -> None:
    for ruleset in ("8x8", "10x10"):
        state = ludotheque.load("defiance", ruleset).start()
        assert defiance.examine(state) is None
