"""The protocol every game implements: games, states, moves, outcomes and errors.

A *game* (one ruleset of one game) makes states: ``game.start()`` and ``game.parse_position()``.
A *state* is an immutable value: ``play()`` returns a new state, equal positions are equal and
hash equal, and a state holds no history (repetition rules belong to records).

Three kinds of node fit the same protocol without special cases:

- a decision node: ``to_move`` names the side, ``legal_moves()`` lists its moves;
- a chance node (dice): ``to_move == "chance"``, ``chance_outcomes()`` lists
  ``(outcome, probability)`` and ``play()`` takes one of those outcomes;
- a terminal node: ``to_move is None``, ``outcome()`` says who won and why.

A turn made of several parts (Defiance and Domain: an action, then a Command move) is one move
whose notation joins the parts; games may add a factored view on top, never instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

CHANCE = "chance"
"""The value of ``State.to_move`` at a chance node."""


class IllegalMove(ValueError):
    """A move (or chance outcome) that is malformed, unknown, ambiguous or not legal here."""


class InvalidPosition(ValueError):
    """A position string (or other position description) that does not describe a valid position."""


class UnknownGame(ValueError):
    """``load()`` was asked for a game or ruleset that does not exist; the message lists them."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: ``winner`` is a side, or ``None`` for a draw; ``reason`` a stable code.

    >>> Outcome("rebels", "shut-in").is_draw
    False
    """

    winner: str | None
    reason: str

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None


@runtime_checkable
class Move(Hashable, Protocol):
    """A move: a hashable value whose ``str()`` is its canonical notation."""

    def __str__(self) -> str: ...


class Game(ABC):
    """One ruleset of one game: the factory of its states.

    ``name`` is the registry name (``"general"``), ``ruleset`` the ruleset's name, ``sides`` the
    players in the order they are listed (the first to move in a normal game comes first).
    """

    name: str
    ruleset: str
    sides: tuple[str, ...]

    @abstractmethod
    def start(self) -> State:
        """The state at the start of a new game."""

    @abstractmethod
    def parse_position(self, text: str) -> State:
        """The state described by a position string; raises ``InvalidPosition`` with the reason."""

    def opponent(self, side: str) -> str:
        """The other side of a two-player game."""
        a, b = self.sides
        if side == a:
            return b
        if side == b:
            return a
        raise ValueError(f"unknown side {side!r}: this game's sides are {a!r} and {b!r}")

    def evaluate(self, state: State, side: str) -> float:
        """A heuristic value of ``state`` for ``side`` in [-1, 1] (1: ``side`` surely wins).

        The default knows only finished games; each game overrides it with its own knowledge.
        """
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def evaluate_many(self, states: Sequence[State], side: str) -> list[float]:
        """``evaluate`` of each state, in order. Searches call this with the children of one
        node; a game whose evaluation is cheaper in batches (a neural network) overrides it."""
        return [self.evaluate(s, side) for s in states]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}:{self.ruleset}>"


class State(ABC):
    """An immutable game position (see the module docstring for the three kinds of node)."""

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game (and ruleset) this state belongs to."""

    @property
    @abstractmethod
    def to_move(self) -> str | None:
        """The side to move, ``"chance"`` at a chance node, ``None`` once the game is over."""

    @abstractmethod
    def position(self) -> str:
        """The canonical position string."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Any]:
        """The legal moves of the side to move; empty at chance nodes and once the game is over.

        The returned sequence is shared between calls: do not change it.
        """

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """``(outcome, probability)`` pairs at a chance node; empty elsewhere."""
        return []

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else who won and why."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """The move (or chance outcome) that ``text`` names here; raises ``IllegalMove``."""

    @abstractmethod
    def play(self, move: Any) -> State:
        """The state after ``move``: a move object, a chance outcome, or notation text.

        Raises ``IllegalMove`` when it is not legal here; never changes this state.
        """

    @property
    def is_chance(self) -> bool:
        """True at a chance node."""
        return self.to_move == CHANCE

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.outcome() is not None

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"


def perft(state: State, depth: int) -> int:
    """Count the paths of exactly ``depth`` plies from ``state`` (chess-style perft).

    Every move and every chance outcome is one ply; a path that reaches the end of the game early
    is not counted. ``perft(s, 0) == 1``.
    """
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    return _perft(state, depth)


def _perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.to_move is None:
        return 0
    children: Sequence[Any]
    if state.to_move == CHANCE:
        children = [c for c, _ in state.chance_outcomes()]
    else:
        children = state.legal_moves()
    if depth == 1:
        return len(children)
    play = state.play
    if depth == 2:
        return sum(_count(play(c)) for c in children)
    return sum(_perft(play(c), depth - 1) for c in children)


def _count(state: State) -> int:
    """The number of children of ``state`` (a game may count its moves without listing them,
    through an optional ``count_legal_moves()``)."""
    if state.to_move is None:
        return 0
    if state.to_move == CHANCE:
        return len(state.chance_outcomes())
    counter = getattr(state, "count_legal_moves", None)
    return int(counter()) if counter is not None else len(state.legal_moves())


def perft_table(state: State, depth: int) -> list[int]:
    """``[perft(state, 1), …, perft(state, depth)]``, computed in one walk."""
    counts = [0] * depth

    def walk(s: State, d: int) -> None:
        if d == depth or s.to_move is None:
            return
        children: Sequence[Any]
        children = [c for c, _ in s.chance_outcomes()] if s.to_move == CHANCE else s.legal_moves()
        counts[d] += len(children)
        if d + 2 == depth:
            for c in children:
                counts[d + 1] += _count(s.play(c))
        elif d + 1 < depth:
            for c in children:
                walk(s.play(c), d + 1)

    walk(state, 0)
    return counts


def describe_value(value: object) -> str:
    """A short, safe description of a value for error messages."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


__all__ = [
    "CHANCE",
    "Game",
    "IllegalMove",
    "InvalidPosition",
    "Move",
    "Outcome",
    "State",
    "UnknownGame",
    "describe_value",
    "perft",
    "perft_table",
]
