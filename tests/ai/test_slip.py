"""Slips: with ``slip`` an alpha-beta player sometimes plays the move one ply ahead likes
instead of the searched one, and a greedy player sometimes draws its move by temperature instead
of playing its best. A toy game where search and one ply disagree keeps the test exact."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ludotheque.ai.agent import Budget
from ludotheque.ai.alphabeta import AlphaBetaAgent
from ludotheque.ai.greedy import GreedyAgent
from ludotheque.core import State
from tests.ai.toy import NamedGame, NamedState


class BaitState(NamedState):
    def legal_moves(self) -> Sequence[Any]:
        if self.name == "home":
            return ["bait", "safe", "loop"]
        if self.name == "bait":
            return ["punish", "pass"]
        return ["wait"]

    def play(self, move: Any) -> State:
        if move == "punish":
            return BaitState(self.game, "punished", self.other)
        if move in ("bait", "safe", "loop"):
            return BaitState(self.game, move, self.other)
        return BaitState(self.game, self.name, self.other)


class Bait(NamedGame):
    """From ``home`` the mover may take the ``bait`` (rated +0.5 for it, but the opponent's reply
    leads to ``punished``, -0.9) or play ``safe`` (+0.1, and nothing better or worse follows).
    ``loop`` has been seen before: reaching it again is a repetition draw."""

    repetition_limit = 2
    state_type = BaitState
    start_node = "home"
    values: ClassVar[dict[str, float]] = {
        "bait": 0.5,
        "punished": -0.9,
        "safe": 0.1,
        "loop": -0.3,
    }  # for "a", the root mover


def _agent(seed: int, slip: float, temperature: float = 0.0, contempt: float = 0.0) -> Any:
    agent = AlphaBetaAgent(
        seed, Budget(iterations=2), slip=slip, slip_temperature=temperature, contempt=contempt
    )
    agent.memory.observe(BaitState(Bait(), "loop", "b"))
    return agent


def test_without_slips_the_search_sees_the_punishment() -> None:
    game = Bait()
    assert all(_agent(seed, 0.0).choose(game.start()) == "safe" for seed in range(50))


def test_a_slip_plays_what_one_ply_likes() -> None:
    game = Bait()
    assert _agent(1, 1.0).choose(game.start()) == "bait"


def test_slips_come_at_the_rate_asked_and_replay_with_the_seed() -> None:
    game = Bait()
    first = [_agent(seed, 0.25).choose(game.start()) for seed in range(2000)]
    again = [_agent(seed, 0.25).choose(game.start()) for seed in range(2000)]
    assert first == again
    assert set(first) == {"bait", "safe"}
    assert 0.22 < first.count("bait") / 2000 < 0.28


class Behind(Bait):
    """The same moves with every position worse for the mover than a draw (``loop`` is still a
    repetition draw)."""

    values: ClassVar[dict[str, float]] = {
        "bait": -0.2,
        "punished": -0.9,
        "safe": -0.4,
        "loop": -0.3,
    }


def test_a_slip_never_draws_when_ahead() -> None:
    # going back to ``loop`` repeats it into a draw (worth 0 here), and the mover has moves
    # worth more (the bait's +0.5): a slip, however hot, never draws, whatever the contempt
    game = Bait()
    for contempt in (0.0, 1.0):
        moves = [
            _agent(seed, 1.0, temperature=0.3, contempt=contempt).choose(game.start())
            for seed in range(300)
        ]
        assert "loop" not in moves and set(moves) == {"bait", "safe"}


def test_a_slip_values_a_repetition_draw_with_the_contempt() -> None:
    game = Behind()

    # Behind (every move worse than a draw), a slip scores the draw 0 without contempt: the
    # best move, drawn most often at temperature 0.3; with contempt 1 a draw is worth -1, less
    # than any move, and the player is ahead of it: it never draws.
    def slips(contempt: float) -> list[Any]:
        return [
            _agent(seed, 1.0, temperature=0.3, contempt=contempt).choose(game.start())
            for seed in range(300)
        ]

    hot, cold = slips(1.0), slips(0.0)
    assert hot.count("loop") == 0
    assert cold.count("loop") > 100


def _greedy(seed: int, slip: float) -> Any:
    agent = GreedyAgent(seed, slip=slip, slip_temperature=0.3)
    agent.memory.observe(BaitState(Bait(), "loop", "b"))
    return agent


def test_greedy_without_slips_always_plays_its_best_move() -> None:
    game = Bait()
    assert {_greedy(seed, 0.0).choose(game.start()) for seed in range(200)} == {"bait"}


def test_greedy_slips_at_the_rate_asked_and_replays_with_the_seed() -> None:
    # A slip draws at temperature 0.3 over bait (+0.5), safe (+0.1) and the draw (0): the bait
    # about 69% of the time, so a quarter of slips leave it about 8% of the time.
    game = Bait()
    first = [_greedy(seed, 0.25).choose(game.start()) for seed in range(2000)]
    assert first == [_greedy(seed, 0.25).choose(game.start()) for seed in range(2000)]
    assert 0.05 < (2000 - first.count("bait")) / 2000 < 0.11
