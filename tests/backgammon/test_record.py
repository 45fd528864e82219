"""Backgammon games in records: seeded dice, exact replay, refused dice that were not rolled."""

from __future__ import annotations

import json
import random

import pytest

import ludotheque
from ludotheque import IllegalMove
from ludotheque.core import CHANCE
from ludotheque.record import InvalidRecord, Record, draw_chance


def play_out(record: Record, rng: random.Random, limit: int = 4000) -> None:
    for _ in range(limit):
        if record.outcome() is not None:
            return
        if record.state.to_move == CHANCE:
            record.roll()
        else:
            moves = record.state.legal_moves()
            record.play(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("ruleset", ["seed", "standard"])
def test_a_whole_game_replays_exactly_from_its_record(ruleset: str) -> None:
    rec = Record.new("backgammon", ruleset, seed="table-7")
    play_out(rec, random.Random(1))
    assert rec.outcome() is not None and rec.outcome().reason == "borne-off"  # type: ignore[union-attr]
    again = Record.from_json(rec.to_json())
    assert again.state == rec.state and again.moves == rec.moves and again.chance == rec.chance
    assert again.to_dict()["result"] == rec.to_dict()["result"]


def test_dice_come_from_the_seed() -> None:
    a = Record.new("backgammon", seed="same")
    b = Record.new("backgammon", seed="same")
    play_out(a, random.Random(5), limit=40)
    play_out(b, random.Random(5), limit=40)
    assert a.chance == b.chance and a.moves == b.moves
    c = Record.new("backgammon", seed="other")
    play_out(c, random.Random(5), limit=40)
    assert c.chance != a.chance


def test_first_roll_is_the_documented_draw() -> None:
    rec = Record.new("backgammon", seed="abc")
    rec.roll()
    outcomes = ludotheque.load("backgammon").start().chance_outcomes()
    assert rec.chance[0] == str(draw_chance("abc", 0, outcomes))


def test_a_seeded_record_refuses_chosen_dice() -> None:
    rec = Record.new("backgammon", seed="abc")
    expected = str(draw_chance("abc", 0, rec.state.chance_outcomes()))
    wrong = "w1b2" if expected != "w1b2" else "w2b1"
    with pytest.raises(IllegalMove, match="not chosen"):
        rec.play(wrong)
    rec.play(expected)


def test_tampered_dice_are_rejected() -> None:
    rec = Record.new("backgammon", seed="abc")
    play_out(rec, random.Random(3), limit=12)
    data = json.loads(rec.to_json())
    first = data["chance"][0]
    data["chance"][0] = "w1b2" if first != "w1b2" else "w2b1"
    with pytest.raises(InvalidRecord, match=r"ply 1 \(chance"):
        Record.from_dict(data)


def test_without_a_seed_any_dice_may_be_recorded() -> None:
    rec = Record.new("backgammon", seed=None)
    assert rec.seed is not None  # a dice game always gets a secret seed
    free = Record.from_dict(
        {"game": "backgammon", "ruleset": "seed", "moves": ["8/5 6/5"], "chance": ["w1b3"]}
    )
    assert free.seed is None
    assert free.state.to_move == "chance"


def test_a_record_missing_dice_is_rejected() -> None:
    with pytest.raises(InvalidRecord, match="chance outcome"):
        Record.from_dict({"game": "backgammon", "ruleset": "seed", "moves": ["8/5 6/5"]})


def test_no_repetition_draw_in_backgammon() -> None:
    rec = Record.new("backgammon")
    assert rec.repetition is None and rec.turn_limit is None
