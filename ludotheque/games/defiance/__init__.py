"""Defiance and Domain: an asymmetric game of placed, rotating counters (Arin Sandhop, 2002).

The package joins the rules (``rules``, with ``board``, ``position``, ``notation`` and
``turns``) and the knowledge the computer players use (``evaluation``, which reads the rules):
the rules do not import the evaluation.
"""

from . import evaluation
from .moves import Action, CommandMove, Turn
from .rules import (
    COMMAND_CAPTURED,
    FOUR_SECTORS,
    IMPERIUM,
    NO_MOVE,
    REBELS,
    ActionView,
    DefianceGame,
    DefianceState,
    get_game,
)

DefianceGame.heuristic = evaluation.evaluate
DefianceGame.calibration = evaluation.CALIBRATION

__all__ = [
    "COMMAND_CAPTURED",
    "FOUR_SECTORS",
    "IMPERIUM",
    "NO_MOVE",
    "REBELS",
    "Action",
    "ActionView",
    "CommandMove",
    "DefianceGame",
    "DefianceState",
    "Turn",
    "get_game",
]
