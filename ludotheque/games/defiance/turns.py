"""The legal turns of a position as a lazy sequence: actions times shared Command-move lists.

A position has thousands of turns (7,200 at the start) but few distinct facts behind them: the
cells where the mover may place, the mover's counters (each may turn to seven directions), and
the Command moves that may follow an action — the same list after almost every action, since
an action changes them only when it captures or wins. ``Turns`` keeps just that and builds a
``Turn`` when one is looked at: by index (offsets per action), by iteration, or to test
membership, which ``play`` uses to know that a turn needs no other check.

Order (the order of ``legal_moves()`` since the first engine): placements by cell then
direction, then rotations by cell then direction; each action alone, then followed by each of
its Command moves.

``plan(state)`` finds those facts from the bitboards of a position.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, overload

from .board import (
    AfterAction,
    active_sectors,
    capture_masks,
    completes_win,
    flanked_mask,
    sectors_mask,
)
from .moves import PLACE, ROTATE, Action, CommandMove, Turn

if TYPE_CHECKING:
    from .rules import DefianceState

Options = tuple[CommandMove, ...]
ActionTables = tuple[tuple[tuple[Action, ...], ...], tuple[tuple[tuple[Action, ...], ...], ...]]


@cache
def action_tables(n: int) -> ActionTables:
    """Every action of an ``n``×``n`` board, built once: ``places[c]`` the eight placements in
    cell ``c`` (by direction), ``rotations[c][f]`` the seven rotations of a counter in ``c``
    facing ``f`` (by direction, ``f`` left out). Listing actions then only joins these tuples:
    building an ``Action`` costs more than looking one up."""
    places = tuple(tuple(Action(PLACE, c, d) for d in range(8)) for c in range(n * n))
    rotations = tuple(
        tuple(tuple(Action(ROTATE, c, d) for d in range(8) if d != f) for f in range(8))
        for c in range(n * n)
    )
    return places, rotations


class Turns(Sequence[Turn]):
    """The legal turns of one position (see the module docstring); a read-only ``Sequence``
    that compares equal to the list of the same turns."""

    __slots__ = (
        "_base",
        "_length",
        "_n",
        "_own",
        "_own_mask",
        "_place_mask",
        "_places",
        "_special",
        "_special_index",
        "_special_starts",
        "_step",
        "_tables",
        "_wins",
    )

    def __init__(
        self,
        n: int,
        places: Sequence[int],
        own: Sequence[tuple[int, int]],
        base: Options,
        special: dict[int, Options],
        wins: int = 0,
    ) -> None:
        """``places``: the cells where the mover may place (ascending); ``own``: the mover's
        counters as ``(cell, facing)`` (ascending); ``base``: the Command moves that may follow
        an action; ``special``: action index → its Command moves, for the actions after which
        they are not ``base`` (captures; a winning placement has none); ``wins``: the mask of
        the cells where a placement wins the game (in every direction)."""
        self._n = n
        self._tables = action_tables(n)
        self._wins = wins
        self._places = tuple(places)
        self._own = tuple(own)
        self._place_mask = sum(1 << c for c in self._places)
        self._own_mask = sum(1 << c for c, _ in self._own)
        self._base = base
        self._special = special
        step = self._step = 1 + len(base)
        actions = 8 * len(self._places) + 7 * len(self._own)
        length = actions * step
        index = sorted(special)
        starts = []
        for k in index:  # the start of each special action's turns
            starts.append(k * step + length - actions * step)
            length += len(special[k]) + 1 - step
        self._special_index = index
        self._special_starts = starts
        self._length = length

    # -- the sequence ----------------------------------------------------------------------

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> list[Turn]: ...

    def __getitem__(self, index: int | slice) -> Turn | list[Turn]:
        if isinstance(index, slice):
            return [self._turn(i) for i in range(*index.indices(self._length))]
        i = index.__index__()
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError("turn index out of range")
        return self._turn(i)

    def __iter__(self) -> Iterator[Turn]:
        n = self._n
        base = self._base
        special = self._special
        for k, action in enumerate(self.actions()):
            yield Turn(action, None, n)
            for command in special.get(k, base) if special else base:
                yield Turn(action, command, n)

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, Turn) or value.n != self._n:
            return False
        return self.contains(value)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The index of turn ``value`` (``ValueError`` if it is not one of these turns)."""
        if isinstance(value, Turn) and value.n == self._n:
            found = self._locate(value)
            if found >= 0 and start <= found and (stop is None or found < stop):
                return found
        if start or stop is not None:  # the same answer as a list's, by a walk
            return super().index(value, start, self._length if stop is None else stop)
        raise ValueError(f"{value!r} is not a legal turn here")

    def count(self, value: Any) -> int:
        """1 if ``value`` is one of these turns, else 0 (turns are distinct)."""
        return int(value in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Turns):
            return self is other or (
                self._n == other._n
                and self._places == other._places
                and self._own == other._own
                and self._length == other._length
                and list(self) == list(other)
            )
        if isinstance(other, list):
            return len(other) == self._length and list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return f"<Turns: {self._length} turns of {self.action_count()} actions>"

    # -- what the engine asks --------------------------------------------------------------

    def contains(self, turn: Turn) -> bool:
        """Whether ``turn`` (a ``Turn`` of this board size) is one of these turns."""
        return self._locate(turn) >= 0

    def action_count(self) -> int:
        """How many actions (first parts of turns) there are."""
        return 8 * len(self._places) + 7 * len(self._own)

    def actions(self) -> list[Action]:
        """The actions, in order: placements then rotations."""
        places, rotations = self._tables
        out: list[Action] = []
        extend = out.extend
        for c in self._places:
            extend(places[c])
        for c, facing in self._own:
            extend(rotations[c][facing])
        return out

    def options(self, k: int) -> Options:
        """The Command moves that may follow action number ``k`` (none after a winning one)."""
        return self._special.get(k, self._base) if self._special else self._base

    @property
    def places(self) -> tuple[int, ...]:
        """The cells where the mover may place, ascending (each with the eight directions)."""
        return self._places

    @property
    def own(self) -> tuple[tuple[int, int], ...]:
        """The mover's counters as ``(cell, facing)``, ascending (each turns seven ways)."""
        return self._own

    def action_at(self, k: int) -> Action:
        """Action number ``k`` (0 ≤ k < ``action_count()``), in the order of ``actions()``."""
        places = 8 * len(self._places)
        if k < places:
            return self._tables[0][self._places[k >> 3]][k & 7]
        c, facing = self._own[(k - places) // 7]
        return self._tables[1][c][facing][(k - places) % 7]

    def action_index(self, action: Any) -> int:
        """The number of ``action`` among these actions (its place in ``actions()``), or -1
        when it is not one of them."""
        return self._action_index(action)

    def wins(self, k: int) -> bool:
        """Whether action number ``k`` wins the game (no Command move follows it)."""
        return (
            bool(self._wins)
            and k < 8 * len(self._places)
            and bool((self._wins >> self._places[k >> 3]) & 1)
        )

    def _action_index(self, action: Any) -> int:
        """The number of ``action`` among these actions, or -1."""
        try:
            kind, c, d = action
        except (TypeError, ValueError):
            return -1
        if not (isinstance(c, int) and isinstance(d, int) and 0 <= d < 8 and c >= 0):
            return -1
        if kind == PLACE:
            if not (self._place_mask >> c) & 1:
                return -1
            return 8 * bisect_left(self._places, c) + d
        if kind == ROTATE:
            if not (self._own_mask >> c) & 1:
                return -1
            i = bisect_left(self._own, (c,))
            facing = self._own[i][1]
            if d == facing:
                return -1
            return 8 * len(self._places) + 7 * i + (d if d < facing else d - 1)
        return -1

    def _locate(self, turn: Turn) -> int:
        """The index of ``turn``, or -1."""
        k = self._action_index(turn.action)
        if k < 0:
            return -1
        options = self._special.get(k, self._base) if self._special else self._base
        if turn.command is None:
            j = 0
        else:
            try:
                j = 1 + options.index(turn.command)
            except ValueError:
                return -1
        return self._start(k) + j

    def _start(self, k: int) -> int:
        """The index of the first turn of action number ``k``."""
        index = self._special_index
        step = self._step
        if not index:
            return k * step
        before = bisect_right(index, k - 1)  # special actions before k
        if before == 0:
            return k * step
        last = index[before - 1]
        return (
            self._special_starts[before - 1] + len(self._special[last]) + 1 + (k - last - 1) * step
        )

    def _turn(self, i: int) -> Turn:
        """The turn at index ``i`` (0 ≤ i < len)."""
        step = self._step
        starts = self._special_starts
        if starts:
            before = bisect_right(starts, i)  # special actions starting at or before i
            if before:
                last = self._special_index[before - 1]
                start = starts[before - 1]
                span = len(self._special[last]) + 1
                if i < start + span:
                    return self._build(last, i - start)
                rest = i - start - span
                return self._build(last + 1 + rest // step, rest % step)
        return self._build(i // step, i % step)

    def _build(self, k: int, j: int) -> Turn:
        """Turn ``j`` (0: the action alone) of action number ``k``."""
        action = self.action_at(k)
        if j == 0:
            return Turn(action, None, self._n)
        options = self._special.get(k, self._base) if self._special else self._base
        return Turn(action, options[j - 1], self._n)


def _bits_of(mask: int) -> list[int]:
    """The cells of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def plan(state: DefianceState) -> Turns:
    """The legal turns of ``state`` (not over), from its bitboards (the state's internals: this
    module belongs to the rules).

    An action changes which Command moves are legal only when it captures (a captured Imperial
    counter may open a wall, a captured Rebel counter may free a key point), or when a Rebel
    placement wins (then none follows); otherwise the moves legal before it (``base``) stay
    legal. The capturing actions are found for the whole board at once (``capture_masks``), and
    a winning placement needs three sectors already held.
    """
    geo = state._game.geo
    side = state._side
    cells = state._cells
    masks, rebel, imperial = state.bitboards()
    own_mask, enemies = (rebel, imperial) if side == 0 else (imperial, rebel)
    place_mask = 0
    if state._pools[side] > 0:
        enemy = 1 - side
        active = sectors_mask(geo, active_sectors(geo, enemy, state._rebel, state._imperial))
        place_mask = geo.full & ~(rebel | imperial) & ~flanked_mask(geo, masks, enemy, active)
    places = _bits_of(place_mask)
    lo = 1 + 8 * side
    own = [(c, cells[c] - lo) for c in _bits_of(own_mask)]
    unchanged = AfterAction(list(cells), list(state._pools), [], False)
    base = tuple(cm for cm, _ in state._command_options(unchanged))
    special: dict[int, tuple[CommandMove, ...]] = {}
    active = sectors_mask(geo, active_sectors(geo, side, state._rebel, state._imperial))
    capturing = capture_masks(geo, masks, enemies, side, active)
    rotations = 8 * len(places)
    for d, found in enumerate(capturing):
        if not found:
            continue
        if found & place_mask:
            for c in _bits_of(found & place_mask):
                mid = state._after_action(Action(PLACE, c, d))
                special[8 * places.index(c) + d] = tuple(
                    cm for cm, _ in state._command_options(mid)
                )
        if found & own_mask:
            for i, (c, facing) in enumerate(own):
                if d != facing and (found >> c) & 1:
                    mid = state._after_action(Action(ROTATE, c, d))
                    special[rotations + 7 * i + (d if d < facing else d - 1)] = tuple(
                        cm for cm, _ in state._command_options(mid)
                    )
    wins = 0
    if side == 0 and places:
        counts = state._control_counts()
        if sum(1 for k in counts if k) == 3:  # a placement wins only in the missing sector
            missing = geo.sector_masks[counts.index(0)]
            for i, c in enumerate(places):
                if (missing >> c) & 1 and completes_win(geo, cells, c, counts):
                    wins |= 1 << c
                    for d in range(8):
                        special[8 * i + d] = ()
    return Turns(geo.n, places, own, base, special, wins)
