"""Game records: JSON round trips, replay and verification, repetition, dice, undo, resign."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import ludotheque
from ludotheque import IllegalMove, Outcome
from ludotheque.record import InvalidRecord, Record, draw_chance, seed_digest

# four plies that bring the start position back: the general and a rebel step out and back
CYCLE = ["a2-b2", "c3-c2", "b2-a2", "c2-c3"]


def test_new_record_and_play() -> None:
    rec = Record.new("general", players={"rebels": "Ann", "general": "Bob"})
    assert rec.state == ludotheque.load("general").start()
    rec.play("a2-b2")
    rec.play(rec.state.legal_moves()[0])
    assert rec.moves == ["a2-b2", str(rec.states[1].legal_moves()[0])]
    assert rec.chance == []
    assert rec.to_move == "rebels"


def test_json_round_trip() -> None:
    rec = Record.new("general", players={"rebels": "Ann", "general": "Bob"})
    for m in ["a2-b2", "c3-b4xa3c5", "b2-a2"]:
        rec.play(m)
    again = Record.from_json(rec.to_json())
    assert again.moves == rec.moves
    assert again.players == rec.players
    assert again.started == rec.started
    assert again.state == rec.state
    assert again.to_dict() == rec.to_dict()


def test_moves_are_stored_canonically() -> None:
    rec = Record.new("general")
    rec.play("  A2-B2 ")
    rec.play("c3-b4")  # implied capture
    assert rec.moves == ["a2-b2", "c3-b4xa3c5"]


def test_tampered_record_is_rejected_with_ply_and_reason() -> None:
    rec = Record.new("general")
    for m in ["a2-b2", "c3-b4xa3c5", "b2-a2"]:
        rec.play(m)
    data = rec.to_dict()
    data["moves"][2] = "b5-b4"  # the general stands there
    with pytest.raises(InvalidRecord, match=r"ply 3 \(rebels, 'b5-b4'\): b4 is occupied"):
        Record.from_dict(data)
    data["moves"][1] = "c3-b4xa1a2"
    with pytest.raises(InvalidRecord, match=r"ply 2 \(general.*cannot take"):
        Record.from_dict(data)


def test_moves_after_the_end_are_rejected() -> None:
    rec = Record.new("general", start="c2 a1,c3,e1,e2,a4,a5 g 1")
    rec.play("c2-b2xa1c3")
    data = rec.to_dict()
    assert data["result"] == {"winner": "general", "reason": "twelve-captured"}
    data["moves"].append("a4-a3")
    with pytest.raises(InvalidRecord, match=r"ply 2.*already over"):
        Record.from_dict(data)


def test_result_must_match_the_moves() -> None:
    rec = Record.new("general", start="c2 a1,c3,e1,e2,a4,a5 g 1")
    rec.play("c2-b2xa1c3")
    data = rec.to_dict()
    data["result"] = {"winner": "rebels", "reason": "shut-in"}
    with pytest.raises(InvalidRecord, match="moves give general"):
        Record.from_dict(data)
    data["result"] = None
    with pytest.raises(InvalidRecord, match="no result"):
        Record.from_dict(data)
    rec2 = Record.new("general")
    d2 = rec2.to_dict()
    d2["result"] = {"winner": "general", "reason": "twelve-captured"}
    with pytest.raises(InvalidRecord, match="not over"):
        Record.from_dict(d2)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("[]", "JSON object"),
        ("{", "not a JSON record"),
        ('{"game": "chess", "ruleset": null}', "unknown game"),
        ('{"game": "general", "ruleset": "x"}', "unknown ruleset"),
        ('{"ruleset": null}', "no 'game'"),
        ('{"game": "general", "ruleset": null, "moves": "a2-b2"}', "wrong type"),
        ('{"game": "general", "ruleset": null, "moves": [1]}', "list of strings"),
        ('{"game": "general", "ruleset": null, "start": "zz"}', "bad start position"),
        ('{"game": "general", "ruleset": null, "format": "pgn"}', "not a Ludothèque record"),
        ('{"game": "general", "ruleset": null, "options": {"repetition": 0}}', "positive"),
        ('{"game": "general", "ruleset": null, "players": {"rebels": 3}}', "players"),
        (
            '{"game": "general", "ruleset": null, "result": {"winner": 1}}',
            "the result is an object",
        ),
    ],
)
def test_malformed_records(data: str, reason: str) -> None:
    with pytest.raises(InvalidRecord, match=reason):
        Record.from_json(data)


def test_a_record_refusal_is_a_coded_invalid_position() -> None:
    """DESIGN.md: bad input raises only ``IllegalMove`` or ``InvalidPosition``, as data. A record
    was refused by a third class with no code (an outsider's review)."""
    text = json.dumps({"game": "general", "ruleset": None, "moves": ["a2-b2", "a1-b2"]})
    with pytest.raises(ludotheque.InvalidPosition) as refused:
        Record.from_json(text)
    assert isinstance(refused.value, InvalidRecord)
    assert refused.value.code == "record-illegal-move"
    assert refused.value.params["ply"] == 2 and refused.value.params["side"] == "general"
    assert str(refused.value) == refused.value.template.format(**refused.value.params)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_nested_too_deeply_is_refused_not_a_recursion_error(depth: int) -> None:
    for text in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        with pytest.raises(InvalidRecord) as refused:
            Record.from_json(text)
        assert refused.value.code in ("record-too-deep", "record-not-object")


def test_the_analyse_command_says_a_deep_record_is_not_a_game_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ludotheque.cli import main

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["analyse", str(deep)]) != 0
    assert "is not a game record: not a record: its JSON is nested too deeply" in (
        capsys.readouterr().err
    )


def test_threefold_repetition_is_a_draw() -> None:
    rec = Record.new("general")
    for m in CYCLE:
        rec.play(m)
    assert rec.outcome() is None  # the start position has now occurred twice
    for m in CYCLE[:3]:
        rec.play(m)
    assert rec.outcome() is None
    rec.play(CYCLE[3])  # third occurrence of the start position
    assert rec.outcome() == Outcome(None, "repetition")
    assert rec.to_move is None
    assert rec.state.outcome() is None  # the state itself knows nothing of history
    with pytest.raises(IllegalMove, match="over"):
        rec.play("a2-b2")
    again = Record.from_json(rec.to_json())
    assert again.outcome() == Outcome(None, "repetition")


def test_repetition_counts_side_to_move_and_flight() -> None:
    # the same points with the other side to move are a different position
    rec = Record.new("general")
    rec.play("a2-b2")
    rec.play("c3-c2")
    rec.play("b2-a2")
    assert rec._seen[rec.state] == 1


def test_repetition_option_off() -> None:
    rec = Record.new("general", repetition=False)
    for _ in range(3):
        for m in CYCLE:
            rec.play(m)
    assert rec.outcome() is None
    assert Record.from_json(rec.to_json()).repetition is None


def test_undo() -> None:
    rec = Record.new("general")
    rec.play("a2-b2")
    rec.play("c3-c2")
    assert rec.undo() == rec.states[-1]
    assert rec.moves == ["a2-b2"]
    rec.undo()
    assert rec.state == ludotheque.load("general").start()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        rec.undo()


def test_undo_reopens_a_drawn_game() -> None:
    rec = Record.new("general")
    for m in CYCLE * 2:
        rec.play(m)
    assert rec.outcome() is not None
    rec.undo()
    assert rec.outcome() is None


def test_resign() -> None:
    rec = Record.new("general")
    rec.play("a2-b2")
    assert rec.resign("general") == Outcome("rebels", "resignation")
    assert rec.to_move is None
    again = Record.from_json(rec.to_json())
    assert again.outcome() == Outcome("rebels", "resignation")
    with pytest.raises(IllegalMove):
        rec.resign("rebels")
    with pytest.raises(IllegalMove, match="unknown side"):
        Record.new("general").resign("white")


def test_start_from_a_position() -> None:
    rec = Record.new("general", start="C2 A1,c3,e1,e2,a4,a5 G 1")
    assert rec.start == "c2 a1,a4,a5,c3,e1,e2 g 1"
    assert Record.from_json(rec.to_json()).state == rec.state


def test_draw_chance_is_deterministic_and_fair() -> None:
    outcomes = [("a", 1 / 36), ("b", 2 / 36), ("c", 33 / 36)]
    draws = [draw_chance("seed", i, outcomes) for i in range(3600)]
    assert draws == [draw_chance("seed", i, outcomes) for i in range(3600)]
    assert draws != [draw_chance("other", i, outcomes) for i in range(3600)]
    counts = {k: draws.count(k) for k in "abc"}
    assert 50 < counts["a"] < 160 and 130 < counts["b"] < 280
    # exact weights: 1/30 each
    thirty = [(i, 1 / 30) for i in range(30)]
    seen = {draw_chance("x", i, thirty) for i in range(2000)}
    assert seen == set(range(30))
    assert Fraction(1 / 36).limit_denominator(10_000) == Fraction(1, 36)


def test_seed_digest() -> None:
    assert seed_digest("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_seed_commitment_checked_on_load() -> None:
    rec = Record.new("general", seed="s3cret")
    data = json.loads(rec.to_json())
    assert data["dice"] == {"seed": "s3cret", "seed_sha256": seed_digest("s3cret")}
    data["dice"]["seed"] = "other"
    with pytest.raises(InvalidRecord, match="commitment"):
        Record.from_dict(data)
    hidden = json.loads(rec.to_json(reveal_seed=False))
    assert hidden["dice"]["seed"] is None


def test_roll_without_chance_node() -> None:
    with pytest.raises(IllegalMove, match="nothing to roll"):
        Record.new("general").roll()


def test_the_package_keeps_every_name_the_module_had() -> None:
    """``ludotheque.record`` became a package (dice, endings, format, match, history): every
    name the module offered is still importable from it, the same objects as its modules'."""
    from ludotheque import record
    from ludotheque.record import dice, endings, format, history, match

    assert record.Record is history.Record and record.InvalidRecord is format.InvalidRecord
    assert record.draw_chance is dice.draw_chance and record.seed_digest is dice.seed_digest
    assert (record.FORMAT, record.VERSION) == ("ludotheque-record", 1)
    assert (record.REPETITION, record.TURN_LIMIT, record.RESIGNATION, record.ABANDONED) == (
        "repetition", "turn-limit", "resignation", "abandoned",
    )  # fmt: skip
    assert set(record.__all__) >= {
        "REPETITION", "RESIGNATION", "TURN_LIMIT", "InvalidRecord", "Record", "draw_chance",
        "seed_digest",
    }  # fmt: skip
    assert match.points(Record.new("general")) is None
    assert endings.draw(1, 0, 3, None) is None


def test_a_record_reads_its_fields_in_a_fixed_order() -> None:
    """Of several faults, the first in the format's order is named (as when the module was
    one file): the game, then the lists, the players, the dice, then the replay, then the end
    date and the result."""
    good = json.loads(Record.new("general").to_json())
    cases: list[tuple[dict[str, object], str]] = [
        ({"game": 1, "moves": "x"}, "'game' has the wrong type"),
        ({"moves": "x", "players": []}, "'moves' has the wrong type"),
        ({"players": [], "dice": 3}, "'players' has the wrong type"),
        ({"dice": {"seed": "a", "seed_sha256": "b"}, "started": 1}, "commitment"),
        ({"started": 1, "options": {"repetition": 0}}, "'started' has the wrong type"),
        ({"options": {"repetition": 0, "turn_limit": 0}}, "option 'repetition'"),
        ({"moves": ["z9-z8"], "ended": 1}, "ply 1"),
        ({"ended": 1, "result": 2}, "'ended' has the wrong type"),
        ({"result": 2}, "'result' has the wrong type"),
    ]
    for change, message in cases:
        with pytest.raises(InvalidRecord, match=message):
            Record.from_dict({**good, **change})
