"""Backgammon's course (the library's rules, ``seed``): the lower die starts, entering from
the bar, hitting, the five-checker cap, bearing off."""

from __future__ import annotations

from typing import Any

from ..core import State
from ..games.backgammon.rules import BackgammonState
from .course import Course, Goal, Step

BAR, OFF = 25, 0


def _board(state: State, side: str) -> list[int]:
    """A side's 26 counts in its own numbering (0 borne off, 1–24 the points, 25 the bar)."""
    assert isinstance(state, BackgammonState)
    return state.board(side)


def starts(side: str) -> Goal:
    """After the opening roll, ``side`` is to play."""

    def goal(before: State, move: Any, after: State) -> bool:
        return after.to_move == side

    return goal


def enters(before: State, move: Any, after: State) -> bool:
    """The mover brings a checker in from the bar."""
    side = str(before.to_move)
    return _board(after, side)[BAR] < _board(before, side)[BAR]


def hits(before: State, move: Any, after: State) -> bool:
    """The mover sends an opposing checker to the bar."""
    other = before.game.opponent(str(before.to_move))
    return _board(after, other)[BAR] > _board(before, other)[BAR]


def empties(point: int) -> Goal:
    """The mover's ``point`` (its own numbering) holds none of its checkers after the play."""

    def goal(before: State, move: Any, after: State) -> bool:
        return _board(after, str(before.to_move))[point] == 0

    return goal


def bears_off(count: int) -> Goal:
    """The mover bears off ``count`` checkers (or more)."""

    def goal(before: State, move: Any, after: State) -> bool:
        side = str(before.to_move)
        return _board(after, side)[OFF] - _board(before, side)[OFF] >= count

    return goal


START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"

BACKGAMMON = Course(
    "backgammon",
    (
        Step("opening", "seed", START, starts("black"), "w5b2", "w2b5"),
        Step("enter", "seed", "W[bar,24,13x5,8x3,6x4,5] B[24,13x4,6x4,8x3,5x2,4] w 63",
             enters, "bar/22 13/7", "13/7 8/5"),
        Step("hit", "seed", "W[24x2,13x4,8x2,6x4,5x2,11] B[24x2,13x4,18,9,6x5,8x2] w 62",
             hits, "13/7* 13/11", "24/18 13/11"),
        Step("cap", "seed", "W[13x3,8x3,7,6x5,5x3] B[24x2,13x5,8x3,6x5] w 21",
             empties(7), "7/5 5/4", "7/6 13/11"),
        Step("bear_off", "seed", "W[6x2,5x3,4x3,3x2,2x3] B[13x5,8x5,7x3,6x2] w 64",
             bears_off(2), "6/off 4/off", "6/off 5/1"),
    ),
)  # fmt: skip
