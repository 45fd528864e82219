"""The General's evaluation: its features, found over bitmasks layer by layer, are those of a
plain breadth-first search point by point (the reference below), to the last bit, on positions
of random games; and the tables' verdict is asked only where a table could have one."""

from __future__ import annotations

import random

import ludotheque
from ludotheque.games.general.board import (
    GATES,
    GATES_MASK,
    NEIGHBOURS,
    PAIRS_AT,
    S4,
    SANCTUARY_MASK,
)
from ludotheque.games.general.evaluation import evaluate, features
from ludotheque.games.general.rules import GeneralState


def reference(state: GeneralState) -> dict[str, float]:
    """The features as they were first written: a search over a dict of distances."""
    rebels = state._rebels
    g = state._general
    occupied = rebels | (1 << g)
    empty_neighbours = [q for q in NEIGHBOURS[g] if not (occupied >> q) & 1]
    threat_points = sum(
        1 for q in empty_neighbours if any(rebels & pair == pair for pair in PAIRS_AT[q])
    )
    distance = {g: 0}
    frontier = [g]
    while frontier:
        nxt = []
        for p in frontier:
            for q in NEIGHBOURS[p]:
                if q not in distance and not (occupied >> q) & 1:
                    distance[q] = distance[p] + 1
                    nxt.append(q)
        frontier = nxt
    exposed = 0.0
    for m, d in distance.items():
        if m != g:
            for pair in PAIRS_AT[m]:
                if rebels & pair == pair:
                    exposed += 1.0 / d
    in_sanctuary = bool((SANCTUARY_MASK >> g) & 1)
    gates_held = (rebels & GATES_MASK).bit_count() if in_sanctuary else 0
    pressure = 0.0
    if in_sanctuary and gates_held == 2:
        free_gate = next(gate for gate in GATES if not (rebels >> gate) & 1)
        if any((rebels >> q) & 1 for q in NEIGHBOURS[free_gate]):
            pressure = 1.0
    return {
        "captured": (16 - rebels.bit_count()) / 2,
        "threat_points": float(threat_points),
        "exposed": exposed,
        "room": float(len(distance) - 1),
        "mobility": float(len(empty_neighbours)),
        "gates": float(gates_held) + 2 * pressure,
        "flight": 1.0 if state._flight and S4 in distance else 0.0,
    }


def positions(games: int, seed: int) -> list[GeneralState]:
    game = ludotheque.load("general")
    rng = random.Random(seed)
    found: list[GeneralState] = []
    for _ in range(games):
        state = game.start()
        while state.outcome() is None:
            assert isinstance(state, GeneralState)
            found.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return found


def test_the_features_are_the_plain_search_s_to_the_last_bit() -> None:
    states = positions(60, 2026)
    assert len(states) > 3000
    assert any(s._general in (S4,) or (SANCTUARY_MASK >> s._general) & 1 for s in states)
    for state in states:
        assert features(state) == reference(state), state.position()
        value = evaluate(state, "general")
        assert -1 < value < 1 and evaluate(state, "rebels") == -value
