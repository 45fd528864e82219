"""Compute the one-sided bear-off database that ships with the package (``bearoff.npz``).

    python tools/backgammon_bearoff.py --out ludotheque/games/backgammon/bearoff.npz

For every home board of up to 15 checkers (54,264 of them) and every roll, the play that bears
off fastest on average is found with the engine's own move generator; a board's distribution of
the rolls it needs is the average, over the 21 rolls, of its best play's distribution shifted by
one roll. Boards are solved in order of pip count (every play lowers it), so each play's result
is known when needed. A second table does the same for the rolls needed to bear off the first
checker (what saving a gammon takes), for boards of fifteen checkers.

Distributions are kept to ``WIDTH`` rolls (fifteen checkers on the one-point need at most 8,
on the six-point at most 15 with 2-1 every time... and 1-1 moves no checker off: the longest
tail is a few millionths beyond 20) and stored as 16-bit fractions, renormalised on loading.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rolls, first = build()
    np.savez_compressed(
        args.out,
        rolls=np.round(rolls * 65535).astype(np.uint16),
        first=np.round(first * 65535).astype(np.uint16),
    )
    print(f"saved {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
