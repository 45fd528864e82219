"""Le Général et les rebelles: a Chinese hunt game (sixteen rebels against one general).

The package joins the rules (``rules``) and the knowledge the computer players use
(``evaluation``, which reads the rules): neither module imports the other's importer.
"""

from . import evaluation
from .rules import GENERAL, REBELS, GeneralGame, GeneralMove, GeneralState, get_game

GeneralGame.heuristic = evaluation.evaluate
GeneralGame.calibration = evaluation.CALIBRATION

__all__ = ["GENERAL", "REBELS", "GeneralGame", "GeneralMove", "GeneralState", "get_game"]
