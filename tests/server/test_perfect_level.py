"""The ``perfect`` level in the web app: offered for the General alone, on either side, playing
the solution (the rebels their shipped strategy from the first move), and rated like the other
levels (its account ``computer-perfect``, added by migration 0010, starts above ``hard``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import ludotheque
from ludotheque.server.rating import ranking
from ludotheque.server.store.db import UserRow, make_engine, migrate, session_factory
from ludotheque.solve import certificate
from tests.server.conftest import new_game, token_of, wait_for
from tests.server.people import place_client, sign_up
from tests.server.test_rating_flow import rated_view

GAME = ludotheque.load("general")


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def test_the_perfect_rebels_play_the_strategy(client: TestClient) -> None:
    strategy = certificate.shipped()
    assert strategy is not None
    created = new_game(client, mode="computer", level="perfect", side="general")
    token = token_of(created["seats"]["both"])
    state = wait_for(client, token, lambda s: s["ply"] == 1)
    start = GAME.start()
    first = strategy.move(start)
    assert first is not None and state["history"][0]["text"] == str(first)
    # the general's reply, and the strategy's answer to it
    after = start.play(first)
    reply = after.legal_moves()[0]
    response = client.post(f"/api/play/{token}/move", json={"move": str(reply), "ply": 1})
    assert response.status_code == 200, response.text
    state = wait_for(client, token, lambda s: s["ply"] == 3)
    answer = strategy.move(after.play(reply))
    assert answer is not None and state["history"][2]["text"] == str(answer)


def test_the_perfect_general_answers(client: TestClient) -> None:
    created = new_game(client, mode="computer", level="perfect", side="rebels")
    token = token_of(created["seats"]["both"])
    response = client.post(f"/api/play/{token}/move", json={"move": "a3-b3", "ply": 0})
    assert response.status_code == 200, response.text
    state = wait_for(client, token, lambda s: s["ply"] == 2)
    assert state["history"][1]["side"] == "general" and state["to_move"] == "rebels"


@pytest.mark.parametrize("game", ["backgammon", "defiance"])
def test_only_the_general_has_a_perfect_level(client: TestClient, game: str) -> None:
    response = client.post("/api/games", json={"game": game, "mode": "computer",
                                               "level": "perfect"})  # fmt: skip
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad-level" and "easy, medium, hard" in body["detail"]
    assert "perfect" not in body["detail"]


def test_the_home_page_offers_it_for_the_general(client: TestClient) -> None:
    page = client.get("/").text
    assert 'class="level-solved" data-games="general"' in page
    assert 'value="perfect"' in page
    client.cookies.set("lang", "fr")
    french = client.get("/").text
    assert "Parfait" in french


@pytest.mark.parametrize("side", ["rebels", "general"])
def test_perfect_is_rated_on_either_side(client: TestClient, side: str) -> None:
    alice = sign_up(client, "alice")
    response = alice.post("/api/games", {"game": "general", "mode": "computer",
                                         "level": "perfect", "side": side, "control": "5+3",
                                         "rated": True})  # fmt: skip
    assert response.status_code == 201, response.text
    created = response.json()
    token = token_of(created["seats"]["both"])
    machine = GAME.opponent(side)
    bot = created["game"]["table"]["people"][machine]
    assert bot["level"] == "perfect"
    start = ranking.COMPUTER_START[("general", "default", "perfect")]
    hard = ranking.COMPUTER_START[("general", "default", "hard")]
    assert bot["rating"] == round(start) and start > hard
    if side == "general":  # the computer moves first; then alice resigns
        wait_for(alice.client, token, lambda s: s["ply"] == 1)
    alice.post(f"/api/play/{token}/resign", csrf=False)
    changes = rated_view(alice, token)["table"]["ratings"]
    assert changes[machine]["change"] > 0 > changes[side]["change"]
    profile = client.get("/api/players/computer-perfect").json()
    assert profile["level"] == "perfect" and profile["ratings"][0]["wins"] == 1


def test_the_migration_adds_the_account_once(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(engine)
    migrate(engine)
    with session_factory(engine)() as db:
        rows = db.scalars(select(UserRow).where(UserRow.level == "perfect")).all()
    assert [(r.username, r.password_hash) for r in rows] == [("computer-perfect", None)]
    engine.dispose()
