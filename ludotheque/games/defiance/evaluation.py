"""A heuristic evaluation of Defiance and Domain positions, from the game's strategy.

- **Key-point progress per sector** (Rebels): the best 2×2 block of each sector — how many of its
  four cells hold Rebel counters, unless an Imperial counter already spoils it. The Rebels need
  all four sectors, so the weakest sector counts again.
- **Rebel Command freedom**: how many steps it has (walled in, it can be run down).
- **Imperial distance**: how close the nearest Imperial Command is to the Rebel Command
  (orthogonal steps), and whether it can capture it on the Imperium's move.
- **Counters at risk**: counters with an enemy counter aimed at them and the cell behind them
  empty — one placement away from capture.

The value is ``tanh(z / 2)``, ``z`` a weighted sum of the named ``FEATURES`` (``vector``).
The weights were set by hand from the game's strategy; the progress features' weights were then
learned by play (``tools/tune_defiance.py spsa --rebels``: 300 pairs of games between one-ply
Rebels nudged either way and the hand-set Imperium, the weights moved towards whichever scored
more): the weakest sector now counts for more (3.94 against 2.6), the count of controlled sectors
for almost nothing. ``tools/train_defiance.py`` fits the weights to game results instead and
measures both: a fit to results predicts results better but plays far worse, as its notes say.
``CALIBRATION`` reads the value as a chance.

The board is read as bitboards (one bit per cell) so that a whole-board feature costs a few
operations: evaluations run on every candidate turn, thousands per position. The features of
the counters are kept for the last bitboards seen: the turns of one action share theirs, so that
only the Commands' features are computed again for each of its Command moves.
"""

from __future__ import annotations

import math

from ...core import Calibration
from .board import Bitboards
from .geometry import Geometry
from .rules import REBELS, DefianceState

# value of the best block of a sector by the number of Rebel counters in it (none spoiled)
W_BLOCK = (0.0, 0.08, 0.25, 0.55, 1.0)

Board = tuple[float, float, float, float, float, float, float, float, float]
"""The counters' features: the first nine of ``FEATURES``."""

FEATURES = (
    "progress",  # the sectors' best blocks, each valued by W_BLOCK
    "weakest",  # the weakest sector's block, valued by W_BLOCK
    "controlled",  # sectors with a controlled key point (4 would be the Rebels' win)
    "need",  # counters still missing in the sectors' best blocks (0 to 16)
    "need_max",  # counters missing in the weakest sector (0 to 4)
    "need_second",  # counters missing in the second weakest sector (0 to 4)
    "rebels_at_risk",  # Rebel counters one Imperial placement away from capture
    "imperials_at_risk",  # the same for the Imperium
    "material",  # Rebel counters on the board less Imperial ones
    "freedom",  # the Rebel Command's possible steps
    "distance",  # orthogonal steps from the nearest Imperial Command to it (at most 6)
    "close",  # an Imperial Command within two steps
    "threat",  # the Imperium to move next to the Rebel Command: it takes it
    "cornered",  # the Rebels to move, walled in next to an Imperial Command
)

WEIGHTS: tuple[float, ...] = (
    1.801,  # progress
    3.936,  # weakest
    0.031,  # controlled
    -0.006,  # need
    -0.012,  # need_max
    -0.010,  # need_second
    -0.240,  # rebels_at_risk
    0.240,  # imperials_at_risk
    0.040,  # material
    0.140,  # freedom
    0.180,  # distance
    0.000,  # close
    -3.600,  # threat
    -2.880,  # cornered
)
"""The features' weights in ``z`` (see ``evaluate``): set by hand, the first six (progress)
tuned by play (``bench/results/defiance-spsa/rebels-spsa.log`` keeps every step)."""
BIAS = -3.0

CALIBRATION = Calibration(0.5491, -1.4324, horizon=137.2)
"""The evaluation read as the Rebels' expected score (``tools/calibrate_analysis.py fit``): 149
games on 8x8 between the levels in four pairings (18,915 positions; mean score of the Rebels
0.312), the lead drawn towards one half as the 400-turn limit nears (``horizon``). Held out by
``tools/train_defiance.py fit`` (five folds of whole games): log loss 0.616 against 0.632 for a
constant chance (the hand-set weights 0.618), and 0.520 against 0.590 in the last 40 moves of a
game: the evaluation says more about who wins as the game goes on, and little at its start."""


def _board(geo: Geometry, bits: Bitboards) -> Board:
    """The features that depend on the counters only (the first nine of ``FEATURES``)."""
    masks, rebel, imperial = bits
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
    progress = 0.0
    weakest = 1.0
    controlled = need = 0
    needs = []
    for origins in geo.block_origins:
        clean = origins & ~spoiled
        best = 0
        for k in (4, 3, 2, 1):
            if at_least[k - 1] & clean:
                best = k
                break
        progress += W_BLOCK[best]
        weakest = min(weakest, W_BLOCK[best])
        need += 4 - best
        needs.append(4 - best)
        if best == 4:
            controlled += 1
    needs.sort()
    empty = geo.full & ~(rebel | imperial)
    risk = [0, 0]
    for side, own in ((0, rebel), (1, imperial)):
        enemy = 9 - 8 * side  # code of an enemy counter facing N
        exposed = 0
        for d in (0, 2, 4, 6):
            exposed |= own & shift(masks[enemy + d], d) & shift(empty, (d + 4) % 8)
        risk[side] = exposed.bit_count()
    return (
        progress,
        weakest,
        float(controlled),
        float(need),
        float(needs[-1]),
        float(needs[-2]),
        float(risk[0]),
        float(risk[1]),
        float(rebel.bit_count() - imperial.bit_count()),
    )


_last: tuple[Bitboards, Board] | None = None
"""The board features of the last bitboards asked for: the positions a search compares are
mostly the turns of one action, which share their bitboards (``DefianceState._apply``)."""


def _board_features(state: DefianceState) -> Board:
    global _last
    bits = state.bitboards()
    last = _last
    if last is not None and last[0] is bits:
        return last[1]
    found = _board(state.game.geo, bits)
    _last = (bits, found)
    return found


def _commands(state: DefianceState) -> tuple[float, float]:
    """(freedom of the Rebel Command, distance of the nearest Imperial Command to it)."""
    geo = state.game.geo
    point = state._rebel
    a, b = state._imperial
    xy = geo.point_xy
    rx, ry = xy[point]
    ax, ay = xy[a]
    bx, by = xy[b]
    distance = min(abs(rx - ax) + abs(ry - ay), abs(rx - bx) + abs(ry - by))
    imperial = state.bitboards()[2]
    freedom = 0
    for dst, walls in geo.rebel_step_walls[point]:
        if dst != a and dst != b and imperial & walls != walls:
            freedom += 1
    return float(freedom), float(distance)


def vector(state: DefianceState) -> tuple[float, ...]:
    """The position's features, in the order of ``FEATURES``, from the Rebels' side."""
    board = _board_features(state)
    freedom, distance = _commands(state)
    adjacent = distance == 1
    return (
        *board,
        freedom,
        min(distance, 6.0),
        float(distance <= 2),
        float(adjacent and state._side == 1),
        float(adjacent and freedom == 0 and state._side == 0),
    )


def features(state: DefianceState) -> dict[str, float]:
    """The named features of a position."""
    return dict(zip(FEATURES, vector(state), strict=True))


def evaluate(state: DefianceState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]: ``tanh(z / 2)`` for the Rebels, where
    ``z = BIAS + sum(WEIGHTS[k] * feature[k])`` (fitted by ``tools/train_defiance.py``), so that
    ``(1 + value) / 2`` is the chance the fit gives the Rebels (a draw counting one half)."""
    z = BIAS
    for weight, feature in zip(WEIGHTS, vector(state), strict=True):
        z += weight * feature
    value = math.tanh(z / 2)
    return value if side == REBELS else -value
