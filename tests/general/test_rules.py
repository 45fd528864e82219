"""Every rule of the General's contract, one or more tests each."""

from __future__ import annotations

import pytest

from ludotheque import IllegalMove, Outcome
from ludotheque.games.general import GeneralGame
from tests.general.conftest import START, notations

# -- setup and turn -------------------------------------------------------------------------


def test_start_position(game: GeneralGame) -> None:
    s = game.start()
    assert s.position() == START
    assert s.to_move == "rebels"
    assert s.general == "c3"
    assert len(s.rebels) == 16
    assert s.flight_available
    assert s.outcome() is None
    assert s.chance_outcomes() == []
    assert not s.is_chance and not s.is_terminal


def test_sides_alternate(game: GeneralGame) -> None:
    s = game.start().play("a2-b2")
    assert s.to_move == "general"
    s = s.play("c3-c2")
    assert s.to_move == "rebels"


def test_no_passing_every_move_changes_the_board(game: GeneralGame) -> None:
    s = game.start()
    for m in s.legal_moves():
        assert s.play(m).position().split()[:2] != s.position().split()[:2]


def test_steps_go_to_adjacent_empty_points_only(game: GeneralGame) -> None:
    s = game.parse_position("c3 a1,a2,e4,e5,a5,b5 g 1")
    # the general at c3 can reach every neighbour (all empty): 8 of them
    assert {str(m).split("-")[1] for m in s.legal_moves()} == {
        "b2",
        "b3",
        "b4",
        "c2",
        "c4",
        "d2",
        "d3",
        "d4",
    }
    with pytest.raises(IllegalMove, match="not next to each other"):
        s.play("c3-c5")


def test_no_diagonal_where_the_pattern_has_none(game: GeneralGame) -> None:
    s = game.parse_position("b3 a1,a2,e4,e5,a5,b5 g 1")  # b3: odd point, no diagonals
    assert notations(s) == {"b3-a3", "b3-c3", "b3-b2", "b3-b4"}
    with pytest.raises(IllegalMove, match="not next to each other"):
        s.play("b3-c4")


def test_cannot_step_onto_occupied_point(game: GeneralGame) -> None:
    s = game.start()
    with pytest.raises(IllegalMove, match="occupied"):
        s.play("a1-a2")
    with pytest.raises(IllegalMove, match="occupied"):
        game.start().play("b1-b2").play("c3-c2").play("b2-c2")


def test_rebels_never_enter_the_sanctuary(game: GeneralGame) -> None:
    s = game.parse_position("a1 b5,c5,d5,e5,e1,e2 r 1")
    assert not any(str(m).split("-")[1].startswith("s") for m in s.legal_moves())
    with pytest.raises(IllegalMove, match="sanctuary"):
        s.play("b5-s1")
    with pytest.raises(IllegalMove, match="sanctuary"):
        s.play("c5-s2")


def test_the_general_enters_the_sanctuary_through_the_gates(game: GeneralGame) -> None:
    s = game.parse_position("c5 a1,a2,e1,e2,a4,a5 g 1")
    assert "c5-s2" in notations(s)
    s = game.parse_position("b5 a1,a2,e1,e2,d1,d2 g 1")
    assert "b5-s1" in notations(s)


# -- captures -------------------------------------------------------------------------------


def test_capture_by_landing_between_two_rebels(game: GeneralGame) -> None:
    s = game.start().play("a2-b2")  # b2 no longer capturable; b4 still is
    after = s.play("c3-b4xa3c5")
    assert "a3" not in after.rebels and "c5" not in after.rebels
    assert after.general == "b4"
    assert after.rebel_count == 14


def test_landing_between_a_pair_always_captures(game: GeneralGame) -> None:
    s = game.start().play("a2-b2")
    assert "c3-b4" not in notations(s)  # no plain step onto a capturing point
    assert "c3-b4xa3c5" in notations(s)
    # the bare step is read as the implied capture
    assert s.play("c3-b4") == s.play("c3-b4xa3c5")


def test_capturing_is_never_compulsory(game: GeneralGame) -> None:
    s = game.start().play("a2-b2")
    quiet = [m for m in s.legal_moves() if not m.captured]
    assert {str(m) for m in quiet} == {"c3-b3", "c3-c2", "c3-c4", "c3-d3"}


def test_choice_of_pair_each_a_different_move(game: GeneralGame) -> None:
    s = game.parse_position("d3 c3,c4,c5,e3,e4,e5,a1,a2 g 1")
    to_d4 = sorted(str(m) for m in s.legal_moves() if str(m).startswith("d3-d4"))
    assert to_d4 == ["d3-d4xc3e5", "d3-d4xc4e4", "d3-d4xc5e3"]
    results = {s.play(m).position() for m in to_d4}
    assert len(results) == 3
    for m in to_d4:
        assert s.play(m).rebel_count == 6  # exactly one pair


def test_ambiguous_bare_capture_is_refused(game: GeneralGame) -> None:
    s = game.parse_position("d3 c3,c4,c5,e3,e4,e5,a1,a2 g 1")
    with pytest.raises(IllegalMove, match="ambiguous"):
        s.play("d3-d4")


def test_rebels_never_capture(game: GeneralGame) -> None:
    # a rebel closes a rebel–general–rebel line: nothing happens to anyone
    s = game.parse_position("c3 b3,d2,a1,a2,e1,e2 r 1")
    after = s.play("d2-d3")
    assert after.general == "c3"
    assert after.rebel_count == 6
    assert all(not m.captured for m in s.legal_moves())


def test_rebel_surrounding_the_general_does_not_remove_him(game: GeneralGame) -> None:
    s = game.parse_position("c3 b3,d4,a1,a2,e1,e2 r 1").play("d4-d3")
    assert s.general == "c3" and s.outcome() is None


def test_general_does_not_capture_by_standing_still(game: GeneralGame) -> None:
    # After d2-d3 he stands between b3 and d3 (row 3), and a3/c1 flank b2 (diagonal c1-b2-a3).
    # Only a move *landing* between two rebels captures: stepping away from b3/d3 takes nothing,
    # stepping to b2 takes a3+c1. By hand, for each of his six free neighbours:
    #   b2: c1-b2-a3 both rebels -> captures a3,c1 (a2-b2-c2, b1-b2-b3, a1-b2-c3: one end empty)
    #   b4, c2, c4, d2, d4: every line through them has an empty end (c3 is empty once he left)
    s = game.parse_position("c3 b3,d2,a3,c1,e1,e2 r 1").play("d2-d3")
    assert s.general == "c3" and sorted(s.rebels) == ["a3", "b3", "c1", "d3", "e1", "e2"]
    captures = {str(m): m.captured_points() for m in s.legal_moves()}
    assert captures == {
        "c3-b2xa3c1": ["a3", "c1"],
        "c3-b4": [],
        "c3-c2": [],
        "c3-c4": [],
        "c3-d2": [],
        "c3-d4": [],
    }
    # and b3, d3 survive every one of his moves
    for m in s.legal_moves():
        assert {"b3", "d3"} <= set(s.play(m).rebels)


def test_capture_needs_three_consecutive_points_of_one_line(game: GeneralGame) -> None:
    # b3 and c4 are not on one line through... the general landing on c3 from d3 between b3/d3?
    s = game.parse_position("d3 b3,c4,a1,a2,e1,e5 g 1")
    assert "d3-c3" in notations(s)  # b3–c3–d3: d3 is where he came from, so no pair
    s2 = game.parse_position("d2 b4,d4,a1,a2,e1,e5 g 1")
    # b4 and d4 lie on row 4, not around c3 on one line: stepping to c3 captures nothing
    assert "d2-c3" in notations(s2)


def test_diagonal_capture(game: GeneralGame) -> None:
    s = game.parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    # b2 lies between a1 and c3 on the diagonal a1-b2-c3
    assert "c2-b2xa1c3" in notations(s)


def test_capture_up_the_centre_column(game: GeneralGame) -> None:
    s = game.parse_position("d4 c3,c5,a1,a2,e1,e2 g 1")
    assert "d4-c4xc3c5" in notations(s)


# -- the flight -----------------------------------------------------------------------------


def test_flight_lands_anywhere_empty_but_s4(game: GeneralGame) -> None:
    s = game.parse_position("s2 a1,a2,e1,e2,a5,b5 g 1")
    flights = [m for m in s.legal_moves() if m.is_flight]
    landings = {str(m).split("*")[1] for m in flights}
    empty = {f"{c}{r}" for c in "abcde" for r in range(1, 6)} - {"a1", "a2", "e1", "e2", "a5", "b5"}
    assert landings == empty | {"s1", "s2", "s3"}  # his origin s2 is empty once he leaves it
    assert "s2-s4" not in notations(s)


def test_flight_uses_up_the_flight(game: GeneralGame) -> None:
    s = game.parse_position("s2 a1,a2,e1,e2,a5,b5 g 1")
    after = s.play("s2-s4*c3")
    assert after.general == "c3"
    assert not after.flight_available
    assert after.position() == "c3 a1,a2,a5,b5,e1,e2 r 0"


def test_flight_landing_captures_with_choice(game: GeneralGame) -> None:
    s = game.parse_position("s3 c3,c4,c5,e3,e4,e5,a1,a2 g 1")
    to_d4 = sorted(str(m) for m in s.legal_moves() if "*d4" in str(m))
    assert to_d4 == ["s3-s4*d4xc3e5", "s3-s4*d4xc4e4", "s3-s4*d4xc5e3"]
    with pytest.raises(IllegalMove, match="ambiguous"):
        s.play("s3-s4*d4")
    after = s.play("S3-S4*D4xE3C5")
    assert after.rebel_count == 6 and after.general == "d4" and not after.flight_available


def test_flight_landing_single_pair_is_implied(game: GeneralGame) -> None:
    s = game.parse_position("s1 a1,a3,e4,e5,d1,e1 g 1")
    assert "s1-s4*a2xa1a3" in notations(s)
    assert s.play("s1-s4*a2") == s.play("s1-s4*a2xa1a3")


def test_step_onto_apex_is_the_flight(game: GeneralGame) -> None:
    s = game.parse_position("s2 a1,a2,e1,e2,a5,b5 g 1")
    with pytest.raises(IllegalMove, match="flight"):
        s.play("s2-s4")
    with pytest.raises(IllegalMove, match="other than s4"):
        s.play("s2-s4*s4")
    with pytest.raises(IllegalMove, match="rebel is there"):
        s.play("s2-s4*a1")


def test_after_the_flight_s4_is_ordinary(game: GeneralGame) -> None:
    s = game.parse_position("s2 a1,a2,e1,e2,a5,b5 g 0")
    assert "s2-s4" in notations(s)
    after = s.play("s2-s4")
    assert after.general == "s4" and after.position() == "s4 a1,a2,a5,b5,e1,e2 r 0"
    with pytest.raises(IllegalMove, match="already used"):
        s.play("s2-s4*c3")


def test_star_only_for_the_flight(game: GeneralGame) -> None:
    s = game.parse_position("c3 a1,a2,e1,e2,a5,b5 g 1")
    with pytest.raises(IllegalMove, match="flight"):
        s.play("c3-c4*c5")


def test_flight_from_every_neighbour_of_the_apex(game: GeneralGame) -> None:
    for origin in ("s1", "s2", "s3"):
        s = game.parse_position(f"{origin} a1,a2,e1,e2,a5,b5 g 1")
        assert any(m.is_flight for m in s.legal_moves())


# -- end of the game ------------------------------------------------------------------------


def test_general_wins_when_four_rebels_remain(game: GeneralGame) -> None:
    s = game.parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    after = s.play("c2-b2xa1c3")
    assert after.rebel_count == 4
    assert after.outcome() == Outcome("general", "twelve-captured")
    assert after.to_move is None
    assert after.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        after.play("a4-b4")


def test_rebel_move_shutting_him_in_wins(game: GeneralGame) -> None:
    s = game.parse_position("s1 b5,c5,d4,e4,a1,a2 r 0")
    after = s.play("d4-d5")
    assert after.outcome() == Outcome("rebels", "shut-in")
    assert after.legal_moves() == []


def test_shut_in_before_reaching_the_apex(game: GeneralGame) -> None:
    # flight unused, general on s2 right below the apex: the rebels' move still wins at once
    s = game.parse_position("s2 b5,c5,d4,e4,a1,a2 r 1")
    after = s.play("d4-d5")
    assert after.outcome() == Outcome("rebels", "shut-in")


def test_shut_in_needs_all_three_gates(game: GeneralGame) -> None:
    s = game.parse_position("s1 b5,c5,e5,e4,a1,a2 g 0")
    assert s.outcome() is None
    s = game.parse_position("c4 b5,c5,d5,e4,a1,a2 g 0")  # gates full, general outside
    assert s.outcome() is None


def test_flight_back_into_the_sanctuary_is_not_a_shut_in_while_a_gate_is_open(
    game: GeneralGame,
) -> None:
    # he can only fly from inside the sanctuary, so a gate is open then: landing inside is safe
    s = game.parse_position("s2 b5,c5,d4,e4,a1,a2 g 1")
    after = s.play("s2-s4*s3")
    assert after.outcome() is None
    # ... until the rebels close the last gate
    assert after.play("d4-d5").outcome() == Outcome("rebels", "shut-in")


def test_general_immobilised_loses(game: GeneralGame) -> None:
    # general in the corner a1: a2, b1, b2 held, and no capture possible (a3, c1, c3 held too)
    s = game.parse_position("a1 a2,a3,b1,b2,c1,c3 g 1")
    assert s.outcome() == Outcome("rebels", "immobilised")
    assert s.to_move is None


def test_immobilised_only_on_his_turn(game: GeneralGame) -> None:
    s = game.parse_position("a1 a2,a3,b1,b2,c1,c3 r 1")
    assert s.outcome() is None
    assert s.to_move == "rebels"


def test_general_with_a_capture_is_not_immobilised(game: GeneralGame) -> None:
    # cornered on a1 with only b2 free, and b2 is a capturing point (c1-b2-a3)
    s = game.parse_position("a1 a2,b1,c1,a3,e4,e5 g 1")
    assert s.outcome() is None
    assert notations(s) == {"a1-b2xa3c1"}


def test_rebels_without_a_move_lose(game: GeneralGame, monkeypatch: pytest.MonkeyPatch) -> None:
    # cannot happen on this board (see test_properties); the engine still decides it (the
    # outcome asks the table of where rebels may step, REBEL_REACH: make it say "nowhere")
    from ludotheque.games.general import rules

    s = game.parse_position("c3 a1,a2,e1,e2,e4,e5 r 1")
    monkeypatch.setattr(rules, "REBEL_REACH", ((0,) * 256,) * 4)
    assert s.outcome() == Outcome("general", "no-move")
    assert s.to_move is None


def test_end_precedence_twelve_captured_before_shut_in(game: GeneralGame) -> None:
    s = game.parse_position("s1 b5,c5,d5,e5 r 0")
    assert s.outcome() == Outcome("general", "twelve-captured")


def test_end_precedence_shut_in_before_immobilised(game: GeneralGame) -> None:
    s = game.parse_position("s1 b5,c5,d5,e5,a1,a2 g 0")
    assert s.outcome() == Outcome("rebels", "shut-in")


# -- facts to test against ------------------------------------------------------------------


def test_fact_general_threatens_four_captures_at_start(game: GeneralGame) -> None:
    s = game.parse_position(START.replace(" r ", " g "))
    capture_points = {str(m)[3:5] for m in s.legal_moves() if m.captured}
    assert capture_points == {"b2", "b4", "d2", "d4"}


def test_fact_no_first_rebel_move_removes_all_four_threats(game: GeneralGame) -> None:
    s = game.start()
    assert len(s.legal_moves()) == 24
    for m in s.legal_moves():
        reply = s.play(m)
        assert any(r.captured for r in reply.legal_moves()), str(m)


def test_fact_no_capture_triple_lands_in_the_sanctuary(game: GeneralGame) -> None:
    # a general in the sanctuary with rebels on every square point around the gates captures
    # nothing by stepping inside it
    s = game.parse_position("s1 a5,b4,b5,c4,d4,d5,e5,c1 g 0")
    for m in s.legal_moves():
        if m.end >= 25:
            assert not m.captured
