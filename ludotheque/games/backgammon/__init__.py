"""Backgammon: the seed's game (five checkers at most on a point, the lower die starts),
standard backgammon without cube, and backgammon for points with the doubling cube (money play
and matches to N points).

The package joins the rules (``rules``) and the knowledge the computer players use
(``evaluation``, which reads the rules and is loaded on first use): the rules do not import it.
"""

from collections.abc import Sequence

from .cube import CubeAction, Stakes
from .moves import OpeningRoll, Play, Roll, Step
from .rules import (
    BLACK,
    BORNE_OFF,
    WHITE,
    BackgammonGame,
    BackgammonState,
    PartialTurn,
    get_game,
)


def _evaluate_many(states: Sequence[BackgammonState], side: str) -> list[float]:
    """``evaluation.evaluate_many``, imported on first use (it loads numpy and the network)."""
    from .evaluation import evaluate_many

    return evaluate_many(states, side)


BackgammonGame.heuristic_many = _evaluate_many

__all__ = [
    "BLACK",
    "BORNE_OFF",
    "WHITE",
    "BackgammonGame",
    "BackgammonState",
    "CubeAction",
    "OpeningRoll",
    "PartialTurn",
    "Play",
    "Roll",
    "Stakes",
    "Step",
    "get_game",
]
