"""Backgammon played for points (the ``money`` and ``match`` rulesets): the values the analysis
searches on, and their normalisation to equity as backgammon programs report it.

``Game.evaluate`` maps a ruleset's values into [-1, 1] for the computer players: a third of the
equity per cube in money play (clipped), 2 MWC - 1 in match play. Those cannot be compared
across cube levels, and a finished game there is worth +1 or -1 whatever was won. The analysis
searches instead on the ruleset's own measure (``evaluation.measure_many``) as a zero-sum value
for the side asked about: **points** in money play (the cube's value, gammons and access to the
cube counted) and **2 MWC - 1** in match play (MWC: the chance to win the match, from the match
equity table), with a finished game worth what it scores (the points, or the MWC at the score
after it).

Every value it reports is then **normalised equity** (GNU Backgammon's "EMG", equivalent to
money game), relative to the position judged: +1 is what winning a single game at the cube's
present value is worth, -1 losing one. In money play that is the points per unit of the cube
(a double that is dropped is worth +1 to the doubler, a gammon at a cube of 1 is +2); in match
play it is GNU Backgammon's ``mwc2eq``, (2 MWC - (W + L)) / (W - L), where W and L are the MWC
after winning and after losing a single game at this cube. GNU Backgammon's equity bands
(``labels``) apply to these as they do to cubeless equity, and to cube decisions as to plays.

The cube's decisions (roll or double, take or drop, accept or decline a resignation) take no
ply of the search: a double is valued, like the roll it replaces, one roll of the dice ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import CHANCE, Game, State


class StakeMeasure:
    """The search values and the normalisation of one ruleset played for points."""

    def __init__(self, game: Game) -> None:
        from ..games.backgammon import evaluation
        from ..games.backgammon.cube import CubeAction

        self.game = game
        self.match = getattr(game, "stakes_kind", None) == "match"
        self._evaluation = evaluation
        self._cube_action = CubeAction

    def _zero_sum(self, value: float) -> float:
        return 2 * value - 1 if self.match else value

    def values(self, states: Sequence[State], side: str) -> list[float]:
        """The search value of each state for ``side`` (finished ones included)."""
        measured = self._evaluation.measure_many(list(states), side)  # type: ignore[arg-type]
        return [self._zero_sum(v) for v in measured]

    def terminal(self, state: State, side: str) -> float:
        """The search value of a finished game for ``side``."""
        return self._zero_sum(self._evaluation.result_value(state, side))  # type: ignore[arg-type]

    def single_game(self, state: State, side: str) -> tuple[float, float]:
        """The search values, for ``side``, of winning and of losing a single game at the
        cube of ``state``."""
        win, lose = self._evaluation.single_game(state, side)  # type: ignore[arg-type]
        return self._zero_sum(win), self._zero_sum(lose)

    def normalise(self, state: State, side: str, value: float) -> float:
        """A search value for ``side`` as normalised equity at the cube and score of
        ``state``."""
        win, lose = self.single_game(state, side)
        return (2 * value - (win + lose)) / (win - lose)

    def value_of(self, state: State, side: str, equity: float) -> float:
        """The search value that is normalised equity ``equity`` for ``side`` at ``state``
        (the inverse of ``normalise``)."""
        win, lose = self.single_game(state, side)
        return (equity * (win - lose) + win + lose) / 2

    def unit(self, state: State) -> float:
        """How much of the search value one unit of normalised equity is at ``state`` (the
        same for both sides)."""
        side = self.game.sides[0]
        win, lose = self.single_game(state, side)
        return (win - lose) / 2

    def cube_node(self, state: State) -> bool:
        """A decision of the cube or of a resignation (no ply of the search)."""
        if state.to_move is None or state.to_move == CHANCE:
            return False
        moves: Sequence[Any] = state.legal_moves()
        return bool(moves) and isinstance(moves[0], self._cube_action)


def stake_measure(game: Game) -> StakeMeasure | None:
    """The measure of a backgammon ruleset played for points; ``None`` for any other game."""
    if game.name != "backgammon" or not getattr(game, "has_stakes", False):
        return None
    return StakeMeasure(game)


__all__ = ["StakeMeasure", "stake_measure"]
