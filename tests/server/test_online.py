"""Players online: who has a lobby or game socket open, on either of two server processes
sharing one database (two apps here; real processes in tests/scale), named when signed in and
counted when anonymous; gone at once when their last socket closes, and after
``ONLINE_SECONDS`` when their process died without a word."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ludotheque.server import timesource
from ludotheque.server.accounts.identity import Who
from ludotheque.server.lobby.presence import FORGET_SECONDS, ONLINE_SECONDS, Presence
from ludotheque.server.store.db import PresenceRow
from ludotheque.server.timesource import FakeTime
from tests.server.conftest import token_of
from tests.server.people import Person, on_loop, place_client, sign_up, visitor


def online(person: Person) -> dict[str, Any]:
    """Who is online, as the lobby tells ``person`` (read now)."""
    return dict(person.get("/api/lobby").json()["online"])


def names(view: dict[str, Any]) -> list[str]:
    return [p["name"] for p in view["players"]]


def until(what: str, check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@contextlib.contextmanager
def sockets() -> Iterator[Callable[[Person, str], Any]]:
    """Open sockets as people (each with their own cookies), closed at the end."""
    with contextlib.ExitStack() as stack:

        def open_as(person: Person, path: str) -> Any:
            with person.acting() as c:
                ws = stack.enter_context(c.websocket_connect(path))
            ws.receive_json()  # the socket's first message: it is open
            return ws

        yield open_as


def test_players_online_across_two_servers(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    a, b = place_client(make_client), place_client(make_client)
    alice, bob, carol = sign_up(a, "alice"), sign_up(b, "bob"), sign_up(b, "carol")
    stranger = visitor(a)
    assert online(bob) == {"count": 0, "anonymous": 0, "players": []}
    with sockets() as open_as:
        alice_lobby = open_as(alice, "/ws/lobby")  # on A
        until("alice online on B", lambda: names(online(bob)) == ["alice"])
        # a game's socket counts too: carol watches a game on B
        game = b.post("/api/games", json={"game": "general", "mode": "friend"}).json()
        open_as(carol, f"/ws/{token_of(game['watch'])}")
        until("carol online on A", lambda: names(online(alice)) == ["alice", "carol"])
        # an anonymous visitor is counted, not named
        open_as(stranger, "/ws/lobby")
        until("the visitor counted", lambda: online(bob)["count"] == 3)
        assert online(bob) == {"count": 3, "anonymous": 1,
                               "players": [{"name": "alice"}, {"name": "carol"}]}  # fmt: skip
        if db_url.startswith("postgresql"):  # the bus tells B's lobby pages at once
            bob_lobby = open_as(bob, "/ws/lobby")
            dave = sign_up(a, "dave")
            open_as(dave, "/ws/lobby")
            deadline = time.monotonic() + 8  # (B reads the list again every 10 s anyway)
            while "dave" not in names(bob_lobby.receive_json().get("online", {"players": []})):
                assert time.monotonic() < deadline, "B's lobby page was not told"
        # alice closes her page: she is gone at once, not after the expiry
        alice_lobby.close()
        until("alice gone", lambda: "alice" not in names(online(bob)), timeout=5.0)
        assert "carol" in names(online(bob))


def test_a_dead_process_people_expire(make_client: Callable[..., TestClient]) -> None:
    with timesource.using(FakeTime()) as fake:
        client = place_client(make_client)
        carol = sign_up(client, "carol")
        service = client.app.state.service  # type: ignore[attr-defined]
        users = client.app.state.users  # type: ignore[attr-defined]
        user = on_loop(client, lambda: users.named("carol"))
        # another process, which holds carol's socket, writes her row, then dies silently
        gone = Presence(service, client.app.state.lobby.bus, process="dead")  # type: ignore[attr-defined]
        gone.joined(object(), Who(user, None, None))
        gone.joined(object(), Who(None, None, "x" * 20, fresh_binding="x" * 20))  # no cookie
        assert on_loop(client, gone.beat)
        assert online(carol) == {"count": 1, "anonymous": 0, "players": [{"name": "carol"}]}
        fake.advance(ONLINE_SECONDS - 1)
        assert names(online(carol)) == ["carol"]
        fake.advance(2)
        assert online(carol)["count"] == 0
        # its rows are deleted by the living processes once they are old
        here = client.app.state.lobby.presence  # type: ignore[attr-defined]
        fake.advance(FORGET_SECONDS)
        on_loop(client, here.beat)
        with service.sessions() as db:
            left = db.scalar(select(func.count()).select_from(PresenceRow).where(
                PresenceRow.process == "dead"))  # fmt: skip
        assert left == 0
