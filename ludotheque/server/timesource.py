"""The server's one clock: every time the server reads (a move's stamp, a job's readiness, a
lease, a game left idle, a sign-in's wait) comes from here, so that a test replaces it
(``FakeTime``) instead of sleeping. The asyncio loop's own timers (a sleep, a time limit) stay
real: they measure waiting, not the time of day.

``time()`` is the wall clock (seconds since the epoch: what is stored and compared across
processes), ``monotonic()`` a clock that never goes back (how long something took in this
process), ``now()`` the wall clock as an aware UTC datetime to the second (the database's
``DateTime`` columns).
"""

from __future__ import annotations

import contextlib
import time as _time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TypeVar


class TimeSource:
    """The real clock."""

    def time(self) -> float:
        return _time.time()

    def monotonic(self) -> float:
        return _time.monotonic()


class FakeTime(TimeSource):
    """A clock that moves only when told (``advance``), for tests."""

    def __init__(self, start: float | None = None) -> None:
        self.wall = _time.time() if start is None else start
        self.steady = 1_000_000.0

    def time(self) -> float:
        return self.wall

    def monotonic(self) -> float:
        return self.steady

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.steady += seconds


_source: TimeSource = TimeSource()


def time() -> float:
    """The wall clock, in seconds since the epoch."""
    return _source.time()


def monotonic() -> float:
    """A clock that never goes back, in seconds."""
    return _source.monotonic()


def now() -> datetime:
    """The wall clock as an aware UTC datetime, to the second (as the database keeps it)."""
    return datetime.fromtimestamp(_source.time(), UTC).replace(microsecond=0)


Source = TypeVar("Source", bound=TimeSource)


@contextlib.contextmanager
def using(source: Source) -> Iterator[Source]:
    """Read ``source`` instead of the real clock while the block runs (tests)."""
    global _source
    before, _source = _source, source
    try:
        yield source
    finally:
        _source = before
