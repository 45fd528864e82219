"""Defiance and Domain for the frameworks: a turn is two decisions of the same side.

A whole turn (an action, then a Command move or none) is thousands of possibilities, so the
side to move decides in two steps, as the engine's factored view (``state.legal_actions()``,
``state.after_action(action)``) splits a turn: first the action (place or rotate a counter),
then, on a board where that action and its captures are done, the Command move or none. An
action that wins ends the game at once (no second decision).

On an ``N`` × ``N`` board (10 or 8): cell ``C(i, j)`` is ``j * N + i`` (``a1`` = 0); point
``P(x, y)`` is ``y * (N + 1) + x``; directions ``d`` are ``N NE E SE S SW W NW`` (0–7, N = +j).

Actions (fixed for every version; ``A = 8 N²``):

- place a counter in cell ``c`` facing ``d``: ``c * 8 + d`` (0 … A − 1);
- rotate the counter in cell ``c`` to face ``d``: ``A + c * 8 + d``;
- move a Command from point ``p`` one step in direction ``d``: ``2A + p * 8 + d``;
- no Command move: ``2A + 8 (N + 1)²``, the last action.

So 2,569 actions on 10 × 10 and 1,673 on 8 × 8. The first decision offers only places and
rotations, the second only Command moves and "none".

Observation ``[plane, y, x]`` (float32, 0–1) of shape (26, N + 1, N + 1): cells use ``y = j,
x = i`` (the last row and column stay 0), points ``y, x`` as their coordinates. During the second
decision the board is the one after the action and its captures. Planes: 0–7 Rebel counters
facing N … NW; 8–15 Imperial counters facing N … NW; 16 the Rebel Command; 17 the Imperial
Commands (0.5 each: on 8 × 8 both start on one point); 18, 19 the Rebel and Imperial pools over
the pool size (whole planes); 20 the Rebels to move; 21 the observer plays the Rebels; 22 the
Command move is being chosen; 23 the cell of the action just made (second decision only); 24 how
many times the position occurred before, over 2; 25 turns played over the turn limit.

Ends: the rules', a draw by threefold repetition, and a draw after ``max_turns`` turns (the
contract's turn limit, 400 by default). A game has at most ``2 * max_turns`` actions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..core import Game
from ..games.defiance import Turn
from .base import MISSING, Encoding, Node, Observation

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (dx, dy)
PLANES = 26
_ACTION_RE = re.compile(r"([a-z]\d+)([>@])([A-Z]+)")
_CELL_RE = re.compile(r"([a-z])(\d+)")
_POINT_RE = re.compile(r"P(\d+)\.(\d+)-P(\d+)\.(\d+)")


def sizes(n: int) -> tuple[int, int, int]:
    """(first rotation action, first Command move action, the "none" action) on an ``n`` board."""
    a = 8 * n * n
    return a, 2 * a, 2 * a + 8 * (n + 1) * (n + 1)


def _cell_xy(name: str) -> tuple[int, int]:
    m = _CELL_RE.fullmatch(name)
    assert m is not None, name
    return ord(m[1]) - ord("a"), int(m[2]) - 1


class DefianceEncoding(Encoding):
    """Defiance and Domain, either board (see the module docstring)."""

    name = "defiance"
    repetition = 3
    turn_limit_is_rule = True

    def __init__(self, game: Game, max_turns: int | None = None) -> None:
        self.default_max_turns = int(getattr(game, "turn_limit", 400))
        super().__init__(game, max_turns)
        n = self.n = int(game.ruleset.split("x")[0])
        self.rotate_base, self.command_base, self.none = sizes(n)
        self.num_actions = self.none + 1
        self.observation_shape = (PLANES, n + 1, n + 1)
        self.pool_size = int(getattr(game, "pool_size", 40))
        self._actions: dict[Any, int] = {}
        self._commands: dict[Any, int] = {}
        self._cells: dict[str, tuple[int, int]] = {}
        self._points: dict[str, tuple[int, int]] = {}

    @property
    def max_game_length(self) -> int:
        return 2 * self.max_turns

    # -- actions ---------------------------------------------------------------------------

    def action_id(self, action: Any) -> int:
        """The number of an engine action (the first part of a turn)."""
        number = self._actions.get(action)
        if number is None:
            text = str(Turn(action, None, self.n))
            m = _ACTION_RE.fullmatch(text)
            assert m is not None, text
            cell, kind, direction = m.groups()
            x, y = _cell_xy(cell)
            number = (y * self.n + x) * 8 + DIRECTIONS.index(direction)
            if kind == "@":
                number += self.rotate_base
            self._actions[action] = number
        return number

    def command_id(self, action: Any, command: Any) -> int:
        """The number of a Command move (``None``: no Command move) made after ``action``."""
        if command is None:
            return self.none
        number = self._commands.get(command)
        if number is None:
            text = str(Turn(action, command, self.n)).split(";")[1]
            m = _POINT_RE.fullmatch(text)
            assert m is not None, text
            x0, y0, x1, y1 = (int(v) for v in m.groups())
            d = _VECTORS.index((x1 - x0, y1 - y0))
            number = self.command_base + (y0 * (self.n + 1) + x0) * 8 + d
            self._commands[command] = number
        return number

    def action_words(self, action: int) -> str:
        """An action in words, whatever the position: ``e5>N``, ``c4@W``, ``P2.2 NE``, ``none``."""
        n = self.n
        if action == self.none:
            return "no Command move"
        if not 0 <= action < self.none:
            return f"no action {action}"
        if action >= self.command_base:
            p, d = divmod(action - self.command_base, 8)
            y, x = divmod(p, n + 1)
            return f"Command P{x}.{y} {DIRECTIONS[d]}"
        kind = ">"
        if action >= self.rotate_base:
            action -= self.rotate_base
            kind = "@"
        c, d = divmod(action, 8)
        j, i = divmod(c, n)
        return f"{chr(ord('a') + i)}{j + 1}{kind}{DIRECTIONS[d]}"

    def _legal(self, node: Node) -> tuple[list[int], Sequence[Any]]:
        view = node.pending
        if view is None:
            actions = node.state.legal_actions()  # type: ignore[attr-defined]
            try:
                return list(map(self._actions.__getitem__, actions)), actions
            except KeyError:
                return [self.action_id(a) for a in actions], actions
        commands = [c for c, _ in view.command_moves]
        numbers = [self.command_id(view.action, c) for c in commands]
        return [*numbers, self.none], [*commands, None]

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        state: Any = node.state
        view = node.pending
        if view is None:
            view = state.after_action(what)
            if view.outcome is not None:  # the action wins: no Command move
                return self._turn_done(node, state.play(Turn(what, None, self.n)))
            return self._mid_turn(node, view)
        return self._turn_done(node, state.play(Turn(view.action, what, self.n)))

    def action_text(self, node: Node, action: int) -> str:
        what = self.what(node, action)
        if what is MISSING:
            return self.action_words(action)
        if node.pending is None:
            return str(Turn(what, None, self.n))
        if action == self.none:
            return "no Command move"
        return str(Turn(node.pending.action, what, self.n)).split(";")[1]

    def _pending_text(self, node: Node) -> str:
        view = node.pending
        text = f"action {Turn(view.action, None, self.n)}"
        if view.captured:
            text += f" capturing {' '.join(view.captured)}"
        return text + "; the Command move next"

    # -- observations ----------------------------------------------------------------------

    def _cell(self, name: str) -> tuple[int, int]:
        yx = self._cells.get(name)
        if yx is None:
            x, y = _cell_xy(name)
            yx = self._cells[name] = (y, x)
        return yx

    def _point(self, name: str) -> tuple[int, int]:
        yx = self._points.get(name)
        if yx is None:
            x, y = (int(v) for v in name[1:].split("."))
            yx = self._points[name] = (y, x)
        return yx

    def board(self, node: Node) -> tuple[dict[str, tuple[str, str]], dict[str, int], str | None]:
        """The counters (as ``state.counters()``) and pools now, during the second decision
        after the action and its captures; and the cell of that action (else ``None``)."""
        state: Any = node.state
        counters = state.counters()
        pools = state.pools
        view = node.pending
        if view is None:
            return counters, pools, None
        rebels, imperium = self.sides
        mover = state.to_move
        text = str(Turn(view.action, None, self.n))
        m = _ACTION_RE.fullmatch(text)
        assert m is not None, text
        cell, kind, direction = m.groups()
        counters = dict(counters)
        counters[cell] = (mover, direction)
        pools = dict(pools)
        if kind == ">":
            pools[mover] -= 1
        for name in view.captured:
            del counters[name]
        pools[imperium if mover == rebels else rebels] += len(view.captured)
        return counters, pools, cell

    def position_now(self, node: Node) -> str:
        """The position string of the board now (during the second decision: after the action,
        the same side still to move)."""
        state: Any = node.state
        if node.pending is None:
            return str(state.position())
        counters, pools, _ = self.board(node)
        rows = []
        for j in range(self.n - 1, -1, -1):
            row, empty = "", 0
            for i in range(self.n):
                counter = counters.get(f"{chr(ord('a') + i)}{j + 1}")
                if counter is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + "RI"[counter[0] != self.sides[0]]
                row += counter[1]
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        rebels, imperium = self.sides
        commands = ",".join(
            [f"R{state.rebel_command[1:]}"] + [f"I{p[1:]}" for p in state.imperial_commands]
        )
        side = "r" if state.to_move == rebels else "i"
        return f"{'/'.join(rows)} r{pools[rebels]},i{pools[imperium]} {commands} {side}"

    def observe(self, node: Node, player: int, out: Observation) -> None:
        state: Any = node.state
        rebels, imperium = self.sides
        counters, pools, cell = self.board(node)
        if cell is not None:
            y, x = self._cell(cell)
            out[22] = 1.0
            out[23, y, x] = 1.0
        for name, (side, direction) in counters.items():
            y, x = self._cell(name)
            out[DIRECTIONS.index(direction) + (0 if side == rebels else 8), y, x] = 1.0
        y, x = self._point(state.rebel_command)
        out[16, y, x] = 1.0
        for name in state.imperial_commands:
            y, x = self._point(name)
            out[17, y, x] += 0.5
        out[18] = pools[rebels] / self.pool_size
        out[19] = pools[imperium] / self.pool_size
        if state.side == rebels:
            out[20] = 1.0
        if player == 0:
            out[21] = 1.0
        if self.repetition:
            out[24] = node.repetitions() / (self.repetition - 1)
        out[25] = min(1.0, node.turns / self.max_turns)

    # -- whole turns -----------------------------------------------------------------------

    def turn_plans(self, node: Node) -> dict[Any, list[int]]:
        if node.player < 0:
            return {}
        state: Any = node.state
        view = node.pending
        if view is not None:
            plans = {
                Turn(view.action, c, self.n): [self.command_id(view.action, c)]
                for c, _ in view.command_moves
            }
            plans[Turn(view.action, None, self.n)] = [self.none]
            return plans
        turns = state.legal_moves()
        followed = {t.action for t in turns if t.command is not None}
        out: dict[Any, list[int]] = {}
        for t in turns:
            first = self.action_id(t.action)
            if t.command is not None:
                out[t] = [first, self.command_id(t.action, t.command)]
            elif t.action in followed or state.after_action(t.action).outcome is None:
                out[t] = [first, self.none]
            else:
                out[t] = [first]  # a winning action ends the game
        return out
