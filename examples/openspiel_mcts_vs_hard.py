"""OpenSpiel's MCTS against Ludothèque's own ``hard`` player, both playing through the OpenSpiel
adapter (``ludotheque.envs.openspiel``).

    python examples/openspiel_mcts_vs_hard.py --game general --games 2 --simulations 200

The two players change seats every game. Needs the ``rl`` extra (``pip install
'ludotheque[rl]'``).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import ludotheque
from ludotheque.envs.openspiel import AgentBot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="general", choices=sorted(ludotheque.available_games()))
    parser.add_argument("--ruleset", default=None, help="the game's default when left out")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=200, help="MCTS simulations a move")
    parser.add_argument("--max-turns", type=int, default=None, help="stop games early (a draw)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    params: dict[str, int | str] = {}
    if args.ruleset:
        params["ruleset"] = args.ruleset
    if args.max_turns:
        params["max_turns"] = args.max_turns
    game = pyspiel.load_game(f"ludotheque_{args.game}", params)
    sides = ludotheque.load(args.game, args.ruleset).sides
    rng = np.random.RandomState(args.seed)
    score = {"mcts": 0.0, "hard": 0.0}
    for i in range(args.games):
        searcher = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=args.simulations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            random_state=rng,
        )
        hard = AgentBot(game, "hard", seed=args.seed + i)
        names = ["mcts", "hard"] if i % 2 == 0 else ["hard", "mcts"]
        bots = [searcher, hard] if i % 2 == 0 else [hard, searcher]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        for name, value in zip(names, returns, strict=True):
            score[name] += (value + 1) / 2  # a win 1, a draw ½
        seats = ", ".join(f"{n} as {s}" for n, s in zip(names, sides, strict=True))
        print(f"game {i + 1} ({seats}): returns {returns}")
    print(f"score over {args.games} games: MCTS {score['mcts']:g}, hard {score['hard']:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
