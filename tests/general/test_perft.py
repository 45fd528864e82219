"""Perft tables (paths of exactly n plies) from the start and from positions chosen to exercise
the flight (with and without capture), several capture pairs and the shut-in."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import perft, perft_table
from tests.general import reference

GAME = ludotheque.load("general")

TABLES = {
    # the start, to depth 5
    "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1": [24, 168, 3688, 12680, 294848],
    # the general below the apex with his flight: landings with and without a capture
    "s2 a1,a3,c1,c5,e1,e3 g 1": [24, 408, 2379, 43812, 185429],
    # three capture pairs around d4
    "d3 c3,c4,c5,e3,e4,e5,a1,a2 g 1": [4, 70, 349, 5864, 20482],
    # rebels one move from shutting the general in (d4-d5 ends the game)
    "s1 b5,c5,d4,e4,a1,a2 r 0": [17, 34, 622, 1891, 37062],
    # rebels to move, the general on s3 with his flight
    "s3 a1,a3,b1,b4,c4,c5,d4,e3 r 1": [25, 551, 13319, 52818, 1267215],
}


@pytest.mark.parametrize(("position", "table"), TABLES.items())
def test_perft_table(position: str, table: list[int]) -> None:
    state = GAME.parse_position(position)
    depth = len(table) if sum(table) < 500_000 else len(table) - 1
    assert perft_table(state, depth) == table[:depth]


@pytest.mark.slow
def test_perft_deepest_row() -> None:
    state = GAME.parse_position("s3 a1,a3,b1,b4,c4,c5,d4,e3 r 1")
    assert perft(state, 5) == 1267215


def _reference_perft(pos: reference.Pos, depth: int) -> int:
    if depth == 0:
        return 1
    moves = reference.moves(pos)
    if depth == 1:
        return len(moves)
    return sum(_reference_perft(p, depth - 1) for p in moves.values())


@pytest.mark.parametrize("position", TABLES)
def test_perft_matches_the_reference_generator(position: str) -> None:
    ref = reference.parse(position)
    assert [_reference_perft(ref, d) for d in (1, 2, 3)] == TABLES[position][:3]


def test_perft_counts_terminal_paths_only_at_full_depth() -> None:
    over = GAME.parse_position("c3 a1,a2,e1,e2 r 1")
    assert perft(over, 0) == 1
    assert perft(over, 1) == 0
    with pytest.raises(ValueError):
        perft(over, -1)
