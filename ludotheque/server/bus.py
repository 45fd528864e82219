"""Live updates between processes: a small publish/subscribe interface and two engines.

A change to a game is announced on channel ``game`` (payload ``"<game id> <seq>"``) and a new
job on channel ``job``; the lobby's seeks and pairings on ``lobby``, and chat messages on
``chat`` (see ``lobby`` and ``chatting``). Announcements are made inside the transaction that
makes the change (``publish_in``), so that nobody hears of a change that was not committed, and
again once it is committed (``committed``), for the in-memory engine.

- ``MemoryBus``: one process; subscribers hear of committed changes at once. The default, so
  that ``ludotheque serve`` needs nothing but SQLite.
- ``PostgresBus``: PostgreSQL's LISTEN/NOTIFY. Chosen over Redis because the database is
  already there: no other service to run, and a NOTIFY sent in a transaction is delivered only
  if that transaction commits, in commit order. Every process (itself included) hears every
  change; a process that holds the game refreshes it from the log and tells its own sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

log = logging.getLogger("ludotheque.bus")

# A listener decides at once (most notices concern nobody here) and returns the work to do
# later, if any: only then is a task made.
Listener = Callable[[str], Awaitable[None] | None]
CHANNELS = ("game", "job", "lobby", "chat")
PREFIX = "ludotheque_"


class Bus(Protocol):
    """What the service needs of a bus."""

    def publish_in(self, db: Session, channel: str, payload: str) -> None:
        """Announce inside the transaction ``db`` (delivered on commit, where the engine can)."""

    def committed(self, channel: str, payload: str) -> None:
        """Called on the event loop once the change announced is committed."""

    def subscribe(self, channel: str, listener: Listener) -> None:
        """Call ``listener(payload)`` for every announcement on ``channel``."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class _Subscribers:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Listener]] = {c: [] for c in CHANNELS}
        self.tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, channel: str, listener: Listener) -> None:
        self.listeners[channel].append(listener)

    def deliver(self, channel: str, payload: str) -> None:
        for listener in self.listeners.get(channel, ()):
            try:
                work = listener(payload)
            except Exception:  # a listener's failure must not stop the bus
                log.exception("a bus listener failed on %r", payload)
                continue
            if work is not None:
                task = asyncio.get_running_loop().create_task(_safely(work, payload))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)


async def _safely(work: Awaitable[None], payload: str) -> None:
    try:
        await work
    except Exception:  # a listener's failure must not stop the bus
        log.exception("a bus listener failed on %r", payload)


class MemoryBus(_Subscribers):
    """The bus of a single process."""

    def publish_in(self, db: Session, channel: str, payload: str) -> None:
        pass

    def committed(self, channel: str, payload: str) -> None:
        self.deliver(channel, payload)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()


class PostgresBus(_Subscribers):
    """LISTEN/NOTIFY on the app's own PostgreSQL database."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        url = engine.url.set(drivername="postgresql")
        self.conninfo = url.render_as_string(hide_password=False)
        self.listener: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    def publish_in(self, db: Session, channel: str, payload: str) -> None:
        db.execute(text("SELECT pg_notify(:c, :p)"), {"c": PREFIX + channel, "p": payload})

    def committed(self, channel: str, payload: str) -> None:
        pass  # the NOTIFY reaches this process too

    async def start(self) -> None:
        self.listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                conn: Any = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                async with conn:
                    for channel in CHANNELS:
                        await conn.execute(f"LISTEN {PREFIX}{channel}")
                    self.ready.set()
                    async for notice in conn.notifies():
                        self.deliver(notice.channel.removeprefix(PREFIX), notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database went away: listen again (sockets re-sync)
                log.warning("the bus lost its connection; listening again", exc_info=True)
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listener
        for task in list(self.tasks):
            task.cancel()


def make_bus(kind: str, engine: Engine) -> Bus:
    """The bus named by the settings (``memory`` or ``postgresql``)."""
    if kind == "memory":
        return MemoryBus()
    if kind == "postgresql":
        if engine.dialect.name != "postgresql":
            raise ValueError("the postgresql bus needs a PostgreSQL database (DATABASE_URL)")
        return PostgresBus(engine)
    raise ValueError(f"unknown bus {kind!r}: memory or postgresql")
