"""Ratings on the server: a rated game that ends is rated once (a job logged as ``rated``),
both players' ratings, results and histories change, aborted games never count, and the
computer's levels are rated players too."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ludotheque.core import Outcome
from ludotheque.server.clock.table import end_event
from ludotheque.server.rating import jobs as rating_jobs
from ludotheque.server.rating import ranking
from ludotheque.server.store.db import EventRow, JobRow, RatingHistoryRow, RatingRow
from tests.server.conftest import token_of
from tests.server.people import Person, controlled, on_loop, place_client, sign_up


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def rated_game(client: TestClient, white: Person, black: Person, game: str = "general"
               ) -> tuple[str, str, str]:  # fmt: skip
    """A rated lobby game: ``white`` plays the first side. (id, first's token, second's)."""
    first = "rebels" if game == "general" else "white"
    seek = white.post("/api/lobby/seeks", {"game": game, "control": "5+3", "rated": True,
                                           "side": first})  # fmt: skip
    game_id = black.post(f"/api/lobby/seeks/{seek.json()['id']}/accept").json()["id"]
    return game_id, white.seat(game_id), black.seat(game_id)


def rated_view(player: Person, token: str) -> dict[str, Any]:
    """The player's view of their game once it is rated (their seat acts only for them)."""
    deadline = time.monotonic() + 20
    while True:
        view = player.get(f"/api/play/{token}").json()
        if view["table"]["ratings"]:
            return dict(view)
        assert time.monotonic() < deadline, "never rated"
        time.sleep(0.05)


def test_a_rated_game_is_rated_once(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id, a, b = rated_game(client, alice, bob)
    alice.post(f"/api/play/{a}/move", {"move": "a2-b2", "ply": 0}, csrf=False)
    bob.post(f"/api/play/{b}/resign", csrf=False)
    view = rated_view(alice, a)
    changes = view["table"]["ratings"]
    assert changes["rebels"]["change"] > 0 > changes["general"]["change"]
    assert changes["rebels"]["after"] == pytest.approx(1500 + changes["rebels"]["change"])
    service = client.app.state.service  # type: ignore[attr-defined]
    # the job again (a worker whose lease ran out): nothing more
    assert on_loop(client, lambda: rating_jobs.rate_job(service, game_id, lambda db: None)) == (
        "obsolete"
    )
    with service.sessions() as db:
        kinds = db.scalars(select(EventRow.kind).where(EventRow.game_id == game_id)).all()
        assert kinds.count("rated") == 1
        assert db.scalar(select(func.count()).select_from(RatingHistoryRow)) == 2
        rows = {r.user_id: r for r in db.scalars(select(RatingRow)).all()}
        assert sorted((r.wins, r.losses, r.games) for r in rows.values()) == [(0, 1, 1), (1, 0, 1)]
        job = db.scalars(select(JobRow).where(JobRow.kind == "rate")).one()
        assert job.status == "done"
    # the profiles: the rating, W/D/L, the chart, the game with its replay link
    for person, result in ((alice, "win"), (bob, "loss")):
        data = client.get(f"/api/players/{person.name}").json()
        assert data["ratings"][0]["games"] == 1
        assert data["games"][0]["result"] == result and data["games"][0]["url"] == (
            f"/archive/{game_id}"
        )
        page = client.get(f"/@/{person.name}").text
        assert 'class="rating-chart"' in page and f"/archive/{game_id}" in page
    # one game rates a player, but does not establish a rating: no leaderboard yet (issue 36;
    # test_lists checks the rule)
    board = client.get("/leaderboard?game=general&ruleset=default").text
    assert "/@/alice" not in board and "/@/bob" not in board and 'id="board-empty"' in board


def test_the_next_game_starts_from_the_new_ratings(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    _, a, b = rated_game(client, alice, bob)
    alice.post(f"/api/play/{a}/resign", csrf=False)
    after = rated_view(alice, a)["table"]["ratings"]
    assert alice.post(f"/api/play/{a}/rematch", csrf=False).json()["waiting"]  # offered
    assert not bob.post(f"/api/play/{b}/rematch", csrf=False).json()["waiting"]  # accepted
    rematch = alice.post(f"/api/play/{a}/rematch", csrf=False).json()
    view = alice.get(rematch["url"].replace("/play/", "/api/play/")).json()
    people = view["table"]["people"]
    assert view["table"]["rated"] and view["seat"] == "general"  # sides swapped
    assert people["general"]["rating"] == round(after["rebels"]["after"])
    assert people["rebels"]["name"] == "bob"


def test_aborted_games_are_not_rated(client: TestClient) -> None:
    fake = controlled(client)
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id, a, _ = rated_game(client, alice, bob)
    fake.advance(31)
    alice.post(f"/api/play/{a}/flag", csrf=False)
    view = alice.get(f"/api/play/{a}").json()
    assert view["outcome"] == {"winner": None, "reason": "aborted"}
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        assert db.scalars(select(JobRow).where(JobRow.kind == "rate")).all() == []
    assert on_loop(client, lambda: rating_jobs.rate_job(service, game_id, lambda db: None)) == (
        "obsolete"
    )
    assert client.get("/api/players/alice").json()["ratings"] == []


def test_a_draw_moves_ratings_toward_each_other(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    service = client.app.state.service  # type: ignore[attr-defined]
    users = client.app.state.users  # type: ignore[attr-defined]
    a_user = on_loop(client, lambda: users.named("alice"))
    with service.sessions() as db:
        db.add(RatingRow(user_id=a_user.id, game="general", ruleset="default", rating=1800.0,
                         deviation=80.0, volatility=0.06, games=40, wins=30, draws=0,
                         losses=10))  # fmt: skip
        db.commit()
    game_id, a, _ = rated_game(client, alice, bob)
    session = on_loop(client, lambda: service.get(game_id))

    async def draw() -> None:  # as when a flag falls and the opponent cannot win
        async with session.lock:
            stamp = service.now()
            ending = end_event(session, Outcome(None, "time-out"), stamp)
            await service.apply(session, lambda: [ending], stamp=stamp)

    on_loop(client, draw)
    changes = rated_view(alice, a)["table"]["ratings"]
    assert changes["rebels"]["change"] < 0 < changes["general"]["change"]
    profile = client.get("/api/players/alice").json()["ratings"][0]
    assert (profile["wins"], profile["draws"], profile["losses"]) == (30, 1, 10)


def test_the_computer_levels_are_rated(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    with alice.acting() as c:
        response = c.post(
            "/api/games",
            json={"game": "general", "mode": "computer", "level": "easy", "control": "5+3",
                  "rated": True},
            headers={"x-csrf-token": alice.csrf()},
        )  # fmt: skip
    assert response.status_code == 201, response.text
    token = token_of(response.json()["seats"]["both"])
    before = response.json()["game"]["table"]["people"]["general"]["rating"]
    assert before == round(ranking.COMPUTER_START[("general", "default", "easy")])
    alice.post(f"/api/play/{token}/resign", csrf=False)
    changes = rated_view(alice, token)["table"]["ratings"]
    assert changes["general"]["change"] > 0
    easy = client.get("/api/players/computer-easy").json()
    assert easy["level"] == "easy" and easy["ratings"][0]["wins"] == 1
    board = client.get("/leaderboard?game=general").text  # one game: not established yet
    assert "/@/computer-easy" not in board


def test_computer_start_ratings_follow_the_arena() -> None:
    start = ranking.COMPUTER_START
    for game, ruleset in (("general", "default"), ("backgammon", "seed"), ("defiance", "8x8")):
        easy, medium, hard = (start[(game, ruleset, lv)] for lv in ("easy", "medium", "hard"))
        assert easy < medium == 1500 < hard
    # the General: medium scored 98.3% against easy, hard 78.3% against medium
    assert start[("general", "default", "easy")] == pytest.approx(1500 - 705, abs=2)
    assert start[("general", "default", "hard")] == pytest.approx(1500 + 223, abs=2)
