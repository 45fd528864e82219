"""Building the rebels' winning strategy from the solved tables: one move for every position with
the rebels to move that the start leads to when the rebels follow it, whatever the general plays.

The tables hold the value of every one of the game's ~1.05 billion positions; a player from the
start needs far fewer. ``build`` walks from the start (and, for the openings, from the position
after each of the rebels' first moves), gives each rebels-to-move position it meets one of its
fastest winning moves (as the tables say), and follows every reply of the general. Among the
fastest moves it takes the one whose replies lead to the fewest positions not met yet, so that
lines of play share their positions: the strategy stays small enough to ship. Every move it
keeps is a fastest win, so from every position of the strategy the rebels win in exactly the
tables' number of plies against the best defence, and sooner against any other.

The walk goes by distance, longest first (a move of the strategy always leads closer to the
end), and keeps its progress on disk after each distance (``Checkpoint``), so a stopped build
resumes. It needs the solver's raw tables of the whole game (``tools/solve_general.py solve``)
and numba; the strategy it writes (``certificate.write``) needs neither to be read or checked.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from . import kernels
from .certificate import key_of, position_of
from .kernels import njit
from .layout import LAYERS, WON, Position, index
from .retrograde import RawStore

Table = npt.NDArray[np.uint16]


@njit
def rebel_options(
    general: int,
    rebels: int,
    flight: int,
    table: Table,
    k: int,
    geo: kernels.Geometry,
    out: kernels.Int64Array,
    codes: kernels.Int64Array,
) -> int:
    """The rebels' moves in the engine's order (by source point, then destination): each
    child in ``out`` and its code (the general to move, in ``table``, the sub-layer of ``k``
    rebels and this flight) in ``codes``; returns their number."""
    n = kernels.rebel_children(general, rebels, flight, geo, out)
    width = 2 * (29 - k)
    for i in range(n):
        cg, cr = out[i, 0], out[i, 1]
        idx = kernels.rank_of(cr, geo[5], geo[6]) * width + 2 * kernels.slot_of(cg, cr) + 1
        codes[i] = table[idx]
    return n


@dataclass
class Choice:
    """The move kept for one position: its index among the engine's legal moves, and the
    plies to the end with best play."""

    move: int
    plies: int


@dataclass
class Built:
    """A strategy: ``moves[key] = Choice`` for every rebels-to-move position it reaches
    (``certificate.key_of``), and the general-to-move positions it was asked to cover
    (``roots``: each with its plies to the end)."""

    moves: dict[int, Choice] = field(default_factory=dict)
    roots: dict[int, int] = field(default_factory=dict)


class Builder:
    """The walk over the tables of a raw store (the sub-layers it has: every one from 6 rebels
    up to those of the positions the walk meets)."""

    def __init__(self, store: RawStore) -> None:
        self.store = store
        self.tables: dict[tuple[int, int], Table] = {
            (k, f): store.load(k, f, mmap=True) for k in LAYERS for f in (0, 1) if store.has(k, f)
        }
        self.geo = kernels.geometry()
        self.out = np.empty((kernels.MAX_CHILDREN, 4), dtype=np.int64)
        self.replies_out = np.empty((kernels.MAX_CHILDREN, 4), dtype=np.int64)
        self.codes = np.empty(kernels.MAX_CHILDREN, dtype=np.int64)

    def code(self, position: Position) -> int:
        """The raw code of a position (either side to move)."""
        if position.layer == WON:
            return 1
        table = self.tables.get((position.layer, position.flight))
        if table is None:
            raise FileNotFoundError(f"no solved sub-layer of {position.layer} rebels, flight "
                                    f"{position.flight}: solve the game first")  # fmt: skip
        return int(table[index(position)])

    def replies(self, general: int, rebels: int, flight: int) -> list[int]:
        """The positions (keys) the general's moves lead to, the finished ones left out (the
        general shut in: the rebels have won)."""
        out = self.replies_out
        n = kernels.general_children(general, rebels, flight, self.geo, out)
        found = []
        for i in range(n):
            g, r, f = int(out[i, 0]), int(out[i, 1]), int(out[i, 2])
            if kernels.shut_in(g, r):
                continue
            if r.bit_count() == WON:
                raise AssertionError("a general's move wins a position the tables call lost")
            found.append(key_of(g, r, f))
        return found

    def options(self, key: int) -> tuple[int, list[tuple[int, list[int]]]]:
        """The fastest winning moves of a rebels-to-move position: ``(plies, [(move index,
        the general's replies), ...])``."""
        position = position_of(key)
        g, rebels, _, flight = position
        own = self.code(position)
        if own == 0 or own == kernels.OVER or own % 2 == 1:
            raise AssertionError(f"{position}: not a rebels' win (code {own})")
        k = position.layer
        n = rebel_options(g, rebels, flight, self.tables[k, flight], k, self.geo, self.out,
                          self.codes)  # fmt: skip
        found = []
        for i in range(n):
            if int(self.codes[i]) != own - 1:
                continue
            cg, cr = int(self.out[i, 0]), int(self.out[i, 1])
            over = own - 1 == 1  # the general immobilised or shut in after this move
            found.append((i, [] if over else self.replies(cg, cr, flight)))
        if not found:
            raise AssertionError(f"{position}: no move keeps the tables' value")
        return own - 1, found


class Checkpoint:
    """The build's progress on disk: the strategy so far and the positions still to visit,
    saved after each distance (``progress.npz``, written atomically)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "progress.npz"

    def save(self, built: Built, pending: dict[int, list[int]], done_above: int) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        keys = np.fromiter(built.moves.keys(), dtype=np.uint32, count=len(built.moves))
        moves = np.fromiter((c.move for c in built.moves.values()), dtype=np.uint8,
                            count=len(built.moves))  # fmt: skip
        plies = np.fromiter((c.plies for c in built.moves.values()), dtype=np.uint8,
                            count=len(built.moves))  # fmt: skip
        waiting = [(d, key) for d, keys_d in pending.items() for key in keys_d]
        tmp = self.folder / "progress.tmp.npz"
        np.savez(
            tmp,
            keys=keys,
            moves=moves,
            plies=plies,
            pending=np.array(waiting, dtype=np.int64).reshape(-1, 2),
            roots=np.array(sorted(built.roots.items()), dtype=np.int64).reshape(-1, 2),
            done_above=np.array([done_above]),
        )
        tmp.replace(self.path)

    def load(self) -> tuple[Built, dict[int, list[int]], int] | None:
        if not self.path.exists():
            return None
        data = np.load(self.path)
        built = Built()
        for key, move, plies in zip(data["keys"], data["moves"], data["plies"], strict=True):
            built.moves[int(key)] = Choice(int(move), int(plies))
        built.roots = {int(k): int(p) for k, p in data["roots"]}
        pending: dict[int, list[int]] = {}
        for d, key in data["pending"]:
            pending.setdefault(int(d), []).append(int(key))
        return built, pending, int(data["done_above"][0])


def build(
    store: RawStore,
    folder: Path,
    *,
    start: Position,
    general_roots: Sequence[Position] = (),
    log: Callable[[str], None] = print,
) -> Built:
    """The strategy from ``start`` (rebels to move) that also answers every reply of the
    general in ``general_roots`` (positions with the general to move, lost for him: the
    openings); resumes from ``folder``'s checkpoint."""
    builder = Builder(store)
    checkpoint = Checkpoint(folder)
    resumed = checkpoint.load()
    if resumed is not None:
        built, pending, done_above = resumed
        log(f"resumed: {len(built.moves):,} positions kept, below {done_above} plies to go")
    else:
        built, pending = Built(), {}
        seen: set[int] = set()

        def add(key: int) -> None:
            if key not in seen:
                seen.add(key)
                plies = builder.code(position_of(key)) - 1
                pending.setdefault(plies, []).append(key)

        add(key_of(start.general, start.rebels, start.flight))
        for root in general_roots:
            code = builder.code(root)
            if code == 0 or code % 2 == 0:
                raise AssertionError(f"{root}: not a position the general loses")
            built.roots[key_of(root.general, root.rebels, root.flight)] = code - 1
            for reply in builder.replies(root.general, root.rebels, root.flight):
                add(reply)
        done_above = max(pending) + 1
    seen = set(built.moves)
    for keys in pending.values():
        seen.update(keys)
    while pending:
        plies = max(pending)
        keys = sorted(pending.pop(plies))
        began = time.monotonic()
        fresh = 0
        for key in keys:
            own, options = builder.options(key)
            assert own == plies
            best = min(
                options,
                key=lambda o: (sum(1 for r in o[1] if r not in seen), len(o[1]), o[0]),
            )
            move, replies = best
            built.moves[key] = Choice(move, plies)
            for reply in replies:
                if reply not in seen:
                    seen.add(reply)
                    fresh += 1
                    later = builder.code(position_of(reply)) - 1
                    if later >= plies or later % 2 == 0:
                        raise AssertionError(f"{position_of(reply)}: {later} plies after {plies}")
                    pending.setdefault(later, []).append(reply)
        done_above = plies
        log(
            f"{plies:2d} plies: {len(keys):,} positions, {fresh:,} new below; "
            f"{len(built.moves):,} kept; {time.monotonic() - began:.0f} s"
        )
        checkpoint.save(built, pending, done_above)
    return built


def layer_counts(built: Built) -> dict[str, int]:
    """Positions kept per rebel count (``"16"``: ...)."""
    counts: dict[str, int] = {}
    for key in built.moves:
        k = str(position_of(key).layer)
        counts[k] = counts.get(k, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -int(kv[0])))


def describe(built: Built) -> str:
    """One line: the positions kept, per rebel count."""
    return f"{len(built.moves):,} positions ({json.dumps(layer_counts(built))})"
