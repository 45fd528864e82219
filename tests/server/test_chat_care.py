"""The chat keeps what people type and lets them deal with others: every line is answered
(acknowledged, or refused with the reason and, for its pace only, when to send it again), a
line sent again after a lost answer is written once, lines can be reported with their context
(once per reader), mutes follow the account, and a banned account is told it cannot speak."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.testclient import WebSocketTestSession

from ludotheque.server import timesource
from ludotheque.server.accounts.moderation import ban, unban
from ludotheque.server.chat.reports import CONTEXT
from ludotheque.server.chat.rules import BURST
from ludotheque.server.store.db import ChatRow, ReportRow
from ludotheque.server.timesource import FakeTime
from tests.server.conftest import new_game, token_of
from tests.server.people import Person, place_client, sign_up


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


def answer(ws: WebSocketTestSession, ask: str) -> dict[str, Any]:
    """The answer to the request ``ask`` (its acknowledgement or its refusal)."""
    while True:
        message = ws.receive_json()
        if message.get("id") == ask and message["type"] != "chat":
            return dict(message)


def count(client: TestClient, row: Any) -> int:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        return int(db.scalar(select(func.count()).select_from(row)) or 0)


def test_a_line_refused_for_its_pace_is_kept_and_acknowledged_when_sent_again(
    client: TestClient,
) -> None:
    created = new_game(client, mode="friend")
    rebels, general = (token_of(created["seats"][s]) for s in ("rebels", "general"))
    with (
        timesource.using(FakeTime()) as clock,
        client.websocket_connect(f"/ws/{rebels}") as r,
        client.websocket_connect(f"/ws/{general}") as g,
    ):
        next_of(r, "chat-history")
        next_of(g, "chat-history")
        for i in range(BURST):  # a burst a person may type goes through at once
            r.send_json({"type": "chat", "text": f"line {i}", "id": f"n{i}"})
            ack = answer(r, f"n{i}")
            assert ack["type"] == "chat-ack" and ack["message"]["text"] == f"line {i}"
        r.send_json({"type": "chat", "text": f"line {BURST}", "id": "late"})
        refused = answer(r, "late")
        assert refused["type"] == "error" and refused["code"] == "too-fast"
        assert refused["retry_after"] == 2 and "wait 2 s" in refused["message"]
        clock.advance(refused["retry_after"])  # the page waits as long as it was told
        r.send_json({"type": "chat", "text": f"line {BURST}", "id": "late"})
        ack = answer(r, "late")
        assert ack["type"] == "chat-ack" and ack["message"]["nonce"] == "late"
        # the other side heard every line, once, in order
        heard = [next_of(g, "chat")["message"]["text"] for _ in range(BURST + 1)]
        assert heard == [f"line {i}" for i in range(BURST + 1)]
    assert count(client, ChatRow) == BURST + 1


def test_a_line_sent_again_after_a_lost_answer_is_written_once(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    with client.websocket_connect(f"/ws/{rebels}") as r:
        next_of(r, "chat-history")
        r.send_json({"type": "chat", "text": "well played", "id": "abc-123"})
        first = answer(r, "abc-123")["message"]
    with client.websocket_connect(f"/ws/{rebels}") as r:  # the answer was lost: again
        history = next_of(r, "chat-history")
        assert [m["nonce"] for m in history["messages"]] == ["abc-123"]
        r.send_json({"type": "chat", "text": "well played", "id": "abc-123"})
        again = answer(r, "abc-123")
        assert again["type"] == "chat-ack" and again["message"]["id"] == first["id"]
    assert count(client, ChatRow) == 1


def test_refusals_carry_the_line_s_id_and_say_why_in_the_reader_s_language(
    client: TestClient,
) -> None:
    created = new_game(client, mode="friend")
    rebels = token_of(created["seats"]["rebels"])
    with client.websocket_connect(f"/ws/{rebels}", headers={"accept-language": "fr"}) as r:
        next_of(r, "chat-history")
        r.send_json({"type": "chat", "text": "x" * 301, "id": "long"})
        refused = answer(r, "long")
        assert refused["code"] == "message-too-long" and "au plus 300" in refused["message"]
        r.send_json({"type": "chat", "text": "gg", "id": "one"})
        assert answer(r, "one")["type"] == "chat-ack"
        r.send_json({"type": "chat", "text": "gg", "id": "two"})
        assert answer(r, "two")["code"] == "repeated"


def seated(person: Person, token: str) -> WebSocketTestSession:
    """``person``'s socket on a seat, once its chat history came."""
    with person.acting() as c:
        ws = c.websocket_connect(f"/ws/{token}")
    ws.__enter__()
    next_of(ws, "chat-history")
    return ws


def test_a_report_keeps_the_line_and_its_context_once_per_reader(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    created = new_game(client, mode="friend")
    with timesource.using(FakeTime()) as clock:  # (the sockets' budgets read it too)
        a = seated(alice, token_of(created["seats"]["rebels"]))
        b = seated(bob, token_of(created["seats"]["general"]))
        try:
            said = []
            for i, (ws, text) in enumerate(
                [(a, "hello"), (b, "hi"), *[(a, f"line {n}") for n in range(CONTEXT)],
                 (a, "rude")]
            ):  # fmt: skip
                clock.advance(2)  # at the pace the chat allows
                ws.send_json({"type": "chat", "text": text, "id": f"m{i}"})
                said.append(answer(ws, f"m{i}")["message"])
            rude = said[-1]
            b.send_json({"type": "chat-report", "line": rude["id"], "id": "r1"})
            done = answer(b, "r1")
            assert done == {"type": "chat-reported", "id": "r1", "line": rude["id"], "new": True}
            b.send_json({"type": "chat-report", "line": rude["id"], "id": "r2"})
            assert answer(b, "r2")["new"] is False  # reporting twice is one report
            a.send_json({"type": "chat-report", "line": rude["id"], "id": "r3"})
            assert answer(a, "r3")["code"] == "bad-request"  # not one's own line
            b.send_json({"type": "chat-report", "line": 10_000, "id": "r4"})
            assert answer(b, "r4")["code"] == "not-found"
        finally:
            a.__exit__(None, None, None)
            b.__exit__(None, None, None)
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        reports = db.scalars(select(ReportRow)).all()
        assert len(reports) == 1
        report = reports[0]
        assert report.text == "rude" and report.game_id == created["id"]
        assert report.channel == "players" and report.sender == "side:rebels"
        assert report.sender_name == "alice" and report.reporter.startswith("u")
        assert report.sender_user_id != report.reporter_user_id is not None
        # the lines before it, as they were, the nearest last
        assert [line["text"] for line in report.context] == [
            "hi",
            *[f"line {n}" for n in range(CONTEXT)],
        ][-CONTEXT:]


def test_mutes_follow_the_account(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    created = new_game(client, mode="friend")
    token = token_of(created["seats"]["rebels"])
    ws = seated(alice, token)
    try:
        ws.send_json({"type": "chat-mute", "keys": ["u99", "g|side:general"], "id": "m1"})
        assert answer(ws, "m1") == {"type": "chat-muted", "id": "m1",
                                    "muted": ["g|side:general", "u99"]}  # fmt: skip
        ws.send_json({"type": "chat-mute", "keys": ["u99"], "muted": False, "id": "m2"})
        assert answer(ws, "m2")["muted"] == ["g|side:general"]
    finally:
        ws.__exit__(None, None, None)
    with alice.acting() as c, c.websocket_connect(f"/ws/{token}") as again:  # another page
        assert next_of(again, "chat-history")["muted"] == ["g|side:general"]
    with client.websocket_connect(f"/ws/{token_of(created['seats']['general'])}") as anon:
        assert next_of(anon, "chat-history")["muted"] is None  # a visitor's browser keeps them
        anon.send_json({"type": "chat-mute", "keys": ["u1"], "id": "m3"})
        assert answer(anon, "m3")["code"] == "sign-in-required"


def test_a_banned_account_cannot_chat_until_unbanned(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    alice.jar.set("lang", "fr")
    created = new_game(client, mode="friend")
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        user_id = int(alice.get("/api/me").json()["user"]["id"])
        ban(db, user_id, "insults", "moderator")
    ws = seated(alice, token_of(created["seats"]["rebels"]))
    try:
        ws.send_json({"type": "chat", "text": "hello", "id": "h1"})
        refused = answer(ws, "h1")
        assert refused["code"] == "banned" and "suspendu" in refused["message"]
        with service.sessions() as db:
            unban(db, user_id, "moderator")
        ws.send_json({"type": "chat", "text": "hello", "id": "h2"})
        assert answer(ws, "h2")["type"] == "chat-ack"
    finally:
        ws.__exit__(None, None, None)
