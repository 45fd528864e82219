"""Tune Defiance's evaluation by playing: SPSA on the weights, the objective being games won.

``tools/train_defiance.py`` fits the weights to game results, and its fit predicts results
better yet plays worse: it learns who is winning, not which turn makes progress. This tool
learns from play instead (simultaneous perturbation stochastic approximation, the method chess
engines tune their evaluations with): each iteration draws a random sign for every weight,
plays two games between the weights nudged up (``θ + cΔ``) and nudged down (``θ − cΔ``), one
with each side, and moves ``θ`` towards whichever won:

    θ ← θ + lr · c · Δ · (score of θ + cΔ − score of θ − cΔ) / 2

The games are between one-ply players (``GreedyAgent``, a little temperature so that no two
games are the same), fast enough for thousands of games. With ``--rebels`` only the progress
features move, and each side of the perturbation plays the Rebels against the hand-set Imperium
on the same seed: the Rebels' results alone steer the weights that should bring them closer to
their four sectors (the shipped weights come from such a run). The progress features keep their
signs (a weight that would cross zero is held at zero), so the evaluation never falls when the
Rebels come closer to a sector; the bias is not tuned (the calibration reads the evaluation as a
chance afterwards). The tuned weights are the mean of ``θ`` over the second half of the
iterations (``tuned``); ``bench/defiance_eval.py`` then measures them where they matter, in
``hard``'s search, against the hand-set ones, and ``ludotheque arena`` against the levels.

    nice -n 19 python tools/tune_defiance.py spsa --rebels --dir DIR --iterations 300 \\
        --lr 0.3 --jobs 2

It resumes from ``DIR/spsa.json`` (θ and the iteration, written after each one);
``DIR/spsa.log`` keeps every iteration. The shipped run's files are in
``bench/results/defiance-spsa/`` (``rebels-*``; ``all-*``: every weight, both sides tuned, which
made a stronger Imperium and weaker Rebels and was not shipped).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _records import score
from train_defiance import HAND_WEIGHTS, PROGRESS, SIGNS

from ludotheque.ai.agent import Agent, tell
from ludotheque.ai.greedy import GreedyAgent
from ludotheque.games.defiance import evaluation
from ludotheque.record import Record

Weights = tuple[float, ...]

SPREAD = {
    "progress": 1.0, "weakest": 0.3, "controlled": 1.0, "need": 3.0, "need_max": 1.0,
    "need_second": 1.0, "rebels_at_risk": 2.0, "imperials_at_risk": 2.0, "material": 5.0,
    "freedom": 1.5, "distance": 2.0, "close": 0.5, "threat": 0.3, "cornered": 0.3,
}  # fmt: skip
"""A feature's usual spread over positions: a perturbation moves every feature's share of the
evaluation by about the same amount (``C / spread``)."""
C = 0.3
TEMPERATURE = 0.02


def perturbation(k: int) -> list[float]:
    return [C / SPREAD[name] for name in evaluation.FEATURES][:k]


def held(theta: Sequence[float]) -> Weights:
    """``theta`` with the progress features' weights kept on their side of zero."""
    return tuple(
        0.0 if sign and value * sign < 0 else value
        for value, sign in zip(theta, SIGNS.tolist(), strict=True)
    )


def play_game(
    ruleset: str, weights: dict[str, Weights], agents: dict[str, Agent], seed: str
) -> Record:
    """One game in which each side's agent evaluates with its own weights."""
    record = Record.new("defiance", ruleset, seed=seed)
    for agent in agents.values():
        tell(agent, record)
    while record.outcome() is None:
        side = str(record.state.to_move)
        evaluation.WEIGHTS = weights[side]
        record.play(agents[side].choose(record.state))
    evaluation.WEIGHTS = HAND_WEIGHTS
    return record


def _spsa_game(task: tuple[str, Weights, Weights, int]) -> float:
    """The Rebels' score of one greedy game (rebels' weights, imperium's weights, seed)."""
    ruleset, rebels, imperium, seed = task
    agents: dict[str, Agent] = {
        "rebels": GreedyAgent(2 * seed, temperature=TEMPERATURE),
        "imperium": GreedyAgent(2 * seed + 1, temperature=TEMPERATURE),
    }
    record = play_game(ruleset, {"rebels": rebels, "imperium": imperium}, agents, f"spsa-{seed}")
    outcome = record.outcome()
    assert outcome is not None
    return score(outcome, "rebels")


def spsa(folder: Path, iterations: int, ruleset: str, lr: float, jobs: int,
         rebels: bool = False) -> None:  # fmt: skip
    """SPSA on every weight, ``θ + cΔ`` against ``θ − cΔ`` (``rebels``: on the progress
    features only, each side of the perturbation playing the Rebels against the hand-set
    Imperium on the same seed)."""
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / "spsa.json"
    if state_path.exists():
        state = json.loads(state_path.read_text())
    else:
        state = {"theta": list(HAND_WEIGHTS), "iteration": 0, "ruleset": ruleset, "lr": lr}
    theta = list(state["theta"])
    c = perturbation(len(theta))
    if rebels:  # only the progress features move
        c = [
            ck if name in PROGRESS else 0.0 for ck, name in zip(c, evaluation.FEATURES, strict=True)
        ]
    started = time.monotonic()
    with Pool(jobs) as pool, (folder / "spsa.log").open("a") as log:
        while state["iteration"] < iterations:
            i = state["iteration"]
            rng = random.Random(i)
            delta = [rng.choice((-1.0, 1.0)) for _ in theta]
            plus = held([t + ck * d for t, ck, d in zip(theta, c, delta, strict=True)])
            minus = held([t - ck * d for t, ck, d in zip(theta, c, delta, strict=True)])
            # the same seed for both games: only the sides change
            if rebels:
                # each side of the perturbation as the Rebels, against the hand-set Imperium
                tasks = [(ruleset, plus, HAND_WEIGHTS, i), (ruleset, minus, HAND_WEIGHTS, i)]
                a, b = pool.map(_spsa_game, tasks)
                result = a - b  # the same Imperium, the same seed: θ+'s score less θ-'s
            else:
                a, b = pool.map(_spsa_game, [(ruleset, plus, minus, i), (ruleset, minus, plus, i)])
                result = (a + (1.0 - b)) - 1.0  # θ+'s score over the two games less θ-'s
            rate = lr / (1 + i / 200) ** 0.6
            theta = list(held([t + rate * ck * d * result
                               for t, ck, d in zip(theta, c, delta, strict=True)]))  # fmt: skip
            state["iteration"] = i + 1
            state["theta"] = theta
            tmp = state_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(state, indent=1))
            tmp.replace(state_path)
            log.write(json.dumps({"i": i, "plus_as_rebels": a, "minus_as_rebels": b,
                                  "result": result, "theta": [round(t, 4) for t in theta]})
                      + "\n")  # fmt: skip
            log.flush()
            if (i + 1) % 10 == 0:
                print(f"{i + 1}/{iterations} {time.monotonic() - started:.0f} s "
                      + " ".join(f"{t:.3f}" for t in theta), flush=True)  # fmt: skip


def tuned(folder: Path) -> Weights:
    """The tuned weights: the mean of ``θ`` over the second half of the iterations (each step
    is noisy, one pair of games; averaging the iterates keeps the drift and cancels the noise)."""
    lines = (folder / "spsa.log").read_text().splitlines()
    thetas = [json.loads(line)["theta"] for line in lines if line.strip()]
    if not thetas:
        return HAND_WEIGHTS
    half = thetas[len(thetas) // 2 :]
    return held([sum(column) / len(half) for column in zip(*half, strict=True)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("spsa",))
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--ruleset", default="8x8")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--rebels", action="store_true",
        help="spsa: tune the progress features only, by the Rebels' results against the "
        "hand-set Imperium",
    )  # fmt: skip
    args = parser.parse_args()
    spsa(args.dir, args.iterations, args.ruleset, args.lr, args.jobs, args.rebels)


if __name__ == "__main__":
    main()
