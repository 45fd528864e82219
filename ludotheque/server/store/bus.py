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
import os
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from .. import metrics

log = logging.getLogger("ludotheque.bus")

# A listener decides at once (most notices concern nobody here) and returns the work to do
# later, if any: only then is a task made.
Listener = Callable[[str], Awaitable[None] | None]
# Told after a gap in listening (the connection was lost and is back): notices sent meanwhile
# were never heard, so whoever keeps state from them reads the database again.
GapListener = Callable[[], Awaitable[object]]
CHANNELS = ("game", "job", "lobby", "chat")
PREFIX = "ludotheque_"
PROBE_SECONDS = 5.0
"""With no notice for this long, the listening connection is asked a trivial query, so that
a connection that died silently is found (TCP keepalives find a vanished peer too)."""
KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
              "keepalives_count": 3}  # fmt: skip


class Bus(Protocol):
    """What the service needs of a bus."""

    def publish_in(self, db: Session, channel: str, payload: str) -> None:
        """Announce inside the transaction ``db`` (delivered on commit, where the engine can)."""

    def committed(self, channel: str, payload: str) -> None:
        """Called on the event loop once the change announced is committed."""

    def subscribe(self, channel: str, listener: Listener) -> None:
        """Call ``listener(payload)`` for every announcement on ``channel``."""

    def on_gap(self, listener: GapListener) -> None:
        """Call ``listener()`` whenever announcements may have been missed."""

    @property
    def listening(self) -> bool:
        """Whether announcements are heard now (for ``/readyz``)."""

    reconnects: int

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class _Subscribers:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Listener]] = {c: [] for c in CHANNELS}
        self.gap_listeners: list[GapListener] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.reconnects = 0

    def subscribe(self, channel: str, listener: Listener) -> None:
        self.listeners[channel].append(listener)

    def on_gap(self, listener: GapListener) -> None:
        self.gap_listeners.append(listener)

    @property
    def listening(self) -> bool:
        return True

    def gap(self) -> None:
        """Tell every gap listener, each in a task of its own."""
        for listener in self.gap_listeners:
            task = asyncio.get_running_loop().create_task(_safely(listener(), "a gap"))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

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


async def _safely(work: Awaitable[object], payload: str) -> None:
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
        self.connected = False
        # how the listening connection shows in pg_stat_activity (an operator may look)
        self.name = f"ludotheque bus {os.getpid()} {id(self):x}"[:63]

    def publish_in(self, db: Session, channel: str, payload: str) -> None:
        db.execute(text("SELECT pg_notify(:c, :p)"), {"c": PREFIX + channel, "p": payload})

    def committed(self, channel: str, payload: str) -> None:
        pass  # the NOTIFY reaches this process too

    async def start(self) -> None:
        self.listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    @property
    def listening(self) -> bool:
        return self.connected

    async def _listen(self) -> None:
        import psycopg

        heard_before = False
        pause = 0.2
        while True:
            try:
                conn: Any = await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, application_name=self.name, **KEEPALIVES
                )
                async with conn:
                    for channel in CHANNELS:
                        await conn.execute(f"LISTEN {PREFIX}{channel}")
                    self.connected, pause = True, 0.2
                    self.ready.set()
                    if heard_before:  # what was said while we were deaf is read again
                        self.reconnects += 1
                        metrics.BUS_RECONNECTS.inc()
                        log.warning("the bus listens again; catching up")
                        self.gap()
                    heard_before = True
                    while True:
                        async for notice in conn.notifies(timeout=PROBE_SECONDS):
                            self.deliver(notice.channel.removeprefix(PREFIX), notice.payload)
                        await conn.execute("SELECT 1")  # still there?
            except asyncio.CancelledError:
                self.connected = False
                raise
            except Exception as exc:  # the database went away: listen again, then catch up
                if self.connected:
                    log.warning("the bus lost its connection (%s); listening again",
                                f"{type(exc).__name__}: {exc}".strip()[:200])  # fmt: skip
                self.connected = False
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)

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
