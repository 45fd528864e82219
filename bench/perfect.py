"""The perfect rebels from the start against every general, as measured (not a test).

    python bench/perfect.py [--games 30] [--seed 1] [--generals random,easy,medium,hard,perfect]
    python bench/perfect.py --perfect-general [--generals hard]   # the other way round

For each general, ``--games`` seeded games from the start: the perfect rebels (the shipped
strategy) against that general; prints the rebels' wins, draws (a position three times) and
losses, the plies of the games (least, median, most), the proven number of plies from the
start, and the time of each side's ``choose()`` per move (median, 90th percentile, most). With
``--perfect-general``, the perfect general against the rebels of each level named by
``--generals`` (for the rating the perfect level starts from). Uses only what the package ships
(set ``LUDOTHEQUE_TABLES`` to an empty folder to make sure no built table is read).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.solve.certificate import shipped


def play(level: str, seed: int, perfect_general: bool = False
         ) -> tuple[str | None, int, list[float], list[float]]:  # fmt: skip
    """One game from the start, the perfect rebels against the general of ``level`` (or the
    perfect general against its rebels): (winner, plies, the rebels' think times, the
    general's)."""
    game = ludotheque.load("general")
    perfect = make_agent("general", "perfect", seed=seed)
    other = make_agent("general", level, seed=seed + 1000)
    rebels, general = (other, perfect) if perfect_general else (perfect, other)
    state = game.start()
    seen = {state: 1}
    times: dict[str, list[float]] = {"rebels": [], "general": []}
    plies = 0
    while state.outcome() is None and plies < 1000:
        side = str(state.to_move)
        agent = rebels if side == "rebels" else general
        began = time.perf_counter()
        move = agent.choose(state)
        times[side].append(time.perf_counter() - began)
        state = state.play(move)
        plies += 1
        seen[state] = seen.get(state, 0) + 1
        if seen[state] >= game.repetition_limit:
            return None, plies, times["rebels"], times["general"]
    outcome = state.outcome()
    return (None if outcome is None else outcome.winner), plies, times["rebels"], times["general"]


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.4f} / {p90:.4f} / {ordered[-1]:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generals", default="random,easy,medium,hard,perfect")
    parser.add_argument("--perfect-general", action="store_true")
    args = parser.parse_args()
    strategy = shipped()
    proven = None if strategy is None else strategy.header.get("plies")
    print(f"proven: the rebels win in {proven} plies from the start")
    print(f"{'general':<8} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} "
          f"{'plies (least/median/most)':>26}  rebels s/move (median/p90/max)  "
          f"general s/move")  # fmt: skip
    for general in args.generals.split(","):
        wins = draws = losses = 0
        lengths: list[int] = []
        mine: list[float] = []
        theirs: list[float] = []
        for n in range(args.games):
            winner, plies, rebels_times, general_times = play(
                general, args.seed + n, args.perfect_general
            )
            wins += winner == "rebels"
            draws += winner is None
            losses += winner == "general"
            lengths.append(plies)
            mine += rebels_times
            theirs += general_times
        print(f"{general:<8} {args.games:>5} {wins:>5} {draws:>5} {losses:>6} "
              f"{min(lengths):>8} / {statistics.median(lengths):>5} / {max(lengths):>5}   "
              f"{spread(mine)}  {spread(theirs)}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
