"""Rate limits counted across every process of a deployment, in the database.

Each process used to count its own requests, so N processes allowed N times every limit.
Here each process counts locally and, a few times a second, adds what it counted to
``rate_counts`` (one row per kind, client and minute window) and reads the sums back, in one
statement. A request is allowed while the estimate of the last minute stays under the limit:
the sliding-window counter (the current window's count plus the previous one's, weighted by
how much of it is still within the last 60 s), as large rate limiters do it. A process may
let through what the others counted since its last exchange (``SYNC_SECONDS``): a small,
bounded excess, instead of a database round trip on every move.

If the database cannot be reached, each process goes on with what it knows (its own
counts and the last sums it read): limits still hold per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable
from typing import Any

from .. import timesource

log = logging.getLogger("ludotheque.limits")

WINDOW = 60
SYNC_SECONDS = 0.5
TRACKED = 20_000
"""At most this many (kind, client) pairs are exchanged at once (the busiest first)."""

EXCHANGE = """
INSERT INTO rate_counts (kind, key, "window", count)
SELECT k, c, w, n FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::int[]) AS t(k, c, w, n)
ON CONFLICT (kind, key, "window") DO UPDATE SET count = rate_counts.count + excluded.count
RETURNING kind, key, "window", count
"""
FORGET = 'DELETE FROM rate_counts WHERE "window" < %s'

Key = tuple[str, str, int]


class SharedCounts:
    """This process's view of the shared counts (see the module's note)."""

    def __init__(self, conninfo: str, clock: Callable[[], float] = timesource.time) -> None:
        self.conninfo = conninfo
        self.clock = clock
        self.pending: dict[Key, int] = {}  # counted here, not yet added to the database
        self.sending: dict[Key, int] = {}  # counted here, being added (still counted here)
        self.known: dict[Key, int] = {}  # the sums last read (this process's part included)
        self.connection: Any = None
        self.forgot = 0

    def estimate(self, kind: str, key: str, now: float) -> float:
        """Requests of ``kind`` from ``key`` in the minute before ``now``."""
        window = int(now // WINDOW)
        into = (now % WINDOW) / WINDOW
        current = self._count((kind, key, window))
        previous = self._count((kind, key, window - 1))
        return current + previous * (1.0 - into)

    def _count(self, k: Key) -> int:
        return self.known.get(k, 0) + self.sending.get(k, 0) + self.pending.get(k, 0)

    def hit(self, kind: str, key: str, limit: int) -> float | None:
        """Count one request if it is allowed: ``None``, else the seconds to wait."""
        now = self.clock()
        if self.estimate(kind, key, now) + 1 <= limit:
            k = (kind, key, int(now // WINDOW))
            self.pending[k] = self.pending.get(k, 0) + 1
            return None
        # the estimate falls as the previous window slides out (``previous`` per minute),
        # and at the latest when this window becomes the previous one
        window_left = WINDOW - now % WINDOW
        previous = self._count((kind, key, int(now // WINDOW) - 1))
        wait = window_left
        if previous > 0:
            wait = min(window_left, (self.estimate(kind, key, now) + 1 - limit) * WINDOW / previous)
        return float(max(1, math.ceil(wait)))

    async def exchange(self) -> None:
        """Add what was counted here to the database, and read the sums back."""
        import psycopg

        now = self.clock()
        window = int(now // WINDOW)
        # the batch stays counted while it is on its way: a request that comes during the
        # round trip sees it (it once saw neither the batch nor the sums with it in them)
        batch = self.sending = self.pending
        self.pending = {}
        # the pairs counted recently are read again even when nothing was counted here
        keys = {k: 0 for k in self.known if k[2] >= window - 1}
        keys.update(batch)
        if len(keys) > TRACKED:
            keys = dict(sorted(keys.items(), key=lambda kv: -kv[1])[:TRACKED])
        if not keys:
            return
        kinds = [k for k, _, _ in keys]
        clients = [c for _, c, _ in keys]
        windows = [w for _, _, w in keys]
        counts = list(keys.values())
        try:
            if self.connection is None or self.connection.closed:
                self.connection = await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, connect_timeout=5
                )
            rows = await (
                await self.connection.execute(EXCHANGE, (kinds, clients, windows, counts))
            ).fetchall()
            if window - self.forgot >= 2:
                self.forgot = window
                await self.connection.execute(FORGET, (window - 2,))
        except Exception as exc:
            self.sending = {}
            for k, n in batch.items():  # counted again next time
                self.pending[k] = self.pending.get(k, 0) + n
            if self.connection is not None:
                with contextlib.suppress(Exception):
                    await self.connection.close()
            self.connection = None
            raise exc
        self.known = {
            (kind, key, int(w)): int(n) for kind, key, w, n in rows if int(w) >= window - 1
        }
        self.sending = {}  # the sums read back hold it now

    async def run(self, stop: asyncio.Event) -> None:
        """Exchange every ``SYNC_SECONDS`` until ``stop``."""
        failing = False
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SYNC_SECONDS)
            try:
                await self.exchange()
                failing = False
            except Exception as exc:
                if not failing:
                    log.warning("the shared rate limits cannot be exchanged now: %s",
                                f"{type(exc).__name__}: {exc}".splitlines()[0][:200])  # fmt: skip
                failing = True
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close()
