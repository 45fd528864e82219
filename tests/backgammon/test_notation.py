"""Backgammon notation: canonical output, every accepted form, and every kind of refusal."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import IllegalMove

SEED = ludotheque.load("backgammon")
STANDARD = ludotheque.load("backgammon", "standard")
OPENING_31 = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
HIT_66 = "W[13x5,8x3,6x5] B[13x5,8x3,6x4,18,1x2] w 66"  # black blot on our 7
ROUTES = "W[12,6x5,3] B[20x2,14x2,18] w 65"  # 12/1 goes via 7 (a hit) or via 6


def parse(position: str, text: str, game: ludotheque.Game = STANDARD) -> str:
    return str(game.parse_position(position).parse_move(text))


def test_canonical_is_one_move_per_die_highest_origins_first() -> None:
    s = STANDARD.parse_position(OPENING_31)
    texts = {str(m) for m in s.legal_moves()}
    assert "8/5 6/5" in texts and "24/23 23/20" in texts and "24/23 24/21" in texts
    assert "6/5 8/5" not in texts
    s = STANDARD.parse_position(HIT_66)
    assert "13/7* 13/7 8/2 8/2" in {str(m) for m in s.legal_moves()}


def test_canonical_order_is_playable() -> None:
    # 5 holds... bearing off needs the highest checker gone first: 5/off before 3/off
    assert parse("W[5,3] B[1x2] w 66", "3/off 5/off") == "5/off 3/off"


@pytest.mark.parametrize(
    ("position", "text", "canonical"),
    [
        (OPENING_31, "8/5 6/5", "8/5 6/5"),
        (OPENING_31, "6/5 8/5", "8/5 6/5"),
        (OPENING_31, "  8/5   6/5 ", "8/5 6/5"),
        (OPENING_31, "8/5,6/5", "8/5 6/5"),
        (OPENING_31, "24/20", "24/23 23/20"),  # route not written
        (OPENING_31, "24/21/20", "24/23 23/20"),  # the same play by the other route
        (OPENING_31, "24/23/20", "24/23 23/20"),
        (OPENING_31, "13/9", "13/10 10/9"),
        ("W[8x3,6x5] B[1x2] w 33", "8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3"),
        (HIT_66, "13/7*(2) 8/2(2)", "13/7* 13/7 8/2 8/2"),
        (HIT_66, "13/7(2) 8/2(2)", "13/7* 13/7 8/2 8/2"),  # '*' left out
        (HIT_66, "13/7*/1 8/2(2)", "13/7* 8/2 8/2 7/1"),
        (HIT_66, "13/1 8/2(2)", "13/7* 8/2 8/2 7/1"),  # several dice, with a double
        (ROUTES, "12/7*/1", "12/7* 7/1"),
        (ROUTES, "12/6/1", "12/6 6/1"),
        ("W[bar,13x4,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 31", "bar/22 24/23", "bar/22 24/23"),
        ("W[bar,13x4,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 31", "BAR/22 24/23", "bar/22 24/23"),
        ("W[6,3] B[1x2] w 54", "6/1 3/off", "6/1 3/off"),
        ("W[6,3] B[1x2] w 54", "3/OFF 6/1", "6/1 3/off"),
        ("W[5,2] B[1x2] w 61", "5/4/off", "5/4 4/off"),
        ("W[5,1x5] B[1x2] w 44", "5/1 1/off(3)", "5/1 1/off 1/off 1/off"),
        ("W[6,3] B[24x2] w 55", "pass", "pass"),
        ("W[6,3] B[24x2] w 55", " PASS ", "pass"),
    ],
)
def test_accepted_forms(position: str, text: str, canonical: str) -> None:
    assert parse(position, text) == canonical


@pytest.mark.parametrize(
    ("position", "text", "reason"),
    [
        (OPENING_31, "", "empty move"),
        (OPENING_31, "8-5 6-5", "cannot read"),
        (OPENING_31, "8/5 6", "from a point to a point"),
        (OPENING_31, "8/x", "points are 1–24"),
        (OPENING_31, "30/27", "no point 30"),
        (OPENING_31, "0/off", "no point 0"),
        (OPENING_31, "5/8", "wrong way"),
        (OPENING_31, "off/5", "'off' can only be where a move ends"),
        (OPENING_31, "8/bar", "'bar' can only be where a move starts"),
        (OPENING_31, "8*/5", "'\\*' goes after"),
        (OPENING_31, "8/5(9)", "1 to 4 times"),
        (OPENING_31, "8/5", "incomplete"),
        (OPENING_31, "8/5*", "nothing is hit on 5"),
        (OPENING_31, "8/5 6/5*", "nothing is hit on 5"),
        (OPENING_31, "8/4 6/5", "cannot be made with the dice 31"),
        (OPENING_31, "8/5 6/5 13/10", "cannot be made"),
        (OPENING_31, "13/10 13/12", "12 is blocked"),
        (OPENING_31, "bar/22 8/7", "no checker on the bar"),
        (OPENING_31, "20/17 8/7", "no checker on 20"),
        ("W[8,5] B[1x2] w 61", "5/off 8/7", "bear off only once all"),
        ("W[8x3,6x5] B[1x2] w 33", "8/5(2)", "incomplete: with 33 you must play 4 dice"),
        (OPENING_31, "pass", "cannot pass"),
        (ROUTES, "12/1", "ambiguous"),
        ("W[5,3,2] B[1x2] w 61", "5/off", "incomplete"),
        ("W[5,3,2] B[1x2] w 61", "3/off 5/4", "only when no checker stands higher"),
        ("W[bar,13x4,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 31", "13/10 13/12", "enter first"),
        ("W[13,7x5,6x4,5x5] B[1x2] w 61", "13/7 6/5", "7 is full"),
        ("W[6,3] B[24x2] w 55", "6/1 3/off", "only play is 'pass'"),
    ],
)
def test_refusals(position: str, text: str, reason: str) -> None:
    game = SEED if "7x5,6x4,5x5" in position else STANDARD
    with pytest.raises(IllegalMove, match=reason):
        game.parse_position(position).parse_move(text)


@pytest.mark.parametrize("value", [None, 31, ("8/5", "6/5"), b"8/5 6/5"])
def test_non_text_refused(value: object) -> None:
    with pytest.raises(IllegalMove):
        STANDARD.parse_position(OPENING_31).play(value)


def test_chance_notation() -> None:
    s = STANDARD.start()
    assert str(s.parse_move("W1B3")) == "w1b3"
    assert str(s.parse_move(" w6 b2 ")) == "w6b2"
    with pytest.raises(IllegalMove, match="like 'w1b3'"):
        s.parse_move("b3w1")
    rolled = STANDARD.parse_position("W[6] B[6] b -")
    assert str(rolled.parse_move("13")) == "31"
    assert str(rolled.parse_move("66")) == "66"
    with pytest.raises(IllegalMove, match="two digits"):
        rolled.parse_move("3")
    with pytest.raises(IllegalMove, match="two digits"):
        rolled.parse_move("07")


def test_a_play_of_another_position_is_refused() -> None:
    s = STANDARD.parse_position(OPENING_31)
    other = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 42")
    with pytest.raises(IllegalMove, match="not a legal play"):
        s.play(other.legal_moves()[0])


def test_play_properties() -> None:
    s = STANDARD.parse_position(HIT_66)
    play = s.parse_move("13/7*/1 8/2(2)")
    assert play.hits == 1 and not play.is_pass
    assert [str(step) for step in play.steps] == ["13/7*", "8/2", "8/2", "7/1"]
    assert all(step.die == 6 for step in play.steps)
