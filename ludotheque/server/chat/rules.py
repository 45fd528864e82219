"""Chat messages: what may be said (``clean``), how often (``ChatLimiter``), and how a message
is kept with its game (``Message``).

- Control and format characters are removed (the bidirectional overrides and invisible
  characters that could disguise a message; the zero-width joiner of emoji stays); the rest
  is NFC-normalised; at most three combining marks follow a letter; every run of whitespace
  (new lines and tabs included) becomes one space. What is left must be 1 to 300 characters:
  a longer message is refused, not cut.
- A sender may send ten messages at once, then one every two seconds (a token bucket: a
  human-sized burst, thirty lines a minute at most after it), and not the same text twice
  within thirty seconds. A line refused for its pace says when the next one may go
  (``retry_after``): the page keeps such lines, shows them as waiting and sends them then, so
  that nothing typed is lost, while a flood still goes no faster than the bucket. Each
  process counts its own senders, as ``guard.py`` does for requests (a player's socket lives
  in one process); each socket also has its budget (``play.budget``), above this one.
- Messages are text: they are escaped where they are shown (Jinja's autoescape, ``textContent``
  in the browser), never here.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..errors import GameError, say

MAX_LENGTH = 300
MAX_MARKS = 3  # combining marks kept after one character
BURST = 10  # messages a sender may send at once
REFILL_SECONDS = 2.0  # then one message every this many seconds
REPEAT_SECONDS = 30.0  # the same text again within this long is refused

PLAYERS = "players"  # the players' chat of a game
WATCHERS = "watchers"  # the watchers' chat of the same game
CHANNELS = (PLAYERS, WATCHERS)

_DROPPED = {"Cc", "Cf", "Cs", "Co"}  # control, format, surrogate, private use
_KEPT = {"\u200d"}  # the zero-width joiner holds emoji sequences together


class ChatError(GameError):
    """A refused message, in both languages (400, or 429 for "too fast")."""


EMPTY = say("An empty message is not sent.")


def _too_long(length: int) -> ChatError:
    return ChatError(
        say("A message has at most {most} characters (this one has {length}).",
            most=MAX_LENGTH, length=length),
        "message-too-long", 400,
    )  # fmt: skip


def clean(text: object) -> str:
    """The message as it will be stored and shown, or a ``ChatError`` (empty, too long).

    >>> clean("  Well\\tplayed!\\n\\n\\u202egg ")
    'Well played! gg'
    """
    if not isinstance(text, str):
        raise ChatError(EMPTY, "empty-message", 400)
    visible = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or ch in _KEPT or unicodedata.category(ch) not in _DROPPED
    )
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", visible):
        marks = marks + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if marks <= MAX_MARKS:
            kept.append(ch)
    message = " ".join("".join(kept).split())
    if not message:
        raise ChatError(EMPTY, "empty-message", 400)
    if len(message) > MAX_LENGTH:
        raise _too_long(len(message))
    return message


@dataclass(frozen=True)
class Bucket:
    """A token bucket: ``tokens`` left at time ``at``."""

    tokens: float
    at: float

    def refilled(self, now: float, burst: int, refill: float) -> Bucket:
        """The bucket at ``now``: a token more every ``refill`` seconds, ``burst`` at most."""
        gained = max(0.0, now - self.at) / refill
        return Bucket(min(float(burst), self.tokens + gained), max(now, self.at))


@dataclass
class _Sender:
    bucket: Bucket
    last_text: str = ""
    last_at: float = -math.inf


class ChatLimiter:
    """How often each sender may speak; the time comes in as ``now`` (seconds)."""

    def __init__(
        self,
        burst: int = BURST,
        refill_seconds: float = REFILL_SECONDS,
        repeat_seconds: float = REPEAT_SECONDS,
    ) -> None:
        if burst < 1 or refill_seconds <= 0:
            raise ValueError("a chat limit lets at least one message through, now and then")
        self.burst = burst
        self.refill = refill_seconds
        self.repeat = repeat_seconds
        self._senders: dict[str, _Sender] = {}

    def wait(self, sender: str, now: float) -> float:
        """Seconds before ``sender`` may send a message (0: now)."""
        state = self._senders.get(sender)
        if state is None:
            return 0.0
        bucket = state.bucket.refilled(now, self.burst, self.refill)
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) * self.refill

    def check(self, sender: str, text: str, now: float) -> None:
        """Count ``sender``'s message ``text`` (already ``clean``) sent at ``now``, or refuse
        it with a ``ChatError`` (429): too fast, or the same text again too soon. A refused
        message costs nothing."""
        state = self._senders.get(sender) or _Sender(Bucket(float(self.burst), now))
        bucket = state.bucket.refilled(now, self.burst, self.refill)
        if bucket.tokens < 1:
            seconds = max(1, math.ceil((1 - bucket.tokens) * self.refill))
            raise ChatError(
                say("Not so fast: wait {s} s before your next message.", s=seconds),
                "too-fast", 429, retry_after=seconds,
            )  # fmt: skip
        if text == state.last_text and now - state.last_at < self.repeat:
            raise ChatError(
                say("You have just sent this message."),
                "repeated", 429,
            )  # fmt: skip
        self._senders[sender] = _Sender(Bucket(bucket.tokens - 1, bucket.at), text, now)

    def forget(self, now: float) -> None:
        """Drop the senders that are back to a full bucket and past the repeat rule (they
        would be treated alike as strangers), so that memory stays small."""
        for sender in list(self._senders):
            state = self._senders[sender]
            full = state.bucket.refilled(now, self.burst, self.refill).tokens >= self.burst
            if full and now - state.last_at >= self.repeat:
                del self._senders[sender]

    def __len__(self) -> int:
        return len(self._senders)


@dataclass(frozen=True)
class Message:
    """A message kept with its game: when (seconds since the epoch), in which channel
    (``players`` or ``watchers``), from whom (``sender``: a side, an account or a visitor's
    id; ``name``: what is shown), and the cleaned text."""

    at: float
    channel: str
    sender: str
    name: str
    text: str

    @classmethod
    def new(cls, at: float, channel: str, sender: str, name: str, text: object) -> Message:
        """A message with its text cleaned (``ChatError`` as ``clean``); ``ValueError`` for
        an unknown channel."""
        if channel not in CHANNELS:
            raise ValueError(f"unknown chat channel {channel!r}: {', '.join(CHANNELS)}")
        return cls(at, channel, sender, name, clean(text))

    def to_dict(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "channel": self.channel,
            "sender": self.sender,
            "name": self.name,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Message:
        """The inverse of ``to_dict``; ``ValueError`` on anything else."""
        try:
            fields = (data["channel"], data["sender"], data["name"], data["text"])
            at = float(data["at"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a chat message: {data!r}") from exc
        if not all(isinstance(f, str) for f in fields) or fields[0] not in CHANNELS:
            raise ValueError(f"not a chat message: {data!r}")
        return cls(at, *fields)


__all__ = [
    "CHANNELS",
    "MAX_LENGTH",
    "PLAYERS",
    "WATCHERS",
    "Bucket",
    "ChatError",
    "ChatLimiter",
    "Message",
    "clean",
]
