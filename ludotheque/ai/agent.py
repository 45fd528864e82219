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
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..core import CHANCE, Game, IllegalMove, State

if TYPE_CHECKING:
    from ..record import Record


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


REPEATED = 0.05
"""The share of its lead the side ahead gives up in a position that occurred before in the game
(or along a searched line): a lead kept by going round in circles lets the other side repeat
into a draw."""


class Memory:
    """What an agent knows of the game so far, for the draws a state cannot show: a position
    that has occurred ``limit - 1`` times is a draw if reached again (``repetition``), and the
    game is drawn once ``turn_limit`` moves have been played.

    Agents are built per game. Told the game's record (``follow``), the memory reads the
    positions, the moves and the record's own draw options from it; otherwise it counts the
    positions the agent is asked about and those its own moves lead to (between the two, every
    position of the game) under the game's default draw rules, and the moves between them (one
    short for an agent that never saw the start).
    """

    def __init__(self) -> None:
        self.seen: dict[State, int] = {}
        self.limit: int | None = None
        self.turn_limit: int | None = None
        self.moves = 0
        self.record: Record | None = None
        self._last: State | None = None

    def follow(self, record: Record) -> None:
        """Read the game so far from ``record`` from now on (it may go on being played)."""
        self.record = record
        self.limit = record.repetition
        self.turn_limit = record.turn_limit

    def observe(self, state: State) -> None:
        """Count ``state`` as a position of the game (nothing when a record is followed)."""
        if self.record is not None:
            return
        game = state.game
        self.limit = getattr(game, "repetition_limit", None)
        self.turn_limit = getattr(game, "turn_limit", None)
        last = self._last
        if last is not None and last.to_move not in (None, CHANCE) and state != last:
            self.moves += 1
        self.seen[state] = self.seen.get(state, 0) + 1
        self._last = state

    def count(self, state: State) -> int:
        """How many times ``state`` has occurred in the game so far."""
        if self.record is not None:
            return self.record.occurrences(state)
        return self.seen.get(state, 0)

    def played(self) -> int:
        """The moves played so far (chance outcomes aside)."""
        return len(self.record.moves) if self.record is not None else self.moves

    def draws(self, child: State, ahead: int = 1) -> bool:
        """Whether reaching ``child`` now (a move ahead, or ``ahead`` moves ahead) would repeat
        it into a draw or reach the turn limit, unless it ends the game by the rules."""
        if self.limit is not None and self.count(child) + 1 >= self.limit:
            return child.outcome() is None
        return (
            self.turn_limit is not None
            and self.played() + ahead >= self.turn_limit
            and (child.outcome() is None)
        )

    def moves_left(self, ahead: int = 0) -> int | None:
        """The moves left before the turn limit, ``ahead`` moves from now (``None``: no limit)."""
        if self.turn_limit is None:
            return None
        return self.turn_limit - self.played() - ahead


def tell(agent: Agent, record: Record) -> None:
    """Show a fresh ``agent`` the game so far (``record``, which may go on being played): a
    memory that can follow a record follows it from now on; another one is shown each position
    before the current one (and counts those that follow itself)."""
    memory = getattr(agent, "memory", None)
    if memory is None:
        return
    follow = getattr(memory, "follow", None)
    if follow is not None:
        follow(record)
        return
    for state in record.states[:-1]:
        memory.observe(state)


def draw_value(game: Game, side: str) -> float:
    """What a draw is worth to ``side`` on the scale of the game's evaluation: the evaluation at
    which its expected score is one half (``Game.calibration``; 0 for a game without a fitted
    curve). The General's evaluation, for one, underrates the rebels: a draw is worth -0.54 to
    them, +0.54 to the general."""
    curve = game.calibration
    if curve is None:
        return 0.0
    even = curve.even()
    return even if side == game.sides[0] else -even


def toward_draw(value: float, draw: float, keep: float) -> float:
    """``value`` moved towards the draw's ``draw`` (both for one side), keeping the share
    ``keep`` of the difference: the side ahead loses a little, the side behind gains as much."""
    return draw + (value - draw) * keep
