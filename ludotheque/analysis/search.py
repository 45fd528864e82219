"""Alpha-beta for analysis (the General, Defiance, any game without dice): exact values for the
best few moves of a position and for the move played, proven results scored by distance.

An agent needs only its best move; a teacher needs values: how much worse the move played was
than the best ones. So the root is searched *multi-line* (as chess engines' MultiPV): the move
played and the moves that may still be among the ``top`` best get a window that gives their exact
value; every other move is only shown to be worse than the current ``top``-th best (its value
is then an upper bound).

Scores are from the point of view of the side to move, heuristic values inside (-1, 1): the
game's evaluation read as an expected score through its calibration (``Game.calibration``:
``2p - 1``, where ``p`` is the winning chance, a draw counting one half), a won game
``WIN - plies/1000`` (a lost one the opposite), counted from the position analysed, as engines
score mates; a draw is exactly 0, an even chance (a heuristic value that happens to be 0 is
nudged, so that 0 always means a draw). On that scale a draw weighs what it is worth against
the positions the search only evaluated: a side with better than even chances never prefers
it. The search is deterministic: no clock, no random numbers; equal moves keep the order the
game lists them in.

Repetition draws come from the record's history (the positions already seen) and the search path;
the record's turn limit is a draw too, and as it nears an evaluated lead is worth less (the
calibration's horizon: the moves left to turn it into a win). A position that occurred before
(in the game or along the line) gives up ``REPEATED`` of the lead of the side ahead, as the
computer players value it: a hint never keeps a lead by going round in circles.

``beam`` keeps only the best-looking moves of inner nodes (by the game's evaluation of their
results), ``root_beam`` searches only the best-looking moves of the position analysed (and the
move played) deeper than one ply: both are needed for Defiance, whose positions have thousands
of turns. A search that prunes moves this way cannot
prove a result beyond two plies, and says so (``proves``).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ai.agent import REPEATED
from ..core import Calibration, Game, State
from .proof import Oracle

WIN = 2.0
STEP = 1e-3
PROVEN = 1.0  # |score| >= PROVEN: a proven win or loss
HEURISTIC = 0.999  # the game's evaluations are kept inside (-HEURISTIC, HEURISTIC)
NUDGE = 1e-9  # an evaluation of exactly 0 becomes this: 0 is a draw
INF = 10.0
EXACT, LOWER, UPPER = 0, 1, 2
UNKNOWN_LEAF = 0.5  # the value of an unfinished leaf in the searches that prove draws
NULL = 1e-7  # the width of a null window
UNKNOWN_PLIES = 900
"""The distance given to a win an oracle proves without its distance: a proven result, slower
than every win whose distance is known (``plies_to_end`` of at least this: not known)."""


@dataclass(frozen=True, slots=True)
class Child:
    """A move of an expanded node and the position it leads to. ``score`` is for the node's
    side to move: the game's evaluation, or when ``exact`` the game's result (a win in ``k``
    plies from the node scores ``WIN - k * STEP``)."""

    move: Any
    state: State
    score: float
    exact: bool
    same_side: bool


@dataclass(frozen=True, slots=True)
class Line:
    """A root move and its score for the side to move: ``depth`` plies looked at (1: the
    evaluation of the position after the move); ``exact`` false when the score is only an
    upper bound; ``proven`` when the score is a proven result (a win, loss or draw)."""

    move: Any
    score: float
    depth: int
    exact: bool
    proven: bool


def plies_to_end(score: float) -> int:
    """The distance in plies of a proven win or loss score."""
    return round((WIN - abs(score)) / STEP)


class TreeSearch:
    """Multi-line alpha-beta to ``depth`` plies. One instance may analyse every position of a
    game: it keeps the expansions of the positions it met (a bounded cache), since consecutive
    positions share most of their trees."""

    def __init__(
        self,
        game: Game,
        depth: int,
        *,
        beam: int | None = None,
        root_beam: int | None = None,
        oracle: Oracle | None = None,
        cache_children: int = 400_000,
        sift: tuple[int, int] | None = None,
    ) -> None:
        if depth < 1:
            raise ValueError("the search depth is at least one ply")
        self.game = game
        self.depth = depth
        self.beam = beam
        self.root_beam = root_beam
        self.sift = sift if sift is not None and sift[0] < depth else None
        self.oracle = oracle
        self.proves = beam is None or depth <= 2
        self.cache_children = cache_children
        self._expansions: OrderedDict[State, list[Child]] = OrderedDict()
        self._cached = 0
        self._evals: dict[State, float] = {}
        self.first = game.sides[0]
        self.curve: Calibration | None = game.calibration
        self.nodes = 0
        self._reset(None, {}, 0, None, None)

    # -- the position analysed -------------------------------------------------------------

    def _reset(
        self,
        root: State | None,
        history: Mapping[State, int],
        moves_so_far: int,
        repetition: int | None,
        turn_limit: int | None,
    ) -> None:
        self.table: dict[tuple[State, int], tuple[float, int]] = {}
        self.replies: dict[State, Any] = {}
        self.killers: dict[int, Any] = {}
        self.path: Counter[State] = Counter()
        self.history = history
        self.moves_so_far = moves_so_far
        self.repetition = repetition
        self.turn_limit = turn_limit
        self.root_side = "" if root is None else str(root.to_move)
        self.mode = 0  # 0: evaluations at the leaves; -1 / +1: see _prove_draw

    def lines(
        self,
        state: State,
        *,
        played: Any = None,
        top: int = 3,
        history: Mapping[State, int] | None = None,
        moves_so_far: int = 0,
        repetition: int | None = None,
        turn_limit: int | None = None,
        wide: int = 0,
    ) -> list[Line]:
        """Every legal move of decision node ``state`` with its score, best first: the exact
        ones (the ``top`` best and ``played``), then those known only to be worse, then those
        looked at one ply only (outside ``root_beam``).

        ``history`` counts the positions of the game so far (``state`` included),
        ``moves_so_far`` the moves played, for the record's ``repetition`` and ``turn_limit``
        draws (``None``: no such rule). ``wide`` widens ``root_beam`` and ``sift``'s keep to at
        least that many moves, so that the ``wide`` best have their value at full depth.
        """
        self._reset(
            state, history if history is not None else {state: 1}, moves_so_far, repetition,
            turn_limit,
        )  # fmt: skip
        side = str(state.to_move)
        children = self.expand(state)
        deep = self.depth > 1
        if deep:
            candidates = self._root_candidates(children, played, wide)
        else:
            candidates = set(range(len(children)))
        shallow: list[Line] = []
        for i, child in enumerate(children):
            if i not in candidates:
                score = self._leaf(child, 0)
                drawn = score == 0.0 and self._draws(child.state, 1)
                shallow.append(Line(child.move, score, 1, True, drawn))
        sifted: list[Line] = []
        keep = None if self.sift is None else max(self.sift[1], wide)
        if keep is not None and len(candidates) > keep + 1:
            children, candidates, sifted = self._sifted(children, candidates, played, side, keep)
        searched = self._multi_line(children, candidates, self.depth, played, top, side)
        if self.proves:
            searched = [self._with_draw_proof(state, children, line) for line in searched]
        exact_lines = sorted((x for x in searched if x.exact), key=lambda x: -x.score)
        bounds = sorted((x for x in searched if not x.exact), key=lambda x: -x.score)
        sifted.sort(key=lambda x: -x.score)
        shallow.sort(key=lambda x: -x.score)
        return exact_lines + bounds + sifted + shallow

    def _multi_line(self, children: list[Child], candidates: set[int], depth: int, played: Any,
                    top: int, side: str) -> list[Line]:  # fmt: skip
        """The lines of the ``candidates`` among the root's ``children``, searched ``depth``
        plies: exact for the move played and the ``top`` best, upper bounds for the others."""
        searched: list[Line] = []
        best_scores: list[float] = []  # exact scores so far, ascending
        for i, child in enumerate(children):
            if i not in candidates:
                continue
            full = child.move == played or len(best_scores) < top
            alpha = -INF if full else best_scores[-top]
            score = self._value(child, depth - 1, alpha, INF, 0, side)
            exact = full or score > alpha
            proven = self._proven(child, score)
            searched.append(Line(child.move, score, depth, exact, proven))
            if exact:
                bisect.insort(best_scores, score)
        return searched

    def _sifted(self, children: list[Child], candidates: set[int], played: Any, side: str,
                keep: int) -> tuple[list[Child], set[int], list[Line]]:  # fmt: skip
        """``sift`` = (depth, keep): every candidate is first searched ``depth`` plies; only the
        ``keep`` best there (``keep`` given: the setting's, or more), the move played and the
        moves whose result is known go on to the full depth, best first (the first searched
        with a full window are then likely the best). The children in that order, the
        candidates kept, and the lines of the others at the sifting depth."""
        assert self.sift is not None
        depth = self.sift[0]
        rough = self._multi_line(children, candidates, depth, played, keep, side)
        exact = sorted((x for x in rough if x.exact and x.move != played), key=lambda x: -x.score)
        kept = {x.move for x in exact[:keep]} | {played} | {c.move for c in children if c.exact}
        order = {x.move: k for k, x in enumerate(exact)}
        ranked = sorted(children, key=lambda c: order.get(c.move, len(order)))
        chosen = {i for i, c in enumerate(ranked) if c.move in kept}
        return ranked, chosen, [x for x in rough if x.move not in kept]

    def _root_candidates(self, children: list[Child], played: Any, wide: int = 0) -> set[int]:
        """The root moves searched deeper: all of them, or the ``root_beam`` (at least
        ``wide``) best-looking and the move played (which takes a place in the beam when it
        looks as good as the last move in it), and every move whose result is known."""
        if self.root_beam is None:
            return set(range(len(children)))
        beam = max(self.root_beam, wide)
        chosen: set[int] = set()
        guesses: list[int] = []
        mine = None
        for i, child in enumerate(children):
            if child.exact:
                chosen.add(i)
            elif child.move == played:
                mine = i
            elif len(guesses) < beam:
                guesses.append(i)
        if mine is not None:
            chosen.add(mine)
            if guesses and children[mine].score >= children[guesses[-1]].score:
                guesses.pop()
        return chosen | set(guesses)

    def _proven(self, child: Child, score: float) -> bool:
        if abs(score) >= PROVEN:
            return self.proves or child.exact
        return score == 0.0 and (child.exact or self._draws(child.state, 1))

    def _with_draw_proof(self, root: State, children: list[Child], line: Line) -> Line:
        """A line scored exactly 0 is a draw the search saw; it is proven when neither side
        could do better whatever the positions it could not see to the end are worth."""
        if line.proven or line.score != 0.0 or not line.exact:
            return line
        child = next(c for c in children if c.move == line.move)
        if self._prove_draw(child):
            return Line(line.move, line.score, line.depth, True, True)
        return line

    def _prove_draw(self, child: Child) -> bool:
        side = self.root_side
        proven = True
        for mode in (-1, 1):
            self.mode = mode
            self.table = {}
            score = self._value(child, self.depth - 1, -INF, INF, 0, side)
            if (mode < 0 and score < 0.0) or (mode > 0 and score > 0.0):
                proven = False
                break
        self.mode = 0
        self.table = {}
        return proven

    # -- expansion -------------------------------------------------------------------------

    def expand(self, state: State) -> list[Child]:
        """The moves of ``state`` with the evaluation (or result) of the position each leads
        to, for the side to move, best first (cached)."""
        cache = self._expansions
        found = cache.get(state)
        if found is not None:
            cache.move_to_end(state)
            return found
        mover = str(state.to_move)
        children: list[Child] = []
        pending: list[int] = []
        for move in state.legal_moves():
            nxt = state.play(move)
            same = nxt.to_move == mover
            result = self._result(nxt, mover)
            if result is not None:
                children.append(Child(move, nxt, result, True, same))
            else:
                pending.append(len(children))
                children.append(Child(move, nxt, 0.0, False, same))
        if pending:
            scores = self._static([children[i].state for i in pending], mover)
            for i, score in zip(pending, scores, strict=True):
                c = children[i]
                children[i] = Child(c.move, c.state, score, False, c.same_side)
        children.sort(key=lambda c: -c.score)
        self._keep(state, children)
        return children

    def _keep(self, state: State, children: list[Child]) -> None:
        """Cache an expansion, forgetting the oldest beyond ``cache_children`` children."""
        cache = self._expansions
        cache[state] = children
        self._cached += len(children) + 1
        while self._cached > self.cache_children and len(cache) > 1:
            _, gone = cache.popitem(last=False)
            self._cached -= len(gone) + 1

    def _result(self, state: State, mover: str) -> float | None:
        """The score for ``mover`` (who moved into ``state``, one ply from the node) of a
        finished game or of a position an endgame table knows; ``None`` otherwise."""
        outcome = state.outcome()
        if outcome is not None:
            return _result(outcome.winner, mover, 1)
        if self.oracle is not None:
            verdict = self.oracle(state)
            if verdict is not None:
                winner, plies = verdict
                return _result(winner, mover, 1 + (UNKNOWN_PLIES if plies is None else plies))
        return None

    def _static(self, states: Sequence[State], mover: str) -> list[float]:
        """The game's evaluation of unfinished ``states`` for ``mover`` as an expected score
        (``2p - 1`` by the game's calibration, before any turn limit; cached; zero-sum: one
        side's value is minus the other's)."""
        cache = self._evals
        first = self.first
        sign = 1.0 if mover == first else -1.0
        out = [0.0] * len(states)
        misses: list[int] = []
        for i, s in enumerate(states):
            v = cache.get(s)
            if v is None:
                misses.append(i)
            else:
                out[i] = sign * v
        if misses:
            if len(cache) + len(misses) > self.cache_children:
                for old in list(itertools.islice(cache, len(cache) // 2 + len(misses))):
                    del cache[old]  # the oldest half (and room for these)
            scores = self.game.evaluate_many([states[i] for i in misses], first)
            curve = self.curve
            for i, v in zip(misses, scores, strict=True):
                if curve is not None:
                    v = 2 * curve.chance(v) - 1
                v = _heuristic(v)
                cache[states[i]] = v
                out[i] = sign * v
        return out

    # -- the search ------------------------------------------------------------------------

    def _draws(self, state: State, ply: int) -> bool:
        """Whether reaching ``state`` at ``ply`` plies from the root is a record draw."""
        if self.repetition is not None:
            seen = self.history.get(state, 0) + self.path[state]
            if seen + 1 >= self.repetition:
                return True
        return self.turn_limit is not None and self.moves_so_far + ply >= self.turn_limit

    def _seen(self, state: State) -> bool:
        """Whether ``state`` occurred before, in the game or along the line searched."""
        return bool(self.history.get(state, 0) or self.path[state])

    def _time(self, ply: int) -> float:
        """The share of an evaluated lead kept ``ply`` plies from the root, as the turn limit
        nears (1 without a limit or a horizon)."""
        curve = self.curve
        if curve is None or curve.horizon is None or self.turn_limit is None:
            return 1.0
        left = self.turn_limit - self.moves_so_far - ply
        return 1 - math.exp(-max(0, left) / curve.horizon)

    def _leaf(self, child: Child, ply: int) -> float:
        """The score of ``child`` (a move of a node at ``ply``) looked at no further: its result,
        a record draw, or its evaluation, worth less near the turn limit and when it repeats a
        position."""
        if child.exact:
            return _rooted(child.score, ply)
        state = child.state
        if self._draws(state, ply + 1):
            return 0.0
        score = child.score
        keep = self._time(ply + 1)
        if self._seen(state):
            keep *= 1 - REPEATED
        return score if keep == 1.0 else _heuristic(score * keep)

    def _value(
        self, child: Child, depth: int, alpha: float, beta: float, ply: int, side: str
    ) -> float:
        """The score of ``child`` (a move of a node at ``ply``) for ``side``, the node's side to
        move, searched ``depth`` more plies."""
        state = child.state
        if child.exact:
            # an oracle's value holds unless the move repeats a position into a draw
            if state.outcome() is None and self._draws(state, ply + 1):
                return 0.0
            return _rooted(child.score, ply)
        if self._draws(state, ply + 1):
            return 0.0
        if depth == 0:
            if self.mode:
                return UNKNOWN_LEAF * self.mode * (1 if side == self.root_side else -1)
            return self._leaf(child, ply)
        seen = self._seen(state)
        path = self.path
        path[state] += 1
        try:
            if child.same_side:
                score = self._search(state, depth, alpha, beta, ply + 1)
            else:
                score = -self._search(state, depth, -beta, -alpha, ply + 1)
        finally:
            path[state] -= 1
        if seen and abs(score) < PROVEN and score != 0.0:  # going round: the lead shrinks
            return _heuristic(score * (1 - REPEATED))
        return score

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The score of decision node ``state`` for its side to move, searched ``depth`` plies,
        within (alpha, beta)."""
        self.nodes += 1
        key = (state, depth)
        entry = self.table.get(key)
        if entry is not None:
            stored, flag = entry
            score = _from_table(stored, ply)
            if (
                flag == EXACT
                or (flag == LOWER and score >= beta)
                or (flag == UPPER and score <= alpha)
            ):
                return score
        if depth == 1 and state not in self._expansions:
            best, best_move = self._frontier(state, alpha, beta, ply)
        else:
            best, best_move = self._inner(state, depth, alpha, beta, ply)
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[key] = (_to_table(best, ply), flag)
        if best_move is not None:
            self.replies[state] = best_move
        return best

    def _inner(
        self, state: State, depth: int, alpha: float, beta: float, ply: int
    ) -> tuple[float, Any]:
        """Principal variation search over the children, best-looking first: the first with
        the full window, the others first with a null window (re-searched if they beat it)."""
        side = str(state.to_move)
        children = self._ordered(state, depth)
        if not children:  # no game here leaves a side without a move unless it is over
            return 0.0, None
        best, best_move = -INF, None
        low = alpha
        for k, child in enumerate(children):
            if k == 0 or depth == 1:
                score = self._value(child, depth - 1, low, beta, ply, side)
            else:
                score = self._value(child, depth - 1, low, low + NULL, ply, side)
                if low < score < beta:
                    score = self._value(child, depth - 1, low, beta, ply, side)
            if score > best:
                best, best_move = score, child.move
                if score > low:
                    low = score
                    if low >= beta:
                        break
        return best, best_move

    def _frontier(self, state: State, alpha: float, beta: float, ply: int) -> tuple[float, Any]:
        """A node one ply above the leaves, not expanded yet: its moves are evaluated one by
        one (the best reply found here before and the last refutation at this ply first), and
        the first that reaches ``beta`` ends the node. A node whose every move was evaluated is
        kept as an expansion, as ``expand`` would have made it."""
        side = str(state.to_move)
        moves = state.legal_moves()
        first = [m for m in (self.replies.get(state), self.killers.get(ply)) if m is not None]
        first = [m for i, m in enumerate(first) if m not in first[:i] and m in moves]
        order = (*first, *(m for m in moves if m not in first)) if first else moves
        best, best_move = -INF, None
        children: list[Child] = []
        for move in order:
            nxt = state.play(move)
            result = self._result(nxt, side)
            if result is not None:
                child = Child(move, nxt, result, True, nxt.to_move == side)
                over = nxt.outcome() is not None
                score = 0.0 if not over and self._draws(nxt, ply + 1) else _rooted(result, ply)
            else:
                child = Child(move, nxt, self._static([nxt], side)[0], False, nxt.to_move == side)
                if self._draws(nxt, ply + 1):
                    score = 0.0
                elif self.mode:
                    score = UNKNOWN_LEAF * self.mode * (1 if side == self.root_side else -1)
                else:
                    score = self._leaf(child, ply)
            children.append(child)
            if score > best:
                best, best_move = score, move
                if score >= beta or score >= WIN - (ply + 1) * STEP:  # nothing beats a win now
                    self.killers[ply] = move
                    return best, best_move
        children.sort(key=lambda c: -c.score)
        self._keep(state, children)
        return best, best_move

    def _ordered(self, state: State, depth: int) -> Sequence[Child]:
        """The children to search, best-looking first (the best reply found so far at this
        node leads); with a beam, only the ``beam`` best-looking unfinished ones (every
        finished one is kept)."""
        children = self.expand(state)
        reply = self.replies.get(state)
        if self.beam is not None and depth > 1:
            kept: list[Child] = []
            guesses = 0
            for c in children:
                if c.exact:
                    kept.append(c)
                elif guesses < self.beam or c.move == reply:
                    kept.append(c)
                    guesses += 1
            children = kept
        if reply is not None and children and children[0].move != reply:
            first = [c for c in children if c.move == reply]
            if first:
                return first + [c for c in children if c.move != reply]
        return children


def _result(winner: str | None, mover: str, plies: int) -> float:
    """The score for ``mover`` of a game that ends ``plies`` plies from the node."""
    if winner is None:
        return 0.0
    score = WIN - plies * STEP
    return score if winner == mover else -score


def _heuristic(value: float) -> float:
    if value == 0.0:
        return NUDGE
    return max(-HEURISTIC, min(HEURISTIC, value))


def _rooted(score: float, ply: int) -> float:
    """A proven score counted from a node at ``ply`` plies, counted from the root instead."""
    if score >= PROVEN:
        return score - ply * STEP
    if score <= -PROVEN:
        return score + ply * STEP
    return score


def _to_table(score: float, ply: int) -> float:
    """Proven scores are stored from the node (not the root), so that a node's entry holds
    wherever the node is met."""
    if score >= PROVEN:
        return score + ply * STEP
    if score <= -PROVEN:
        return score - ply * STEP
    return score


def _from_table(score: float, ply: int) -> float:
    if score >= PROVEN:
        return score - ply * STEP
    if score <= -PROVEN:
        return score + ply * STEP
    return score


__all__ = [
    "PROVEN",
    "STEP",
    "UNKNOWN_PLIES",
    "WIN",
    "Child",
    "Line",
    "TreeSearch",
    "plies_to_end",
]
