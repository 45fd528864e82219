"""The JSON API: creating games, moves, refusals of every kind, undo, resign, rematch, records,
the archive, and a restart that loses nothing."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from ludotheque.record import Record
from tests.server.conftest import new_game, token_of, wait_for


def move(client: TestClient, token: str, text: str, ply: int) -> tuple[int, dict]:  # type: ignore[type-arg]
    response = client.post(f"/api/play/{token}/move", json={"move": text, "ply": ply})
    return response.status_code, response.json()


def test_create_local_game(client: TestClient) -> None:
    created = new_game(client, mode="local")
    assert set(created["seats"]) == {"both"} and created["watch"].startswith("/watch/")
    state = client.get(f"/api/play/{token_of(created['seats']['both'])}").json()
    assert state["to_move"] == "rebels" and state["ply"] == 0 and state["seat"] == "both"
    assert "a2-b2" in state["legal"] and state["can_move"]
    assert state["position"] == "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"


def test_create_refusals(client: TestClient) -> None:
    cases = [
        ({"game": "chess"}, 404, "unknown game"),
        ({"game": "general", "ruleset": "fast"}, 400, "unknown ruleset"),
        ({"game": "general", "mode": "online"}, 400, "malformed request"),
        ({"game": "general", "mode": "computer", "level": "genius"}, 400, "level"),
        ({"game": "general", "mode": "computer", "side": "white"}, 400, "sides"),
        ({"game": "general", "position": "zz"}, 422, "invalid position"),
        (
            {"game": "general", "mode": "friend", "position": "c3 a1,a2,e1,e2,e4,e5 r 1"},
            400,
            "one screen",
        ),
        ({}, 400, "game"),
    ]
    for body, status, words in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.json())
    french = client.post(
        "/api/games", json={"game": "general", "ruleset": "fast"}, headers={"accept-language": "fr"}
    )  # the engine's own refusal, in the reader's language
    assert french.status_code == 400
    detail = french.json()["detail"].replace("\u202f", " ").replace("\u00a0", " ")
    assert detail == "variante inconnue « fast » pour « general » ; ses variantes sont : default"


def test_malformed_json(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "malformed" in response.json()["detail"]
    token = token_of(new_game(client)["seats"]["both"])
    response = client.post(
        f"/api/play/{token}/move", content=b"[1,", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    response = client.post(f"/api/play/{token}/move", json={"move": "a2-b2"})
    assert response.status_code == 400 and "ply" in response.json()["detail"]
    response = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": "zero"})
    assert response.status_code == 400


def test_bad_tokens(client: TestClient) -> None:
    for path in ("/api/play/nope", "/api/play/" + "x" * 300):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["code"] == "bad-token"
    assert client.post("/api/play/nope/move", json={"move": "a2-b2", "ply": 0}).status_code == 404
    assert client.get("/play/nope").status_code == 404


def test_moves_illegal_stale_duplicate(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    status, state = move(client, token, "a2-b2", 0)
    assert status == 200 and state["ply"] == 1 and state["to_move"] == "general"
    status, body = move(client, token, "a2-b2", 0)  # replayed: refused, nothing played
    assert status == 409 and body["code"] == "stale"
    status, body = move(client, token, "c3-c5", 1)
    assert status == 422 and "not next to each other" in body["detail"]
    status, body = move(client, token, "c3-b2", 0)
    assert status == 409 and body["code"] == "stale"
    status, body = move(client, token, "x" * 500, 1)
    assert status == 400
    state = client.get(f"/api/play/{token}").json()
    assert state["ply"] == 1 and [h["text"] for h in state["history"]] == ["a2-b2"]


def test_friend_game_seats_and_turns(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    watch = token_of(created["watch"])
    status, body = move(client, general, "c3-b2xa3c1", 0)
    assert status == 409 and body["code"] == "not-your-turn"
    status, body = move(client, watch, "a2-b2", 0)
    assert status == 403
    assert move(client, rebels, "a2-b2", 0)[0] == 200
    assert move(client, general, "c3-b4xa3c5", 1)[0] == 200
    assert client.get(f"/api/play/{watch}").json()["ply"] == 2
    assert client.get(f"/api/play/{watch}").json()["seat"] == "watch"
    assert client.post(f"/api/play/{rebels}/undo").json()["code"] == "ask"


def test_against_the_computer(client: TestClient) -> None:
    created = new_game(client, mode="computer", level="easy", side="rebels")
    token = token_of(created["seats"]["both"])
    assert move(client, token, "a2-b2", 0)[0] == 200
    state = wait_for(client, token, lambda s: s["ply"] == 2)
    assert state["to_move"] == "rebels" and state["history"][1]["side"] == "general"
    status, _body = move(client, token, "c3-c4", 2)
    assert status in (409, 422)  # not the general's turn: the human has the rebels


def test_computer_moves_first_when_human_takes_second_side(client: TestClient) -> None:
    created = new_game(client, mode="computer", level="easy", side="general")
    token = token_of(created["seats"]["both"])
    state = wait_for(client, token, lambda s: s["ply"] == 1)
    assert state["to_move"] == "general" and state["can_move"]


def test_undo_local_and_against_the_computer(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    move(client, token, "a2-b2", 0)
    move(client, token, "c3-b4xa3c5", 1)
    state = client.post(f"/api/play/{token}/undo").json()
    assert state["ply"] == 1 and state["to_move"] == "general"
    state = client.post(f"/api/play/{token}/undo").json()
    assert state["ply"] == 0
    response = client.post(f"/api/play/{token}/undo")
    assert response.status_code == 409 and response.json()["code"] == "nothing-to-undo"

    computer = token_of(new_game(client, mode="computer", level="easy")["seats"]["both"])
    move(client, computer, "a2-b2", 0)
    wait_for(client, computer, lambda s: s["ply"] == 2)
    state = client.post(f"/api/play/{computer}/undo").json()
    assert state["ply"] == 0 and state["to_move"] == "rebels"


def test_undo_by_request_between_friends(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    move(client, rebels, "a2-b2", 0)
    move(client, general, "c3-b4xa3c5", 1)
    assert client.post(f"/api/play/{general}/undo-answer", json={"accept": True}).status_code == 409
    state = client.post(f"/api/play/{general}/undo-request").json()
    assert state["undo"]["request"] == "general"
    refused = client.post(f"/api/play/{general}/undo-answer", json={"accept": True})
    assert refused.status_code == 403  # the asker does not answer
    state = client.post(f"/api/play/{rebels}/undo-answer", json={"accept": False}).json()
    assert state["ply"] == 2 and state["undo"]["request"] is None
    client.post(f"/api/play/{general}/undo-request")
    state = client.post(f"/api/play/{rebels}/undo-answer", json={"accept": True}).json()
    assert state["ply"] == 1 and state["to_move"] == "general"
    bad = client.post(f"/api/play/{rebels}/undo-answer", json={"accept": "maybe"})
    assert bad.status_code == 400


def test_resign_rematch_archive_and_records(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    move(client, rebels, "a2-b2", 0)
    assert client.post(f"/api/play/{rebels}/rematch").status_code == 409  # not over yet
    state = client.post(f"/api/play/{general}/resign").json()
    assert state["outcome"] == {"winner": "rebels", "reason": "resignation"}
    assert client.post(f"/api/play/{general}/resign").status_code == 409
    assert move(client, rebels, "b2-a2", 1)[1]["code"] == "game-over"
    # the archive lists it; its record is public now
    archive = client.get("/api/archive").json()
    assert archive[0]["id"] == state["id"] and archive[0]["reason"] == "resignation"
    record = Record.from_json(client.get(f"/api/games/{state['id']}/record").text)
    assert record.moves == ["a2-b2"] and record.outcome() is not None
    assert client.get(f"/api/games/{state['id']}").json()["outcome"]["reason"] == "resignation"
    assert "/archive/" in client.get("/archive").text
    assert client.get(f"/archive/{state['id']}").status_code == 200
    # rematch, sides swapped: an offer first (it waits), made when the other accepts; each
    # player's link is derived from their own
    offered = client.post(f"/api/play/{rebels}/rematch").json()
    assert offered == {"id": None, "url": None, "waiting": True}
    assert client.post(f"/api/play/{rebels}/rematch").json() == offered  # asked again
    other = client.post(f"/api/play/{general}/rematch").json()
    first = client.post(f"/api/play/{rebels}/rematch").json()
    again = client.post(f"/api/play/{rebels}/rematch").json()
    assert first == again and not first["waiting"]
    assert other["id"] == first["id"]
    assert client.get(f"/api/play/{token_of(first['url'])}").json()["seat"] == "general"
    assert client.get(f"/api/play/{token_of(other['url'])}").json()["seat"] == "rebels"


def test_unfinished_games_are_not_public(client: TestClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    assert client.get(f"/api/games/{game_id}/record").status_code == 403
    assert client.get("/api/games/nope/record").status_code == 404
    token = token_of(created["seats"]["both"])
    text = client.get(f"/api/play/{token}/record").text
    assert Record.from_json(text).game == "general"


def test_a_restart_loses_nothing(make_client: Callable[[], TestClient]) -> None:
    first = make_client()
    token = token_of(new_game(first)["seats"]["both"])
    move(first, token, "a2-b2", 0)
    move(first, token, "c3-b4xa3c5", 1)
    first.post(f"/api/play/{token}/undo")
    move(first, token, "c3-c2", 1)
    before = first.get(f"/api/play/{token}").json()
    first.__exit__(None, None, None)
    second = make_client()
    after = second.get(f"/api/play/{token}").json()
    assert after["position"] == before["position"] and after["history"] == before["history"]
    assert move(second, token, "b2-b3", after["ply"])[0] == 200


def test_game_from_a_position(client: TestClient) -> None:
    created = new_game(client, position="c2 A1,c3,e1,e2,a4,a5 g 1")
    token = token_of(created["seats"]["both"])
    state = client.get(f"/api/play/{token}").json()
    assert state["position"] == "c2 a1,a4,a5,c3,e1,e2 g 1" and state["to_move"] == "general"
    state = move(client, token, "c2-b2", 0)[1]
    assert state["outcome"] == {"winner": "general", "reason": "twelve-captured"}
