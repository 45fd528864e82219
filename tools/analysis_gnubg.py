"""How often the analysis's best backgammon play is GNU Backgammon's 0-ply choice.

    python tools/analysis_gnubg.py --positions 500 --seed 1 [--strength quick normal]

Positions come from seeded games of the ``standard`` ruleset (the one GNU Backgammon plays)
between two ``medium`` players (a little noise gives varied positions); every decision with more
than one legal play is kept, until ``--positions``. For each, GNU Backgammon (the PyPI ``gnubg``
module, 0-ply, cubeless) evaluates the position after every legal play: its choice is the play
with the best cubeless equity (gammons counted), and, since our game is won or lost, also the
play with the best chance to win. Reported per strength: the agreement with each, and the
equity (by GNU Backgammon's own 0-ply) that our choice gives up on average. Reference engine
for a bench script only: never imported by the package.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import Analyst
from ludotheque.core import CHANCE, State

GAME = ludotheque.load("backgammon", "standard")
CUBE = gnubg.cube_info()
ZERO_PLY = gnubg.eval_context(0, 0, 1, 0, 0.0)


def gnubg_board(state: Any, on_roll: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """GNU Backgammon's board: (the other side, the side on roll), points 1-24 then the bar."""
    other = "black" if on_roll == "white" else "white"
    return tuple(state.board(other)[1:26]), tuple(state.board(on_roll)[1:26])


def gnubg_values(state: Any) -> list[tuple[Any, float, float]]:
    """Every legal play of ``state`` with GNU Backgammon's 0-ply cubeless equity and chance to
    win for the side that plays it."""
    side = str(state.to_move)
    other = "black" if side == "white" else "white"
    out = []
    for play in state.legal_moves():
        after = state.play(play)
        if after.outcome() is not None:
            out.append((play, 3.0, 1.0))
            continue
        p = gnubg.evaluate(gnubg_board(after, other), CUBE, ZERO_PLY)
        out.append((play, -float(p[5]), 1.0 - float(p[0])))
    return out


def sample_positions(count: int, seed: int) -> list[State]:
    """``count`` decision nodes with more than one legal play, from seeded medium games."""
    rng = random.Random(seed)
    positions: list[State] = []
    game_index = 0
    while len(positions) < count:
        agents = {s: make_agent("backgammon", "medium", seed * 1000 + 2 * game_index + i)
                  for i, s in enumerate(GAME.sides)}  # fmt: skip
        state: State = GAME.start()
        while state.outcome() is None and len(positions) < count:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            if len(state.legal_moves()) > 1:
                positions.append(state)
            state = state.play(agents[str(state.to_move)].choose(state))
        game_index += 1
    return positions[:count]


def agreement(positions: list[State], strength: str) -> dict[str, float]:
    """Agreement rates and GNU Backgammon's equity lost by our choice, at ``strength``."""
    analyst = Analyst(GAME, strength)
    same_equity = same_win = 0
    lost: list[float] = []
    start = time.process_time()
    for state in positions:
        ours = analyst.moves(state, top=1)[0].move
        judged = gnubg_values(state)
        best_equity = max(judged, key=lambda x: x[1])
        best_win = max(judged, key=lambda x: x[2])
        mine = next(x for x in judged if str(x[0]) == ours)
        same_equity += str(best_equity[0]) == ours
        same_win += str(best_win[0]) == ours
        lost.append(best_equity[1] - mine[1])
    n = len(positions)
    return {
        "positions": n,
        "agree_equity": same_equity / n,
        "agree_win": same_win / n,
        "mean_loss": statistics.fmean(lost),
        "seconds": time.process_time() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strength", nargs="+", default=["quick", "normal"])
    args = parser.parse_args()
    positions = sample_positions(args.positions, args.seed)
    print(f"{len(positions)} positions (standard, seed {args.seed}); GNU Backgammon 0-ply")
    columns = ("=equity choice", 15), ("=win choice", 12), ("gnubg eq. lost", 15), ("CPU s", 7)
    print(f"{'strength':<9} " + " ".join(f"{name:>{width}}" for name, width in columns))
    for strength in args.strength:
        r = agreement(positions, strength)
        print(
            f"{strength:<9} {r['agree_equity']:>15.1%} {r['agree_win']:>12.1%} "
            f"{r['mean_loss']:>15.4f} {r['seconds']:>7.1f}"
        )


if __name__ == "__main__":
    main()
