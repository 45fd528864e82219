"""Ratings of backgammon for points: a rated match is rated once, by its result, when its last
game ends (its earlier games are not rated); money games are casual (a rated one is refused)."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.rating import jobs as rating_jobs
from tests.server.people import on_loop, place_client, sign_up


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def view(client: TestClient, token: str) -> dict[str, Any]:
    return dict(client.get(f"/api/play/{token}").json())


def test_a_rated_match_is_rated_by_its_result(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    # a match in the lobby (seven points) with a clock
    spec = {"game": "backgammon", "ruleset": "match", "control": "5+12d", "rated": True}
    seek = alice.post("/api/lobby/seeks", {**spec, "side": "white"})
    assert seek.status_code == 201, seek.text
    game_id = bob.post(f"/api/lobby/seeks/{seek.json()['id']}/accept").json()["id"]
    a, b = alice.seat(game_id), bob.seat(game_id)
    service = client.app.state.service  # type: ignore[attr-defined]
    scores = []
    for _ in range(3):
        state = view(client, a)
        assert state["table"]["rated"] and state["ruleset"] == "match"
        scores.append(state["extra"]["match"]["score"])
        # black gives the game up at its start: a backgammon is still possible (3 points)
        assert state["extra"]["cube"]["at_stake"]["black"] == 3
        assert bob.post(f"/api/play/{b}/resign").status_code == 200
        state = view(client, a)
        assert state["outcome"] == {"winner": "white", "reason": "resignation"}
        assert state["game_extra"]["points"] == 3
        if state["game_extra"]["next"] == "next":
            # not rated: the match goes on (the rating job has nothing to do)
            outcome = on_loop(
                client, partial(rating_jobs.rate_job, service, state["id"], lambda db: None)
            )
            assert outcome == "obsolete"
            assert not view(client, a)["table"]["ratings"]
            assert alice.post(f"/api/play/{a}/rematch").json()["waiting"]  # offered
            b = bob.post(f"/api/play/{b}/rematch").json()["url"].rsplit("/", 1)[1]  # accepted
            a = alice.post(f"/api/play/{a}/rematch").json()["url"].rsplit("/", 1)[1]
        else:
            break
    assert scores == [{"white": 0, "black": 0}, {"white": 3, "black": 0},
                      {"white": 6, "black": 0}]  # fmt: skip
    assert state["game_extra"]["match_winner"] == "white"
    deadline = time.monotonic() + 20
    while not (state := view(client, a))["table"]["ratings"]:
        assert time.monotonic() < deadline, "the match was never rated"
        time.sleep(0.05)
    changes = state["table"]["ratings"]
    assert changes["white"]["change"] > 0 > changes["black"]["change"]
    profile = client.get("/api/players/alice").json()
    assert [(r["ruleset"], r["games"]) for r in profile["ratings"]] == [("match", 1)]


def test_money_games_are_casual(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    seek = alice.post("/api/lobby/seeks", {"game": "backgammon", "ruleset": "money",
                                           "control": "5+12d", "rated": True})  # fmt: skip
    assert seek.status_code == 400 and "casual" in seek.json()["detail"]
    casual = alice.post("/api/lobby/seeks", {"game": "backgammon", "ruleset": "money",
                                             "control": "5+12d"})  # fmt: skip
    assert casual.status_code == 201
    spec = {"game": "backgammon", "ruleset": "money", "control": "5+12d", "rated": True}
    rated = alice.post("/api/games", {**spec, "mode": "computer"})
    assert rated.status_code == 400 and rated.json()["code"] == "bad-rated"
