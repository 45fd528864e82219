"""What one WebSocket may send: a budget per kind of message, so that no socket slows others.

Each socket has token buckets (``Bucket``): one for every message it sends, and one for each
kind (``ping``, ``sync``, ``chat``, the actions that change a game, the parts of a turn, and
anything else, unknown types and malformed text included). A message over its budget is not
handled: the sender is told ``too-fast`` at most once a second, and a socket that keeps
sending over budget (``STRIKES`` refusals within ``STRIKE_SECONDS``) is closed with 1008
(policy violation). The figures are far above what the pages send (a player's moves and the
parts of their turns, a ``sync`` when a page wakes), and far below what one process can serve.

An audit found that 600,000 pings from one socket in 6 s raised another player's move round
trip from 6 ms to 0.77 s, and a ``sync`` flood on a long backgammon game to 21 s: each
message was served, however many came. ``bench/flood.py`` measures the same with budgets.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import timesource

RATES: dict[str, tuple[float, float]] = {
    "any": (40.0, 80.0),
    "ping": (1.0, 10.0),
    "sync": (0.5, 6.0),
    "chat": (2.0, 12.0),
    "change": (10.0, 40.0),
    "partial": (20.0, 60.0),
    "other": (1.0, 10.0),
}
"""Per kind: (messages per second, burst)."""
STRIKES = 60
STRIKE_SECONDS = 10.0
TELL_EVERY = 1.0


@dataclass
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` kept."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        """Spend a token if there is one."""
        if self.tokens < 0:
            self.tokens, self.at = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class Budget:
    """One socket's budgets (see the module's note)."""

    clock: Callable[[], float] = timesource.monotonic
    buckets: dict[str, Bucket] = field(default_factory=dict)
    refused: deque[float] = field(default_factory=deque)
    told_at: float = float("-inf")

    def allow(self, kind: str) -> bool:
        """Whether a message of ``kind`` may be handled now (it counts against ``any`` too,
        which ``kind="any"`` alone checks before the message is read)."""
        now = self.clock()
        bucket = self.buckets.get(kind)
        if bucket is None:
            rate, burst = RATES.get(kind, RATES["other"])
            bucket = self.buckets[kind] = Bucket(rate, burst)
        if bucket.take(now):
            return True
        self.refused.append(now)
        while self.refused and self.refused[0] < now - STRIKE_SECONDS:
            self.refused.popleft()
        return False

    @property
    def abusive(self) -> bool:
        """Whether the socket kept sending over budget: it is closed."""
        return len(self.refused) >= STRIKES

    def tell(self) -> bool:
        """Whether to tell the sender of a refusal now (once a second at most)."""
        now = self.clock()
        if now - self.told_at < TELL_EVERY:
            return False
        self.told_at = now
        return True


def kind_of(message_type: object, changes: bool | None) -> str:
    """The budget a message draws on: its type's for ``ping``, ``sync``, ``chat`` and
    ``partial``; ``change`` for the actions that change a game (``changes``), ``partial``'s
    for the other actions; ``other`` for the rest."""
    if message_type in ("ping", "sync", "chat", "partial"):
        return str(message_type)
    if changes is None:
        return "other"
    return "change" if changes else "partial"
