"""The rules of Defiance and Domain (Arin Sandhop, 2002) on the 10×10 and 8×8 boards.

A state holds the cells (one code per cell: 0 empty, ``1 + d`` a Rebel counter facing ``d``,
``9 + d`` an Imperial one), both pools, the three Commands and the side to move. A turn is an
action (place or rotate) and an optional Command move; captures are resolved after each part.

The board questions are in ``board.py``, position strings in ``position.py``, notation in
``notation.py``; the legal turns are a lazy sequence (``turns.Turns``) built from the bitboards
of a position, and a turn taken from it is played without another check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from ...core import (
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    ParamValue,
    State,
    describe_value,
    described,
)
from .._numbers import short_enough
from .board import (
    AfterAction,
    Bitboards,
    active_sectors,
    capture_by,
    completes_win,
    controlled_by_sector,
    controls,
    entering,
    flanked,
    flanked_mask,
    four_sectors,
    full_blocks,
    owner,
    pair,
    sectors_mask,
)
from .board import bitboards_of as _bitboards_of
from .board import diagonal_flanks as diagonal_flanks  # the rules' names, kept for their readers
from .geometry import DIRECTIONS, geometry
from .moves import PLACE, ROTATE, Action, CommandMove, Turn
from .notation import arrow as arrow  # the rules' names, kept for their readers
from .notation import names as names
from .notation import parse_action, parse_command
from .position import format_position, read_position
from .turns import Turns, plan

REBELS = "rebels"
IMPERIUM = "imperium"
SIDES = (REBELS, IMPERIUM)
COMMAND_CAPTURED = "command-captured"
FOUR_SECTORS = "four-sectors"
NO_MOVE = "no-move"
POOL = 40
_UNSET: Any = object()
_WON = Outcome(REBELS, FOUR_SECTORS)

Mid = tuple[Action, tuple[int, ...], tuple[int, int], bool, Bitboards, int]
"""The board after a legal action: (action, cells, pools, whether it wins, bitboards, the cell
it captured or -1)."""
StateParts = tuple["DefianceGame", tuple[int, ...], tuple[int, int], int, tuple[int, int], int]
"""A state's parts (``DefianceState.parts``): game, cells, pools, rebel, imperial, side."""

# -- the turn, part by part ----------------------------------------------------------------


@dataclass(frozen=True)
class ActionView:
    """The factored view of one action: what it captures, whether it wins (then no Command
    move follows), and each legal Command move after it with the captures it would make."""

    action: Action
    captured: tuple[str, ...]
    outcome: Outcome | None
    command_moves: tuple[tuple[CommandMove, tuple[str, ...]], ...]


class _Fields:
    """The storage of a state. States are built as ``_Fields`` (plain, fast attribute stores),
    then become ``DefianceState``s, which refuse every change."""

    __slots__ = (
        "_bits",
        "_cells",
        "_counts",
        "_game",
        "_imperial",
        "_mid",
        "_moves",
        "_outcome",
        "_pools",
        "_rebel",
        "_side",
    )

    _game: DefianceGame
    _cells: tuple[int, ...]
    _pools: tuple[int, int]
    _rebel: int
    _imperial: tuple[int, int]
    _side: int  # 0 rebels, 1 imperium, -1 over
    _moves: Sequence[Turn]
    _outcome: Outcome | None
    _bits: Bitboards
    _counts: list[int]
    _mid: Mid


class DefianceState(_Fields, State):
    """A position of Defiance and Domain.

    >>> s = DefianceGame().start()
    >>> s.to_move, len(s.legal_actions())
    ('rebels', 800)
    >>> s.play("e5>N;P2.2-P3.2").position()
    '10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.2,I7.8,I8.7 i'
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("states are immutable: play() returns a new state")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("states are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _restore,
            (self._game.ruleset, self._cells, self._pools, self._rebel, self._imperial, self._side),
        )

    # -- the protocol ----------------------------------------------------------------------

    @property
    def game(self) -> DefianceGame:
        return self._game

    @property
    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
        return SIDES[self._side]

    def position(self) -> str:
        return format_position(
            self._game.geo, self._cells, self._pools, self._rebel, self._imperial, self._side
        )

    def count_legal_moves(self) -> int:
        """``len(self.legal_moves())``, without building the turns (for perft)."""
        if self.outcome() is not None:
            return 0
        return len(self._turns())

    def legal_moves(self) -> Sequence[Turn]:
        """The legal turns: a lazy sequence (``turns.Turns``) that builds each ``Turn`` when it
        is looked at; empty once the game is over."""
        moves = self._moves
        if moves is _UNSET:
            moves = [] if self.outcome() is not None else self._turns()
            object.__setattr__(self, "_moves", moves)
        return moves

    def outcome(self) -> Outcome | None:
        result = self._outcome
        if result is _UNSET:
            result = _decide(self)
            object.__setattr__(self, "_outcome", result)
        return result

    def parse_move(self, text: str) -> Turn:
        return _parse_turn(self, text)

    def play(self, move: Any) -> DefianceState:
        if isinstance(move, str):
            move = self.parse_move(move)
        over = self.outcome()
        if over is not None:
            raise _game_over(over)
        if isinstance(move, Action):  # the factored view's first part: its turn is to come
            raise InvalidMove(
                "the action {action} alone is not a turn: play a whole turn, a Turn or its "
                "notation ('{action}', then ';' and the Command move if one follows)",
                code="action-not-turn", action=move.text(self._game.geo),
            )  # fmt: skip
        if not isinstance(move, Turn) or move.n != self._game.geo.n:
            raise InvalidMove(
                "{move} is not a turn of this game", code="not-a-turn", move=_text(move)
            )
        moves = self._moves
        if isinstance(moves, Turns) and moves.contains(move):
            return self._apply(move)  # a turn of the listed ones needs no second check
        mid = self._after_action(move.action)
        if move.command is None:
            return self._finish(mid, None, ())
        if mid.won:
            raise IllegalMove(
                "this action wins the game: no Command move follows it", code="won-by-action"
            )
        options = dict(self._command_options(mid))
        if move.command not in options:
            self._refuse_command(move.command, move.action.text(self._game.geo))
        return self._finish(mid, move.command, options[move.command])

    # -- values ----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DefianceState):
            return NotImplemented
        return (
            self._cells == other._cells
            and self._pools == other._pools
            and self._rebel == other._rebel
            and self._imperial == other._imperial
            and self._side == other._side
            and self._game is other._game
        )

    def __hash__(self) -> int:
        return hash((self._cells, self._pools, self._rebel, self._imperial, self._side))

    # -- the factored view of a turn ------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal first parts of a turn (placements, then rotations)."""
        if self.outcome() is not None:
            return []
        return self._turns().actions()

    def after_action(self, action: Action | str) -> ActionView:
        """What an action does, and the Command moves (with their captures) that may follow."""
        if isinstance(action, str):
            action = self.parse_action(action)
        over = self.outcome()
        if over is not None:
            raise _game_over(over)
        moves = self._moves
        if isinstance(moves, Turns) and isinstance(action, Action):
            k = moves.action_index(action)  # a listed action: its Command moves are known
            if k >= 0:
                return self._view(action, moves.options(k))
        cell_names = self._game.geo.cell_names
        mid = self._after_action(action)
        outcome = _WON if mid.won else None
        options = (
            ()
            if mid.won
            else tuple(
                (cm, tuple(cell_names[c] for c in caps)) for cm, caps in self._command_options(mid)
            )
        )
        return ActionView(action, tuple(cell_names[c] for c in mid.captured), outcome, options)

    def _view(self, action: Action, options: tuple[CommandMove, ...]) -> ActionView:
        """``after_action`` of a listed action, whose Command moves the listed turns know: the
        board after it is the one its turns are played on (``board_after``); only the captures
        of the Command moves are left to find."""
        _, cells, _, won, _, taken = self.board_after(action)
        cell_names = self._game.geo.cell_names
        captured = (cell_names[taken],) if taken >= 0 else ()
        if won:
            return ActionView(action, captured, _WON, ())
        geo = self._game.geo
        side = self._side
        commands = (self._rebel,) if side == 0 else self._imperial
        before = {geo.point_sector[p] for p in commands}
        sector = geo.point_sector
        return ActionView(
            action,
            captured,
            None,
            tuple(
                (
                    cm,
                    ()
                    if sector[cm.dst] < 0 or sector[cm.dst] in before
                    else tuple(cell_names[t] for t in entering(geo, cells, cm.dst, side, before)),
                )
                for cm in options
            ),
        )

    def parse_action(self, text: str) -> Action:
        """The action (first part of a turn) that ``text`` names, e.g. ``e5>N`` or ``c4@W``."""
        return parse_action(self._game.geo, text)

    # -- what players and screens ask ------------------------------------------------------

    @property
    def side(self) -> str | None:
        """The side to move by the position string (``None`` once over)."""
        return None if self._side < 0 else SIDES[self._side]

    @property
    def pools(self) -> dict[str, int]:
        """Counters left in each pool."""
        return {REBELS: self._pools[0], IMPERIUM: self._pools[1]}

    @property
    def rebel_command(self) -> str:
        """The Rebel Command's point."""
        return self._game.geo.point_names[self._rebel]

    @property
    def imperial_commands(self) -> tuple[str, str]:
        """The Imperial Commands' points, sorted."""
        point_names = self._game.geo.point_names
        return point_names[self._imperial[0]], point_names[self._imperial[1]]

    def counters(self) -> dict[str, tuple[str, str]]:
        """``{cell: (side, direction)}`` for every counter on the board."""
        geo = self._game.geo
        return {
            geo.cell_names[c]: (SIDES[owner(code)], DIRECTIONS[(code - 1) & 7])
            for c, code in enumerate(self._cells)
            if code
        }

    def dead_zones(self, side: str | None = None) -> list[str]:
        """The empty cells where ``side`` (default: the side to move) may not place."""
        who = self._side if side is None else SIDES.index(self._game.check_side(side))
        if who < 0:
            return []
        geo = self._game.geo
        enemy = 1 - who
        active = active_sectors(geo, enemy, self._rebel, self._imperial)
        return [
            geo.cell_names[c]
            for c in range(geo.num_cells)
            if not self._cells[c] and flanked(geo, self._cells, c, enemy, active)
        ]

    def controlled(self) -> list[list[str]]:
        """The key points the Rebels control, per sector: (0,0), (1,0), (0,1), (1,1)."""
        geo = self._game.geo
        return [[geo.point_names[p] for p in ps] for ps in controlled_by_sector(geo, self._cells)]

    # -- the parts, for search and learning loops ------------------------------------------

    @property
    def parts(self) -> StateParts:
        """What the state holds, as ``from_parts`` takes it: ``(game, cells, pools, rebel,
        imperial, side)``. ``cells`` has one code per cell (``geometry``'s numbering, ``j * n +
        i``): 0 empty, ``1 + d`` a Rebel counter facing direction ``d`` (0 north, clockwise),
        ``9 + d`` an Imperial one; ``pools`` is (the Rebels', the Imperium's); ``rebel`` and
        ``imperial`` are the Commands' point numbers (``(n + 1) * y + x``; the Imperium's
        sorted); ``side`` is 0 for the Rebels, 1 for the Imperium, -1 once the game is over.
        The values themselves, not copies.

        >>> s = get_game("8x8").start()
        >>> game, cells, pools, rebel, imperial, side = s.parts
        >>> pools, side, DefianceState.from_parts(*s.parts) == s
        ((40, 40), 0, True)
        """
        return (self._game, self._cells, self._pools, self._rebel, self._imperial, self._side)

    @staticmethod
    def from_parts(
        game: DefianceGame,
        cells: tuple[int, ...],
        pools: tuple[int, int],
        rebel: int,
        imperial: tuple[int, int],
        side: int,
    ) -> DefianceState:
        """The state of these parts (see ``parts``), unchecked and with nothing computed yet:
        for a search or a learning loop that makes states from the parts of the engine's own
        states (a position string is checked)."""
        return _make(game, cells, pools, rebel, imperial, side)

    def board_after(self, action: Action) -> Mid:
        """The board after ``action``, one of ``legal_actions()`` (unchecked): ``(action,
        cells, pools, whether it wins, the bitboards, the cell it captured or -1)``. Kept on
        the state for the turns that follow with that action (turns are listed action by
        action, and share it)."""
        mid = self._mid
        if mid is _UNSET or mid[0] != action:
            mid = self._mid_board(action)
            object.__setattr__(self, "_mid", mid)
        return mid

    # -- internals -------------------------------------------------------------------------

    def _after_action(self, action: Action) -> AfterAction:
        geo = self._game.geo
        side = self._side
        if not isinstance(action, Action) or not 0 <= action.cell < geo.num_cells:
            raise InvalidMove(
                "{action} is not an action on this board",
                code="not-an-action",
                action=_text(action),
            )
        c, d = action.cell, action.direction
        if not 0 <= d < 8:
            raise InvalidMove("a direction is one of N NE E SE S SW W NW", code="bad-direction")
        name = geo.cell_names[c]
        cells = list(self._cells)
        pools = list(self._pools)
        code = cells[c]
        if action.kind == PLACE:
            if pools[side] == 0:
                raise IllegalMove(
                    "your pool is empty: rotate one of your counters instead", code="empty-pool"
                )
            if code:
                raise IllegalMove("{place} is occupied", code="occupied", place=name)
            enemy = 1 - side
            if flanked(
                geo, cells, c, enemy, active_sectors(geo, enemy, self._rebel, self._imperial)
            ):
                raise IllegalMove(
                    "{cell} is a dead zone for the {side}: a counter there would be captured at "
                    "once",
                    code="dead-zone",
                    cell=name,
                    side=SIDES[side],
                )
            pools[side] -= 1
        elif action.kind == ROTATE:
            if not code or owner(code) != side:
                raise IllegalMove(
                    "there is no counter of the {side} on {cell}",
                    code="no-own-counter",
                    side=SIDES[side],
                    cell=name,
                )
            if (code - 1) & 7 == d:
                raise IllegalMove(
                    "the counter on {cell} already faces {direction}",
                    code="already-facing",
                    cell=name,
                    direction=DIRECTIONS[d],
                )
        else:
            raise InvalidMove(
                "{action} is neither a placement nor a rotation",
                code="unknown-action-kind",
                action=_text(action),
            )
        cells[c] = 1 + 8 * side + d
        captured = []
        t = capture_by(
            geo, cells, c, d, side, active_sectors(geo, side, self._rebel, self._imperial)
        )
        if t >= 0:
            cells[t] = 0
            pools[1 - side] += 1
            captured.append(t)
        won = (
            side == 0
            and action.kind == PLACE
            and completes_win(geo, self._cells, c, self._control_counts())
        )
        return AfterAction(cells, pools, captured, won)

    def _control_counts(self) -> list[int]:
        """How many key points the Rebels control in each sector (cached)."""
        counts = self._counts
        if counts is _UNSET:
            geo = self._game.geo
            full = full_blocks(geo, self.bitboards()[1])
            counts = [(full & origins).bit_count() for origins in geo.block_origins]
            object.__setattr__(self, "_counts", counts)
        return counts

    def bitboards(self) -> tuple[tuple[int, ...], int, int]:
        """(one mask of cells per counter code 0–16, Rebel counters, Imperial counters), cached:
        for evaluations that look at the whole board at once."""
        bits = self._bits
        if bits is _UNSET:
            bits = _bitboards_of(self._cells)
            object.__setattr__(self, "_bits", bits)
        return bits

    def _turns(self) -> Turns:
        """The legal turns (the game not being over), cached with ``legal_moves()``."""
        moves = self._moves
        if isinstance(moves, Turns):
            return moves
        turns = plan(self)
        if moves is _UNSET:
            object.__setattr__(self, "_moves", turns)
        return turns

    def _apply(self, move: Turn) -> DefianceState:
        """Play a turn known to be legal (it came from ``legal_moves()``).

        The board after the action is kept for the next turn with the same action (turns are
        listed action by action), so that its turns share it: one copy of the cells and the
        bitboards for an action and all its Command moves that capture nothing."""
        _, cells, pools, won, bits, _ = self.board_after(move.action)
        command = move.command
        side = self._side
        if command is None:
            return _make(self._game, cells, pools, self._rebel, self._imperial,
                         -1 if won else 1 - side, bits)  # fmt: skip
        geo = self._game.geo
        rebel, imperial = self._rebel, self._imperial
        if side == 0:
            before = {geo.point_sector[rebel]}
            rebel = command.dst
        else:
            before = {geo.point_sector[imperial[0]], geo.point_sector[imperial[1]]}
            a, b = imperial
            if a == command.src:
                a = command.dst
            else:
                b = command.dst
            imperial = pair(geo, a, b)
        captured = entering(geo, cells, command.dst, side, before)
        if captured:  # diagonal flanks capturing as the Command enters a sector
            masks, rebels, imperials = bits
            changed = list(cells)
            removed = 0
            for t in captured:
                changed[t] = 0
                removed |= 1 << t
            out = list(masks)
            for code in range(9 - 8 * side, 17 - 8 * side):
                out[code] &= ~removed
            if side == 0:
                bits = (tuple(out), rebels, imperials & ~removed)
            else:
                bits = (tuple(out), rebels & ~removed, imperials)
            cells = tuple(changed)
            pools = (pools[0] + len(captured), pools[1]) if side else (
                pools[0], pools[1] + len(captured))  # fmt: skip
        over = won or rebel in imperial
        return _make(self._game, cells, pools, rebel, imperial, -1 if over else 1 - side, bits)

    def _mid_board(self, action: Action) -> Mid:
        """(action, cells, pools, whether it wins, bitboards, the cell captured or -1) after a
        legal action."""
        geo = self._game.geo
        side = self._side
        c, d = action.cell, action.direction
        cells = list(self._cells)
        pools = list(self._pools)
        masks, rebel, imperial = self.bitboards()
        out = list(masks)
        bit = 1 << c
        old = cells[c]
        if action.kind == PLACE:
            pools[side] -= 1
        else:
            out[old] ^= bit
        code = 1 + 8 * side + d
        cells[c] = code
        out[code] |= bit
        if side == 0:
            rebel |= bit
        else:
            imperial |= bit
        t = capture_by(
            geo, cells, c, d, side, active_sectors(geo, side, self._rebel, self._imperial)
        )
        if t >= 0:
            out[cells[t]] ^= 1 << t
            cells[t] = 0
            pools[1 - side] += 1
            if side == 0:
                imperial ^= 1 << t
            else:
                rebel ^= 1 << t
        won = (
            side == 0
            and action.kind == PLACE
            and completes_win(geo, self._cells, c, self._control_counts())
        )
        return action, tuple(cells), (pools[0], pools[1]), won, (tuple(out), rebel, imperial), t

    def _command_options(self, mid: AfterAction) -> list[tuple[CommandMove, tuple[int, ...]]]:
        """Each legal Command move after the action, with the counters it captures."""
        geo = self._game.geo
        cells = mid.cells
        side = self._side
        out: list[tuple[CommandMove, tuple[int, ...]]] = []
        if side == 0:
            src = self._rebel
            sector = {geo.point_sector[src]}
            for dst, diagonal, walls in geo.rebel_steps[src]:
                if dst in self._imperial:
                    continue
                if diagonal:
                    if cells[walls[0]] > 8:
                        continue
                elif all(cells[w] > 8 for w in walls):
                    continue
                out.append((CommandMove(src, dst), entering(geo, cells, dst, 0, sector)))
            return out
        seen: set[tuple[int, int]] = set()
        for i, src in enumerate(self._imperial):
            other = self._imperial[1 - i]
            before = {geo.point_sector[src], geo.point_sector[other]}
            for dst in geo.imperial_steps[src]:
                if (src, dst) in seen:
                    continue
                seen.add((src, dst))
                if dst in self._imperial:
                    continue
                if dst != self._rebel and controls(geo, cells, dst):
                    continue
                out.append((CommandMove(src, dst), entering(geo, cells, dst, 1, before)))
        return out

    def _why_not(self, move: CommandMove) -> tuple[str, dict[str, ParamValue]]:
        """Why the Command move ``move`` is refused: a kind and its values."""
        point_names = self._game.geo.point_names
        src, dst = point_names[move.src], point_names[move.dst]
        geo = self._game.geo
        if self._side == 0:
            if move.src != self._rebel:
                return "rebel-command-elsewhere", {"point": point_names[self._rebel], "other": src}
            steps = {d: (diagonal, walls) for d, diagonal, walls in geo.rebel_steps[move.src]}
            if move.dst not in steps:
                return "not-next-to", {"point": dst, "other": src}
            if move.dst in self._imperial:
                return "imperial-command-there", {"point": dst}
            return "walled-step", {}
        if move.src not in self._imperial:
            return "no-imperial-command", {"point": src}
        if move.dst not in geo.imperial_steps[move.src]:
            return "not-orthogonal", {"point": dst, "other": src}
        if move.dst in self._imperial:
            return "other-imperial-command-there", {"point": dst}
        return "rebels-control", {"point": dst}

    def _refuse_command(self, move: CommandMove, action: str | None) -> NoReturn:
        """Refuse the Command move ``move`` (after the action ``action`` when it is named), with
        the reason: each reason is a message of its own, its code the reason's kind (with
        ``-after-action`` when the action is named)."""
        kind, values = self._why_not(move)
        text = move.text(self._game.geo)
        if action is None:
            if kind == "rebel-command-elsewhere":
                raise IllegalMove(
                    "{move} is not a legal Command move here: the Rebel Command is on {point}, "
                    "not {other}",
                    code="rebel-command-elsewhere", move=text, **values,
                )  # fmt: skip
            if kind == "not-next-to":
                raise IllegalMove(
                    "{move} is not a legal Command move here: {point} is not next to {other}",
                    code="not-next-to", move=text, **values,
                )  # fmt: skip
            if kind == "imperial-command-there":
                raise IllegalMove(
                    "{move} is not a legal Command move here: an Imperial Command stands on "
                    "{point}",
                    code="imperial-command-there", move=text, **values,
                )  # fmt: skip
            if kind == "walled-step":
                raise IllegalMove(
                    "{move} is not a legal Command move here: Imperial counters wall that step",
                    code="walled-step", move=text, **values,
                )  # fmt: skip
            if kind == "no-imperial-command":
                raise IllegalMove(
                    "{move} is not a legal Command move here: no Imperial Command stands on "
                    "{point}",
                    code="no-imperial-command", move=text, **values,
                )  # fmt: skip
            if kind == "not-orthogonal":
                raise IllegalMove(
                    "{move} is not a legal Command move here: {point} is not an orthogonal step "
                    "from {other} (Imperial Commands move straight)",
                    code="not-orthogonal", move=text, **values,
                )  # fmt: skip
            if kind == "other-imperial-command-there":
                raise IllegalMove(
                    "{move} is not a legal Command move here: the other Imperial Command stands "
                    "on {point}",
                    code="other-imperial-command-there", move=text, **values,
                )  # fmt: skip
            raise IllegalMove(
                "{move} is not a legal Command move here: the Rebels control {point}",
                code="rebels-control", move=text, **values,
            )  # fmt: skip
        if kind == "rebel-command-elsewhere":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: the Rebel Command is on "
                "{point}, not {other}",
                code="rebel-command-elsewhere-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "not-next-to":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: {point} is not next to "
                "{other}",
                code="not-next-to-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "imperial-command-there":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: an Imperial Command stands "
                "on {point}",
                code="imperial-command-there-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "walled-step":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: Imperial counters wall that "
                "step",
                code="walled-step-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "no-imperial-command":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: no Imperial Command stands "
                "on {point}",
                code="no-imperial-command-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "not-orthogonal":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: {point} is not an "
                "orthogonal step from {other} (Imperial Commands move straight)",
                code="not-orthogonal-after-action", move=text, action=action, **values,
            )  # fmt: skip
        if kind == "other-imperial-command-there":
            raise IllegalMove(
                "{move} is not a legal Command move after {action}: the other Imperial Command "
                "stands on {point}",
                code="other-imperial-command-there-after-action", move=text, action=action,
                **values,
            )  # fmt: skip
        raise IllegalMove(
            "{move} is not a legal Command move after {action}: the Rebels control {point}",
            code="rebels-control-after-action", move=text, action=action, **values,
        )  # fmt: skip

    def _finish(
        self, mid: AfterAction, command: CommandMove | None, captured: tuple[int, ...]
    ) -> DefianceState:
        cells, pools = mid.cells, mid.pools
        rebel, imperial = self._rebel, self._imperial
        if command is not None:
            for t in captured:
                cells[t] = 0
                pools[1 - self._side] += 1
            if self._side == 0:
                rebel = command.dst
            else:
                a, b = imperial
                if a == command.src:
                    a = command.dst
                else:
                    b = command.dst
                imperial = pair(self._game.geo, a, b)
        over = mid.won or rebel in imperial
        return _make(
            self._game, tuple(cells), (pools[0], pools[1]), rebel, imperial,
            -1 if over else 1 - self._side,
        )  # fmt: skip


def _decide(state: DefianceState) -> Outcome | None:
    if state._rebel in state._imperial:
        return Outcome(IMPERIUM, COMMAND_CAPTURED)
    if rebels_hold_four_sectors(state):
        return Outcome(REBELS, FOUR_SECTORS)
    if state._side >= 0 and not _has_action(state):
        return Outcome(SIDES[1 - state._side], NO_MOVE)
    return None


def rebels_hold_four_sectors(state: DefianceState) -> bool:
    """Whether the Rebels control a key point in every sector (with bitboards: a block's four
    cells are a cell and its east, north and north-east neighbours). The answer for the last
    bitboards is kept: the turns of one action share theirs."""
    global _last_four
    bits = state.bitboards()
    last = _last_four
    if last[0] is bits:
        return last[1]
    found = four_sectors(state._game.geo, bits[1])
    _last_four = (bits, found)
    return found


_last_four: tuple[object, bool] = (None, False)


def _has_action(state: DefianceState) -> bool:
    """Whether the side to move can place or rotate at all (cheaper than listing actions)."""
    side = state._side
    masks, rebel, imperial = state.bitboards()
    if rebel if side == 0 else imperial:
        return True  # a counter can always turn
    if state._pools[side] == 0:
        return False
    geo = state._game.geo
    enemy = 1 - side
    active = sectors_mask(geo, active_sectors(geo, enemy, state._rebel, state._imperial))
    return bool(geo.full & ~(rebel | imperial) & ~flanked_mask(geo, masks, enemy, active))


def _make(
    game: DefianceGame,
    cells: tuple[int, ...],
    pools: tuple[int, int],
    rebel: int,
    imperial: tuple[int, int],
    side: int,
    bits: Bitboards | None = None,
) -> DefianceState:
    state = _new(_Fields)
    state._game = game
    state._cells = cells
    state._pools = pools
    state._rebel = rebel
    state._imperial = imperial
    state._side = side
    state._moves = _UNSET
    state._outcome = _UNSET
    state._bits = _UNSET if bits is None else bits
    state._counts = _UNSET
    state._mid = _UNSET
    state.__class__ = DefianceState  # from now on it refuses every change
    return state  # type: ignore[return-value]


_new = object.__new__


def _restore(
    ruleset: str,
    cells: tuple[int, ...],
    pools: tuple[int, int],
    rebel: int,
    imperial: tuple[int, int],
    side: int,
) -> DefianceState:
    return _make(get_game(ruleset), cells, pools, rebel, imperial, side)


def _text(value: object) -> str:
    """A turn or an action as the refusals name it (their ``move``, ``action``): a turn's
    notation quoted, or any other value described (``42 (int)``)."""
    return repr(str(value)) if isinstance(value, Turn) else describe_value(value)


def _game_over(over: Outcome) -> IllegalMove:
    """The refusal of any turn once the game is over."""
    return IllegalMove(
        "the game is over ({winner} won: {reason})",
        code="game-over",
        winner=str(over.winner),
        reason=over.reason,
    )


# -- the game ------------------------------------------------------------------------------


RULESETS = {"10x10": 10, "8x8": 8}


class DefianceGame(Game):
    """Defiance and Domain: the Rebels (first to move) against the Imperium."""

    name = "defiance"
    rulesets = tuple(RULESETS)
    sides = SIDES
    pool_size = POOL
    repetition_limit = 3
    """A position seen this many times in a record is a draw (``repetition``)."""
    turn_limit = 400
    """After this many turns (200 each) with no result the record calls a draw (``turn-limit``)."""
    heuristic: ClassVar[Callable[[DefianceState, str], float] | None] = None
    """The knowledge behind ``evaluate``: ``evaluation.evaluate``, which the package sets (the
    rules do not import the evaluation, which reads them)."""

    def __init__(self, ruleset: str = "10x10") -> None:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}: {', '.join(RULESETS)}")
        self.ruleset = ruleset
        self.geo = geometry(RULESETS[ruleset])

    def start(self) -> DefianceState:
        geo = self.geo
        if geo.n == 8:
            imperial = (geo.point(6, 6), geo.point(6, 6))
        else:
            imperial = (geo.point(7, 8), geo.point(8, 7))
        imperial = pair(geo, *imperial)
        return _make(self, (0,) * geo.num_cells, (POOL, POOL), geo.point(2, 2), imperial, 0)

    def parse_position(self, text: str) -> DefianceState:
        return _make(self, *read_position(self.geo, self.pool_size, text))

    def evaluate(self, state: State, side: str) -> float:
        """Heuristic value for ``side`` (see ``games.defiance.evaluation``)."""
        heuristic = DefianceGame.heuristic
        if heuristic is None or not isinstance(state, DefianceState) or state.outcome() is not None:
            return super().evaluate(state, side)  # (which refuses a side or state not of this game)
        return heuristic(state, self.check_side(side))


_GAMES: dict[str, DefianceGame] = {}


def get_game(ruleset: str = "10x10") -> DefianceGame:
    """The one game object of a ruleset."""
    game = _GAMES.get(ruleset)
    if game is None:
        game = _GAMES[ruleset] = DefianceGame(ruleset)
    return game


# -- turn notation, checked against the position --------------------------------------------


def _parse_turn(state: DefianceState, text: object) -> Turn:
    if not isinstance(text, str):
        raise InvalidMove(
            "a turn must be text like 'e5>N', not {value} ({type})",
            code="turn-not-text",
            **described(text),
        )
    over = state.outcome()
    if over is not None:
        raise _game_over(over)
    geo = state._game.geo
    head, sep, tail = short_enough(text).partition(";")
    action = parse_action(geo, head)
    mid = state._after_action(action)  # says why an action is illegal
    if not sep:
        return Turn(action, None, geo.n)
    move = parse_command(geo, tail)
    if mid.won:
        raise IllegalMove(
            "this action wins the game: no Command move follows it", code="won-by-action"
        )
    if move not in dict(state._command_options(mid)):
        state._refuse_command(move, None)
    return Turn(action, move, geo.n)


__all__ = [
    "COMMAND_CAPTURED",
    "FOUR_SECTORS",
    "IMPERIUM",
    "NO_MOVE",
    "REBELS",
    "SIDES",
    "ActionView",
    "DefianceGame",
    "DefianceState",
    "get_game",
]
