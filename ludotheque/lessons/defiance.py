"""Defiance and Domain's course (the small 8×8 board): placing, the line of attack, rotating,
Command moves and walls, the Imperium catching the Rebel Command, key points and sectors."""

from __future__ import annotations

from typing import Any

from ..core import State
from ..games.defiance.rules import DefianceState
from .course import Course, Goal, Step


def _defiance(state: State) -> DefianceState:
    assert isinstance(state, DefianceState)
    return state


def places_on(cells: tuple[str, ...]) -> Goal:
    """The mover puts a new counter of its own on one of ``cells``."""

    def goal(before: State, move: Any, after: State) -> bool:
        side = str(before.to_move)
        was, now = _defiance(before).counters(), _defiance(after).counters()
        return any(c not in was and c in now and now[c][0] == side for c in cells)

    return goal


def _enemies(state: State, side: str) -> int:
    return sum(1 for owner, _ in _defiance(state).counters().values() if owner != side)


def captures(before: State, move: Any, after: State) -> bool:
    """The mover's turn takes at least one enemy counter off the board."""
    side = str(before.to_move)
    return _enemies(after, side) < _enemies(before, side)


def captures_by_rotating(before: State, move: Any, after: State) -> bool:
    """A capture made by turning a counter: the mover's pool is what it was."""
    side = str(before.to_move)
    same_pool = _defiance(after).pools[side] == _defiance(before).pools[side]
    return same_pool and captures(before, move, after)


def rebel_command_on(point: str) -> Goal:
    """The Rebel Command stands on ``point`` after the turn."""

    def goal(before: State, move: Any, after: State) -> bool:
        return _defiance(after).rebel_command == point

    return goal


def wins(side: str) -> Goal:
    """The turn wins the game for ``side``."""

    def goal(before: State, move: Any, after: State) -> bool:
        outcome = after.outcome()
        return outcome is not None and outcome.winner == side

    return goal


EMPTY = "8/8/8/8/8/8/8/8 r40,i40 R2.2,I6.6,I6.6 r"
KEY_CELLS = ("b2", "c2", "b3", "c3")

DEFIANCE = Course(
    "defiance",
    (
        Step("place", "8x8", EMPTY, places_on(KEY_CELLS), "c3>N", "h8>S"),
        Step("attack", "8x8", "8/8/8/8/8/4INRW2/8/8 r39,i39 R2.2,I6.6,I6.6 r",
             captures, "d3>E", "d3>N"),
        Step("rotate", "8x8", "8/8/8/8/8/3RNINRW2/8/8 r38,i39 R2.2,I6.6,I6.6 r",
             captures_by_rotating, "d3@E", "d3@S"),
        Step("command", "8x8", "8/8/8/8/8/2ININ4/8/8 r40,i38 R3.2,I6.6,I6.6 r",
             rebel_command_on("P4.2"), "h8>S;P3.2-P4.2", "h8>S;P3.2-P3.3"),
        Step("catch", "8x8", "8/8/8/8/8/8/8/8 r40,i40 R3.5,I4.5,I6.6 i",
             wins("imperium"), "h1>N;P4.5-P3.5", "h1>N;P4.5-P4.4"),
        Step("sectors", "8x8",
             "8/1RNRN2RNRN1/1RNRN2RNRN1/8/8/1RNRN2RN2/1RNRN2RNRN1/8 r25,i40 R2.2,I4.8,I8.4 r",
             wins("rebels"), "g3>N", "a1>N"),
    ),
)  # fmt: skip
