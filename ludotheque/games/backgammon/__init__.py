"""Backgammon: the seed's game (five checkers at most on a point, the lower die starts),
standard backgammon without cube, and backgammon for points with the doubling cube (money play
and matches to N points)."""

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
