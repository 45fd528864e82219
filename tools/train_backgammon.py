"""Train the backgammon network by TD(lambda) self-play, and measure networks against each other.

    python tools/train_backgammon.py train --dir runs/v2 --games 1500000 --hidden 128 --seed 7
    python tools/train_backgammon.py train --dir bench/results/train/wide256 --games 1000000 \
        --hidden 256 --start ludotheque/games/backgammon/network.npz --alpha 0.003 \
        --alpha-end 0.0005 --seed 11 --every 250000
    python tools/train_backgammon.py train --dir bench/results/train/thirdin128 --games 600000 \
        --hidden 128 --inputs 232 --start ludotheque/games/backgammon/network.npz --alpha 0.003 \
        --alpha-end 0.0005 --seed 31 --every 200000
    python tools/train_backgammon.py versus a.npz b.npz --games 20000
    python tools/train_backgammon.py check --positions 2000

Training (``train``): both sides play the play that the current network likes best one ply ahead
(by cubeless money equity, so that gammons matter); when a game ends, every position of it
learns, by a step of cross-entropy, towards its lambda-return: the mix of the network's later
estimates along the game and the game's end — the result (win, gammon, backgammon), or the
bear-off database's chances once both sides are bearing off, where self-play stops. The five
outputs are each side's chances in turn, seen from the side on roll. A share of the games use
the seed's five-checker cap, so that the network knows those positions too. The run keeps its
state in ``--dir`` (the latest network, a checkpoint every ``--every`` games, ``state.json``
and ``train.log``, which keeps every command that ran it) and resumes from it when
started again. Runs are kept in ``bench/results/train/<run>/`` and committed, so that a run
outlives the session that started it: the README's networks table names each one.

``versus`` plays two networks one ply ahead (cubeless, choosing by the chance to win), pairs of
games sharing their dice; ``check`` compares the compiled move generator and encoder with the
engine's. The kernels are compiled with numba (``tools/backgammon_numba.py``): training only;
the package itself needs numpy alone.

The network that ships goes to ``ludotheque/games/backgammon/network.npz`` with the figures
that justify it (see the README's AI section).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import backgammon_numba as K  # noqa: E402

from ludotheque.games.backgammon import bearoff  # noqa: E402
from ludotheque.games.backgammon import board as B  # noqa: E402
from ludotheque.games.backgammon.movegen import generate  # noqa: E402
from ludotheque.games.backgammon.network import Network, encode  # noqa: E402
from ludotheque.stats import wilson  # noqa: E402

START = np.array(B.unpack(B.pack({24: 2, 13: 5, 8: 3, 6: 5})), dtype=np.int8)


def database() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bear-off tables and the binomial table, as the kernels take them."""
    rolls, first = bearoff.tables()
    return np.ascontiguousarray(rolls), np.ascontiguousarray(first), bearoff._BINOMIAL.copy()


def _weights(net: Network) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The weights as the kernels take them: one hidden layer only."""
    if net.middle:
        raise SystemExit(
            "the compiled kernels read one hidden layer; measure a deeper network with "
            "bench/gnubg_match.py --network"
        )
    return (
        np.ascontiguousarray(net.w1, dtype=np.float64),
        np.ascontiguousarray(net.b1, dtype=np.float64),
        np.ascontiguousarray(net.w2, dtype=np.float64),
        np.ascontiguousarray(net.b2, dtype=np.float64),
    )


def widened(net: Network, hidden: int, rng: np.random.Generator, inputs: int = 0) -> Network:
    """``net`` with ``hidden`` hidden units when it has fewer: the new units get small random
    input weights and no weight to the outputs, so the network answers exactly as before and
    training gives the new units their part (a wider network that starts as strong as the
    narrow one). With ``inputs`` beyond the network's own (the third encoding after the
    second: its inputs come last), the new inputs start with no weight, for the same reason."""
    more = inputs - net.inputs
    if more > 0:
        net = Network(
            np.concatenate([net.w1, np.zeros((more, net.hidden_units))], axis=0),
            net.b1.copy(), net.w2.copy(), net.b2.copy(),
        )  # fmt: skip
    extra = hidden - net.hidden_units
    if extra <= 0:
        return net
    return Network(
        np.concatenate([net.w1, rng.uniform(-0.1, 0.1, (net.inputs, extra))], axis=1),
        np.concatenate([net.b1, np.zeros(extra)]),
        np.concatenate([net.w2, np.zeros((extra, net.w2.shape[1]))], axis=0),
        net.b2.copy(),
    )


def train(args: argparse.Namespace) -> None:
    """Run (or resume) a training run in ``args.dir``."""
    folder: Path = args.dir
    folder.mkdir(parents=True, exist_ok=True)
    state_file = folder / "state.json"
    latest = folder / "latest.npz"
    log = (folder / "train.log").open("a", encoding="utf-8")
    print("$ python " + " ".join(sys.argv), file=log, flush=True)  # the command, kept
    if state_file.exists() and latest.exists():
        state = json.loads(state_file.read_text())
        net = Network.load(latest)
        print(f"resuming at {state['games']} games", file=log, flush=True)
    else:
        state = {"games": 0, "seconds": 0.0, "args": {k: str(v) for k, v in vars(args).items()}}
        rng = np.random.default_rng(args.seed)
        if args.start:
            net = widened(Network.load(args.start), args.hidden, rng, args.inputs)
        else:
            net = Network.random(args.hidden, rng, args.inputs)
    w1, b1, w2, b2 = _weights(net)
    rolls, first, binom = database()
    bufs = K.buffers(w1.shape[1], w1.shape[0])
    chunk = args.chunk
    while state["games"] < args.games:
        done = state["games"]
        progress = done / max(1, args.games)
        alpha = args.alpha * (args.alpha_end / args.alpha) ** progress
        begun = time.perf_counter()
        if args.search:  # supervised towards the network's own value one roll deeper
            positions, error = K.search_games(
                chunk, args.seed * 1_000_003 + done, alpha, args.search, args.cap_share,
                w1, b1, w2, b2, rolls, first, binom, bufs, K.ZOBRIST, K.WEIGHT, K.REACH, START,
            )  # fmt: skip
        else:
            positions, error = K.train_games(
                chunk, args.seed * 1_000_003 + done, alpha, args.lam, args.cap_share,
                w1, b1, w2, b2, rolls, first, binom, bufs, K.ZOBRIST, K.WEIGHT, K.REACH, START,
            )  # fmt: skip
        took = time.perf_counter() - begun
        state["games"] = done + chunk
        state["seconds"] = float(state["seconds"]) + took
        print(
            f"{state['games']} games  alpha {alpha:.4f}  {positions / chunk:.1f} positions/game "
            f" error {error:.4f}  {chunk / took:.0f} games/s",
            file=log,
            flush=True,
        )
        net = Network(w1, b1, w2, b2)
        net.save(folder / "latest.tmp.npz")
        (folder / "latest.tmp.npz").replace(latest)
        if state["games"] % args.every == 0:
            net.save(folder / f"net-{state['games']}.npz")
        state_file.write_text(json.dumps(state))


def versus(a: Network, b: Network, games: int, seed: int) -> tuple[float, float]:
    """A's share of wins against B and A's points per game (money, no cube), one ply ahead."""
    rolls, first, binom = database()
    wins, points = K.play_match(
        games, seed, *_weights(a), *_weights(b), rolls, first, binom,
        K.buffers(a.hidden_units, a.w1.shape[0]), K.buffers(b.hidden_units, b.w1.shape[0]),
        K.ZOBRIST, K.WEIGHT, K.REACH, START,
    )  # fmt: skip
    return wins / games, points


def check(positions: int, seed: int) -> None:
    """Compare the compiled kernels with the engine on random positions; raise on a difference."""
    rng = random.Random(seed)
    bufs = K.buffers(8)
    out_me, out_opp, work, table, used, table2, used2 = bufs[:7]
    xs = [np.zeros(K.INPUTS), np.zeros(K.INPUTS2), np.zeros(K.INPUTS3)]
    checked = 0
    while checked < positions:
        me, opp = _random_position(rng)
        high = rng.randint(1, 6)
        low = rng.randint(1, high)
        cap = 5 if rng.random() < 0.3 else 0
        if cap and (max(me[1:25]) > cap or max(opp[1:25]) > cap):
            continue
        leaves, _ = generate(B.pack(dict(enumerate(me))), B.pack(dict(enumerate(opp))), high,
                             low, cap)  # fmt: skip
        expected = {(tuple(B.unpack(m)), tuple(B.unpack(o))) for m, o in leaves}
        a, b = np.array(me, dtype=np.int8), np.array(opp, dtype=np.int8)
        n = K.plays(a, b, high, low, cap, out_me, out_opp, work, table, used, table2, used2,
                    K.ZOBRIST)  # fmt: skip
        found = {(tuple(int(v) for v in out_me[i]), tuple(int(v) for v in out_opp[i]))
                 for i in range(n)}  # fmt: skip
        if found != expected or n != len(expected):
            raise SystemExit(f"plays differ for {me} {opp} {high}{low} cap {cap}")
        for x in xs:
            K.encode(a, b, x, K.WEIGHT, K.REACH)
            packed = [B.pack(dict(enumerate(me)))], [B.pack(dict(enumerate(opp)))]
            want = encode(*packed, inputs=len(x))[0]
            if not np.allclose(x, want, atol=1e-12):
                bad = np.nonzero(~np.isclose(x, want, atol=1e-12))[0]
                raise SystemExit(f"inputs differ at {bad.tolist()} for {me} {opp}")
        checked += 1
    print(f"{checked} positions: the kernels agree with the engine")


def _random_position(rng: random.Random) -> tuple[list[int], list[int]]:
    """Two sides (26 counts each, own views) with random checkers, sometimes all home."""
    while True:
        me = [0] * 26
        opp = [0] * 26
        home = rng.random() < 0.3
        for side, other in ((me, opp), (opp, me)):
            n = rng.randint(1, 15)
            for _ in range(n):
                place = rng.randint(1, 6) if home else rng.choice([*range(1, 25), 25, 25])
                if place != 25 and other[25 - place]:
                    continue
                side[place] += 1
            side[0] = 15 - sum(side[1:])
        if sum(me[1:]) and sum(opp[1:]):
            return me, opp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--dir", type=Path, required=True)
    t.add_argument("--games", type=int, default=1_000_000)
    t.add_argument("--hidden", type=int, default=128)
    t.add_argument("--inputs", type=int, default=K.INPUTS2, help="the encoding's size")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--alpha", type=float, default=0.02)
    t.add_argument("--alpha-end", type=float, default=0.002)
    t.add_argument("--lam", type=float, default=0.7)
    t.add_argument("--cap-share", type=float, default=0.2)
    t.add_argument("--chunk", type=int, default=1000)
    t.add_argument("--every", type=int, default=50_000, help="checkpoint every N games")
    t.add_argument(
        "--start", type=Path,
        help="start from this network (widened to --hidden units when it has fewer)",
    )  # fmt: skip
    t.add_argument(
        "--search", type=float, default=0.0, metavar="SHARE",
        help="instead of TD(lambda), learn at this share of the positions towards the "
        "network's own value one roll deeper (every roll, its best play); continuing the first "
        "network for 100,000 games it did no better than plain TD(lambda) (45.6%% against "
        "46.2%% of duplicate games against GNU Backgammon 0-ply, one ply each)",
    )  # fmt: skip
    v = sub.add_parser("versus")
    v.add_argument("a", type=Path)
    v.add_argument("b", type=Path)
    v.add_argument("--games", type=int, default=10_000)
    v.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("check")
    c.add_argument("--positions", type=int, default=2000)
    c.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "train":
        train(args)
    elif args.command == "versus":
        share, ppg = versus(Network.load(args.a), Network.load(args.b), args.games, args.seed)
        low, high = wilson(round(share * args.games), args.games)
        print(
            f"{args.a} wins {share:.1%} [{low:.1%}, {high:.1%}] of {args.games} games against "
            f"{args.b}; {ppg:+.3f} points a game (money, no cube)"
        )
    else:
        check(args.positions, args.seed)


if __name__ == "__main__":
    main()
