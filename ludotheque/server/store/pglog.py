"""The move log's hot path on PostgreSQL: one statement, one round trip, on the event loop.

Every move appends to a game's log, updates the game's summary row, may queue jobs (the
computer's move; the flag fall at the clock's deadline, the older clock jobs of the game then
closed as obsolete; the rating of a rated game that just ended), and announces itself on the
bus. Through the ORM in a thread that was four round trips
(insert, update, notify, commit), a thread hand-off each way and SQLAlchemy's statement
machinery: measured with ``bench/load.py``, two thirds of a server's CPU per move. Here it is
one prepared statement whose data-modifying ``WITH`` clauses all run in one implicit
transaction (autocommit): either everything is written and the notices are sent on commit, or
nothing is (the unique ``(game_id, seq)`` refuses a move a race lost, and the statement fails
whole). Connections are psycopg's own asynchronous ones, a few per process, so the event loop
never waits on the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .bus import PREFIX


class Refused(Exception):
    """The database refused the append: another process wrote at this place of the log."""


class Behind(Exception):
    """The log ends before the place of the append: this process's memory of the game is
    ahead of the database (which lost its last commits): the game is to be read again."""


GAP_STATE = "LG001"
"""The SQLSTATE ``ludotheque_follows`` raises (see migration 0005)."""


@dataclass(frozen=True)
class Append:
    """What one change writes: its events at ``seq``, the summary, the computer's job."""

    game_id: str
    seq: int
    events: list[tuple[str, dict[str, Any]]]
    stamp: datetime
    rematch_id: str | None
    over: bool
    winner: str | None
    reason: str | None
    to_move: str | None
    job_not_before: float | None  # None: no job
    job_created: float
    notify: bool  # send the bus's notices (only where the bus is LISTEN/NOTIFY)
    clock_not_before: float | None = None  # the running clock's deadline (None: no clock job)
    clock_reset: bool = False  # the clock changed: the game's queued clock jobs are obsolete
    rate: bool = False  # a rated game ended: its rating job

    def jobs(self) -> list[tuple[str, float]]:
        """The jobs this change queues: (kind, not before)."""
        out: list[tuple[str, float]] = []
        if self.job_not_before is not None:
            out.append(("computer", self.job_not_before))
        if self.clock_not_before is not None:
            out.append(("clock", self.clock_not_before))
        if self.rate:
            out.append(("rate", self.job_created))
        return out

    @property
    def wakes_workers(self) -> bool:
        """Whether the job channel is told (a clock job is for later: the workers that serve
        it look for it on their own at most a second late)."""
        return self.job_not_before is not None or self.rate


APPEND = f"""
WITH p AS (SELECT %s::jsonb AS j),
ev AS (
    INSERT INTO events (game_id, seq, kind, data, created_at)
    SELECT p.j->>'gid', (p.j->>'seq')::int + (e.o::int - 1), e.v->>0, (e.v->1)::json,
           (p.j->>'at')::timestamptz
    FROM p, jsonb_array_elements(p.j->'events') WITH ORDINALITY AS e(v, o)
    WHERE ludotheque_follows(p.j->>'gid', (p.j->>'seq')::int)
), g AS (
    UPDATE games SET
        updated_at = (p.j->>'at')::timestamptz,
        rematch_id = p.j->>'rematch',
        finished_at = CASE WHEN (p.j->>'over')::bool
                           THEN coalesce(finished_at, (p.j->>'at')::timestamptz) END,
        winner = p.j->>'winner',
        reason = p.j->>'reason',
        to_move = p.j->>'to_move'
    FROM p
    WHERE id = p.j->>'gid'
), o AS (
    UPDATE jobs SET status = 'done', error = 'obsolete', finished_at = (p.j->>'created')::float8
    FROM p
    WHERE (p.j->>'clock_reset')::bool AND game_id = p.j->>'gid' AND kind = 'clock'
          AND status = 'queued'
), j AS (
    INSERT INTO jobs (kind, game_id, seq, status, attempts, not_before, created_at)
    SELECT b.v->>0, p.j->>'gid', (p.j->>'end')::int, 'queued', 0, (b.v->>1)::float8,
           (p.j->>'created')::float8
    FROM p, jsonb_array_elements(p.j->'jobs') AS b(v)
)
SELECT pg_notify(n.c, CASE WHEN n.i = 1 THEN p.j->>'payload' ELSE p.j->>'gid' END)
FROM p, (VALUES (1, '{PREFIX}game'), (2, '{PREFIX}job')) AS n(i, c)
WHERE (p.j->>'notify')::bool AND (n.i = 1 OR (p.j->>'job')::bool)
ORDER BY n.i
"""
# One parameter, a JSON document: psycopg then dumps one string rather than a dozen typed
# values and four arrays (its Python-level array dumping was a tenth of a server's CPU).


def parameters(change: Append) -> str:
    """The statement's one parameter for ``change``: its values as a JSON document."""
    end = change.seq + len(change.events)
    return json.dumps(
        {
            "gid": change.game_id,
            "seq": change.seq,
            "end": end,
            "at": change.stamp.isoformat(),
            "events": change.events,
            "rematch": change.rematch_id,
            "over": change.over,
            "winner": change.winner,
            "reason": change.reason,
            "to_move": change.to_move,
            "job": change.wakes_workers,
            "jobs": change.jobs(),
            "clock_reset": change.clock_reset,
            "created": change.job_created,
            "payload": f"{change.game_id} {end}",
            "notify": change.notify,
        },
        separators=(",", ":"),
    )


class PgLog:
    """A few autocommit connections of this process, each used by one append at a time."""

    def __init__(self, conninfo: str, size: int = 4) -> None:
        self.conninfo = conninfo
        self.size = size
        self.idle: asyncio.LifoQueue[Any] | None = None
        self.opened = 0
        self.all: set[Any] = set()

    async def _take(self) -> Any:
        import psycopg

        if self.idle is None:
            self.idle = asyncio.LifoQueue()
        if self.idle.empty() and self.opened < self.size:
            self.opened += 1
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            except BaseException:
                self.opened -= 1
                raise
            self.all.add(conn)
            return conn
        return await self.idle.get()

    def _give_back(self, conn: Any, broken: bool) -> None:
        assert self.idle is not None
        if broken or conn.closed:
            self.all.discard(conn)
            self.opened -= 1
            task = asyncio.get_running_loop().create_task(conn.close())
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
            return
        self.idle.put_nowait(conn)

    async def append(self, change: Append) -> None:
        """Write ``change``; raises ``Refused`` if its place in the log is taken."""
        import psycopg

        conn = await self._take()
        broken = False
        try:
            await conn.execute(APPEND, (parameters(change),), prepare=True)
        except psycopg.errors.UniqueViolation:
            raise Refused from None
        except psycopg.Error as exc:
            if exc.sqlstate == GAP_STATE:
                raise Behind from None
            broken = True
            raise
        except BaseException:
            # the connection's state is unknown (gone, or cancelled mid-statement): the next
            # append opens another one
            broken = True
            raise
        finally:
            self._give_back(conn, broken)

    async def close(self) -> None:
        for conn in list(self.all):
            with contextlib.suppress(Exception):
                await conn.close()
        self.all.clear()
        self.opened = 0
