"""Supervised targets for the backgammon network from its own search and rollouts of its play.

    python tools/rollout_backgammon.py positions --dir bench/results/train/tworoll1 \
        --count 80000 --seed 21
    python tools/rollout_backgammon.py rollouts --dir bench/results/train/tworoll1 \
        --part 0 --parts 2 --chunk 1000      # and --part 1, in another process
    python tools/rollout_backgammon.py fit --dir bench/results/train/tworoll1 --epochs 6 \
        --alpha 0.002 --alpha-end 0.0005
    python tools/rollout_backgammon.py fit --dir bench/results/train/tworoll1 --epochs 10 \
        --alpha 0.01 --alpha-end 0.001 --start bench/results/train/wide256/latest.npz \
        --name fit-wide256
    python tools/rollout_backgammon.py fit --dir bench/results/train/tworoll1 --epochs 12 \
        --alpha 0.01 --alpha-end 0.001 --kind home-heavy --name fit-home-heavy

``positions`` samples positions from self-play games of the shipped network (one ply ahead, a
fifth of the games with the seed's five-checker cap), the side on roll first, before its roll.
``rollouts`` values each two rolls deeper (``--trials 0``, the default): for every roll the
network's play one ply ahead, then for every roll of the other side its reply, valued by the
network; no dice are drawn. With ``--trials N`` it rolls each out instead: N games from it, the
first roll of each trial taken in turn from the 36 (so every first roll has its share),
``--plies`` plies each, then the network's estimate after the last play (or the game's end, or
the bear-off database's exact chances). It writes ``targets-<part>-of-<parts>.npz`` a
chunk at a time and resumes where it stopped, so several processes share the work and a run
outlives its session. ``fit`` trains a copy of the starting network (the shipped one by
default) towards the targets by cross-entropy, holding out a tenth of the positions to measure
it, and keeps the network of the epoch that does best on them (``fit.npz``, or ``--name``), with
its figures in ``fit.log``. GNU Backgammon is not asked anything: it stays the yardstick
(``bench/gnubg_match.py``), never the teacher.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import backgammon_numba as K  # noqa: E402
from train_backgammon import START, _weights, database  # noqa: E402

from ludotheque.games.backgammon.network import Network  # noqa: E402

SHIPPED = ROOT / "ludotheque" / "games" / "backgammon" / "network.npz"


def _log(folder: Path, name: str = "rollout.log") -> object:
    log = (folder / name).open("a", encoding="utf-8")
    print("$ python " + " ".join(sys.argv), file=log, flush=True)  # the command, kept
    return log


def positions(args: argparse.Namespace) -> None:
    folder: Path = args.dir
    folder.mkdir(parents=True, exist_ok=True)
    net = Network.load(args.network)
    w1, b1, w2, b2 = _weights(net)
    rolls, first, binom = database()
    bufs = K.buffers(w1.shape[1], w1.shape[0])
    me = np.zeros((args.count, 26), dtype=np.int8)
    opp = np.zeros((args.count, 26), dtype=np.int8)
    cap = np.zeros(args.count, dtype=np.int64)
    n = K.sample_positions(
        10**9, args.seed, args.keep, args.cap_share, w1, b1, w2, b2, rolls, first, binom, bufs,
        K.ZOBRIST, K.WEIGHT, K.REACH, START, me, opp, cap,
    )  # fmt: skip
    order = np.random.default_rng(args.seed).permutation(n)  # held-out rows are the last tenth
    np.savez_compressed(folder / "positions.npz", me=me[order], opp=opp[order], cap=cap[order])
    log = _log(folder)
    print(f"{n} positions sampled", file=log, flush=True)  # type: ignore[call-overload]
    print(f"{n} positions in {folder / 'positions.npz'}")


def rollouts(args: argparse.Namespace) -> None:
    folder: Path = args.dir
    data = np.load(folder / "positions.npz")
    rows = np.arange(len(data["cap"]))[args.part :: args.parts]
    me = np.ascontiguousarray(data["me"][rows])
    opp = np.ascontiguousarray(data["opp"][rows])
    cap = np.ascontiguousarray(data["cap"][rows])
    out_file = folder / f"targets-{args.part}-of-{args.parts}.npz"
    targets = np.zeros((len(rows), K.OUTPUTS))
    done = 0
    if out_file.exists():
        kept = np.load(out_file)
        done = int(kept["done"])
        targets[:done] = kept["targets"][:done]
    net = Network.load(args.network)
    w1, b1, w2, b2 = _weights(net)
    rolls, first, binom = database()
    bufs = K.buffers(w1.shape[1], w1.shape[0])
    log = _log(folder)
    while done < len(rows):
        end = min(done + args.chunk, len(rows))
        begun = time.perf_counter()
        if args.trials == 0:
            K.two_roll_targets(
                me[done:end], opp[done:end], cap[done:end], w1, b1, w2, b2, rolls, first,
                binom, bufs, K.ZOBRIST, K.WEIGHT, K.REACH, targets[done:end],
            )  # fmt: skip
        else:
            K.rollout_targets(
                me[done:end], opp[done:end], cap[done:end], args.trials, args.plies,
                args.seed * 1_000_003 + args.part * 10_007 + done, w1, b1, w2, b2, rolls,
                first, binom, bufs, K.ZOBRIST, K.WEIGHT, K.REACH, targets[done:end],
            )  # fmt: skip
        took = time.perf_counter() - begun
        done = end
        np.savez_compressed(folder / f"targets-{args.part}.tmp.npz", targets=targets,
                            rows=rows, done=done)  # fmt: skip
        (folder / f"targets-{args.part}.tmp.npz").replace(out_file)
        print(f"part {args.part}: {done}/{len(rows)}  {args.chunk / took:.1f} positions/s",
              file=log, flush=True)  # type: ignore[call-overload]  # fmt: skip


def _targets(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data = np.load(folder / "positions.npz")
    n = len(data["cap"])
    targets = np.full((n, K.OUTPUTS), np.nan)
    for part in folder.glob("targets-*-of-*.npz"):
        kept = np.load(part)
        done = int(kept["done"])
        targets[kept["rows"][:done]] = kept["targets"][:done]
    known = ~np.isnan(targets[:, 0])
    return data["me"][known], data["opp"][known], targets[known]


def _rearmost(rows: np.ndarray) -> np.ndarray:
    """Each board's rearmost checker (0 when all are off)."""
    held = rows[:, 1:26] > 0
    return np.where(held.any(axis=1), 25 - np.argmax(held[:, ::-1], axis=1), 0)


def kind_of(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Each position's kind, as ``bench/gnubg_gap.py`` counts them: ``race`` (no contact),
    ``home-heavy`` (contact, and a side has twelve or more checkers home or off) or
    ``contact``."""
    contact = _rearmost(me) + _rearmost(opp) > 25
    heavy = (me[:, 0:7].sum(axis=1) >= 12) | (opp[:, 0:7].sum(axis=1) >= 12)
    return np.where(~contact, "race", np.where(heavy, "home-heavy", "contact"))


def fit(args: argparse.Namespace) -> None:
    folder: Path = args.dir
    me, opp, targets = _targets(folder)
    if args.kind != "all":
        chosen = kind_of(me, opp) == args.kind
        me, opp, targets = me[chosen], opp[chosen], targets[chosen]
    n = len(targets)
    cut = n - n // 10
    net = Network.load(args.start)
    w1, b1, w2, b2 = _weights(net)
    log = _log(folder, f"{args.name}.log")

    def say(text: str) -> None:
        print(text, file=log, flush=True)  # type: ignore[call-overload]
        print(text, flush=True)

    held = (me[cut:], opp[cut:], targets[cut:])
    base = K.errors(*held, w1, b1, w2, b2, K.WEIGHT, K.REACH)
    say(f"{n} positions ({cut} to learn from, {n - cut} held out); the starting network on "
        f"the held-out: squared error {base[0]:.5f}, win chance off by {base[1]:.4f}")  # fmt: skip
    best = base[0]
    rng = np.random.default_rng(args.seed)
    for epoch in range(1, args.epochs + 1):
        alpha = args.alpha * (args.alpha_end / args.alpha) ** (
            (epoch - 1) / max(1, args.epochs - 1)
        )
        train_err = K.fit_epoch(me, opp, targets, rng.permutation(cut), alpha, w1, b1, w2, b2,
                                K.WEIGHT, K.REACH)  # fmt: skip
        got = K.errors(*held, w1, b1, w2, b2, K.WEIGHT, K.REACH)
        say(f"epoch {epoch}  alpha {alpha:.5f}  learning error {train_err:.5f}  held-out "
            f"{got[0]:.5f}, win chance off by {got[1]:.4f}")  # fmt: skip
        if got[0] < best:
            best = got[0]
            Network(w1.copy(), b1.copy(), w2.copy(), b2.copy()).save(folder / f"{args.name}.npz")
            say(f"kept epoch {epoch} as {args.name}.npz")
    (folder / f"{args.name}.json").write_text(json.dumps({"positions": n, "best": best}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--dir", type=Path, required=True)
    p.add_argument("--count", type=int, default=60_000)
    p.add_argument("--keep", type=float, default=0.2, help="share of a game's positions kept")
    p.add_argument("--cap-share", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--network", type=Path, default=SHIPPED)
    r = sub.add_parser("rollouts")
    r.add_argument("--dir", type=Path, required=True)
    r.add_argument(
        "--trials", type=int, default=0,
        help="games a position is rolled out (0: every roll of both sides, two plies, no dice "
        "drawn: the default, closest to GNU Backgammon 2-ply for its cost)",
    )  # fmt: skip
    r.add_argument("--plies", type=int, default=8)
    r.add_argument("--part", type=int, default=0)
    r.add_argument("--parts", type=int, default=1)
    r.add_argument("--chunk", type=int, default=500)
    r.add_argument("--seed", type=int, default=22)
    r.add_argument("--network", type=Path, default=SHIPPED)
    f = sub.add_parser("fit")
    f.add_argument("--dir", type=Path, required=True)
    f.add_argument("--start", type=Path, default=SHIPPED)
    f.add_argument("--epochs", type=int, default=6)
    f.add_argument("--alpha", type=float, default=0.002)
    f.add_argument("--alpha-end", type=float, default=0.0005)
    f.add_argument("--seed", type=int, default=23)
    f.add_argument("--name", default="fit", help="the fitted network's name in --dir")
    f.add_argument(
        "--kind", default="all", choices=("all", "race", "contact", "home-heavy"),
        help="learn from (and measure on) positions of this kind only",
    )  # fmt: skip
    args = parser.parse_args()
    {"positions": positions, "rollouts": rollouts, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
