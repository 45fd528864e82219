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

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

CHANCE = "chance"
"""The value of ``State.to_move`` at a chance node."""


ParamValue = str | int | float | bool | list[str] | list[int] | list[float] | list[bool]
"""What a refusal's parameter may be: plain JSON values, which a translator's format string can
take (a side is its code, ``"white"``; a list stays a list)."""


class Refusal(ValueError):
    """An engine's refusal, as data: a stable ``code``, the English ``template`` and its
    ``params``; ``str(exc)`` is the English message, ``template.format(**params)``.

    Callers tell refusals apart by class and ``code``, never by reading the message (as
    python-chess's ``IllegalMoveError`` and ``AmbiguousMoveError``), and a translator turns
    ``code`` and ``params`` into another language. ``ludotheque.messages.catalogue()`` lists
    every code the package raises with its template.

    >>> exc = IllegalMove("{place} is occupied", code="occupied", place="a2")
    >>> str(exc), exc.code, exc.params
    ('a2 is occupied', 'occupied', {'place': 'a2'})

    A bare message (code outside the package) keeps working: its code is the class's
    ``default_code`` and its template the text itself (braces doubled, so that the template
    still formats to the message).

    >>> exc = IllegalMove("not now")
    >>> exc.code, exc.template, exc.params
    ('illegal', 'not now', {})
    """

    default_code: ClassVar[str] = "refused"
    """The code of a refusal raised with a bare message."""

    code: str
    """A stable kebab-case name of the message template (``blocked-point``)."""
    template: str
    """The English message with ``{name}`` placeholders (``{text!r}`` for a ``repr``)."""
    params: dict[str, ParamValue]
    """The values the template takes."""

    def __init__(
        self, template: str = "", /, *, code: str | None = None, **params: ParamValue
    ) -> None:
        if code is None and not params:  # a bare message: the text is taken as it is
            message = str(template)
            self.template = message.replace("{", "{{").replace("}", "}}")
        else:
            message = template.format(**params)
            self.template = template
        self.code = type(self).default_code if code is None else code
        self.params = params
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its data (the default would call the class with the message alone, as
        # a bare message), for the errors that cross process pools
        extra = {k: v for k, v in self.__dict__.items() if k not in _REFUSAL_FIELDS}
        return (_restore, (type(self), self.template, self.code, self.params), extra or None)


_REFUSAL_FIELDS = frozenset({"code", "template", "params"})


def _restore(
    cls: type[Refusal], template: str, code: str, params: dict[str, ParamValue]
) -> Refusal:
    """A refusal from its pickled data (see ``Refusal.__reduce__``)."""
    return cls(template, code=code, **params)


class IllegalMove(Refusal):
    """A move (or chance outcome) that is malformed, unknown, ambiguous or not legal here."""

    default_code = "illegal"


class InvalidMove(IllegalMove):
    """An ``IllegalMove`` whose text or value is no move of the game at all, whatever the
    position: it cannot be read (python-chess's ``InvalidMoveError``)."""

    default_code = "invalid-move"


class AmbiguousMove(IllegalMove):
    """An ``IllegalMove`` whose text names more than one legal move: the caller may offer the
    choice (python-chess's ``AmbiguousMoveError``)."""

    default_code = "ambiguous-move"


class InvalidPosition(Refusal):
    """A position string (or other position description) that does not describe a valid position."""

    default_code = "invalid-position"


class UnknownGame(InvalidPosition):
    """``load()`` was asked for a game or ruleset that does not exist; the message lists them.

    An ``InvalidPosition`` (so a ``ValueError``): the public API's bad input raises only
    ``IllegalMove`` or ``InvalidPosition``, and an unknown game describes no position at all."""

    default_code = "unknown-game"


class UnknownSide(InvalidPosition):
    """A side that is not one of the game's (``game.evaluate(state, "White")``): refused, never
    read as the other side (a misspelt side would flip the value's sign)."""

    default_code = "not-a-side"


class NotAState(InvalidPosition):
    """Something given where a state of the game was expected (``None``, another game's state,
    a position string to a helper that takes states)."""

    default_code = "not-a-state"


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


@dataclass(frozen=True, slots=True)
class Calibration:
    """How a game's evaluation reads as an expected score (a draw counting one half), fitted on
    games between the computer levels (``tools/calibrate_analysis.py``).

    The first side's evaluation ``v`` is worth ``p = 1 / (1 + exp(-(a * atanh(v) + b)))`` to it
    (the other side's is ``1 - p``). With a ``horizon``, a game that a turn limit will draw is
    drawn towards one half as the limit nears: with ``m`` moves left,
    ``1/2 + (p - 1/2) * (1 - exp(-m / horizon))``, so that a lead is worth less the less time
    there is to turn it into a win. On this scale a draw is exactly one half, so searches can
    weigh a draw against positions they only evaluated.

    >>> round(Calibration(2.0, 0.0).chance(0.5), 6)
    0.75
    """

    a: float
    b: float
    horizon: float | None = None

    def chance(self, value: float, moves_left: int | None = None) -> float:
        """The first side's expected score at its evaluation ``value``, ``moves_left`` moves
        before a turn limit (``None``: no limit)."""
        v = max(-0.999999, min(0.999999, value))
        x = self.a * math.atanh(v) + self.b
        p = 1 / (1 + math.exp(-max(-50.0, min(50.0, x))))
        if self.horizon is not None and moves_left is not None:
            p = 0.5 + (p - 0.5) * (1 - math.exp(-max(0, moves_left) / self.horizon))
        return p

    def even(self) -> float:
        """The first side's evaluation that is worth a draw (an expected score of one half)."""
        return math.tanh(-self.b / self.a)


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
    calibration: ClassVar[Calibration | None] = None
    """How ``evaluate`` reads as an expected score (``None``: ``(1 + v) / 2``, the reading of a
    game whose evaluation was never fitted to results)."""

    @abstractmethod
    def start(self) -> State:
        """The state at the start of a new game."""

    @abstractmethod
    def parse_position(self, text: str) -> State:
        """The state described by a position string; raises ``InvalidPosition`` with the reason."""

    def check_side(self, side: object) -> str:
        """``side`` when it is one of this game's sides; else ``UnknownSide``."""
        if isinstance(side, str) and side in self.sides:
            return side
        first, second = self.sides
        raise UnknownSide(
            "{value} ({type}) is not a side of this game: its sides are {first} and {second}",
            code="not-a-side", first=first, second=second, **described(side),
        )  # fmt: skip

    def check_state(self, state: object, kind: type[State] | None = None) -> None:
        """Refuse (``NotAState``) what is not a state of this game (of ``kind``, when given)."""
        if not isinstance(state, kind or State) or state.game.name != self.name:
            raise NotAState(
                "{value} ({type}) is not a state of {game}",
                code="not-a-state", game=self.name, **described(state),
            )  # fmt: skip

    def opponent(self, side: str) -> str:
        """The other side of a two-player game (``UnknownSide`` for a side not of this game)."""
        a, b = self.sides
        return b if self.check_side(side) == a else a

    def evaluate(self, state: State, side: str) -> float:
        """A heuristic value of ``state`` for ``side`` in [-1, 1] (1: ``side`` surely wins).

        The default knows only finished games; each game overrides it with its own knowledge.
        A side not of this game is refused (``UnknownSide``), as is what is not one of its
        states (``NotAState``).
        """
        self.check_side(side)
        self.check_state(state)
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return 0.0
        return 1.0 if outcome.winner == side else -1.0

    def evaluate_many(self, states: Sequence[State], side: str) -> list[float]:
        """``evaluate`` of each state, in order. Searches call this with the children of one
        node; a game whose evaluation is cheaper in batches (a neural network) overrides it."""
        self.check_side(side)
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
    if not isinstance(state, State):
        raise NotAState("{value} ({type}) is not a game state", code="not-a-game-state",
                        **described(state))  # fmt: skip
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise InvalidPosition("perft's depth is a whole number, 0 or more, not {value} ({type})",
                              code="bad-perft-depth", **described(depth))  # fmt: skip
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
    """A short, safe description of a value for error messages: ``42 (int)``."""
    return "{value} ({type})".format(**described(value))


def described(value: object) -> dict[str, ParamValue]:
    """The parameters of a refusal that describes ``value`` as ``{value} ({type})``: its
    ``repr`` cut to 60 characters and its type's name, apart so that a translator can name
    the type in its own words.

    >>> described(42)
    {'value': '42', 'type': 'int'}
    """
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return {"value": text, "type": type(value).__name__}


__all__ = [
    "CHANCE",
    "AmbiguousMove",
    "Game",
    "IllegalMove",
    "InvalidMove",
    "InvalidPosition",
    "Move",
    "Outcome",
    "ParamValue",
    "Refusal",
    "State",
    "UnknownGame",
    "describe_value",
    "described",
    "perft",
    "perft_table",
]
