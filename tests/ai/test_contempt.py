"""Contempt: with it, alpha-beta refuses a repetition draw for a slightly worse position; without
it, the draw is worth exactly zero. A toy game keeps the test exact."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludotheque.ai.agent import Budget
from ludotheque.ai.alphabeta import AlphaBetaAgent
from ludotheque.core import Game, State
from tests.ai.toy import NamedState


class Toy(Game):
    """From ``home`` the mover may go ``back`` (to ``loop``, already seen twice: a third time is a
    draw, though the evaluation alone rates it ``-0.1``) or ``on`` (rated ``-0.05`` for the
    mover)."""

    name = "toy"
    ruleset = "toy"
    sides = ("a", "b")
    repetition_limit = 3

    def start(self) -> State:
        return ToyState(self, "home", "a")

    def parse_position(self, text: str) -> State:
        name, side = text.split()
        return ToyState(self, name, side)

    def evaluate(self, state: State, side: str) -> float:
        assert isinstance(state, ToyState)
        value = {"on": -0.05, "loop": -0.1}.get(state.name, 0.0)
        return value if side == "a" else -value


class ToyState(NamedState):
    def legal_moves(self) -> Sequence[Any]:
        return ["back", "on"] if self.name == "home" else ["wait"]

    def play(self, move: Any) -> State:
        if move == "back":
            return ToyState(self.game, "loop", self.other)
        if move == "on":
            return ToyState(self.game, "on", self.other)
        return ToyState(self.game, self.name, self.other)


def _choice(contempt: float | dict[str, float]) -> str:
    game = Toy()
    agent = AlphaBetaAgent(1, Budget(iterations=1), contempt=contempt)
    loop = ToyState(game, "loop", "b")
    agent.memory.observe(loop)
    agent.memory.observe(loop)
    return str(agent.choose(game.start()))


def test_without_contempt_a_draw_beats_a_worse_position() -> None:
    assert _choice(0.0) == "back"


def test_with_contempt_the_agent_plays_on() -> None:
    assert _choice(0.2) == "on"


def test_contempt_per_side_applies_only_to_the_side_named() -> None:
    # the toy's root mover is side "a"
    assert _choice({"a": 0.2}) == "on"
    assert _choice({"b": 0.2}) == "back"
