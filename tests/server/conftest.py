"""An app on a temporary database for each test: every server test runs on SQLite and again
on a real PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    clients: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        """A client of an app on the test's database (``overrides``: other settings)."""
        app = create_app(Settings(**{"database_url": db_url, "computer_delay": 0.0, **overrides}))
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "general", **spec})
    assert response.status_code == 201, response.text
    return dict(response.json())


def token_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def wait_for(client: TestClient, token: str, predicate: Callable[[dict[str, Any]], bool],
             timeout: float = 30.0) -> dict[str, Any]:  # fmt: skip
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/api/play/{token}").json()
        if predicate(state):
            return dict(state)
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; last state ply {state.get('ply')}")
        time.sleep(0.05)
