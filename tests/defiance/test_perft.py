"""Perft tables at depths 1–2 from both starts and from mid-game positions chosen for
diagonal captures, dead zones and walls; depth 1 also against the reference implementation."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import perft_table
from tests.defiance import reference

TEN = ludotheque.load("defiance")
EIGHT = ludotheque.load("defiance", "8x8")

# diagonal flanks waiting for a Command to enter: f6 (Imperial Commands outside sector (1,1))
# and b2 (the Rebel Command on a border point)
DIAGONAL = "7RW/6ISW1/5RN2/4INE3/3IN4/2RSW5/1IE6/RNE7 r36,i36 R4.2,I4.6,I2.6 i"
# dead zones for both sides: d5 (Rebels), b6 (Imperium), g2 (Rebels)
DEAD_ZONES = "8/1RS6/8/1RNIE1IW3/8/6IS1/3RNE1RE1RW/2RW3IN1 r34,i36 R5.5,I6.6,I6.6 r"
# the Rebel Command on P1.1 walled on three sides; a Rebel block controls P6.6
WALLS = "8/5RSRW1/5RNRE1/8/8/1IWRS5/IS1RW5/INIE6 r34,i36 R1.1,I5.2,I6.5 r"
# forty turns of random play on the big board
MIDGAME_10 = (
    "1RS1IE4INERSE/2RSWISE1IE4/9RSW/IEIN2IEISW1INE2/7RS1ISE/1INEIS3RNW3/IN1RNE1ISE1RWRSE2/"
    "RN7RNERSE/INWRNWRSW1RW2INEIERN/4INWRSE1RSWREINE r21,i21 R3.4,I5.8,I10.9 r"
)

TABLES = [
    (TEN, "10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r", [7200, 51321600]),
    (EIGHT, "8/8/8/8/8/8/8/8 r40,i40 R2.2,I6.6,I6.6 r", [4608, 11612160]),
    (EIGHT, DIAGONAL, [4284, 17897462]),
    (EIGHT, DEAD_ZONES, [3206, 7010640]),
    (EIGHT, WALLS, [1896, 6866688]),
    (TEN, MIDGAME_10, [5032, 25065088]),
]


@pytest.mark.parametrize(("game", "position", "table"), TABLES, ids=lambda v: str(v)[:24])
def test_perft(game: ludotheque.Game, position: str, table: list[int]) -> None:
    assert perft_table(game.parse_position(position), 2) == table


@pytest.mark.parametrize(("game", "position", "table"), TABLES, ids=lambda v: str(v)[:24])
def test_depth_one_matches_the_reference(
    game: ludotheque.Game, position: str, table: list[int]
) -> None:
    s = game.parse_position(position)
    n = 10 if game.ruleset == "10x10" else 8
    mine = {str(t): s.play(t).position() for t in s.legal_moves()}
    assert mine == reference.turns(position, n)
    assert len(mine) == table[0]


def test_positions_exercise_what_they_claim() -> None:
    d = EIGHT.parse_position(DIAGONAL)
    captures = {cm.text(d.game.geo): caps for cm, caps in d.after_action("a8>N").command_moves}
    assert captures["P4.6-P5.6"] == ("f6",)
    z = EIGHT.parse_position(DEAD_ZONES)
    assert "d5" in z.dead_zones("rebels") and "b6" in z.dead_zones("imperium")
    w = EIGHT.parse_position(WALLS)
    steps = {cm.text(w.game.geo) for cm, _ in w.after_action("a8>N").command_moves}
    assert steps == {"P1.1-P2.2", "P1.1-P2.1", "P1.1-P1.2"}
    assert w.controlled()[3] == ["P6.6"]
