"""When the clock cuts an iteration of alpha-beta, the root moves already searched to the new depth
still count: a trap found at depth 2 in the one-ply favourite is avoided even if the last candidate
was never searched. A toy game and a clock that runs out at a chosen moment keep the test exact."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ludotheque.ai.agent import Budget, Clock
from ludotheque.ai.alphabeta import AlphaBetaAgent
from ludotheque.core import State
from tests.ai.toy import NamedGame, NamedState

# the root's moves and their one-ply values for "a"; each reply's value for "a"
ONE_PLY = {"A": 0.5, "B": 0.3, "C": 0.1}
REPLIES = {"A": {"a1": -0.9, "a2": 0.5}, "B": {"b1": 0.2, "b2": 0.25}}
SLOW = [f"c{i}" for i in range(70)]  # C has many replies: scoring them looks at the clock


class ToyState(NamedState):
    _game: Toy

    def legal_moves(self) -> Sequence[Any]:
        if self.name == "root":
            return list(ONE_PLY)
        if self.name == self._game.cut_in:
            self._game.time_up = True
        if self.name in REPLIES:
            return list(REPLIES[self.name])
        return SLOW if self.name == "C" else ["pass"]

    def play(self, move: Any) -> State:
        return ToyState(self._game, move if move != "pass" else self.name, self.other)


class Toy(NamedGame):
    repetition_limit = None
    state_type = ToyState
    start_node = "root"
    values: ClassVar[dict[str, float]] = ONE_PLY | {
        reply: v for replies in REPLIES.values() for reply, v in replies.items()
    }

    def __init__(self, cut_in: str | None) -> None:
        self.cut_in = cut_in  # the node whose replies, once listed, stop the clock
        self.time_up = False


class ToyClock(Clock):
    def __init__(self, game: Toy) -> None:
        super().__init__(None)
        self.game = game

    def expired(self) -> bool:
        return self.game.time_up


@dataclass(frozen=True)
class ToyBudget(Budget):
    game: Toy | None = None

    def clock(self) -> Clock:
        assert self.game is not None
        return ToyClock(self.game)


def _choice(cut_in: str | None) -> str:
    game = Toy(cut_in)
    agent = AlphaBetaAgent(1, ToyBudget(iterations=2, game=game), beam=3, order_depth=1)
    move = str(agent.choose(game.start()))
    assert game.time_up == (cut_in is not None)
    return move


def test_a_full_two_ply_search_avoids_the_trap() -> None:
    assert _choice(None) == "B"


def test_a_two_ply_search_cut_before_its_last_move_still_avoids_the_trap() -> None:
    assert _choice("C") == "B"
