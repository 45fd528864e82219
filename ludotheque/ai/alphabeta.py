"""Alpha-beta search (negamax) with iterative deepening, a transposition table and move
ordering, for the deterministic games.

Values are from the point of view of the side to move, in [-1, 1] for evaluations; a won or
lost game scores ±(2 − ply/1000), so a sooner win (or a later loss) is preferred. Move order:
the transposition table's move, then killer moves, then the history heuristic; at shallow
nodes the children's static evaluations. ``beam`` keeps only the best few children of each node
by static evaluation (forward pruning, for games with thousands of moves per turn).
Draws the state cannot show come from the agent's ``memory`` (the game so far): a position
reached a third time (the record's repetition rule) and the record's turn limit are draws along
a line. A draw is worth what the game's calibration says an even chance is on the scale of its
evaluation (``draw_value``: in the General, whose evaluation underrates the rebels, a draw is
worth -0.54 to them), so a side that is ahead never takes a draw for a position it is winning,
and a side that is behind takes it. ``contempt`` is what a draw costs the searching side on top
(a draw is worth ``draw_value - contempt`` to it and the opposite to its opponent), so that a
stronger player plays on instead of repeating. It may be given per side (a mapping from side
to contempt, 0 for a side not named): in an asymmetric game the stronger side may refuse draws
while the weaker one takes them. A position that has occurred before (in the game or along the
line) is worth a little less to the side ahead (``REPEATED`` of its lead is given up): a lead is
not kept by going round in circles, which would let the other side repeat into a draw; and as a
turn limit nears, a lead is worth less the fewer moves are left (the calibration's horizon).
``slip`` is the chance, each move, of a one-ply choice drawn with ``slip_temperature`` (as the
greedy player draws) instead of the searched move: the occasional misjudgement of a player who
usually looks further ahead, which a deeper searcher can punish.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ..core import CHANCE, State
from .agent import (
    REPEATED,
    Budget,
    Clock,
    Memory,
    OutOfTime,
    decision_moves,
    draw_value,
    toward_draw,
    value,
)
from .greedy import one_ply, sample

EXACT, LOWER, UPPER = 0, 1, 2
WIN = 2.0


class AlphaBetaAgent:
    """Iterative-deepening alpha-beta. ``budget.iterations`` is the deepest iteration (in
    plies); ``budget.seconds`` stops the search and keeps the last finished iteration."""

    def __init__(
        self,
        seed: int | str | None = None,
        budget: Budget | None = None,
        beam: int | None = None,
        order_depth: int = 2,
        contempt: float | Mapping[str, float] = 0.0,
        slip: float = 0.0,
        slip_temperature: float = 0.2,
        name: str = "alphabeta",
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(iterations=4)
        self.beam = beam
        self.order_depth = order_depth
        self.contempt = contempt
        self.slip = slip
        self.slip_temperature = slip_temperature
        self.root_contempt = 0.0  # the contempt of the side searching now
        self.root_side = ""
        self.root_draw = 0.0  # what a draw is worth to the side searching now
        self.horizon: float | None = None  # the calibration's, for the turn limit
        self.name = name
        self.nodes = 0
        self.depth_reached = 0
        self.memory = Memory()

    def choose(self, state: State) -> Any:
        self.memory.observe(state)
        move = self._search(state)
        self.memory.observe(state.play(move))
        return move

    def _search(self, state: State) -> Any:
        moves = decision_moves(state)
        if len(moves) == 1:
            return moves[0]
        side = str(state.to_move)
        self.root_side = side
        contempt = self.contempt
        self.root_contempt = (
            contempt.get(side, 0.0) if isinstance(contempt, Mapping) else float(contempt)
        )
        self.root_draw = draw_value(state.game, side) - self.root_contempt
        curve = state.game.calibration
        self.horizon = None if curve is None else curve.horizon
        if self.slip and self.rng.random() < self.slip:
            return self._slip(state, moves, side)
        self.rng.shuffle(moves)  # seeded tie-breaking among equal moves
        clock = self.budget.clock()
        max_depth = self.budget.iterations or 64
        self.table: dict[State, tuple[int, float, int, Any]] = {}
        self.path: dict[State, int] = {}
        self.killers: dict[int, list[Any]] = {}
        self.history: dict[Any, int] = {}
        self.nodes = 0
        self.depth_reached = 0
        scored = self._static_order(state, moves, side, clock, partial=True)
        ordered = [m for m, _ in scored]
        if clock.expired():  # out of time before any search: the best one-ply move
            return ordered[0]
        if self.beam:
            ordered = ordered[: self.beam]
        best = ordered[0]
        for depth in range(1, max_depth + 1):
            best_here, results, complete = self._root(state, ordered, depth, clock)
            if not complete:
                # Cut by the clock: the moves searched to this depth were searched first with the
                # previous best among them, so the best of them stands (alpha-beta at the root
                # only bounds the others from above, never from below).
                if results and results[0][0] == best:
                    best = best_here
                break
            best = best_here
            self.depth_reached = depth
            ordered = [m for m, _ in sorted(results, key=lambda r: -r[1])]
            if max(v for _, v in results) >= WIN - 1:  # a forced win: no need to look deeper
                break
            if clock.expired():
                break
        return best

    def _slip(self, state: State, moves: list[Any], side: str) -> Any:
        """A one-ply move drawn by temperature; a move that repeats into a draw scores what a
        draw is worth to this side."""
        scored = one_ply(state, moves, self.memory, self._draw(side))
        return sample(self.rng, scored, self.slip_temperature)

    # -- the search ------------------------------------------------------------------------

    def _root(
        self, state: State, moves: list[Any], depth: int, clock: Clock
    ) -> tuple[Any, list[tuple[Any, float]], bool]:
        """Search the root moves in order to ``depth``: (best move, the (move, value) of each
        move finished, whether every move was finished before the clock ran out)."""
        side = str(state.to_move)
        alpha, beta = -WIN - 1, WIN + 1
        results: list[tuple[Any, float]] = []
        best, best_value = moves[0], -WIN - 1
        for move in moves:
            try:
                v = self._child_value(state.play(move), side, depth - 1, alpha, beta, 1, clock)
            except OutOfTime:
                return best, results, False
            results.append((move, v))
            if v > best_value:
                best, best_value = move, v
            alpha = max(alpha, v)
        return best, results, True

    def _child_value(
        self, child: State, side: str, depth: int, alpha: float, beta: float, ply: int, clock: Clock
    ) -> float:
        """The value of ``child`` (``ply`` moves from the root) for ``side`` (who just moved into
        it), within (alpha, beta)."""
        mover = child.to_move
        if mover is None or mover == CHANCE:
            return self._leaf(child, side, ply)
        memory = self.memory
        path = self.path
        count = path.get(child, 0)
        before = memory.count(child) + count
        if memory.limit is not None and before + 1 >= memory.limit:
            return self._draw(side)  # a repetition draw along this line
        left = memory.moves_left(ply)
        if left is not None and left <= 0:
            return self._draw(side)  # the turn limit
        path[child] = count + 1
        try:
            if mover == side:  # the same side moves again
                found = self._negamax(child, depth, alpha, beta, ply, clock)
            else:
                found = -self._negamax(child, depth, -beta, -alpha, ply, clock)
        finally:
            path[child] = count
        if before and abs(found) < 1:  # been here before: the side ahead is going round
            return toward_draw(found, self._draw(side), 1 - REPEATED)
        return found

    def _draw(self, side: str) -> float:
        """A draw's value for ``side``."""
        return self.root_draw if side == self.root_side else -self.root_draw

    def _leaf(self, state: State, side: str, ply: int) -> float:
        self.nodes += 1
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return self._draw(side)
            return WIN - ply / 1000 if outcome.winner == side else -WIN + ply / 1000
        found = value(state, side)
        horizon = self.horizon
        left = self.memory.moves_left(ply) if horizon is not None else None
        if horizon is not None and left is not None:  # a lead is worth less near the limit
            found = toward_draw(found, self._draw(side), 1 - math.exp(-left / horizon))
        return found

    def _negamax(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, clock: Clock
    ) -> float:
        """The value of decision node ``state`` for its side to move."""
        if self.nodes & 255 == 0 and clock.expired():
            raise OutOfTime
        side = str(state.to_move)
        if depth <= 0:
            return self._leaf(state, side, ply)
        self.nodes += 1
        entry = self.table.get(state)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        moves = self._ordered(state, depth, ply, tt_move, clock)
        original_alpha = alpha
        best_value, best_move = -WIN - 1, None
        for move in moves:
            v = self._child_value(state.play(move), side, depth - 1, alpha, beta, ply + 1, clock)
            if v > best_value:
                best_value, best_move = v, move
            if v > alpha:
                alpha = v
            if alpha >= beta:
                killers = self.killers.setdefault(ply, [])
                if move not in killers:
                    killers.insert(0, move)
                    del killers[2:]
                self.history[move] = self.history.get(move, 0) + depth * depth
                break
        flag = EXACT
        if best_value <= original_alpha:
            flag = UPPER
        elif best_value >= beta:
            flag = LOWER
        self.table[state] = (depth, best_value, flag, best_move)
        return best_value

    # -- move ordering ---------------------------------------------------------------------

    def _static_order(
        self,
        state: State,
        moves: list[Any],
        side: str,
        clock: Clock | None = None,
        partial: bool = False,
    ) -> list[tuple[Any, float]]:
        """Moves sorted by the evaluation of their results; when the clock runs out, raise
        ``OutOfTime`` (or, with ``partial``, sort the moves scored so far)."""
        scored = []
        for i, m in enumerate(moves):
            if clock is not None and i & 63 == 63 and clock.expired():
                if not partial:
                    raise OutOfTime
                break
            scored.append((m, value(state.play(m), side)))
        scored.sort(key=lambda ms: -ms[1])
        return scored

    def _ordered(self, state: State, depth: int, ply: int, tt_move: Any, clock: Clock) -> list[Any]:
        moves = list(state.legal_moves())
        if self.beam or depth >= self.order_depth:
            side = str(state.to_move)
            ordered = [m for m, _ in self._static_order(state, moves, side, clock)]
            if self.beam:
                ordered = ordered[: self.beam]
        else:
            killers = self.killers.get(ply, [])
            history = self.history
            ordered = sorted(moves, key=lambda m: (m in killers, history.get(m, 0)), reverse=True)
        if tt_move is not None and tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        return ordered
