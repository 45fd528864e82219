"""Defiance's fitted evaluation against the hand-set one it replaced, the same level on both sides.

    python bench/defiance_eval.py [--games 100] [--level hard] [--ruleset 8x8] [--seed 1]

Game ``i`` gives the fitted evaluation the Rebels when ``i`` is even and the Imperium when it is
odd; each agent has its own evaluation (weights, bias and calibration swapped in before each of
its moves: one process, one game at a time). Prints the fitted evaluation's wins, draws (the turn
limit and repetition counted) and losses by side, and its score with a 95% interval. Never run
as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludotheque.ai.agent import tell
from ludotheque.ai.levels import make_agent
from ludotheque.core import Calibration
from ludotheque.games.defiance import evaluation
from ludotheque.games.defiance.rules import DefianceGame
from ludotheque.record import Record

HAND = (
    (2.2, 2.6, 0.6, 0.0, 0.0, 0.0, -0.24, 0.24, 0.04, 0.14, 0.18, 0.0, -3.6, -2.88),
    -3.0,
    Calibration(0.3169, -1.1044),
)
"""The evaluation before the fit: the hand-set weights (``z`` twice the old score less its
offset) and the calibration fitted to them."""
FITTED = (evaluation.WEIGHTS, evaluation.BIAS, evaluation.CALIBRATION)


def use(setting: tuple[tuple[float, ...], float, Calibration]) -> None:
    """Make ``setting`` the evaluation every Defiance search reads."""
    evaluation.WEIGHTS, evaluation.BIAS, DefianceGame.calibration = setting


def play(index: int, level: str, ruleset: str, seed: int) -> tuple[str, str | None, str]:
    """Game ``index``: (the fitted evaluation's side, the winner, the reason)."""
    record = Record.new("defiance", ruleset, seed=f"defiance-eval-{seed}-{index}")
    fitted_side = "rebels" if index % 2 == 0 else "imperium"
    agents = {
        "rebels": make_agent("defiance", level, seed=seed * 1000 + 2 * index),
        "imperium": make_agent("defiance", level, seed=seed * 1000 + 2 * index + 1),
    }
    for agent in agents.values():
        tell(agent, record)
    while record.outcome() is None:
        side = str(record.state.to_move)
        use(FITTED if side == fitted_side else HAND)
        record.play(agents[side].choose(record.state))
    use(FITTED)
    outcome = record.outcome()
    assert outcome is not None
    return fitted_side, outcome.winner, outcome.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--ruleset", default="8x8")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    tally: dict[str, list[int]] = {"rebels": [0, 0, 0], "imperium": [0, 0, 0]}
    reasons: dict[str, int] = {}
    for i in range(args.games):
        side, winner, reason = play(i, args.level, args.ruleset, args.seed)
        tally[side][0 if winner == side else 1 if winner is None else 2] += 1
        reasons[reason] = reasons.get(reason, 0) + 1
        print(f"\r{i + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(t[0] for t in tally.values())
    draws = sum(t[1] for t in tally.values())
    score = (wins + draws / 2) / args.games
    spread = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / args.games)
    print(f"fitted against hand-set evaluation, {args.level} both, defiance {args.ruleset}, "
          f"{args.games} games, seed {args.seed}:")  # fmt: skip
    for side, (w, d, lost) in tally.items():
        print(f"  fitted as {side}: {w} won, {d} drawn, {lost} lost")
    print(f"  score {score:.1%} [{score - spread:.1%}, {score + spread:.1%}]; endings {reasons}")
    print(f"  {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
