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
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import IllegalMove
from ..games.general.moves import FLIGHTS, GENERAL_STEPS, REBEL_STEPS
from . import fast
from .base import CHANCE_PLAYER, MISSING, Encoding, Node, Observation, _as_action, push

POINTS = (*(f"{c}{r}" for c in "abcde" for r in range(1, 6)), "s1", "s2", "s3", "s4")
"""The 29 points in action order (alphabetical)."""
POINT_INDEX = {name: i for i, name in enumerate(POINTS)}
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


class GeneralEncoding(Encoding):
    """Le Général et les rebelles (see the module docstring)."""

    name = "general"
    num_actions = NUM_ACTIONS
    observation_shape = SHAPE
    default_max_turns = 1000
    repetition = 3
    has_pending = False
    legal_sorted = False

    @property
    def max_game_length(self) -> int:
        return self.max_turns

    def action_of(self, move: Any) -> int:
        """The action of an engine move."""
        action = _BY_VALUE.get(move)
        if action is None:  # (every move of the engine is in the table: never, today)
            action = action_of(str(move))
        return action

    def _legal(self, node: Node) -> tuple[list[int], Any]:
        moves = node.state.legal_moves()
        try:
            return fast.actions(moves, _BY_VALUE), None
        except KeyError:  # moves that are not the engine's (never, today)
            return list(map(self.action_of, moves)), None

    def _what(self, node: Node, action: int) -> Any:
        legal = node.legal if node.legal is not None else self._legal_of(node)
        return self._move(node, action) if action in legal else MISSING

    def _move(self, node: Node, action: int) -> Any:
        """The move object of ``action`` for the player to move (``None``: no such move)."""
        move = _MOVES[node.player][action]
        if action >= STEPS and move is not None:  # a flight, from where the general stands
            return move.get(POINT_INDEX[node.state.general])  # type: ignore[attr-defined]
        return move

    def apply(self, node: Node, action: int) -> Node:
        """The node after ``action``: the action's move is played as it is (the engine checks
        it in a few operations; no list of legal actions is needed)."""
        if type(action) is not int:
            action = _as_action(action)
        player = node.player
        if player >= 0 and 0 <= action < STEPS and not action % 5:  # a step taking nothing
            move = _MOVES[player][action]
            if move is not None:
                try:
                    state: Any = node.state.play(move)
                except IllegalMove:
                    raise self._illegal(node, action) from None
                # (the rest of _played, inline: the commonest step of all)
                h = hash(state)
                turns = node.turns + 1
                if turns < self.max_turns and h not in node.seen and state.outcome() is None:
                    seen = (*node.seen, h)  # a new position: no repetition to look for
                    history = (state, 1, node.history)
                    return Node(state, None, turns, seen, history, None, False, 1 - player)
                return self._played(node, state, action)
        if player >= 0 and 0 <= action < NUM_ACTIONS:
            move = _MOVES[player][action] if action < STEPS else self._move(node, action)
            if move is not None:
                try:
                    state = node.state.play(move)
                except IllegalMove:
                    raise self._illegal(node, action) from None
                return self._played(node, state, action)
        elif player == CHANCE_PLAYER:
            return self._apply_chance(node, action)
        raise self._illegal(node, action)

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        return self._played(node, node.state.play(what), action)

    def _played(self, node: Node, state: Any, action: int) -> Node:
        """The node after the move of ``action`` (``state``): the history of positions grows,
        or starts again after a capture or the flight, which can never be undone."""
        h = hash(state)
        turns = node.turns + 1
        if action >= STEPS or action % 5:
            seen: tuple[int, ...] = (h,)
            history: Any = (state, 1, None)
        else:
            seen = (*node.seen, h)
            history = push(node.seen, node.history, state, h)
            if history[1] >= 3:  # a threefold repetition: the shared ending
                return self._node(state, turns, seen, history)
        if turns < self.max_turns and state.outcome() is None:  # the sides take turns
            return Node(state, None, turns, seen, history, None, False, 1 - node.player)
        return self._node(state, turns, seen, history)

    def observe(self, node: Node, player: int, out: Observation) -> None:
        state: Any = node.state
        flat = out.reshape(-1)  # a view: plane p, row y, column x is p * 35 + y * 5 + x
        # planes 2–5 from one of eight templates, then the pieces at once
        flat[_AREA * 2 : _AREA * 6] = _TEMPLATES[
            state.flight_available, state.side == self.sides[0], player == 0
        ]
        points = list(map(_FLAT.__getitem__, state.rebels))
        points.append(_AREA + _FLAT[state.general])
        flat[points] = 1.0
        if node.history is not None and node.history[1] > 1:
            out[6] = node.repetitions() / 2
        if node.turns:
            out[7] = min(1.0, node.turns / self.max_turns)

    def action_text(self, node: Node, action: int) -> str:
        move = self.what(node, action)
        return action_words(action) if move is MISSING else str(move)

    def turn_plans(self, node: Node) -> dict[Any, list[int]]:
        if node.player < 0:
            return {}
        return {move: [self.action_of(move)] for move in node.state.legal_moves()}
