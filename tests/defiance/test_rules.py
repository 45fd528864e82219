"""Every rule and every "Facts to test against" item of the Defiance and Domain contract."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import IllegalMove, Outcome
from ludotheque.games.defiance import DefianceGame, DefianceState
from ludotheque.games.defiance.geometry import geometry
from tests.defiance.strategies import position

TEN = ludotheque.load("defiance")
EIGHT = ludotheque.load("defiance", "8x8")
assert isinstance(TEN, DefianceGame) and isinstance(EIGHT, DefianceGame)


def state(cells: dict[str, str], **kw: object) -> DefianceState:
    n = int(kw.get("n", 10))  # type: ignore[call-overload]
    game = TEN if n == 10 else EIGHT
    s = game.parse_position(position(cells, **kw))  # type: ignore[arg-type]
    assert isinstance(s, DefianceState)
    return s


def command_moves(s: DefianceState, action: str = "j10>N") -> set[str]:
    geo = s.game.geo
    return {cm.text(geo) for cm, _ in s.after_action(action).command_moves}


# -- geometry -------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "keys"), [(10, 16), (8, 9)])
def test_sectors_and_key_points(n: int, keys: int) -> None:
    geo = geometry(n)
    assert geo.num_cells == n * n and geo.num_points == (n + 1) ** 2
    per_sector = [sum(1 for p in geo.key_points if geo.point_sector[p] == s) for s in range(4)]
    assert per_sector == [keys] * 4
    h = n // 2
    for p, (x, y) in enumerate(geo.point_xy):
        if x == h or y == h:
            assert geo.point_sector[p] == -1 and not geo.is_key[p]
        if x in (0, n) or y in (0, n):
            assert not geo.is_key[p]
    assert geo.point_sector[geo.point(0, 0)] == 0  # corners belong to their sector
    assert geo.point_sector[geo.point(n, n)] == 3
    assert geo.cell_sector[geo.cell(h - 1, h - 1)] == 0 and geo.cell_sector[geo.cell(h, h)] == 3


# -- setup and the turn ----------------------------------------------------------------------


def test_setup_10x10() -> None:
    s = TEN.start()
    assert s.position() == "10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r"
    assert s.to_move == "rebels" and s.pools == {"rebels": 40, "imperium": 40}
    assert s.rebel_command == "P2.2" and s.imperial_commands == ("P7.8", "P8.7")


def test_setup_8x8_both_imperial_commands_on_one_point() -> None:
    s = EIGHT.start()
    assert s.position() == "8/8/8/8/8/8/8/8 r40,i40 R2.2,I6.6,I6.6 r"
    imp = s.play("a1>N")
    moves = command_moves(imp, "h8>S")
    assert moves == {"P6.6-P6.7", "P6.6-P7.6", "P6.6-P6.5", "P6.6-P5.6"}
    after = imp.play("h8>S;P6.6-P7.6")
    assert after.imperial_commands == ("P6.6", "P7.6")
    # the other now moves from P6.6 but may not join its twin on one point again
    back = after.play("a2>N")
    assert "P6.6-P7.6" not in command_moves(back, "h7>S")
    assert "P7.6-P6.6" not in command_moves(back, "h7>S")


def test_rebels_move_first_and_sides_alternate() -> None:
    s = TEN.start()
    assert s.to_move == "rebels"
    s = s.play("a1>N")
    assert s.to_move == "imperium"
    assert s.play("j10>S").to_move == "rebels"


def test_a_turn_is_one_action_then_an_optional_command_move() -> None:
    s = TEN.start()
    texts = {str(t) for t in s.legal_moves()}
    assert "e5>N" in texts and "e5>N;P2.2-P3.3" in texts
    assert len(s.legal_moves()) == 100 * 8 * 9  # 100 cells, 8 directions, 8 steps or none
    with pytest.raises(IllegalMove):
        s.play("e5>N;e6>N")


def test_place_needs_an_empty_cell_and_a_counter_in_the_pool() -> None:
    s = state({"e5": "RN"})
    with pytest.raises(IllegalMove, match="occupied"):
        s.play("e5>S")
    full = TEN.parse_position(
        position({f"{'abcdefghij'[i]}{j + 1}": "RN" for i in range(10) for j in range(4)})
    )
    assert full.pools["rebels"] == 0
    with pytest.raises(IllegalMove, match="pool is empty"):
        full.play("e8>N")
    assert all(t.action.kind == 1 for t in full.legal_moves())  # rotations only


def test_rotate_only_own_counters_to_a_new_direction() -> None:
    s = state({"e5": "RN", "f6": "IS"})
    assert str(s.parse_move("e5@E")) == "e5@E"
    with pytest.raises(IllegalMove, match="already faces N"):
        s.play("e5@N")
    with pytest.raises(IllegalMove, match="no counter of the rebels on f6"):
        s.play("f6@N")
    with pytest.raises(IllegalMove, match="no counter of the rebels on a1"):
        s.play("a1@N")
    after = s.play("e5@E")
    assert after.counters()["e5"] == ("rebels", "E")
    assert after.pools == s.pools


def test_no_passing() -> None:
    with pytest.raises(IllegalMove):
        TEN.start().play("")
    assert all(t.action is not None for t in TEN.start().legal_moves())


# -- the Rebel Command ------------------------------------------------------------------------


def test_rebel_command_steps_to_all_eight_neighbours() -> None:
    assert command_moves(state({})) == {
        f"P2.2-P{x}.{y}" for x in (1, 2, 3) for y in (1, 2, 3) if (x, y) != (2, 2)
    }


def test_rebel_command_needs_an_empty_point() -> None:
    s = state({}, rebel="6.6", imperial=("7.7", "8.8"))
    assert "P6.6-P7.7" not in command_moves(s)


def test_orthogonal_step_walled_by_two_imperial_counters() -> None:
    # fact 2: P3.2 -> P3.3 runs between c3 and d3
    s = state({"c3": "IN", "d3": "IN"}, rebel="3.2")
    assert "P3.2-P3.3" not in command_moves(s)
    with pytest.raises(IllegalMove, match="wall"):
        s.play("j10>N;P3.2-P3.3")
    # one Imperial counter is no wall
    assert "P3.2-P3.3" in command_moves(state({"c3": "IN"}, rebel="3.2"))


def test_corner_touching_counters_form_no_wall() -> None:
    # fact 3
    s = state({"c3": "IN", "d4": "IN"}, rebel="3.2")
    assert "P3.2-P3.3" in command_moves(s)
    s = s.play("j10>N;P3.2-P3.3").play("j1>N")
    assert "P3.3-P3.4" in command_moves(s, "j9>N")


def test_board_edge_and_one_counter_make_a_wall() -> None:
    # the segment P0.3-P0.4 lies on the edge beside a4 only
    s = state({"a4": "IE"}, rebel="0.3")
    assert "P0.3-P0.4" not in command_moves(s)
    assert "P0.3-P0.2" in command_moves(s)


def test_trapped_in_a_corner_by_one_counter() -> None:
    # fact 1: the Rebel Command on P0.0 with an Imperial counter in a1 has no move
    s = state({"a1": "IN"}, rebel="0.0")
    assert command_moves(s) == set()
    assert s.outcome() is None  # trapped is not lost
    assert all(t.command is None for t in s.legal_moves())


def test_diagonal_step_blocked_by_the_crossed_cell() -> None:
    s = state({"c3": "IN"}, rebel="2.2")
    assert "P2.2-P3.3" not in command_moves(s)
    assert "P2.2-P1.1" in command_moves(s)


def test_rebel_counters_never_block() -> None:
    s = state({"b2": "RN", "c2": "RN", "b3": "RN", "c3": "RN"}, rebel="2.2")
    assert len(command_moves(s)) == 8


# -- the Imperial Commands -------------------------------------------------------------------


def test_imperial_commands_step_orthogonally() -> None:
    s = state({}, side="i")
    assert command_moves(s) == {
        "P7.8-P7.9", "P7.8-P8.8", "P7.8-P7.7", "P7.8-P6.8",
        "P8.7-P8.8", "P8.7-P9.7", "P8.7-P8.6", "P8.7-P7.7",
    }  # fmt: skip
    with pytest.raises(IllegalMove, match="move straight"):
        s.play("a1>N;P7.8-P8.9")


def test_imperial_commands_ignore_counters() -> None:
    s = state({"g8": "IN", "h8": "RN", "g9": "RS", "h9": "IN"}, side="i")
    assert {"P7.8-P7.9", "P7.8-P8.8", "P7.8-P6.8"} <= command_moves(s)


def test_imperial_command_may_not_join_the_other() -> None:
    s = state({}, imperial=("7.7", "8.7"), side="i")
    assert "P7.7-P8.7" not in command_moves(s)
    with pytest.raises(IllegalMove, match="other Imperial Command"):
        s.play("a1>N;P7.7-P8.7")


def test_controlled_key_point_is_forbidden_unless_capturing() -> None:
    # fact 7: Rebel counters in b2 c2 b3 c3 control P2.2
    cells = {"b2": "RN", "c2": "RN", "b3": "RN", "c3": "RN"}
    s = state(cells, rebel="0.0", imperial=("2.3", "8.7"), side="i")
    assert "P2.3-P2.2" not in command_moves(s)
    with pytest.raises(IllegalMove, match=r"control P2\.2"):
        s.play("j10>N;P2.3-P2.2")
    s = state(cells, rebel="2.2", imperial=("2.3", "8.7"), side="i")
    assert "P2.3-P2.2" in command_moves(s)
    won = s.play("j10>N;P2.3-P2.2")
    assert won.outcome() == Outcome("imperium", "command-captured")


def test_standing_on_a_point_that_becomes_controlled() -> None:
    cells = {"b2": "RN", "c2": "RN", "b3": "RN"}
    s = state(cells, rebel="0.0", imperial=("2.2", "8.7"))
    s = s.play("c3>N")  # the Rebels now control P2.2, where an Imperial Command stands
    assert s.controlled()[0] == ["P2.2"]
    assert "P2.2-P2.3" in command_moves(s, "j10>N")  # it may leave
    assert s.play("j10>N").imperial_commands == ("P2.2", "P8.7")  # or stay


# -- captures ---------------------------------------------------------------------------------


def test_orthogonal_capture_across_a_sector_border() -> None:
    # fact 4
    s = state({"e3": "RN", "d3": "IE"}, side="i")
    view = s.after_action("f3>W")
    assert view.captured == ("e3",)
    after = s.play("f3>W")
    assert "e3" not in after.counters()
    assert after.pools["rebels"] == 40  # back to its pool
    assert after.dead_zones("rebels") == ["e3"]
    assert "e3" not in after.dead_zones("imperium")
    with pytest.raises(IllegalMove, match="dead zone for the rebels"):
        after.play("e3>N")


def test_diagonal_capture_with_a_command_in_the_sector() -> None:
    # fact 5: the Imperial Commands start in sector (1,1)
    s = state({"h8": "RN", "g7": "INE"}, side="i")
    assert s.after_action("i9>SW").captured == ("h8",)


def test_diagonal_capture_after_the_fact_when_a_command_enters() -> None:
    # fact 5, second half: no Imperial Command in sector (1,1) at first
    s = state({"h8": "RN", "g7": "INE"}, imperial=("5.8", "8.5"), side="i")
    view = s.after_action("i9>SW")
    assert view.captured == ()
    entering = {cm.text(s.game.geo): caps for cm, caps in view.command_moves}
    assert entering["P5.8-P6.8"] == ("h8",) and entering["P8.5-P8.6"] == ("h8",)
    assert entering["P5.8-P4.8"] == ()
    waited = s.play("i9>SW")
    assert "h8" in waited.counters()
    later = waited.play("a1>N").play("a10>N;P8.5-P8.6")
    assert "h8" not in later.counters()


def test_no_diagonal_capture_across_sector_borders() -> None:
    # fact 6
    s = state({"e5": "RN", "d4": "INE"}, imperial=("4.4", "6.6"), side="i")
    view = s.after_action("f6>SW")
    assert view.captured == () and all(caps == () for _, caps in view.command_moves)
    assert "e5" in s.play("f6>SW").counters()


def test_diagonal_capture_by_the_rebels_when_their_command_enters() -> None:
    s = state({"b2": "IN", "a1": "RNE", "c3": "RSW"}, rebel="5.2")
    view = s.after_action("j10>N")
    caps = {cm.text(s.game.geo): c for cm, c in view.command_moves}
    assert caps["P5.2-P4.2"] == ("b2",) and caps["P5.2-P6.2"] == ()
    after = s.play("j10>N;P5.2-P4.3")
    assert "b2" not in after.counters() and after.pools["imperium"] == 40


def test_several_captures_in_one_turn() -> None:
    # the placement captures e3 orthogonally; entering sector (1,1) then takes h8 diagonally
    cells = {"e3": "RN", "d3": "IE", "h8": "RN", "g7": "INE", "i9": "ISW"}
    s = state(cells, imperial=("5.8", "8.5"), side="i")
    after = s.play("f3>W;P8.5-P8.6")
    assert "e3" not in after.counters() and "h8" not in after.counters()
    assert after.pools["rebels"] == 40


def test_own_counters_are_never_removed_by_own_action() -> None:
    # a Rebel counter flanked by Imperial counters stays when the Rebels act elsewhere
    s = state({"e3": "RE", "d3": "IE"}, side="r")
    after = s.play("e3@N")
    assert "e3" in after.counters()


def test_dead_zone_even_if_the_placement_would_capture() -> None:
    # d5 is flanked by c5 (E) and e5 (W): a Rebel counter there facing W would take c5 with a
    # partner on b5 facing E, but it may not be placed at all
    s = state({"c5": "IE", "e5": "IW", "b5": "RE"})
    with pytest.raises(IllegalMove, match="dead zone"):
        s.play("d5>W")
    # the Imperium may place there
    assert "d5" not in state({"c5": "IE", "e5": "IW", "b5": "RE"}, side="i").dead_zones()


def test_dead_zone_vanishes_when_a_flanker_turns_away() -> None:
    s = state({"c5": "IE", "e5": "IW"}, side="i")
    assert s.dead_zones("rebels") == ["d5"]
    assert s.play("e5@N").dead_zones("rebels") == []


def test_diagonal_dead_zone_needs_the_command_in_the_sector() -> None:
    cells = {"g7": "INE", "i9": "ISW"}
    assert "h8" in state(cells).dead_zones("rebels")
    s = state(cells, imperial=("5.8", "8.5"))
    assert "h8" not in s.dead_zones("rebels")


# -- the end ----------------------------------------------------------------------------------


def _four_sector_cells(missing: bool) -> dict[str, str]:
    cells = {}
    for base_i, base_j in ((1, 1), (6, 1), (1, 6), (6, 6)):
        for di in (0, 1):
            for dj in (0, 1):
                cells[f"{'abcdefghij'[base_i + di]}{base_j + dj + 1}"] = "RN"
    if missing:
        del cells["h8"]
    return cells


def test_rebels_win_with_a_key_point_in_each_sector() -> None:
    s = state(_four_sector_cells(missing=True), rebel="0.0", imperial=("10.10", "10.9"))
    view = s.after_action("h8>N")
    assert view.outcome == Outcome("rebels", "four-sectors")
    assert view.command_moves == ()
    after = s.play("h8>N")
    assert after.outcome() == Outcome("rebels", "four-sectors")
    assert after.to_move is None and after.legal_moves() == []
    assert after.position().endswith(" -")
    with pytest.raises(IllegalMove, match="no Command move follows"):
        s.play("h8>N;P0.0-P1.1")
    with pytest.raises(IllegalMove, match="over"):
        after.play("a1>N")


def test_imperium_wins_by_capturing_the_rebel_command() -> None:
    s = state({}, rebel="7.9", imperial=("7.8", "8.7"), side="i")
    after = s.play("a1>N;P7.8-P7.9")
    assert after.outcome() == Outcome("imperium", "command-captured")
    assert after.position().split()[-1] == "-"


def test_both_wins_in_a_position_is_command_captured() -> None:
    cells = _four_sector_cells(missing=False)
    text = position(cells, rebel="0.0", imperial=("0.0", "10.10"), side="-")
    assert TEN.parse_position(text).outcome() == Outcome("imperium", "command-captured")


def test_no_legal_action_is_handled(monkeypatch: pytest.MonkeyPatch) -> None:
    # cannot happen (a side with counters can always rotate, and 40 Imperial counters cannot
    # make every empty cell a dead zone); decided: a side left without an action loses
    from ludotheque.games.defiance import rules

    s = state({"e5": "RN"})
    monkeypatch.setattr(rules, "_has_action", lambda st: False)
    assert s.outcome() == Outcome("imperium", "no-move")
    assert s.to_move is None and s.legal_moves() == []


def test_8x8_full_board_only_rotations() -> None:
    # 64 cells: 40 Imperial and 24 Rebel counters; no capture pending, every cell taken
    cells = {}
    for j in range(8):
        for i in range(8):
            name = f"{'abcdefgh'[i]}{j + 1}"
            cells[name] = "IN" if j < 5 else "RN"
    s = EIGHT.parse_position(position(cells, rebel="0.0", imperial=("8.8", "7.8"), n=8))
    assert s.pools == {"rebels": 16, "imperium": 0}
    turns = s.legal_moves()
    assert turns and all(t.action.kind == 1 for t in turns)
    assert len({t.action for t in turns}) == 24 * 7
    with pytest.raises(IllegalMove, match="occupied"):
        s.play("a1>N")
