"""Le Général et les rebelles for the frameworks: 1,305 actions, observations of shape (8, 7, 5).

The board on a grid. The 29 points sit on a grid of 7 rows and 5 columns: column ``x`` is the
letter (``a`` = 0 … ``e`` = 4), row ``y`` the number minus one (``a1`` = (0, 0)); the sanctuary
sits above the square: ``s1`` = (1, 5), ``s2`` = (2, 5), ``s3`` = (3, 5), ``s4`` = (2, 6). Every
line of the board then joins grid neighbours, so every step has a compass direction ``N NE E SE
S SW W NW`` (N: up a row, E: right a column), and a capture's two rebels lie on one of four
orientations through the landing point: 1 ``N–S``, 2 ``NE–SW``, 3 ``E–W``, 4 ``SE–NW``
(0: no capture).

Points are numbered in alphabetical order of their names: ``a1`` = 0, ``a2`` = 1 … ``e5`` = 24,
``s1`` = 25 … ``s4`` = 28.

Actions (fixed for every version):

- a step from point ``p`` in direction ``d`` (0–7 from N clockwise) capturing on orientation
  ``c`` (0–4): ``(p * 8 + d) * 5 + c``, 0 … 1159;
- the general's flight (the step onto ``s4`` while it is unused; he is on the one point next to
  it) landing on point ``q`` and capturing on orientation ``c``: ``1160 + q * 5 + c``,
  1160 … 1304.

Observation ``[plane, y, x]`` (float32, 0–1), the same board for both players:
0 rebels; 1 the general; 2 the 29 points of the board; 3 the flight still available (whole
plane); 4 the rebels to move (whole plane); 5 the observer plays the rebels (whole plane); 6 how
many times the position occurred before, over 2 (threefold repetition is a draw); 7 turns played
over the turn limit.

Ends: the rules', a draw by threefold repetition, and the frameworks' turn limit (``max_turns``
moves, 1,000 by default: no result, "unfinished"; the rules have none).

The step works on positions packed in one integer (``key_of``): the compiled helper
(``_cenvs.c``) plays an action, lists the next position's legal actions and keeps the positions
since the last capture or flight in one call, from tables of the engine's own moves; the
engine state is built only when something asks for it (``GeneralNode``). ``step_py``,
``legal_py`` and ``observe_py`` do the same through the engine: the references, and the
fallback without the helper.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core import IllegalMove, InvalidPosition, Outcome, State
from ..games.general.board import GATES_MASK, NAMES, S4, SANCTUARY_MASK
from ..games.general.moves import FLIGHTS, GENERAL_STEPS, REBEL_MOVE, REBEL_STEPS
from ..games.general.rules import GeneralState
from . import fast
from .base import (
    FLOAT32,
    MISSING,
    REPETITION,
    TERMINAL_PLAYER,
    UNFINISHED,
    Encoding,
    Node,
    Observation,
    _as_action,
)

POINTS = (*(f"{c}{r}" for c in "abcde" for r in range(1, 6)), "s1", "s2", "s3", "s4")
"""The 29 points in action order (alphabetical)."""
POINT_INDEX = {name: i for i, name in enumerate(POINTS)}
assert POINTS == NAMES  # the engine numbers its points in the same order
GRID: dict[str, tuple[int, int]] = {
    f"{c}{r}": (r - 1, x) for x, c in enumerate("abcde") for r in range(1, 6)
}
GRID.update({"s1": (5, 1), "s2": (5, 2), "s3": (5, 3), "s4": (6, 2)})
"""Each point's ``(y, x)`` on the 7 × 5 grid."""
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_VECTORS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # (dy, dx)
_AREA = 7 * 5
_FLAT = {name: y * 5 + x for name, (y, x) in GRID.items()}
_BOARD = np.zeros((7, 5), np.float32)
_BOARD[tuple(zip(*GRID.values(), strict=True))] = 1.0
_FLAT_OF = tuple(_FLAT[name] for name in POINTS)
_CELLS = tuple(
    tuple(
        tuple(_FLAT_OF[8 * k + i] for i in range(8) if byte >> i & 1 and 8 * k + i < len(POINTS))
        for byte in range(256)
    )
    for k in range(4)
)
"""``_CELLS[k][byte]``: the flat cells (``y * 5 + x``) of the points ``8k … 8k + 7`` set in
``byte``: a bitmask of points to cells in four look-ups."""
_TEMPLATES = {
    (flight, rebels, first): np.concatenate(
        [_BOARD.ravel()] + [np.full(_AREA, float(on), np.float32) for on in (flight, rebels, first)]
    )
    for flight in (False, True)
    for rebels in (False, True)
    for first in (False, True)
}
"""Planes 2–5 (the board; the flight available; the rebels to move; the observer plays the
rebels), flat, for each of the eight cases."""
ORIENTATIONS = ("", "N-S", "NE-SW", "E-W", "SE-NW")
STEPS = len(POINTS) * 8 * 5  # 1160
NUM_ACTIONS = STEPS + len(POINTS) * 5  # 1305
SHAPE = (8, 7, 5)


def _direction(src: str, dst: str) -> int:
    (y0, x0), (y1, x1) = GRID[src], GRID[dst]
    return _VECTORS.index((y1 - y0, x1 - x0))


def _orientation(landing: str, pair: tuple[str, str]) -> int:
    (y0, x0), (y1, x1) = GRID[landing], GRID[pair[0]]
    d = _VECTORS.index((y1 - y0, x1 - x0))
    return d % 4 + 1


def action_of(text: str) -> int:
    """The action of a move in notation (``c3-b2xa3c1``, ``s2-s4*c3``), canonical or not."""
    text = text.strip().lower()
    captured: tuple[str, str] | None = None
    if "x" in text:
        text, pair = text.split("x")
        captured = (pair[:2], pair[2:])
    landing = None
    if "*" in text:
        text, landing = text.split("*")
    src, dst = text.split("-")
    end = landing or dst
    c = 0 if captured is None else _orientation(end, captured)
    if landing is not None:
        return STEPS + POINT_INDEX[landing] * 5 + c
    return (POINT_INDEX[src] * 8 + _direction(src, dst)) * 5 + c


def action_words(action: int) -> str:
    """An action in words, whatever the position: ``step c3 SW capturing NE-SW``."""
    if not 0 <= action < NUM_ACTIONS:
        return f"no action {action}"
    if action >= STEPS:
        q, c = divmod(action - STEPS, 5)
        text = f"flight to {POINTS[q]}"
    else:
        pd, c = divmod(action, 5)
        p, d = divmod(pd, 8)
        text = f"step {POINTS[p]} {DIRECTIONS[d]}"
    return text + (f" capturing {ORIENTATIONS[c]}" if c else "")


def _interned() -> tuple[tuple[list[Any], list[Any]], dict[Any, int]]:
    """The engine builds every move once, at its import (``games.general.moves``), and
    ``legal_moves()`` lists those very objects: so each action has its move object per side
    (a rebel's step and the general's step between the same points are two objects; a flight
    has one per point it may start from, by point), and each move its action: tables that turn
    a move list into actions, and an action into the move to play, without reading notation."""
    rebels: list[Any] = [None] * NUM_ACTIONS
    general: list[Any] = [None] * NUM_ACTIONS
    by_value: dict[Any, int] = {}
    moves = [(rebels, m) for row in REBEL_STEPS for _, m in row]
    for row in (*GENERAL_STEPS, *FLIGHTS):
        for _, plain, captures in row:
            moves.append((general, plain))
            moves.extend((general, m) for _, m in captures)
    for table, move in moves:
        action = action_of(str(move))
        by_value[move] = action
        if action >= STEPS:  # a flight: by the point it starts from
            if table[action] is None:
                table[action] = {}
            table[action][move.src] = move
        else:
            table[action] = move
    return (rebels, general), by_value


_MOVES, _BY_VALUE = _interned()
"""The move objects of each action (rebels', general's), and each move's action (the rebels'
and the general's steps between two points are equal values: the same action)."""


# -- positions packed in one integer, and the whole step on them ------------------------------

REBELS_MASK = (1 << 29) - 1
GENERAL_SHIFT = 29
SIDE_BIT = 34
FLIGHT_BIT = 35
LAST_REBELS = 4
"""The game ends when this many rebels remain (twelve captured)."""
REPETITIONS = 3
"""A position seen this many times is a draw."""
_BYTES = sys.byteorder


_make_state = GeneralState.from_parts
"""The engine's unchecked constructor: a state from its parts (``GeneralState.parts``)."""


def key_of(state: State) -> int:
    """A position packed in one integer, distinct for distinct positions: the rebels in bits
    0–28 (by point number), the general's point from bit 29, the side to move in bit 34 (1:
    the general), the flight still available in bit 35."""
    general, rebels, side, flight = state.parts  # type: ignore[attr-defined]
    return int(rebels | general << GENERAL_SHIFT | side << SIDE_BIT | int(flight) << FLIGHT_BIT)


def state_of(key: int) -> GeneralState:
    """The engine state of a packed position (``key_of``'s inverse)."""
    return _make_state(
        key >> GENERAL_SHIFT & 31, key & REBELS_MASK, key >> SIDE_BIT & 1, bool(key >> FLIGHT_BIT)
    )


def pack(keys: Sequence[int]) -> bytes:
    """Packed positions as the node keeps them: 8 bytes each, native order."""
    return b"".join(k.to_bytes(8, _BYTES) for k in keys)


def unpack(keys: bytes) -> list[int]:
    """``pack``'s inverse."""
    return memoryview(keys).cast("Q").tolist()


def legal_py(key: int) -> list[int]:
    """The legal actions of a packed position, ascending (none when the game is over): the
    engine's moves by their actions (the reference of the compiled ``general_legal``)."""
    return sorted(map(_BY_VALUE.__getitem__, state_of(key).legal_moves()))


def _legal_of(state: GeneralState) -> list[int]:
    return sorted(map(_BY_VALUE.__getitem__, state.legal_moves()))


_last: tuple[int, GeneralState] = (-1, _make_state(0, 0, 0, False))
"""The last position ``step_py`` reached and its state, whose legal moves it listed: the next
step from there plays on it (a general's move is checked against that list) instead of a
fresh state (states are values: the same position, the same answers)."""


def step_py(key: int, action: int, keys: bytes) -> tuple[int, list[int], bytes, int] | None:
    """The whole step (the reference of the compiled ``general_step``), through the engine:
    the next position after ``action`` at position ``key``, its legal actions (``legal_py``),
    the positions since the last irreversible move (``keys``, packed, with the next one added,
    or only the next one after a capture or the flight) and how many times the next position
    occurs in them; ``None`` when ``action`` is not legal at ``key``."""
    if not 0 <= action < NUM_ACTIONS:
        return None
    move = _MOVES[key >> SIDE_BIT & 1][action]
    if action >= STEPS and move is not None:  # a flight, from where the general stands
        move = move.get(key >> GENERAL_SHIFT & 31)
    if move is None:
        return None
    global _last
    last_key, state = _last
    if last_key != key:
        state = state_of(key)
    try:
        after = state.play(move)
    except IllegalMove:
        return None
    following = key_of(after)
    _last = (following, after)
    packed = following.to_bytes(8, _BYTES)
    if action >= STEPS or action % 5:  # the flight or a capture: no earlier position can recur
        return following, _legal_of(after), packed, 1
    count = unpack(keys).count(following) + 1 if packed in keys else 1
    return following, _legal_of(after), keys + packed, count


def observe_py(out: Observation, key: int, player: int, count: int, turns: int, limit: int) -> None:
    """Write every number of the observation (see the module docstring) of packed position
    ``key`` for ``player`` into ``out``: the position occurred ``count`` times, ``turns`` of
    the ``limit`` were played (the reference of the compiled ``general_observe``)."""
    rebels = key & REBELS_MASK
    flat = out.reshape(-1)  # a view: plane p, row y, column x is p * 35 + y * 5 + x
    flat[: _AREA * 2] = 0.0
    # planes 2–5 from one of eight templates, then the pieces at once
    flat[_AREA * 2 : _AREA * 6] = _TEMPLATES[
        bool(key >> FLIGHT_BIT), not key >> SIDE_BIT & 1, player == 0
    ]
    flat[
        [
            *_CELLS[0][rebels & 255],
            *_CELLS[1][rebels >> 8 & 255],
            *_CELLS[2][rebels >> 16 & 255],
            *_CELLS[3][rebels >> 24],
            _AREA + _FLAT_OF[key >> GENERAL_SHIFT & 31],
        ]
    ] = 1.0
    flat[_AREA * 6 : _AREA * 7] = (count - 1) / 2
    flat[_AREA * 7 :] = min(1.0, turns / limit)


legal_at: Callable[[int], list[int]] = legal_py
"""The legal actions of a packed position: the compiled helper's, else ``legal_py``."""
step: Callable[[int, int, bytes], tuple[int, list[int], bytes, int] | None] = step_py
"""The whole step on packed positions: the compiled helper's, else ``step_py``."""
write_observation: Callable[[Observation, int, int, int, int, int], None] = observe_py
"""The observation of a packed position: the compiled helper's, else ``observe_py``."""

if fast.CORE is not None:

    def _by_action(row: Any) -> tuple[Any, ...]:
        return tuple(
            (point, _BY_VALUE[plain], tuple((pair, _BY_VALUE[m]) for pair, m in captures))
            for point, plain, captures in row
        )

    fast.CORE.general_setup(
        tuple(tuple(None if m is None else _BY_VALUE[m] for m in row) for row in REBEL_MOVE),
        tuple(map(_by_action, GENERAL_STEPS)),
        tuple(map(_by_action, FLIGHTS)),
        S4,
        SANCTUARY_MASK,
        GATES_MASK,
        LAST_REBELS,
        NUM_ACTIONS,
        _FLAT_OF,
    )
    legal_at = fast.CORE.general_legal
    step = fast.CORE.general_step
    write_observation = fast.CORE.general_observe


class GeneralNode(Node):
    """A node of the General: the position packed in one integer (``key``, see ``key_of``),
    the packed positions since the last irreversible move (``keys``, the current one last; see
    ``pack``) and how many times the current one occurred (``count``). The engine state
    (``state``), the positions' keys as a tuple (``seen``) and their chain (``history``) are
    built from them when first read; the legal actions (``legal``) come with the step."""

    __slots__ = ("count", "key", "keys")

    key: int
    keys: bytes
    count: int

    def __init__(
        self,
        key: int,
        keys: bytes,
        count: int,
        legal: list[int],
        turns: int,
        outcome: Outcome | None,
        truncated: bool,
        player: int,
    ) -> None:
        self.key = key
        self.keys = keys
        self.count = count
        self.legal = legal
        self.turns = turns
        self.outcome = outcome
        self.truncated = truncated
        self.player = player
        self.pending = None
        self.cache = None

    def __getattr__(self, name: str) -> Any:
        # an unset slot: the engine state, the keys or the history, built on first use
        value: Any
        if name == "state":
            value = state_of(self.key)
        elif name == "seen":
            value = tuple(unpack(self.keys))
        elif name == "history":
            value = None
            earlier: list[int] = []
            for key in unpack(self.keys):
                earlier.append(key)
                value = (state_of(key), earlier.count(key), value)
        else:
            raise AttributeError(name)
        setattr(self, name, value)
        return value

    def repetitions(self) -> int:
        return self.count - 1

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.key, self.turns, self.seen, self.outcome, self.truncated, self.player)

    def __setstate__(self, values: tuple[Any, ...]) -> None:
        key, turns, seen, outcome, truncated, player = values
        legal = legal_at(key) if player >= 0 else []
        count = seen.count(key)
        GeneralNode.__init__(self, key, pack(seen), count, legal, turns, outcome, truncated, player)


class GeneralEncoding(Encoding):
    """Le Général et les rebelles (see the module docstring). Its nodes are ``GeneralNode``s:
    a step is one call of ``step`` on packed positions, and the engine state is built only
    when something reads it."""

    name = "general"
    num_actions = NUM_ACTIONS
    observation_shape = SHAPE
    default_max_turns = 1000
    repetition = REPETITIONS
    has_pending = False

    @property
    def max_game_length(self) -> int:
        return self.max_turns

    def action_of(self, move: Any) -> int:
        """The action of an engine move."""
        action = _BY_VALUE.get(move)
        if action is None:  # (every move of the engine is in the table: never, today)
            action = action_of(str(move))
        return action

    def node_at(self, position: State | str) -> Node:
        state = self.game.parse_position(position) if isinstance(position, str) else position
        if state.game is not self.game:
            raise InvalidPosition(
                "{state} is not a position of {game}",
                code="position-of-another-game",
                state=repr(state),
                game=repr(self.game),
            )
        key = key_of(state)
        node = self._node_of(key, pack((key,)), 1, legal_at(key), 0, key >> SIDE_BIT & 1)
        node.state = state
        return node

    def _node_of(
        self, key: int, keys: bytes, count: int, legal: list[int], turns: int, player: int
    ) -> GeneralNode:
        """The node of a position (``player`` to move, unless the game is over there): the
        rules' end (the engine's outcome, no legal action), else a draw by threefold
        repetition, else the frameworks' turn limit (unfinished: truncated)."""
        if legal and count < self.repetition and turns < self.max_turns:
            return GeneralNode(key, keys, count, legal, turns, None, False, player)
        state = state_of(key)
        outcome = state.outcome()
        truncated = False
        if outcome is None:
            if count >= self.repetition:
                outcome = Outcome(None, REPETITION)
            else:
                outcome, truncated = Outcome(None, UNFINISHED), True
        node = GeneralNode(key, keys, count, [], turns, outcome, truncated, TERMINAL_PLAYER)
        node.state = state
        return node

    def _legal(self, node: Node) -> tuple[list[int], Any]:
        return legal_at(node.key), None  # type: ignore[attr-defined]

    def _what(self, node: Node, action: int) -> Any:
        legal = node.legal if node.legal is not None else self._legal_of(node)
        return self._move(node, action) if action in legal else MISSING

    def _move(self, node: Node, action: int) -> Any:
        """The move object of ``action`` for the player to move (``None``: no such move)."""
        move = _MOVES[node.player][action]
        if action >= STEPS and move is not None:  # a flight, from where the general stands
            return move.get(node.key >> GENERAL_SHIFT & 31)  # type: ignore[attr-defined]
        return move

    def apply(self, node: Node, action: int) -> Node:
        """The node after ``action``: one ``step`` on the packed position (no engine state is
        built, no list of legal actions searched)."""
        if type(action) is not int:
            action = _as_action(action)
        here: Any = node
        if here.player >= 0:
            found = step(here.key, action, here.keys)
            if found is not None:
                key, legal, keys, count = found
                turns = here.turns + 1
                if legal and count < REPETITIONS and turns < self.max_turns:
                    return GeneralNode(key, keys, count, legal, turns, None, False, 1 - here.player)
                return self._node_of(key, keys, count, legal, turns, 1 - here.player)
        raise self._illegal(node, action)

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        return self.apply(node, action)

    def observe(self, node: Node, player: int, out: Observation) -> None:
        here: Any = node
        write_observation(out, here.key, player, here.count, here.turns, self.max_turns)

    def observation(self, node: Node, player: int) -> Observation:
        out = np.empty(SHAPE, FLOAT32)  # every number is written
        here: Any = node
        write_observation(out, here.key, player, here.count, here.turns, self.max_turns)
        return out

    def action_text(self, node: Node, action: int) -> str:
        move = self.what(node, action)
        return action_words(action) if move is MISSING else str(move)

    def turn_plans(self, node: Node) -> dict[Any, list[int]]:
        if node.player < 0:
            return {}
        return {move: [self.action_of(move)] for move in node.state.legal_moves()}
