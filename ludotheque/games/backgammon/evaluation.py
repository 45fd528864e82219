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
W = {
    "pips": 0.018,
    "home": 0.22,
    "bar_point": 0.2,
    "outer": 0.06,
    "prime": 0.12,
    "anchor": 0.25,
    "blot": 1.2,
    "on_bar": 0.45,
    "off": 0.05,
    "stuck": 0.04,
    "tempo": 0.12,
}


def _made(board: list[int], p: int) -> bool:
    return board[p] >= 2


def _longest_run(board: list[int], lo: int, hi: int) -> int:
    best = run = 0
    for p in range(lo, hi + 1):
        run = run + 1 if board[p] >= 2 else 0
        best = max(best, run)
    return best


def _side_score(me: list[int], opp: list[int]) -> float:
    """Positional terms for ``me`` (own view) against ``opp`` (own view)."""
    score = 0.0
    home = sum(_HOME_POINT[p] for p in range(1, 7) if _made(me, p))
    score += W["home"] * home
    if _made(me, 7):
        score += W["bar_point"]
    score += W["outer"] * sum(1 for p in range(8, 12) if _made(me, p))
    # a prime matters when the opponent has checkers behind it (its 19-25 is my 6-0)
    opp_back = sum(opp[q] for q in range(13, 26))
    prime = float(max(0, _longest_run(me, 2, 12) - 1))
    score += W["prime"] * prime**1.5 * (1.0 if opp_back else 0.3)
    score += W["anchor"] * sum(1 for p in range(18, 25) if _made(me, p))
    # blots: the chance of being hit, times how many pips a hit costs
    opp_bar = opp[25]
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
        if opp_bar and p <= 6:
            miss *= 1 - _SHOTS[p] / 36
        exposure += (1 - miss) * (25 - p) / 25
    score -= W["blot"] * min(exposure, 1.5)
    # checkers on the bar against the points closed in the opponent's home board
    if me[25]:
        closed = sum(1 for q in range(1, 7) if opp[q] >= 2)
        score -= W["on_bar"] * me[25] * (1 + closed / 3)
    score += W["off"] * me[0]
    score -= W["stuck"] * sum(me[p] for p in range(19, 26)) * (1 if home > 3 else 0.5)
    return float(score)


def race_win_chance(my_pips: int, opp_pips: int, on_roll: bool) -> float:
    """The chance to win a pure race (no contact) from the pip counts."""
    lead = opp_pips - my_pips + (4.0 if on_roll else -4.0)
    spread = math.sqrt(my_pips + opp_pips + 1) * 1.5
    return 0.5 * (1 + math.erf(lead / spread / math.sqrt(2)))


def evaluate(state: BackgammonState, side: str) -> float:
    """The value of ``state`` for ``side`` in [-1, 1]."""
    other = BLACK if side == WHITE else WHITE
    me, opp = state.board(side), state.board(other)
    on_roll = state.side == side
    my_pips = sum(p * n for p, n in enumerate(me))
    opp_pips = sum(p * n for p, n in enumerate(opp))
    my_back = max((p for p in range(25, 0, -1) if me[p]), default=0)
    opp_back = max((q for q in range(25, 0, -1) if opp[q]), default=0)
    if my_back + opp_back <= 25:  # no more contact
        return 2 * race_win_chance(my_pips, opp_pips, on_roll) - 1
    score = W["pips"] * (opp_pips - my_pips)
    score += _side_score(me, opp) - _side_score(opp, me)
    score += W["tempo"] if on_roll else -W["tempo"]
    return math.tanh(score)
