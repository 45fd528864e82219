"""The server under hostile or careless clients: each case was found by fuzzing the running
server and answered 500, a dropped connection or a leak before; limits; security headers."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ludotheque.server import timesource
from ludotheque.server.timesource import FakeTime
from tests.server.conftest import new_game, token_of

TURKISH = "3İE1IE2/8/8/8/8/4ISW3/RS6RE/7RNE r37,i37 R5.4,I6.6,I6.7 r"


@pytest.fixture
def app_with(make_client: Callable[..., TestClient]) -> Callable[..., TestClient]:
    """A client of an app with some settings changed."""
    return make_client


def receive(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


def test_the_form_refuses_an_unknown_mode_and_a_long_position(client: TestClient) -> None:
    response = client.post("/new", data={"game": "general", "mode": "zz"})
    assert response.status_code == 400 and "mode" in response.text
    response = client.post("/new", data={"game": "general", "position": "c" * 2500})
    assert response.status_code == 400 and "position" in response.text
    response = client.post("/new", data={"game": "general", "level": "x" * 100})
    assert response.status_code == 400


def test_engine_errors_are_4xx_with_the_engines_message(client: TestClient) -> None:
    response = client.post(
        "/api/games", json={"game": "defiance", "ruleset": "8x8", "position": TURKISH}
    )
    assert response.status_code == 422 and "cannot read" in response.json()["detail"]
    huge = "W[" + "9" * 1900 + "] B[] w -"
    response = client.post("/api/games", json={"game": "backgammon", "position": huge})
    assert response.status_code == 422 and "too many digits" in response.json()["detail"]
    opening = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
    created = new_game(client, game="backgammon", position=opening)
    token = token_of(created["seats"]["both"])
    response = client.post(f"/api/play/{token}/move", json={"move": "6/" + "9" * 90, "ply": 0})
    assert response.status_code == 422 and "too many digits" in response.json()["detail"]
    response = client.post(f"/api/play/{token}/move", json={"move": "6/" + "9" * 390, "ply": 0})
    assert response.status_code == 422 and "far too long" in response.json()["detail"]


def test_deep_nesting_gets_an_answer_and_the_socket_stays(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    with client.websocket_connect(f"/ws/{token}") as ws:
        receive(ws, "state")
        ws.send_text("[" * 100_000)
        error = receive(ws, "error")
        assert error["code"] in ("too-large", "bad-request")
        ws.send_text("[" * 2000)  # under the size limit, over the nesting limit
        assert "nested" in receive(ws, "error")["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    response = client.post(
        f"/api/play/{token}/move", content=b"[" * 5000, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "nested" in response.json()["detail"]


def test_a_won_game_is_final_and_its_dice_stay_unpredictable(client: TestClient) -> None:
    created = new_game(
        client, game="backgammon", position="W[1x1] B[6x15] w 61", ruleset="standard"
    )
    token = token_of(created["seats"]["both"])
    state = client.post(f"/api/play/{token}/move", json={"move": "1/off", "ply": 0}).json()
    assert state["outcome"]["winner"] == "white" and state["dice"]["seed"] is not None
    response = client.post(f"/api/play/{token}/undo")
    assert response.status_code == 409 and response.json()["code"] == "game-over"
    again = client.get(f"/api/play/{token}").json()
    assert again["outcome"]["winner"] == "white" and again["ply"] == 1
    assert created["id"] in {g["id"] for g in client.get("/api/archive").json()}


def test_a_resigned_or_finished_friend_game_refuses_undo_requests(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    client.post(f"/api/play/{rebels}/move", json={"move": "a2-b2", "ply": 0})
    client.post(f"/api/play/{rebels}/resign")
    assert client.post(f"/api/play/{rebels}/undo-request").status_code == 409


def test_unknown_links_are_404(client: TestClient) -> None:
    assert client.get("/play/nothing-here").status_code == 404
    assert client.get("/api/play/nothing-here").status_code == 404
    assert client.get("/api/games/nothing-here").status_code == 404


def test_every_page_sends_security_headers_and_no_inline_script(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    pages = ["/", "/archive", "/rules/general", "/dice", created["seats"]["rebels"],
             created["watch"], "/play/nope"]  # fmt: skip
    for path in pages:
        response = client.get(path)
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-content-type-options"] == "nosniff"
        for tag in re.findall(r"<script[^>]*>", response.text):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
    links = client.post("/new", data={"game": "general", "mode": "friend"})
    for tag in re.findall(r"<script[^>]*>", links.text):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert "content-security-policy" in client.get("/api/archive").headers


def test_websockets_from_another_site_are_refused(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    with client.websocket_connect(f"/ws/{token}", headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["code"] == "bad-origin"
    with client.websocket_connect(f"/ws/{token}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_bodies_and_messages_have_a_size_limit(app_with: Callable[..., TestClient]) -> None:
    client = app_with(max_body=1000, max_message=500)
    response = client.post("/api/games", content=b"{" + b" " * 2000 + b"}",
                           headers={"content-type": "application/json"})  # fmt: skip
    assert response.status_code == 413 and "too large" in response.json()["detail"]
    token = token_of(new_game(client)["seats"]["both"])
    with client.websocket_connect(f"/ws/{token}") as ws:
        receive(ws, "state")
        ws.send_json({"type": "move", "move": "a2-b2", "ply": 0, "pad": "x" * 600})
        assert receive(ws, "error")["code"] == "too-large"
        ws.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        assert receive(ws, "state")["game"]["ply"] == 1


def test_creation_and_moves_are_rate_limited(app_with: Callable[..., TestClient]) -> None:
    client = app_with(create_per_minute=3)
    for _ in range(3):
        new_game(client)
    response = client.post("/api/games", json={"game": "general"})
    assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1
    assert "too many" in response.json()["detail"]
    refused = client.post("/new", data={"game": "general"})
    assert refused.status_code == 429 and "retry-after" in refused.headers


def test_moves_are_rate_limited_over_both_paths(app_with: Callable[..., TestClient]) -> None:
    client = app_with(moves_per_minute=3)
    token = token_of(new_game(client)["seats"]["both"])
    assert (
        client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0}).status_code == 200
    )
    assert (
        client.post(f"/api/play/{token}/move", json={"move": "c3-b4", "ply": 1}).status_code == 200
    )
    with client.websocket_connect(f"/ws/{token}") as ws:
        receive(ws, "state")
        ws.send_json({"type": "move", "move": "a1-a2", "ply": 2})
        receive(ws, "state")
        ws.send_json({"type": "move", "move": "b4-c3", "ply": 3})
        error = receive(ws, "error")
        assert error["code"] == "rate-limited" and error["retry_after"] >= 1
    response = client.post(f"/api/play/{token}/move", json={"move": "b4-c3", "ply": 3})
    assert response.status_code == 429 and "retry-after" in response.headers


def test_connections_per_address_are_limited(app_with: Callable[..., TestClient]) -> None:
    client = app_with(connections_per_address=2)
    token = token_of(new_game(client)["seats"]["both"])
    with (
        client.websocket_connect(f"/ws/{token}") as a,
        client.websocket_connect(f"/ws/{token}") as b,
    ):
        receive(a, "state"), receive(b, "state")
        with client.websocket_connect(f"/ws/{token}") as c:
            assert c.receive_json()["code"] == "too-many-connections"
    with client.websocket_connect(f"/ws/{token}") as d:  # the others closed: room again
        assert d.receive_json()["type"] == "state"


def test_idle_games_leave_memory_and_come_back_from_the_log(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with(idle_seconds=60.0)
    clock = FakeTime()
    with timesource.using(clock):
        token = token_of(new_game(client)["seats"]["both"])
        client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.games and service.forget_idle() == 0
        clock.advance(61)  # a minute nobody touched it
        assert service.forget_idle() >= 1 and not service.games
    state = client.post(f"/api/play/{token}/move", json={"move": "c3-b4", "ply": 1}).json()
    assert [h["text"] for h in state["history"]] == ["a2-b2", "c3-b4xa3c5"]


def test_games_left_for_long_are_archived_as_abandoned(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with(abandon_days=30)
    clock = FakeTime()
    with timesource.using(clock):
        created = new_game(client, mode="friend")
        rebels = token_of(created["seats"]["rebels"])
        client.post(f"/api/play/{rebels}/move", json={"move": "a2-b2", "ply": 0})
        service = client.app.state.service  # type: ignore[attr-defined]
        clock.advance(29 * 86400)
        assert client.portal.call(service.abandon_stale) == 0  # type: ignore[union-attr]
        clock.advance(2 * 86400)  # left for a month
        assert client.portal.call(service.abandon_stale) == 1  # type: ignore[union-attr]
    state = client.get(f"/api/play/{rebels}").json()
    assert state["outcome"] == {"winner": None, "reason": "abandoned"}
    archived = {g["id"]: g for g in client.get("/api/archive").json()}
    assert archived[created["id"]]["reason"] == "abandoned"
    record = client.get(f"/api/games/{created['id']}/record")
    assert record.status_code == 200 and '"abandoned"' in record.text
    from ludotheque.record import Record

    assert Record.from_json(record.text).outcome() is not None


def test_a_computer_that_keeps_failing_still_moves(app_with: Callable[..., TestClient]) -> None:
    client = app_with(job_time_limit=0.001, job_attempts=1)
    token = token_of(new_game(client, mode="computer", level="hard")["seats"]["both"])
    client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
    deadline = time.monotonic() + 30
    while client.get(f"/api/play/{token}").json()["ply"] < 2:
        assert time.monotonic() < deadline, "the computer never moved"
        time.sleep(0.05)
