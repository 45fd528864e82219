"""From a game's evaluation to a winning chance.

The General's and Defiance's evaluations are heuristics in [-1, 1]; the analysis reads a value
``v`` for the game's first side as its winning chance (expected score, a draw counting one half)
through a logistic curve fitted on games between the computer levels
(``tools/calibrate_analysis.py``):

    p = 1 / (1 + exp(-(a * atanh(v) + b)))

and the other side's chance is ``1 - p``. ``(2, 0)`` is ``p = (1 + v) / 2``, the reading used
for a game with no fitted curve. Backgammon's network gives a probability already: its value
``2p - 1`` is read back as ``p``.
"""

from __future__ import annotations

import math

CALIBRATION: dict[str, tuple[float, float]] = {
    # 160 games between the hard and medium levels in the four pairings (14,895 positions;
    # the rebels scored 0.466): log loss 0.609, against 0.755 for (1 + v) / 2. The evaluation
    # underrates the rebels: an even evaluation is a 76% chance for them.
    "general": (1.8819, 1.1362),
    # Defiance is read as (1 + v) / 2 for now: over 10 games between the levels its evaluation
    # barely predicted the result (a fit gave a = 0.38), so no curve is fitted yet.
}
"""``(a, b)`` per game (a registry name), fitted by ``tools/calibrate_analysis.py``."""

IDENTITY = (2.0, 0.0)


def win_chance(game: str, value: float, side_is_first: bool) -> float:
    """The winning chance of a side whose evaluation is ``value`` (in (-1, 1))."""
    a, b = CALIBRATION.get(game, IDENTITY)
    if (a, b) == IDENTITY:
        return (1 + value) / 2
    x = a * math.atanh(max(-0.999999, min(0.999999, value))) + (b if side_is_first else -b)
    return 1 / (1 + math.exp(-x))


__all__ = ["CALIBRATION", "win_chance"]
