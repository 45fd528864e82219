"""Defiance and Domain: an asymmetric game of placed, rotating counters (Arin Sandhop, 2002)."""

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
