"""WebSockets: state on connect, moves broadcast to players and watchers, refusals as
messages, reconnection catching up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.netutil import joined
from tests.server.conftest import new_game, token_of

_last: dict[int, dict[str, Any]] = {}  # per socket: the state it was last told, history whole


def receive_state(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next state ``ws`` receives, its history joined to what the socket already has."""
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            state = joined(_last.get(id(ws)), message["game"])
            _last[id(ws)] = state
            return dict(state)


def receive_error(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return dict(message)


def test_moves_reach_both_players_and_the_watcher(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    watch = token_of(created["watch"])
    with (
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
        client.websocket_connect(f"/ws/{watch}") as w,
    ):
        for ws in (r, g, w):
            assert receive_state(ws)["ply"] == 0
        r.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        states = [receive_state(ws) for ws in (r, g, w)]
        assert all(s["ply"] == 1 and s["to_move"] == "general" for s in states)
        assert states[0]["seat"] == "rebels" and states[1]["seat"] == "general"
        assert states[1]["can_move"] and not states[0]["can_move"] and not states[2]["can_move"]
        g.send_json({"type": "move", "move": "c3-b4", "ply": 1})
        assert receive_state(w)["history"][-1]["text"] == "c3-b4xa3c5"


def test_refusals_are_messages_and_nothing_is_lost(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    with client.websocket_connect(f"/ws/{rebels}") as r:
        receive_state(r)
        r.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        receive_state(r)
        r.send_json({"type": "move", "move": "a2-b2", "ply": 0})  # a duplicate
        assert receive_error(r)["code"] == "stale"
        r.send_json({"type": "move", "move": "b2-a2", "ply": 1})  # out of turn
        assert receive_error(r)["code"] == "not-your-turn"
        r.send_text("{broken")
        assert "malformed" in receive_error(r)["message"]
        r.send_text("[1, 2]")
        assert receive_error(r)["code"] == "bad-request"
        r.send_json({"type": "dance"})
        assert "unknown message type" in receive_error(r)["message"]
        r.send_json({"type": "ping"})
        assert r.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/{general}") as g:
        state = receive_state(g)
        assert state["ply"] == 1 and state["history"][0]["text"] == "a2-b2"
        g.send_json({"type": "move", "move": "c3-c5", "ply": 1})
        assert "not next to each other" in receive_error(g)["message"]


def test_reconnecting_catches_up(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    with client.websocket_connect(f"/ws/{general}") as g:
        receive_state(g)
    # while the general is away, the rebels move
    client.post(f"/api/play/{rebels}/move", json={"move": "a2-b2", "ply": 0})
    with client.websocket_connect(f"/ws/{general}") as g:
        state = receive_state(g)
        assert state["ply"] == 1 and state["can_move"]


def test_a_bad_token_is_told_and_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/nope") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "bad-token"


def test_undo_request_and_rematch_over_the_socket(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    with (
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
    ):
        receive_state(r), receive_state(g)
        r.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        receive_state(r), receive_state(g)
        r.send_json({"type": "undo-request"})
        assert receive_state(g)["undo"]["request"] == "rebels"
        receive_state(r)
        g.send_json({"type": "undo-answer", "accept": True})
        assert receive_state(r)["ply"] == 0
        receive_state(g)
        r.send_json({"type": "resign"})
        assert receive_state(g)["outcome"]["reason"] == "resignation"
        receive_state(r)
        g.send_json({"type": "rematch"})  # an offer: it waits for the other player
        message = g.receive_json()
        while message["type"] != "rematch":
            message = g.receive_json()
        assert message["waiting"] is True and message["url"] is None
        offered = receive_state(r)
        assert offered["rematch"] is False and offered["offers"]["rematch"] == "general"
        r.send_json({"type": "rematch"})  # accepted: the rematch is made
        message = r.receive_json()
        while message["type"] != "rematch":
            message = r.receive_json()
        assert message["url"].startswith("/play/")
        assert receive_state(g)["rematch"] is True


def test_computer_moves_are_broadcast(client: TestClient) -> None:
    token = token_of(new_game(client, mode="computer", level="easy")["seats"]["both"])
    with client.websocket_connect(f"/ws/{token}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        state = receive_state(ws)
        while state["ply"] < 2:
            state = receive_state(ws)
        assert state["history"][1]["side"] == "general" and state["can_move"]


def test_watchers_follow_the_rematch(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    watch = token_of(created["watch"])
    refused = client.post(f"/api/play/{watch}/rematch")
    assert refused.status_code == 409 and refused.json()["code"] == "no-rematch"
    client.post(f"/api/play/{rebels}/resign")
    assert client.post(f"/api/play/{watch}/rematch").status_code == 409  # nobody asked yet
    client.post(f"/api/play/{rebels}/rematch")
    assert client.post(f"/api/play/{watch}/rematch").status_code == 409  # only offered yet
    client.post(f"/api/play/{token_of(created['seats']['general'])}/rematch")
    follow = client.post(f"/api/play/{watch}/rematch").json()
    assert follow["url"].startswith("/watch/")
    view = client.get("/api/play/" + token_of(follow["url"])).json()
    assert view["seat"] == "watch" and view["id"] == follow["id"] and view["ply"] == 0


def test_a_move_sends_only_the_new_history_and_an_undo_all_of_it(client: TestClient) -> None:
    token = token_of(new_game(client, mode="local")["seats"]["both"])
    with client.websocket_connect(f"/ws/{token}") as ws:
        first = ws.receive_json()["game"]
        assert "history_from" not in first and first["history"] == []
        for ply, move in enumerate(["a2-b2", "c3-b4", "a1-a2"]):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            game = ws.receive_json()["game"]
            # only the new entry travels, however long the game
            assert game["history_from"] == ply and len(game["history"]) == 1
        ws.send_json({"type": "undo"})
        game = ws.receive_json()["game"]
        assert "history_from" not in game  # a cut history comes whole
        assert [h["text"] for h in game["history"]] == ["a2-b2", "c3-b4xa3c5"]
        ws.send_json({"type": "sync"})
        assert "history_from" not in ws.receive_json()["game"]


def test_a_declined_rematch_reaches_the_player_who_offered_it(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    with (
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
    ):
        receive_state(r), receive_state(g)
        r.send_json({"type": "resign"})
        receive_state(r), receive_state(g)
        g.send_json({"type": "rematch"})  # the general offers, and waits on this page
        message = g.receive_json()
        while message["type"] != "rematch":
            message = g.receive_json()
        assert message["waiting"] is True
        offered = receive_state(r)
        assert offered["rematch"] is False and offered["rematch_by"] == "general"
        assert offered["offers"]["rematch"] == "general" and offered["rematch_declined"] is None
        r.send_json({"type": "rematch-decline"})
        # the offerer, waiting on the game's page, hears that the rebels' player declined
        assert receive_state(r)["rematch_declined"] == "rebels"
        told = receive_state(g)
        assert told["rematch_declined"] == "rebels" and told["offers"]["rematch"] is None
    # it is in the log: a reload, or another process, reads it there; no game was made
    other = make_client()
    view = other.get(f"/api/play/{rebels}").json()
    assert view["rematch_declined"] == "rebels" and view["rematch"] is False
    # the decliner cannot then ask for it, nor the offerer again, and the offerer cannot
    # decline their own offer
    refused = other.post(f"/api/play/{rebels}/rematch")
    assert refused.status_code == 409 and refused.json()["code"] == "declined"
    assert other.post(f"/api/play/{general}/rematch").json()["code"] == "declined"
    assert other.post(f"/api/play/{general}/rematch-decline").status_code == 200  # said
    assert other.post(f"/api/play/{rebels}/rematch-decline").status_code == 200  # said again


def test_nobody_declines_a_rematch_nobody_offered(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    refused = client.post(f"/api/play/{rebels}/rematch-decline")
    assert refused.status_code == 409 and refused.json()["code"] == "no-rematch"
    watch = token_of(created["watch"])
    assert client.post(f"/api/play/{watch}/rematch-decline").json()["code"] == "bad-mode"


def test_a_refused_undo_is_told_to_the_one_who_asked(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    with (
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
    ):
        receive_state(r), receive_state(g)
        r.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        receive_state(r), receive_state(g)
        r.send_json({"type": "undo-request"})
        receive_state(r), receive_state(g)
        g.send_json({"type": "undo-answer", "accept": False})
        told = receive_state(r)
        assert told["ply"] == 1 and told["undo"] == {**told["undo"], "request": None,
                                                     "refused": "rebels"}  # fmt: skip
        receive_state(g)
        # in the log (another process reads it), until the next move
        assert make_client().get(f"/api/play/{rebels}").json()["undo"]["refused"] == "rebels"
        g.send_json({"type": "move", "move": "c3-b4", "ply": 1})
        assert receive_state(r)["undo"]["refused"] is None
    assert make_client().get(f"/api/play/{rebels}").json()["undo"]["refused"] is None
