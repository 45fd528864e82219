"""Defiance and Domain position strings and turn notation."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import IllegalMove, InvalidPosition
from tests.defiance.strategies import position

TEN = ludotheque.load("defiance")
EIGHT = ludotheque.load("defiance", "8x8")
START = "10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r"


def test_round_trip_and_canonical_output() -> None:
    text = " 10/10/10/10/10/4rn5/10/10/10/10   i40,r39  i8.7,R3.2,I7.8   I "
    s = TEN.parse_position(text)
    assert s.position() == "10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.2,I7.8,I8.7 i"
    assert TEN.parse_position(s.position()) == s
    assert s.counters() == {"e5": ("rebels", "N")}


def test_rows_read_from_the_top() -> None:
    s = TEN.parse_position(position({"a10": "IS", "j1": "RNW"}))
    assert s.position().startswith("IS9/") and s.position().split()[0].endswith("/9RNW")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "4 fields"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7", "4 fields"),
        ("10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "10 rows"),
        ("10/10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "10 rows"),
        ("10/10/10/10/10/9/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "9 cells"),
        ("10/10/10/10/10/11/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "more than 10"),
        ("10/10/10/10/10/9RN1/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "more than 10"),
        ("10/10/10/10/10/4R5/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "needs a direction"),
        ("10/10/10/10/10/4RX5/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "needs a direction"),
        ("10/10/10/10/10/4QN5/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "cannot read"),
        ("10/10/10/10/10//10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "empty"),
        ("10/10/10/10/10/0RN9/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "0 cells"),
        ("10/10/10/10/10/10/10/10/10/10 r40 R2.2,I7.8,I8.7 r", "both sides"),
        ("10/10/10/10/10/10/10/10/10/10 r40,x40 R2.2,I7.8,I8.7 r", "pools"),
        ("10/10/10/10/10/10/10/10/10/10 r40,r40 R2.2,I7.8,I8.7 r", "twice"),
        ("10/10/10/10/10/10/10/10/10/10 r39,i40 R2.2,I7.8,I8.7 r", "not 40"),
        ("10/10/10/10/10/4RN5/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", "41, not 40"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8 r", "one Rebel and two Imperial"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,R3.3,I7.8,I8.7 r", "one Rebel"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7,I1.1 r", "not 1 and 3"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R11.2,I7.8,I8.7 r", "off the board"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I7.8 r", "both Imperial Commands"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2-2,I7.8,I8.7 r", "cannot read the Command"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 x", "'r', 'i' or '-'"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 -", "only for a finished game"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R7.8,I7.8,I8.7 r", "side must be '-'"),
        ("10/10/10/10/10/10/10/10/10/10 r40,i40 R7.8,I7.8,I8.7 i", "side must be '-'"),
        ("10/10/10/10/10/10/10/3IERNIW4/10/10 r39,i38 R2.2,I7.8,I8.7 r", "e3 is flanked"),
    ],
)
def test_invalid_positions(text: str, reason: str) -> None:
    with pytest.raises(InvalidPosition, match=reason):
        TEN.parse_position(text)


def test_flanked_means_a_capture_pending() -> None:
    # a Rebel counter between two Imperial counters pointing at it
    with pytest.raises(InvalidPosition, match="d3 is flanked"):
        TEN.parse_position(position({"d3": "RN", "c3": "IE", "e3": "IW"}))
    # an inactive diagonal flank is valid (no Imperial Command in that sector)
    s = TEN.parse_position(
        position({"h8": "RN", "g7": "INE", "i9": "ISW"}, imperial=("5.8", "8.5"))
    )
    assert "h8" in s.counters()


@pytest.mark.parametrize("value", [None, 3, b"10/10", ["10"]])
def test_non_strings(value: object) -> None:
    with pytest.raises(InvalidPosition, match="must be a string"):
        TEN.parse_position(value)  # type: ignore[arg-type]


def test_8x8_positions() -> None:
    s = EIGHT.parse_position("8/8/8/8/8/8/8/8 r40,i40 R2.2,I6.6,I6.6 r")
    assert s == EIGHT.start()
    with pytest.raises(InvalidPosition, match="8 rows"):
        EIGHT.parse_position(START)
    with pytest.raises(InvalidPosition, match=r"both Imperial Commands on P5\.5"):
        EIGHT.parse_position("8/8/8/8/8/8/8/8 r40,i40 R2.2,I5.5,I5.5 r")


def test_finished_positions_are_valid() -> None:
    s = TEN.parse_position("10/10/10/10/10/10/10/10/10/10 r40,i40 R7.8,I7.8,I8.7 -")
    assert s.outcome() is not None and s.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        s.play("a1>N")


# -- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("e5>N", "e5>N"),
        ("E5>n", "e5>N"),
        (" e5 > ne ", "e5>NE"),
        ("e5>N;P2.2-P3.2", "e5>N;P2.2-P3.2"),
        ("e5>N ; p2.2-p3.3", "e5>N;P2.2-P3.3"),
        ("j10>SW", "j10>SW"),
    ],
)
def test_turn_notation(text: str, canonical: str) -> None:
    assert str(TEN.start().parse_move(text)) == canonical


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "cannot read"),
        ("e5", "cannot read"),
        ("e5-N", "cannot read"),
        ("k1>N", "not a cell"),
        ("a11>N", "not a cell"),
        ("a0>N", "not a cell"),
        ("a01>N", "not a cell"),
        ("e5>Q", "not a direction"),
        ("e5>NNE", "not a direction"),
        ("e5@N", "no counter of the rebels"),
        ("e5>N;", "cannot read the Command move"),
        ("e5>N;P2.2", "cannot read the Command move"),
        ("e5>N;P2.2-P4.4", "not next to"),
        ("e5>N;P3.3-P4.4", "Rebel Command is on P2.2"),
        ("e5>N;P2.2-P12.2", "leaves the board"),
        ("e5>N;P2.2-P3.2;P3.2-P4.2", "cannot read"),
    ],
)
def test_bad_turn_text(text: str, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        TEN.start().parse_move(text)


@pytest.mark.parametrize("value", [None, 5, ("e5", "N")])
def test_non_text_turns(value: object) -> None:
    with pytest.raises(IllegalMove):
        TEN.start().play(value)


def test_turns_of_the_other_board_are_refused() -> None:
    turn = EIGHT.start().legal_moves()[0]
    with pytest.raises(IllegalMove, match="not a turn of this game"):
        TEN.start().play(turn)


def test_8x8_notation() -> None:
    s = EIGHT.start()
    assert str(s.parse_move("h8>SW;P2.2-P3.3")) == "h8>SW;P2.2-P3.3"
    with pytest.raises(IllegalMove, match="not a cell"):
        s.parse_move("i1>N")
