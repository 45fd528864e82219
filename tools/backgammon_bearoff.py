"""Compute the bear-off databases that ship with the package: the one-sided one (``bearoff.npz``)
and the two-sided one (``bearoff2.npz``).

    python tools/backgammon_bearoff.py --out ludotheque/games/backgammon/bearoff.npz
    python tools/backgammon_bearoff.py --two-sided 6 --out ludotheque/games/backgammon/bearoff2.npz

For every home board of up to 15 checkers (54,264 of them) and every roll, the play that bears
off fastest on average is found with the engine's own move generator; a board's distribution of
the rolls it needs is the average, over the 21 rolls, of its best play's distribution shifted by
one roll. Boards are solved in order of pip count (every play lowers it), so each play's result
is known when needed. A second table does the same for the rolls needed to bear off the first
checker (what saving a gammon takes), for boards of fifteen checkers.

Distributions are kept to ``WIDTH`` rolls (fifteen checkers on the one-point need at most 8,
on the six-point at most 15 with 2-1 every time... and 1-1 moves no checker off: the longest
tail is a few millionths beyond 20) and stored as 16-bit fractions, renormalised on loading.

The two-sided database (``--two-sided N``, GNU Backgammon ships one for six checkers) holds,
for every pair of home boards of at most ``N`` checkers each, the exact chance that the side
on roll wins the race when both sides play to win it (not to bear off fastest: near the end the
two differ). With ``W(a, b)`` that chance for ``a`` on roll against ``b``, and ``a'`` the boards
a roll's plays leave, ``W(a, b)`` is the average over the 21 rolls of the best
``1 - W(b, a')`` (1 where ``a'`` is empty: ``a`` has won). Every play lowers the pip count, so
pairs are solved in order of their total pips (the kernel is compiled with numba, as the
training tools are). Chances are stored as 16-bit fractions (to 1/65535), the side on roll's
board first.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.bearoff import CHECKERS, POINTS, POSITIONS, index_one
from ludotheque.games.backgammon.movegen import generate

WIDTH = 32
ROLLS = [(h, lo, 1 if h == lo else 2) for h in range(1, 7) for lo in range(1, h + 1)]


def boards() -> list[tuple[int, ...]]:
    """Every home board (counts of points 1–6, at most 15 checkers), fewest pips first."""
    found = [c for c in itertools.product(range(CHECKERS + 1), repeat=POINTS) if sum(c) <= CHECKERS]
    found.sort(key=lambda c: sum((i + 1) * n for i, n in enumerate(c)))
    return found


def successors(counts: tuple[int, ...]) -> list[list[int]]:
    """For each of the 21 rolls, the database indexes of the boards its plays leave."""
    packed = B.pack({p + 1: n for p, n in enumerate(counts) if n})
    packed += CHECKERS - sum(counts)  # borne off
    out = []
    for high, low, _ in ROLLS:
        leaves, _ = generate(packed, 0, high, low, 0)
        out.append([index_one(B.unpack(me)[1:7]) for me, _ in leaves])
    return out


def build(verbose: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The two tables: rolls to bear off everything, rolls to bear off the first checker."""
    rolls = np.zeros((POSITIONS, WIDTH))
    first = np.zeros((POSITIONS, WIDTH))
    mean_all = np.zeros(POSITIONS)
    mean_first = np.zeros(POSITIONS)
    begun = time.perf_counter()
    order = boards()
    for k, counts in enumerate(order):
        i = index_one(counts)
        if sum(counts) == 0:
            rolls[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        dist = np.zeros(WIDTH)
        dist_first = np.zeros(WIDTH)
        expect = expect_first = 0.0
        some_off = sum(counts) < CHECKERS
        for (_, _, weight), nexts in zip(ROLLS, successors(counts), strict=True):
            best = min(nexts, key=lambda j: mean_all[j])
            dist[1:] += weight * rolls[best, :-1]
            dist[WIDTH - 1] += weight * rolls[best, -1]  # the (tiny) tail stays in the last column
            expect += weight * (1 + mean_all[best])
            if not some_off:
                quick = min(nexts, key=lambda j: mean_first[j])
                dist_first[1:] += weight * first[quick, :-1]
                expect_first += weight * (1 + mean_first[quick])
        rolls[i] = dist / 36
        mean_all[i] = expect / 36
        if some_off:
            first[i, 0] = 1.0
        else:
            first[i] = dist_first / 36
            mean_first[i] = expect_first / 36
        if verbose and k % 5000 == 0:
            print(f"{k}/{len(order)} boards, {time.perf_counter() - begun:.0f} s", flush=True)
    return rolls, first


def successor_table(checkers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every board of at most ``checkers`` checkers (by database index): its pips, and
    (CSR) for each of the 21 rolls the indexes of the boards its plays leave."""
    count = comb(checkers + POINTS, POINTS)
    found = [c for c in itertools.product(range(checkers + 1), repeat=POINTS) if sum(c) <= checkers]
    assert len(found) == count
    pips = np.zeros(count, dtype=np.int64)
    per_roll: list[list[list[int]]] = [[] for _ in range(count)]
    for counts in found:
        i = index_one(counts)
        pips[i] = sum((p + 1) * n for p, n in enumerate(counts))
        per_roll[i] = successors(counts) if sum(counts) else [[0]] * len(ROLLS)
    starts = np.zeros(count * len(ROLLS) + 1, dtype=np.int64)
    flat: list[int] = []
    for i in range(count):
        for r, nexts in enumerate(per_roll[i]):
            flat += nexts
            starts[i * len(ROLLS) + r + 1] = len(flat)
    return pips, starts, np.array(flat, dtype=np.int64)


def build_two_sided(checkers: int) -> np.ndarray:
    """The two-sided table: ``W[a, b]``, the chance that the side on roll with board ``a`` wins
    against board ``b`` (both at most ``checkers`` checkers)."""
    from numba import njit  # training tools only: the package never needs numba

    pips, starts, flat = successor_table(checkers)
    weights = np.array([w for _, _, w in ROLLS], dtype=np.float64) / 36

    @njit(cache=False)
    def solve(order: np.ndarray, n: int, starts: np.ndarray, flat: np.ndarray,
              weights: np.ndarray) -> np.ndarray:  # fmt: skip
        table = np.zeros((n, n))
        for k in order:
            a, b = k // n, k % n
            if a == 0:
                table[a, b] = 1.0  # a has nothing left: it has won (never asked)
                continue
            if b == 0:
                continue  # b has won
            total = 0.0
            for r in range(21):
                best = 0.0
                for j in range(starts[a * 21 + r], starts[a * 21 + r + 1]):
                    after = flat[j]
                    value = 1.0 if after == 0 else 1.0 - table[b, after]
                    if value > best:
                        best = value
                total += weights[r] * best
            table[a, b] = total
        return table

    order = np.argsort(pips[:, None] + pips[None, :], axis=None, kind="stable")
    return solve(order, len(pips), starts, flat, weights)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--two-sided", type=int, metavar="CHECKERS",
        help="build the two-sided database for boards of up to CHECKERS checkers",
    )  # fmt: skip
    args = parser.parse_args()
    if args.two_sided:
        begun = time.perf_counter()
        table = build_two_sided(args.two_sided)
        np.savez_compressed(
            args.out, checkers=args.two_sided, win=np.round(table * 65535).astype(np.uint16)
        )
        print(f"saved {args.out} ({args.out.stat().st_size} bytes, "
              f"{time.perf_counter() - begun:.0f} s)")  # fmt: skip
        return
    rolls, first = build()
    np.savez_compressed(
        args.out,
        rolls=np.round(rolls * 65535).astype(np.uint16),
        first=np.round(first * 65535).astype(np.uint16),
    )
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
