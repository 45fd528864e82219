"""The agent protocol, and the simplest agent: uniformly random among the legal moves."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from ..core import IllegalMove, State


@runtime_checkable
class Agent(Protocol):
    """Something that chooses a legal move for the side to move of a decision node."""

    name: str

    def choose(self, state: State) -> Any:
        """A legal move of ``state`` (which must be a decision node)."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Any:
        moves = state.legal_moves()
        if not moves:
            raise IllegalMove("there is no move to choose: not a decision node")
        return moves[self.rng.randrange(len(moves))]
