"""Greedy: one ply, the move whose result the game's evaluation likes best.

With a ``temperature`` above zero it picks among the moves with probabilities that fall off
with how much worse each one looks — the mistakes of a player who sees only one move ahead
and sometimes misjudges it, never the blunders of a random player. With a ``slip`` it plays the
best move except, with that chance each move, one drawn at ``slip_temperature``: a player who
misjudges now and then rather than on every move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..core import State
from .agent import REPEATED, Memory, decision_moves, draw_value, toward_draw, values


class GreedyAgent:
    """One-ply search over the game's evaluation (ties broken by the seeded generator)."""

    def __init__(
        self,
        seed: int | str | None = None,
        temperature: float = 0.0,
        slip: float = 0.0,
        slip_temperature: float = 0.05,
        name: str = "greedy",
    ) -> None:
        self.rng = random.Random(seed)
        self.temperature = temperature
        self.slip = slip
        self.slip_temperature = slip_temperature
        self.name = name
        self.memory = Memory()

    def scores(self, state: State) -> list[tuple[Any, float]]:
        """Every legal move with the evaluation of its result for the mover (a move that
        repeats a position into a draw, or reaches the turn limit, scores what a draw is worth
        to the mover; it is left out when another move is worth more than a draw)."""
        mover = str(state.to_move)
        return one_ply(state, decision_moves(state), self.memory, draw_value(state.game, mover))

    def choose(self, state: State) -> Any:
        self.memory.observe(state)
        move = self._pick(state)
        self.memory.observe(state.play(move))
        return move

    def _pick(self, state: State) -> Any:
        temperature = self.temperature
        if self.slip and self.rng.random() < self.slip:
            temperature = self.slip_temperature
        return sample(self.rng, self.scores(state), temperature)


def one_ply(state: State, moves: list[Any], memory: Memory, draw: float) -> list[tuple[Any, float]]:
    """Each of ``moves`` with the evaluation of its result for the mover; a move that draws by
    ``memory`` (a repetition, the turn limit) scores ``draw``, what a draw is worth to the
    mover, and is left out when another move is worth more (a side ahead never draws, even by
    a slip); a move back to a position seen before gives up ``REPEATED`` of the mover's
    lead."""
    children = [state.play(m) for m in moves]
    scores = values(children, str(state.to_move))
    out = []
    drawn = []
    for m, c, v in zip(moves, children, scores, strict=True):
        if memory.draws(c):
            drawn.append((m, draw))
            continue
        if abs(v) < 1 and memory.count(c):
            v = toward_draw(v, draw, 1 - REPEATED)
        out.append((m, v))
    if out and max(v for _, v in out) > draw:
        return out  # ahead: a drawing move is no choice, not even a misjudged one
    return out + drawn


def sample(rng: random.Random, scored: list[tuple[Any, float]], temperature: float) -> Any:
    """A move drawn from ``(move, score)`` pairs: the best (ties broken by ``rng``) at
    temperature 0, else with probabilities ``exp((score - best) / temperature)``."""
    best = max(s for _, s in scored)
    if temperature <= 0:
        tied = [m for m, s in scored if s >= best - 1e-12]
        return tied[rng.randrange(len(tied))]
    weights = [math.exp((s - best) / temperature) for _, s in scored]
    return rng.choices([m for m, _ in scored], weights)[0]
