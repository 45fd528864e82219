"""A PettingZoo loop over one of our games: random legal actions, the board drawn at the end.

    python examples/pettingzoo_random.py --game backgammon --ruleset standard --seed 1

Needs the ``rl`` extra (``pip install 'ludotheque[rl]'``).
"""

from __future__ import annotations

import argparse

import ludotheque
from ludotheque.envs.pettingzoo import env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--game", default="backgammon", choices=sorted(ludotheque.available_games())
    )
    parser.add_argument("--ruleset", default=None, help="the game's default when left out")
    parser.add_argument("--max-turns", type=int, default=None, help="stop the game early")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    e = env(args.game, ruleset=args.ruleset, render_mode="ansi", max_turns=args.max_turns)
    e.reset(seed=args.seed)
    for agent in e.possible_agents:
        e.action_space(agent).seed(args.seed)
    steps, result = 0, {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
            result[agent] = reward
        else:
            action = e.action_space(agent).sample(observation["action_mask"])
            steps += 1
        e.step(action)
    print(e.render())
    print(f"{steps} steps; rewards {result}; {info['reason']}, winner {info['winner']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
