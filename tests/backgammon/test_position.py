"""Backgammon position strings, pip counts, and GNU Backgammon / XGID import and export."""

from __future__ import annotations

import gnubg
import pytest

import ludotheque
from ludotheque import InvalidPosition

SEED = ludotheque.load("backgammon")
STANDARD = ludotheque.load("backgammon", "standard")
START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"


def test_round_trip_and_canonical_output() -> None:
    s = STANDARD.parse_position(" w[6x5, 8x3,13X5, 24x2]  b[bar,2x1,6x4] b 13 ")
    assert s.position() == "W[24x2,13x5,8x3,6x5] B[bar,6x4,2] b 31"
    assert STANDARD.parse_position(s.position()) == s
    assert s.to_move == "black" and str(s.dice) == "31"
    assert s.board("black")[0] == 9  # unlisted checkers are borne off


def test_side_to_roll_and_opening() -> None:
    assert STANDARD.parse_position(START).to_move == "chance"
    s = STANDARD.parse_position("W[6] B[6] w -")
    assert s.to_move == "chance" and s.side == "white"
    assert STANDARD.parse_position("W[] B[] - -".replace("W[]", "W[6]")).side is None


def test_finished_positions() -> None:
    s = STANDARD.parse_position("W[] B[6x3] - -")
    assert s.outcome() is not None and s.to_move is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "cannot read"),
        ("W[6] B[6]", "cannot read"),
        ("W[6] B[6] w", "cannot read"),
        ("X[6] B[6] w 31", "cannot read"),
        ("W[6 B[6] w 31", "cannot read"),
        ("W[6] B[6] x 31", "'w', 'b' or '-'"),
        ("W[6] B[6] w 71", "two digits 1–6"),
        ("W[6] B[6] w 3", "two digits 1–6"),
        ("W[6] B[6] w 311", "two digits 1–6"),
        ("W[6] B[6] - 31", "need a side"),
        ("W[0] B[6] w 31", "no point 0"),
        ("W[25] B[6] w 31", "no point 25"),
        ("W[26x2] B[6] w 31", "no point 26"),
        ("W[6x0] B[6] w 31", "a count is 1 or more"),
        ("W[6x-1] B[6] w 31", "cannot read"),
        ("W[6,6] B[6] w 31", "listed twice"),
        ("W[6,bar,bar] B[6] w 31", "listed twice"),
        ("W[six] B[6] w 31", "cannot read"),
        ("W[6x16] B[6] w 31", "15"),
        ("W[6x8,5x8] B[6] w 31", "16 checkers"),
        ("W[6] B[19] w 31", "both sides"),
        ("W[] B[6] w -", "game is over"),
        ("W[] B[6] - 31", "game is over"),
        ("W[] B[] - -", "only one can win"),
        ("W[6x6] B[6] w 31", "at most 5"),  # seed only
    ],
)
def test_invalid_positions(text: str, reason: str) -> None:
    game = SEED if "6x6" in text else STANDARD
    with pytest.raises(InvalidPosition, match=reason):
        game.parse_position(text)


@pytest.mark.parametrize("value", [None, 5, b"W[6] B[6] w 31", ["W[6]"]])
def test_non_strings(value: object) -> None:
    with pytest.raises(InvalidPosition, match="must be a string"):
        STANDARD.parse_position(value)  # type: ignore[arg-type]


def test_pip_counts() -> None:
    s = STANDARD.parse_position("W[bar,24,6x2] B[3x4] w 31")
    assert s.pip_count("white") == 25 + 24 + 12
    assert s.pip_counts() == {"white": 61, "black": 12}
    with pytest.raises(ValueError):
        s.pip_count("red")


def test_checkers_view() -> None:
    s = STANDARD.parse_position("W[bar,24,6x2] B[3x4] w 31")
    assert s.checkers("white") == {"bar": 1, "24": 1, "6": 2, "off": 11}


# -- GNU Backgammon Position IDs and XGIDs ---------------------------------------------------


def test_start_ids() -> None:
    s = STANDARD.start().play("w3b1")
    assert s.gnubg_id() == "4HPwATDgc/ABMA:MIEFAAAAAAAE"  # as GNU Backgammon prints it
    assert s.gnubg_position_id() == "4HPwATDgc/ABMA"
    assert s.xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


@pytest.mark.parametrize(
    "position",
    [
        "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31",
        "W[bar,20,13x4,8x3,6x4,5x2] B[24x2,13x5,8x2,6x4,4,3] b 52",
        "W[bar,20,13x4,8x3,6x4,5x2] B[24x2,13x5,8x2,6x4,4,3] w -",
        "W[6x2,1] B[barx2,22,18,5x3] b -",
    ],
)
def test_gnubg_ids_agree_with_gnubg(position: str) -> None:
    s = STANDARD.parse_position(position)
    on_roll = s.side or "white"
    other = "black" if on_roll == "white" else "white"
    # gnubg's board: (not on roll, on roll), each 25 counts (points 1-24 then the bar)
    board = (tuple(s.board(other)[1:26]), tuple(s.board(on_roll)[1:26]))
    assert s.gnubg_position_id() == gnubg.position_id(board)
    assert gnubg.position_from_id(s.gnubg_position_id()) == board
    assert s.gnubg_id() == f"{s.gnubg_position_id()}:{s.gnubg_match_id()}"
    assert STANDARD.from_gnubg_id(s.gnubg_id()) == s
    assert STANDARD.parse_position(s.gnubg_id()) == s


def test_gnubg_player_on_roll_is_the_second_side() -> None:
    # gnubg moves the second board of a position; our black-to-move position puts black there
    s = STANDARD.parse_position("W[6x5] B[13x15] b 65")
    board = gnubg.position_from_id(s.gnubg_position_id())
    best = gnubg.find_best_move(board, gnubg.cube_info(), gnubg.eval_context(), (6, 5))
    assert best[0] == 13  # gnubg moves black's checkers from its 13


def test_gnubg_id_without_match_id() -> None:
    s = STANDARD.from_gnubg_id("4HPwATDgc/ABMA")
    assert s.position() == "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w -"
    assert STANDARD.parse_position("4HPwATDgc/ABMA") == s


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("////////////AA", "checkers"),
        ("4HPwATDgc/ABMA:cAkAAAAA", "12 characters"),
    ],
)
def test_bad_gnubg_ids(text: str, reason: str) -> None:
    with pytest.raises(InvalidPosition, match=reason):
        STANDARD.from_gnubg_id(text)


@pytest.mark.parametrize(
    "position",
    [
        "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31",
        "W[bar,20,13x4,8x3,6x4,5x2] B[barx2,24,13x5,8x2,6x4,3] b 52",
        "W[6x2,1] B[22,18,5x3] b -",
        "W[] B[5x3] - -",
    ],
)
def test_xgid_round_trip(position: str) -> None:
    s = STANDARD.parse_position(position)
    assert STANDARD.from_xgid(s.xgid()) == s
    assert STANDARD.parse_position(s.xgid()) == s


def test_xgid_from_other_software() -> None:
    s = STANDARD.parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10")
    assert s.position() == "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] b 52"
    s = STANDARD.from_xgid("-a-B--E-B-a-dDB--b-bcb----:1:1:-1:00:0:0:0:3:8")
    assert s.side == "black" and s.dice is None
    assert s.board("white")[3] == 2 and s.board("black")[24] == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XGID=-b----E-C---eE---c-e----B-", "reads like"),
        ("XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "not '\\*'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "turn is 1"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "dice are two digits"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "top player's bar"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "checkers"),
    ],
)
def test_bad_xgids(text: str, reason: str) -> None:
    with pytest.raises(InvalidPosition, match=reason):
        STANDARD.from_xgid(text)


def test_seed_cap_applies_to_imported_positions() -> None:
    with pytest.raises(InvalidPosition, match="at most 5"):
        SEED.from_xgid("XGID=-b----F-B---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
