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

from ..core import (
    CHANCE,
    Game,
    IllegalMove,
    InvalidMove,
    InvalidPosition,
    Outcome,
    State,
    described,
)
from . import fast

CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
REPETITION = "repetition"
TURN_LIMIT = "turn-limit"
UNFINISHED = "unfinished"
"""The reason of a game stopped at the frameworks' turn limit where the rules have none
(backgammon, the General): no result, a draw for the frameworks, a truncation for PettingZoo."""

Observation = npt.NDArray[np.float32]
INT8 = np.dtype(np.int8)
FLOAT32 = np.dtype(np.float32)
"""The masks' and the observations' dtypes, as objects (NumPy reads a type's dtype each time)."""
History = tuple[State, int, Any] | None
"""Positions newest first: ``(position, how many times it occurred so far, older history)``,
``None`` at the end."""


def push(seen: tuple[int, ...], history: History, state: State, h: int) -> History:
    """``history`` (hashes ``seen``, oldest first) with ``state`` (hash ``h``) added: its count
    is one more than at its latest occurrence (found by a short walk back, equal hashes being
    compared as positions), or 1 when its hash never occurred."""
    if h in seen:
        i = len(seen) - 1
        entry = history
        while entry is not None:
            if seen[i] == h and entry[0] == state:
                return (state, entry[1] + 1, history)
            entry = entry[2]
            i -= 1
    return (state, 1, history)


def chain(states: Sequence[State]) -> tuple[tuple[int, ...], History]:
    """The hashes and the history of ``states`` (oldest first)."""
    seen: tuple[int, ...] = ()
    history: History = None
    for state in states:
        h = hash(state)
        history = push(seen, history, state, h)
        seen = (*seen, h)
    return seen, history


class Node:
    """One point of a framework game (see the module docstring). Build nodes through an
    ``Encoding``; never change one.

    ``state``: the engine state (at the start of the turn while a turn is half chosen);
    ``pending``: the game's record of the part of the turn already chosen, or ``None``;
    ``turns``: engine moves played; ``seen``: hashes of the positions since the last
    irreversible move, the current one last (the General's: its packed positions, see
    ``GeneralNode``), and ``history`` the positions themselves, newest first, each with how
    many times it occurred, as a chain of triples ``(position, count, older chain)`` ending
    in ``None`` (a step adds a triple instead of copying them all; ``seen_states`` lists them
    oldest first);
    ``outcome``: the end of the game (the engine's, or a draw of the history), else ``None``;
    ``truncated``: the game stopped at the frameworks' turn limit, with no result.
    """

    __slots__ = (
        "cache",
        "history",
        "legal",
        "outcome",
        "pending",
        "player",
        "seen",
        "state",
        "truncated",
        "turns",
    )

    state: State
    pending: Any
    turns: int
    seen: tuple[int, ...]
    history: History
    outcome: Outcome | None
    truncated: bool
    player: int
    legal: list[int] | None  # the legal actions (see ``Encoding.legal_sorted``), on first use
    cache: Any  # what the encoding keeps to play those actions (set with ``legal``)

    def __init__(
        self,
        state: State,
        pending: Any,
        turns: int,
        seen: tuple[int, ...],
        history: History,
        outcome: Outcome | None,
        truncated: bool,
        player: int,
    ) -> None:
        self.state = state
        self.pending = pending
        self.turns = turns
        self.seen = seen
        self.history = history
        self.outcome = outcome
        self.truncated = truncated
        self.player = player
        self.legal = None
        self.cache = None

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
        history = self.history
        return 0 if history is None else history[1] - 1

    @property
    def seen_states(self) -> tuple[State, ...]:
        """The positions since the last irreversible move, oldest first (``seen``'s)."""
        out = []
        chain = self.history
        while chain is not None:
            out.append(chain[0])
            chain = chain[2]
        return tuple(reversed(out))

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
            self.seen_states,  # flat: a long chain of pairs would nest too deep for pickle
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
            states,
            self.outcome,
            self.truncated,
            self.player,
        ) = values
        self.history = chain(states)[1]
        self.legal = None
        self.cache = None

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
    legal_sorted: bool = True
    """False when ``_legal`` lists the actions in no particular order (``legal_actions`` sorts
    them; a mask needs no order)."""

    def __init__(self, game: Game, max_turns: int | None = None) -> None:
        self.game = game
        self.ruleset = game.ruleset
        self.sides = game.sides
        if max_turns is None:
            max_turns = self.default_max_turns
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise InvalidPosition(
                "max_turns must be a whole number of turns, 1 or more, not {value} ({type})",
                code="bad-max-turns", **described(max_turns),
            )  # fmt: skip
        self.max_turns = max_turns
        self._initial: Node | None = None
        self._players: dict[str | None, int] = {CHANCE: CHANCE_PLAYER}
        self._players.update((side, i) for i, side in enumerate(self.sides))

    # -- what each game defines ------------------------------------------------------------

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """The most actions (chance outcomes included) a game can take under ``max_turns``."""

    @abstractmethod
    def _legal(self, node: Node) -> tuple[list[int], Any]:
        """The legal actions of a decision node, ascending (unless ``legal_sorted`` is false),
        and whatever the encoding keeps to play them (``node.cache``); computed once per
        node."""

    @abstractmethod
    def _what(self, node: Node, action: int) -> Any:
        """What ``action`` plays at a decision node (``MISSING`` when it is not legal)."""

    @abstractmethod
    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        """The node after a legal decision ``action`` (``what`` it plays, from ``_what``)."""

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

    def _kept(self, state: State) -> State:
        """``state`` as the history keeps it: itself by default; a game whose states cache
        much (their legal moves) keeps an equal state without those caches."""
        return state

    def _resets_history(self, before: State, after: State) -> bool:
        """True when no position before ``after`` can occur again (an irreversible move)."""
        return False

    def chance_outcomes(self, node: Node) -> list[tuple[int, float]]:
        """``(outcome, probability)`` at a chance node, outcomes ascending."""
        return []

    def chance_table(self, node: Node) -> tuple[Sequence[int], Sequence[float]]:
        """The outcomes of a chance node (ascending) and their cumulative probabilities, the
        last one 1: outcome ``i`` is drawn for a uniform ``u`` in [0, 1) when ``u`` is below
        the ``i``-th sum and not below the one before (``bisect_right``)."""
        outcomes = self.chance_outcomes(node)
        return [o for o, _ in outcomes], _cumulative([p for _, p in outcomes])

    def _apply_chance(self, node: Node, outcome: int) -> Node:
        raise IllegalMove("{game} has no chance nodes", code="no-chance-nodes", game=self.name)

    def chance_text(self, node: Node, outcome: int) -> str:
        """A chance outcome in notation."""
        raise IllegalMove("{game} has no chance nodes", code="no-chance-nodes", game=self.name)

    # -- the shared machinery --------------------------------------------------------------

    def initial(self) -> Node:
        """The node at the start of a game (one node, shared: nodes never change)."""
        node = self._initial
        if node is None:
            node = self._initial = self.node_at(self._start())
        return node

    def _start(self) -> State:
        """The engine's state at the start of a game (a game with options overrides it)."""
        return self.game.start()

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # a fixed encoding: copies (an OpenSpiel clone's) share it

    def __copy__(self) -> Encoding:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.name, self.ruleset, self.max_turns, *self._options()))

    def _options(self) -> tuple[Any, ...]:
        """The encoding's options after the turn limit, as ``encoding()`` takes them."""
        return ()

    def node_at(self, position: State | str) -> Node:
        """The node at a position (a state of this game, or a position string), as the start of
        a game: no turn played, no position seen before. Raises ``InvalidPosition`` for a bad
        position string."""
        state = self.game.parse_position(position) if isinstance(position, str) else position
        if state.game is not self.game:
            raise InvalidPosition(
                "{state} is not a position of {game}",
                code="position-of-another-game",
                state=repr(state),
                game=repr(self.game),
            )
        if self.repetition is None:
            return self._node(state, 0, (), None)
        return self._node(state, 0, (hash(state),), (self._kept(state), 1, None))

    def legal_actions(self, node: Node) -> list[int]:
        """The legal actions of a decision node, ascending (none at chance and terminal nodes)."""
        legal = node.legal
        if legal is None:
            legal = self._legal_of(node)
        return legal[:] if self.legal_sorted else sorted(legal)

    def _legal_of(self, node: Node) -> list[int]:
        """``node.legal``, computed and kept on first use (with ``node.cache``)."""
        if node.player < 0:
            node.legal = []
            return node.legal
        legal, node.cache = self._legal(node)
        node.legal = legal
        return legal

    def action_mask(self, node: Node) -> npt.NDArray[np.int8]:
        """1 for each legal action, 0 elsewhere (all 0 at chance and terminal nodes)."""
        legal = node.legal
        if legal is None:
            legal = self._legal_of(node)
        if fast.CORE is None and len(legal) > 48:  # many actions, no compiled helper: NumPy
            mask = np.zeros(self.num_actions, np.int8)
            mask[legal] = 1
            return mask
        return np.frombuffer(fast.mask(legal, self.num_actions), INT8)

    def what(self, node: Node, action: int) -> Any:
        """What a legal ``action`` plays at ``node`` (``MISSING`` when it is not legal)."""
        if node.player < 0 or type(action) is not int:
            return MISSING
        return self._what(node, action)

    def choices(self, node: Node) -> tuple[list[int], list[Any]]:
        """The legal actions of a decision node (ascending) and what each plays, in the same
        order; both empty at chance and terminal nodes."""
        actions = self.legal_actions(node)
        return actions, [self._what(node, a) for a in actions]

    def legal(self, node: Node) -> dict[int, Any]:
        """The legal actions of a decision node, each with what it plays."""
        actions, whats = self.choices(node)
        return dict(zip(actions, whats, strict=True))

    def apply(self, node: Node, action: int) -> Node:
        """The node after ``action`` (a chance outcome at a chance node). Raises ``IllegalMove``
        when it is not legal there."""
        if type(action) is not int:
            action = _as_action(action)
        if node.player >= 0:
            what = self._what(node, action)
            if what is not MISSING:
                return self._apply_decision(node, action, what)
        elif node.player == CHANCE_PLAYER:
            return self._apply_chance(node, action)
        raise self._illegal(node, action)

    def _illegal(self, node: Node, action: object) -> IllegalMove:
        """The error for an action that is not legal at ``node``."""
        outcome = node.outcome
        if outcome is not None and outcome.winner is not None:
            return IllegalMove(
                "the game is over ({winner} won: {reason})",
                code="game-over",
                winner=outcome.winner,
                reason=outcome.reason,
            )
        if outcome is not None and outcome.reason != UNFINISHED:
            return IllegalMove(
                "the game is over (draw: {reason})", code="game-drawn", reason=outcome.reason
            )
        if outcome is not None:
            return IllegalMove("the game is over (unfinished)", code="game-unfinished")
        return IllegalMove(
            "action {action} is not legal here", code="illegal-action", action=repr(action)
        )

    def observation(self, node: Node, player: int) -> Observation:
        """A new observation array of ``node`` for ``player``."""
        out = np.zeros(self.observation_shape, FLOAT32)
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

    def _node(self, state: State, turns: int, seen: tuple[int, ...], history: History) -> Node:
        outcome = state.outcome()
        if outcome is not None:
            following = self._next_game(state)
            if following is not None:  # the episode goes on (a match's next game)
                state, outcome = following, following.outcome()
                seen, history = (), None
        if outcome is None:
            repetition = self.repetition
            if repetition is not None and history is not None and history[1] >= repetition:
                outcome = Outcome(None, REPETITION)
            elif turns >= self.max_turns:
                rule = self.turn_limit_is_rule
                outcome = Outcome(None, TURN_LIMIT if rule else UNFINISHED)
                return Node(state, None, turns, seen, history, outcome, not rule, TERMINAL_PLAYER)
            else:
                player = self._players[state.to_move]
                pending = self._begin(state) if self.has_pending and player >= 0 else None
                return Node(state, pending, turns, seen, history, None, False, player)
        return Node(state, None, turns, seen, history, outcome, False, TERMINAL_PLAYER)

    def _turn_done(self, node: Node, state: State) -> Node:
        """The node after a whole turn (an engine move) that ends at ``state``."""
        if self.repetition is None:
            return self._node(state, node.turns + 1, (), None)
        h = hash(state)
        kept = self._kept(state)
        if self._resets_history(node.state, state):
            return self._node(state, node.turns + 1, (h,), (kept, 1, None))
        seen = node.seen
        return self._node(state, node.turns + 1, (*seen, h), push(seen, node.history, kept, h))

    def _mid_turn(self, node: Node, pending: Any) -> Node:
        """The node of the same side, same state, with more of the turn chosen."""
        return Node(
            node.state, pending, node.turns, node.seen, node.history, None, False, node.player
        )

    def _after_chance(self, node: Node, state: State) -> Node:
        """The node after a chance outcome (no turn is played)."""
        return self._node(state, node.turns, node.seen, node.history)

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


def _rebuild(name: str, ruleset: str, max_turns: int, *options: Any) -> Encoding:
    """An encoding unpickled: the same game, ruleset, turn limit and options."""
    from . import encoding

    return encoding(name, ruleset, max_turns, *options)


def _as_action(value: object) -> int:
    """An action given as another kind of integer (a NumPy one); ``IllegalMove`` otherwise."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise InvalidMove(
            "an action is an integer, not {action}", code="action-not-integer", action=repr(value)
        )
    return int(value.__index__())


def _cumulative(probabilities: Sequence[float]) -> list[float]:
    """Running sums of ``probabilities``, the last one set to 1 (rounding aside)."""
    out = []
    total = 0.0
    for p in probabilities:
        total += p
        out.append(total)
    if out:
        out[-1] = 1.0
    return out


def _words(outcome: Outcome) -> str:
    if outcome.winner is None:
        return f"draw: {outcome.reason}" if outcome.reason != UNFINISHED else "unfinished"
    return f"{outcome.winner} won: {outcome.reason}"
