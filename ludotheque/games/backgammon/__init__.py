"""Backgammon: the seed's game (five checkers at most on a point, the lower die starts) and
standard backgammon without cube."""

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
    "OpeningRoll",
    "PartialTurn",
    "Play",
    "Roll",
    "Step",
    "get_game",
]
