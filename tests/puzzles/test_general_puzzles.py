"""Every shipped General puzzle re-proved by the tables the package ships (see
``ludotheque.puzzles.general.verify`` for what is checked), and the tool on a small run."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

import ludotheque
from ludotheque.puzzles import general
from ludotheque.puzzles.build import build, read_pool
from ludotheque.puzzles.model import Puzzle, read, shipped
from ludotheque.solve.retrograde import Progress

SET = shipped("general")


def test_the_set_is_shipped_and_large_enough() -> None:
    assert len(SET) >= 1000
    assert [p.id for p in SET] == [f"g{i:05d}" for i in range(1, len(SET) + 1)]
    assert len({p.position for p in SET}) == len(SET)
    sides = Counter(p.side for p in SET)
    assert sides["general"] and sides["rebels"]


def test_every_shipped_puzzle_is_proved_by_the_tables() -> None:
    problems = [problem for puzzle in SET for problem in general.verify(puzzle)]
    assert problems == []


def test_a_wrong_puzzle_is_caught() -> None:
    puzzle = next(p for p in SET if p.side == "general" and len(p.line) == 1)
    state = puzzle.state()
    other = next(str(m) for m in state.legal_moves() if str(m) != puzzle.line[0])
    bad = Puzzle.from_json({**puzzle.to_json(), "line": [other]})
    assert general.verify(bad)
    slower = Puzzle.from_json({**puzzle.to_json(), "facts": {**puzzle.facts, "wins_in": 3}})
    assert general.verify(slower)


def test_the_table_free_search_agrees_on_a_win_in_one() -> None:
    state = ludotheque.load("general").parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    assert general.forced_win(state, "general", 1)
    assert not general.forced_win(state, "rebels", 1)


@pytest.mark.parametrize("seed", [1])
def test_the_tool_makes_proved_puzzles_and_resumes(tmp_path: Path, seed: int) -> None:
    out, work = tmp_path / "out", tmp_path / "work"
    first = build("general", 20, out, work, seed + 1, Progress(io.StringIO()))
    assert first and all(general.verify(p) == [] for p in first)
    seeds, pool = read_pool(work / "general.pool.jsonl")
    assert seeds == set(range(seed + 1)) and pool
    again = build("general", 20, out, work, seed + 1, Progress(io.StringIO()))
    assert [p.to_json() for p in again] == [p.to_json() for p in read(out / "general.jsonl")]
    assert [p.position for p in again] == [p.position for p in first]
