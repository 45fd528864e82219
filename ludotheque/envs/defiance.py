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
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..core import Game, State
from ..games.defiance import Action, CommandMove, DefianceState, Turn
from ..games.defiance.moves import PLACE, ROTATE
from ..games.defiance.turns import Turns
from . import fast
from .base import FLOAT32, INT8, MISSING, Encoding, Node, Observation, _as_action

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # (dx, dy)
PLANES = 26
_ACTION_RE = re.compile(r"([a-z]\d+)([>@])([A-Z]+)")
_CELL_RE = re.compile(r"([a-z])(\d+)")
_NONE, _ONE = bytes(8), b"\x01" * 8
_TURNED = tuple(bytes(int(d != f) for d in range(8)) for f in range(8))
"""A cell's eight bytes of the mask: no action, every direction, every direction but one."""


def sizes(n: int) -> tuple[int, int, int]:
    """(first rotation action, first Command move action, the "none" action) on an ``n`` board."""
    a = 8 * n * n
    return a, 2 * a, 2 * a + 8 * (n + 1) * (n + 1)


class Chosen(NamedTuple):
    """The first decision of a turn made (``node.pending`` during the second): the action, and
    the Command moves that may follow it."""

    action: Action
    options: tuple[CommandMove, ...]


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
        self._cells: dict[str, tuple[int, int]] = {}
        self._points: dict[str, tuple[int, int]] = {}
        # the tables of the numbers: an engine cell ``c`` is ``j * n + i``, as here
        cells = range(n * n)
        rb = self.rotate_base
        self._place_numbers = tuple(tuple(range(8 * c, 8 * c + 8)) for c in cells)
        self._rotate_numbers = tuple(
            tuple(tuple(rb + 8 * c + d for d in range(8) if d != f) for f in range(8))
            for c in cells
        )
        self._action_of: list[Action] = [Action(PLACE, c, d) for c in cells for d in range(8)]
        self._action_of += [Action(ROTATE, c, d) for c in cells for d in range(8)]
        self._commands: dict[Any, int] = {}
        self._command_of: list[CommandMove | None] = []
        m = n + 1
        for p in range(m * m):
            x, y = p % m, p // m
            for dx, dy in _VECTORS:
                if 0 <= x + dx <= n and 0 <= y + dy <= n:
                    move = CommandMove(p, (y + dy) * m + x + dx)
                    self._commands[move] = self.command_base + len(self._command_of)
                    self._command_of.append(move)
                else:
                    self._command_of.append(None)
        self._bytes = (n * n + 7) // 8
        self._chunks = [_NONE] * (2 * n * n) + [bytes(self.num_actions - self.command_base)]

    @property
    def max_game_length(self) -> int:
        return 2 * self.max_turns

    def _kept(self, state: State) -> State:
        """The position as the history keeps it: a state equal to ``state`` without the
        engine's caches (its legal turns and their Command moves, the board after an action:
        a hundred objects and more a position), which the positions of a long game would
        otherwise keep alive (for the collector to walk through at every step)."""
        s: Any = state
        return DefianceState.from_parts(*s.parts)

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
        return self._commands[command]

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

    def _legal(self, node: Node) -> tuple[list[int], Any]:
        chosen = node.pending
        if chosen is not None:
            commands = self._commands
            numbers = sorted([commands[c] for c in chosen.options])
            numbers.append(self.none)
            return numbers, None
        turns = node.state.legal_moves()
        if not isinstance(turns, Turns):  # (the engine lists its turns lazily, as Turns)
            return sorted(self.action_id(a) for a in node.state.legal_actions()), None  # type: ignore[attr-defined]
        # the numbers of a cell's actions, joined cell by cell: ascending as they come
        out: list[int] = []
        extend = out.extend
        places, rotations = self._place_numbers, self._rotate_numbers
        for c in turns.places:
            extend(places[c])
        for c, facing in turns.own:
            extend(rotations[c][facing])
        return out, None

    def action_mask(self, node: Node) -> npt.NDArray[np.int8]:
        if node.player < 0 or node.pending is not None:
            return super().action_mask(node)
        turns = node.state.legal_moves()
        if not isinstance(turns, Turns):
            return super().action_mask(node)
        # the mask's bytes cell by cell, eight actions (directions) a cell: all eight where
        # the mover may place, all but the way it faces for each counter of the mover's
        chunks = self._chunks[:]
        one = _ONE
        for c in turns.places:
            chunks[c] = one
        cells = self.n * self.n
        turned = _TURNED
        for c, facing in turns.own:
            chunks[cells + c] = turned[facing]
        return np.frombuffer(bytearray(b"".join(chunks)), INT8)

    def _what(self, node: Node, action: int) -> Any:
        chosen = node.pending
        if chosen is None:
            if not 0 <= action < self.command_base:
                return MISSING
            what = self._action_of[action]
            turns = node.state.legal_moves()
            if isinstance(turns, Turns):
                return what if turns.action_index(what) >= 0 else MISSING
            return what if what in node.state.legal_actions() else MISSING  # type: ignore[attr-defined]
        if action == self.none:
            return None
        if self.command_base <= action < self.none:
            command = self._command_of[action - self.command_base]
            if command is not None and command in chosen.options:
                return command
        return MISSING

    def apply(self, node: Node, action: int) -> Node:
        """The node after ``action``: an action's number is looked up among the position's
        turns (their lazy sequence knows its actions and the Command moves after each), a
        Command move's among the moves that may follow; the whole turn is then played as one
        of the listed turns."""
        if type(action) is not int:
            action = _as_action(action)
        if node.player >= 0:
            chosen = node.pending
            state: Any = node.state
            if chosen is None:
                if 0 <= action < self.command_base:
                    what = self._action_of[action]
                    turns = state.legal_moves()
                    if isinstance(turns, Turns):
                        k = turns.action_index(what)
                        if k >= 0:
                            if turns.wins(k):  # the action wins: no Command move
                                return self._turn_done(node, state.play(Turn(what, None, self.n)))
                            return self._mid_turn(node, Chosen(what, turns.options(k)))
                    elif self._what(node, action) is not MISSING:
                        return self._apply_decision(node, action, what)
            elif action == self.none:
                return self._turn_done(node, state.play(Turn(chosen.action, None, self.n)))
            elif self.command_base <= action < self.none:
                command = self._command_of[action - self.command_base]
                if command is not None and command in chosen.options:
                    return self._turn_done(node, state.play(Turn(chosen.action, command, self.n)))
        raise self._illegal(node, action)

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        state: Any = node.state
        chosen = node.pending
        if chosen is None:
            view = state.after_action(what)
            if view.outcome is not None:  # the action wins: no Command move
                return self._turn_done(node, state.play(Turn(what, None, self.n)))
            return self._mid_turn(node, Chosen(what, tuple(c for c, _ in view.command_moves)))
        return self._turn_done(node, state.play(Turn(chosen.action, what, self.n)))

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
        action = node.pending.action
        text = f"action {Turn(action, None, self.n)}"
        captured = node.state.after_action(action).captured  # type: ignore[attr-defined]
        if captured:
            text += f" capturing {' '.join(captured)}"
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
        chosen = node.pending
        if chosen is None:
            return counters, pools, None
        view = state.after_action(chosen.action)
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

    def observation(self, node: Node, player: int) -> Observation:
        if fast.CORE is None:
            return super().observation(node, player)
        out = np.empty(self.observation_shape, FLOAT32)  # every number is written
        self.observe(node, player, out)
        return out

    def observe(self, node: Node, player: int, out: Observation) -> None:
        """The observation (see the module docstring) written by the compiled helper;
        ``observe_py`` without it (the reference)."""
        core = fast.CORE
        if core is None:
            self.observe_py(node, player, out)
            return
        state: Any = node.state
        # the pools are (the Rebels', the Imperium's); the Commands' points are numbered as the
        # observation numbers them
        _, _, pools, rebel, imperial, side = state.parts
        chosen = node.pending
        if chosen is None:
            masks = state.bitboards()[0]
            cell = -1
        else:  # the board after the action and its captures: the engine's own
            _, _, pools, _, bits, _ = state.board_after(chosen.action)
            masks = bits[0]
            cell = chosen.action.cell
        size = self.pool_size
        core.defiance_observe(
            out,
            self.n,
            masks,
            cell,
            rebel,
            imperial[0],
            imperial[1],
            (
                pools[0] / size,
                pools[1] / size,
                1.0 if side == 0 else 0.0,
                1.0 if player == 0 else 0.0,
                node.repetitions() / (self.repetition - 1),
                min(1.0, node.turns / self.max_turns),
            ),
        )

    def observe_py(self, node: Node, player: int, out: Observation) -> None:
        """``observe`` in Python: the reference of the compiled helper, and the fallback
        without it (``out`` zeroed first)."""
        state: Any = node.state
        n = self.n
        rebels, imperium = self.sides
        # planes 0–15 are the counters by code (1 + direction, 9 + direction): the engine's
        # bitboards, one mask of cells per code, unpacked at once
        masks = state.bitboards()[0]
        size = self._bytes
        data = b"".join([masks[code].to_bytes(size, "little") for code in range(1, 17)])
        bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
        out[:16, :n, :n] = bits.reshape(16, 8 * size)[:, : n * n].reshape(16, n, n)
        pools = state.pools
        chosen = node.pending
        if chosen is not None:  # the board after the action and its captures
            action = chosen.action
            j, i = divmod(action.cell, n)
            mover = state.to_move
            out[:16, j, i] = 0.0
            out[action.direction + (0 if mover == rebels else 8), j, i] = 1.0
            out[22] = 1.0
            out[23, j, i] = 1.0
            pools = dict(pools)
            if action.kind == PLACE:
                pools[mover] -= 1
            captured = state.after_action(action).captured
            for name in captured:
                y, x = self._cell(name)
                out[:16, y, x] = 0.0
            pools[imperium if mover == rebels else rebels] += len(captured)
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
        n = self.n
        none = self.none
        chosen = node.pending
        if chosen is not None:
            plans = {Turn(chosen.action, c, n): [self._commands[c]] for c in chosen.options}
            plans[Turn(chosen.action, None, n)] = [none]
            return plans
        turns = state.legal_moves()
        out: dict[Any, list[int]] = {}
        for k, action in enumerate(turns.actions()):
            first = self.action_id(action)
            if turns.wins(k):
                out[Turn(action, None, n)] = [first]  # a winning action ends the game
                continue
            out[Turn(action, None, n)] = [first, none]
            for c in turns.options(k):
                out[Turn(action, c, n)] = [first, self._commands[c]]
        return out
