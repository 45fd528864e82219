"""Backgammon move values: single checker moves, plays and dice, with their notation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .board import BAR, OFF
from .movegen import CORE, RawStep, generate


def point_name(place: int) -> str:
    """``bar``, ``off`` or the point number."""
    if place == BAR:
        return "bar"
    if place == OFF:
        return "off"
    return str(place)


class Step(NamedTuple):
    """One checker moved by one die, in the mover's view: ``src`` 1–24 or 25 (bar), ``dst``
    1–24 or 0 (off), the ``die`` used and whether it ``hit`` a blot. ``str``: ``13/7*``."""

    src: int
    dst: int
    die: int
    hit: bool

    def __str__(self) -> str:
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"


class Play(NamedTuple):
    """A whole turn: its single moves in canonical order (empty for a pass) and the two boards
    it leaves (the mover's and the opponent's, packed, each in its own view).

    ``str(play)`` is the canonical notation, ``13/7* 8/7`` or ``pass``.
    """

    raw: tuple[RawStep, ...]
    mover_after: int
    opponent_after: int

    def __str__(self) -> str:
        if not self.raw:
            return "pass"
        return " ".join(
            f"{point_name(s)}/{point_name(d)}{'*' if h else ''}" for s, d, _, h in self.raw
        )

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single moves, in an order that can be played."""
        return tuple(Step(*r) for r in self.raw)

    @property
    def is_pass(self) -> bool:
        """True when no checker moves."""
        return not self.raw

    @property
    def hits(self) -> int:
        """How many opposing checkers this play sends to the bar."""
        return sum(1 for r in self.raw if r[3])


class Roll(NamedTuple):
    """A roll of two dice, ``high ≥ low``; ``str``: ``31``, ``66``."""

    high: int
    low: int

    def __str__(self) -> str:
        return f"{self.high}{self.low}"

    @property
    def is_double(self) -> bool:
        return self.high == self.low


class OpeningRoll(NamedTuple):
    """The opening: each side's single die (never equal); ``str``: ``w1b3``."""

    white: int
    black: int

    def __str__(self) -> str:
        return f"w{self.white}b{self.black}"

    @property
    def roll(self) -> Roll:
        """The two dice the starter plays."""
        return Roll(max(self.white, self.black), min(self.white, self.black))


ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(h, lo), (1 if h == lo else 2) / 36) for h in range(1, 7) for lo in range(1, h + 1)
)
OPENINGS: tuple[tuple[OpeningRoll, float], ...] = tuple(
    (OpeningRoll(w, b), 1 / 30) for w in range(1, 7) for b in range(1, 7) if w != b
)


def plays_py(me: int, opp: int, high: int, low: int, cap: int) -> list[Play]:
    """The legal plays of the roll ``high``–``low`` for the mover ``me`` against ``opp``, in
    ``generate``'s order."""
    leaves, _ = generate(me, opp, high, low, cap)
    return [Play(raw, m, o) for (m, o), raw in leaves.items()]


def listed_py(move: Any, moves: list[Any]) -> bool:
    """Whether ``move`` is in ``moves`` (the compiled core asks first for the object itself)."""
    return move in moves


plays: Callable[[int, int, int, int, int], list[Play]] = plays_py
"""The legal plays of a roll (see ``plays_py``): built by the compiled core when it was."""
listed: Callable[[Any, list[Any]], bool] = listed_py
"""``move in moves``, the compiled core's when it was built."""

if CORE is not None:
    CORE.setup(Play)
    plays = CORE.plays
    listed = CORE.listed
