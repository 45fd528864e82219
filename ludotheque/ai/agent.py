"""The agent protocol, budgets, and the simplest agent: uniformly random among the legal moves.

Every agent works on any game through the public protocol: it asks a state for its legal moves
and chance outcomes, plays them, and learns about positions only through ``game.evaluate``.
With a budget in iterations (or depth), an agent is deterministic for a given seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..core import CHANCE, IllegalMove, State


@runtime_checkable
class Agent(Protocol):
    """Something that chooses a legal move for the side to move of a decision node."""

    name: str

    def choose(self, state: State) -> Any:
        """A legal move of ``state`` (which must be a decision node)."""
        ...


@dataclass(frozen=True)
class Budget:
    """How much an agent may think per move: ``iterations`` (or search depth, or nodes — each
    algorithm says which) and/or wall-clock ``seconds``. Iterations alone are reproducible."""

    iterations: int | None = None
    seconds: float | None = None

    def clock(self) -> Clock:
        """A clock started now."""
        return Clock(self.seconds)


class Clock:
    """Tells a search when its time is up (never, without a time budget)."""

    def __init__(self, seconds: float | None) -> None:
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline


class OutOfTime(Exception):
    """Raised inside a search to abandon an iteration when the clock runs out."""


def decision_moves(state: State) -> list[Any]:
    """The legal moves, or a clear error when ``state`` is not a decision node."""
    if state.to_move is None:
        raise IllegalMove("the game is over: there is no move to choose", code="no-move-to-choose")
    if state.to_move == CHANCE:
        raise IllegalMove(
            "this is a chance node: the dice choose, not an agent", code="chance-node-to-choose"
        )
    return list(state.legal_moves())


def terminal_value(state: State, side: str) -> float:
    """+1 if ``side`` won, -1 if it lost, 0 for a draw (``state`` must be over)."""
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == side else -1.0


def value(state: State, side: str) -> float:
    """The game's value of ``state`` for ``side`` in [-1, 1]: exact once over, else the game's
    evaluation."""
    if state.outcome() is not None:
        return terminal_value(state, side)
    return state.game.evaluate(state, side)


def values(states: Sequence[State], side: str) -> list[float]:
    """``value`` of each state, the unfinished ones evaluated in one batch."""
    out = [0.0] * len(states)
    unfinished = []
    for i, s in enumerate(states):
        if s.outcome() is None:
            unfinished.append(i)
        else:
            out[i] = terminal_value(s, side)
    if unfinished:
        game = states[unfinished[0]].game
        estimates = game.evaluate_many([states[i] for i in unfinished], side)
        for i, v in zip(unfinished, estimates, strict=True):
            out[i] = v
    return out


class RandomAgent:
    """Chooses uniformly among the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Any:
        moves = decision_moves(state)
        return moves[self.rng.randrange(len(moves))]


class Memory:
    """What an agent has seen of the game so far, to respect a repetition draw it cannot see in
    a state: a position that has occurred ``limit - 1`` times is a draw if reached again.

    Agents are built per game; the memory counts the positions they are asked about and the
    positions their own moves lead to (between the two, every position of the game).
    """

    def __init__(self) -> None:
        self.seen: dict[State, int] = {}
        self.limit: int | None = None

    def observe(self, state: State) -> None:
        self.limit = getattr(state.game, "repetition_limit", None)
        self.seen[state] = self.seen.get(state, 0) + 1

    def draws(self, child: State) -> bool:
        """Whether reaching ``child`` now would repeat it into a draw."""
        return self.limit is not None and self.seen.get(child, 0) + 1 >= self.limit
