"""Where our take decisions part from GNU Backgammon's, from a ``bench/gnubg_cube.py --dump``
file: how many wrong takes and wrong passes, what they lose by GNU Backgammon's numbers, and
whether a margin (take only when the take beats the pass by ``m``) or the mean of the one- and
two-roll values would lose less.

    python bench/gnubg_cube.py --money-games 200 --match-games 100 --plies 2 --seed 12 \\
        --dump /tmp/cube-seed12.jsonl
    python bench/cube_takes.py /tmp/cube-seed12.jsonl

Money figures are points a take decision (a cube of 1), match figures match winning chance a
take decision; a "wrong take" takes where GNU Backgammon passes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.ai import Budget
from ludotheque.ai.backgammon import BackgammonAgent
from ludotheque.games.backgammon.rules import BackgammonState

MONEY_MARGINS = (0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1)
MATCH_MARGINS = (0.0, 0.002, 0.004, 0.006, 0.008, 0.01, 0.015, 0.02)


def score(takes: list[tuple[float, float]], margin: float) -> tuple[float, int, int]:
    """Loss a decision, wrong takes and wrong passes when we take at ``ours >= margin``, each
    take given as (GNU Backgammon's pass minus take, ours) for the doubler."""
    lost, wrong_takes, wrong_passes = 0.0, 0, 0
    for theirs, ours in takes:
        take, should = ours >= margin, theirs >= 0
        if take != should:
            lost += abs(theirs)
            wrong_takes += take
            wrong_passes += not take
    return lost / max(len(takes), 1), wrong_takes, wrong_passes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", help="a file written by gnubg_cube.py --dump")
    parser.add_argument("--no-mean", action="store_true", help="skip the one/two-roll mean")
    args = parser.parse_args()
    text = Path(args.dump).read_text()
    rows: list[dict[str, Any]] = [json.loads(line) for line in text.splitlines() if line]
    rows = [r for r in rows if r["kind"] == "take"]
    games = {True: ludotheque.load("backgammon", "money"),
             False: ludotheque.load("backgammon", "match")}  # fmt: skip
    one = BackgammonAgent(1, Budget(iterations=2), cube_plies=1)
    for money, margins in ((True, MONEY_MARGINS), (False, MATCH_MARGINS)):
        subset = [r for r in rows if r["money"] == money]
        takes = [(r["gnubg"][2] - r["gnubg"][1], r["ours"][2] - r["ours"][1]) for r in subset]
        label = "money" if money else "match"
        for margin in margins:
            lost, wt, wp = score(takes, margin)
            print(f"{label}: {len(takes)} takes, margin {margin}: loses {lost:.5f} a decision, "
                  f"{wt} wrong takes, {wp} wrong passes")  # fmt: skip
        if args.no_mean:
            continue
        mean = []
        for r, (theirs, ours) in zip(subset, takes, strict=True):
            state = games[money].parse_position(r["position"])
            assert isinstance(state, BackgammonState) and state.stakes is not None
            cube = state.stakes.value if money else 1
            _, dt, dp = one.cube_equities(state)
            mean.append((theirs, (ours + (dp - dt) / cube) / 2))
        lost, wt, wp = score(mean, 0.0)
        print(f"{label}: mean of one and two rolls: loses {lost:.5f} a decision, {wt} wrong "
              f"takes, {wp} wrong passes")  # fmt: skip


if __name__ == "__main__":
    main()
