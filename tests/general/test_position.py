"""Position strings: canonical output, lenient input, and every invalid case with its reason."""

from __future__ import annotations

import pytest

from ludotheque import InvalidPosition, Outcome
from ludotheque.games.general import GeneralGame
from tests.general.conftest import START


def test_start_string(game: GeneralGame) -> None:
    assert game.start().position() == START
    assert game.parse_position(START) == game.start()


def test_output_is_sorted_and_lower_case(game: GeneralGame) -> None:
    s = game.parse_position("  C3   E5,a1,D1,b1,a2,e4   G   0 ")
    assert s.position() == "c3 a1,a2,b1,d1,e4,e5 g 0"


def test_sides_and_flight(game: GeneralGame) -> None:
    s = game.parse_position("c3 a1,a2,b1,d1,e4,e5 g 0")
    assert s.to_move == "general" and not s.flight_available
    s = game.parse_position("c3 a1,a2,b1,d1,e4,e5 r 1")
    assert s.to_move == "rebels" and s.flight_available


def test_general_on_apex_after_flight_is_valid(game: GeneralGame) -> None:
    s = game.parse_position("s4 a1,a2,b1,d1,e4,e5 g 0")
    assert s.general == "s4"


def test_decided_positions_are_valid(game: GeneralGame) -> None:
    assert game.parse_position("c3 a1,a2,e1,e2 r 1").outcome() == Outcome(
        "general", "twelve-captured"
    )
    assert game.parse_position("s2 b5,c5,d5,a1,a2,e1 g 0").outcome() == Outcome("rebels", "shut-in")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "4 fields"),
        ("c3", "4 fields"),
        ("c3 a1,a2,a3,a4 r", "4 fields"),
        ("c3 a1,a2,a3,a4 r 1 extra", "4 fields"),
        ("z9 a1,a2,a3,a4 r 1", "'z9' is not a point"),
        ("c3 a1,a2,a3,q4 r 1", "'q4' is not a point"),
        ("c3 a1,a2,,a3,a4 r 1", "empty rebel point"),
        ("c3 a1,a2,a3,a4, r 1", "empty rebel point"),
        ("c3 a1,a1,a3,a4 r 1", "two rebels on a1"),
        ("c3 a1,a2,a3,s1 r 1", "sanctuary"),
        ("c3 a1,a2,a3,c3 r 1", "general and a rebel"),
        ("c3 a1,a2,a3 r 1", "3 rebels"),
        ("c3 a1,a2 r 1", "2 rebels"),
        ("c3 a1,a2,a3,a4,a5 r 1", "must be even"),
        ("c3 a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,c1,c2,c4,c5,d1,d2,d3,d4 r 1", "at most 16"),
        ("c3 a1,a2,a3,a4 x 1", "side to move"),
        ("c3 a1,a2,a3,a4 rebels 1", "side to move"),
        ("c3 a1,a2,a3,a4 r 2", "flight"),
        ("c3 a1,a2,a3,a4 r yes", "flight"),
        ("s4 a1,a2,a3,a4 g 1", "flight unused"),
        ("c3;a1,a2,a3,a4;r;1", "4 fields"),
    ],
)
def test_invalid_positions(game: GeneralGame, text: str, reason: str) -> None:
    with pytest.raises(InvalidPosition, match=reason):
        game.parse_position(text)


@pytest.mark.parametrize("value", [None, 12, b"c3 a1,a2,a3,a4 r 1", ["c3"], 1.5])
def test_non_strings_are_rejected(game: GeneralGame, value: object) -> None:
    with pytest.raises(InvalidPosition, match="must be a string"):
        game.parse_position(value)  # type: ignore[arg-type]


def test_invalid_position_is_a_value_error(game: GeneralGame) -> None:
    with pytest.raises(ValueError):
        game.parse_position("nonsense")


def test_from_parts(game: GeneralGame) -> None:
    s = game.from_parts("c3", ["a1", "a2", "e1", "e2", "e4", "e5"], "general", False)
    assert s.position() == "c3 a1,a2,e1,e2,e4,e5 g 0"
    assert game.from_parts("c3", ("a1", "a2", "e1", "e2", "e4", "e5"), "general", True) == (
        game.parse_position("c3 a1,a2,e1,e2,e4,e5 g 1")
    )


@pytest.mark.parametrize(
    ("parts", "code"),
    [
        (("c3", None), "rebels-not-a-list"),
        (("c3", 3), "rebels-not-a-list"),
        (("c3", "a1"), "rebels-not-a-list"),
        (("c3", {}), "rebels-not-a-list"),
        (("c3", [None]), "rebel-point-not-text"),
        (("c3", ["a1", 3]), "rebel-point-not-text"),
        (("c3", ["a1", "a2", "e1", "e2", "e4", "e5"], "general", "x"), "flight-not-bool"),
        (("c3", ["a1", "a2", "e1", "e2", "e4", "e5"], "general", None), "flight-not-bool"),
        (("c3", ["a1", "a2", "e1", "e2", "e4", "e5"], "general", 2), "flight-not-bool"),
    ],
)
def test_from_parts_refuses_parts_of_the_wrong_type(
    game: GeneralGame, parts: tuple[object, ...], code: str
) -> None:
    with pytest.raises(InvalidPosition) as refused:
        game.from_parts(*parts)  # type: ignore[arg-type]
    assert refused.value.code == code
