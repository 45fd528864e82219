"""The solver's moves are the engine's, on sampled positions of every sub-layer and on positions
chosen for the rare rules; its un-moves are exactly the positions of the same sub-layer, not
already over, that have a move to the position (found here by brute force over the engine)."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque.core import InvalidPosition
from ludotheque.games.general.board import INDEX
from ludotheque.solve.check import (
    check_moves,
    engine_children,
    sample_positions,
    solver_children,
    solver_predecessors,
)
from ludotheque.solve.layout import Position, from_state, sublayers, to_state

pytest.importorskip("numba")

GAME = ludotheque.load("general")
RARE = [
    "s2 a1,a3,c1,c3,e1,e5 g 1",  # the flight: lands anywhere free but s4, captures on landing
    "s1 a1,b2,c1,c3,e1,e5 g 1",  # ... his own point included
    "c4 b3,d3,c2,a1,a5,e1,e5,e3 g 0",  # c3 between two pairs: one move per pair
    "d4 b3,c2,c4,d3,a1,e1 g 1",
    "s3 b5,c5,d4,e4,a1,a2 r 1",  # d4-d5 shuts him in
    "s1 b5,c5,d5,a1,a2,a3 g 0",  # shut in: over
    "a1 a2,b1,b2,c3,c1,a3 g 0",  # immobilised
    "c3 b3,d3,a1,a5,e1,e5 r 0",  # between a pair with the rebels to move: no general un-move
    "s4 a1,a2,a3,a4,a5,b1 g 0",  # on s4 after the flight: an ordinary point
    "s2 b5,c5,d5,a1,a2,a3,a4,a5 r 1",  # shut in with the rebels to move (no move leads here)
]


def brute_predecessors(position: Position) -> list[Position]:
    """Every position of the same sub-layer, not over, with a move to ``position``."""
    g, rebels, side, flight = position
    candidates = []
    if side == 1:  # a rebel moved: from any free square point to any rebel's point
        for dst in range(25):
            if (rebels >> dst) & 1:
                for src in range(25):
                    if src != g and not (rebels >> src) & 1:
                        candidates.append(Position(g, rebels ^ (1 << dst) ^ (1 << src), 0, flight))
    else:  # the general moved: from any point
        candidates = [Position(src, rebels, 1, flight) for src in range(29) if src != g]
    found = []
    for candidate in candidates:
        try:
            state = to_state(candidate)
        except InvalidPosition:
            continue
        if state.outcome() is None and position in engine_children(state):
            found.append(candidate)
    return sorted(found)


@pytest.mark.parametrize(("k", "flight"), sublayers())
def test_moves_agree_with_the_engine(k: int, flight: int) -> None:
    assert check_moves(k, flight, 120, seed=k * 2 + flight) == []


@pytest.mark.parametrize("text", RARE)
def test_rare_rules(text: str) -> None:
    state = GAME.parse_position(text)
    position = from_state(state)
    if state.outcome() is None:
        assert solver_children(position) == engine_children(state)
    assert solver_predecessors(position) == brute_predecessors(position)


@pytest.mark.parametrize(("k", "flight"), [(6, 1), (10, 0), (16, 1)])
def test_un_moves_by_brute_force(k: int, flight: int) -> None:
    for position in sample_positions(k, flight, 12, random.Random(k + flight)):
        assert solver_predecessors(position) == brute_predecessors(position)


def test_a_pair_around_him_with_the_rebels_to_move() -> None:
    position = from_state(GAME.parse_position("c3 b3,d3,a1,a5,e1,e5 r 0"))
    assert solver_predecessors(position) == []
    assert INDEX["c3"] == position.general
