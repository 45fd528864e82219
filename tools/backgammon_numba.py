"""Compiled (numba) kernels for training the backgammon network: legal plays, the network's
inputs, the network itself and self-play games with TD(lambda) learning.

Training only: the package evaluates with numpy (``ludotheque.games.backgammon.network``), and
``check`` below verifies on random positions that these kernels give the same legal plays as the
engine's move generator and the same inputs as its encoder.

Boards are int8 arrays of 26 counts in their owner's view (0 off, 1–24 points, 25 bar).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludotheque.games.backgammon.network import escape_table

RAW = 96
SIDE = RAW + 8
INPUTS = 2 * SIDE + 2
EXTRA = 5  # the second encoding's further inputs of a side (see ``network``)
SIDE2 = SIDE + EXTRA
INPUTS2 = 2 * SIDE2 + 2
THIRD = 6  # the third encoding's further inputs of a side, after the second encoding
INPUTS3 = INPUTS2 + 2 * THIRD
OUTPUTS = 5
CAPACITY = 4096  # positions kept per level of the play search (the most found is ~1,500)

_rng = np.random.default_rng(20240917)
ZOBRIST = _rng.integers(1, 2**62, size=(2, 26, 16), dtype=np.int64)


def roll_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 21 rolls: dice (high, low), weights out of 36, and which distances each reaches."""
    dice = np.zeros((21, 2), dtype=np.int64)
    weight = np.zeros(21)
    reach = np.zeros((25, 21), dtype=np.bool_)
    k = 0
    for high in range(1, 7):
        for low in range(1, high + 1):
            dice[k] = (high, low)
            weight[k] = (1.0 if high == low else 2.0) / 36.0
            steps = [high, high * 2, high * 3, high * 4] if high == low else [high, low, high + low]
            for d in steps:
                if d <= 24:
                    reach[d, k] = True
            k += 1
    return dice, weight, reach


DICE, WEIGHT, REACH = roll_table()


ESCAPES = escape_table()  # the package's own table (numba takes it as a constant)


# -- legal plays ---------------------------------------------------------------------------------


@njit(cache=True)
def _key(me: np.ndarray, opp: np.ndarray, z: np.ndarray) -> np.int64:
    k = np.int64(0)
    for p in range(26):
        k ^= z[0, p, me[p]]
        k ^= z[1, p, opp[p]]
    return k


@njit(cache=True)
def _insert(table: np.ndarray, used: np.ndarray, n_used: int, key: np.int64) -> tuple[bool, int]:
    """Insert ``key`` in the open-addressing set ``table`` (0 = empty); True if it was new."""
    mask = table.shape[0] - 1
    h = int(key & mask)
    while True:
        if table[h] == 0:
            table[h] = key
            used[n_used] = h
            return True, n_used + 1
        if table[h] == key:
            return False, n_used
        h = (h + 1) & mask


@njit(cache=True)
def _clear(table: np.ndarray, used: np.ndarray, n_used: int) -> None:
    for i in range(n_used):
        table[used[i]] = 0


@njit(cache=True)
def _step(
    me: np.ndarray,
    opp: np.ndarray,
    d: int,
    cap: int,
    out_me: np.ndarray,
    out_opp: np.ndarray,
    n: int,
    table: np.ndarray,
    used: np.ndarray,
    n_used: int,
    z: np.ndarray,
) -> tuple[int, int]:
    """Append to ``out_*`` every position one move of die ``d`` leads to (new ones only)."""
    if me[25] > 0:
        dst = 25 - d
        if opp[d] >= 2 or (cap > 0 and me[dst] >= cap):
            return n, n_used
        out_me[n] = me
        out_opp[n] = opp
        out_me[n, 25] -= 1
        out_me[n, dst] += 1
        if opp[d] == 1:
            out_opp[n, d] = 0
            out_opp[n, 25] += 1
        new, n_used = _insert(table, used, n_used, _key(out_me[n], out_opp[n], z))
        if new:
            n += 1
        return n, n_used
    home = True
    for p in range(7, 25):
        if me[p] > 0:
            home = False
            break
    highest = 0
    for p in range(24, 0, -1):
        if me[p] > 0:
            highest = p
            break
    for src in range(24, 0, -1):
        if me[src] == 0:
            continue
        dst = src - d
        if dst >= 1:
            if opp[25 - dst] >= 2 or (cap > 0 and me[dst] >= cap):
                continue
            out_me[n] = me
            out_opp[n] = opp
            out_me[n, src] -= 1
            out_me[n, dst] += 1
            if opp[25 - dst] == 1:
                out_opp[n, 25 - dst] = 0
                out_opp[n, 25] += 1
        else:
            if not home or (dst < 0 and src != highest):
                continue
            out_me[n] = me
            out_opp[n] = opp
            out_me[n, src] -= 1
            out_me[n, 0] += 1
        new, n_used = _insert(table, used, n_used, _key(out_me[n], out_opp[n], z))
        if new:
            n += 1
    return n, n_used


@njit(cache=True)
def plays(
    me: np.ndarray,
    opp: np.ndarray,
    high: int,
    low: int,
    cap: int,
    out_me: np.ndarray,
    out_opp: np.ndarray,
    work: np.ndarray,
    table: np.ndarray,
    used: np.ndarray,
    final_table: np.ndarray,
    final_used: np.ndarray,
    z: np.ndarray,
) -> int:
    """The distinct positions the legal plays of a roll leave, into ``out_*``; their count.

    ``work`` is scratch space (4, CAPACITY, 26) int8, ``table``/``final_table`` empty hash
    sets (zeros) and ``used``/``final_used`` their scratch. With no legal move the one result
    is the unchanged position.
    """
    a_me, a_opp, b_me, b_opp = work[0], work[1], work[2], work[3]
    if high == low:
        a_me[0] = me
        a_opp[0] = opp
        n_in = 1
        depth = 0
        for level in range(4):
            src_me, src_opp = (a_me, a_opp) if level % 2 == 0 else (b_me, b_opp)
            dst_me, dst_opp = (b_me, b_opp) if level % 2 == 0 else (a_me, a_opp)
            n_out = 0
            n_used = 0
            for i in range(n_in):
                n_out, n_used = _step(
                    src_me[i], src_opp[i], high, cap, dst_me, dst_opp, n_out, table, used, n_used, z
                )
            _clear(table, used, n_used)
            if n_out == 0:
                break
            n_in = n_out
            depth = level + 1
        final_me, final_opp = (a_me, a_opp) if depth % 2 == 0 else (b_me, b_opp)
        for i in range(n_in):
            out_me[i] = final_me[i]
            out_opp[i] = final_opp[i]
        return n_in
    # two dice: either order; both dice if possible, else the larger when it can be played
    n_final = 0
    n_used_final = 0
    singles_high = 0
    for order in range(2):
        first, second = (high, low) if order == 0 else (low, high)
        n1 = 0
        n_used = 0
        n1, n_used = _step(me, opp, first, cap, a_me, a_opp, n1, table, used, n_used, z)
        _clear(table, used, n_used)
        n2 = 0
        n_used = 0
        for i in range(n1):
            n2, n_used = _step(
                a_me[i], a_opp[i], second, cap, b_me, b_opp, n2, table, used, n_used, z
            )
        _clear(table, used, n_used)
        if order == 0:
            singles_high = n1
        for i in range(n2):
            new, n_used_final = _insert(
                final_table, final_used, n_used_final, _key(b_me[i], b_opp[i], z)
            )
            if new:
                out_me[n_final] = b_me[i]
                out_opp[n_final] = b_opp[i]
                n_final += 1
    _clear(final_table, final_used, n_used_final)
    if n_final > 0:
        return n_final
    # no play uses both dice: the larger die if it moves, else the smaller
    die = high if singles_high > 0 else low
    n1 = 0
    n_used = 0
    n1, n_used = _step(me, opp, die, cap, out_me, out_opp, n1, table, used, n_used, z)
    _clear(table, used, n_used)
    if n1 == 0:
        out_me[0] = me
        out_opp[0] = opp
        return 1
    return n1


# -- the network's inputs ---------------------------------------------------------------------


@njit(cache=True)
def _rearmost(c: np.ndarray) -> int:
    for p in range(25, 0, -1):
        if c[p] > 0:
            return p
    return 0


@njit(cache=True)
def _pips(c: np.ndarray) -> int:
    s = 0
    for p in range(26):
        s += p * c[p]
    return s


@njit(cache=True)
def _side(own: np.ndarray, other: np.ndarray, x: np.ndarray, o: int, weight: np.ndarray,
          reach: np.ndarray) -> None:  # fmt: skip
    for p in range(1, 25):
        n = own[p]
        base = o + 4 * (p - 1)
        x[base] = 1.0 if n >= 1 else 0.0
        x[base + 1] = 1.0 if n >= 2 else 0.0
        x[base + 2] = 1.0 if n >= 3 else 0.0
        x[base + 3] = (n - 3) / 2.0 if n > 3 else 0.0
    bar = own[25]
    x[o + RAW] = 1.0 if bar >= 1 else 0.0
    x[o + RAW + 1] = (bar - 1) / 2.0 if bar > 1 else 0.0
    x[o + RAW + 2] = own[0] / 15.0
    x[o + RAW + 3] = _pips(own) / 200.0
    # shots: distances from the other side's checkers (its bar at 0) to our blots
    behind = np.zeros(25, dtype=np.bool_)
    behind[0] = other[25] > 0
    for a in range(1, 25):
        behind[a] = other[25 - a] > 0
    dist = np.zeros(25, dtype=np.bool_)
    for b in range(1, 25):
        if own[b] == 1:
            for a in range(b):
                if behind[a]:
                    dist[b - a] = True
    shots = 0.0
    for k in range(21):
        for d in range(1, 25):
            if dist[d] and reach[d, k]:
                shots += weight[k]
                break
    x[o + RAW + 4] = shots
    x[o + RAW + 5] = _rearmost(own) / 25.0
    best = 0
    run = 0
    home = 0
    for p in range(1, 25):
        if own[p] >= 2:
            run += 1
            if run > best:
                best = run
            if p <= 6:
                home += 1
        else:
            run = 0
    x[o + RAW + 6] = min(best, 6) / 6.0
    x[o + RAW + 7] = home / 6.0


FULL = np.int64(0x1FFFFFE)  # bits 1-24: the points


@njit(cache=True)
def _hits(own: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    """The chance that ``other`` can hit a blot of ``own`` with its next roll, landing only on
    open points on the way and entering from its bar first, and the pips ``own`` loses by the
    worst such hit on average (out of 24), both over the 21 rolls (``network.hit_chances``).
    Sets of points are bits (bit b for own point b)."""
    openp = np.int64(0)
    blots = np.int64(0)
    src = np.int64(0)
    one = np.int64(1)
    for b in range(1, 25):
        if own[b] < 2:
            openp |= one << b
        if own[b] == 1:
            blots |= one << b
        if other[25 - b] > 0:
            src |= one << b
    if blots == 0:
        return 0.0, 0.0
    bar = other[25]
    chance = 0.0
    loss = 0.0
    for k in range(21):
        d1 = np.int64(DICE[k, 0])
        d2 = np.int64(DICE[k, 1])
        reach = np.int64(0)
        if d1 == d2:
            d = d1
            steps = 4
            cur = src
            if bar > 0:
                if (openp >> d) & 1 == 0:
                    continue
                reach = one << d
                steps = 4 - bar if bar < 4 else 0
                cur = src | (one << d)
            for _ in range(steps):
                moved = (cur << d) & FULL
                reach |= moved
                cur = moved & openp
        elif bar >= 2:
            reach = ((one << d1) | (one << d2)) & openp
        elif bar == 1:
            for i in range(2):
                di = d1 if i == 0 else d2
                dj = d2 if i == 0 else d1
                if (openp >> di) & 1:
                    reach |= (one << di) | (one << (di + dj)) | ((src << dj) & FULL)
        else:
            a = (src << d1) & FULL
            c = (src << d2) & FULL
            reach = (a | c | ((a & openp) << d2) | ((c & openp) << d1)) & FULL
        hit = reach & blots
        if hit != 0:
            lowest = 1
            while (hit >> lowest) & 1 == 0:
                lowest += 1
            w = 1.0 if d1 == d2 else 2.0
            chance += w / 36.0
            loss += w / 36.0 * (25 - lowest)
    return chance, loss / 24.0


@njit(cache=True)
def _escapes(blocked: np.int64, p: int) -> int:
    """Rolls (of 36) that carry a checker at ``p`` past the blocked points (bits of
    ``blocked``, own numbering) among the twelve in front of it."""
    pattern = (blocked >> (p - 12)) & 4095 if p >= 12 else (blocked << (12 - p)) & 4095
    return ESCAPES[pattern]


@njit(cache=True)
def _extra(own: np.ndarray, other: np.ndarray, x: np.ndarray, o: int) -> None:
    """The second encoding's inputs of ``own`` against ``other``: its blocking-aware shot
    chance (in place of the first encoding's) and, after the first encoding's side, the pips
    lost to a hit, the escapes of its rearmost checker, the other side's containment of its
    back area, the pips to break contact and the chance to dance from the bar."""
    chance, loss = _hits(own, other)
    x[o + RAW + 4] = chance
    e = o + SIDE
    x[e] = loss
    blocked = np.int64(0)
    for b in range(1, 25):
        if other[25 - b] >= 2:
            blocked |= np.int64(1) << b
    rear = _rearmost(own)
    x[e + 1] = _escapes(blocked, rear) / 36.0 if rear > 0 else 1.0
    least = 36
    for p in range(13, 25):
        least = min(least, _escapes(blocked, p))
    x[e + 2] = least / 36.0
    front = 25 - _rearmost(other)  # the other side's rearmost checker, in own numbering
    pips = 0
    for p in range(front + 1, 26):
        pips += own[p] * (p - front)
    x[e + 3] = pips / 152.0 if _rearmost(other) > 0 else 0.0
    made = 0
    for q in range(1, 7):
        if other[q] >= 2:
            made += 1
    x[e + 4] = (made / 6.0) ** 2


@njit(cache=True)
def _third(own: np.ndarray, x: np.ndarray, o: int) -> None:
    """The third encoding's further inputs of ``own`` at ``x[o:o + THIRD]``
    (``network._third``): checkers outside home, their pips to come home, checkers on its 1 to
    3 points, its anchors in the other's home board (how many; the most advanced) and its
    blots at home."""
    outside = 0
    timing = 0
    for p in range(7, 26):
        outside += own[p]
        timing += own[p] * (p - 6)
    x[o] = outside / 15.0
    x[o + 1] = timing / 100.0
    x[o + 2] = (own[1] + own[2] + own[3]) / 15.0
    anchors = 0
    forward = 0.0
    for p in range(24, 18, -1):
        if own[p] >= 2:
            anchors += 1
            forward = (25 - p) / 6.0
    x[o + 3] = anchors / 3.0
    x[o + 4] = forward
    blots = 0
    for p in range(1, 7):
        if own[p] == 1:
            blots += 1
    x[o + 5] = blots / 6.0


@njit(cache=True)
def encode(on_roll: np.ndarray, other: np.ndarray, x: np.ndarray, weight: np.ndarray,
           reach: np.ndarray) -> None:  # fmt: skip
    """The network's inputs (the same as ``network.encode_counts``) into ``x``: the first
    encoding when ``x`` has ``INPUTS`` places, the second when it has ``INPUTS2``, the third
    (the second, then ``THIRD`` more for each side) when it has ``INPUTS3``."""
    if x.shape[0] == INPUTS3:
        _third(on_roll, x, INPUTS2)
        _third(other, x, INPUTS2 + THIRD)
    side = SIDE if x.shape[0] == INPUTS else SIDE2
    _side(on_roll, other, x, 0, weight, reach)
    _side(other, on_roll, x, side, weight, reach)
    if side == SIDE2:
        _extra(on_roll, other, x, 0)
        _extra(other, on_roll, x, side)
    x[2 * side] = 1.0 if _rearmost(on_roll) + _rearmost(other) >= 25 else 0.0
    mine = _pips(on_roll)
    theirs = _pips(other)
    x[2 * side + 1] = (theirs - mine) / (mine + theirs + 1.0)


# -- the network ----------------------------------------------------------------------------


@njit(cache=True)
def forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
            h: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """Hidden activations into ``h`` and the five outputs into ``out`` (inputs mostly zero)."""
    hidden = b1.shape[0]
    acc = b1.copy()
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(hidden):
                acc[j] += v * w1[i, j]
    for j in range(hidden):
        h[j] = 1.0 / (1.0 + np.exp(-acc[j]))
    for k in range(OUTPUTS):
        s = b2[k]
        for j in range(hidden):
            s += h[j] * w2[j, k]
        out[k] = 1.0 / (1.0 + np.exp(-s))


@njit(cache=True)
def learn(x: np.ndarray, target: np.ndarray, alpha: float, w1: np.ndarray, b1: np.ndarray,
          w2: np.ndarray, b2: np.ndarray, h: np.ndarray, out: np.ndarray) -> float:  # fmt: skip
    """One gradient step of cross-entropy towards ``target``; returns the squared error."""
    forward(x, w1, b1, w2, b2, h, out)
    hidden = b1.shape[0]
    delta = out - target
    err = 0.0
    for k in range(OUTPUTS):
        err += delta[k] * delta[k]
    dh = np.zeros(hidden)
    for j in range(hidden):
        s = 0.0
        for k in range(OUTPUTS):
            s += w2[j, k] * delta[k]
        dh[j] = s * h[j] * (1.0 - h[j])
    for j in range(hidden):
        for k in range(OUTPUTS):
            w2[j, k] -= alpha * h[j] * delta[k]
    for k in range(OUTPUTS):
        b2[k] -= alpha * delta[k]
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(hidden):
                w1[i, j] -= alpha * v * dh[j]
    for j in range(hidden):
        b1[j] -= alpha * dh[j]
    return err


@njit(cache=True)
def flip(p: np.ndarray, out: np.ndarray) -> None:
    out[0] = 1.0 - p[0]
    out[1] = p[3]
    out[2] = p[4]
    out[3] = p[1]
    out[4] = p[2]


@njit(cache=True)
def consistent(p: np.ndarray) -> None:
    for k in range(OUTPUTS):
        p[k] = min(max(p[k], 0.0), 1.0)
    p[1] = min(p[1], p[0])
    p[2] = min(p[2], p[1])
    p[3] = min(p[3], 1.0 - p[0])
    p[4] = min(p[4], p[3])


# -- the bear-off database --------------------------------------------------------------------


@njit(cache=True)
def both_home(a: np.ndarray, b: np.ndarray) -> bool:
    for p in range(7, 26):  # noqa: SIM110 (a loop numba compiles)
        if a[p] > 0 or b[p] > 0:
            return False
    return True


@njit(cache=True)
def bearoff_index(c: np.ndarray, binom: np.ndarray) -> int:
    total = 0
    running = 0
    for j in range(1, 7):
        running += c[j]
        total += binom[running + j - 1, j]
    return total


@njit(cache=True)
def bearoff_chances(a: np.ndarray, b: np.ndarray, rolls: np.ndarray, first: np.ndarray,
                    binom: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """The same as ``bearoff.chances`` for one position (``a`` on roll)."""
    ia = bearoff_index(a, binom)
    ib = bearoff_index(b, binom)
    width = rolls.shape[1]
    pa = rolls[ia]
    pb = rolls[ib]
    # survival of b: chance b needs n or more rolls
    win = 0.0
    tail = 0.0
    surv_b = np.zeros(width + 1)
    for n in range(width - 1, -1, -1):
        tail += pb[n]
        surv_b[n] = tail
    for n in range(width):
        win += pa[n] * surv_b[n]
    out[0] = win
    out[1] = 0.0
    out[2] = 0.0
    out[3] = 0.0
    out[4] = 0.0
    if b[0] == 0:
        fb = first[ib]
        tail = 0.0
        surv = np.zeros(width + 1)
        for n in range(width - 1, -1, -1):
            tail += fb[n]
            surv[n] = tail
        s = 0.0
        for n in range(width):
            s += pa[n] * surv[n]
        out[1] = s
    if a[0] == 0:
        fa = first[ia]
        tail = 0.0
        surv = np.zeros(width + 1)
        for n in range(width - 1, -1, -1):
            tail += fa[n]
            surv[n] = tail
        s = 0.0
        for n in range(width):
            s += pb[n] * surv[n + 1]
        out[3] = s


# -- self-play ----------------------------------------------------------------------------------


@njit(cache=True)
def _outcome(winner: np.ndarray, loser: np.ndarray, out: np.ndarray) -> None:
    """The five outcomes from the winner's side once ``winner`` has borne off."""
    out[0] = 1.0
    out[1] = 1.0 if loser[0] == 0 else 0.0
    bg = False
    if loser[0] == 0:
        for p in range(19, 26):
            if loser[p] > 0:
                bg = True
    out[2] = 1.0 if bg else 0.0
    out[3] = 0.0
    out[4] = 0.0


@njit(cache=True)
def _equity(p: np.ndarray) -> float:
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@njit(cache=True)
def _evaluate(on_roll: np.ndarray, other: np.ndarray, w1: np.ndarray, b1: np.ndarray,
              w2: np.ndarray, b2: np.ndarray, rolls: np.ndarray, first: np.ndarray,
              binom: np.ndarray, x: np.ndarray, h: np.ndarray, out: np.ndarray,
              weight: np.ndarray, reach: np.ndarray) -> bool:  # fmt: skip
    """The five chances of the side on roll into ``out``; True when they are exact (database)."""
    if both_home(on_roll, other):
        bearoff_chances(on_roll, other, rolls, first, binom, out)
        return True
    encode(on_roll, other, x, weight, reach)
    forward(x, w1, b1, w2, b2, h, out)
    consistent(out)
    return False


@njit(cache=True)
def choose(me: np.ndarray, opp: np.ndarray, high: int, low: int, cap: int, w1: np.ndarray,
           b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, rolls: np.ndarray, first: np.ndarray,
           binom: np.ndarray, buffers: tuple, z: np.ndarray, weight: np.ndarray,
           reach: np.ndarray, greedy_win: bool, best_p: np.ndarray) -> int:  # fmt: skip
    """Play the roll for ``me``: the play whose result is best for ``me`` one ply ahead (by
    cubeless money equity, or by the chance to win when ``greedy_win``). ``me``/``opp`` are
    replaced by the result; ``best_p`` receives its five chances from ``me``'s side. Returns
    0 while the game goes on, 1 when ``me`` has won, 2 when the position is in the database."""
    out_me, out_opp, work, table, used, table2, used2, x, h, p, q = buffers
    n = plays(me, opp, high, low, cap, out_me, out_opp, work, table, used, table2, used2, z)
    best = -1
    best_value = -1e9
    best_kind = 0
    for i in range(n):
        if out_me[i, 0] == 15:
            _outcome(out_me[i], out_opp[i], q)
            kind = 1
        else:
            exact = _evaluate(out_opp[i], out_me[i], w1, b1, w2, b2, rolls, first, binom, x, h,
                              p, weight, reach)  # fmt: skip
            flip(p, q)
            kind = 2 if exact else 0
        value = q[0] if greedy_win else _equity(q)
        if value > best_value:
            best_value = value
            best = i
            best_kind = kind
            best_p[:] = q
    me[:] = out_me[best]
    opp[:] = out_opp[best]
    return best_kind


def buffers(hidden: int, inputs: int = INPUTS) -> tuple:
    """Scratch arrays for ``choose`` (``inputs``: the encoding's size)."""
    return (
        np.zeros((CAPACITY, 26), dtype=np.int8),
        np.zeros((CAPACITY, 26), dtype=np.int8),
        np.zeros((4, CAPACITY, 26), dtype=np.int8),
        np.zeros(16384, dtype=np.int64),
        np.zeros(CAPACITY * 8, dtype=np.int64),
        np.zeros(16384, dtype=np.int64),
        np.zeros(CAPACITY * 8, dtype=np.int64),
        np.zeros(inputs),
        np.zeros(hidden),
        np.zeros(OUTPUTS),
        np.zeros(OUTPUTS),
    )


@njit(cache=True)
def _roll(opening: bool) -> tuple[int, int]:
    """A roll of the two dice (high, low); the opening roll is never a double."""
    a = np.random.randint(1, 7)
    b = np.random.randint(1, 7)
    if opening:
        while a == b:
            b = np.random.randint(1, 7)
    return max(a, b), min(a, b)


@njit(cache=True)
def _new_game(boards: np.ndarray, start: np.ndarray, cap_share: float) -> tuple[int, int]:
    """A self-play game's start: both boards set up, then its cap (the seed's five checkers a
    point in a share ``cap_share`` of the games, none otherwise) and the side that opens,
    drawn in that order."""
    cap = 5 if np.random.random() < cap_share else 0
    boards[0] = start
    boards[1] = start
    return cap, np.random.randint(0, 2)


@njit(cache=True)
def train_games(games: int, seed: int, alpha: float, lam: float, cap_share: float,
                w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                rolls: np.ndarray, first: np.ndarray, binom: np.ndarray, bufs: tuple,
                z: np.ndarray, weight: np.ndarray, reach: np.ndarray,
                start: np.ndarray) -> tuple[int, float]:  # fmt: skip
    """Play ``games`` self-play games, learning from each when it ends (lambda-returns towards
    the network's own later estimates, the database's chances and the results). Returns the
    number of positions learnt from and their mean squared error."""
    np.random.seed(seed)
    max_plies = 1000
    xs = np.zeros((max_plies, w1.shape[0]))
    nexts = np.zeros((max_plies, OUTPUTS))  # the estimate of the position after, its roller's view
    final = np.zeros(OUTPUTS)
    target = np.zeros(OUTPUTS)
    flipped = np.zeros(OUTPUTS)
    h = np.zeros(b1.shape[0])
    out = np.zeros(OUTPUTS)
    x_scratch = bufs[7]
    chosen = np.zeros(OUTPUTS)
    boards = np.zeros((2, 26), dtype=np.int8)
    total = 0
    err = 0.0
    for _ in range(games):
        cap, mover = _new_game(boards, start, cap_share)
        t = 0
        kind = 0
        while True:
            me = boards[mover]
            opp = boards[1 - mover]
            encode(me, opp, x_scratch, weight, reach)
            xs[t] = x_scratch
            high, low = _roll(t == 0)
            kind = choose(me, opp, high, low, cap, w1, b1, w2, b2, rolls, first, binom, bufs,
                          z, weight, reach, False, chosen)  # fmt: skip
            nexts[t] = chosen  # from the mover's side
            t += 1
            if kind != 0 or t >= max_plies:
                break
            mover = 1 - mover
        # lambda-returns, from the last position back; each in its own roller's view
        final[:] = nexts[t - 1]
        target[:] = final
        for i in range(t - 1, -1, -1):
            if i < t - 1:
                # G_i = (1 - lam) * V_{i+1} + lam * G_{i+1}, both seen from the roller at i
                flip(target, flipped)  # G_{i+1} was in the next roller's view
                for k in range(OUTPUTS):
                    target[k] = (1.0 - lam) * nexts[i, k] + lam * flipped[k]
            err += learn(xs[i], target, alpha, w1, b1, w2, b2, h, out)
            total += 1
    return total, err / max(total, 1)


@njit(cache=True)
def search_games(games: int, seed: int, alpha: float, sample: float, cap_share: float,
                 w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                 rolls: np.ndarray, first: np.ndarray, binom: np.ndarray, bufs: tuple,
                 z: np.ndarray, weight: np.ndarray, reach: np.ndarray,
                 start: np.ndarray) -> tuple[int, float]:  # fmt: skip
    """Self-play games as ``train_games`` plays them; at a share ``sample`` of the positions
    (not the opening, not in the database) the network learns at once towards its own value
    one roll deeper: for each of the 21 rolls the chances of the best play one ply ahead,
    averaged. Returns the number of positions learnt from and their mean squared error."""
    np.random.seed(seed)
    max_plies = 1000
    x = np.zeros(w1.shape[0])
    h = np.zeros(b1.shape[0])
    out = np.zeros(OUTPUTS)
    target = np.zeros(OUTPUTS)
    chosen = np.zeros(OUTPUTS)
    me2 = np.zeros(26, dtype=np.int8)
    opp2 = np.zeros(26, dtype=np.int8)
    boards = np.zeros((2, 26), dtype=np.int8)
    total = 0
    err = 0.0
    for _ in range(games):
        cap, mover = _new_game(boards, start, cap_share)
        t = 0
        while True:
            me = boards[mover]
            opp = boards[1 - mover]
            if t > 0 and np.random.random() < sample and not both_home(me, opp):
                target[:] = 0.0
                for k in range(21):
                    me2[:] = me
                    opp2[:] = opp
                    choose(me2, opp2, DICE[k, 0], DICE[k, 1], cap, w1, b1, w2, b2, rolls,
                           first, binom, bufs, z, weight, reach, False, chosen)  # fmt: skip
                    for j in range(OUTPUTS):
                        target[j] += weight[k] * chosen[j]
                encode(me, opp, x, weight, reach)
                err += learn(x, target, alpha, w1, b1, w2, b2, h, out)
                total += 1
            high, low = _roll(t == 0)
            kind = choose(me, opp, high, low, cap, w1, b1, w2, b2, rolls, first,
                          binom, bufs, z, weight, reach, False, chosen)  # fmt: skip
            t += 1
            if kind != 0 or t >= max_plies:
                break
            mover = 1 - mover
    return total, err / max(total, 1)


@njit(cache=True)
def play_match(games: int, seed: int, wa1: np.ndarray, ba1: np.ndarray, wa2: np.ndarray,
               ba2: np.ndarray, wb1: np.ndarray, bb1: np.ndarray, wb2: np.ndarray,
               bb2: np.ndarray, rolls: np.ndarray, first: np.ndarray, binom: np.ndarray,
               bufs: tuple, bufs_b: tuple, z: np.ndarray, weight: np.ndarray,
               reach: np.ndarray, start: np.ndarray) -> tuple[int, float]:  # fmt: skip
    """Network A against network B, one ply each, cubeless, games counted as wins; A starts
    every other game and the two games of a pair share their dice. Returns A's wins and A's
    points per game at money play without cube (gammons 2, backgammons 3)."""
    wins = 0
    points = 0.0
    boards = np.zeros((2, 26), dtype=np.int8)
    chosen = np.zeros(OUTPUTS)
    for g in range(games):
        np.random.seed(seed * 100003 + g // 2)
        a_first = g % 2 == 0
        boards[0] = start
        boards[1] = start
        mover = 0  # the side that starts
        t = 0
        while True:
            me = boards[mover]
            opp = boards[1 - mover]
            high, low = _roll(t == 0)
            is_a = (mover == 0) == a_first
            if is_a:
                kind = choose(me, opp, high, low, 0, wa1, ba1, wa2, ba2, rolls, first, binom,
                              bufs, z, weight, reach, True, chosen)  # fmt: skip
            else:
                kind = choose(me, opp, high, low, 0, wb1, bb1, wb2, bb2, rolls, first, binom,
                              bufs_b, z, weight, reach, True, chosen)  # fmt: skip
            t += 1
            if kind == 1:
                won = is_a
                value = 1.0
                if opp[0] == 0:
                    value = 2.0
                    for p in range(19, 26):
                        if opp[p] > 0:
                            value = 3.0
                if won:
                    wins += 1
                    points += value
                else:
                    points -= value
                break
            mover = 1 - mover
    return wins, points / games


# -- supervised targets from truncated rollouts -------------------------------------------------


@njit(cache=True)
def sample_positions(games: int, seed: int, keep: float, cap_share: float, w1: np.ndarray,
                     b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, rolls: np.ndarray,
                     first: np.ndarray, binom: np.ndarray, bufs: tuple, z: np.ndarray,
                     weight: np.ndarray, reach: np.ndarray, start: np.ndarray,
                     out_me: np.ndarray, out_opp: np.ndarray,
                     out_cap: np.ndarray) -> int:  # fmt: skip
    """Self-play games of the network one ply ahead (as ``train_games`` plays them, without
    learning); a share ``keep`` of their positions before a roll (not the first two plies,
    not in the bear-off database) is written, the side on roll first, with the game's cap.
    Returns how many were written (at most the rows of ``out_me``)."""
    np.random.seed(seed)
    boards = np.zeros((2, 26), dtype=np.int8)
    chosen = np.zeros(OUTPUTS)
    n = 0
    limit = out_me.shape[0]
    for _ in range(games):
        cap, mover = _new_game(boards, start, cap_share)
        t = 0
        while n < limit:
            me = boards[mover]
            opp = boards[1 - mover]
            if t >= 2 and np.random.random() < keep and not both_home(me, opp):
                out_me[n] = me
                out_opp[n] = opp
                out_cap[n] = cap
                n += 1
            high, low = _roll(t == 0)
            kind = choose(me, opp, high, low, cap, w1, b1, w2, b2, rolls, first,
                          binom, bufs, z, weight, reach, False, chosen)  # fmt: skip
            t += 1
            if kind != 0 or t >= 1000:
                break
            mover = 1 - mover
        if n >= limit:
            break
    return n


@njit(cache=True)
def rollout_targets(me_rows: np.ndarray, opp_rows: np.ndarray, caps: np.ndarray, trials: int,
                    plies: int, seed: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                    b2: np.ndarray, rolls: np.ndarray, first: np.ndarray, binom: np.ndarray,
                    bufs: tuple, z: np.ndarray, weight: np.ndarray, reach: np.ndarray,
                    out: np.ndarray) -> None:  # fmt: skip
    """The five chances of each position (its side on roll first, before the roll) by a
    truncated rollout of the network one ply ahead: ``trials`` games from it, the first roll
    of trial ``t`` being roll ``t mod 36`` (so that every first roll has its share), each
    played ``plies`` plies and then valued by the network after the last play (or by its end,
    or the bear-off database, when it comes sooner); the mean of the trials into ``out``."""
    np.random.seed(seed)
    boards = np.zeros((2, 26), dtype=np.int8)
    chosen = np.zeros(OUTPUTS)
    flipped = np.zeros(OUTPUTS)
    acc = np.zeros(OUTPUTS)
    for i in range(me_rows.shape[0]):
        acc[:] = 0.0
        for t in range(trials):
            boards[0] = me_rows[i]
            boards[1] = opp_rows[i]
            mover = 0
            for ply in range(plies):
                if ply == 0:
                    a = (t % 36) // 6 + 1
                    b = t % 6 + 1
                else:
                    a = np.random.randint(1, 7)
                    b = np.random.randint(1, 7)
                kind = choose(boards[mover], boards[1 - mover], max(a, b), min(a, b), caps[i],
                              w1, b1, w2, b2, rolls, first, binom, bufs, z, weight, reach,
                              False, chosen)  # fmt: skip
                if kind != 0 or ply == plies - 1:
                    break
                mover = 1 - mover
            if mover == 0:
                for k in range(OUTPUTS):
                    acc[k] += chosen[k]
            else:
                flip(chosen, flipped)
                for k in range(OUTPUTS):
                    acc[k] += flipped[k]
        for k in range(OUTPUTS):
            out[i, k] = acc[k] / trials


@njit(cache=True)
def fit_epoch(me_rows: np.ndarray, opp_rows: np.ndarray, targets: np.ndarray,
              order: np.ndarray, alpha: float, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
              b2: np.ndarray, weight: np.ndarray, reach: np.ndarray) -> float:  # fmt: skip
    """One pass of cross-entropy steps towards ``targets`` over the positions in ``order``;
    returns the mean squared error met on the way."""
    x = np.zeros(w1.shape[0])
    h = np.zeros(b1.shape[0])
    out = np.zeros(OUTPUTS)
    err = 0.0
    for i in order:
        encode(me_rows[i], opp_rows[i], x, weight, reach)
        err += learn(x, targets[i], alpha, w1, b1, w2, b2, h, out)
    return err / max(order.shape[0], 1)


@njit(cache=True)
def errors(me_rows: np.ndarray, opp_rows: np.ndarray, targets: np.ndarray, w1: np.ndarray,
           b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, weight: np.ndarray,
           reach: np.ndarray) -> tuple[float, float]:  # fmt: skip
    """The network's mean squared error against ``targets`` (the five chances) and the mean
    absolute error of its chance to win."""
    x = np.zeros(w1.shape[0])
    h = np.zeros(b1.shape[0])
    out = np.zeros(OUTPUTS)
    sq = 0.0
    win = 0.0
    for i in range(me_rows.shape[0]):
        encode(me_rows[i], opp_rows[i], x, weight, reach)
        forward(x, w1, b1, w2, b2, h, out)
        consistent(out)
        for k in range(OUTPUTS):
            d = out[k] - targets[i, k]
            sq += d * d
        win += abs(out[0] - targets[i, 0])
    n = max(me_rows.shape[0], 1)
    return sq / n, win / n


@njit(cache=True)
def two_roll_targets(me_rows: np.ndarray, opp_rows: np.ndarray, caps: np.ndarray,
                     w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                     rolls: np.ndarray, first: np.ndarray, binom: np.ndarray, bufs: tuple,
                     z: np.ndarray, weight: np.ndarray, reach: np.ndarray,
                     out: np.ndarray) -> None:  # fmt: skip
    """The five chances of each position (its side on roll first, before the roll) two rolls
    deep, every roll weighed: for each of the 21 rolls the network's play one ply ahead, then
    for each of the other side's 21 rolls its play, valued by the network after it (or by the
    game's end, or the bear-off database, when it comes sooner). No sampling, so no noise: the
    network's own play and value, looked at from two plies further on."""
    chosen = np.zeros(OUTPUTS)
    flipped = np.zeros(OUTPUTS)
    acc = np.zeros(OUTPUTS)
    me1 = np.zeros(26, dtype=np.int8)
    opp1 = np.zeros(26, dtype=np.int8)
    me2 = np.zeros(26, dtype=np.int8)
    opp2 = np.zeros(26, dtype=np.int8)
    for i in range(me_rows.shape[0]):
        acc[:] = 0.0
        for r in range(21):
            me1[:] = me_rows[i]
            opp1[:] = opp_rows[i]
            kind = choose(me1, opp1, DICE[r, 0], DICE[r, 1], caps[i], w1, b1, w2, b2, rolls,
                          first, binom, bufs, z, weight, reach, False, chosen)  # fmt: skip
            if kind != 0:
                for k in range(OUTPUTS):
                    acc[k] += weight[r] * chosen[k]
                continue
            for s in range(21):
                me2[:] = me1
                opp2[:] = opp1
                choose(opp2, me2, DICE[s, 0], DICE[s, 1], caps[i], w1, b1, w2, b2, rolls,
                       first, binom, bufs, z, weight, reach, False, chosen)  # fmt: skip
                flip(chosen, flipped)
                for k in range(OUTPUTS):
                    acc[k] += weight[r] * weight[s] * flipped[k]
        for k in range(OUTPUTS):
            out[i, k] = acc[k]
