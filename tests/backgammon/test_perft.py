"""Perft-style counts (every move and every chance outcome is a ply) from fixed positions, for
both rulesets, checked against the simple reference generator."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import perft_table
from ludotheque.core import CHANCE
from tests.backgammon import reference

START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"
AFTER_31 = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
BOTH_ON_BAR = "W[bar,13x5,8x3,6x5,5] B[bar,13x5,8x3,6x5,4] b -"
BEAR_OFF = "W[6x5,5x5,4x5] B[6x5,5x5,4x4,3] w -"  # stacks of five: the cap matters

TABLES = {
    ("seed", START): [30, 348, 7308],
    ("seed", AFTER_31): [16, 336, 6785],
    ("seed", BOTH_ON_BAR): [21, 193, 4053],
    ("seed", BEAR_OFF): [21, 145, 3045],
    ("standard", START): [30, 380, 7980],
    ("standard", AFTER_31): [16, 336, 7459],
    ("standard", BOTH_ON_BAR): [21, 211, 4431],
    ("standard", BEAR_OFF): [21, 193, 4053],
}


@pytest.mark.parametrize(("key", "table"), TABLES.items(), ids=lambda v: str(v)[:40])
def test_perft(key: tuple[str, str], table: list[int]) -> None:
    ruleset, position = key
    game = ludotheque.load("backgammon", ruleset)
    assert perft_table(game.parse_position(position), len(table)) == table


def _reference_perft(game: ludotheque.Game, state: ludotheque.State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.to_move is None:
        return 0
    if state.to_move == CHANCE:
        return sum(
            _reference_perft(game, state.play(o), depth - 1) for o, _ in state.chance_outcomes()
        )
    cap = 5 if game.ruleset == "seed" else 0
    results = reference.legal_results(state.position(), cap)
    if depth == 1:
        return len(results)
    side = state.position().split()[2]
    nxt = "b" if side == "w" else "w"
    total = 0
    for boards in results:
        over = "W[]" in boards or "B[]" in boards
        child = game.parse_position(f"{boards} - -" if over else f"{boards} {nxt} -")
        total += _reference_perft(game, child, depth - 1)
    return total


@pytest.mark.parametrize(("key", "table"), TABLES.items(), ids=lambda v: str(v)[:40])
def test_perft_matches_the_reference(key: tuple[str, str], table: list[int]) -> None:
    ruleset, position = key
    game = ludotheque.load("backgammon", ruleset)
    state = game.parse_position(position)
    assert [_reference_perft(game, state, d) for d in (1, 2)] == table[:2]
