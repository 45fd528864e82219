"""OpenSpiel's MCTS against Ludothèque's own ``hard`` player, both playing through the OpenSpiel
adapter (``ludotheque.envs.openspiel``).

    python examples/openspiel_mcts_vs_hard.py --game general --games 2 --simulations 200

The two players change seats every game. Games whose returns are 1, 0 and -1 (a win, a draw or a
game stopped at the turn limit, a loss) are scored as results are (a win 1, a draw ½); in
backgammon's ``match`` ruleset each game is a whole match, scored the same way. Backgammon's
``money`` ruleset returns the points won (the cube, gammons and backgammons), so it is reported
in points: each player's total and points a game, beside the games won. Needs the ``rl`` extra
(``pip install 'ludotheque[rl]'``).
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
    rules = ludotheque.load(args.game, args.ruleset)
    sides = rules.sides
    rng = np.random.RandomState(args.seed)
    # Returns beyond ±1 are points won (money play), which a win-draw-loss score cannot read.
    in_points = game.max_utility() > 1
    unit = "matches" if getattr(rules, "stakes_kind", None) == "match" else "games"
    score = {"mcts": 0.0, "hard": 0.0}  # a win 1, a draw ½ (or, in points, the points won)
    wins = {"mcts": 0, "hard": 0}
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
            score[name] += value if in_points else (value + 1) / 2
            wins[name] += value > 0
        seats = ", ".join(f"{n} as {s}" for n, s in zip(names, sides, strict=True))
        print(f"game {i + 1} ({seats}): returns {returns}")
    n = args.games
    if in_points:
        print(
            f"points over {n} {unit}: MCTS {score['mcts']:+g} ({score['mcts'] / n:+.2f} a game), "
            f"hard {score['hard']:+g} ({score['hard'] / n:+.2f} a game); "
            f"won: MCTS {wins['mcts']}, hard {wins['hard']}"
        )
    else:
        print(f"score over {n} {unit}: MCTS {score['mcts']:g}, hard {score['hard']:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
