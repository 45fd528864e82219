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
    python tools/rollout_backgammon.py adam --dir bench/results/train/tworoll1 --epochs 60 \
        --lr 0.002                            # and --extra 64 --name adam-deep64

``positions`` samples positions from self-play games of the shipped network (one ply ahead, a fifth
of the games with the seed's five-checker cap), the side on roll first, before its roll.
``rollouts`` values each two rolls deeper (``--trials 0``, the default): for every roll the
network's play one ply ahead, then for every roll of the other side its reply, valued by the
network; no dice are drawn. With ``--trials N`` it rolls each out instead: N games from it, the
first roll of each trial taken in turn from the 36 (so every first roll has its share), ``--plies``
plies each, then the network's estimate after the last play (or the game's end, or the bear-off
database's exact chances). It writes ``targets-<part>-of-<parts>.npz`` a chunk at a time and resumes
where it stopped, so several processes share the work and a run outlives its session. ``fit`` trains
a copy of the starting network (the shipped one by default) towards the targets by cross-entropy,
holding out a tenth of the positions to measure it, and keeps the network of the epoch that does
best on them (``fit.npz``, or ``--name``), with its figures in ``fit.log``. ``adam`` asks whether
the optimiser or the depth is what stops the fit: it fits the same targets by minibatches and Adam,
in numpy, from the shipped network, with ``--extra N`` a second hidden layer of N units put between
its hidden layer and a fresh output layer, ``--learn K`` learning from the first K positions only
and ``--more DIR ...`` from other runs' positions too (the held-out ones stay ``--dir``'s), and logs
each epoch's errors on the learned and the held-out positions by kind, and keeps the network of
the epoch best on the held-out positions (``<name>.npz``; with ``--extra``, ``Network``'s middle
layer, which the compiled core reads too). GNU Backgammon is not asked anything: it stays the
yardstick (``bench/gnubg_match.py``), never the teacher.
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

from ludotheque.games.backgammon.network import INPUTS2, Network, encode_counts  # noqa: E402

SHIPPED = ROOT / "ludotheque" / "games" / "backgammon" / "network.npz"
KINDS = ("contact", "home-heavy", "race")


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


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


def adam(args: argparse.Namespace) -> None:
    folder: Path = args.dir
    me, opp, targets = _targets(folder)
    n = len(targets)
    cut = n - n // 10  # the same held-out tenth as ``fit``
    for other in args.more or []:  # more positions to learn from, put before the held-out ones
        more = _targets(other)
        me, opp, targets = (np.concatenate([a[:cut], b, a[cut:]]) for a, b in zip(
            (me, opp, targets), more, strict=True))  # fmt: skip
        cut += len(more[2])
        n = len(targets)
    learn = min(cut, args.learn or cut)  # a learning curve: the first ``--learn`` of them
    x = encode_counts(me.astype(np.uint8), opp.astype(np.uint8), INPUTS2)
    kinds = kind_of(me, opp)
    net = Network.load(SHIPPED)
    rng = np.random.default_rng(args.seed)
    layers = [[net.w1.copy(), net.b1.copy()]]
    if args.extra:
        layers.append([rng.normal(0, 0.1, (net.hidden_units, args.extra)), np.zeros(args.extra)])
        layers.append([rng.normal(0, 0.1, (args.extra, K.OUTPUTS)), np.zeros(K.OUTPUTS)])
    else:
        layers.append([net.w2.copy(), net.b2.copy()])
    log = _log(folder, f"{args.name}.log")

    def forward(rows: np.ndarray) -> list[np.ndarray]:
        acts = [rows]
        for w, b in layers:
            acts.append(_sigmoid(acts[-1] @ w + b))
        return acts

    best = [np.inf]

    def say(tag: str) -> None:
        off = np.abs(forward(x[cut:])[-1][:, 0] - targets[cut:, 0]) * 100
        learned = np.abs(forward(x[:8000])[-1][:, 0] - targets[:8000, 0]).mean() * 100
        k = kinds[cut:]
        by_kind = ", ".join(f"{kind} {off[k == kind].mean():.3f}" for kind in KINDS)
        text = (f"{tag}: held-out win chance off by {off.mean():.3f} points ({by_kind}); "
                f"learned from (first 8,000) {learned:.3f}")  # fmt: skip
        print(text, file=log, flush=True)  # type: ignore[call-overload]
        print(text, flush=True)
        if off.mean() < best[0]:  # the best on the held-out positions is kept
            best[0] = off.mean()
            (w1, b1), *middle, (w2, b2) = layers
            middle_layers = [(w, b) for w, b in middle]
            Network(w1, b1, w2, b2, middle_layers).save(folder / f"{args.name}.npz")

    moments = [[(np.zeros_like(a), np.zeros_like(a)) for a in layer] for layer in layers]
    step = 0
    say("start")
    for epoch in range(1, args.epochs + 1):
        lr = args.lr * 0.1 ** ((epoch - 1) / max(1, args.epochs - 1))
        order = rng.permutation(learn)
        for s in range(0, learn, args.batch):
            idx = order[s : s + args.batch]
            acts = forward(x[idx])
            delta = (acts[-1] - targets[idx]) / len(idx)  # cross-entropy through the sigmoid
            step += 1
            for i in range(len(layers) - 1, -1, -1):
                w = layers[i][0]
                grads = (acts[i].T @ delta, delta.sum(axis=0))
                if i:
                    delta = (delta @ w.T) * acts[i] * (1 - acts[i])
                for j, g in enumerate(grads):
                    m, v = moments[i][j]
                    m *= 0.9
                    m += 0.1 * g
                    v *= 0.999
                    v += 0.001 * g * g
                    m_hat, v_hat = m / (1 - 0.9**step), v / (1 - 0.999**step)
                    layers[i][j] -= lr * m_hat / (np.sqrt(v_hat) + 1e-8)
        say(f"epoch {epoch} lr {lr:.5f}")


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
    a = sub.add_parser("adam")
    a.add_argument("--dir", type=Path, required=True)
    a.add_argument("--epochs", type=int, default=60)
    a.add_argument("--lr", type=float, default=0.002, help="Adam's step, falling tenfold")
    a.add_argument("--batch", type=int, default=64)
    a.add_argument("--extra", type=int, default=0, help="units of a second hidden layer")
    a.add_argument("--seed", type=int, default=3)
    a.add_argument("--name", default="adam")
    a.add_argument("--learn", type=int, default=0, help="positions learned from (0: all)")
    a.add_argument(
        "--more", type=Path, nargs="+", help="run folders whose targets are learned from too"
    )
    args = parser.parse_args()
    commands = {"positions": positions, "rollouts": rollouts, "fit": fit, "adam": adam}
    commands[args.command](args)


if __name__ == "__main__":
    main()
