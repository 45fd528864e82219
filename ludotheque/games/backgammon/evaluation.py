"""A heuristic evaluation of backgammon positions (cubeless, win or lose).

Two regimes, as players think of them:

- a **race** (no more contact): the pip counts decide, with the side on roll worth about
  four pips; the lead is turned into a winning chance with a normal-curve estimate.
- **contact**: the pip count plus what the checkers do — points made (the home board, the bar
  point and the five-point above all), primes in front of the opponent's back checkers, anchors
  in the opponent's home board, blots and the shots at them (weighed by what a hit costs),
  checkers on the bar against the points that keep them out, checkers already borne off.

The value is ``tanh`` of a score for the evaluating side; the weights are hand-set from the
usual rules of thumb and checked by matches (see the AI notes in the README).
"""

from __future__ import annotations

import math

from .rules import BLACK, WHITE, BackgammonState

# single-checker chance (out of 36) to hit a blot at each distance (direct and combination shots)
_SHOTS = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)
_HOME_POINT = (0, 0.6, 0.7, 0.8, 1.0, 1.2, 1.0)  # value of making own points 1..6

FEATURES = (
    "pips",  # the pip-count lead, in units of 25 pips
    "home",  # home-board points made, the 4- and 5-points weighing most
    "bar_point",  # the 7-point made
    "outer",  # points made on 8-11
    "prime",  # the longest run of made points (to the power 1.5), if it blocks anything
    "anchor",  # points made in the opponent's home board
    "exposure",  # blots: the chance of being hit times the pips a hit costs
    "on_bar",  # checkers on the bar, weighed by the points closed against them
    "off",  # checkers borne off
    "stuck",  # checkers still in the opponent's home board or on the bar
    "tempo",  # +1 on roll, -1 not
)
# The weights (contact positions): first set by hand from the usual rules of thumb
# (0.45, 0.22, 0.2, 0.06, 0.12, 0.25, -1.2, -0.45, 0.05, -0.04, 0.12), then tuned by TD(lambda)
# self-play: ``python tools/train_backgammon.py --games 12000 --seed 7 --alpha 0.003``. One ply
# ahead, the tuned weights beat the hand-set ones in 55.2% of 800 games.
WEIGHTS = (
    0.1759,
    0.0678,
    -0.0379,
    0.0287,
    0.0207,
    -0.0285,
    -0.2386,
    -0.0651,
    0.1074,
    -0.1060,
    0.0901,
)


def _made(board: list[int], p: int) -> bool:
    return board[p] >= 2


def _longest_run(board: list[int], lo: int, hi: int) -> int:
    best = run = 0
    for p in range(lo, hi + 1):
        run = run + 1 if board[p] >= 2 else 0
        best = max(best, run)
    return best


def _side(me: list[int], opp: list[int]) -> list[float]:
    """One side's terms (``me`` and ``opp`` in their own views), in FEATURES order from
    ``home`` to ``stuck``."""
    home = sum(_HOME_POINT[p] for p in range(1, 7) if _made(me, p))
    opp_back = sum(opp[q] for q in range(13, 26))
    prime = float(max(0, _longest_run(me, 2, 12) - 1)) ** 1.5 * (1.0 if opp_back else 0.3)
    hitters = [25 - q for q in range(1, 25) if opp[q]]  # opponent checkers, in my numbering
    exposure = 0.0
    for p in range(1, 25):
        if me[p] != 1:
            continue
        miss = 1.0
        for r in hitters:
            d = p - r
            if 0 < d < len(_SHOTS):
                miss *= 1 - _SHOTS[d] / 36
        if opp[25] and p <= 6:
            miss *= 1 - _SHOTS[p] / 36
        exposure += (1 - miss) * (25 - p) / 25
    on_bar = 0.0
    if me[25]:
        closed = sum(1 for q in range(1, 7) if opp[q] >= 2)
        on_bar = me[25] * (1 + closed / 3)
    stuck = sum(me[p] for p in range(19, 26)) * (1.0 if home > 3 else 0.5)
    return [
        home,
        1.0 if _made(me, 7) else 0.0,
        float(sum(1 for p in range(8, 12) if _made(me, p))),
        prime,
        float(sum(1 for p in range(18, 25) if _made(me, p))),
        min(exposure, 1.5),
        on_bar,
        float(me[0]),
        stuck,
    ]


def contact_features(me: list[int], opp: list[int], on_roll: bool) -> list[float]:
    """The features of a contact position for ``me`` (each the difference between the two
    sides' terms, so that the opponent's view is the negation)."""
    pips = (sum(p * n for p, n in enumerate(opp)) - sum(p * n for p, n in enumerate(me))) / 25
    mine, theirs = _side(me, opp), _side(opp, me)
    return [pips, *(a - b for a, b in zip(mine, theirs, strict=True)), 1.0 if on_roll else -1.0]


def race_win_chance(my_pips: int, opp_pips: int, on_roll: bool) -> float:
    """The chance to win a pure race (no contact) from the pip counts."""
    lead = opp_pips - my_pips + (4.0 if on_roll else -4.0)
    spread = math.sqrt(my_pips + opp_pips + 1) * 1.5
    return 0.5 * (1 + math.erf(lead / spread / math.sqrt(2)))


def is_race(me: list[int], opp: list[int]) -> bool:
    """True when no checker of one side is behind any checker of the other."""
    my_back = max((p for p in range(25, 0, -1) if me[p]), default=0)
    opp_back = max((q for q in range(25, 0, -1) if opp[q]), default=0)
    return my_back + opp_back <= 25


def evaluate_boards(
    me: list[int], opp: list[int], on_roll: bool, weights: tuple[float, ...] = WEIGHTS
) -> float:
    """The value in [-1, 1] for the side whose board is ``me``."""
    if is_race(me, opp):
        my_pips = sum(p * n for p, n in enumerate(me))
        opp_pips = sum(p * n for p, n in enumerate(opp))
        return 2 * race_win_chance(my_pips, opp_pips, on_roll) - 1
    score = sum(w * f for w, f in zip(weights, contact_features(me, opp, on_roll), strict=True))
    return math.tanh(score)


def evaluate(state: BackgammonState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]."""
    other = BLACK if side == WHITE else WHITE
    return evaluate_boards(state.board(side), state.board(other), state.side == side)
