"""The backgammon player's offers to resign: made when the race is lost for sure, and, once
declined, not made again until the offer would be a different one (the server shows the agent
the game so far through its ``memory``)."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.record import Record

LOST = "W[1x2] B[6x4,5x3,4x3,3x2,2x2,1] b - cube 1 jacoby"  # black loses a single game


def think(record: Record, level: str) -> str:
    """What the server's worker does: a fresh agent, shown the game so far."""
    agent = make_agent("backgammon", level, seed=1)
    for state in record.states[:-1]:
        agent.memory.observe(state)  # type: ignore[attr-defined]
    return str(agent.choose(record.state))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_declined_offer_is_not_made_again(level: str) -> None:
    record = Record.new(ludotheque.load("backgammon", "money"), start=LOST, seed="s")
    assert think(record, level) == "resign single"
    record.play("resign single")
    record.play("decline")
    assert think(record, level) == "roll"  # it plays on
    record.play("roll")
    record.roll()
    played = think(record, level)
    assert not played.startswith("resign")  # and does not ask the same again after the roll
    # an accepted offer ends the game; a new game's agent offers again
    fresh = Record.new(ludotheque.load("backgammon", "money"), start=LOST, seed="t")
    fresh.play(think(fresh, level))
    fresh.play("accept")
    assert fresh.outcome() is not None and fresh.outcome().reason == "resignation"  # type: ignore[union-attr]
