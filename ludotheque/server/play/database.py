"""A server process's database: its sessions, a thread pool for their work (the event loop
never waits on the database), and the move log's hot path for its engine (``store.pglog`` on
PostgreSQL, ``store.sqlitelog`` on SQLite with its in-memory bus)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy.orm import Session, sessionmaker

from ..store.bus import Bus, MemoryBus
from ..store.pglog import PgLog
from ..store.sqlitelog import SqliteLog

T = TypeVar("T")


class Database:
    """Sessions, their thread pool, and the hot path of the log."""

    def __init__(self, sessions: sessionmaker[Session], bus: Bus) -> None:
        self.sessions = sessions
        # SQLite has one writer at a time: one thread for it (more would only wait on its lock)
        sqlite = (
            sessions.kw.get("bind") is not None and sessions.kw["bind"].dialect.name == "sqlite"
        )
        self.executor = ThreadPoolExecutor(1 if sqlite else 8, thread_name_prefix="ludotheque-db")
        bind = sessions.kw.get("bind")
        self.pglog: PgLog | None = None
        if bind is not None and bind.dialect.name == "postgresql":
            url = bind.url.set(drivername="postgresql")
            self.pglog = PgLog(url.render_as_string(hide_password=False))
        self.sqlitelog: SqliteLog | None = None
        if bind is not None and sqlite and isinstance(bus, MemoryBus):
            self.sqlitelog = SqliteLog(bind)

    async def run(self, fn: Callable[[], T]) -> T:
        """Run database work in a thread, so that the event loop never waits on it."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn)

    def close(self) -> None:
        if self.sqlitelog is not None:  # its connection goes back in the thread that used it
            self.executor.submit(self.sqlitelog.close)
        self.executor.shutdown(wait=False)

    async def aclose(self) -> None:
        """Close what lives on the event loop (the log's connections), then the rest."""
        if self.pglog is not None:
            await self.pglog.close()
        self.close()
