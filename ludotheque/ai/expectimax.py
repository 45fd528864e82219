"""Expectimax: n-ply search through chance nodes (dice), for backgammon and any dice game.

A ply is one decision; chance nodes average their outcomes by probability without using a ply.
``beam`` keeps, at the root, only the moves that a 1-ply look rates best before searching them
deeper (as backgammon programs filter their candidate moves).
"""

from __future__ import annotations

import random
from typing import Any

from ..core import CHANCE, State
from .agent import Budget, Clock, OutOfTime, decision_moves, value, values


class ExpectimaxAgent:
    """``budget.iterations`` is the number of decision plies (1: best result by evaluation)."""

    def __init__(
        self,
        seed: int | str | None = None,
        budget: Budget | None = None,
        beam: int | None = None,
        name: str = "expectimax",
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(iterations=2)
        self.beam = beam
        self.name = name
        self.nodes = 0

    def choose(self, state: State) -> Any:
        moves = decision_moves(state)
        if len(moves) == 1:
            return moves[0]
        self.rng.shuffle(moves)
        side = str(state.to_move)
        plies = max(1, self.budget.iterations or 2)
        clock = self.budget.clock()
        self.nodes = 0
        scores = values([state.play(m) for m in moves], side)
        scored = sorted(zip(moves, scores, strict=True), key=lambda ms: -ms[1])
        best = scored[0][0]
        if plies == 1:
            return best
        candidates = scored[: self.beam] if self.beam else scored
        best_value = -2.0
        try:
            for move, _ in candidates:
                v = self._value(state.play(move), side, plies - 1, clock)
                if v > best_value:
                    best, best_value = move, v
        except OutOfTime:
            pass  # keep the best move found so far (the 1-ply best if none finished)
        return best

    def _value(self, state: State, side: str, plies: int, clock: Clock) -> float:
        """The expected value of ``state`` for ``side`` with ``plies`` decisions left."""
        if clock.expired():
            raise OutOfTime
        self.nodes += 1
        mover = state.to_move
        if mover is None or plies == 0:
            return value(state, side)
        if mover == CHANCE:
            return sum(
                p * self._value(state.play(o), side, plies, clock)
                for o, p in state.chance_outcomes()
            )
        children = [state.play(m) for m in state.legal_moves()]
        if plies == 1:
            scores = values(children, str(mover))
            best = max(range(len(children)), key=scores.__getitem__)
            return scores[best] if mover == side else value(children[best], side)
        results = [self._value(c, side, plies - 1, clock) for c in children]
        return max(results) if mover == side else min(results)
