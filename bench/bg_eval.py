"""Backgammon evaluations per second: the network's forward pass (and its inputs) as it was
before issue 40 (numpy, single precision), as numpy computes it now (double precision, the
fallback) and in the compiled core (``_cbackgammon.c``); and a search's step, every roll's plays
of a position with their evaluations (``expansion.expand``), compiled and in numpy.

    python bench/bg_eval.py [--runs 7] [--positions 2000] [--network FILE ...]

Positions are those met in seeded games between two ``medium`` players (``standard``); each
measure evaluates them in batches of ``--batch`` (a search's batches: the children of a few
positions), and is repeated ``--runs`` times, interleaved; figures are medians of the runs in
CPU time of this process (``time.process_time``: the machine is shared). ``--network`` also
measures the compiled evaluation and expansion with each network file given (a deeper one costs
its middle layer). The code before the
issue is extracted from git (``BEFORE``) into a temporary directory and imported beside
today's. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _before import extract_before

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import expansion, network

BEFORE = "47e6f8a"
"""The last commit before issue 40's work."""
clock = time.process_time


def before_network() -> ModuleType:
    """``ludotheque.games.backgammon.network`` as it was at ``BEFORE``."""
    extract_before(BEFORE)
    with warnings.catch_warnings():  # its compiled core is today's: it runs in pure Python
        warnings.simplefilter("ignore")
        return importlib.import_module("ludotheque_before.games.backgammon.network")


def sample(count: int, seed: int) -> np.ndarray:
    """``count`` positions (n x 2 x 26 counts, the side on roll first) from seeded games."""
    game = ludotheque.load("backgammon", "standard")
    rng = random.Random(seed)
    agent = make_agent("backgammon", "medium", seed=seed)
    boards: list[int] = []
    state = game.start()
    while len(boards) < 2 * count:
        if state.outcome() is not None:
            state = game.start()
            continue
        if state.to_move == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.play(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
            continue
        if state.side is not None:
            boards += state.mover_boards()
        state = state.play(agent.choose(state))
    return network.unpack_many(boards).reshape(count, 2, 26)


def rate(work: Callable[[], int]) -> float:
    """Items per second of CPU time of one call of ``work`` (which returns its item count)."""
    start = clock()
    items = work()
    return items / (clock() - start)


def using(net: network.Network, work: Callable[[], int]) -> Callable[[], int]:
    """``work`` evaluating with ``net``, the shipped network again after it."""

    def with_net() -> int:
        network.use(net)
        try:
            return work()
        finally:
            network.use(None)

    return with_net


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--network", nargs="+", type=Path, default=[], help="networks to time too")
    args = parser.parse_args()
    old = before_network()
    rows = sample(args.positions, args.seed)
    batches = [rows[i : i + args.batch] for i in range(0, len(rows), args.batch)]
    few = rows[:: max(1, len(rows) // 40)][:40]  # positions to expand
    fast = network.core()
    print(f"{len(rows)} positions in batches of {args.batch}; compiled core: "
          f"{'yes' if fast is not None else 'no'}")  # fmt: skip

    def evaluate(chances: Callable[[np.ndarray, np.ndarray], object]) -> Callable[[], int]:
        def work() -> int:
            for b in batches:
                chances(b[:, 0], b[:, 1])
            return len(rows)

        return work

    def expand(how: Callable[[np.ndarray, int], expansion.Expansion]) -> Callable[[], int]:
        def work() -> int:
            return sum(len(how(few[i : i + 2], 0).ends) for i in range(0, len(few), 2))

        return work

    measures: dict[str, Callable[[], int]] = {
        "evaluations/s, before (numpy, float32)": evaluate(old.chances_of_counts),
        "evaluations/s, numpy now (float64)": evaluate(network.chances_numpy),
    }
    if fast is not None:
        measures["evaluations/s, compiled"] = evaluate(network.chances_of_counts)
    measures["expansion children/s, numpy"] = expand(expansion.expand_numpy)
    if fast is not None:
        measures["expansion children/s, compiled"] = expand(expansion.expand)
    for path in args.network if fast is not None else []:
        net = network.Network.load(path)
        measures[f"evaluations/s, compiled, {path.stem}"] = using(
            net, evaluate(network.chances_of_counts)
        )
        measures[f"expansion children/s, compiled, {path.stem}"] = using(
            net, expand(expansion.expand)
        )
    for work in measures.values():  # warm up
        work()
    figures: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(args.runs):
        for name, work in measures.items():
            figures[name].append(rate(work))
    for name, values in figures.items():
        shown = ", ".join(f"{v:,.0f}" for v in values)
        print(f"  {name:<52} median {statistics.median(values):>11,.0f}  ({shown})")


if __name__ == "__main__":
    main()
