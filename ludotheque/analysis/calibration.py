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
    # 160 games on 8x8 between the levels in the four pairings (20,318 positions; the rebels
    # won 30, drew 24, lost 106): log loss 0.628, against 1.970 for (1 + v) / 2, which is badly
    # overconfident (positions it gave the rebels 90% or more ended in a 42% score). Held out
    # (a fit on half the games, scored on the other half, both ways): 0.700 and 0.628 against
    # 1.803 and 2.168; but a constant chance scores 0.726 and 0.632, so the evaluation says
    # little about the result, and the slope varies between halves (0.13, 0.40).
    "defiance": (0.3169, -1.1044),
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
