"""Calibrate the analysis's winning chances: how the game's evaluation maps to the expected score.

The General's and Defiance's evaluations are heuristics in [-1, 1], not probabilities. The
analysis reads a value ``v`` for the first side (the rebels in both games) as the winning chance
(expected score: a draw counts one half)

    p = 1 / (1 + exp(-(a * atanh(v) + b)))

which, for the other side, is ``1 - p`` (the evaluations are zero-sum). ``a = 2, b = 0`` is
``(1 + v) / 2``. This tool plays seeded games between computer levels, keeps their records (one
JSON file each, so that a stopped run resumes where it was), and fits ``a`` and ``b`` by maximum
likelihood on every position of the finished games:

    nice -n 19 python tools/calibrate_analysis.py play --game general --games 300 --dir DIR
    python tools/calibrate_analysis.py fit --game general --dir DIR

``fit`` prints the constants for ``ludotheque/analysis/calibration.py``, the log loss before and
after, and a table of predicted against observed scores.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.record import InvalidRecord, Record

PAIRS = {
    "general": [("hard", "hard"), ("hard", "medium"), ("medium", "hard"), ("medium", "medium")],
    "defiance": [("medium", "medium"), ("hard", "medium"), ("medium", "hard"), ("easy", "medium")],
}
RULESETS = {"general": None, "defiance": "8x8"}
MAX_MOVES = 600


def play(game: str, games: int, folder: Path) -> None:
    """Play ``games`` seeded games (skipping those already saved in ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    pairs = PAIRS[game]
    for i in range(games):
        path = folder / f"{i:05d}.json"
        if path.exists():
            continue
        first, second = pairs[i % len(pairs)]
        record = Record.new(game, RULESETS[game], seed=f"calibrate-{i}")
        sides = record.game_object.sides
        agents = {
            sides[0]: make_agent(game, first, 2 * i),
            sides[1]: make_agent(game, second, 2 * i + 1),
        }
        while record.outcome() is None and len(record.moves) < MAX_MOVES:
            if record.state.to_move == CHANCE:
                record.roll()
            else:
                record.play(agents[str(record.state.to_move)].choose(record.state))
        record.players = {sides[0]: first, sides[1]: second}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(record.to_json(), encoding="utf-8")
        tmp.replace(path)
        outcome = record.outcome()
        print(f"{path.name}: {first} vs {second}, {len(record.moves)} moves, {outcome}", flush=True)


def samples(game: str, folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """(atanh of the evaluation for the first side, its final score) of every decision
    position of every finished game in ``folder``."""
    xs: list[float] = []
    ys: list[float] = []
    for path in sorted(folder.glob("*.json")):
        try:
            record = Record.from_json(path.read_text(encoding="utf-8"))
        except InvalidRecord:
            continue
        outcome = record.outcome()
        if outcome is None:
            continue
        g = record.game_object
        first = g.sides[0]
        score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == first else 0.0
        for state in record.states:
            if state.to_move in (None, CHANCE):
                continue
            v = max(-0.999, min(0.999, g.evaluate(state, first)))
            xs.append(math.atanh(v))
            ys.append(score)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood ``a, b`` of ``p = sigmoid(a x + b)`` for soft targets ``y`` (Newton's
    method, each step halved until the loss falls)."""
    a, b = 1.0, 0.0
    design = np.stack([x, np.ones_like(x)], axis=1)
    loss = log_loss(x, y, a, b)
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(a * x + b, -50, 50)))
        gradient = design.T @ (y - p)
        hessian = -(design.T * (p * (1 - p))) @ design - 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        scale = 1.0
        while scale > 1e-6:
            na, nb = a - scale * float(step[0]), b - scale * float(step[1])
            new = log_loss(x, y, na, nb)
            if new <= loss:
                break
            scale /= 2
        else:
            break
        done = loss - new < 1e-12
        a, b, loss = na, nb, new
        if done:
            break
    return a, b


def log_loss(x: np.ndarray, y: np.ndarray, a: float, b: float) -> float:
    p = np.clip(1 / (1 + np.exp(-np.clip(a * x + b, -50, 50))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def report(game: str, folder: Path) -> None:
    x, y = samples(game, folder)
    if len(x) == 0:
        print("no finished games")
        return
    a, b = fit(x, y)
    print(f"{game}: {len(x)} positions; mean score of the first side {y.mean():.3f}")
    print(
        f"log loss: (1 + v) / 2 {log_loss(x, y, 2.0, 0.0):.4f}; fitted {log_loss(x, y, a, b):.4f}"
    )
    print(f'CALIBRATION["{game}"] = ({a:.4f}, {b:.4f})')
    p = 1 / (1 + np.exp(-np.clip(a * x + b, -50, 50)))
    print("predicted   observed   positions")
    for low in np.arange(0.0, 1.0, 0.1):
        mask = (p >= low) & (p < low + 0.1)
        if mask.any():
            print(f"{low:.1f}-{low + 0.1:.1f}    {y[mask].mean():8.3f}   {int(mask.sum()):9d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("play", "fit"))
    parser.add_argument("--game", choices=sorted(PAIRS), required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--dir", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "play":
        play(args.game, args.games, args.dir)
    report(args.game, args.dir)


if __name__ == "__main__":
    main()
