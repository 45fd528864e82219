"""The solver's compiled inner loops (numba): move and un-move generation on bitboards, and the
two passes of the retrograde analysis of one sub-layer.

Values are ``uint16`` codes, from the point of view of the side to move:

- ``0``: a draw (after the analysis; during it, not yet known);
- ``c = dist + 1`` for a decided position, ``dist`` the plies to the end of the game with best
  play (the winner hurrying, the loser holding out). Terminal positions are lost for the side to
  move at distance 0, so an odd code (even distance) is a loss and an even code a win;
- ``OVER`` (``0xFFFF``): the game is already over and the side to move has won (the general shut
  in with the rebels to move, which no legal move produces).

The moves come from the engine's own tables (``board.NEIGHBOURS``, ``board.PAIRS_AT``,
``moves.REBEL_TARGETS``), turned into arrays once. Without numba the same functions run as
plain Python: correct, but only fit for tiny checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ..games.general.board import GATES_MASK, NEIGHBOURS, NUM_POINTS, PAIRS_AT, S4, SANCTUARY_MASK
from ..games.general.moves import REBEL_TARGETS
from .layout import rank_tables

try:
    import numba
except ImportError:  # pragma: no cover - the solver's extra is not installed
    HAVE_NUMBA = False
else:
    HAVE_NUMBA = True

F = TypeVar("F", bound=Callable[..., Any])


def njit(function: F) -> F:
    """``numba.njit`` (cached, releasing the GIL) when numba is installed, else the function."""
    if not HAVE_NUMBA:  # pragma: no cover
        return function
    return cast(F, numba.njit(cache=True, nogil=True)(function))


OVER = 0xFFFF
NO_COUNT = 255
"""A counter value meaning "this position can never be lost" (it has a drawing capture)."""
BIG = 1 << 30
SQUARE_MASK = (1 << 25) - 1
ALL_MASK = (1 << NUM_POINTS) - 1
MAX_CHILDREN = 160
"""Room for the children of any position (a flight lands on up to 28 points, 4 pairs each)."""

# child kinds
PLAIN = 0  # same sub-layer
CAPTURE = 1  # two rebels fewer
FLIGHT = 2  # same rebels, flight used (sub-layer (k, 0))

Int64Array = npt.NDArray[np.int64]
Geometry = tuple[Int64Array, Int64Array, Int64Array, Int64Array, Int64Array, Int64Array,
                 Int64Array]  # fmt: skip


def geometry() -> Geometry:
    """The engine's tables as arrays: neighbours (and counts), rebel targets, capture pairs per
    landing point (and counts), and the two rank tables."""
    neigh = np.full((NUM_POINTS, 8), -1, dtype=np.int64)
    nneigh = np.zeros(NUM_POINTS, dtype=np.int64)
    for p, row in enumerate(NEIGHBOURS):
        neigh[p, : len(row)] = row
        nneigh[p] = len(row)
    targets = np.array(REBEL_TARGETS, dtype=np.int64)
    pairs = np.zeros((NUM_POINTS, 4), dtype=np.int64)
    npairs = np.zeros(NUM_POINTS, dtype=np.int64)
    for p, row in enumerate(PAIRS_AT):
        pairs[p, : len(row)] = row
        npairs[p] = len(row)
    low, high = rank_tables()
    return neigh, nneigh, targets, pairs, npairs, low, high


@njit
def popcount(x: int) -> int:
    """Set bits of a value below 2**32."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit
def rank_of(rebels: int, low: Int64Array, high: Int64Array) -> int:
    """Colex rank of a rebel set (see ``layout.rank``)."""
    part = rebels & 0x1FFF
    return int(low[part] + high[popcount(part), rebels >> 13])


@njit
def slot_of(general: int, rebels: int) -> int:
    """The general's slot (see ``layout.general_slot``)."""
    return general - popcount(rebels & ((1 << general) - 1))


@njit
def next_set(rebels: int) -> int:
    """The next set of the same size in colex order (Gosper's hack)."""
    low = rebels & -rebels
    ripple = rebels + low
    return (((ripple ^ rebels) >> 2) // low) | ripple


@njit
def shut_in(general: int, rebels: int) -> bool:
    """The general in the sanctuary and rebels on all three gates."""
    return ((SANCTUARY_MASK >> general) & 1) == 1 and (rebels & GATES_MASK) == GATES_MASK


@njit
def rebel_children(general: int, rebels: int, flight: int, geo: Geometry, out: Int64Array) -> int:
    """The rebels' moves: each child's (general, rebels, flight, ``PLAIN``) in ``out``; returns
    their number."""
    targets = geo[2]
    empty = SQUARE_MASK & ~rebels & ~(1 << general)
    n = 0
    for src in range(25):
        if (rebels >> src) & 1:
            dsts = targets[src] & empty
            while dsts:
                bit = dsts & -dsts
                dsts ^= bit
                out[n, 0] = general
                out[n, 1] = rebels ^ (1 << src) ^ bit
                out[n, 2] = flight
                out[n, 3] = PLAIN
                n += 1
    return n


@njit
def rebel_move_count(general: int, rebels: int, geo: Geometry) -> int:
    """How many moves the rebels have."""
    targets = geo[2]
    empty = SQUARE_MASK & ~rebels & ~(1 << general)
    n = 0
    for src in range(25):
        if (rebels >> src) & 1:
            n += popcount(targets[src] & empty)
    return n


@njit
def general_children(general: int, rebels: int, flight: int, geo: Geometry, out: Int64Array) -> int:
    """The general's moves: each child's (general, rebels, flight, kind) in ``out`` (kind
    ``PLAIN``, ``CAPTURE`` or ``FLIGHT``); returns their number. As in the engine: landing
    between a pair always takes one (one move per pair); stepping onto s4 with the flight unused
    is the flight, which lands on any point free of rebels but s4 (his own included)."""
    neigh, nneigh, pairs, npairs = geo[0], geo[1], geo[3], geo[4]
    n = 0
    for i in range(nneigh[general]):
        dst = neigh[general, i]
        if (rebels >> dst) & 1:
            continue
        if dst == S4 and flight == 1:
            for land in range(NUM_POINTS):
                if land == S4 or (rebels >> land) & 1:
                    continue
                taken = False
                for j in range(npairs[land]):
                    pair = pairs[land, j]
                    if rebels & pair == pair:
                        taken = True
                        out[n, 0] = land
                        out[n, 1] = rebels ^ pair
                        out[n, 2] = 0
                        out[n, 3] = CAPTURE
                        n += 1
                if not taken:
                    out[n, 0] = land
                    out[n, 1] = rebels
                    out[n, 2] = 0
                    out[n, 3] = FLIGHT
                    n += 1
        else:
            taken = False
            for j in range(npairs[dst]):
                pair = pairs[dst, j]
                if rebels & pair == pair:
                    taken = True
                    out[n, 0] = dst
                    out[n, 1] = rebels ^ pair
                    out[n, 2] = flight
                    out[n, 3] = CAPTURE
                    n += 1
            if not taken:
                out[n, 0] = dst
                out[n, 1] = rebels
                out[n, 2] = flight
                out[n, 3] = PLAIN
                n += 1
    return n


@njit
def predecessors(
    general: int, rebels: int, side: int, flight: int, geo: Geometry, out: Int64Array
) -> int:
    """The positions of the same sub-layer with a move to this one, which are not already over
    (the other side to move): each (general, rebels) in ``out``; returns their number.

    Before the general to move: a rebel stepped onto one of the rebels' points. Before the
    rebels to move: the general stepped here without capturing (impossible where a pair is
    around him: landing between a pair always takes it; nor from s4 with the flight unused,
    where he never stands)."""
    neigh, nneigh, targets, pairs, npairs = geo[0], geo[1], geo[2], geo[3], geo[4]
    n = 0
    if side == 1:
        free = SQUARE_MASK & ~rebels & ~(1 << general)
        for dst in range(25):
            if (rebels >> dst) & 1:
                srcs = targets[dst] & free
                while srcs:
                    bit = srcs & -srcs
                    srcs ^= bit
                    before = rebels ^ (1 << dst) ^ bit
                    if shut_in(general, before):
                        continue
                    out[n, 0] = general
                    out[n, 1] = before
                    n += 1
    else:
        for j in range(npairs[general]):
            pair = pairs[general, j]
            if rebels & pair == pair:
                return 0
        for i in range(nneigh[general]):
            src = neigh[general, i]
            if (rebels >> src) & 1 or shut_in(src, rebels) or (src == S4 and flight == 1):
                continue
            out[n, 0] = src
            out[n, 1] = rebels
            n += 1
    return n


@njit
def child_code(table: npt.NDArray[np.uint16], k: int, general: int, rebels: int,
               geo: Geometry) -> int:  # fmt: skip
    """The code of a child with the rebels to move in the sub-layer ``table`` of ``k`` rebels
    (4 rebels: the general has won, a loss for the rebels at distance 0)."""
    if k == 4:
        return 1
    idx = rank_of(rebels, geo[5], geo[6]) * (2 * (NUM_POINTS - k)) + 2 * slot_of(general, rebels)
    return int(table[idx])


@njit
def general_summary(
    general: int,
    rebels: int,
    flight: int,
    k: int,
    low_same: npt.NDArray[np.uint16],
    low_f0: npt.NDArray[np.uint16],
    same_f0: npt.NDArray[np.uint16],
    geo: Geometry,
    out: Int64Array,
) -> tuple[int, int, bool, int, int]:
    """For the general to move: ``(plain, best_win, draw, worst_loss, moves)``: his moves inside
    the sub-layer, the shortest win and the longest loss among the moves that leave it (captures,
    flights; ``BIG`` and -1 when there are none), whether one of those draws, and all his moves."""
    n = general_children(general, rebels, flight, geo, out)
    plain = 0
    best = BIG
    draw = False
    worst = -1
    for i in range(n):
        kind = out[i, 3]
        if kind == PLAIN:
            plain += 1
            continue
        if kind == CAPTURE:
            table = low_same if out[i, 2] == flight else low_f0
            code = child_code(table, k - 2, out[i, 0], out[i, 1], geo)
        else:
            code = child_code(same_f0, k, out[i, 0], out[i, 1], geo)
        if code == 0:
            draw = True
        elif code == OVER:  # cannot happen: no general move shuts him in
            worst = max(worst, 1)
        elif code & 1:
            best = min(best, code)
        else:
            worst = max(worst, code)
    return plain, best, draw, worst, n


@njit
def init_block(
    k: int,
    flight: int,
    r0: int,
    r1: int,
    first: int,
    val: npt.NDArray[np.uint16],
    cnt: npt.NDArray[np.uint8],
    hist: Int64Array,
    low_same: npt.NDArray[np.uint16],
    low_f0: npt.NDArray[np.uint16],
    same_f0: npt.NDArray[np.uint16],
    geo: Geometry,
) -> None:
    """First pass over the rebel sets of ranks ``r0 .. r1 - 1`` (``first`` is the set of rank
    ``r0``): terminal positions, positions decided by a move leaving the sub-layer, and for the
    rest the number of moves inside it (``cnt``). ``hist[d]`` counts the codes ``d + 1`` set."""
    out = np.empty((MAX_CHILDREN, 4), dtype=np.int64)
    width = 2 * (NUM_POINTS - k)
    rebels = first
    for r in range(r0, r1):
        base = r * width
        slot = 0
        for g in range(NUM_POINTS):
            if (rebels >> g) & 1:
                continue
            i0 = base + 2 * slot
            slot += 1
            if flight == 1 and g == S4:
                continue
            if shut_in(g, rebels):
                val[i0] = OVER
                val[i0 + 1] = 1
                hist[0] += 1
                continue
            moves = rebel_move_count(g, rebels, geo)
            if moves == 0:  # the rebels cannot move: they lose ("no-move")
                val[i0] = 1
                hist[0] += 1
            else:
                cnt[i0] = moves
            plain, best, draw, worst, moves = general_summary(
                g, rebels, flight, k, low_same, low_f0, same_f0, geo, out
            )
            i1 = i0 + 1
            if moves == 0:  # immobilised
                val[i1] = 1
                hist[0] += 1
            elif best < BIG:
                val[i1] = best + 1
                hist[best] += 1
            elif draw:
                cnt[i1] = NO_COUNT
            elif plain == 0:
                val[i1] = worst + 1
                hist[worst] += 1
            else:
                cnt[i1] = plain
        rebels = next_set(rebels)


NIL = 0xFFFFFFFF
"""End of a bucket's list."""


@njit
def unrank_of(r: int, k: int, binom: Int64Array) -> int:
    """The rebel set of colex rank ``r`` among sets of ``k`` (see ``layout.unrank``)."""
    mask = 0
    p = 24
    for i in range(k, 0, -1):
        while binom[p, i] > r:
            p -= 1
        mask |= 1 << p
        r -= binom[p, i]
        p -= 1
    return mask


@njit
def general_of(slot: int, rebels: int) -> int:
    """The point of the general's slot (see ``layout.general_at``)."""
    seen = -1
    for point in range(NUM_POINTS):
        if not (rebels >> point) & 1:
            seen += 1
            if seen == slot:
                return point
    return -1


@njit
def bucket_init(
    val: npt.NDArray[np.uint16], starts: Int64Array, order: npt.NDArray[np.uint32]
) -> None:
    """Sort the positions decided by the first pass by distance: those at distance ``d`` go to
    ``order[starts[d] : starts[d + 1]]`` (``starts`` from the first pass's counts)."""
    fill = starts.copy()
    for i in range(val.size):
        v = int(val[i])
        if v != 0 and v != OVER:
            order[fill[v - 1]] = i
            fill[v - 1] += 1


@njit
def _propagate(
    q0: int,
    d: int,
    k: int,
    flight: int,
    val: npt.NDArray[np.uint16],
    cnt: npt.NDArray[np.uint8],
    hist: Int64Array,
    head: Int64Array,
    nxt: npt.NDArray[np.uint32],
    low_same: npt.NDArray[np.uint16],
    low_f0: npt.NDArray[np.uint16],
    same_f0: npt.NDArray[np.uint16],
    geo: Geometry,
    binom: Int64Array,
    preds: Int64Array,
    out: Int64Array,
) -> tuple[int, int]:
    """Pass the value of position ``q0`` (decided at distance ``d``) to its predecessors:
    a loss makes them wins at ``d + 1`` (or sooner), a win takes one from their counters, and a
    counter at zero makes a loss, at ``d + 1`` or later if a capture holds out longer. New
    values go into the buckets of their distance. Returns (highest bucket used, errors)."""
    low, high = geo[5], geo[6]
    width = 2 * (NUM_POINTS - k)
    r, rest = divmod(q0, width)
    side = rest & 1
    rebels = unrank_of(r, k, binom)
    g = general_of(rest >> 1, rebels)
    base = r * width
    top = 0
    errors = 0
    n = predecessors(g, rebels, side, flight, geo, preds)
    for j in range(n):
        pg = preds[j, 0]
        pr = preds[j, 1]
        if side == 1:
            q = rank_of(pr, low, high) * width + 2 * slot_of(pg, pr)
        else:
            q = base + 2 * slot_of(pg, pr) + 1
        v = int(val[q])
        if d % 2 == 0:  # a loss here: a win there
            if v == 0 or (v != OVER and v % 2 == 0 and v > d + 2):
                if v != 0:
                    hist[v - 1] -= 1  # a capture's slower win, improved (still in its bucket)
                val[q] = d + 2
                hist[d + 1] += 1
                nxt[q] = head[d + 1]
                head[d + 1] = q
                top = max(top, d + 1)
        elif v == 0:  # a win here: one fewer way out there
            c = int(cnt[q])
            if c == NO_COUNT:
                continue
            if c == 0:
                errors += 1
                continue
            c -= 1
            cnt[q] = c
            if c == 0:
                dist = d + 1
                if side == 0:
                    worst = general_summary(pg, pr, flight, k, low_same, low_f0, same_f0, geo, out)[
                        3
                    ]
                    dist = max(dist, worst)
                val[q] = dist + 1
                hist[dist] += 1
                nxt[q] = head[dist]
                head[dist] = q
                top = max(top, dist)
    return top, errors


@njit
def level(
    d: int,
    k: int,
    flight: int,
    val: npt.NDArray[np.uint16],
    cnt: npt.NDArray[np.uint8],
    hist: Int64Array,
    starts: Int64Array,
    order: npt.NDArray[np.uint32],
    head: Int64Array,
    nxt: npt.NDArray[np.uint32],
    low_same: npt.NDArray[np.uint16],
    low_f0: npt.NDArray[np.uint16],
    same_f0: npt.NDArray[np.uint16],
    geo: Geometry,
    binom: Int64Array,
) -> tuple[int, int, int]:
    """Propagate every position decided at distance ``d``: those the first pass decided (if a
    faster win has not replaced their value since) and those in bucket ``d``. Returns
    (positions propagated, highest bucket used, errors: must be 0)."""
    out = np.empty((MAX_CHILDREN, 4), dtype=np.int64)
    preds = np.empty((MAX_CHILDREN, 4), dtype=np.int64)
    done = 0
    top = 0
    errors = 0
    if d + 1 < starts.size:
        for j in range(starts[d], starts[d + 1]):
            q = int(order[j])
            if val[q] != d + 1:
                continue
            t, e = _propagate(q, d, k, flight, val, cnt, hist, head, nxt, low_same, low_f0,
                              same_f0, geo, binom, preds, out)  # fmt: skip
            done += 1
            top = max(top, t)
            errors += e
    q = head[d]
    while q != NIL:
        following = int(nxt[q])
        t, e = _propagate(q, d, k, flight, val, cnt, hist, head, nxt, low_same, low_f0,
                          same_f0, geo, binom, preds, out)  # fmt: skip
        done += 1
        top = max(top, t)
        errors += e
        q = following
    head[d] = NIL
    return done, top, errors


@njit
def tally_block(
    k: int, flight: int, r0: int, r1: int, first: int, val: npt.NDArray[np.uint16],
    counts: Int64Array,
) -> None:  # fmt: skip
    """Count the values of ranks ``r0 .. r1 - 1``: ``counts[side, kind]`` with kind 0 draw,
    1 win, 2 loss for the side to move, 3 over (already won by the side to move)."""
    width = 2 * (NUM_POINTS - k)
    rebels = first
    for r in range(r0, r1):
        base = r * width
        slot = 0
        for g in range(NUM_POINTS):
            if (rebels >> g) & 1:
                continue
            i0 = base + 2 * slot
            slot += 1
            if flight == 1 and g == S4:
                continue
            for side in range(2):
                v = int(val[i0 + side])
                if v == 0:
                    counts[side, 0] += 1
                elif v == OVER:
                    counts[side, 3] += 1
                elif v % 2 == 0:
                    counts[side, 1] += 1
                else:
                    counts[side, 2] += 1
        rebels = next_set(rebels)


@njit
def verify_block(
    k: int,
    flight: int,
    r0: int,
    r1: int,
    first: int,
    val: npt.NDArray[np.uint16],
    low_same: npt.NDArray[np.uint16],
    low_f0: npt.NDArray[np.uint16],
    same_f0: npt.NDArray[np.uint16],
    geo: Geometry,
) -> tuple[int, int]:
    """Recompute every code of ranks ``r0 .. r1 - 1`` from the codes of its children (one
    step of the game's value: the fastest win, else a draw, else the slowest loss; terminal
    positions as the rules say) and count the positions whose stored code differs. Together
    with the engine's agreement on the moves (``check.check_moves``), no error on every block
    proves a sub-layer right. Returns (errors, index of the first error or -1)."""
    out = np.empty((MAX_CHILDREN, 4), dtype=np.int64)
    low, high = geo[5], geo[6]
    width = 2 * (NUM_POINTS - k)
    errors = 0
    first_error = -1
    rebels = first
    for r in range(r0, r1):
        base = r * width
        slot = 0
        for g in range(NUM_POINTS):
            if (rebels >> g) & 1:
                continue
            i0 = base + 2 * slot
            slot += 1
            for side in range(2):
                if flight == 1 and g == S4:
                    want = 0
                elif shut_in(g, rebels):
                    want = OVER if side == 0 else 1
                else:
                    if side == 0:
                        n = rebel_children(g, rebels, flight, geo, out)
                    else:
                        n = general_children(g, rebels, flight, geo, out)
                    best = BIG
                    worst = -1
                    draw = False
                    for i in range(n):
                        cg, cr, cf, kind = out[i, 0], out[i, 1], out[i, 2], out[i, 3]
                        if kind == PLAIN:
                            idx = rank_of(cr, low, high) * width + 2 * slot_of(cg, cr) + 1 - side
                            code = int(val[idx])
                        elif kind == CAPTURE:
                            table = low_same if cf == flight else low_f0
                            code = child_code(table, k - 2, cg, cr, geo)
                        else:
                            code = child_code(same_f0, k, cg, cr, geo)
                        if code == 0:
                            draw = True
                        elif code == OVER:
                            worst = max(worst, 1)
                        elif code % 2 == 1:
                            best = min(best, code)
                        else:
                            worst = max(worst, code)
                    if n == 0:
                        want = 1
                    elif best < BIG:
                        want = best + 1
                    elif draw:
                        want = 0
                    else:
                        want = worst + 1
                if int(val[i0 + side]) != want:
                    errors += 1
                    if first_error < 0:
                        first_error = i0 + side
        rebels = next_set(rebels)
    return errors, first_error
