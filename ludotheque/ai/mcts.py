"""Monte Carlo tree search (UCT) for any game, chance nodes included.

At a decision node the child with the best upper confidence bound is followed; at a chance node
an outcome is drawn with its probability (the tree never "chooses" the dice). A play-out follows
the rollout policy until the game ends or ``cutoff`` plies have been played, where the game's
evaluation takes over. Values are kept for the first side and negated for the second.
``widening`` limits how many children a node may have (``ceil(visits ** widening)``), for games
with thousands of moves per turn.

The draws a state cannot show come from the agent's ``memory`` (the game so far): a position
reached a third time along the tree's path, or the turn limit reached in the tree or a
play-out, ends the iteration in a draw, worth what the game's calibration says an even chance
is (``draw_value``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..core import CHANCE, State
from .agent import Budget, Memory, decision_moves, draw_value, terminal_value, value

RolloutPolicy = Callable[[State, random.Random], Any]


def random_rollout(state: State, rng: random.Random) -> Any:
    """The default play-out policy: a uniformly random legal move."""
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


class _Node:
    __slots__ = ("children", "depth", "drawn", "state", "total", "untried", "visits")

    def __init__(self, state: State, depth: int = 0, drawn: bool = False) -> None:
        self.state = state
        self.depth = depth  # moves from the root
        self.drawn = drawn  # a draw by the record's rules (repetition, turn limit)
        self.children: dict[Any, _Node] = {}
        self.untried: list[Any] | None = None
        self.visits = 0
        self.total = 0.0  # sum of values for the first side


class MCTSAgent:
    """UCT. ``budget.iterations`` play-outs (reproducible with a seed), or ``budget.seconds``."""

    def __init__(
        self,
        seed: int | str | None = None,
        budget: Budget | None = None,
        exploration: float = 1.4,
        cutoff: int | None = None,
        rollout: RolloutPolicy = random_rollout,
        widening: float | None = None,
        name: str = "mcts",
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget(iterations=1000)
        self.exploration = exploration
        self.cutoff = cutoff
        self.rollout = rollout
        self.widening = widening
        self.name = name
        self.iterations_done = 0
        self.memory = Memory()
        self._draw = 0.0

    def choose(self, state: State) -> Any:
        self.memory.observe(state)
        move = self._choose(state)
        self.memory.observe(state.play(move))
        return move

    def _choose(self, state: State) -> Any:
        moves = decision_moves(state)
        if len(moves) == 1:
            return moves[0]
        first = state.game.sides[0]
        self._draw = draw_value(state.game, first)
        root = _Node(state)
        clock = self.budget.clock()
        limit = self.budget.iterations
        done = 0
        while (limit is None or done < limit) and not (done and clock.expired()):
            self._iterate(root, first)
            done += 1
            if limit is None and self.budget.seconds is None and done >= 1000:
                break
        self.iterations_done = done
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return best[0]

    def _iterate(self, root: _Node, first: str) -> None:
        node = root
        path = [node]
        while node.state.to_move is not None and not node.drawn:
            state = node.state
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                outcome = self.rng.choices(outcomes, [p for _, p in outcomes])[0][0]
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(state.play(outcome), node.depth)
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = list(state.legal_moves())
                self.rng.shuffle(node.untried)
            allowed = (
                len(node.untried) + len(node.children)
                if self.widening is None
                else max(1, math.ceil((node.visits + 1) ** self.widening))
            )
            if node.untried and len(node.children) < allowed:
                move = node.untried.pop()
                after = state.play(move)
                drawn = self._drawn(after, node.depth + 1, path)
                child = node.children[move] = _Node(after, node.depth + 1, drawn)
                path.append(child)
                node = child
                break
            node = self._select(node, first)
            path.append(node)
        result = self._draw if node.drawn else self._playout(node.state, first, node.depth)
        for n in path:
            n.visits += 1
            n.total += result

    def _drawn(self, state: State, depth: int, path: list[_Node]) -> bool:
        """Whether reaching ``state`` ``depth`` moves from the root, after the nodes of
        ``path``, draws by the record's rules (the game so far is the agent's memory)."""
        memory = self.memory
        if state.outcome() is not None:
            return False
        if memory.limit is not None:
            seen = memory.count(state) + sum(1 for n in path if n.state == state)
            if seen + 1 >= memory.limit:
                return True
        left = memory.moves_left(depth)
        return left is not None and left <= 0

    def _select(self, node: _Node, first: str) -> _Node:
        sign = 1.0 if node.state.to_move == first else -1.0
        log_n = math.log(node.visits + 1)
        c = self.exploration
        best, best_score = None, -math.inf
        for child in node.children.values():
            if child.visits == 0:
                return child
            score = sign * child.total / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _playout(self, state: State, first: str, depth: int = 0) -> float:
        """A play-out from ``state``, ``depth`` moves from the root: the first side's value."""
        fast = getattr(state, "random_playout", None) if self.rollout is random_rollout else None
        if fast is not None:  # the game plays a whole random roll-out itself (backgammon)
            state, _ = fast(self.rng, self.cutoff)
            if state.to_move is None:
                return terminal_value(state, first)
            return value(state, first)
        plies = 0
        rng = self.rng
        left = self.memory.moves_left(depth)
        while state.to_move is not None:
            if self.cutoff is not None and plies >= self.cutoff:
                return value(state, first)
            if left is not None and plies >= left:
                return self._draw  # the turn limit
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            state = state.play(self.rollout(state, rng))
            plies += 1
        outcome = state.outcome()
        if outcome is not None and outcome.winner is None:
            return self._draw
        return terminal_value(state, first)
