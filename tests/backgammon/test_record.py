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


# -- games played for points ---------------------------------------------------------------


def test_a_money_game_records_its_cube_actions_and_points() -> None:
    rec = Record.new("backgammon", "money", seed="cube-1")
    rng = random.Random(2)
    play_out(rec, rng)
    assert rec.outcome() is not None
    data = rec.to_dict()
    points = data["result"]["points"]
    assert points == rec.state.points() and points >= 1  # type: ignore[attr-defined]
    again = Record.from_json(rec.to_json())
    assert again.state == rec.state and again.points() == points
    assert any(m in ("double", "roll", "take", "drop") for m in rec.moves)
    data["result"]["points"] = points + 1
    with pytest.raises(InvalidRecord, match="points"):
        Record.from_dict(data)


def test_old_records_without_points_still_load() -> None:
    rec = Record.new("backgammon", "money", seed="cube-2")
    play_out(rec, random.Random(3))
    data = rec.to_dict()
    del data["result"]["points"]
    assert Record.from_dict(data).points() == rec.points()
    seed_rec = Record.new("backgammon", "standard", seed="x")
    play_out(seed_rec, random.Random(1))
    assert "points" not in seed_rec.to_dict()["result"]
    assert seed_rec.points() is None and seed_rec.next_game() is None


def test_a_match_is_a_chain_of_records() -> None:
    """Each game's record starts at the match score; the next one follows until a side has
    the match; every record replays."""
    game = ludotheque.load("backgammon", "match")
    start = game.start(length=3)
    rec: Record | None = Record.new(game, start=start.position(), seed="m-0",
                                    players={"white": "a", "black": "b"})  # fmt: skip
    rng = random.Random(4)
    games = 0
    last: Record | None = None
    while rec is not None:
        play_out(rec, rng)
        assert Record.from_json(rec.to_json()).points() == rec.points()
        last = rec
        rec = rec.next_game(seed=f"m-{games + 1}")
        games += 1
        assert games < 40
    assert last is not None
    final = last.state.score_after()  # type: ignore[attr-defined]
    assert max(final) >= 3 and last.next_game() is None


def test_a_record_resignation_in_a_match_scores_what_could_be_lost() -> None:
    game = ludotheque.load("backgammon", "match")
    rec = Record.new(game, start=game.start(length=5).position(), seed="r")
    rec.roll()
    rec.resign(str(rec.state.to_move))
    assert rec.points() == 3  # everything: nothing borne off, checkers in the other's home
    nxt = rec.next_game()
    assert nxt is not None and "match 5" in nxt.state.position()
    again = Record.from_json(rec.to_json())
    assert again.points() == 3
