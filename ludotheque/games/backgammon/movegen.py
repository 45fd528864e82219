"""Legal plays of a backgammon roll, and the one-checker-at-a-time view of a turn.

Boards are packed integers (see ``board``), the mover's and the opponent's, each in its own view.
A *single move* is ``(src, dst, die, hit)`` with ``src`` 1–24 or 25 (bar) and ``dst`` 1–24 or 0
(off). A *play* is the sequence of single moves of one turn; plays that end in the same position
are the same play.

``generate`` is the compiled core's (``_cbackgammon.c``) when it was built, else
``generate_py``, which the core follows exactly (the same plays, in the same order).

The search walks single moves in the canonical order — origins highest first (the bar highest),
then destinations highest first — so the first sequence found for a final position is its
canonical notation. With doubles it skips partial positions already met with the same number of
dice left: any completion of the later prefix is also a completion of the earlier, greater one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .._compiled import compiled

RawStep = tuple[int, int, int, bool]  # (src, dst, die, hit)
Single = tuple[int, int, int, bool, int, int]  # (src, dst, die, hit, me_after, opp_after)

_BAR_SHIFT = 100  # 25 << 2
_BAR_ONE = 1 << _BAR_SHIFT
_ONES = sum(1 << (4 * i) for i in range(26)) & ~1


def singles(me: int, opp: int, dice: tuple[int, ...], cap: int, top: int = 25) -> list[Single]:
    """The legal single moves with any of ``dice`` (distinct values, ascending), in canonical
    order: origins from high to low, and for one origin the smaller die (higher landing) first.

    ``cap`` is the most own checkers a point may hold after a landing (0: no cap); only origins
    up to ``top`` are considered.
    """
    out: list[Single] = []
    if (me >> _BAR_SHIFT) & 15:
        if top < 25:
            return out
        for d in dice:
            dst = 25 - d
            sh = d << 2  # the opponent's own point 25 - dst = d
            oc = (opp >> sh) & 15
            if oc >= 2:
                continue
            if cap and ((me >> (dst << 2)) & 15) >= cap:
                continue
            me2 = me - _BAR_ONE + (1 << (dst << 2))
            if oc:
                out.append((25, dst, d, True, me2, opp - (1 << sh) + _BAR_ONE))
            else:
                out.append((25, dst, d, False, me2, opp))
        return out
    home = (me >> 28) == 0
    occ = me | (me >> 1) | (me >> 2) | (me >> 3)
    occ &= _ONES if top >= 24 else _ONES & ((1 << ((top + 1) << 2)) - 1)
    while occ:
        hb = occ.bit_length() - 1
        occ ^= 1 << hb
        src = hb >> 2
        src_one = 1 << hb
        for d in dice:
            dst = src - d
            if dst > 0:
                sh = (25 - dst) << 2
                oc = (opp >> sh) & 15
                if oc >= 2:
                    continue
                dsh = dst << 2
                if cap and ((me >> dsh) & 15) >= cap:
                    continue
                me2 = me - src_one + (1 << dsh)
                if oc:
                    out.append((src, dst, d, True, me2, opp - (1 << sh) + _BAR_ONE))
                else:
                    out.append((src, dst, d, False, me2, opp))
            elif home and (dst == 0 or not (me >> (hb + 4))):
                out.append((src, 0, d, False, me - src_one + 1, opp))
    return out


def generate_py(
    me: int, opp: int, high: int, low: int, cap: int
) -> tuple[dict[tuple[int, int], tuple[RawStep, ...]], int]:
    """All legal plays of the roll ``high``–``low`` (``high ≥ low``).

    Returns ``({(me_after, opp_after): canonical single moves}, dice used)``; with no legal move
    the one entry is the unchanged position with no moves (a pass).
    """
    if high == low:
        return _doubles(me, opp, high, cap)
    leaves: dict[tuple[int, int], tuple[RawStep, ...]] = {}
    best = 0
    large_used = False
    both = (low, high)
    for src, dst, d, hit, me2, opp2 in singles(me, opp, both, cap):
        first: RawStep = (src, dst, d, hit)
        seconds = singles(me2, opp2, (high,) if d == low else (low,), cap)
        if seconds:
            if best < 2:
                best = 2
                leaves.clear()
            for s in seconds:
                pos = (s[4], s[5])
                if pos not in leaves:
                    leaves[pos] = (first, (s[0], s[1], s[2], s[3]))
        elif best < 2:
            best = 1
            if d == high and not large_used:
                large_used = True
                leaves = {pos: steps for pos, steps in leaves.items() if steps[0][2] == high}
            if d == high or not large_used:
                pos = (me2, opp2)
                if pos not in leaves:
                    leaves[pos] = (first,)
    if best == 0:
        return {(me, opp): ()}, 0
    return leaves, best


def _doubles(
    me: int, opp: int, d: int, cap: int
) -> tuple[dict[tuple[int, int], tuple[RawStep, ...]], int]:
    if not cap:
        return _doubles_descending(me, opp, d)
    leaves: dict[tuple[int, int], tuple[RawStep, ...]] = {}
    seen: set[tuple[int, int, int]] = set()
    best = 0
    die = (d,)

    def walk(me: int, opp: int, left: int, steps: tuple[RawStep, ...]) -> None:
        nonlocal best
        moves = singles(me, opp, die, cap)
        if not moves:
            used = 4 - left
            if used > best:
                best = used
                leaves.clear()
            if used == best and (me, opp) not in leaves:
                leaves[(me, opp)] = steps
            return
        left -= 1
        for src, dst, dd, hit, me2, opp2 in moves:
            nxt = (*steps, (src, dst, dd, hit))
            if left == 0:
                if best < 4:
                    best = 4
                    leaves.clear()
                if (me2, opp2) not in leaves:
                    leaves[(me2, opp2)] = nxt
                continue
            key = (me2, opp2, left)
            if key in seen:
                continue
            seen.add(key)
            walk(me2, opp2, left, nxt)

    walk(me, opp, 4, ())
    if best == 0:
        return {(me, opp): ()}, 0
    return leaves, best


def _doubles_descending(
    me: int, opp: int, d: int
) -> tuple[dict[tuple[int, int], tuple[RawStep, ...]], int]:
    """Doubles without a cap: every playable set of moves can be played origins-first (nothing
    a lower checker does opens a landing for a higher one), so walking the moves in
    non-increasing origin order visits each set once, already in canonical order."""
    leaves: dict[tuple[int, int], tuple[RawStep, ...]] = {}
    best = 0
    die = (d,)

    def walk(me: int, opp: int, left: int, steps: tuple[RawStep, ...], top: int) -> None:
        nonlocal best
        moved = False
        for src, dst, dd, hit, me2, opp2 in singles(me, opp, die, 0, top):
            moved = True
            nxt = (*steps, (src, dst, dd, hit))
            if left > 1:
                walk(me2, opp2, left - 1, nxt, src)
                continue
            if best < 4:
                best = 4
                leaves.clear()
            if (me2, opp2) not in leaves:
                leaves[(me2, opp2)] = nxt
        if not moved:
            # stuck here (or only higher moves remain, whose sets other branches find with
            # more dice: recording this one is then harmless, the dice rule drops it)
            used = 4 - left
            if used > best:
                best = used
                leaves.clear()
            if used == best and (me, opp) not in leaves:
                leaves[(me, opp)] = steps

    walk(me, opp, 4, (), 25)
    if best == 0:
        return {(me, opp): ()}, 0
    return leaves, best


def dice_of(high: int, low: int) -> tuple[int, ...]:
    """The dice a roll gives to play: two, or four of a double."""
    return (high,) * 4 if high == low else (high, low)


def remove_die(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    """``dice`` without one ``die``."""
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


def completions(
    me: int, opp: int, dice: tuple[int, ...], cap: int, goals: set[tuple[int, int]], need: int
) -> Iterator[tuple[Single, bool]]:
    """For the partial turn at ``(me, opp)`` with ``dice`` left: each single move, and whether
    some way to go on from it ends in one of ``goals`` after exactly ``need`` more dice."""
    memo: dict[tuple[int, int, tuple[int, ...]], bool] = {}

    def good(me: int, opp: int, dice: tuple[int, ...], need: int) -> bool:
        if need == 0:
            return (me, opp) in goals
        key = (me, opp, dice)
        found = memo.get(key)
        if found is None:
            found = any(
                good(s[4], s[5], remove_die(dice, s[2]), need - 1)
                for s in singles(me, opp, tuple(sorted(set(dice))), cap)
            )
            memo[key] = found
        return found

    if need <= 0:
        return
    for s in singles(me, opp, tuple(sorted(set(dice))), cap):
        yield s, good(s[4], s[5], remove_die(dice, s[2]), need - 1)


# -- the compiled core, when it was built ---------------------------------------------------

Leaves = dict[tuple[int, int], tuple[RawStep, ...]]

generate: Callable[[int, int, int, int, int], tuple[Leaves, int]] = generate_py
"""All legal plays of a roll (see ``generate_py``): the compiled core's when it was built."""

CORE = compiled("ludotheque.games.backgammon._cbackgammon", 3)
"""The compiled core (``_cbackgammon.c``), or ``None``: the same search in C."""
if CORE is not None:
    generate = CORE.generate
