"""A heuristic evaluation of General positions, from the game's strategy.

The general wants captures (rebels gone), threats (pairs he can take now or soon), room (the
points he can reach) and a way out of the sanctuary. The rebels want him hemmed in: little
room, no capturable pairs near him, the gates held when he is in the sanctuary.
"""

from __future__ import annotations

import math

from ...core import Calibration
from .board import GATES, GATES_MASK, NEIGHBOURS, PAIRS_AT, S4, SANCTUARY_MASK
from .rules import GENERAL, GeneralState

# weights of the features (for the general; the rebels' value is the opposite)
W_CAPTURED = 0.3  # per pair already captured
W_THREAT_NOW = 0.9  # the general to move can capture
W_THREATS = 0.22  # capturable landing points next to him (rebels to move)
W_EXPOSED = 0.12  # rebel pairs around empty points, discounted by distance
W_ROOM = 0.12  # points he can reach, minus ten
W_MOBILITY = 0.08  # empty neighbours
W_GATES = 0.35  # gates held by rebels while he is in the sanctuary
W_FLIGHT = 0.15  # the flight still available

CALIBRATION = Calibration(1.8819, 1.1362)
"""The evaluation read as the rebels' expected score (``tools/calibrate_analysis.py``): 160
games between the hard and medium levels in the four pairings (14,895 positions; the rebels
scored 0.466): log loss 0.609, against 0.755 for (1 + v) / 2. The evaluation underrates the
rebels: an even evaluation is a 76% chance for them, and a draw is worth what an evaluation of
-0.54 is to them."""


def features(state: GeneralState) -> dict[str, float]:
    """The named features of a position (for the general)."""
    rebels = state._rebels
    g = state._general
    occupied = rebels | (1 << g)
    empty_neighbours = [q for q in NEIGHBOURS[g] if not (occupied >> q) & 1]
    threat_points = 0
    for q in empty_neighbours:
        if any(rebels & pair == pair for pair in PAIRS_AT[q]):
            threat_points += 1
    # the points the general can reach, by breadth-first search over empty points
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
        if m == g:
            continue
        for pair in PAIRS_AT[m]:
            if rebels & pair == pair:
                exposed += 1.0 / d
    in_sanctuary = bool((SANCTUARY_MASK >> g) & 1)
    gates_held = (rebels & GATES_MASK).bit_count() if in_sanctuary else 0
    gate_pressure = 0.0
    if in_sanctuary and gates_held == 2:
        free_gate = next(gate for gate in GATES if not (rebels >> gate) & 1)
        if any((rebels >> q) & 1 for q in NEIGHBOURS[free_gate]):
            gate_pressure = 1.0
    return {
        "captured": (16 - rebels.bit_count()) / 2,
        "threat_points": float(threat_points),
        "exposed": exposed,
        "room": float(len(distance) - 1),
        "mobility": float(len(empty_neighbours)),
        "gates": float(gates_held) + 2 * gate_pressure,
        "flight": 1.0 if state._flight and S4 in distance else 0.0,
    }


def evaluate(state: GeneralState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]."""
    f = features(state)
    general_to_move = state._side == 1
    score = (
        W_CAPTURED * f["captured"]
        + (W_THREAT_NOW if general_to_move and f["threat_points"] else 0.0)
        + W_THREATS * min(f["threat_points"], 4.0)
        + W_EXPOSED * f["exposed"]
        + W_ROOM * (f["room"] - 10)
        + W_MOBILITY * f["mobility"]
        - W_GATES * f["gates"]
        + W_FLIGHT * f["flight"]
    )
    value = math.tanh(score / 2)
    return value if side == GENERAL else -value
