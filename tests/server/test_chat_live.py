"""Chat in a game: the players' channel and the watchers' are separate, messages are kept
with the game (not in its move log), limited in length and rate, and delivered as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession

from ludotheque.server.chat.rules import BURST
from ludotheque.server.store.db import ChatRow, EventRow
from tests.server.conftest import new_game, token_of
from tests.server.people import place_client, sign_up


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


def test_players_and_watchers_talk_apart(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    watch = token_of(created["watch"])
    carol = sign_up(client, "carol")
    with (
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
        carol.acting() as c,
        c.websocket_connect(f"/ws/{watch}") as w,
    ):
        histories = [next_of(ws, "chat-history") for ws in (r, g, w)]
        assert [h["channel"] for h in histories] == ["players", "players", "watchers"]
        assert histories[0]["me"] == "side:rebels" and histories[2]["me"].startswith("u")
        r.send_json({"type": "chat", "text": "  good <b>luck</b>\u202e! "})
        for ws in (r, g):
            said = next_of(ws, "chat")["message"]
            assert said["text"] == "good <b>luck</b>!"  # cleaned, never turned into HTML
            assert said["side"] == "rebels" and said["channel"] == "players"
        w.send_json({"type": "chat", "text": "nice opening"})
        assert next_of(w, "chat")["message"]["name"] == "carol"
        g.send_json({"type": "ping"})
        # the general heard the rebels, and nothing of the watchers
        assert g.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/{general}") as g:
        history = next_of(g, "chat-history")
        assert [m["text"] for m in history["messages"]] == ["good <b>luck</b>!"]
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        assert len(db.scalars(select(ChatRow)).all()) == 2
        kinds = db.scalars(select(EventRow.kind)).all()
        assert "chat" not in kinds


def test_anonymous_watchers_read_but_do_not_write(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    with client.websocket_connect(f"/ws/{token_of(created['watch'])}") as w:
        history = next_of(w, "chat-history")
        assert history["channel"] == "watchers" and not history["can_write"]
        w.send_json({"type": "chat", "text": "hello"})
        assert next_of(w, "error")["code"] == "sign-in-required"


def test_length_and_rate_limits(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    with client.websocket_connect(f"/ws/{token_of(created['seats']['rebels'])}") as r:
        next_of(r, "chat-history")
        r.send_json({"type": "chat", "text": "x" * 301})
        assert next_of(r, "error")["code"] == "message-too-long"
        r.send_json({"type": "chat", "text": "   "})
        assert next_of(r, "error")["code"] == "empty-message"
        for i in range(BURST):
            r.send_json({"type": "chat", "text": f"message {i}"})
            assert next_of(r, "chat")["message"]["text"] == f"message {i}"
        r.send_json({"type": "chat", "text": "one too many"})
        refused = next_of(r, "error")
        assert refused["code"] == "too-fast" and "wait" in refused["message"]


def test_no_chat_at_one_screen(client: TestClient) -> None:
    created = new_game(client, mode="local")
    token = token_of(created["seats"]["both"])
    assert client.get(f"/api/play/{token}").json()["chat"] is None
    with client.websocket_connect(f"/ws/{token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "chat", "text": "hello"})
        assert next_of(ws, "error")["code"] == "no-chat"
