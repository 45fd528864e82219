"""Match statistics: win rates and scores with 95% intervals, and Elo differences with theirs.

>>> round(wilson(65, 100)[0], 3), round(wilson(65, 100)[1], 3)
(0.553, 0.736)
>>> round(elo(0.75))
191
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0. Its
    low end is exactly 0 without a success, its high end exactly 1 without a failure (not a
    rounding error away, which an Elo difference would read as a finite bound)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def elo(score: float) -> float:
    """The Elo difference that an expected score ``score`` (0–1) corresponds to: infinite at 0
    and 1, which no finite difference predicts (a 100% score measures no difference)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: an even score is 0, not -0


def score_interval(
    wins: int, draws: int, losses: int, z: float = Z95
) -> tuple[float, float, float]:
    """(score, low, high): the mean score of a match result (a win 1, a draw ½, a loss 0), as the
    README's strength table gives it, with the Wilson interval of that score.

    Wilson's interval stays inside (0, 1) and is never a single point: after a match that one side
    won every game it still has a finite bound on the other side, where a normal interval would
    shrink to the score itself. It reckons a draw's half point as a coin toss would, so with
    draws it is somewhat wider than it needs to be (on the safe side); without draws it is the
    win rate's. ``(0.5, 0, 1)`` when no game was played."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.0, 1.0
    score = (wins + 0.5 * draws) / n
    low, high = wilson(wins + 0.5 * draws, n, z)
    return score, low, high


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float, float]:
    """(Elo difference, low, high) from a match result: the Elo of the mean score and of the
    bounds of its 95% interval (``score_interval``). The difference is infinite when one side
    won every game (and so is the bound on its side): the games then measure only the other
    bound."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, -math.inf, math.inf
    score, low, high = score_interval(wins, draws, losses, z)
    return elo(score), elo(low), elo(high)
