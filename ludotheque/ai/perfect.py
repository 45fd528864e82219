"""The ``perfect`` player of the General: it plays from the solved tables wherever they cover
the position, and searches into them elsewhere.

Covered (every move leads to a position of a table): the fastest win, else a draw, else the
slowest loss, each move judged by the tables (a move that would repeat a position a third time
is a draw, whatever the tables say). Among equal moves it takes the one the game's evaluation
likes best (among draws, the one that leaves the opponent most room to go wrong), then draws
lots with its seed.

Not covered (more rebels than the tables hold): alpha-beta as ``hard`` searches, where every
position the tables cover, at any depth, is worth its exact value (a win sooner beats a win
later) instead of an evaluation. With the package's tables (up to 8 rebels) that makes every
capture that leaves 8 rebels or fewer exact; with the whole game built
(``ludotheque solve general``) every move comes from the tables.
"""

from __future__ import annotations

from typing import Any

from ..core import State
from ..games.general.rules import GeneralState
from ..solve.tables import Tables, Verdict, default_tables
from .agent import Budget, Clock, decision_moves, value
from .alphabeta import WIN, AlphaBetaAgent


class PerfectAgent(AlphaBetaAgent):
    """Table play for the General, with an alpha-beta search into the tables beyond them."""

    def __init__(
        self,
        seed: int | str | None = None,
        tables: Tables | None = None,
        budget: Budget | None = None,
        name: str = "perfect",
    ) -> None:
        super().__init__(
            seed, budget or Budget(iterations=4, seconds=1.5), contempt={"rebels": 0.1}, name=name
        )
        self.tables = tables if tables is not None else default_tables()
        self.from_tables = 0
        """How many moves came straight from the tables (the rest from the search)."""

    def choose(self, state: State) -> Any:
        self.memory.observe(state)
        move = self.table_move(state)
        if move is None:
            move = self._search(state)
        else:
            self.from_tables += 1
        self.memory.observe(state.play(move))
        return move

    def table_move(self, state: State) -> Any | None:
        """The tables' best move, or ``None`` when some move leads outside them."""
        if not isinstance(state, GeneralState):
            raise TypeError("the perfect player knows only the General")
        moves = decision_moves(state)
        side = str(state.to_move)
        scored: list[tuple[tuple[int, float], Any]] = []
        for move in moves:
            child = state.play(move)
            verdict = (
                Verdict(None, None) if self.memory.draws(child) else self.tables.verdict(child)
            )
            if verdict is None:
                return None
            scored.append((_rank(verdict, side), move))
        best = max(key for key, _ in scored)
        tied = [m for key, m in scored if key == best]
        if len(tied) == 1:
            return tied[0]
        self.rng.shuffle(tied)
        return max(tied, key=lambda m: value(state.play(m), side))

    # -- the search: exact values wherever the tables reach --------------------------------

    def _exact(self, state: State, ply: int) -> float | None:
        """The tables' value of ``state`` for its side to move in the search's scale."""
        assert isinstance(state, GeneralState)
        verdict = self.tables.verdict(state)
        if verdict is None:
            return None
        side = str(state.to_move)
        if verdict.winner is None:
            return self._draw(side)
        late = min(ply + (verdict.plies or 0), 999) / 1000
        return WIN - late if verdict.winner == side else -WIN + late

    def _negamax(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, clock: Clock
    ) -> float:
        exact = self._exact(state, ply)
        if exact is not None:
            self.nodes += 1
            return exact
        return super()._negamax(state, depth, alpha, beta, ply, clock)


def _rank(verdict: Verdict, side: str) -> tuple[int, float]:
    """Larger is better for ``side``: a win (sooner first), a draw, a loss (later first)."""
    if verdict.winner is None:
        return (1, 0.0)
    plies = float(verdict.plies or 0)
    return (2, -plies) if verdict.winner == side else (0, plies)


def make_perfect(game: str, seed: int | None = None) -> PerfectAgent:
    """The ``perfect`` level; only the General has one (from its solved tables)."""
    if game != "general":
        raise ValueError(f"no perfect player for {game!r}: only the General is solved")
    return PerfectAgent(seed)
