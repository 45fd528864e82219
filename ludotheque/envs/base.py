"""What every game's encoding shares: the node of a framework game, the end rules a state
cannot decide alone, and the interface the OpenSpiel and PettingZoo adapters drive.

A *node* is one point of a framework game. It wraps an engine state and adds what the
frameworks need and a state does not hold: the part of a turn already chosen (a backgammon
checker moved, a Defiance action made before its Command move), the turns played, and the
positions seen so far (threefold repetition is a draw in the General and in Defiance, decided
by history as the game record decides it). Nodes are immutable values, so copying one (an
OpenSpiel clone, an MCTS simulation) costs nothing.

Players are numbered as the game lists its sides (``game.sides``): player 0 moves first. The
special players use OpenSpiel's numbers: ``CHANCE_PLAYER`` (-1) and ``TERMINAL_PLAYER`` (-4).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import CHANCE, Game, IllegalMove, InvalidPosition, Outcome, State

CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
REPETITION = "repetition"
TURN_LIMIT = "turn-limit"
UNFINISHED = "unfinished"
"""The reason of a game stopped at the frameworks' turn limit where the rules have none
(backgammon, the General): no result, a draw for the frameworks, a truncation for PettingZoo."""

Observation = npt.NDArray[np.float32]


class Node:
    """One point of a framework game (see the module docstring). Build nodes through an
    ``Encoding``; never change one.

    ``state``: the engine state (at the start of the turn while a turn is half chosen);
    ``pending``: the game's record of the part of the turn already chosen, or ``None``;
    ``turns``: engine moves played; ``seen``: hashes of the positions since the last
    irreversible move, the current one last, and ``seen_states`` the positions themselves;
    ``outcome``: the end of the game (the engine's, or a draw of the history), else ``None``;
    ``truncated``: the game stopped at the frameworks' turn limit, with no result.
    """

    __slots__ = (
        "legal",
        "outcome",
        "pending",
        "player",
        "seen",
        "seen_states",
        "state",
        "truncated",
        "turns",
    )

    state: State
    pending: Any
    turns: int
    seen: tuple[int, ...]
    seen_states: tuple[State, ...]
    outcome: Outcome | None
    truncated: bool
    player: int
    legal: tuple[list[int], Sequence[Any]] | None  # (actions, what each plays), on first use

    def __init__(
        self,
        state: State,
        pending: Any,
        turns: int,
        seen: tuple[int, ...],
        seen_states: tuple[State, ...],
        outcome: Outcome | None,
        truncated: bool,
        player: int,
    ) -> None:
        self.state = state
        self.pending = pending
        self.turns = turns
        self.seen = seen
        self.seen_states = seen_states
        self.outcome = outcome
        self.truncated = truncated
        self.player = player
        self.legal = None

    @property
    def is_terminal(self) -> bool:
        """True once the game is over (a result, a draw, or the frameworks' turn limit)."""
        return self.outcome is not None

    @property
    def is_chance(self) -> bool:
        """True at a chance node (dice to roll)."""
        return self.player == CHANCE_PLAYER

    def repetitions(self) -> int:
        """How many times the current position occurred before (0 the first time)."""
        if not self.seen:
            return 0
        h = self.seen[-1]
        return sum(
            1
            for k, s in zip(self.seen[:-1], self.seen_states[:-1], strict=True)
            if k == h and s == self.state
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Node:
        return self  # immutable: clones share it

    def __copy__(self) -> Node:
        return self

    def __getstate__(self) -> tuple[Any, ...]:
        return (
            self.state,
            self.pending,
            self.turns,
            self.seen,
            self.seen_states,
            self.outcome,
            self.truncated,
            self.player,
        )

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        (
            self.state,
            self.pending,
            self.turns,
            self.seen,
            self.seen_states,
            self.outcome,
            self.truncated,
            self.player,
        ) = values
        self.legal = None

    def __repr__(self) -> str:
        return f"<Node {self.state.position()!r} pending={self.pending!r} turns={self.turns}>"


class Encoding(ABC):
    """A game's fixed encoding for the frameworks: integer actions, observation arrays, chance
    outcomes, and the end rules of a whole game.

    ``num_actions``: actions are ``0 … num_actions - 1``; ``observation_shape``: the shape of
    every observation; ``max_chance_outcomes``: chance outcomes are ``0 …`` that minus one;
    ``max_turns``: the turn limit (engine moves: whole turns) after which a game stops;
    ``max_game_length``: the most actions (chance outcomes included) a game can take.
    """

    name: str
    ruleset: str
    game: Game
    num_actions: int
    observation_shape: tuple[int, ...]
    max_chance_outcomes: int = 0
    default_max_turns: int
    turn_limit_is_rule: bool = False
    """True when the turn limit is the game's own draw rule (Defiance), not the frameworks'."""
    repetition: int | None = None
    """A position seen this many times is a draw (``None``: no repetition rule)."""
    max_utility: float = 1.0
    """The largest return (a win); the smallest is its opposite."""
    has_pending: bool = True
    """False when a turn is one decision (nothing is ever half chosen)."""

    def __init__(self, game: Game, max_turns: int | None = None) -> None:
        self.game = game
        self.ruleset = game.ruleset
        self.sides = game.sides
        if max_turns is None:
            max_turns = self.default_max_turns
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise ValueError(f"max_turns must be a whole number of turns ≥ 1, not {max_turns!r}")
        self.max_turns = max_turns
        self._players: dict[str | None, int] = {CHANCE: CHANCE_PLAYER}
        self._players.update((side, i) for i, side in enumerate(self.sides))

    # -- what each game defines ------------------------------------------------------------

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """The most actions (chance outcomes included) a game can take under ``max_turns``."""

    @abstractmethod
    def _legal(self, node: Node) -> tuple[list[int], Sequence[Any]]:
        """The legal actions of a decision node (in any order) and, in the same order, what
        each plays."""

    @abstractmethod
    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        """The node after a legal decision ``action`` (``what`` it plays, from ``_legal``)."""

    @abstractmethod
    def observe(self, node: Node, player: int, out: Observation) -> None:
        """Write the observation of ``node`` for ``player`` into ``out`` (zeroed first)."""

    @abstractmethod
    def action_text(self, node: Node, action: int) -> str:
        """The action in words: notation of the move or part of a move it makes."""

    @abstractmethod
    def turn_plans(self, node: Node) -> dict[Any, list[int]]:
        """The whole engine moves still open at a decision node, each with the actions that
        finish it from here (at the start of a turn: every legal move)."""

    def in_turn(self, node: Node) -> bool:
        """True when part of the current turn is already chosen."""
        return node.pending is not None

    def _begin(self, state: State) -> Any:
        """The ``pending`` value of a fresh turn at ``state`` (``None`` by default)."""
        return None

    def _next_game(self, state: State) -> State | None:
        """The next game when the episode goes on after the game of ``state`` ended."""
        return None

    def _resets_history(self, before: State, after: State) -> bool:
        """True when no position before ``after`` can occur again (an irreversible move)."""
        return False

    def chance_outcomes(self, node: Node) -> list[tuple[int, float]]:
        """``(outcome, probability)`` at a chance node, outcomes ascending."""
        return []

    def _apply_chance(self, node: Node, outcome: int) -> Node:
        raise IllegalMove(f"{self.name} has no chance nodes")

    def chance_text(self, node: Node, outcome: int) -> str:
        """A chance outcome in notation."""
        raise IllegalMove(f"{self.name} has no chance nodes")

    # -- the shared machinery --------------------------------------------------------------

    def initial(self) -> Node:
        """The node at the start of a game."""
        return self.node_at(self.game.start())

    def node_at(self, position: State | str) -> Node:
        """The node at a position (a state of this game, or a position string), as the start of
        a game: no turn played, no position seen before. Raises ``InvalidPosition`` for a bad
        position string."""
        state = self.game.parse_position(position) if isinstance(position, str) else position
        if state.game is not self.game:
            raise InvalidPosition(f"{state!r} is not a position of {self.game!r}")
        keep = self.repetition is not None
        return self._node(state, 0, (hash(state),) if keep else (), (state,) if keep else ())

    def choices(self, node: Node) -> tuple[list[int], Sequence[Any]]:
        """The legal actions of a decision node (in no particular order) and what each plays,
        in the same order; both empty at chance and terminal nodes."""
        legal = node.legal
        if legal is None:
            legal = ([], ()) if node.player < 0 else self._legal(node)
            node.legal = legal
        return legal

    def legal(self, node: Node) -> dict[int, Any]:
        """The legal actions of a decision node, each with what it plays."""
        actions, whats = self.choices(node)
        return dict(zip(actions, whats, strict=True))

    def what(self, node: Node, action: int) -> Any:
        """What a legal ``action`` plays at ``node`` (``MISSING`` when it is not legal)."""
        actions, whats = self.choices(node)
        try:
            return whats[actions.index(action)]
        except ValueError:
            return MISSING

    def legal_actions(self, node: Node) -> list[int]:
        """The legal actions of a decision node, ascending."""
        legal = node.legal
        return sorted((legal or self.choices(node))[0])

    def action_mask(self, node: Node) -> npt.NDArray[np.int8]:
        """1 for each legal action, 0 elsewhere (all 0 at chance and terminal nodes)."""
        mask = np.zeros(self.num_actions, np.int8)
        actions = self.choices(node)[0]
        if actions:
            mask[actions] = 1
        return mask

    def apply(self, node: Node, action: int) -> Node:
        """The node after ``action`` (a chance outcome at a chance node). Raises ``IllegalMove``
        when it is not legal there."""
        if type(action) is not int:
            action = _as_action(action)
        if node.player >= 0:
            actions, whats = node.legal or self.choices(node)
            try:
                what = whats[actions.index(action)]
            except ValueError:
                pass
            else:
                return self._apply_decision(node, action, what)
        elif node.player == CHANCE_PLAYER:
            return self._apply_chance(node, action)
        if node.outcome is not None:
            raise IllegalMove(f"the game is over ({_words(node.outcome)})")
        raise IllegalMove(f"action {action!r} is not legal here")

    def observation(self, node: Node, player: int) -> Observation:
        """A new observation array of ``node`` for ``player``."""
        out = np.zeros(self.observation_shape, np.float32)
        self.observe(node, player, out)
        return out

    def returns(self, node: Node) -> list[float]:
        """Each player's result: 1 for a win, -1 for a loss, 0 for a draw or an unfinished game
        (and 0 for both while the game goes on)."""
        outcome = node.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0 if side == outcome.winner else -1.0 for side in self.sides]

    def describe(self, node: Node) -> str:
        """The position string, and the part of the turn already chosen."""
        text = node.state.position()
        pending = self._pending_text(node) if node.pending is not None else ""
        if pending:
            text += " | " + pending
        if node.outcome is not None and node.state.outcome() is None:
            text += f" | {_words(node.outcome)}"
        return text

    def _pending_text(self, node: Node) -> str:
        """The part of the turn already chosen, in words ("" when nothing is)."""
        return str(node.pending)

    def _node(
        self, state: State, turns: int, seen: tuple[int, ...], seen_states: tuple[State, ...]
    ) -> Node:
        outcome = state.outcome()
        if outcome is not None:
            following = self._next_game(state)
            if following is not None:  # the episode goes on (a match's next game)
                state, outcome = following, following.outcome()
                seen, seen_states = (), ()
        if outcome is None:
            repetition = self.repetition
            if repetition is not None and seen and seen.count(seen[-1]) >= repetition:
                h = seen[-1]
                count = sum(
                    1 for k, s in zip(seen, seen_states, strict=True) if k == h and s == state
                )
                if count >= repetition:
                    outcome = Outcome(None, REPETITION)
            if outcome is None and turns >= self.max_turns:
                rule = self.turn_limit_is_rule
                outcome = Outcome(None, TURN_LIMIT if rule else UNFINISHED)
                return Node(
                    state, None, turns, seen, seen_states, outcome, not rule, TERMINAL_PLAYER
                )
            if outcome is None:
                player = self._players[state.to_move]
                pending = self._begin(state) if self.has_pending and player >= 0 else None
                return Node(state, pending, turns, seen, seen_states, None, False, player)
        return Node(state, None, turns, seen, seen_states, outcome, False, TERMINAL_PLAYER)

    def _turn_done(self, node: Node, state: State) -> Node:
        """The node after a whole turn (an engine move) that ends at ``state``."""
        if self.repetition is None:
            return self._node(state, node.turns + 1, (), ())
        h = hash(state)
        if self._resets_history(node.state, state):
            return self._node(state, node.turns + 1, (h,), (state,))
        return self._node(state, node.turns + 1, (*node.seen, h), (*node.seen_states, state))

    def _mid_turn(self, node: Node, pending: Any) -> Node:
        """The node of the same side, same state, with more of the turn chosen."""
        return Node(
            node.state,
            pending,
            node.turns,
            node.seen,
            node.seen_states,
            None,
            False,
            node.player,
        )

    def _after_chance(self, node: Node, state: State) -> Node:
        """The node after a chance outcome (no turn is played)."""
        return self._node(state, node.turns, node.seen, node.seen_states)

    def best_plan(self, node: Node, moves: Sequence[Any]) -> list[int]:
        """The plan (actions) of the move among ``moves`` whose resulting position the game's
        own evaluation likes best for the player to move: how an agent that thinks in whole
        moves finishes a turn it did not start."""
        plans = self.turn_plans(node)
        side = self.sides[node.player]
        chosen = [m for m in moves if m in plans] or list(plans)
        values = self.game.evaluate_many([node.state.play(m) for m in chosen], side)
        best = max(range(len(chosen)), key=values.__getitem__)
        return plans[chosen[best]]


MISSING: Any = object()
"""What ``Encoding.what`` answers for an action that is not legal."""


def _as_action(value: object) -> int:
    """An action given as another kind of integer (a NumPy one); ``IllegalMove`` otherwise."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise IllegalMove(f"an action is an integer, not {value!r}")
    return int(value.__index__())


def _words(outcome: Outcome) -> str:
    if outcome.winner is None:
        return f"draw: {outcome.reason}" if outcome.reason != UNFINISHED else "unfinished"
    return f"{outcome.winner} won: {outcome.reason}"
