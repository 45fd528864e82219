"""Helpers for the tests of accounts, the lobby, clocks, ratings and chat: people signed in on
one test client (each person is a cookie jar), a controlled clock, the app's event loop."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import httpx2 as httpx
from fastapi.testclient import TestClient

T = TypeVar("T")
PASSWORD = "a fine long password"


class FakeTime:
    """The server's clock, moved by the test (it starts at the real time, so that the jobs
    it makes are never due for the real workers while the test runs)."""

    def __init__(self) -> None:
        self.now = time.time() + 3600.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def controlled(client: TestClient) -> FakeTime:
    """Give the app's game service a clock the test moves."""
    fake = FakeTime()
    client.app.state.service.now = fake  # type: ignore[attr-defined]
    return fake


def on_loop(client: TestClient, fn: Callable[[], Awaitable[T]]) -> T:
    """Run ``fn()`` on the app's event loop and return its result."""

    async def run() -> T:
        return await fn()

    assert client.portal is not None
    return client.portal.call(run)


class Person:
    """Someone using the site: their cookies, and the CSRF token of their pages."""

    def __init__(self, client: TestClient, jar: httpx.Cookies, name: str | None) -> None:
        self.client = client
        self.jar = jar
        self.name = name

    @contextlib.contextmanager
    def acting(self) -> Iterator[TestClient]:
        saved = self.client.cookies
        self.client.cookies = self.jar
        try:
            yield self.client
        finally:
            self.jar = self.client.cookies
            self.client.cookies = saved

    def csrf(self) -> str:
        with self.acting() as c:
            return str(c.get("/api/me").json()["csrf"])

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        with self.acting() as c:
            return c.get(path, **kwargs)

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: bool = True
             ) -> httpx.Response:  # fmt: skip
        headers = {"x-csrf-token": self.csrf()} if csrf else {}
        with self.acting() as c:
            return c.post(path, json=body or {}, headers=headers)

    def seat(self, game_id: str) -> str:
        """This person's seat token in a game they play (through /resume)."""
        response = self.get(f"/resume/{game_id}", follow_redirects=False)
        assert response.status_code == 303, response.text
        return str(response.headers["location"]).rsplit("/", 1)[1]


def visitor(client: TestClient) -> Person:
    """An anonymous visitor (their CSRF cookie comes with the first page)."""
    person = Person(client, httpx.Cookies(), None)
    with person.acting() as c:
        assert c.get("/api/me").status_code == 200
    return person


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> Person:
    person = visitor(client)
    with person.acting() as c:
        page = c.get("/signup").text
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        assert token is not None
        response = c.post(
            "/signup",
            data={"csrf": token.group(1), "username": name, "password": password, "next": "/"},
            follow_redirects=False,
        )
        assert response.status_code == 303, response.text
    person.name = name
    return person


def place_client(make_client: Callable[..., TestClient], **settings: Any) -> TestClient:
    """A client of an app with cheap password hashing and the limits off."""
    return make_client(password_memory=8, create_per_minute=0, moves_per_minute=0, **settings)
