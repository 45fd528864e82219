"""A random game tree for testing the analysis search against plain minimax.

A state is the path of moves from the root (and whose turn it is: sides alternate). A seed and
the path decide everything by hashing: how many moves a node has, whether the game ends there
(and who won, or a draw), and the evaluation. A ``loop`` move may lead back to an earlier
position (the same path as two plies before), so repetition draws happen too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ludotheque.core import Game, Outcome, State


def _hash(seed: int, path: tuple[int, ...], salt: str) -> int:
    text = f"{seed}:{salt}:{','.join(map(str, path))}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class TreeState(State):
    __slots__ = ("_game", "path")

    def __init__(self, game: TreeGame, path: tuple[int, ...]) -> None:
        self._game = game
        self.path = path

    @property
    def game(self) -> TreeGame:
        return self._game

    @property
    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
        return "a" if len(self.path) % 2 == 0 else "b"

    def position(self) -> str:
        return "/".join(map(str, self.path)) or "root"

    def legal_moves(self) -> Sequence[Any]:
        if self.outcome() is not None:
            return []
        g = self._game
        count = 1 + _hash(g.seed, self.path, "branch") % g.branching
        moves: list[Any] = list(range(count))
        if g.loops and len(self.path) >= 2 and _hash(g.seed, self.path, "loop") % 4 == 0:
            moves.append("loop")
        return moves

    def outcome(self) -> Outcome | None:
        g = self._game
        if not self.path:
            return None
        h = _hash(g.seed, self.path, "end")
        if h % 100 >= g.end_percent:
            return None
        kind = (h // 100) % 3
        return Outcome(None if kind == 2 else "ab"[kind], "toy")

    def parse_move(self, text: str) -> Any:
        return text if text == "loop" else int(text)

    def play(self, move: Any) -> TreeState:
        if move == "loop":
            return TreeState(self._game, self.path[:-2])
        return TreeState(self._game, (*self.path, int(move)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TreeState) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)


class TreeGame(Game):
    name = "toy-tree"
    ruleset = "default"
    sides = ("a", "b")

    def __init__(
        self, seed: int, branching: int = 3, end_percent: int = 15, loops: bool = False
    ) -> None:
        self.seed = seed
        self.branching = branching
        self.end_percent = end_percent
        self.loops = loops

    def start(self) -> TreeState:
        return TreeState(self, ())

    def parse_position(self, text: str) -> TreeState:
        return TreeState(self, () if text == "root" else tuple(int(x) for x in text.split("/")))

    def evaluate(self, state: State, side: str) -> float:
        assert isinstance(state, TreeState)
        h = _hash(self.seed, state.path, "value")
        value = (h % 2001 - 1000) / 1000 * 0.95
        return value if side == "a" else -value


class GraphState(State):
    """A node of a small explicit graph: ``name`` and the side to move."""

    __slots__ = ("_game", "name")

    def __init__(self, game: GraphGame, name: str) -> None:
        self._game = game
        self.name = name

    @property
    def game(self) -> GraphGame:
        return self._game

    @property
    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
        return self._game.nodes[self.name][0]

    def position(self) -> str:
        return self.name

    def legal_moves(self) -> Sequence[Any]:
        return [] if self.outcome() is not None else sorted(self._game.nodes[self.name][1])

    def outcome(self) -> Outcome | None:
        winner = self._game.ends.get(self.name, "")
        if winner == "":
            return None
        return Outcome(winner, "toy")

    def parse_move(self, text: str) -> Any:
        return text

    def play(self, move: Any) -> GraphState:
        return GraphState(self._game, self._game.nodes[self.name][1][move])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GraphState) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


class GraphGame(Game):
    """``nodes`` maps a name to (side to move, {move: next node}); ``ends`` maps a finished
    node to its winner (``None``: a draw); ``values`` rates nodes for side ``a``."""

    name = "toy-graph"
    ruleset = "default"
    sides = ("a", "b")

    def __init__(
        self,
        nodes: dict[str, tuple[str, dict[str, str]]],
        ends: dict[str, str | None],
        values: dict[str, float],
    ) -> None:
        self.nodes = nodes
        self.ends = ends
        self.values = values

    def start(self) -> GraphState:
        return GraphState(self, "start")

    def parse_position(self, text: str) -> GraphState:
        return GraphState(self, text)

    def evaluate(self, state: State, side: str) -> float:
        assert isinstance(state, GraphState)
        value = self.values.get(state.name, 0.1)
        return value if side == "a" else -value
