"""Calibrate the analysis's winning chances: how the game's evaluation maps to the expected score.

The General's and Defiance's evaluations are heuristics in [-1, 1], not probabilities. The
analysis (and the computer players, to weigh a draw) read a value ``v`` for the first side (the
rebels in both games) as its expected score (a draw counts one half)

    p = 1 / (1 + exp(-(a * atanh(v) + b)))

which, for the other side, is ``1 - p`` (the evaluations are zero-sum). ``a = 2, b = 0`` is
``(1 + v) / 2``. A game with a turn limit (Defiance: 400 turns, then a draw) also has a
``horizon``: with ``m`` moves left, ``1/2 + (p - 1/2) * (1 - exp(-m / horizon))``, a lead worth
less the less time there is to use it. This tool plays seeded games between computer levels,
keeps their records (one JSON file each, so that a stopped run resumes where it was), and fits
the curve by maximum likelihood on every position of the finished games:

    nice -n 19 python tools/calibrate_analysis.py play --game general --games 300 --dir DIR
    python tools/calibrate_analysis.py fit --game general --dir DIR

``fit`` prints the curve (``core.Calibration``, for the game's evaluation module), the log loss
of the raw reading, of the curve and of a constant chance that ignores the position (the mean
score), on every position and held out (fitted on the games of even index, scored on the odd
ones, then the other way round), and a table of predicted against observed scores.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import numpy.typing as npt
from _records import finished, save, score

from ludotheque.ai.agent import tell
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.record import Record

Array = npt.NDArray[np.float64]

PAIRS = {
    "general": [("hard", "hard"), ("hard", "medium"), ("medium", "hard"), ("medium", "medium")],
    "defiance": [("medium", "medium"), ("hard", "medium"), ("medium", "hard"), ("easy", "medium")],
}
RULESETS = {"general": None, "defiance": "8x8"}
MAX_MOVES = 600
NO_LIMIT = 1e9  # the moves left in a game without a turn limit


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
        for agent in agents.values():
            tell(agent, record)  # the repetitions and the moves against the turn limit
        while record.outcome() is None and len(record.moves) < MAX_MOVES:
            if record.state.to_move == CHANCE:
                record.roll()
            else:
                record.play(agents[str(record.state.to_move)].choose(record.state))
        record.players = {sides[0]: first, sides[1]: second}
        save(path, record)
        outcome = record.outcome()
        print(f"{path.name}: {first} vs {second}, {len(record.moves)} moves, {outcome}", flush=True)


def samples(folder: Path) -> tuple[Array, Array, Array, Array]:
    """(atanh of the evaluation for the first side, its final score, the moves left before the
    turn limit, the game's number) of every decision position of every finished game in
    ``folder``."""
    xs: list[float] = []
    ys: list[float] = []
    left: list[float] = []
    groups: list[int] = []
    number = 0
    for _path, record, outcome in finished(folder):
        g = record.game_object
        first = g.sides[0]
        first_score = score(outcome, first)
        moves = 0
        for state in record.states:
            if state.to_move is None:
                continue
            if state.to_move != CHANCE:
                v = max(-0.999, min(0.999, g.evaluate(state, first)))
                xs.append(math.atanh(v))
                ys.append(first_score)
                limit = record.turn_limit
                left.append(NO_LIMIT if limit is None else float(limit - moves))
                groups.append(number)
                moves += 1
        number += 1
    return np.array(xs), np.array(ys), np.array(left), np.array(groups)


def chances(x: Array, left: Array, a: float, b: float, horizon: float | None) -> Array:
    """The curve's expected score for the first side."""
    p = 1 / (1 + np.exp(-np.clip(a * x + b, -50, 50)))
    if horizon is not None:
        p = 0.5 + (p - 0.5) * (1 - np.exp(-np.maximum(left, 0) / horizon))
    return np.asarray(p)


def log_loss(p: Array, y: Array) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_curve(x: Array, y: Array) -> tuple[float, float]:
    """Maximum-likelihood ``a, b`` of ``p = sigmoid(a x + b)`` for soft targets ``y`` (Newton's
    method, each step halved until the loss falls)."""
    a, b = 1.0, 0.0
    design = np.stack([x, np.ones_like(x)], axis=1)
    loss = log_loss(chances(x, x, a, b, None), y)
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(a * x + b, -50, 50)))
        gradient = design.T @ (y - p)
        hessian = -(design.T * (p * (1 - p))) @ design - 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        scale = 1.0
        while scale > 1e-6:
            na, nb = a - scale * float(step[0]), b - scale * float(step[1])
            new = log_loss(chances(x, x, na, nb, None), y)
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


def fit_with_horizon(x: Array, y: Array, left: Array, horizon: float) -> tuple[float, float]:
    """``a, b`` for a fixed ``horizon``: Newton's method on numerical derivatives (the
    horizon's factor leaves the loss smooth in both), each step halved until the loss falls."""
    theta = np.array(fit_curve(x, y))

    def loss(t: Array) -> float:
        return log_loss(chances(x, left, float(t[0]), float(t[1]), horizon), y)

    h = 1e-4
    current = loss(theta)
    for _ in range(60):
        grad = np.zeros(2)
        hess = np.zeros((2, 2))
        for i in range(2):
            e = np.zeros(2)
            e[i] = h
            grad[i] = (loss(theta + e) - loss(theta - e)) / (2 * h)
            for j in range(2):
                f = np.zeros(2)
                f[j] = h
                hess[i, j] = (
                    loss(theta + e + f) - loss(theta + e - f) - loss(theta - e + f)
                    + loss(theta - e - f)
                ) / (4 * h * h)  # fmt: skip
        try:
            step = np.linalg.solve(hess + 1e-9 * np.eye(2), grad)
        except np.linalg.LinAlgError:
            break
        scale = 1.0
        while scale > 1e-6:
            new_theta = theta - scale * step
            new = loss(new_theta)
            if new <= current:
                break
            scale /= 2
        else:
            break
        done = current - new < 1e-12
        theta, current = new_theta, new
        if done:
            break
    return float(theta[0]), float(theta[1])


def fit(x: Array, y: Array, left: Array) -> tuple[float, float, float | None]:
    """The maximum-likelihood curve: ``a, b`` and, where the games have a turn limit, the
    horizon (searched over a grid of horizons, then refined by golden sections of its log)."""
    a, b = fit_curve(x, y)
    if not (left < NO_LIMIT).any():
        return a, b, None

    def loss_at(log_h: float) -> tuple[float, float, float]:
        ca, cb = fit_with_horizon(x, y, left, math.exp(log_h))
        return log_loss(chances(x, left, ca, cb, math.exp(log_h)), y), ca, cb

    grid = [math.log(h) for h in (5, 10, 20, 40, 80, 160, 320, 640, 1280)]
    scored = [loss_at(g)[0] for g in grid]
    k = int(np.argmin(scored))
    low, high = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(20):
        c = high - ratio * (high - low)
        d = low + ratio * (high - low)
        if loss_at(c)[0] < loss_at(d)[0]:
            high = d
        else:
            low = c
    best = (low + high) / 2
    _, a, b = loss_at(best)
    return a, b, math.exp(best)


def report(game: str, folder: Path) -> None:
    x, y, left, groups = samples(folder)
    if len(x) == 0:
        print("no finished games")
        return
    a, b, horizon = fit(x, y, left)
    games = int(groups.max()) + 1
    print(f"{game}: {games} games, {len(x)} positions; mean score of the first side {y.mean():.3f}")
    raw = log_loss(chances(x, left, 2.0, 0.0, None), y)
    fitted = log_loss(chances(x, left, a, b, horizon), y)
    constant = log_loss(np.full(len(y), y.mean()), y)
    print(f"log loss: (1 + v) / 2 {raw:.4f}; fitted {fitted:.4f}; a constant {constant:.4f}")
    held, flat = [], []
    for part in (0, 1):
        train, test = groups % 2 == part, groups % 2 != part
        pa, pb, ph = fit(x[train], y[train], left[train])
        held.append(log_loss(chances(x[test], left[test], pa, pb, ph), y[test]))
        flat.append(log_loss(np.full(int(test.sum()), y[train].mean()), y[test]))
        print(f"  fitted on the {'even' if part == 0 else 'odd'} games: a {pa:.4f}, b {pb:.4f}, "
              f"horizon {ph if ph is None else round(ph, 1)}")  # fmt: skip
    print(f"held out (both ways): fitted {held[0]:.4f} and {held[1]:.4f} (mean "
          f"{np.mean(held):.4f}); a constant {flat[0]:.4f} and {flat[1]:.4f} (mean "
          f"{np.mean(flat):.4f})")  # fmt: skip
    horizon_text = "" if horizon is None else f", horizon={horizon:.1f}"
    print(f"CALIBRATION = Calibration({a:.4f}, {b:.4f}{horizon_text})")
    p = chances(x, left, a, b, horizon)
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
