"""Where our backgammon network is furthest from GNU Backgammon 0-ply's own evaluation, by kind
of position (bench only; ``pip install -e '.[reference]'``).

    python bench/gnubg_gap.py --games 150 --seed 3
    python bench/gnubg_gap.py --games 150 --seed 3 --network bench/results/train/RUN/fit.npz

Self-play games of ``--player`` (``medium`` by default, standard rules); after every play, the
position with the other side to roll is evaluated by our shipped evaluation (the network, or the
bear-off databases where both sides bear off) and by GNU Backgammon 0-ply (``--gnubg-plies``: more
plies), and the mean absolute difference of the chances to win, to win a gammon and to lose one
is printed for each kind (``--network``: a second network judged on the same positions, the
shipped one still playing the games, and a second line for each kind):

- race: no contact left;
- contact: contact, and each side has fewer than twelve checkers home or borne off;
- home-heavy: contact, and a side has twelve or more checkers home or off (bear-ins against
  an anchor, crashed boards);
- bar: a checker on the bar (counted in the two above as well).

GNU Backgammon is a yardstick here, not the truth: the figures say where the two disagree most,
which is where a separate network or new inputs have the most to settle.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import network
from ludotheque.games.backgammon.network import chances_of_counts

CUBE = gnubg.cube_info()
KINDS = ("race", "contact", "home-heavy", "bar")


def _rearmost(board: list[int]) -> int:
    return max([p for p in range(1, 26) if board[p]] or [0])


def kinds_of(on_roll: list[int], other: list[int]) -> list[str]:
    """The kinds a position belongs to (boards of 26 counts, each in its own view: 0 off, 25
    the bar)."""
    if _rearmost(on_roll) + _rearmost(other) <= 25:
        return ["race"]
    heavy = any(sum(b[1:7]) + b[0] >= 12 for b in (on_roll, other))
    found = ["home-heavy" if heavy else "contact"]
    if on_roll[25] or other[25]:
        found.append("bar")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--player", default="medium")
    parser.add_argument("--network", help="a network file judged beside the shipped one")
    parser.add_argument("--gnubg-plies", type=int, default=0)
    args = parser.parse_args()
    judge = gnubg.eval_context(0, args.gnubg_plies, 1, 0, 0.0)
    nets: list[network.Network | None] = [None]
    if args.network:
        nets.append(network.Network.load(args.network))
    game = ludotheque.load("backgammon", "standard")
    rng = random.Random(args.seed)
    # per network: kind -> (win, gammon, lose a gammon) gaps
    gaps: list[dict[str, list[tuple[float, float, float]]]] = [{k: [] for k in KINDS} for _ in nets]
    for index in range(args.games):
        agent = make_agent("backgammon", args.player, seed=args.seed * 7919 + index)
        state = game.start()
        while state.outcome() is None:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            mover = str(state.to_move)
            state = state.play(agent.choose(state))
            if state.outcome() is not None:
                break
            roller = "black" if mover == "white" else "white"
            on_roll, other = list(state.board(roller)), list(state.board(mover))
            theirs = gnubg.evaluate((tuple(other[1:26]), tuple(on_roll[1:26])), CUBE, judge)
            for net, found in zip(nets, gaps, strict=True):
                network.use(net)
                ours = chances_of_counts(
                    np.array([on_roll], dtype=np.uint8), np.array([other], dtype=np.uint8)
                )[0]
                gap = (abs(ours[0] - theirs[0]), abs(ours[1] - theirs[1]),
                       abs(ours[3] - theirs[3]))  # fmt: skip
                for kind in kinds_of(on_roll, other):
                    found[kind].append(gap)
            network.use(None)  # the shipped network plays
    total = sum(len(gaps[0][k]) for k in KINDS if k != "bar")
    print(f"{total} positions of {args.games} games of {args.player} (seed {args.seed}); "
          f"mean |ours - GNU Backgammon {args.gnubg_plies}-ply|, in points of chance:")  # fmt: skip
    for kind in KINDS:
        for net, found in zip(nets, gaps, strict=True):
            rows = np.array(found[kind]) if found[kind] else np.zeros((1, 3))
            win, gammon, lose_gammon = (100 * rows.mean(axis=0)).tolist()
            name = "shipped" if net is None else Path(args.network).name
            print(f"  {kind:<11} {len(found[kind]):6d} positions  {name:<12} win {win:5.2f}  "
                  f"gammon {gammon:5.2f}  lose a gammon {lose_gammon:5.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
