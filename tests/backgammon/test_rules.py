"""Every rule of the backgammon contract, for both rulesets, and every row of its table."""

from __future__ import annotations

import math

import pytest

import ludotheque
from ludotheque import IllegalMove, Outcome
from ludotheque.games.backgammon import BackgammonGame, OpeningRoll, Roll

START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"
SEED = ludotheque.load("backgammon")
STANDARD = ludotheque.load("backgammon", "standard")
BOTH = pytest.mark.parametrize("game", [SEED, STANDARD], ids=["seed", "standard"])


def plays(game: ludotheque.Game, position: str) -> set[str]:
    return {str(m) for m in game.parse_position(position).legal_moves()}


def test_rulesets() -> None:
    assert SEED.ruleset == "seed" and SEED.cap == 5 and SEED.lower_starts
    assert STANDARD.ruleset == "standard" and STANDARD.cap == 0
    assert ludotheque.load("backgammon", "seed") is SEED
    with pytest.raises(ludotheque.UnknownGame, match="seed, standard"):
        ludotheque.load("backgammon", "nackgammon")
    assert SEED.sides == ("white", "black")


# -- setup and opening ----------------------------------------------------------------------


@BOTH
def test_start(game: BackgammonGame) -> None:
    s = game.start()
    assert s.position() == START
    assert s.to_move == "chance"
    assert s.legal_moves() == []
    for side in ("white", "black"):
        assert sum(s.board(side)) == 15
        assert s.pip_count(side) == 167


@BOTH
def test_opening_chance_node(game: BackgammonGame) -> None:
    outcomes = game.start().chance_outcomes()
    assert len(outcomes) == 30
    assert all(math.isclose(p, 1 / 30) for _, p in outcomes)
    assert math.isclose(sum(p for _, p in outcomes), 1)
    assert {str(o) for o, _ in outcomes} == {
        f"w{w}b{b}" for w in range(1, 7) for b in range(1, 7) if w != b
    }
    assert all(isinstance(o, OpeningRoll) and o.white != o.black for o, _ in outcomes)


def test_seed_lower_die_starts() -> None:
    s = SEED.start().play("w1b3")
    assert s.to_move == "white" and str(s.dice) == "31"
    s = SEED.start().play("w5b2")
    assert s.to_move == "black" and str(s.dice) == "52"


def test_standard_higher_die_starts() -> None:
    s = STANDARD.start().play("w1b3")
    assert s.to_move == "black" and str(s.dice) == "31"
    s = STANDARD.start().play(OpeningRoll(5, 2))
    assert s.to_move == "white" and str(s.dice) == "52"


@BOTH
def test_opening_never_a_double(game: BackgammonGame) -> None:
    with pytest.raises(IllegalMove, match="never equal"):
        game.start().play("w3b3")
    with pytest.raises(IllegalMove):
        game.start().play(OpeningRoll(3, 3))
    with pytest.raises(IllegalMove, match="w1b3"):
        game.start().play("31")


@BOTH
def test_roll_chance_node(game: BackgammonGame) -> None:
    s = game.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w -")
    assert s.to_move == "chance"
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 21
    assert math.isclose(sum(p for _, p in outcomes), 1)
    probs = {str(r): p for r, p in outcomes}
    assert math.isclose(probs["66"], 1 / 36) and math.isclose(probs["31"], 2 / 36)
    assert s.play("13").dice == Roll(3, 1)
    assert s.play("31") == s.play(Roll(3, 1))
    with pytest.raises(IllegalMove, match="two digits"):
        s.play("71")
    with pytest.raises(IllegalMove, match="must roll"):
        s.play(Roll(7, 1))


@BOTH
def test_after_a_play_the_other_side_rolls(game: BackgammonGame) -> None:
    s = game.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    after = s.play("8/5 6/5")
    assert after.to_move == "chance" and after.side == "black" and after.dice is None


# -- single moves ---------------------------------------------------------------------------


@BOTH
def test_same_checker_may_use_both_dice(game: BackgammonGame) -> None:
    assert "24/23 23/20" in plays(game, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")


@BOTH
def test_bar_first(game: BackgammonGame) -> None:
    s = game.parse_position("W[bar,13x4,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 31")
    for m in s.legal_moves():
        assert m.steps[0].src == 25
    with pytest.raises(IllegalMove, match="bar must enter first"):
        s.play("13/10 13/12")


@BOTH
def test_two_on_the_bar_must_both_enter(game: BackgammonGame) -> None:
    s = game.parse_position("W[barx2,13x3,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 31")
    assert plays(game, s.position()) == {"bar/24 bar/22"}


@BOTH
def test_entry_on_point_25_minus_die(game: BackgammonGame) -> None:
    # black holds its 6 (our 19), not our 21 or 22: the 4 enters on 21, the 3 on 22
    s = game.parse_position("W[bar,6x5] B[6x2] w 43")
    entries = {(m.steps[0].src, m.steps[0].dst) for m in s.legal_moves()}
    assert entries == {(25, 21), (25, 22)}
    # bar/21 21/18 is the same play as bar/22 22/18 (same position), so it is listed once
    assert plays(game, s.position()) == {"bar/22 22/18", "bar/22 6/2", "bar/21 6/3"}
    # with our 21 blocked only the 3 enters, on 22
    blocked = game.parse_position("W[bar,6x5] B[4x2] w 43")
    assert {(m.steps[0].src, m.steps[0].dst) for m in blocked.legal_moves()} == {(25, 22)}


@BOTH
def test_blocked_points(game: BackgammonGame) -> None:
    # black holds its 5 (our 20) and 4 (our 21): white on the bar cannot enter with 5 or 4
    assert plays(game, "W[bar,6x5] B[5x2,4x2] w 54") == {"pass"}


@BOTH
def test_hitting_sends_a_blot_to_the_bar(game: BackgammonGame) -> None:
    s = game.parse_position("W[13,6x3] B[18,1x2] w 61")  # black's blot on its 18 = our 7
    after = s.play("13/7* 7/6")
    assert after.board("black")[25] == 1
    assert after.board("black")[18] == 0
    assert "13/7*" in str(s.parse_move("13/7*/6"))


@BOTH
def test_hit_during_bear_off_must_reenter(game: BackgammonGame) -> None:
    # white was bearing off and got hit: the checker enters on 19 or 24 and nothing bears off
    # this turn, since not all of white's checkers are home
    s = game.parse_position("W[bar,5,4,3] B[23x2] w 61")
    assert s.legal_moves()
    for m in s.legal_moves():
        assert m.steps[0].src == 25
        assert "off" not in str(m)
    # once it is home again, bearing off resumes
    home = game.parse_position("W[6,5,4,3] B[23x2] w 61")
    assert any("off" in str(m) for m in home.legal_moves())


@BOTH
def test_bear_off_exact_or_larger_from_the_highest(game: BackgammonGame) -> None:
    assert plays(game, "W[6,3] B[1x2] w 54") == {"6/2 3/off", "6/1 3/off"}
    assert plays(game, "W[3,2] B[1x2] w 65") == {"3/off 2/off"}
    # a 6 cannot bear off from 3 while 5 is occupied: 5/off first
    assert plays(game, "W[5,3] B[1x2] w 66") == {"5/off 3/off"}


@BOTH
def test_no_bear_off_until_all_home(game: BackgammonGame) -> None:
    for m in game.parse_position("W[7,5,4] B[24x2] w 65").legal_moves():
        # 7/1 or 7/2 first; bearing off only after that checker is home
        assert m.steps[0].src == 7 or "off" not in str(m.steps[0])


@BOTH
def test_use_both_dice_when_possible(game: BackgammonGame) -> None:
    # 13/7 then 7/6 or 6/5...: a play of one die is not offered when two can be played
    for m in game.parse_position("W[13,6x5] B[1x2] w 61").legal_moves():
        assert len(m.steps) == 2


@BOTH
def test_larger_die_when_only_one_can_be_played(game: BackgammonGame) -> None:
    assert plays(game, "W[12] B[20x2] w 61") == {"12/6"}


@BOTH
def test_double_uses_as_many_as_possible(game: BackgammonGame) -> None:
    # with 66 from the start one checker per 24 may reach 18 and 12, etc.; all plays use 4 dice
    s = game.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 66")
    assert all(len(m.steps) == 4 for m in s.legal_moves())
    # a double that can only be partly played
    s = game.parse_position("W[13] B[24x2] w 66")  # 7/1 is blocked
    assert [str(m) for m in s.legal_moves()] == ["13/7"]


@BOTH
def test_pass_when_no_move(game: BackgammonGame) -> None:
    s = game.parse_position("W[6,3] B[24x2] w 55")
    assert [str(m) for m in s.legal_moves()] == ["pass"]
    after = s.play("pass")
    assert after.to_move == "chance" and after.side == "black"
    assert after.board("white") == s.board("white")


@BOTH
def test_plays_are_deduplicated_by_position(game: BackgammonGame) -> None:
    s = game.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    results = [s.play(m).position() for m in s.legal_moves()]
    assert len(results) == len(set(results)) == 16


def test_cap_on_every_landing_seed_only() -> None:
    # bar entry onto a full point
    assert plays(SEED, "W[bar,24x5,6x5] B[3x2] w 31") == {"pass"}
    assert plays(STANDARD, "W[bar,24x5,6x5] B[3x2] w 31") == {"bar/24 24/21", "bar/24 6/3"}
    # landing on a full point
    seed = plays(SEED, "W[13,7x5,6x4,5x5] B[1x2] w 61")
    standard = plays(STANDARD, "W[13,7x5,6x4,5x5] B[1x2] w 61")
    assert "13/7 6/5" in standard and "13/7 6/5" not in seed
    # an intermediate landing: with 12 blocked, 13/6 must pass through the full 7, which is
    # refused while 7 holds five; moving 7/6 first makes room (the same final position)
    turn = SEED.parse_position("W[13,7x5,6x4,5x5] B[13x2] w 61").partial_turn()
    assert "13/7" not in {str(st) for st in turn.next_steps}
    assert "7/6" in {str(st) for st in turn.next_steps}
    after = SEED.parse_position("W[13,7x5,6x4,5x5] B[13x2] w 61").partial_turn(["7/6"])
    assert "13/7" in {str(st) for st in after.next_steps}
    standard_turn = STANDARD.parse_position("W[13,7x5,6x4,5x5] B[13x2] w 61").partial_turn()
    assert "13/7" in {str(st) for st in standard_turn.next_steps}


def test_cap_allows_the_fifth_checker_not_the_sixth() -> None:
    assert "9/6 6/3 6/3 6/3" in plays(SEED, "W[9,6x4] B[1x2] w 33")
    assert "9/6 9/6" not in plays(SEED, "W[9x2,6x4] B[1x2] w 33".replace("33", "33"))
    assert not any(p.startswith("9/6") for p in plays(SEED, "W[9,6x5] B[1x2] w 33"))
    assert any(p.startswith("9/6") for p in plays(STANDARD, "W[9,6x5] B[1x2] w 33"))


def test_cap_counts_points_not_the_bar() -> None:
    s = SEED.parse_position("W[barx6,6x5,5x4] B[3x2] b 11")
    assert s.board("white")[25] == 6
    with pytest.raises(ludotheque.InvalidPosition, match="at most 5"):
        SEED.parse_position("W[6x6] B[3x2] w 11")
    assert STANDARD.parse_position("W[6x6] B[3x2] w 11").board("white")[6] == 6


def test_cap_never_applies_to_bearing_off() -> None:
    # the borne-off tray may hold any number
    s = SEED.parse_position("W[2x5,1x5] B[13x2] w 22")
    assert str(s.legal_moves()[0]).count("off") == 4


def test_order_matters_with_the_cap() -> None:
    # 6 holds five: 8/6 can be played only after a checker has left 6, so the canonical order
    # of such a play moves from 6 first
    with_8_6 = [p for p in plays(SEED, "W[8,6x5] B[1x2] w 22") if "8/6" in p]
    assert with_8_6
    for p in with_8_6:
        assert p.index("6/4") < p.index("8/6")


# -- the end --------------------------------------------------------------------------------


@BOTH
def test_bearing_off_the_last_checker_wins(game: BackgammonGame) -> None:
    s = game.parse_position("W[2] B[24x2] w 31")
    after = s.play("2/off")
    assert after.outcome() == Outcome("white", "borne-off")
    assert after.to_move is None
    assert after.position() == "W[] B[24x2] - -"
    assert after.legal_moves() == [] and after.chance_outcomes() == []
    with pytest.raises(IllegalMove, match="over"):
        after.play("31")
    assert game.parse_position("W[] B[3] - -").outcome() == Outcome("white", "borne-off")
    assert game.parse_position("W[3] B[] - -").outcome() == Outcome("black", "borne-off")


# -- the contract's table -------------------------------------------------------------------

TABLE = [
    (1, "W[5,1x5] B[1x2] w 54", {"5/off 1/off", "5/1 1/off"}, {"5/off 1/off"}),
    (2, "W[12,6x5,3] B[20x2,14x2] w 61", {"12/6 3/2"}, {"3/2"}),
    (3, "W[bar,24x5,6x5] B[3x2] w 31", {"bar/24 6/3", "bar/24 24/21"}, {"pass"}),
    (4, "W[6,3] B[1x2] w 54", {"6/2 3/off", "6/1 3/off"}, {"6/2 3/off", "6/1 3/off"}),
    (5, "W[12] B[20x2] w 61", {"12/6"}, {"12/6"}),
    (6, "W[6,3] B[24x2] w 55", {"pass"}, {"pass"}),
    (7, "W[5,2] B[1x2] w 61", {"5/4 4/off", "5/off 2/1"}, {"5/4 4/off", "5/off 2/1"}),
    (8, "W[5,1x5] B[1x2] w 44", {"5/1 1/off 1/off 1/off"}, {"pass"}),
]


@pytest.mark.parametrize(("case", "position", "standard", "seed"), TABLE)
def test_contract_table(case: int, position: str, standard: set[str], seed: set[str]) -> None:
    assert plays(STANDARD, position) == standard
    assert plays(SEED, position) == seed
    # the table's own short forms read back to the same plays
    if case == 8:
        assert str(STANDARD.parse_position(position).parse_move("5/1 1/off(3)")) == (
            "5/1 1/off 1/off 1/off"
        )


@pytest.mark.parametrize(("case", "position", "standard", "seed"), TABLE)
def test_contract_table_black_to_move(
    case: int, position: str, standard: set[str], seed: set[str]
) -> None:
    # the same rows with the colours swapped: black moves the same way in its own view
    w, b, _, dice = position.split(" ")
    swapped = f"W{b[1:]} B{w[1:]} b {dice}"
    assert plays(STANDARD, swapped) == standard
    assert plays(SEED, swapped) == seed
