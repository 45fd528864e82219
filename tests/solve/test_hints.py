"""Hints and the analysis board say what the tables know: on a position of the shipped tables,
the best moves carry the tables' proven result ("the general wins in 5"), which the search
alone, five plies deep, does not find."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.analysis import register_oracle, reset_oracle
from ludotheque.analysis.proof import make_proof
from ludotheque.games.general.rules import GeneralState
from ludotheque.server.analysis import jobs as analysis_jobs
from ludotheque.server.analysis.jobs import best_in_process, warm_oracles
from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings
from ludotheque.solve.tables import PACKAGE_FOLDER, Tables

GAME = ludotheque.load("general")
TABLES = Tables([PACKAGE_FOLDER])
# 8 rebels, the general to move: he wins in 9 plies (his capture leaves 6 rebels lost)
GENERAL_WINS = ("b4 a2,a3,b2,b3,b5,c3,c5,d4 g 1", "the general wins in 5")
# 8 rebels, the rebels to move: they win in 35 plies
REBELS_WIN = ("c2 b2,b4,c1,d1,d3,d4,e1,e3 r 0", "the rebels win in 18")


@pytest.fixture
def hint_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process as a hint process: the analysis's default oracle (the solution), loaded as
    the process starts, no engines kept."""
    monkeypatch.setattr(analysis_jobs, "_analysts", {})
    reset_oracle("general")
    warm_oracles()
    yield
    reset_oracle("general")


def hint(position: str) -> list[dict[str, Any]]:
    return best_in_process("general", "default", position, [], 3)


@pytest.mark.parametrize(("position", "text"), [GENERAL_WINS, REBELS_WIN])
def test_a_hint_says_what_the_tables_know(position: str, text: str, hint_process: None) -> None:
    state = GAME.parse_position(position)
    assert isinstance(state, GeneralState)
    verdict = TABLES.verdict(state)
    assert verdict is not None and verdict.plies is not None
    assert verdict.describe() == f"{text} moves"
    moves = hint(position)
    assert len(moves) == 3
    assert moves[0]["proof"]["text"] == text
    # every move's result is the tables' verdict on the position it leads to, counted from here
    mover = str(state.to_move)
    for move in moves:
        after = TABLES.verdict(state.play(state.parse_move(move["move"])))
        assert after is not None and after.plies is not None
        assert move["proof"] == make_proof(after.winner, after.plies + 1, mover).to_dict()
    # the tables' best move is the hint's best
    assert moves[0]["proof"]["plies"] == verdict.plies


def test_without_the_tables_the_search_does_not_know(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_jobs, "_analysts", {})
    register_oracle("general", None)
    try:
        for position, _ in (GENERAL_WINS, REBELS_WIN):
            assert hint(position)[0]["proof"] is None
    finally:
        reset_oracle("general")


def test_the_hints_and_the_board_of_the_app(tmp_path: Path) -> None:
    # the app's hint processes ask the tables too
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'hints.sqlite3'}",
                              computer_delay=0.0))  # fmt: skip
    position, text = GENERAL_WINS
    with TestClient(app) as client:
        created = client.post(
            "/api/games", json={"game": "general", "mode": "local", "position": position}
        )
        assert created.status_code == 201, created.text
        token = created.json()["seats"]["both"].rsplit("/", 1)[1]
        answer = client.post(f"/api/play/{token}/hints", json={})
        assert answer.status_code == 200, answer.text
        assert answer.json()["moves"][0]["proof"]["text"] == text
        board = client.post("/api/analysis/best", json={"game": "general",
                                                        "position": REBELS_WIN[0]})  # fmt: skip
        assert board.status_code == 200, board.text
        assert board.json()["moves"][0]["proof"]["text"] == REBELS_WIN[1]
