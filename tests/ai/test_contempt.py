"""Contempt: with it, alpha-beta refuses a repetition draw for a slightly worse position; without
it, the draw is worth exactly zero. A toy game keeps the test exact."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ludotheque.ai.agent import Budget
from ludotheque.ai.alphabeta import AlphaBetaAgent
from ludotheque.core import State
from tests.ai.toy import NamedGame, NamedState


class ToyState(NamedState):
    def legal_moves(self) -> Sequence[Any]:
        return ["back", "on"] if self.name == "home" else ["wait"]

    def play(self, move: Any) -> State:
        if move == "back":
            return ToyState(self.game, "loop", self.other)
        if move == "on":
            return ToyState(self.game, "on", self.other)
        return ToyState(self.game, self.name, self.other)


class Toy(NamedGame):
    """From ``home`` the mover may go ``back`` (to ``loop``, already seen twice: a third time is a
    draw, though the evaluation alone rates it ``-0.1``) or ``on`` (rated ``-0.05`` for the
    mover)."""

    repetition_limit = 3
    state_type = ToyState
    start_node = "home"
    values: ClassVar[dict[str, float]] = {"on": -0.05, "loop": -0.1}


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
