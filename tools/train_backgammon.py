"""Tune the backgammon evaluation's contact weights by TD(lambda) self-play.

    python tools/train_backgammon.py --games 10000 --seed 1

Both sides play one ply ahead with the current weights; after each game the weights move
towards the values the game's later positions (and its result) gave to earlier ones. Prints the
weights every few thousand games and at the end; they go, by hand, into
``ludotheque/games/backgammon/evaluation.py`` (``WEIGHTS``) with the figures that justify them.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.evaluation import (
    FEATURES,
    WEIGHTS,
    contact_features,
    evaluate_boards,
    is_race,
)
from ludotheque.games.backgammon.movegen import generate

START = B.pack({24: 2, 13: 5, 8: 3, 6: 5})


def play_and_learn(weights: list[float], rng: random.Random, alpha: float, lam: float) -> int:
    """One self-play game with TD(lambda) updates; returns its length in plays."""
    white, black = START, START
    mover = rng.randrange(2)  # 0 white, 1 black
    trace = [0.0] * len(weights)
    previous: tuple[float, list[float]] | None = None  # (value for white, gradient)
    plays = 0
    w = tuple(weights)
    while True:
        me, opp = (white, black) if mover == 0 else (black, white)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        leaves, _ = generate(me, opp, max(a, b), min(a, b), 0)
        best, best_value = None, -2.0
        for m2, o2 in leaves:
            if m2 & 15 == 15:
                best, best_value = (m2, o2), 2.0
                break
            v = evaluate_boards(B.unpack(m2), B.unpack(o2), False, w)
            if v > best_value:
                best, best_value = (m2, o2), v
        assert best is not None
        me, opp = best
        white, black = (me, opp) if mover == 0 else (opp, me)
        plays += 1
        if me & 15 == 15:
            outcome = 1.0 if mover == 0 else -1.0
            if previous is not None:
                v_prev, grad = previous
                trace = [lam * t + g for t, g in zip(trace, grad, strict=True)]
                delta = outcome - v_prev
                for i in range(len(weights)):
                    weights[i] += alpha * delta * trace[i]
            return plays
        mover = 1 - mover
        wb, bb = B.unpack(white), B.unpack(black)
        on_roll_white = mover == 0
        if is_race(wb, bb):
            value = evaluate_boards(wb, bb, on_roll_white, w)
            grad = [0.0] * len(weights)
        else:
            x = contact_features(wb, bb, on_roll_white)
            value = math.tanh(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            grad = [(1 - value * value) * xi for xi in x]
        if previous is not None:
            v_prev, g_prev = previous
            trace = [lam * t + g for t, g in zip(trace, g_prev, strict=True)]
            delta = value - v_prev
            for i in range(len(weights)):
                weights[i] += alpha * delta * trace[i]
            w = tuple(weights)
        previous = (value, grad)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--lam", type=float, default=0.7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    weights = list(WEIGHTS)
    start = time.perf_counter()
    for game in range(1, args.games + 1):
        alpha = args.alpha * (0.3 if game > args.games * 0.7 else 1.0)
        play_and_learn(weights, rng, alpha, args.lam)
        if game % 1000 == 0 or game == args.games:
            shown = ", ".join(f"{name}={w:+.3f}" for name, w in zip(FEATURES, weights, strict=True))
            print(f"{game} games, {time.perf_counter() - start:.0f} s: {shown}", flush=True)
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")


if __name__ == "__main__":
    main()
