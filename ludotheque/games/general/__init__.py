"""Le Général et les rebelles: a Chinese hunt game (sixteen rebels against one general)."""

from .rules import GENERAL, REBELS, GeneralGame, GeneralMove, GeneralState, get_game

__all__ = ["GENERAL", "REBELS", "GeneralGame", "GeneralMove", "GeneralState", "get_game"]
