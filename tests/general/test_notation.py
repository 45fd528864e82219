"""Move notation: canonical output, lenient input, and clear errors for bad text."""

from __future__ import annotations

import pytest

from ludotheque import IllegalMove
from ludotheque.games.general import GeneralGame

MULTI = "d3 c3,c4,c5,e3,e4,e5,a1,a2 g 1"


def test_canonical_forms(game: GeneralGame) -> None:
    s = game.start()
    assert str(s.legal_moves()[0]) == "a1-b2"
    s2 = game.parse_position(MULTI)
    assert "d3-d4xc3e5" in {str(m) for m in s2.legal_moves()}
    s3 = game.parse_position("s1 a1,a3,e4,e5,d1,e1 g 1")
    assert "s1-s4*a2xa1a3" in {str(m) for m in s3.legal_moves()}
    assert "s1-s4*c3" in {str(m) for m in s3.legal_moves()}


@pytest.mark.parametrize(
    "text",
    ["d3-d4xc3e5", "D3-D4XC3E5", "  d3-d4xc3e5 ", "d3-d4xe5c3", "d3-D4xE5c3", "\td3-d4xc3e5\n"],
)
def test_lenient_input(game: GeneralGame, text: str) -> None:
    s = game.parse_position(MULTI)
    assert str(s.parse_move(text)) == "d3-d4xc3e5"


def test_parse_is_inverse_of_format(game: GeneralGame) -> None:
    for pos in (
        MULTI,
        "s1 a1,a3,e4,e5,d1,e1 g 1",
        "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1",
    ):
        s = game.parse_position(pos)
        for m in s.legal_moves():
            assert s.parse_move(str(m)) == m
            assert s.parse_move(str(m).upper()) == m


@pytest.mark.parametrize(
    ("position", "text", "reason"),
    [
        (None, "", "cannot read"),
        (None, "hello", "cannot read"),
        (None, "a1b2", "cannot read"),
        (None, "a1-", "point is missing"),
        (None, "f7-a1", "'f7' is not a point"),
        (None, "a1-a9", "'a9' is not a point"),
        (None, "a1--b2", "cannot read"),
        (None, "c3-b3", "there is no rebel on c3|holds the general"),
        (None, "b3-b4", "there is no rebel on b3"),
        (None, "a1-a3", "not next to each other"),
        (None, "a1-a2", "occupied"),
        (None, "a1-b2xa3c1", "only the general"),
        (MULTI, "d3-d4", "ambiguous"),
        (MULTI, "d3-d4xc3", "exactly two"),
        (MULTI, "d3-d4xc3c3", "two different"),
        (MULTI, "d3-d4xa1a2", "cannot take"),
        (MULTI, "a1-b1", "general's turn"),
        (MULTI, "d3-d2xc1e3", "cannot take"),
        (MULTI, "d3-d2*c3", "flight"),
        (MULTI, "d3-d4xc3e5 extra", "cannot read"),
        ("s2 a1,a2,e1,e2,a5,b5 g 1", "s2-s4", "say where he lands"),
        ("s2 a1,a2,e1,e2,a5,b5 g 1", "s2-s4*", "point is missing"),
        ("s2 a1,a2,e1,e2,a5,b5 g 1", "s2-s4*a1", "rebel is there"),
        ("s2 a1,a2,e1,e2,a5,b5 g 0", "s2-s4*c3", "already used"),
    ],
)
def test_bad_move_text(game: GeneralGame, position: str | None, text: str, reason: str) -> None:
    s = game.start() if position is None else game.parse_position(position)
    with pytest.raises(IllegalMove, match=reason):
        s.play(text)


@pytest.mark.parametrize("value", [None, 42, 3.5, b"a1-b2", ["a1-b2"], object()])
def test_non_string_moves_are_refused(game: GeneralGame, value: object) -> None:
    with pytest.raises(IllegalMove):
        game.start().play(value)
    with pytest.raises(IllegalMove):
        game.start().parse_move(value)  # type: ignore[arg-type]


def test_a_move_of_another_position_is_refused(game: GeneralGame) -> None:
    s = game.start()
    general_move = s.play("a2-b2").legal_moves()[0]
    with pytest.raises(IllegalMove, match="not a legal move"):
        s.play(general_move)


def test_errors_are_value_errors(game: GeneralGame) -> None:
    with pytest.raises(ValueError):
        game.start().play("zz")


def test_move_properties(game: GeneralGame) -> None:
    s = game.parse_position("s1 a1,a3,e4,e5,d1,e1 g 1")
    m = s.parse_move("s1-s4*a2")
    assert m.is_flight and m.captured_points() == ["a1", "a3"]
    assert str(m) == "s1-s4*a2xa1a3"
    assert hash(m) == hash(s.parse_move("S1-S4*A2XA3A1"))
