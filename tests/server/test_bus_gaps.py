"""Two server processes' apps on one PostgreSQL database: a process that missed the bus's
notices (its listening connection cut, or a notice lost) catches up by itself, and ``sync``
answers from the log."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings

from .conftest import new_game, token_of

CAUGHT_UP_WITHIN = 5.0
"""The goal: no client behind the log for longer than this."""


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Apps A and B on one database (B is created first: it migrates)."""
    clients = []
    for _ in range(2):
        client = TestClient(create_app(Settings(database_url=pg_url, computer_delay=0.0)))
        client.__enter__()
        clients.append(client)
    try:
        yield clients[0], clients[1]
    finally:
        for client in clients:
            client.__exit__(None, None, None)


def next_state(ws: Any, done: Callable[[dict[str, Any]], bool], timeout: float) -> float:
    """Seconds until ``ws`` receives a state that is ``done`` (the test fails after
    ``timeout``). The test client's receive blocks, so a ping bounds each wait."""
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < timeout, f"no such state within {timeout} s"
        ws.send_json({"type": "ping"})
        message = ws.receive_json()
        if message["type"] == "state" and done(message["game"]):
            return time.monotonic() - start
        if message["type"] == "pong":
            time.sleep(0.1)


def conninfo(pg_url: str) -> str:
    return pg_url.replace("postgresql+psycopg://", "postgresql://", 1)


def test_a_cut_listening_connection_is_caught_up(pg_url: str, two: tuple[Any, Any]) -> None:
    a, b = two
    created = new_game(b, mode="friend")
    rebels, general = token_of(created["seats"]["rebels"]), token_of(created["seats"]["general"])
    bus_a = a.app.state.service.bus
    with a.websocket_connect(f"/ws/{general}") as watcher:
        assert watcher.receive_json()["type"] == "state"
        for ply, move in enumerate(["a2-b2", "c3-b4xa3c5", "b2-a2"]):
            with psycopg.connect(conninfo(pg_url), autocommit=True) as admin:
                cut = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = %s",
                    (bus_a.name,),
                ).fetchall()
            assert cut == [(True,)], "A's listening connection was not found"
            before = bus_a.reconnects
            mover = rebels if ply % 2 == 0 else general
            moved = b.post(f"/api/play/{mover}/move", json={"move": move, "ply": ply})
            assert moved.status_code == 200, moved.text

            def caught_up(g: dict[str, Any], p: int = ply) -> bool:
                return g["ply"] == p + 1

            took = next_state(watcher, caught_up, CAUGHT_UP_WITHIN)
            assert took < CAUGHT_UP_WITHIN
            deadline = time.monotonic() + 5
            while bus_a.reconnects == before:  # it did notice the cut, and listens again
                assert time.monotonic() < deadline
                time.sleep(0.05)


def test_a_lost_notice_is_caught_up_and_sync_reads_the_log(
    two: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    created = new_game(b, mode="friend")
    rebels, general = token_of(created["seats"]["rebels"]), token_of(created["seats"]["general"])
    bus_a = a.app.state.service.bus
    real = bus_a.deliver
    monkeypatch.setattr(bus_a, "deliver", lambda channel, payload: None)  # A hears nothing
    with a.websocket_connect(f"/ws/{general}") as player:
        assert player.receive_json()["type"] == "state"
        moved = b.post(f"/api/play/{rebels}/move", json={"move": "a2-b2", "ply": 0})
        assert moved.status_code == 200
        player.send_json({"type": "sync"})
        message = player.receive_json()
        while message["type"] != "state":
            message = player.receive_json()
        assert message["game"]["ply"] == 1  # the log's truth, not A's memory
        moved = b.post(f"/api/play/{rebels}/move", json={"move": "b2-a2", "ply": 2})
        assert moved.status_code == 409  # (the general is to move: a refusal, nothing new)
        ok = b.post(f"/api/play/{general}/move", json={"move": "c3-b4xa3c5", "ply": 1})
        assert ok.status_code == 200, ok.text
        # no notice, no sync: A compares what it shows with the log now and then
        next_state(player, lambda g: g["ply"] == 2, CAUGHT_UP_WITHIN)
    monkeypatch.setattr(bus_a, "deliver", real)
