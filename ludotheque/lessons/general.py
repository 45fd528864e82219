"""The General's course: steps, a capture of a pair, the flight, the shut-in, the rebels
leaving him no move, and the general's own win (twelve rebels taken)."""

from __future__ import annotations

from typing import Any

from ..core import State
from ..games.general.rules import GeneralState
from .course import Course, Goal, Step


def _general(state: State) -> GeneralState:
    assert isinstance(state, GeneralState)
    return state


def general_ends_on(point: str) -> Goal:
    """The general ends his move on ``point``."""

    def goal(before: State, move: Any, after: State) -> bool:
        return _general(after).general == point

    return goal


def captures(before: State, move: Any, after: State) -> bool:
    """The move takes a pair of rebels."""
    return _general(after).rebel_count == _general(before).rebel_count - 2


def flies_and_captures(before: State, move: Any, after: State) -> bool:
    """The general uses his flight (it was available, it is not any more) and takes a pair."""
    was, now = _general(before), _general(after)
    return was.flight_available and not now.flight_available and captures(before, move, after)


def wins(side: str, reason: str) -> Goal:
    """The move ends the game: ``side`` wins, for ``reason`` (the engine's outcome)."""

    def goal(before: State, move: Any, after: State) -> bool:
        outcome = after.outcome()
        return outcome is not None and outcome.winner == side and outcome.reason == reason

    return goal


GENERAL = Course(
    "general",
    (
        Step("step", "default", "b3 a1,b1,c1,d1,e1,a5,b5,c5,d5,e5 g 1",
             general_ends_on("c3"), "b3-c3", "b3-b2"),
        Step("capture", "default", "c2 a1,c3,e1,e2,a4,a5,b5,d5 g 1",
             captures, "c2-b2xa1c3", "c2-c1"),
        Step("flight", "default", "s2 b3,d3,a1,a2,e1,e2,a5,e5 g 1",
             flies_and_captures, "s2-s4*c3xb3d3", "s2-s4*c4"),
        Step("shut_in", "default", "s1 b5,c5,d4,e4,a1,a2 r 1",
             wins("rebels", "shut-in"), "d4-d5", "d4-c4"),
        Step("no_move", "default", "a1 a2,b1,c3,e5,e4,d5 r 1",
             wins("rebels", "immobilised"), "c3-b2", "c3-c2"),
        Step("twelve", "default", "c2 a1,c3,e1,e2,a4,a5 g 0",
             wins("general", "twelve-captured"), "c2-d2xc3e1", "c2-c1"),
    ),
)  # fmt: skip
