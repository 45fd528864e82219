"""A heuristic evaluation of General positions, from the game's strategy.

The general wants captures (rebels gone), threats (pairs he can take now or soon), room (the
points he can reach) and a way out of the sanctuary. The rebels want him hemmed in: little
room, no capturable pairs near him, the gates held when he is in the sanctuary.
"""

from __future__ import annotations

import math

from ...core import Calibration
from .board import GATES, GATES_MASK, NEIGHBOUR_MASK, NUM_POINTS, PAIRS_AT, S4, SANCTUARY_MASK
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
ALL_POINTS = (1 << NUM_POINTS) - 1


def _raw(state: GeneralState) -> tuple[int, int, float, int, int, int, int]:
    """The features as numbers: rebels left, capturable landing points next to the general,
    exposure, room, mobility, gates (doubled pressure included) and flight.

    The general's reach is a breadth-first search over bitmasks, layer by layer: every point of
    a layer is at the same distance, so exposure adds the same ``1 / d`` terms in the same
    order as a search point by point would (the values are the same to the last bit)."""
    rebels = state._rebels
    g = state._general
    free = ALL_POINTS & ~(rebels | (1 << g))
    near = NEIGHBOUR_MASK[g] & free
    threat_points = 0
    rest = near
    while rest:
        low = rest & -rest
        rest ^= low
        for pair in PAIRS_AT[low.bit_length() - 1]:
            if rebels & pair == pair:
                threat_points += 1
                break
    seen = near | (1 << g)
    frontier = near
    exposed = 0.0
    room = 0
    d = 1
    while frontier:
        room += frontier.bit_count()
        step = 1.0 / d
        grown = 0
        rest = frontier
        while rest:
            low = rest & -rest
            rest ^= low
            q = low.bit_length() - 1
            for pair in PAIRS_AT[q]:
                if rebels & pair == pair:
                    exposed += step
            grown |= NEIGHBOUR_MASK[q]
        frontier = grown & free & ~seen
        seen |= frontier
        d += 1
    gates = 0
    if (SANCTUARY_MASK >> g) & 1:
        gates = (rebels & GATES_MASK).bit_count()
        if gates == 2:
            free_gate = next(gate for gate in GATES if not (rebels >> gate) & 1)
            if rebels & NEIGHBOUR_MASK[free_gate]:
                gates += 2
    flight = 1 if state._flight and (seen >> S4) & 1 else 0
    return rebels.bit_count(), threat_points, exposed, room, near.bit_count(), gates, flight


CALIBRATION = Calibration(1.8819, 1.1362)
"""The evaluation read as the rebels' expected score (``tools/calibrate_analysis.py``): 160
games between the hard and medium levels in the four pairings (14,895 positions; the rebels
scored 0.466): log loss 0.609, against 0.755 for (1 + v) / 2. The evaluation underrates the
rebels: an even evaluation is a 76% chance for them, and a draw is worth what an evaluation of
-0.54 is to them."""


def features(state: GeneralState) -> dict[str, float]:
    """The named features of a position (for the general)."""
    left, threat_points, exposed, room, mobility, gates, flight = _raw(state)
    return {
        "captured": (16 - left) / 2,
        "threat_points": float(threat_points),
        "exposed": exposed,
        "room": float(room),
        "mobility": float(mobility),
        "gates": float(gates),
        "flight": float(flight),
    }


def evaluate(state: GeneralState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]."""
    left, threat_points, exposed, room, mobility, gates, flight = _raw(state)
    general_to_move = state._side == 1
    score = (
        W_CAPTURED * ((16 - left) / 2)
        + (W_THREAT_NOW if general_to_move and threat_points else 0.0)
        + W_THREATS * min(float(threat_points), 4.0)
        + W_EXPOSED * exposed
        + W_ROOM * (float(room) - 10)
        + W_MOBILITY * float(mobility)
        - W_GATES * float(gates)
        + W_FLIGHT * float(flight)
    )
    value = math.tanh(score / 2)
    return value if side == GENERAL else -value
