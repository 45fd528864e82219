"""The move log's hot path on SQLite: plain DB-API statements on one held connection.

Every move appends to a game's log and updates the game's summary row (and sometimes queues
jobs, see ``pglog.Append``). Through the ORM each move paid for a session, SQLAlchemy's
statement compilation and cache-key machinery and its transaction bookkeeping: measured with
``bench/load.py`` (py-spy, ``--gil``), about two fifths of a busy server's time, of which
SQLite itself was a tenth. Here the same rows are written by a few fixed statements on one
connection of the engine's pool, kept for the process's life, in one transaction: all of a
move is written or none of it (the unique ``(game_id, seq)`` refuses a move a race lost).

It runs in the service's one database thread, like all its SQLite work, so the event loop
never waits on SQLite and this connection is never used by two threads at once. The values
are stored as SQLAlchemy stores them (JSON text, ``YYYY-MM-DD HH:MM:SS.ffffff`` dates), so the
ORM reads these rows as its own.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine

from .pglog import Append, Behind, Refused

INSERT_EVENT = "INSERT INTO events (game_id, seq, kind, data, created_at) VALUES (?, ?, ?, ?, ?)"
UPDATE_GAME = (
    "UPDATE games SET updated_at = ?, rematch_id = ?, finished_at = ?, winner = ?, "
    "reason = ?, to_move = ? WHERE id = ?"
)
FINISH_GAME = (
    "UPDATE games SET updated_at = ?, rematch_id = ?, finished_at = coalesce(finished_at, ?), "
    "winner = ?, reason = ?, to_move = ? WHERE id = ?"
)
OBSOLETE_CLOCKS = (
    "UPDATE jobs SET status = 'done', error = 'obsolete', finished_at = ? "
    "WHERE game_id = ? AND kind = 'clock' AND status = 'queued'"
)
PREVIOUS = "SELECT 1 FROM events WHERE game_id = ? AND seq = ?"
INSERT_JOB = (
    "INSERT INTO jobs (kind, game_id, seq, status, attempts, not_before, created_at) "
    "VALUES (?, ?, ?, 'queued', 0, ?, ?)"
)


def sqlite_time(stamp: datetime) -> str:
    """``stamp`` as SQLAlchemy's SQLite ``DateTime`` stores it (its fields, as given)."""
    return stamp.strftime("%Y-%m-%d %H:%M:%S.%f")


class SqliteLog:
    """One connection of ``engine``'s pool, held, that writes the log's appends."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.held: Any = None  # the pool's wrapper (given back on close)
        self.connection: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self.connection is None:
            self.held = self.engine.raw_connection()
            connection = self.held.driver_connection
            assert isinstance(connection, sqlite3.Connection)
            self.connection = connection
        return self.connection

    def append(self, change: Append) -> None:
        """Write ``change`` (in the database thread); raises ``Refused`` if its place in the
        log is taken. Anything else the database says is raised as it is, nothing written."""
        connection = self._connection()
        at = sqlite_time(change.stamp)
        end = change.seq + len(change.events)
        try:
            cursor = connection.cursor()
            try:
                if change.events and change.seq > 0:
                    found = cursor.execute(PREVIOUS, (change.game_id, change.seq - 1)).fetchone()
                    if found is None:
                        raise Behind
                if change.events:
                    cursor.executemany(
                        INSERT_EVENT,
                        [
                            (change.game_id, change.seq + i, kind, json.dumps(data), at)
                            for i, (kind, data) in enumerate(change.events)
                        ],
                    )
                cursor.execute(
                    FINISH_GAME if change.over else UPDATE_GAME,
                    (
                        at, change.rematch_id, at if change.over else None,
                        change.winner if change.over else None,
                        change.reason if change.over else None,
                        None if change.over else change.to_move, change.game_id,
                    ),
                )  # fmt: skip
                if change.clock_reset:  # the game's older flag-fall jobs are obsolete
                    cursor.execute(OBSOLETE_CLOCKS, (change.job_created, change.game_id))
                for kind, not_before in change.jobs():
                    cursor.execute(
                        INSERT_JOB, (kind, change.game_id, end, not_before, change.job_created)
                    )
            finally:
                cursor.close()
            connection.commit()
        except BaseException as exc:
            connection.rollback()
            if isinstance(exc, sqlite3.IntegrityError):  # as the ORM's path: a lost race
                raise Refused from None
            raise

    def close(self) -> None:
        """Give the connection back to the pool (in the database thread, or once it is idle)."""
        if self.held is not None:
            self.held.close()
        self.held = None
        self.connection = None
