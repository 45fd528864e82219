"""The lobby: open challenges, quick pairing, named challenges, the games being played, live
updates on its socket, and the database deciding every pairing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ludotheque.server import timesource
from ludotheque.server.errors import GameError
from ludotheque.server.store.db import RatingRow, SeekRow
from tests.server.people import Person, on_loop, place_client, sign_up, visitor


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def lobby(person: Person) -> dict[str, Any]:
    return dict(person.get("/api/lobby").json())


def seek(person: Person, **spec: Any) -> str:
    response = person.post("/api/lobby/seeks", {"game": "general", "control": "5+3", **spec})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_an_open_challenge_is_accepted_and_both_find_their_seat(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    seek_id = seek(alice, rated=True, side="general")
    seen = lobby(bob)["seeks"]
    assert [(s["id"], s["name"], s["rated"], s["mine"]) for s in seen] == [
        (seek_id, "alice", True, False)
    ]
    assert lobby(alice)["seeks"][0]["mine"]
    accepted = bob.post(f"/api/lobby/seeks/{seek_id}/accept")
    assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["id"]
    views = {}
    for person in (alice, bob):
        token = person.seat(game_id)
        views[person.name] = person.get(f"/api/play/{token}").json()
    assert views["alice"]["seat"] == "general" and views["bob"]["seat"] == "rebels"
    table = views["alice"]["table"]
    assert table["rated"] and table["control"]["key"] == "5+3"
    assert {s: p["name"] for s, p in table["people"].items()} == {
        "general": "alice", "rebels": "bob"
    }  # fmt: skip
    assert views["bob"]["chat"] == "players"
    # the seek is gone, and taken only once
    assert lobby(bob)["seeks"] == []
    again = sign_up(client, "carol").post(f"/api/lobby/seeks/{seek_id}/accept")
    assert again.status_code == 409 and again.json()["code"] == "seek-gone"
    # the game is listed among the games being played, to watch
    playing = lobby(visitor(client))["games"]
    assert [g["id"] for g in playing] == [game_id]
    watch = client.get(playing[0]["url"], follow_redirects=False)
    assert watch.status_code == 303 and watch.headers["location"].startswith("/watch/")
    # a stranger's /resume is the watchers' page too; the players get their seats
    assert client.get(watch.headers["location"]).status_code == 200


def test_two_accepts_at_once_make_one_game(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    seek_id = seek(alice)
    lobby_ = client.app.state.lobby  # type: ignore[attr-defined]
    users = client.app.state.users  # type: ignore[attr-defined]

    async def both() -> list[Any]:
        from ludotheque.server.accounts.identity import Who

        people = [Who(await users.named(p.name), None, None) for p in (bob, carol)]
        accepts = (lobby_.accept(w, seek_id) for w in people)
        return list(await asyncio.gather(*accepts, return_exceptions=True))

    results = on_loop(client, both)
    made = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(made) == 1 and len(refused) == 1 and refused[0].code == "seek-gone"


def test_anonymous_visitors_play_casual_games(client: TestClient) -> None:
    anna, ben = visitor(client), visitor(client)
    refused = anna.post("/api/lobby/seeks", {"game": "general", "control": "5+3", "rated": True})
    assert refused.status_code == 403
    seek_id = seek(anna, control=None)
    assert lobby(ben)["seeks"][0]["name"] is None
    game_id = ben.post(f"/api/lobby/seeks/{seek_id}/accept").json()["id"]
    sides = {client.get(f"/api/play/{p.seat(game_id)}").json()["seat"] for p in (anna, ben)}
    assert sides == {"rebels", "general"}


def test_a_rated_challenge_needs_an_account_to_accept(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    seek_id = seek(alice, rated=True)
    response = visitor(client).post(f"/api/lobby/seeks/{seek_id}/accept")
    assert response.status_code == 403 and response.json()["code"] == "sign-in-required"
    untimed = alice.post("/api/lobby/seeks", {"game": "general", "rated": True})
    assert untimed.status_code == 400


def test_every_lobby_request_needs_its_csrf_token(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    forged = alice.post("/api/lobby/seeks", {"game": "general"}, csrf=False)
    assert forged.status_code == 403 and forged.json()["code"] == "csrf"
    seek_id = seek(alice)
    bob = sign_up(client, "bob")
    assert bob.post(f"/api/lobby/seeks/{seek_id}/accept", csrf=False).status_code == 403
    assert alice.post(f"/api/lobby/seeks/{seek_id}/cancel", csrf=False).status_code == 403
    # another person's token is not yours
    with bob.acting() as c:
        wrong = c.post(f"/api/lobby/seeks/{seek_id}/accept",
                       headers={"x-csrf-token": alice.csrf()})  # fmt: skip
    assert wrong.status_code == 403


def test_a_challenge_to_a_named_player(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    missing = alice.post("/api/lobby/seeks", {"game": "general", "opponent": "nobody-here"})
    assert missing.status_code == 404
    assert alice.post("/api/lobby/seeks", {"game": "general", "opponent": "alice"}).status_code == (
        400
    )
    seek_id = seek(alice, opponent="BOB")  # names are found whatever their case
    assert lobby(carol)["seeks"] == []  # not for carol's eyes
    to_bob = lobby(bob)["seeks"]
    assert to_bob[0]["to_me"] and to_bob[0]["opponent"] == "bob"
    assert carol.post(f"/api/lobby/seeks/{seek_id}/accept").status_code == 403
    assert carol.post(f"/api/lobby/seeks/{seek_id}/decline").status_code == 409
    with timesource.using(timesource.FakeTime()) as clock:
        assert bob.post(f"/api/lobby/seeks/{seek_id}/decline").status_code == 200
        assert lobby(alice)["seeks"] == []
        # the challenger is told who declined it, for a minute; nobody else is
        assert lobby(alice)["declined"] == [{"id": seek_id, "by": "bob"}]
        assert lobby(bob)["declined"] == [] and lobby(carol)["declined"] == []
        clock.advance(61)
        assert lobby(alice)["declined"] == []
    again = seek(alice, opponent="bob")
    assert bob.post(f"/api/lobby/seeks/{again}/accept").status_code == 200


def test_quick_pairing_matches_close_ratings(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    service = client.app.state.service  # type: ignore[attr-defined]
    users = client.app.state.users  # type: ignore[attr-defined]

    def rate(name: str, rating: float) -> None:
        user = on_loop(client, lambda: users.named(name))
        with service.sessions() as db:
            db.add(RatingRow(user_id=user.id, game="general", ruleset="default", rating=rating,
                             deviation=60.0, volatility=0.06, games=30, wins=15, draws=0,
                             losses=15))  # fmt: skip
            db.commit()

    rate("alice", 2000.0)
    rate("bob", 1200.0)
    rate("carol", 1950.0)
    seek(alice, kind="quick", rated=True)
    seek(bob, kind="quick", rated=True)
    assert lobby(alice)["quick"] is not None  # 800 points apart: no game
    assert lobby(bob)["quick"]["rating"] == 1200
    seek(carol, kind="quick", rated=True)  # 50 points from alice: paired at once
    assert lobby(alice)["quick"] is None and lobby(carol)["quick"] is None
    assert lobby(bob)["quick"] is not None
    playing = lobby(bob)["games"]
    assert len(playing) == 1
    names = {p["name"] for p in playing[0]["players"].values()}
    assert names == {"alice", "carol"}
    game_id = playing[0]["id"]
    assert not playing[0]["mine"] and playing[0]["url"] == f"/live/{game_id}"  # bob watches
    for player in (alice, carol):  # its players go back to their seat
        (theirs,) = lobby(player)["games"]
        assert theirs["mine"] and theirs["url"] == f"/resume/{game_id}"
        seat = player.get(theirs["url"])
        assert seat.status_code == 200 and "/play/" in str(seat.url)
    # a new quick seek replaces the old one
    seek(bob, kind="quick", control="3+2")
    assert lobby(bob)["quick"]["control"] == "3+2"
    assert bob.post(f"/api/lobby/seeks/{lobby(bob)['quick']['id']}/cancel").status_code == 200
    assert lobby(bob)["quick"] is None


def test_the_lobby_socket_updates_live_and_starts_the_game(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    with alice.acting() as c, c.websocket_connect("/ws/lobby") as ws:
        first = ws.receive_json()
        assert first["type"] == "lobby" and first["signed_in"]
        seek_id = seek(alice)
        update_ = ws.receive_json()
        while not update_["seeks"]:
            update_ = ws.receive_json()
        assert update_["seeks"][0]["id"] == seek_id
        game_id = bob.post(f"/api/lobby/seeks/{seek_id}/accept").json()["id"]
        message = ws.receive_json()
        while message["type"] != "start":
            message = ws.receive_json()
        assert message["url"] == f"/resume/{game_id}"


def test_a_closed_lobby_page_takes_its_seeks_away(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    service = client.app.state.service  # type: ignore[attr-defined]
    with alice.acting() as c, c.websocket_connect("/ws/lobby") as ws:
        ws.receive_json()
        seek_id = seek(alice)
    for _ in range(200):
        with service.sessions() as db:
            if db.get(SeekRow, seek_id).status == "cancelled":
                break
        import time

        time.sleep(0.02)
    else:
        raise AssertionError("the seek stayed open")


def test_seeks_not_renewed_are_gone(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    seek_id = seek(alice)
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        db.execute(update(SeekRow).where(SeekRow.id == seek_id).values(seen_at=0.0))
        db.commit()
    assert lobby(alice)["seeks"] == []
    assert sign_up(client, "bob").post(f"/api/lobby/seeks/{seek_id}/accept").status_code == 409


def test_bad_seeks_are_refused(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    for spec, code in (
        ({"game": "chess"}, 400),
        ({"game": "general", "control": "3+12d"}, 400),
        # money games are in the lobby, casual only (see points.py)
        ({"game": "backgammon", "ruleset": "money", "control": "5+12d", "rated": True}, 400),
        ({"game": "backgammon", "ruleset": "nackgammon"}, 400),
        ({"game": "general", "side": "white"}, 400),
    ):
        assert alice.post("/api/lobby/seeks", spec).status_code == code, spec
    for _ in range(3):
        seek(alice)
    assert alice.post("/api/lobby/seeks", {"game": "general"}).status_code == 409
