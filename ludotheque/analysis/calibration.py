"""From a game's evaluation to a winning chance.

The General's and Defiance's evaluations are heuristics in [-1, 1]; the analysis reads a value
``v`` for the game's first side as its winning chance (expected score, a draw counting one half)
through the curve each game's evaluation carries (``Game.calibration``, a ``core.Calibration``
fitted on games between the computer levels by ``tools/calibrate_analysis.py``):

    p = 1 / (1 + exp(-(a * atanh(v) + b)))

drawn towards one half as a turn limit nears when the curve has a horizon; the other side's
chance is ``1 - p``. A game with no fitted curve reads ``p = (1 + v) / 2``. Backgammon's network
gives a probability already: its value ``2p - 1`` is read back as ``p``.
"""

from __future__ import annotations

from ..core import Calibration
from ..games.defiance import evaluation as defiance
from ..games.general import evaluation as general

CALIBRATION: dict[str, Calibration] = {
    "general": general.CALIBRATION,
    "defiance": defiance.CALIBRATION,
}
"""The fitted curve per game (a registry name); each game's evaluation module holds its own."""

IDENTITY = Calibration(2.0, 0.0)


def win_chance(
    game: str, value: float, side_is_first: bool, moves_left: int | None = None
) -> float:
    """The winning chance of a side whose evaluation is ``value`` (in (-1, 1)), ``moves_left``
    moves before the game's turn limit (``None``: none)."""
    curve = CALIBRATION.get(game, IDENTITY)
    p = curve.chance(value if side_is_first else -value, moves_left)
    return p if side_is_first else 1 - p


__all__ = ["CALIBRATION", "IDENTITY", "win_chance"]
