"""The rebels' strategy the package ships is a certificate of their win: its header says what it
proves (the start in 37 plies, the 24 openings, a best-play game), a deterministic sample of its
positions and then every one of them pass the check here (``ludotheque solve general --check``,
half a minute: see the README), a wrong entry does not, and the command says so."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ludotheque
from ludotheque.cli import main
from ludotheque.solve import certificate
from ludotheque.solve.certificate import PACKAGE_PATH, Report, Strategy, check, check_position

GAME = ludotheque.load("general")
SAMPLE = 20_000
"""Positions of the quick check: evenly spread over the keys (every rebel count, both
flights)."""


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    shipped = certificate.shipped()
    assert shipped is not None, f"{PACKAGE_PATH} is missing"
    return shipped


def test_what_it_proves(strategy: Strategy) -> None:
    header = strategy.header
    assert header["start"] == GAME.start().position()
    assert header["plies"] == 37  # their 19th move, as the full solution says
    openings = header["openings"]
    assert sorted(openings) == sorted(str(m) for m in GAME.start().legal_moves())
    assert len(openings) == 24
    # nine keep the fastest win, the fifteen others win one move later (the README)
    assert sorted(openings.values()) == [37] * 9 + [39] * 15
    assert len(header["line"]) == 37
    assert sum(header["layers"].values()) == len(strategy) == header["count"]
    assert set(header["layers"]) == {"6", "8", "10", "12", "14", "16"}
    assert PACKAGE_PATH.stat().st_size < 30 * 2**20
    summary = certificate.summary()
    assert summary is not None and summary.plies == 37 and summary.moves == 19
    assert len(summary.fastest) == 9 and len(summary.line) == 37


def test_the_whole_strategy_is_a_proof(strategy: Strategy) -> None:
    # every position (a million), every reply of the general: half a minute
    report = check(strategy)
    assert report.ok, report.problems[:5]
    assert report.positions == len(strategy) == strategy.header["count"]
    assert report.start_plies == 37
    assert report.openings == strategy.header["openings"]
    assert report.replies > report.positions


def test_a_sample_is_spread_over_every_layer(strategy: Strategy) -> None:
    report = check(strategy, sample=SAMPLE)
    assert report.ok, report.problems[:5]
    assert report.positions == SAMPLE
    assert report.start_plies == 37
    assert len(report.openings) == 24
    layers = np.bincount(
        [certificate.position_of(int(strategy.keys[i])).layer
         for i in np.linspace(0, len(strategy) - 1, SAMPLE).astype(np.int64)],
        minlength=17,
    )  # fmt: skip
    assert all(layers[k] > 0 for k in (6, 8, 10, 12, 14, 16))


def test_a_wrong_entry_is_found(strategy: Strategy) -> None:
    # the same strategy with one distance two plies short, one move changed: the check of
    # those positions says so
    i = int(np.flatnonzero(strategy.plies[: 1 << 16] > 5)[0])
    plies = strategy.plies.copy()
    plies[i] -= 2
    report = Report()
    check_position(Strategy(strategy.keys, strategy.moves, plies, strategy.header), i, report)
    assert report.problems and "plies" in report.problems[0]
    moves = strategy.moves.copy()
    moves[i] = 200
    report = Report()
    check_position(Strategy(strategy.keys, moves, strategy.plies, strategy.header), i, report)
    assert report.problems and "move 200" in report.problems[0]


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "general", "--check", "--sample", "2000"]) == 0
    out = capsys.readouterr().out
    assert "a sample of 2,000" in out
    assert re.search(r"the start: the rebels win in at most 37 plies", out)
    assert out.count("the rebels win in at most") == 25
