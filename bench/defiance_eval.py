"""A Defiance evaluation against the hand-set one, the same level on both sides.

The shipped weights are the hand-set ones with the progress features tuned by play
(``tools/tune_defiance.py``); this bench measures them, or a fit, against the hand-set ones.

    python bench/defiance_eval.py [--games 100] [--level hard] [--ruleset 8x8] [--seed 1]
    python bench/defiance_eval.py --fit DIR [--on-hand]  # a fit of tools/train_defiance.py

The evaluation measured is the shipped one, or with ``--fit`` the weights
``tools/train_defiance.py`` fits on the games of a folder (read as ``tanh(z / 2)``, the fit's
own chance). Game ``i`` gives the measured evaluation the Rebels when ``i`` is even and the
Imperium when it is odd; each agent has its own evaluation (weights, bias and calibration swapped
in before each of its moves: one process, one game at a time). Prints the measured one's wins,
draws (the turn limit and repetition counted) and losses by side, and its score with a 95%
interval. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import train_defiance as train  # type: ignore[import-not-found]

from ludotheque.ai.agent import tell
from ludotheque.ai.levels import make_agent
from ludotheque.core import Calibration
from ludotheque.games.defiance import evaluation
from ludotheque.games.defiance.rules import DefianceGame
from ludotheque.record import Record

HAND = (train.HAND_WEIGHTS, train.HAND_BIAS, Calibration(0.3207, -1.4878, horizon=119.5))
"""The hand-set evaluation: its weights and the calibration fitted to them (the one shipped
with them)."""
FITTED = (evaluation.WEIGHTS, evaluation.BIAS, evaluation.CALIBRATION)
"""The evaluation measured: the shipped one unless ``--fit`` fits another."""


def use(setting: tuple[tuple[float, ...], float, Calibration]) -> None:
    """Make ``setting`` the evaluation every Defiance search reads."""
    evaluation.WEIGHTS, evaluation.BIAS, DefianceGame.calibration = setting


def play(
    measured: tuple[tuple[float, ...], float, Calibration],
    index: int,
    level: str,
    ruleset: str,
    seed: int,
) -> tuple[str, str | None, str]:
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
        use(measured if side == fitted_side else HAND)
        record.play(agents[side].choose(record.state))
    use(HAND)
    outcome = record.outcome()
    assert outcome is not None
    return fitted_side, outcome.winner, outcome.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--ruleset", default="8x8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fit", type=Path, help="fit the weights on the games of this folder")
    parser.add_argument("--on-hand", action="store_true", help="with --fit: train_defiance's")
    parser.add_argument("--l2", type=float, default=1e-2)
    args = parser.parse_args()
    measured = FITTED
    if args.fit is not None:
        x, y, _, _ = train.samples([args.fit])
        if args.on_hand:
            weights, bias = train.fit_on_hand(x, y, args.l2)
        else:
            weights, bias = train.fit(x, y, args.l2, train.SIGNS)
        measured = (tuple(float(w) for w in weights), bias, Calibration(2.0, 0.0))
        print("measured:", ", ".join(f"{n} {w:.3f}" for n, w in zip(evaluation.FEATURES,
              measured[0], strict=True)), f"bias {bias:.3f}")  # fmt: skip
    start = time.perf_counter()
    tally: dict[str, list[int]] = {"rebels": [0, 0, 0], "imperium": [0, 0, 0]}
    reasons: dict[str, int] = {}
    for i in range(args.games):
        side, winner, reason = play(measured, i, args.level, args.ruleset, args.seed)
        tally[side][0 if winner == side else 1 if winner is None else 2] += 1
        reasons[reason] = reasons.get(reason, 0) + 1
        print(f"\r{i + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(t[0] for t in tally.values())
    draws = sum(t[1] for t in tally.values())
    score = (wins + draws / 2) / args.games
    spread = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / args.games)
    print(f"measured against the hand-set evaluation, {args.level} both, defiance {args.ruleset}, "
          f"{args.games} games, seed {args.seed}:")  # fmt: skip
    for side, (w, d, lost) in tally.items():
        print(f"  measured as {side}: {w} won, {d} drawn, {lost} lost")
    print(f"  score {score:.1%} [{score - spread:.1%}, {score + spread:.1%}]; endings {reasons}")
    print(f"  {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
