"""Expectimax for analysis of dice games (backgammon): the value of every play, and the luck of
every roll.

As GNU Backgammon does, every play is first judged by the evaluation of the position it leads
to (GNU Backgammon's 0-ply, our 1 ply), then the best few of them (at most ``candidates``, within
``threshold`` of the best: GNU Backgammon's move filter) and the play made are looked at again
deeper: with ``plies=2``, through each of the opponent's 21 rolls and its best answer to each
(GNU Backgammon's 1-ply). Values are for the side that plays, in the game's values: by default
``Game.evaluate``'s (in ``seed`` and ``standard``, cubeless equity: twice the winning chance less
one); a ruleset played for points searches on its own measure instead (``stakes``).

The luck of a roll (GNU Backgammon's, at 0-ply) is the value after the best play with that roll,
less the average of the same over every roll the dice could have given.

Cube decisions fit the same frame: when the game offers moves such as ``double`` and ``take``,
each is judged by the value of the position it leads to, like a play. Such decisions take no ply
(``free``): ``roll`` and ``double`` are both valued one roll of the dice ahead (through the
other side's ``take`` or ``drop``), and a play's two plies are the other side's roll and reply
whether or not it may double first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ai.agent import terminal_value, values
from ..core import CHANCE, Game, State
from .search import Line

CACHE_LIMIT = 200_000

Values = Callable[[Sequence[State], str], list[float]]
"""The values of states (finished ones included) for a side, in one batch."""


class DiceSearch:
    """Values of plays and rolls for a game with chance nodes."""

    def __init__(
        self,
        game: Game,
        plies: int,
        *,
        candidates: int = 8,
        threshold: float = 0.16,
        values: Values | None = None,
        terminal: Callable[[State, str], float] | None = None,
        free: Callable[[State], bool] | None = None,
        unit: Callable[[State], float] | None = None,
    ) -> None:
        """``values`` and ``terminal`` value states (the default: ``Game.evaluate`` and +1, 0
        or -1 for a finished game); ``free`` tells the decisions that take no ply (the cube's);
        ``unit(state)`` is how much of these values the ``threshold`` is counted in at a node
        (the default: 1)."""
        if plies < 1:
            raise ValueError("the search looks at least one ply ahead")
        self.game = game
        self.plies = plies
        self.candidates = candidates
        self.threshold = threshold
        self.first = game.sides[0]
        self._values: Values = values or _default_values
        self._terminal = terminal or terminal_value
        self._free = free
        self._unit = unit
        self._cache: dict[tuple[State, int], float] = {}

    def lines(self, state: State, *, played: Any = None, top: int = 3, wide: int = 0) -> list[Line]:
        """Every legal play of decision node ``state`` with its value for the side to move:
        the candidates looked at deeper first (best first), then the others. ``wide``: the
        ``wide`` best at one ply are candidates whatever the move filter says, so that they
        have their value at full depth.

        A ``played`` move the game allows but does not list (an offer to resign) comes first
        in the deep lines, valued by the other side's better answer: accepting, or declining,
        which is worth this position's value (that of its best line)."""
        del top  # every candidate gets an exact value here
        mover = str(state.to_move)
        moves = list(state.legal_moves())
        listed = len(moves)
        offer = played is not None and str(played) not in {str(m) for m in moves}
        if offer:
            moves.append(played)
        children = [state.play(m) for m in moves]
        base = self._values(children, mover)
        order = sorted(range(listed), key=lambda i: -base[i])
        finished = [c.outcome() is not None for c in children]
        if self.plies <= 1 or listed == 1:
            lines = [Line(moves[i], base[i], 1, True, finished[i]) for i in order]
            depth = 1
        else:
            best = base[order[0]]
            threshold = self.threshold * (1.0 if self._unit is None else self._unit(state))
            chosen = [i for i in order[: self.candidates] if base[i] >= best - threshold]
            chosen += [i for i in order[:wide] if i not in chosen]
            if self._free is not None and self._free(state):
                chosen = order  # a cube decision: every answer is looked at (there are two)
            if played is not None and not offer:
                chosen += [i for i in order if moves[i] == played and i not in chosen]
            deep = [
                Line(moves[i], self.value(children[i], mover, self.plies - 1), self.plies, True,
                     finished[i])
                for i in chosen
            ]  # fmt: skip
            deep.sort(key=lambda x: -x.score)
            taken = set(chosen)
            rest = [Line(moves[i], base[i], 1, True, finished[i]) for i in order if i not in taken]
            lines = deep + rest
            depth = self.plies
        if offer:
            lines.insert(0, self._offer(state, children[-1], played, mover, lines[0].score, depth))
        return lines

    def _offer(
        self, state: State, child: State, move: Any, mover: str, here: float, depth: int
    ) -> Line:
        """The line of an unlisted move of ``mover`` (an offer to resign): the other side
        answers as suits it best; an answer that comes back to ``state`` is worth ``here``."""
        if child.outcome() is not None:
            return Line(move, self._terminal(child, mover), depth, True, True)
        if child.to_move == mover or child.to_move == CHANCE:
            return Line(move, self.value(child, mover, depth - 1), depth, True, False)
        answers = []
        for answer in child.legal_moves():
            after = child.play(answer)
            answers.append(here if after == state else self.value(after, mover, depth - 1))
        return Line(move, min(answers), depth, True, False)

    def value(self, state: State, side: str, plies: int) -> float:
        """The value of ``state`` for ``side`` with ``plies`` decisions still to look at (chance
        nodes average their outcomes without using a ply)."""
        if state.outcome() is not None:
            return self._terminal(state, side)
        if plies == 0:
            return self._values([state], side)[0]
        key = (state, plies)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._value(state, plies)
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            self._cache[key] = cached
        return cached if side == self.first else -cached

    def _value(self, state: State, plies: int) -> float:
        """``value`` for the game's first side."""
        first = self.first
        mover = state.to_move
        if mover == CHANCE:
            if plies == 1:
                return self._average_best(state)
            return sum(
                p * self.value(state.play(o), first, plies) for o, p in state.chance_outcomes()
            )
        children = [state.play(m) for m in state.legal_moves()]
        free = self._free is not None and self._free(state)
        if plies == 1 and not free:
            best = max(self._values(children, str(mover)))
            return best if mover == first else -best
        results = [self.value(c, first, plies if free else plies - 1) for c in children]
        return max(results) if mover == first else min(results)

    def _average_best(self, state: State) -> float:
        """A chance node's value for the first side at one ply: the best play's evaluation for
        each outcome, averaged; every outcome's plays are evaluated in one batch."""
        first = self.first
        outcomes = state.chance_outcomes()
        afters = [state.play(o) for o, _ in outcomes]
        batch: list[State] = []
        spans: list[tuple[int, int, str]] = []
        for after in afters:
            if (
                after.outcome() is not None
                or after.to_move == CHANCE
                or (self._free is not None and self._free(after))
            ):
                spans.append((-1, -1, ""))
                continue
            children = [after.play(m) for m in after.legal_moves()]
            spans.append((len(batch), len(batch) + len(children), str(after.to_move)))
            batch += children
        scores = self._values(batch, first) if batch else []
        total = 0.0
        for (_, p), after, (lo, hi, mover) in zip(outcomes, afters, spans, strict=True):
            if lo < 0:
                v = self.value(after, first, 1)
            else:
                v = max(scores[lo:hi]) if mover == first else min(scores[lo:hi])
                self._cache.setdefault((after, 1), v)
            total += p * v
        return total

    def luck(self, state: State, outcome: Any) -> tuple[str, float]:
        """The side that plays after chance node ``state`` gives ``outcome``, and the luck of
        that outcome for it: the value after its best play (at one ply) less the average of the
        same over every outcome."""
        after = state.play(outcome)
        roller = str(after.to_move)
        actual = self.value(after, self.first, 1)
        average = self.value(state, self.first, 1)
        luck = actual - average
        return roller, luck if roller == self.first else -luck

    def position_value(self, state: State, side: str) -> float:
        """The value of any state for ``side``: a chance node's average over its outcomes of
        the best play (at one ply), a decision node's best play at this search's depth."""
        if state.outcome() is not None:
            return self._terminal(state, side)
        if state.to_move == CHANCE:
            return self.value(state, side, 1)
        best = self.lines(state)[0].score
        return best if state.to_move == side else -best


def _default_values(states: Sequence[State], side: str) -> list[float]:
    return values(states, side)


__all__ = ["DiceSearch", "Values"]
