"""The rules of Defiance and Domain (Arin Sandhop, 2002) on the 10×10 and 8×8 boards.

A state holds the cells (one code per cell: 0 empty, ``1 + d`` a Rebel counter facing ``d``,
``9 + d`` an Imperial one), both pools, the three Commands and the side to move. A turn is an
action (place or rotate) and an optional Command move; captures are resolved after each part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

from ...core import Game, IllegalMove, InvalidPosition, Outcome, State, describe_value
from .._numbers import read_number
from .geometry import ARROWS, DIRECTION_INDEX, DIRECTIONS, Geometry, geometry
from .moves import PLACE, ROTATE, Action, CommandMove, Turn

REBELS = "rebels"
IMPERIUM = "imperium"
SIDES = (REBELS, IMPERIUM)
COMMAND_CAPTURED = "command-captured"
FOUR_SECTORS = "four-sectors"
NO_MOVE = "no-move"
POOL = 40
_UNSET: Any = object()


def owner(code: int) -> int:
    """0 for a Rebel counter, 1 for an Imperial one (``code`` non-zero)."""
    return (code - 1) >> 3


# -- board questions (pure functions of the geometry and the cells) ------------------------


def active_sectors(geo: Geometry, side: int, rebel: int, imperial: tuple[int, int]) -> set[int]:
    """The sectors where ``side`` has a Command (its diagonal captures work there)."""
    points = (rebel,) if side == 0 else imperial
    return {geo.point_sector[p] for p in points} - {-1}


def flanked(
    geo: Geometry, cells: list[int] | tuple[int, ...], t: int, enemy: int, active: set[int]
) -> bool:
    """Whether a counter on ``t`` is flanked by ``enemy``'s counters in a way that captures:
    orthogonally always, diagonally only inside one sector where ``enemy`` has a Command."""
    base = 1 + 8 * enemy
    nb = geo.neighbours[t]
    for d in (0, 1, 2, 3):
        a, b = nb[d], nb[d + 4]
        if a < 0 or b < 0 or cells[a] != base + d + 4 or cells[b] != base + d:
            continue
        if d & 1:
            s = geo.cell_sector[t]
            if geo.cell_sector[a] != s or geo.cell_sector[b] != s or s not in active:
                continue
        return True
    return False


def diagonal_flanks(geo: Geometry, cells: list[int] | tuple[int, ...], t: int, enemy: int) -> bool:
    """Whether ``t`` is flanked diagonally inside its sector by ``enemy`` (Commands aside)."""
    base = 1 + 8 * enemy
    nb = geo.neighbours[t]
    s = geo.cell_sector[t]
    for d in (1, 3):
        a, b = nb[d], nb[d + 4]
        if (
            a >= 0
            and b >= 0
            and cells[a] == base + d + 4
            and cells[b] == base + d
            and geo.cell_sector[a] == s
            and geo.cell_sector[b] == s
        ):
            return True
    return False


def capture_by(
    geo: Geometry, cells: list[int] | tuple[int, ...], c: int, d: int, side: int, active: set[int]
) -> int:
    """The enemy counter that ``side``'s counter on ``c``, facing ``d``, captures with a
    partner beyond it (a counter attacks one cell, so an action captures at most one), or -1."""
    t = geo.neighbours[c][d]
    if t < 0:
        return -1
    code = cells[t]
    if not code or owner(code) == side:
        return -1
    p = geo.neighbours[t][d]
    if p < 0 or cells[p] != 1 + 8 * side + (d + 4) % 8:
        return -1
    if d & 1:
        s = geo.cell_sector[t]
        if geo.cell_sector[c] != s or geo.cell_sector[p] != s or s not in active:
            return -1
    return t


def controls(geo: Geometry, cells: list[int] | tuple[int, ...], p: int) -> bool:
    """Whether the Rebels control key point ``p`` (its four cells hold Rebel counters)."""
    if not geo.is_key[p]:
        return False
    return all(0 < cells[c] <= 8 for c in geo.point_cells[p])


def controlled_by_sector(geo: Geometry, cells: list[int] | tuple[int, ...]) -> list[list[int]]:
    """The key points the Rebels control, sector by sector."""
    out: list[list[int]] = [[], [], [], []]
    for p in geo.key_points:
        if controls(geo, cells, p):
            out[geo.point_sector[p]].append(p)
    return out


# -- the turn, part by part ----------------------------------------------------------------


@dataclass
class AfterAction:
    """The board between the two parts of a turn."""

    cells: list[int]
    pools: list[int]
    captured: list[int]
    won: bool


@dataclass(frozen=True)
class ActionView:
    """The factored view of one action: what it captures, whether it wins (then no Command
    move follows), and each legal Command move after it with the captures it would make."""

    action: Action
    captured: tuple[str, ...]
    outcome: Outcome | None
    command_moves: tuple[tuple[CommandMove, tuple[str, ...]], ...]


class DefianceState(State):
    """A position of Defiance and Domain.

    >>> s = DefianceGame().start()
    >>> s.to_move, len(s.legal_actions())
    ('rebels', 800)
    >>> s.play("e5>N;P2.2-P3.2").position()
    '10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.2,I7.8,I8.7 i'
    """

    __slots__ = (
        "_bits",
        "_cells",
        "_counts",
        "_game",
        "_imperial",
        "_legal",
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
    _moves: list[Turn]
    _outcome: Outcome | None
    _legal: set[Turn]
    _bits: tuple[tuple[int, ...], int, int]
    _counts: list[int]

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
        geo = self._game.geo
        return (
            f"{_cells_text(geo, self._cells)} r{self._pools[0]},i{self._pools[1]} "
            f"R{_xy(geo, self._rebel)},I{_xy(geo, self._imperial[0])},"
            f"I{_xy(geo, self._imperial[1])} {'-' if self._side < 0 else 'ri'[self._side]}"
        )

    def count_legal_moves(self) -> int:
        """``len(self.legal_moves())``, without building the turns (for perft)."""
        if self.outcome() is not None:
            return 0
        return sum(1 + len(options) for _, _, _, options in _plan(self))

    def legal_moves(self) -> list[Turn]:
        moves = self._moves
        if moves is _UNSET:
            moves = [] if self.outcome() is not None else _all_turns(self)
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
            raise IllegalMove(f"the game is over ({over.winner} won: {over.reason})")
        if not isinstance(move, Turn) or move.n != self._game.geo.n:
            raise IllegalMove(f"{_text(move)} is not a turn of this game")
        if self._moves is not _UNSET:  # turns listed here need no second check
            legal = self._legal
            if legal is _UNSET:
                legal = set(self._moves)
                object.__setattr__(self, "_legal", legal)
            if move in legal:
                return self._apply(move)
        mid = self._after_action(move.action)
        if move.command is None:
            return self._finish(mid, None, ())
        if mid.won:
            raise IllegalMove("this action wins the game: no Command move follows it")
        options = dict(self._command_options(mid))
        if move.command not in options:
            raise IllegalMove(
                f"{move.command.text(self._game.geo)} is not a legal Command move after "
                f"{move.action.text(self._game.geo)}: {self._why_not(mid, move.command)}"
            )
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
        return _actions(self)

    def after_action(self, action: Action | str) -> ActionView:
        """What an action does, and the Command moves (with their captures) that may follow."""
        if isinstance(action, str):
            action = self.parse_action(action)
        over = self.outcome()
        if over is not None:
            raise IllegalMove(f"the game is over ({over.winner} won: {over.reason})")
        geo = self._game.geo
        mid = self._after_action(action)
        names = geo.cell_names
        outcome = Outcome(REBELS, FOUR_SECTORS) if mid.won else None
        options = (
            ()
            if mid.won
            else tuple(
                (cm, tuple(names[c] for c in caps)) for cm, caps in self._command_options(mid)
            )
        )
        return ActionView(action, tuple(names[c] for c in mid.captured), outcome, options)

    def parse_action(self, text: str) -> Action:
        """The action (first part of a turn) that ``text`` names, e.g. ``e5>N`` or ``c4@W``."""
        return _parse_action(self, text)

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
        names = self._game.geo.point_names
        return names[self._imperial[0]], names[self._imperial[1]]

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
        who = self._side if side is None else SIDES.index(side)
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

    # -- internals -------------------------------------------------------------------------

    def _after_action(self, action: Action) -> AfterAction:
        geo = self._game.geo
        side = self._side
        if not isinstance(action, Action) or not 0 <= action.cell < geo.num_cells:
            raise IllegalMove(f"{_text(action)} is not an action on this board")
        c, d = action.cell, action.direction
        if not 0 <= d < 8:
            raise IllegalMove("a direction is one of N NE E SE S SW W NW")
        name = geo.cell_names[c]
        cells = list(self._cells)
        pools = list(self._pools)
        code = cells[c]
        if action.kind == PLACE:
            if pools[side] == 0:
                raise IllegalMove("your pool is empty: rotate one of your counters instead")
            if code:
                raise IllegalMove(f"{name} is occupied")
            enemy = 1 - side
            if flanked(
                geo, cells, c, enemy, active_sectors(geo, enemy, self._rebel, self._imperial)
            ):
                raise IllegalMove(
                    f"{name} is a dead zone for the {SIDES[side]}: a counter there would be "
                    "captured at once"
                )
            pools[side] -= 1
        elif action.kind == ROTATE:
            if not code or owner(code) != side:
                raise IllegalMove(f"there is no counter of the {SIDES[side]} on {name}")
            if (code - 1) & 7 == d:
                raise IllegalMove(f"the counter on {name} already faces {DIRECTIONS[d]}")
        else:
            raise IllegalMove(f"{_text(action)} is neither a placement nor a rotation")
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
            and _completes_win(geo, self._cells, c, self._control_counts())
        )
        return AfterAction(cells, pools, captured, won)

    def _control_counts(self) -> list[int]:
        """How many key points the Rebels control in each sector (cached)."""
        counts = self._counts
        if counts is _UNSET:
            counts = [len(ps) for ps in controlled_by_sector(self._game.geo, self._cells)]
            object.__setattr__(self, "_counts", counts)
        return counts

    def bitboards(self) -> tuple[tuple[int, ...], int, int]:
        """(one mask of cells per counter code 0–16, Rebel counters, Imperial counters), cached:
        for evaluations that look at the whole board at once."""
        bits = self._bits
        if bits is _UNSET:
            masks = [0] * 17
            for c, code in enumerate(self._cells):
                if code:
                    masks[code] |= 1 << c
            rebel = imperial = 0
            for k in range(1, 9):
                rebel |= masks[k]
                imperial |= masks[k + 8]
            bits = (tuple(masks), rebel, imperial)
            object.__setattr__(self, "_bits", bits)
        return bits

    def _apply(self, move: Turn) -> DefianceState:
        """Play a turn known to be legal (it came from ``legal_moves()``)."""
        geo = self._game.geo
        side = self._side
        action = move.action
        c, d = action.cell, action.direction
        cells = list(self._cells)
        pools = list(self._pools)
        if action.kind == PLACE:
            pools[side] -= 1
        cells[c] = 1 + 8 * side + d
        t = capture_by(
            geo, cells, c, d, side, active_sectors(geo, side, self._rebel, self._imperial)
        )
        captured = [t] if t >= 0 else []
        if t >= 0:
            cells[t] = 0
            pools[1 - side] += 1
        won = (
            side == 0
            and action.kind == PLACE
            and _completes_win(geo, self._cells, c, self._control_counts())
        )
        mid = AfterAction(cells, pools, captured, won)
        command = move.command
        if command is None:
            return self._finish(mid, None, ())
        if side == 0:
            before = {geo.point_sector[self._rebel]}
        else:
            before = {geo.point_sector[p] for p in self._imperial}
        return self._finish(mid, command, _entering(geo, cells, command.dst, side, before))

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
                out.append((CommandMove(src, dst), _entering(geo, cells, dst, 0, sector)))
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
                out.append((CommandMove(src, dst), _entering(geo, cells, dst, 1, before)))
        return out

    def _why_not(self, mid: AfterAction, move: CommandMove) -> str:
        geo = self._game.geo
        names = geo.point_names
        if self._side == 0:
            if move.src != self._rebel:
                return f"the Rebel Command is on {names[self._rebel]}, not {names[move.src]}"
            steps = {dst: (diagonal, walls) for dst, diagonal, walls in geo.rebel_steps[move.src]}
            if move.dst not in steps:
                return f"{names[move.dst]} is not next to {names[move.src]}"
            if move.dst in self._imperial:
                return f"an Imperial Command stands on {names[move.dst]}"
            return "Imperial counters wall that step"
        if move.src not in self._imperial:
            return f"no Imperial Command stands on {names[move.src]}"
        if move.dst not in geo.imperial_steps[move.src]:
            return (
                f"{names[move.dst]} is not an orthogonal step from {names[move.src]} "
                "(Imperial Commands move straight)"
            )
        if move.dst in self._imperial:
            return f"the other Imperial Command stands on {names[move.dst]}"
        return f"the Rebels control {names[move.dst]}"

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
                imperial = _pair(self._game.geo, a, b)
        over = mid.won or rebel in imperial
        return _make(
            self._game, tuple(cells), (pools[0], pools[1]), rebel, imperial,
            -1 if over else 1 - self._side,
        )  # fmt: skip


def _entering(
    geo: Geometry, cells: list[int], dst: int, side: int, before: set[int]
) -> tuple[int, ...]:
    """Enemy counters captured when ``side``'s Command steps onto ``dst``: the diagonal flanks
    standing in a sector where ``side`` had no Command before."""
    s = geo.point_sector[dst]
    if s < 0 or s in before:
        return ()
    enemy = 1 - side
    lo, hi = 1 + 8 * enemy, 8 + 8 * enemy
    return tuple(
        t
        for t in geo.sector_cells[s]
        if lo <= cells[t] <= hi and diagonal_flanks(geo, cells, t, side)
    )


def _action_cells(state: DefianceState) -> tuple[list[int], list[tuple[int, int]]]:
    """The cells where the mover may place (empty, not a dead zone; none with an empty pool)
    and the mover's counters as ``(cell, facing)``."""
    geo = state._game.geo
    side = state._side
    cells = state._cells
    places: list[int] = []
    if state._pools[side] > 0:
        enemy = 1 - side
        active = active_sectors(geo, enemy, state._rebel, state._imperial)
        places = [
            c
            for c in range(geo.num_cells)
            if not cells[c] and not flanked(geo, cells, c, enemy, active)
        ]
    lo = 1 + 8 * side
    own = [(c, code - lo) for c, code in enumerate(cells) if lo <= code < lo + 8]
    return places, own


def _actions(state: DefianceState) -> list[Action]:
    places, own = _action_cells(state)
    out = [Action(PLACE, c, d) for c in places for d in range(8)]
    out.extend(Action(ROTATE, c, d) for c, facing in own for d in range(8) if d != facing)
    return out


def _plan(state: DefianceState) -> Iterator[tuple[int, int, int, list[CommandMove]]]:
    """``(kind, cell, direction, Command moves legal after it)`` for every legal action.

    An action changes which Command moves are legal only when it captures (a captured Imperial
    counter may open a wall, a captured Rebel counter may free a key point), or when a Rebel
    placement wins (then none follows); otherwise the moves legal before it stay legal.
    """
    geo = state._game.geo
    side = state._side
    cells = state._cells
    active = active_sectors(geo, side, state._rebel, state._imperial)
    unchanged = AfterAction(list(cells), list(state._pools), [], False)
    base = [cm for cm, _ in state._command_options(unchanged)]
    counts = state._control_counts() if side == 0 else []
    places, own = _action_cells(state)
    none: list[CommandMove] = []
    for c in places:
        wins = side == 0 and _completes_win(geo, cells, c, counts)
        for d in range(8):
            if wins:
                yield PLACE, c, d, none
            elif capture_by(geo, cells, c, d, side, active) >= 0:
                mid = state._after_action(Action(PLACE, c, d))
                yield PLACE, c, d, [cm for cm, _ in state._command_options(mid)]
            else:
                yield PLACE, c, d, base
    for c, facing in own:
        for d in range(8):
            if d == facing:
                continue
            if capture_by(geo, cells, c, d, side, active) >= 0:
                mid = state._after_action(Action(ROTATE, c, d))
                yield ROTATE, c, d, [cm for cm, _ in state._command_options(mid)]
            else:
                yield ROTATE, c, d, base


def _all_turns(state: DefianceState) -> list[Turn]:
    n = state._game.geo.n
    turns: list[Turn] = []
    append = turns.append
    for kind, c, d, options in _plan(state):
        action = Action(kind, c, d)
        append(Turn(action, None, n))
        for command in options:
            append(Turn(action, command, n))
    return turns


def _completes_win(geo: Geometry, cells: tuple[int, ...], c: int, counts: list[int]) -> bool:
    """Whether a Rebel counter placed on empty ``c`` gives the Rebels all four sectors."""
    gained = list(counts)
    for q in geo.cell_corners[c]:
        if geo.is_key[q] and all(
            other == c or 0 < cells[other] <= 8 for other in geo.point_cells[q]
        ):
            gained[geo.point_sector[q]] += 1
    return all(gained)


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
    cells are a cell and its east, north and north-east neighbours)."""
    geo = state._game.geo
    _, rebel, _ = state.bitboards()
    shift = geo.shift
    full = rebel & shift(rebel, 6) & shift(rebel, 4) & shift(rebel, 5)
    return all(full & origins for origins in geo.block_origins)


def _has_action(state: DefianceState) -> bool:
    """Whether the side to move can place or rotate at all (cheaper than listing actions)."""
    side = state._side
    lo = 1 + 8 * side
    cells = state._cells
    if any(lo <= code < lo + 8 for code in cells):
        return True  # a counter can always turn
    if state._pools[side] == 0:
        return False
    geo = state._game.geo
    enemy = 1 - side
    active = active_sectors(geo, enemy, state._rebel, state._imperial)
    return any(
        not cells[c] and not flanked(geo, cells, c, enemy, active) for c in range(geo.num_cells)
    )


def _pair(geo: Geometry, a: int, b: int) -> tuple[int, int]:
    """Two Imperial Commands in canonical order: sorted by (x, y)."""
    return (a, b) if geo.point_xy[a] <= geo.point_xy[b] else (b, a)


def _make(
    game: DefianceGame,
    cells: tuple[int, ...],
    pools: tuple[int, int],
    rebel: int,
    imperial: tuple[int, int],
    side: int,
) -> DefianceState:
    state = object.__new__(DefianceState)
    setter = object.__setattr__
    setter(state, "_game", game)
    setter(state, "_cells", cells)
    setter(state, "_pools", pools)
    setter(state, "_rebel", rebel)
    setter(state, "_imperial", imperial)
    setter(state, "_side", side)
    setter(state, "_moves", _UNSET)
    setter(state, "_outcome", _UNSET)
    setter(state, "_legal", _UNSET)
    setter(state, "_bits", _UNSET)
    setter(state, "_counts", _UNSET)
    return state


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
    return repr(str(value)) if isinstance(value, Turn) else describe_value(value)


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
        imperial = _pair(geo, *imperial)
        return _make(self, (0,) * geo.num_cells, (POOL, POOL), geo.point(2, 2), imperial, 0)

    def parse_position(self, text: str) -> DefianceState:
        return _parse_position(self, text)

    def evaluate(self, state: State, side: str) -> float:
        """Heuristic value for ``side`` (see ``games.defiance.evaluation``)."""
        from .evaluation import evaluate

        if state.outcome() is not None:
            return super().evaluate(state, side)
        assert isinstance(state, DefianceState)
        return evaluate(state, side)


_GAMES: dict[str, DefianceGame] = {}


def get_game(ruleset: str = "10x10") -> DefianceGame:
    """The one game object of a ruleset."""
    game = _GAMES.get(ruleset)
    if game is None:
        game = _GAMES[ruleset] = DefianceGame(ruleset)
    return game


# -- position strings ----------------------------------------------------------------------


def _xy(geo: Geometry, p: int) -> str:
    x, y = geo.point_xy[p]
    return f"{x}.{y}"


def _cells_text(geo: Geometry, cells: tuple[int, ...]) -> str:
    rows = []
    n = geo.n
    for j in range(n - 1, -1, -1):
        parts: list[str] = []
        run = 0
        for i in range(n):
            code = cells[j * n + i]
            if not code:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append("RI"[owner(code)] + DIRECTIONS[(code - 1) & 7])
        if run:
            parts.append(str(run))
        rows.append("".join(parts))
    return "/".join(rows)


# re.ASCII: ``\d`` is 0–9 only, and letters match only their ASCII cases (with Unicode rules
# "İ" and "ı" would match "I", and "ſ" would match "S", though "İ".upper() is not "I")
_ASCII_NOCASE = re.IGNORECASE | re.ASCII
_PIECE_RE = re.compile(r"(\d+)|([RI])(NE|NW|SE|SW|N|E|S|W)?", _ASCII_NOCASE)
_POINT_RE = re.compile(r"([RI])(\d+)\.(\d+)", _ASCII_NOCASE)
_POOLS_RE = re.compile(r"([ri])(\d+)", _ASCII_NOCASE)
_HELP = f"a position reads like '10/10/10/10/10/10/10/10/10/10 r{POOL},i{POOL} R2.2,I7.8,I8.7 r'"


def _parse_cells(geo: Geometry, token: str) -> list[int]:
    rows = token.split("/")
    n = geo.n
    if len(rows) != n:
        raise InvalidPosition(f"the board has {n} rows separated by '/', not {len(rows)}")
    cells = [0] * geo.num_cells
    for r, row in enumerate(rows):
        j = n - 1 - r
        i = 0
        pos = 0
        if not row:
            raise InvalidPosition(f"row {j + 1} is empty (write {n} for an empty row)")
        while pos < len(row):
            match = _PIECE_RE.match(row, pos)
            if match is None:
                raise InvalidPosition(
                    f"row {j + 1}: cannot read {row[pos:]!r} (a digit run counts empty cells; "
                    "a counter is R or I and a direction, like RNE)"
                )
            pos = match.end()
            if match[1] is not None:
                run = read_number(match[1], InvalidPosition, "a position")
                if run == 0:
                    raise InvalidPosition(f"row {j + 1}: an empty run of 0 cells")
                i += run
            else:
                if match[3] is None:
                    raise InvalidPosition(
                        f"row {j + 1}: a counter needs a direction (N NE E SE S SW W NW), "
                        f"e.g. {match[2].upper()}NE"
                    )
                if i < n:
                    side = "RI".index(match[2].upper())
                    cells[j * n + i] = 1 + 8 * side + DIRECTION_INDEX[match[3].upper()]
                i += 1
            if i > n:
                raise InvalidPosition(f"row {j + 1} has more than {n} cells")
        if i != n:
            raise InvalidPosition(f"row {j + 1} has {i} cells, not {n}")
    return cells


def _parse_point(geo: Geometry, x: str, y: str, what: str) -> int:
    px = read_number(x, InvalidPosition, "a position")
    py = read_number(y, InvalidPosition, "a position")
    if not (0 <= px <= geo.n and 0 <= py <= geo.n):
        raise InvalidPosition(f"{what} on P{px}.{py} is off the board (points 0–{geo.n})")
    return geo.point(px, py)


def _parse_position(game: DefianceGame, text: object) -> DefianceState:
    if not isinstance(text, str):
        raise InvalidPosition(f"a position must be a string, not {describe_value(text)}")
    fields = text.split()
    if len(fields) != 4:
        raise InvalidPosition(f"a position has 4 fields (cells, pools, commands, side): {_HELP}")
    geo = game.geo
    cells = _parse_cells(geo, fields[0])
    pools: dict[str, int] = {}
    for part in fields[1].split(","):
        match = _POOLS_RE.fullmatch(part)
        if match is None:
            raise InvalidPosition(f"cannot read the pools {fields[1]!r}: write like 'r40,i40'")
        key = match[1].lower()
        if key in pools:
            raise InvalidPosition(f"the pools name {key!r} twice")
        pools[key] = read_number(match[2], InvalidPosition, "a position")
    if set(pools) != {"r", "i"}:
        raise InvalidPosition("the pools give both sides, like 'r40,i40'")
    rebel: list[int] = []
    imperial: list[int] = []
    for part in fields[2].split(","):
        match = _POINT_RE.fullmatch(part)
        if match is None:
            raise InvalidPosition(f"cannot read the Command {part!r}: write like 'R2.2' or 'I7.8'")
        who = match[1].upper()
        point = _parse_point(
            geo, match[2], match[3], f"the {'Rebel' if who == 'R' else 'Imperial'} Command"
        )
        (rebel if who == "R" else imperial).append(point)
    if len(rebel) != 1 or len(imperial) != 2:
        raise InvalidPosition(
            f"there is one Rebel and two Imperial Commands, not {len(rebel)} and {len(imperial)}"
        )
    a, b = _pair(geo, imperial[0], imperial[1])
    if a == b and not (geo.n == 8 and a == geo.point(6, 6)):
        raise InvalidPosition(
            f"both Imperial Commands on {geo.point_names[a]}: only the 8×8 start (P6.6) allows it"
        )
    for s, key in ((0, "r"), (1, "i")):
        on_board = sum(1 for code in cells if code and owner(code) == s)
        if on_board + pools[key] != game.pool_size:
            raise InvalidPosition(
                f"the {SIDES[s]} have {on_board} counters on the board and {pools[key]} in the "
                f"pool: {on_board + pools[key]}, not {game.pool_size}"
            )
    side_token = fields[3].lower()
    if side_token not in ("r", "i", "-"):
        raise InvalidPosition(f"the side to move is 'r', 'i' or '-', not {fields[3]!r}")
    state = _make(
        game, tuple(cells), (pools["r"], pools["i"]), rebel[0], (a, b),
        {"r": 0, "i": 1, "-": -1}[side_token],
    )  # fmt: skip
    for c, code in enumerate(cells):
        if code:
            enemy = 1 - owner(code)
            if flanked(geo, cells, c, enemy, active_sectors(geo, enemy, rebel[0], (a, b))):
                raise InvalidPosition(
                    f"the counter on {geo.cell_names[c]} is flanked and should have been "
                    "captured (play never leaves a capture pending)"
                )
    finished = rebel[0] in (a, b) or all(controlled_by_sector(geo, cells))
    if finished and side_token != "-":
        raise InvalidPosition("the game is over in this position, so the side must be '-'")
    if not finished and side_token == "-":
        raise InvalidPosition("'-' is only for a finished game: write 'r' or 'i'")
    return state


# -- turn notation -------------------------------------------------------------------------

# re.ASCII: ``\d`` is 0–9 only, not the digits of other scripts
_ACTION_RE = re.compile(r"([a-z])(\d+)([>@])([a-z]+)", re.ASCII)
_COMMAND_RE = re.compile(r"p(\d+)\.(\d+)-p(\d+)\.(\d+)", re.ASCII)
_TURN_HELP = "write a turn like 'e5>N' (place), 'c4@W' (rotate), or 'e5>N;P2.2-P3.2'"


def _parse_action(state: DefianceState, text: object) -> Action:
    if not isinstance(text, str):
        raise IllegalMove(f"an action must be text like 'e5>N', not {describe_value(text)}")
    geo = state._game.geo
    cleaned = "".join(text.split()).lower()
    match = _ACTION_RE.fullmatch(cleaned)
    if match is None:
        raise IllegalMove(f"cannot read the action {text.strip()!r}: {_TURN_HELP}")
    number = read_number(match[2], IllegalMove, "a move")
    cell = None if match[2].startswith("0") else geo.cell_index.get(f"{match[1]}{number}")
    if cell is None:
        last = geo.cell_names[-1]
        raise IllegalMove(f"{match[1]}{match[2]} is not a cell of this board (a1…{last})")
    direction = DIRECTION_INDEX.get(match[4].upper())
    if direction is None:
        raise IllegalMove(f"{match[4].upper()!r} is not a direction (N NE E SE S SW W NW)")
    return Action(PLACE if match[3] == ">" else ROTATE, cell, direction)


def _parse_turn(state: DefianceState, text: object) -> Turn:
    if not isinstance(text, str):
        raise IllegalMove(f"a turn must be text like 'e5>N', not {describe_value(text)}")
    over = state.outcome()
    if over is not None:
        raise IllegalMove(f"the game is over ({over.winner} won: {over.reason})")
    geo = state._game.geo
    head, sep, tail = text.partition(";")
    action = _parse_action(state, head)
    mid = state._after_action(action)  # says why an action is illegal
    if not sep:
        return Turn(action, None, geo.n)
    cleaned = "".join(tail.split()).lower()
    match = _COMMAND_RE.fullmatch(cleaned)
    if match is None:
        raise IllegalMove(f"cannot read the Command move {tail.strip()!r}: write like P2.2-P3.3")
    coords = [read_number(v, IllegalMove, "a move") for v in match.groups()]
    if any(v > geo.n for v in coords):
        raise IllegalMove(f"{tail.strip()} leaves the board (points are 0–{geo.n})")
    move = CommandMove(geo.point(coords[0], coords[1]), geo.point(coords[2], coords[3]))
    if mid.won:
        raise IllegalMove("this action wins the game: no Command move follows it")
    if move not in dict(state._command_options(mid)):
        raise IllegalMove(
            f"{move.text(geo)} is not a legal Command move here: {state._why_not(mid, move)}"
        )
    return Turn(action, move, geo.n)


def arrow(direction: str) -> str:
    """The arrow of a direction name (``NE`` → ``↗``)."""
    return ARROWS[DIRECTION_INDEX[direction]]


def names(geo: Geometry, cells: Iterable[int]) -> list[str]:
    """Cell names of cell indices."""
    return [geo.cell_names[c] for c in cells]


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
