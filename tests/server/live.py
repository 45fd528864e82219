"""A real server for the Bot API's tests: uvicorn serving the app in a thread of the test (so
that its streams are real HTTP streams, read line by line as a bot reads them), with its
event loop at hand; bot accounts made through the sign-up page and the account page."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import uvicorn
from fastapi import FastAPI

from ludotheque.bridge import Client
from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings

T = TypeVar("T")
PASSWORD = "a fine long password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Live:
    """A server running in this process: its address, its app and its event loop."""

    url: str
    app: FastAPI
    loop: asyncio.AbstractEventLoop

    def on_loop(self, work: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        """Run ``work`` on the server's event loop; its result."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)


@contextmanager
def live_server(db_url: str, port: int | None = None, **overrides: Any) -> Iterator[Live]:
    """Serve an app on ``db_url`` (cheap passwords, no rate limits) until the block ends."""
    settings = {"database_url": db_url, "computer_delay": 0.0, "password_memory": 8,
                "create_per_minute": 0, "moves_per_minute": 0, **overrides}  # fmt: skip
    app = create_app(Settings(**settings))
    port = port or free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    loops: list[asyncio.AbstractEventLoop] = []

    async def serve() -> None:
        loops.append(asyncio.get_running_loop())
        await server.serve()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield Live(f"http://127.0.0.1:{port}", app, loops[0])
    finally:
        server.should_exit = True
        thread.join(30)


def form_csrf(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


class Browser:
    """Someone's browser: its cookies, pages read and forms posted."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=30) as page:
            return str(page.read().decode())

    def post(self, path: str, fields: dict[str, Any]) -> str:
        """Post a form (its CSRF token added) and read the page it leads to."""
        data = urllib.parse.urlencode({"csrf": form_csrf(self.get(path.split("/tokens")[0]
                                       if "/account" in path else "/signup")), **fields},
                                      doseq=True).encode()  # fmt: skip
        with self.opener.open(self.url + path, data=data, timeout=30) as page:
            return str(page.read().decode())


def account(url: str, name: str) -> Browser:
    """A new account, signed in (its cookies in the browser)."""
    browser = Browser(url)
    browser.post("/signup", {"username": name, "password": PASSWORD, "next": "/"})
    assert f"/@/{name}" in browser.get("/account")
    return browser


def api_token(browser: Browser, *scopes: str) -> str:
    """A personal API token made on the account page."""
    made = browser.post("/account/tokens", {"label": "test", "scope": list(scopes)})
    found = re.search(r'id="new-token-value">([^<]+)<', made)
    assert found is not None, made[-2000:]
    return found.group(1)


def bot(url: str, name: str, upgrade: bool = True) -> Client:
    """A bot account (upgraded through the API) and its client."""
    browser = account(url, name)
    client = Client(url, api_token(browser, "bot:play", "challenge", "read"), timeout=30)
    if upgrade:
        assert client.call("POST", "/api/bot/account/upgrade") == {"ok": True}
    return client


class Events:
    """An event stream read in a thread: its events, in order, to wait for."""

    def __init__(self, client: Client) -> None:
        self.events: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(client,), daemon=True)
        self.thread.start()

    def _read(self, client: Client) -> None:
        for event in client.stream("/api/stream/event"):
            with self.cond:
                self.events.append(event)
                self.cond.notify_all()

    def wait(self, kind: str, timeout: float = 20.0, **match: Any) -> dict[str, Any]:
        """The first event of ``kind`` whose ``challenge``/``game`` has ``match``'s values."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for event in self.events:
                    body = event.get("challenge") or event.get("game") or {}
                    if event["type"] == kind and all(body.get(k) == v for k, v in match.items()):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {kind} {match} in {self.events}")
                self.cond.wait(left)


class GameWatch:
    """A game stream read in a thread: its lines, in order, to wait for."""

    def __init__(self, client: Client, game_id: str) -> None:
        self.lines: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(client, game_id), daemon=True)
        self.thread.start()

    def _read(self, client: Client, game_id: str) -> None:
        for line in client.stream(f"/api/bot/game/stream/{game_id}"):
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()

    def wait(self, test: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first game state (a ``gameFull``'s, or a ``gameState``) that passes ``test``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    state = line.get("state") if line["type"] == "gameFull" else line
                    if line["type"] != "chatLine" and test(state):
                        return dict(state)  # type: ignore[arg-type]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"not seen; last lines {self.lines[-3:]}")
                self.cond.wait(left)

    def chat(self, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    if line["type"] == "chatLine":
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("no chat line")
                self.cond.wait(left)


def start_game(a: Client, b: Client, events_a: Events, events_b: Events, **spec: Any) -> str:
    """``a`` challenges ``b`` (``spec``: game, ruleset, control, rated, side), ``b`` accepts;
    the game's id, once both event streams said ``gameStart``."""
    name = b.call("GET", "/api/account")["username"]
    made = a.call("POST", f"/api/challenge/{name}", spec)
    events_b.wait("challenge", id=made["id"])
    game_id = str(b.call("POST", f"/api/challenge/{made['id']}/accept")["id"])
    events_a.wait("gameStart", id=game_id)
    events_b.wait("gameStart", id=game_id)
    return game_id
