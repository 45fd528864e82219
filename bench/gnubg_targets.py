"""How near GNU Backgammon's evaluation our network's training targets are, beside the network
itself, by kind of position (bench only; ``pip install -e '.[reference]'`` and numba).

    python bench/gnubg_targets.py --positions 500                    # two rolls deeper
    python bench/gnubg_targets.py --positions 500 --trials 144 --plies 1000  # rollouts to the end

The positions are the first ``--positions`` of a run's ``positions.npz``
(``tools/rollout_backgammon.py positions``; those of the seed's five-checker cap left out, which
GNU Backgammon does not play). Each is valued by the shipped network, by the targets
``tools/rollout_backgammon.py rollouts`` would give it (``--trials 0``: two rolls deeper, every
roll weighed; else that many truncated rollouts of ``--plies`` plies), and by GNU Backgammon
at ``--gnubg-plies`` (2 by default); the mean absolute gap to GNU Backgammon's chance to win and
to win a gammon is printed for the network and the targets, by the kinds of
``bench/gnubg_gap.py``. GNU Backgammon is the yardstick, never a teacher: nothing here trains.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import backgammon_numba as K  # type: ignore[import-not-found]  # noqa: E402
import gnubg  # noqa: E402
from gnubg_gap import KINDS, kinds_of  # noqa: E402
from train_backgammon import _weights, database  # type: ignore[import-not-found]  # noqa: E402

from ludotheque.games.backgammon.network import chances_of_counts, shipped  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--run", type=Path, default=ROOT / "bench" / "results" / "train" / "tworoll1"
    )
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--trials", type=int, default=0)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--gnubg-plies", type=int, default=2)
    args = parser.parse_args()
    data = np.load(args.run / "positions.npz")
    keep = data["cap"][: args.positions] == 0
    me = np.ascontiguousarray(data["me"][: args.positions][keep])
    opp = np.ascontiguousarray(data["opp"][: args.positions][keep])
    cap = np.ascontiguousarray(data["cap"][: args.positions][keep])
    weights = _weights(shipped())
    rolls, first, binom = database()
    bufs = K.buffers(weights[0].shape[1], weights[0].shape[0])
    targets = np.zeros((len(cap), K.OUTPUTS))
    tables = (rolls, first, binom, bufs, K.ZOBRIST, K.WEIGHT, K.REACH)
    if args.trials == 0:
        K.two_roll_targets(me, opp, cap, *weights, *tables, targets)
    else:
        K.rollout_targets(me, opp, cap, args.trials, args.plies, args.seed, *weights, *tables,
                          targets)  # fmt: skip
    ours = chances_of_counts(me.astype(np.uint8), opp.astype(np.uint8))
    cube = gnubg.cube_info()
    judge = gnubg.eval_context(0, args.gnubg_plies, 1, 0, 0.0)
    gaps: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in KINDS}
    for i in range(len(cap)):
        on_roll, other = [int(v) for v in me[i]], [int(v) for v in opp[i]]
        theirs = gnubg.evaluate((tuple(other[1:26]), tuple(on_roll[1:26])), cube, judge)
        gap = (abs(ours[i][0] - theirs[0]), abs(targets[i][0] - theirs[0]),
               abs(ours[i][1] - theirs[1]), abs(targets[i][1] - theirs[1]))  # fmt: skip
        for kind in kinds_of(on_roll, other):
            gaps[kind].append(gap)
    how = "two rolls deeper" if args.trials == 0 else f"{args.trials} rollouts of {args.plies}"
    print(f"{len(cap)} positions of {args.run.name}; targets: {how}; mean |x - GNU Backgammon "
          f"{args.gnubg_plies}-ply|, in points of chance:")  # fmt: skip
    for kind in KINDS:
        if not gaps[kind]:
            continue
        net_win, target_win, net_gammon, target_gammon = (
            100 * np.array(gaps[kind]).mean(axis=0)
        ).tolist()
        print(f"  {kind:<11} {len(gaps[kind]):5d}  win: network {net_win:5.2f}  targets "
              f"{target_win:5.2f}   gammon: network {net_gammon:5.2f}  targets "
              f"{target_gammon:5.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
