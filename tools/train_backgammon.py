"""Train the backgammon network by TD(lambda) self-play, and measure networks against each other.

    python tools/train_backgammon.py train --games 100000 --hidden 80 --out net.npz
    python tools/train_backgammon.py versus net.npz other.npz --games 2000

Training: both sides play the move the current network likes best one ply ahead; after every
move the network's estimate of the previous position moves towards its estimate of the new one
(and, at the end, towards the result), with eligibility traces (lambda). Values are kept from
white's side, so the on-roll network's output is flipped when black is on roll. A quarter of the
games use the seed's five-checker cap, so the network knows those positions too. ``versus``
plays two networks one ply ahead, alternating who starts, on the standard rules.

The trained file goes to ``ludotheque/games/backgammon/network.npz`` with the figures that
justify it (see the README's AI section).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.movegen import generate
from ludotheque.games.backgammon.network import Network, encode

START = B.pack({24: 2, 13: 5, 8: 3, 6: 5})


class Trainer:
    """TD(lambda) on a network, with its eligibility traces."""

    def __init__(self, net: Network, lam: float) -> None:
        self.net = net
        self.lam = lam
        self.reset()

    def reset(self) -> None:
        self.e_w1 = np.zeros_like(self.net.w1)
        self.e_b1 = np.zeros_like(self.net.b1)
        self.e_w2 = np.zeros_like(self.net.w2)
        self.e_b2 = 0.0

    def value_and_trace(self, x: np.ndarray, sign: float) -> float:
        """The on-roll win chance of ``x``; adds ``sign`` times its gradient to the traces
        (after decaying them)."""
        net = self.net
        h = 1 / (1 + np.exp(-(x @ net.w1 + net.b1)))
        p = float(1 / (1 + math.exp(-(h @ net.w2 + net.b2))))
        dp = p * (1 - p) * sign
        dh = dp * net.w2 * h * (1 - h)
        lam = self.lam
        self.e_w1 *= lam
        self.e_w1 += np.outer(x, dh)
        self.e_b1 = lam * self.e_b1 + dh
        self.e_w2 = lam * self.e_w2 + dp * h
        self.e_b2 = lam * self.e_b2 + dp
        return p

    def learn(self, delta: float, alpha: float) -> None:
        step = alpha * delta
        self.net.w1 += step * self.e_w1
        self.net.b1 += step * self.e_b1
        self.net.w2 += step * self.e_w2
        self.net.b2 += step * self.e_b2


def best_leaf(net: Network, me: int, opp: int, roll: tuple[int, int], cap: int) -> tuple[int, int]:
    """The play the network likes best for the side on roll (``me``)."""
    leaves = list(generate(me, opp, max(roll), min(roll), cap)[0])
    for m2, o2 in leaves:
        if m2 & 15 == 15:
            return m2, o2
    if len(leaves) == 1:
        return leaves[0]
    chances = net.win_chance(encode([o for _, o in leaves], [m for m, _ in leaves]))
    return leaves[int(np.argmin(chances))]  # the opponent's chance, on roll next


def train_game(trainer: Trainer, rng: random.Random, alpha: float, cap: int) -> int:
    """One self-play game with TD(lambda) updates; returns the number of plays."""
    trainer.reset()
    boards = [START, START]
    mover = rng.randrange(2)
    previous: float | None = None  # white's chance at the previous position
    plays = 0
    while True:
        me, opp = boards[mover], boards[1 - mover]
        sign = 1.0 if mover == 0 else -1.0
        x = encode([me], [opp])[0]
        if previous is not None:
            # first the update for the step that led here, then this position's trace
            p = float(trainer.net.win_chance(x[None, :])[0])
            white = p if mover == 0 else 1 - p
            trainer.learn(white - previous, alpha)
        p = trainer.value_and_trace(x, sign)
        previous = p if mover == 0 else 1 - p
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        me, opp = best_leaf(trainer.net, me, opp, roll, cap)
        boards[mover], boards[1 - mover] = me, opp
        plays += 1
        if me & 15 == 15:
            trainer.learn((1.0 if mover == 0 else 0.0) - previous, alpha)
            return plays
        mover = 1 - mover


def versus(a: Network, b: Network, games: int, seed: int) -> float:
    """``a``'s share of wins against ``b``, one ply ahead, ``a`` starting every other game."""
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        nets = (a, b) if game % 2 == 0 else (b, a)
        boards = [START, START]
        mover = 0
        while True:
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            if mover == 0 and boards == [START, START]:
                while roll[0] == roll[1]:  # the opening roll is never a double
                    roll = (rng.randint(1, 6), rng.randint(1, 6))
            me, opp = best_leaf(nets[mover], boards[mover], boards[1 - mover], roll, 0)
            boards[mover], boards[1 - mover] = me, opp
            if me & 15 == 15:
                wins += (mover == 0) == (game % 2 == 0)
                break
            mover = 1 - mover
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--games", type=int, default=100_000)
    t.add_argument("--hidden", type=int, default=80)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--alpha", type=float, default=0.1)
    t.add_argument("--alpha-end", type=float, default=0.02)
    t.add_argument("--lam", type=float, default=0.7)
    t.add_argument("--start", type=Path, help="continue from this network")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--every", type=int, default=10_000, help="checkpoint every N games")
    v = sub.add_parser("versus")
    v.add_argument("a", type=Path)
    v.add_argument("b", type=Path)
    v.add_argument("--games", type=int, default=1000)
    v.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "versus":
        share = versus(Network.load(args.a), Network.load(args.b), args.games, args.seed)
        spread = 1.96 * math.sqrt(share * (1 - share) / args.games)
        print(f"{args.a} wins {share:.1%} (± {spread:.1%}) of {args.games} games against {args.b}")
        return
    rng = random.Random(args.seed)
    net = (
        Network.load(args.start)
        if args.start
        else Network.random(args.hidden, np.random.default_rng(args.seed))
    )
    trainer = Trainer(net, args.lam)
    begun = time.perf_counter()
    plays = 0
    for game in range(1, args.games + 1):
        alpha = args.alpha + (args.alpha_end - args.alpha) * (game - 1) / max(1, args.games - 1)
        plays += train_game(trainer, rng, alpha, 5 if rng.random() < 0.25 else 0)
        if game % args.every == 0 or game == args.games:
            checkpoint = args.out.with_name(f"{args.out.stem}-{game}{args.out.suffix}")
            net.save(checkpoint if game != args.games else args.out)
            took = time.perf_counter() - begun
            print(f"{game} games, {plays / game:.1f} plays a game, {took:.0f} s", flush=True)


if __name__ == "__main__":
    main()
