"""Who is online: the signed-in players with a page of the site open on a live connection (a
lobby or game WebSocket) in any server process, and how many anonymous visitors.

Each process knows the people behind its own open sockets: the ``Online`` middleware sees every
WebSocket under ``/ws/`` open and close, and tells ``Presence`` who is behind it. The process
writes them to the ``presence`` table, a row per process and person whose ``seen_at`` it renews
every ``BEAT_SECONDS``; someone is online while one of their rows was seen in the last
``ONLINE_SECONDS``. When the last socket of a person closes, the process deletes its row at its
next beat (at once: a change wakes the loop); a process that dies stops renewing its rows, and
they expire. When the people of a process change, an ``online`` notice on the lobby's channel
makes every process's lobby pages read the list again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import timesource
from ..accounts.identity import Who, who
from ..play.service import GameService
from ..store.bus import Bus
from ..store.db import PresenceRow, UserRow
from ..store.dberrors import Outage

log = logging.getLogger("ludotheque.lobby")

BEAT_SECONDS = 10.0  # a process renews the rows of the people it holds this often
ONLINE_SECONDS = 30.0  # someone is online while a row of theirs is younger than this
FORGET_SECONDS = 600.0  # rows older than this (a process that died) are deleted
QUIET_SECONDS = 0.5  # at least this long between two beats (a burst of sockets: one write)
NAMED = 100  # the names the lobby lists at most (the count counts everyone)


class Presence:
    """This process's people with an open socket, and their rows in ``presence``."""

    def __init__(self, service: GameService, bus: Bus, process: str | None = None) -> None:
        self.service = service
        self.bus = bus
        self.process = process or secrets.token_hex(8)
        self.sockets: dict[object, tuple[str, int | None]] = {}
        self.written: dict[str, int | None] = {}
        self.changed = asyncio.Event()

    def held(self) -> dict[str, int | None]:
        """The people behind this process's sockets: their key and account id."""
        return dict(self.sockets.values())

    def joined(self, socket: object, person: Who) -> None:
        """``person`` opened ``socket`` (nobody is counted without a cookie: a page that has
        none yet would count as someone new on every connection)."""
        if person.key is None or person.fresh_binding is not None:
            return
        self.sockets[socket] = (person.key, person.user.id if person.user else None)
        if person.key not in self.written:
            self.changed.set()

    def left(self, socket: object) -> None:
        """``socket`` closed."""
        gone = self.sockets.pop(socket, None)
        if gone is not None and gone[0] not in self.held():
            self.changed.set()

    async def beat(self) -> bool:
        """Write this process's people as seen now and delete the rows of those gone (and
        the stale rows of dead processes); whether the people changed since the last beat
        (then the lobbies are told)."""
        stamp = timesource.time()
        held = self.held()
        changed = held.keys() != self.written.keys()

        def write() -> None:
            with self.service.sessions() as db:
                if held:
                    _upsert(db, [{"process": self.process, "key": key, "user_id": user_id,
                                  "seen_at": stamp} for key, user_id in held.items()])  # fmt: skip
                db.execute(
                    delete(PresenceRow).where(
                        PresenceRow.process == self.process, PresenceRow.key.not_in(held)
                    )
                )
                db.execute(delete(PresenceRow).where(PresenceRow.seen_at < stamp - FORGET_SECONDS))
                if changed:
                    self.bus.publish_in(db, "lobby", "online")
                db.commit()

        await self.service.run_db(write)
        self.written = held
        if changed:
            self.bus.committed("lobby", "online")
        return changed

    async def forget(self) -> None:
        """This process stops: its rows go (its people may be online elsewhere)."""

        def write() -> None:
            with self.service.sessions() as db:
                db.execute(delete(PresenceRow).where(PresenceRow.process == self.process))
                db.commit()

        with contextlib.suppress(Exception):
            await self.service.run_db(write)

    async def run(self, stop: asyncio.Event) -> None:
        """Until ``stop``: a beat every ``BEAT_SECONDS``, and soon after a change."""
        outage = Outage(log, "who is online")
        while not stop.is_set():
            self.changed.clear()
            try:
                await self.beat()
                outage.succeeded()
            except Exception as exc:
                outage.failed(exc)
            await asyncio.sleep(QUIET_SECONDS)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), BEAT_SECONDS - QUIET_SECONDS)


def _upsert(db: Session, rows: list[dict[str, Any]]) -> None:
    dialect = db.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(PresenceRow).values(rows)
    db.execute(
        statement.on_conflict_do_update(
            index_elements=["process", "key"],
            set_={"seen_at": statement.excluded.seen_at, "user_id": statement.excluded.user_id},
        )
    )


def online(db: Session, stamp: float) -> dict[str, Any]:
    """Who is online at ``stamp``: the players signed in (their names, in alphabetical order,
    at most ``NAMED``), how many anonymous visitors, and how many people in all."""
    rows = db.execute(
        select(PresenceRow.key, PresenceRow.user_id)
        .where(PresenceRow.seen_at > stamp - ONLINE_SECONDS)
        .distinct()
    ).all()
    people = dict(rows)
    ids = sorted({user_id for user_id in people.values() if user_id is not None})
    names = (
        db.scalars(
            select(UserRow.username).where(UserRow.id.in_(ids), UserRow.level.is_(None))
        ).all()
        if ids
        else []
    )
    anonymous = sum(1 for user_id in people.values() if user_id is None)
    listed = sorted(names, key=str.lower)
    return {"count": len(listed) + anonymous, "anonymous": anonymous,
            "players": [{"name": name} for name in listed[:NAMED]]}  # fmt: skip


class Online:
    """ASGI middleware: tells ``presence`` who opens and closes each WebSocket under
    ``/ws/`` (the lobby's and the games'), whatever route serves it."""

    def __init__(self, app: ASGIApp, presence: Presence) -> None:
        self.app = app
        self.presence = presence

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not str(scope.get("path", "")).startswith("/ws/"):
            await self.app(scope, receive, send)
            return
        socket = object()

        async def sending(message: Message) -> None:
            await send(message)
            if message["type"] == "websocket.accept":
                try:
                    self.presence.joined(socket, await who(HTTPConnection(scope)))
                except Exception as exc:  # (the database away: counted at the next socket)
                    log.debug("who is behind a socket: %s", exc)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.presence.left(socket)
