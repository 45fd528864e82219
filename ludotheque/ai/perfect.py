"""The ``perfect`` player of the General: it plays from the solution wherever it reaches, and
searches into it elsewhere, always for the proven winner.

- The rebels' strategy (``solve.certificate``, shipped with the package): in every position it
  holds, the rebels play its move, a fastest win; from the start that is every position the
  rebels meet, whatever the general plays, so they win in exactly the proven number of plies
  against the best defence, sooner against any other.
- Covered by the tables or the strategy (every move leads to a position whose value is
  known): the fastest win, else a draw, else the slowest loss, each move judged by its value
  (a move that would repeat a position a third time is a draw, whatever the tables say). Among
  equal moves it takes the one the game's evaluation likes best (among draws, the one that
  leaves the opponent most room to go wrong), then draws lots with its seed.
- Elsewhere: alpha-beta as ``hard`` searches, where every position whose value is known, at
  any depth, is worth its exact value (a win sooner beats a win later) instead of an
  evaluation; and the side the solution proves the winner (from 10 rebels on, the rebels,
  whoever is to move) counts a draw worse than any position it has not proven lost, so it
  never repeats a position into a draw nor lets a won game end drawn.

With the package's tables (up to 8 rebels) and strategy, the rebels play perfectly from the
start and every capture that leaves 8 rebels or fewer is exact; with the whole game built
(``ludotheque solve general``) every move of either side comes from the tables.
"""

from __future__ import annotations

from typing import Any

from ..core import State
from ..games.general.rules import REBELS, GeneralState
from ..solve.tables import Tables, Verdict, default_tables
from .agent import Budget, Clock, decision_moves, value
from .alphabeta import WIN, AlphaBetaAgent

REFUSED_DRAW = 1.5
"""What a draw costs the proven winner in the search: more than any evaluation (at most 1), less
than a proven loss (about 2)."""


class PerfectAgent(AlphaBetaAgent):
    """The solution's play for the General, with an alpha-beta search into it beyond it."""

    def __init__(
        self,
        seed: int | str | None = None,
        tables: Tables | None = None,
        budget: Budget | None = None,
        name: str = "perfect",
    ) -> None:
        super().__init__(
            seed, budget or Budget(iterations=4, seconds=1.5), contempt={REBELS: 0.1}, name=name
        )
        self.tables = tables if tables is not None else default_tables()
        self.from_tables = 0
        """How many moves came straight from the tables or the strategy (the rest from the
        search)."""
        self.from_strategy = 0
        """How many of those came from the rebels' strategy."""

    def choose(self, state: State) -> Any:
        if not isinstance(state, GeneralState):
            raise TypeError("the perfect player knows only the General")
        self.memory.observe(state)
        move = self.strategy_move(state)
        if move is not None:
            self.from_strategy += 1
        else:
            move = self.table_move(state)
        if move is None:
            move = self._search_for_winner(state)
        else:
            self.from_tables += 1
        self.memory.observe(state.play(move))
        return move

    def strategy_move(self, state: GeneralState) -> Any | None:
        """The strategy's move, when it holds the position (the rebels to move) and the move
        does not repeat a position into a draw."""
        strategy = self.tables.strategy
        if strategy is None or state.side != REBELS:
            return None
        move = strategy.move(state)
        if move is None or self.memory.draws(state.play(move)):
            return None
        return move

    def table_move(self, state: State) -> Any | None:
        """The best move by the known values, or ``None`` when some move leads to a position
        whose value is not known."""
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

    def _search_for_winner(self, state: GeneralState) -> Any:
        """The search's move. The side the solution proves the winner refuses draws (a draw
        costs it ``REFUSED_DRAW``) and never goes back to a position of the game (in its search,
        a position seen once is a draw: the game moves on, it cannot go round in circles), and
        of its moves it never plays one that repeats a position into a draw while another does
        not; without a proof, the rebels play on as ``hard``'s do."""
        verdict = self.tables.probe(state)
        winner = None if verdict is None else verdict.winner
        side = str(state.to_move)
        self.contempt = {winner: REFUSED_DRAW} if winner is not None else {REBELS: 0.1}
        if winner != side:
            return self._search(state)
        limit = self.memory.limit
        self.memory.limit = 2
        try:
            move = self._search(state)
        finally:
            self.memory.limit = limit
        if self.memory.draws(state.play(move)):
            others = [m for m in state.legal_moves() if not self.memory.draws(state.play(m))]
            if others:
                move = max(others, key=lambda m: value(state.play(m), side))
        return move

    # -- the search: exact values wherever the solution reaches ---------------------------

    def _exact(self, state: State, ply: int) -> float | None:
        """The known value of ``state`` for its side to move in the search's scale."""
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
    """The ``perfect`` level; only the General has one (from its solution)."""
    if game != "general":
        raise ValueError(f"no perfect player for {game!r}: only the General is solved")
    return PerfectAgent(seed)
