"""A heuristic evaluation of Defiance and Domain positions, from the game's strategy.

- **Key-point progress per sector** (Rebels): the best 2×2 block of each sector — how many of its
  four cells hold Rebel counters, unless an Imperial counter already spoils it. The Rebels need
  all four sectors, so the weakest sector counts again.
- **Rebel Command freedom**: how many steps it has (walled in, it can be run down).
- **Imperial distance**: how close the nearest Imperial Command is to the Rebel Command
  (orthogonal steps), and whether it can capture it on the Imperium's move.
- **Counters at risk**: counters with an enemy counter aimed at them and the cell behind them
  empty — one placement away from capture.

The board is read as bitboards (one bit per cell) so that a whole-board feature costs a few
operations: evaluations run on every candidate turn, thousands per position.
"""

from __future__ import annotations

import math

from .rules import REBELS, DefianceState

# value of the best block of a sector by the number of Rebel counters in it (none spoiled)
W_BLOCK = (0.0, 0.08, 0.25, 0.55, 1.0)
W_PROGRESS = 1.1
W_WEAKEST = 1.3
W_CONTROLLED = 0.3
W_FREEDOM = 0.07
W_DISTANCE = 0.09
W_CAPTURE_THREAT = 1.8
W_AT_RISK = 0.12
W_MATERIAL = 0.02
OFFSET = 1.5  # the start is balanced when the Rebels have built nothing yet


def features(state: DefianceState) -> dict[str, float]:
    """The named features of a position."""
    geo = state.game.geo
    masks, rebel, imperial = state.bitboards()
    shift = geo.shift
    # the four cells of the block whose bottom-left cell is each cell: W, S and SW neighbours
    r0, r1, r2, r3 = rebel, shift(rebel, 6), shift(rebel, 4), shift(rebel, 5)
    spoiled = imperial | shift(imperial, 6) | shift(imperial, 4) | shift(imperial, 5)
    at_least = (
        r0 | r1 | r2 | r3,
        (r0 & (r1 | r2 | r3)) | (r1 & (r2 | r3)) | (r2 & r3),
        (r0 & r1 & (r2 | r3)) | (r2 & r3 & (r0 | r1)),
        r0 & r1 & r2 & r3,
    )
    blocks = []
    controlled = 0
    for origins in geo.block_origins:
        clean = origins & ~spoiled
        best = 0
        for k in (4, 3, 2, 1):
            if at_least[k - 1] & clean:
                best = k
                break
        blocks.append(W_BLOCK[best])
        if at_least[3] & origins:
            controlled += 1
    empty = geo.full & ~(rebel | imperial)
    risk = [0, 0]
    for side, own in ((0, rebel), (1, imperial)):
        enemy = 9 - 8 * side  # code of an enemy counter facing N
        exposed = 0
        for d in (0, 2, 4, 6):
            exposed |= own & shift(masks[enemy + d], d) & shift(empty, (d + 4) % 8)
        risk[side] = exposed.bit_count()
    cells = state._cells
    point = state._rebel
    rx, ry = geo.point_xy[point]
    distance = min(
        abs(rx - geo.point_xy[p][0]) + abs(ry - geo.point_xy[p][1]) for p in state._imperial
    )
    freedom = sum(
        1
        for dst, diagonal, walls in geo.rebel_steps[point]
        if dst not in state._imperial
        and not (cells[walls[0]] > 8 if diagonal else all(cells[w] > 8 for w in walls))
    )
    return {
        "progress": sum(blocks),
        "weakest": min(blocks),
        "controlled": float(controlled),
        "freedom": float(freedom),
        "distance": float(distance),
        "rebels_at_risk": float(risk[0]),
        "imperials_at_risk": float(risk[1]),
        "material": float(rebel.bit_count() - imperial.bit_count()),
    }


def evaluate(state: DefianceState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]."""
    f = features(state)
    score = (
        W_PROGRESS * f["progress"]
        + W_WEAKEST * f["weakest"]
        + W_CONTROLLED * f["controlled"]
        + W_FREEDOM * f["freedom"]
        + W_DISTANCE * min(f["distance"], 6.0)
        - W_AT_RISK * f["rebels_at_risk"]
        + W_AT_RISK * f["imperials_at_risk"]
        + W_MATERIAL * f["material"]
    )
    if f["distance"] == 1 and state._side == 1:
        score -= W_CAPTURE_THREAT  # the Imperium to move takes the Rebel Command
    elif f["distance"] == 1 and f["freedom"] == 0:
        score -= W_CAPTURE_THREAT * 0.8
    value = math.tanh(score - OFFSET)
    return value if side == REBELS else -value
