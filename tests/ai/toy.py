"""A base for the tiny games the AI tests build: a state is a node name and the side to move, and
the evaluation a table of values for side ``a`` (the opposite for ``b``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ludotheque.core import Game, Outcome, State


class NamedState(State):
    """A state that is just ``name`` and ``side``; subclasses say the moves and where they lead."""

    def __init__(self, game: Game, name: str, side: str) -> None:
        self._game, self.name, self.side = game, name, side

    @property
    def game(self) -> Game:
        return self._game

    @property
    def to_move(self) -> str | None:
        return self.side

    @property
    def other(self) -> str:
        return "b" if self.side == "a" else "a"

    def position(self) -> str:
        return f"{self.name} {self.side}"

    def outcome(self) -> Outcome | None:
        return None

    def parse_move(self, text: str) -> Any:
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NamedState) and (other.name, other.side) == (self.name, self.side)

    def __hash__(self) -> int:
        return hash((self.name, self.side))


class NamedGame(Game):
    """A game of ``state_type`` nodes, starting at ``start_node`` with ``a`` to move; ``values``
    rates nodes for ``a`` (0 for a node not named)."""

    name = "toy"
    ruleset = "toy"
    sides = ("a", "b")
    state_type: type[NamedState]
    start_node: str
    values: ClassVar[dict[str, float]] = {}

    def start(self) -> State:
        return self.state_type(self, self.start_node, "a")

    def parse_position(self, text: str) -> State:
        name, side = text.split()
        return self.state_type(self, name, side)

    def evaluate(self, state: State, side: str) -> float:
        assert isinstance(state, NamedState)
        value = self.values.get(state.name, 0.0)
        return value if side == "a" else -value
