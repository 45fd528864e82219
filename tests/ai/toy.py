"""A base for the tiny games the AI tests build: a state is a node name and the side to move."""

from __future__ import annotations

from typing import Any

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
