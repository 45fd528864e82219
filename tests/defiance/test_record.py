"""Record-level draws for Defiance and Domain: threefold repetition and the 400-turn limit."""

from __future__ import annotations

import ludotheque
from ludotheque import Outcome
from ludotheque.record import Record


def rotate_back_and_forth(rec: Record, times: int) -> None:
    for _ in range(times):
        rec.play("e5@E")
        rec.play("f6@W")
        rec.play("e5@N")
        rec.play("f6@S")


def start_with_two_counters() -> Record:
    rec = Record.new("defiance")
    rec.play("e5>N")
    rec.play("f6>S")
    return rec


def test_threefold_repetition_is_a_draw() -> None:
    rec = start_with_two_counters()
    rotate_back_and_forth(rec, 1)
    assert rec.outcome() is None
    rotate_back_and_forth(rec, 1)
    assert rec.outcome() == Outcome(None, "repetition")
    assert Record.from_json(rec.to_json()).outcome() == Outcome(None, "repetition")


def test_repetition_can_be_switched_off() -> None:
    rec = Record.new("defiance", repetition=False)
    rec.play("e5>N")
    rec.play("f6>S")
    rotate_back_and_forth(rec, 3)
    assert rec.outcome() is None


def test_turn_limit() -> None:
    rec = Record.new("defiance", repetition=False)
    assert rec.turn_limit == 400
    rec.play("e5>N")
    rec.play("f6>S")
    cycle = ["e5@E", "f6@W", "e5@N", "f6@S"]
    while rec.outcome() is None:
        rec.play(cycle[len(rec.moves) % 4 - 2])
    assert rec.outcome() == Outcome(None, "turn-limit")
    assert len(rec.moves) == 400


def test_turn_limit_is_an_option() -> None:
    rec = Record.new("defiance", repetition=False, turn_limit=10)
    rec.play("e5>N")
    rec.play("f6>S")
    rotate_back_and_forth(rec, 2)
    assert rec.outcome() == Outcome(None, "turn-limit") and len(rec.moves) == 10
    again = Record.from_json(rec.to_json())
    assert again.turn_limit == 10 and again.outcome() == Outcome(None, "turn-limit")


def test_defaults_come_from_the_game() -> None:
    game = ludotheque.load("defiance", "8x8")
    rec = Record.new(game)
    assert rec.repetition == 3 and rec.turn_limit == 400 and rec.ruleset == "8x8"
