"""The place where players meet on two processes and one PostgreSQL database: the lobby, the
clock, the ratings and the chat must not depend on the process a player is connected to.

Alice is served by process A, Bob and Carol by process B (no worker: the servers' own chores
end games on time and rate them). Alice's challenge, posted on A, reaches Bob's lobby page on B
live; Bob (on B) and Carol (on A) accept it at the same instant and exactly one game is made;
Alice's lobby page on A is sent to it; each lobby page lists the other process's player
online, and nobody once every page is closed. They chat across the processes, make their first
moves, and then nobody moves: Alice's clock runs out with no client asking, the clock job of
whichever process takes it ends the game, both sockets hear it, the game is rated once, and both
profiles show it on both processes.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.netutil import joined
from tests.scale import test_processes as scale
from tests.scale.test_processes import Deployment, Process

PASSWORD = "a fine long password"
CONTROL = "0.05+0"  # three seconds a side once the first moves are made


@pytest.fixture
def place(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Deployment, Process, Process]]:
    """Servers A and B on one fresh database (cheap password hashing: tests only)."""
    monkeypatch.setitem(scale.SETTINGS, "LUDOTHEQUE_PASSWORD_MEMORY", "8")
    d = Deployment(pg_url, tmp_path)
    try:
        a, b = d.server("A"), d.server("B")
        d.start(a, b)
        yield d, a, b
    finally:
        d.close()


class Visitor:
    """A person using one process: their cookies, their CSRF token."""

    def __init__(self, d: Deployment, p: Process, name: str) -> None:
        self.d = d
        self.p = p
        self.name = name
        self.http = httpx2.Client(base_url=p.url, trust_env=False, timeout=30.0)
        page = self.http.get("/signup").text
        token = re.search(r'name="csrf" value="([^"]+)"', page)
        assert token is not None, page[:500]
        answer = self.http.post("/signup", data={"csrf": token.group(1), "username": name,
                                                 "password": PASSWORD})  # fmt: skip
        assert answer.status_code in (200, 303), f"{answer.text}\n{d.logs()}"
        self.csrf = self.http.get("/api/me").json()["csrf"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx2.Response:
        return self.http.post(path, json=body or {}, headers={"x-csrf-token": self.csrf})

    def socket(self, path: str) -> ClientConnection:
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = connect(f"ws://{scale.HOST}:{self.p.port}{path}", open_timeout=10, proxy=None,
                     additional_headers={"Cookie": cookies})  # fmt: skip
        return ws.__enter__()

    def seat(self, game_id: str) -> str:
        answer = self.http.get(f"/resume/{game_id}", follow_redirects=False)
        assert answer.status_code == 303, f"{answer.text}\n{self.d.logs()}"
        return str(answer.headers["location"]).rsplit("/", 1)[1]


def receive(ws: ClientConnection, d: Deployment, what: str, done: Any, timeout: float = 15.0
            ) -> dict[str, Any]:  # fmt: skip
    """The first message on ``ws`` for which ``done(message)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError(f"never received {what}\n{d.logs()}") from None
        if done(message):
            return dict(message)


def online(message: dict[str, Any], name: str) -> bool:
    """Whether a lobby message lists ``name`` among the players online."""
    players = message.get("online", {}).get("players", [])
    return message["type"] == "lobby" and name in [p["name"] for p in players]


class Game:
    """A game socket, the history joined as the browser joins it."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.last: dict[str, Any] | None = None

    def state(self, d: Deployment, what: str, done: Any, timeout: float = 15.0
              ) -> dict[str, Any]:  # fmt: skip
        # a broadcast sends the game as it is when it is sent: the state already received
        # may hold what is awaited (the end on time and its rating, read from the log at once)
        if self.last is not None and done(self.last):
            return self.last

        def check(message: dict[str, Any]) -> bool:
            if message.get("type") == "state":
                self.last = joined(self.last, message["game"])
                return bool(done(self.last))
            return False

        receive(self.ws, d, what, check, timeout)
        assert self.last is not None
        return self.last


def test_lobby_clock_ratings_and_chat_across_two_processes(
    place: tuple[Deployment, Process, Process],
) -> None:
    d, a, b = place
    alice, bob, carol = Visitor(d, a, "alice"), Visitor(d, b, "bob"), Visitor(d, a, "carol")
    with contextlib.ExitStack() as stack:
        alice_lobby = alice.socket("/ws/lobby")
        bob_lobby = bob.socket("/ws/lobby")
        for ws in (alice_lobby, bob_lobby):
            stack.callback(ws.close)
            receive(ws, d, "the lobby on connecting", lambda m: m["type"] == "lobby")
        # who is online crosses the processes: each lobby page lists the other's player
        receive(bob_lobby, d, "alice online on B", lambda m: online(m, "alice"))
        receive(alice_lobby, d, "bob online on A", lambda m: online(m, "bob"))
        posted = alice.post("/api/lobby/seeks", {"game": "general", "control": CONTROL,
                                                 "rated": True, "side": "rebels"})  # fmt: skip
        assert posted.status_code == 201, f"{posted.text}\n{d.logs()}"
        seek_id = posted.json()["id"]
        seen = receive(bob_lobby, d, "alice's challenge on B's lobby page",
                       lambda m: m["type"] == "lobby" and m["seeks"])  # fmt: skip
        assert seen["seeks"][0]["id"] == seek_id and seen["seeks"][0]["name"] == "alice"

        # bob (on B) and carol (on A) accept at the same instant: one game
        results: dict[str, httpx2.Response] = {}
        start = threading.Barrier(2)

        def accept(who: Visitor) -> None:
            start.wait()
            results[who.name] = who.post(f"/api/lobby/seeks/{seek_id}/accept")

        threads = [threading.Thread(target=accept, args=(v,)) for v in (bob, carol)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in results.values())
        assert codes == [200, 409], f"{[(k, r.text) for k, r in results.items()]}\n{d.logs()}"
        winner = bob if results["bob"].status_code == 200 else carol
        game_id = results[winner.name].json()["id"]
        started = receive(alice_lobby, d, "the start of alice's game on A",
                          lambda m: m["type"] == "start")  # fmt: skip
        assert started["url"] == f"/resume/{game_id}"

        # the two players' sockets: alice on A, the other on their own process
        mine = Game(alice.socket(f"/ws/{alice.seat(game_id)}"))
        theirs = Game(winner.socket(f"/ws/{winner.seat(game_id)}"))
        stack.callback(mine.ws.close)
        stack.callback(theirs.ws.close)
        first = mine.state(d, "alice's first state", lambda s: True)
        assert first["seat"] == "rebels" and first["table"]["rated"]
        theirs.state(d, "the general's first state", lambda s: True)

        # chat crosses the processes
        mine.ws.send(json.dumps({"type": "chat", "text": "good luck"}))
        heard = receive(theirs.ws, d, "alice's message on the other process",
                        lambda m: m["type"] == "chat")  # fmt: skip
        assert heard["message"]["text"] == "good luck" and heard["message"]["name"] == "alice"

        # first moves, then alice's three seconds run out with nobody asking
        mine.ws.send(json.dumps({"type": "move", "move": "a2-b2", "ply": 0}))
        theirs.state(d, "alice's first move", lambda s: s["ply"] >= 1)
        theirs.ws.send(json.dumps({"type": "move", "move": "c3-b4", "ply": 1}))
        clocked = mine.state(d, "the general's first move", lambda s: s["ply"] >= 2)
        assert clocked["table"]["clock"]["running"] == "rebels"
        ends = [
            g.state(d, "the end on time", lambda s: s["outcome"] is not None, timeout=20)
            for g in (mine, theirs)
        ]
        for end in ends:
            assert end["outcome"] == {"winner": "general", "reason": "time-out"}, end["outcome"]
        rated = [
            g.state(d, "the ratings", lambda s: bool(s["table"]["ratings"]), timeout=20)
            for g in (mine, theirs)
        ]
        for view in rated:
            changes = view["table"]["ratings"]
            assert changes["general"]["change"] > 0 > changes["rebels"]["change"]

    # every page closed: nobody is online any more, on either process, well before expiry
    for p in (a, b):
        deadline = time.monotonic() + 10
        while httpx2.get(f"{p.url}/api/lobby", trust_env=False, timeout=30).json()["online"][
            "count"
        ]:
            assert time.monotonic() < deadline, f"still online on {p.name}\n{d.logs()}"
            time.sleep(0.1)

    # both profiles, read on both processes, show the game once
    for p in (a, b):
        for name, result in (("alice", "loss"), (winner.name, "win")):
            data = httpx2.get(f"{p.url}/api/players/{name}", trust_env=False, timeout=30).json()
            games = [g for g in data["games"] if g["id"] == game_id]
            assert len(games) == 1 and games[0]["result"] == result, data
            assert data["ratings"][0]["games"] == 1, data
