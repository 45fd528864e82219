"""The computer's answer to a draw offer: it accepts when it is not winning.

For the General the solved tables decide where they reach (``ludotheque.solve``: exact for up to
eight rebels, and by layer above, where every position is the rebels' win), so the computer
never gives away a won game nor refuses a lost one there; elsewhere, and in Defiance, the game's
evaluation decides: a value for the computer's side of at most ``NOT_WINNING`` accepts.

>>> import ludotheque
>>> general = ludotheque.load("general")
>>> accepts_draw(general.start(), "general"), accepts_draw(general.start(), "rebels")
(True, False)
"""

from __future__ import annotations

from ..core import State
from ..games.general.rules import GeneralState
from ..solve.tables import probe
from .agent import value

NOT_WINNING = 0.0
"""The evaluation (in [-1, 1], for the computer's side) at or below which it takes a draw."""


def accepts_draw(state: State, side: str) -> bool:
    """Whether the computer playing ``side`` accepts a draw in ``state``."""
    if side not in state.game.sides:
        raise ValueError(f"unknown side {side!r}: the sides are {', '.join(state.game.sides)}")
    if isinstance(state, GeneralState):
        verdict = probe(state)
        if verdict is not None:
            return verdict.winner != side
    return value(state, side) <= NOT_WINNING


__all__ = ["NOT_WINNING", "accepts_draw"]
