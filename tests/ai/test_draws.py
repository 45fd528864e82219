"""The computer players know the draw rules a state cannot show: a side that is ahead never
completes a repetition, a side that is behind takes it, and a draw is worth an even chance on
the scale of the game's evaluation."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque.ai.agent import Budget, Memory, draw_value, tell
from ludotheque.ai.alphabeta import AlphaBetaAgent
from ludotheque.ai.greedy import GreedyAgent
from ludotheque.ai.levels import make_agent
from ludotheque.record import Record
from tests.ai.test_contempt import Toy

# A General position the rebels lead (the analysis gives them 73%): a5-a4 and back, with the
# general stepping d4-c3 and back, goes round a circle of four positions.
AHEAD = "d4 a1,a2,a5,b2,b3,b4,c1,c2,c5,d1,d5,e1,e4,e5 r 1"
CIRCLE = ["a5-a4", "d4-c3", "a4-a5", "c3-d4"]


def rebels_may_repeat() -> Record:
    """The rebels to move in ``AHEAD`` for the second time, where ``a5-a4`` would reach the
    position after it a third time (the record starts there, the general to move)."""
    game = ludotheque.load("general")
    start = game.parse_position(AHEAD).play("a5-a4")
    record = Record.new(game, start=start.position())
    for move in (CIRCLE[1:] + CIRCLE)[:7]:
        record.play(move)
    assert record.state.position() == AHEAD
    assert record.occurrences(record.state.play("a5-a4")) == 2
    return record


def general_may_repeat() -> Record:
    """The general to move where ``c3-d4`` reaches ``AHEAD`` a third time."""
    record = Record.new("general", start=AHEAD)
    for move in (CIRCLE + CIRCLE)[:7]:
        record.play(move)
    assert record.occurrences(record.state.play("c3-d4")) == 2
    return record


def test_a_draw_is_worth_an_even_chance_on_the_evaluations_scale() -> None:
    general = ludotheque.load("general")
    curve = general.calibration
    assert curve is not None
    rebels = draw_value(general, "rebels")
    assert rebels == pytest.approx(curve.even()) and rebels < -0.5  # the rebels are favoured
    assert curve.chance(rebels) == pytest.approx(0.5)
    assert draw_value(general, "general") == -rebels
    assert draw_value(Toy(), "a") == 0.0  # no fitted curve: the evaluation's own zero


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_levels_never_complete_a_repetition_when_ahead(level: str) -> None:
    record = rebels_may_repeat()
    drawing = record.state.parse_move("a5-a4")
    for seed in range(12 if level != "hard" else 3):
        agent = make_agent("general", level, seed=seed)
        tell(agent, record)
        assert agent.choose(record.state) != drawing


def test_a_side_behind_takes_the_draw() -> None:
    record = general_may_repeat()
    agent = make_agent("general", "hard", seed=1)
    tell(agent, record)
    assert str(agent.choose(record.state)) == "c3-d4"


def test_a_greedy_slip_never_draws_when_ahead() -> None:
    # at a high temperature every move is drawn now and then, but never the repetition
    record = rebels_may_repeat()
    for seed in range(40):
        agent = GreedyAgent(seed, temperature=5.0)
        tell(agent, record)
        assert str(agent.choose(record.state)) != "a5-a4"


def test_a_search_ahead_avoids_a_line_the_other_side_can_repeat() -> None:
    # two moves from the draw: the rebels' a4-a5 would let the general repeat; alpha-beta
    # two plies deep sees it and plays elsewhere, which a one-ply player cannot know
    record = Record.new("general", start=AHEAD)
    for move in (CIRCLE + CIRCLE)[:6]:
        record.play(move)
    agent = AlphaBetaAgent(1, Budget(iterations=2))
    tell(agent, record)
    assert str(agent.choose(record.state)) != "a4-a5"


def test_memory_follows_a_record_and_counts_what_it_sees() -> None:
    record = general_may_repeat()
    followed = Memory()
    followed.follow(record)
    assert followed.played() == 7 and followed.limit == 3 and followed.turn_limit is None
    assert followed.draws(record.state.play("c3-d4"))
    assert followed.count(record.state) == record.occurrences(record.state)
    seen = Memory()
    for state in record.states:
        seen.observe(state)
    assert seen.played() == 7 and seen.count(record.state.play("c3-d4")) == 2
    defiance = Record.new("defiance", "8x8", turn_limit=3)
    for move in ("a1>N", "h8>S"):
        defiance.play(move)
    memory = Memory()
    memory.follow(defiance)
    assert memory.moves_left() == 1 and memory.draws(defiance.state.play("b1>N"))
