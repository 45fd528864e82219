"""How long each computer level thinks per move, as measured (not its clock cap).

    python bench/think.py [--moves 40] [--seed 1] [--game general] [--ruleset 10x10]
    python bench/think.py --game backgammon --level hard --network FILE   # a candidate network

For each game (ruleset) and level, the level plays both sides of seeded games until it has
chosen ``--moves`` moves, and the script prints the median, 90th percentile and maximum time of
``choose()``. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.ai.levels import LEVELS, make_agent
from ludotheque.core import CHANCE

SETS = [("general", None), ("backgammon", "seed"), ("backgammon", "standard"),
        ("backgammon", "money"), ("defiance", "8x8"), ("defiance", "10x10")]  # fmt: skip
"""The games and rulesets measured; backgammon's ``money`` counts the cube decisions too (every
decision of the side on turn before its roll is one ``choose()``)."""


def think_times(game: str, ruleset: str | None, level: str, moves: int, seed: int) -> list[float]:
    """Seconds per ``choose()`` of ``level`` over ``moves`` decisions of seeded self-play."""
    g = ludotheque.load(game, ruleset)
    rng = random.Random(seed)
    agent = make_agent(game, level, seed=seed, ruleset=ruleset)
    times: list[float] = []
    state = g.start()
    while len(times) < moves:
        if state.outcome() is not None:
            state = g.start()
            continue
        if state.to_move == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.play(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
            continue
        start = time.perf_counter()
        move = agent.choose(state)
        times.append(time.perf_counter() - start)
        state = state.play(move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--ruleset", help="only this ruleset")
    parser.add_argument("--level", help="only this level")
    parser.add_argument("--network", help="backgammon: a network file instead of the shipped one")
    args = parser.parse_args()
    if args.network:
        from ludotheque.games.backgammon import network

        network.use(network.Network.load(args.network))
    print(f"{'game':<22} {'level':<7} {'median':>9} {'p90':>9} {'max':>9}")
    for game, ruleset in SETS:
        if (args.game and game != args.game) or (args.ruleset and ruleset != args.ruleset):
            continue
        for level in [args.level] if args.level else LEVELS:
            times = sorted(think_times(game, ruleset, level, args.moves, args.seed))
            p90 = times[int(0.9 * (len(times) - 1))]
            name = f"{game} ({ruleset})" if ruleset else game
            print(f"{name:<22} {level:<7} {statistics.median(times):>8.3f}s {p90:>8.3f}s "
                  f"{times[-1]:>8.3f}s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
