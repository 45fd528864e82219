"""Undo cannot reveal dice: every roll is drawn at a draw number that counts the rolls an undo
took back, so the roll after a take-back is a new draw, and the record still lets anyone check
every roll against the seed (with each roll's draw number once an undo happened; records
without draw numbers verify as before)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.record import Record, draw_chance
from ludotheque.record.format import InvalidRecord
from ludotheque.server.play.session import GameSession, replay

START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"


def played(record: Record, rng: random.Random) -> None:
    """Play one decision (a random legal move), then any rolls that follow."""
    moves = record.state.legal_moves()
    record.play(rng.choice(moves))
    while record.outcome() is None and record.state.to_move == "chance":
        record.roll()


def test_the_roll_after_a_take_back_is_a_new_draw() -> None:
    """Over many games: play, see the next roll, take the play back, play again. With a fixed
    sequence the same roll always came back (the future was shown); now it is a fresh draw,
    the same only as often as two independent rolls agree (66/1296 ≈ 5%)."""
    same = 0
    trials = 400
    rng = random.Random(7)
    for trial in range(trials):
        record = Record.new("backgammon", "standard", start=START, seed=f"trial-{trial}")
        played(record, rng)
        seen = record.chance[-1]
        assert record.draws == [0]
        record.undo()  # the roll
        record.undo()  # the play
        played(record, rng)
        assert record.draws == [1] and record.drawn == 2
        assert record.chance[-1] == str(draw_chance(f"trial-{trial}", 1, ROLLS))
        same += record.chance[-1] == seen
    assert same / trials < 0.12, same  # expected about 0.05; a fixed sequence gives 1.0


ROLLS = ludotheque.load("backgammon").parse_position("W[6] B[6] w -").chance_outcomes()


def test_a_record_without_take_backs_is_written_as_before() -> None:
    record = Record.new("backgammon", start=START, seed="plain")
    rng = random.Random(1)
    for _ in range(6):
        played(record, rng)
    data = record.to_dict()
    assert set(data["dice"]) == {"seed", "seed_sha256"}  # no draw numbers: 0, 1, 2…
    assert Record.from_dict(data).chance == record.chance


def test_draw_numbers_travel_with_the_record_and_are_checked() -> None:
    record = Record.new("backgammon", start=START, seed="undone")
    rng = random.Random(3)
    played(record, rng)
    played(record, rng)
    record.undo()  # the last roll
    record.undo()  # the last play
    played(record, rng)
    data = json.loads(record.to_json())
    assert data["dice"]["draws"] == [0, 2] and data["dice"]["drawn"] == 3
    again = Record.from_json(json.dumps(data))
    assert (again.chance, again.draws, again.drawn) == (record.chance, [0, 2], 3)
    # the next roll after reading the record is a fresh draw too
    again.play(again.state.legal_moves()[0])
    again.roll()
    assert again.draws[-1] == 3
    # draw numbers that do not give the record's rolls are refused
    forged = json.loads(record.to_json())
    forged["dice"]["draws"] = [0, 1]
    forged["dice"]["drawn"] = 2
    assert str(draw_chance("undone", 1, ROLLS)) != record.chance[1]  # (this seed's draws)
    with pytest.raises(InvalidRecord, match="dice"):
        Record.from_dict(forged)


@pytest.mark.parametrize(
    "dice",
    [
        {"draws": [0]},  # one number for two rolls
        {"draws": [1, 0]},  # decreasing
        {"draws": [0, 0]},
        {"draws": [0, True]},
        {"draws": [0, -1]},
        {"draws": [0, "2"]},
        {"draws": [0, 2], "drawn": 2},  # drawn must be past the last draw
        {"draws": "0,2"},
        {"draws": [0, 2], "drawn": 2.5},
    ],
)
def test_malformed_draw_numbers_are_refused(dice: dict[str, object]) -> None:
    record = Record.new("backgammon", start=START, seed="shape")
    rng = random.Random(5)
    played(record, rng)
    played(record, rng)
    data = record.to_dict()
    data["dice"].update(dice)
    with pytest.raises(InvalidRecord):
        Record.from_dict(data)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["play", "undo"]), min_size=1, max_size=30), st.integers(0, 99))
def test_any_play_and_take_back_sequence_verifies(steps: list[str], seed: int) -> None:
    record = Record.new("backgammon", start=START, seed=f"h{seed}")
    rng = random.Random(seed)
    for step in steps:
        if record.outcome() is not None:
            break
        if step == "undo" and record.plies:
            record.undo()
            while record.plies and record.state.to_move == "chance":
                record.undo()
        elif step == "play":
            played(record, rng)
    assert record.draws == sorted(set(record.draws)) and len(record.draws) == len(record.chance)
    assert all(d < record.drawn for d in record.draws)
    back = Record.from_json(record.to_json())
    assert (back.chance, back.draws, back.drawn, back.moves) == (
        record.chance, record.draws, record.drawn, record.moves
    )  # fmt: skip
    for rolled, n in zip(record.chance, record.draws, strict=True):
        assert rolled == str(draw_chance(f"h{seed}", n, ROLLS))


def test_games_logged_before_draws_were_counted_still_replay() -> None:
    """A server log written before draw numbers (its chance entries carry none, and a roll an
    undo took back was drawn again at the same place) replays as it was played."""
    seed = "old-log"
    record = Record.new("backgammon", start=START, seed=seed)
    session = GameSession("g1", "backgammon", "standard", "computer", {}, "black", "easy",
                          record)  # fmt: skip
    first = str(draw_chance(seed, 0, ROLLS))
    second = str(draw_chance(seed, 1, ROLLS))
    old_log: list[tuple[str, dict[str, Any]]] = [
        ("move", {"text": "8/5 6/5"}), ("chance", {"text": first}),
        ("move", {"text": str(_any_move(first))}), ("chance", {"text": second}),
        ("undo", {"plies": 4}),
        ("move", {"text": "8/5 6/5"}), ("chance", {"text": first}),  # the same dice again
    ]  # fmt: skip
    for kind, data in old_log:
        replay(session, kind, data)
    assert record.chance == [first] and record.draws == [0]
    assert Record.from_json(record.to_json()).chance == [first]
    # and a new roll in that game is a fresh draw
    replay(session, "move", {"text": str(_any_move(first))})
    record.roll()
    assert record.draws == [0, 2]


def _any_move(roll: str) -> object:
    """Black's first legal play after white's 8/5 6/5 and ``roll``."""
    twin = Record.new("backgammon", start=START, seed="old-log")
    twin.play("8/5 6/5")
    twin.play(roll)
    return twin.state.legal_moves()[0]
