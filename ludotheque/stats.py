"""Match statistics: win rates with 95% intervals, and Elo differences with theirs.

>>> round(wilson(65, 100)[0], 3), round(wilson(65, 100)[1], 3)
(0.553, 0.736)
>>> round(elo(0.75))
191
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference that an expected score ``score`` (0–1) corresponds to."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float, float]:
    """(Elo difference, low, high) from a match result, with a normal interval on the mean
    score (each game scoring 1, ½ or 0)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, -math.inf, math.inf
    score = (wins + 0.5 * draws) / n
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    half = z * math.sqrt(variance / n)
    return elo(score), elo(score - half), elo(score + half)
