"""A lesson's step and how a move is judged against it, by the game's own engine.

A step is a small position where the player must make the move that shows a rule. Its goal is
a predicate on the engine's states before and after the move (``captures``, ``enters from the
bar``, ``the rebels win by shutting him in``), never a comparison of move texts: any move the
engine plays that meets the goal is accepted. A move the engine refuses is answered with the
engine's own refusal; a legal move that misses the goal is answered with why it misses.

The words (a step's title, instruction, hint, explanation, and why a move misses) are not here:
the server's catalogue has them under ``lesson.<game>.<step>.<part>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .. import load
from ..core import CHANCE, IllegalMove, InvalidPosition, Refusal, State

Goal = Callable[[State, Any, State], bool]
"""Whether a move meets a step's goal: given the state before, the move and the state after."""

PARTS = ("title", "do", "hint", "why", "miss")
"""The words of a step (``lesson.<game>.<step>.<part>``): its title, what to do, the hint, the
explanation after success, and why a legal move misses."""


@dataclass(frozen=True)
class Step:
    """One step: a position (of ``ruleset``), the goal, a move that meets it (``answer``) and a
    typical wrong move (``wrong``: legal but missing, or refused), both for the tests."""

    id: str
    ruleset: str
    position: str
    goal: Goal
    answer: str
    wrong: str


@dataclass(frozen=True)
class Course:
    """A game's course: its steps, in order."""

    game: str
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step | None:
        """The step called ``step_id`` (``None``: no such step)."""
        return next((s for s in self.steps if s.id == step_id), None)

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.steps]


@dataclass(frozen=True)
class Verdict:
    """How a move was judged: ``solved``, ``missed`` (legal, goal not met) or ``illegal``
    (``refusal`` is the engine's). ``position`` is the position after a legal move, else the
    step's; ``played`` the move as the game writes it."""

    result: Literal["solved", "missed", "illegal"]
    position: str
    played: str | None = None
    refusal: Refusal | None = None


def start_state(game: str, step: Step) -> State:
    """The step's position, read by the game's engine."""
    return load(game, step.ruleset).parse_position(step.position)


def _written(before: State, move: Any, after: State) -> str:
    """A move (or a roll) as the game writes it."""
    if before.to_move == CHANCE:
        for outcome, _ in before.chance_outcomes():
            if before.play(outcome) == after:
                return str(outcome)
    return str(move)


def check(game: str, step: Step, text: str) -> Verdict:
    """Judge the move ``text`` on ``step``'s position with ``game``'s engine."""
    before = start_state(game, step)
    try:
        move = before.parse_move(text.strip())
        after = before.play(move)
    except (IllegalMove, InvalidPosition) as exc:
        return Verdict("illegal", before.position(), refusal=exc)
    played = _written(before, move, after)
    result: Literal["solved", "missed"] = "solved" if step.goal(before, move, after) else "missed"
    return Verdict(result, after.position(), played)
