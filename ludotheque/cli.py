"""The ``ludotheque`` command: ``play`` a game in the terminal (more commands join it later)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import available_games, load
from .ai import Agent
from .core import InvalidPosition, UnknownGame
from .record import Record

SIDE_OPTIONS = ("rebels", "general", "white", "black", "imperium")
PLAYER_KINDS = ("human", "random")


def make_player(kind: str, seed: int | None) -> Agent | None:
    """``None`` for a human at the keyboard, else the named computer agent."""
    if kind == "human":
        return None
    from .ai import RandomAgent

    return RandomAgent(seed)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ludotheque", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", choices=sorted(available_games()), help="which game")
    play.add_argument("--ruleset", help="the ruleset (default: the game's default)")
    play.add_argument("--seed", type=int, help="seed for the dice and the computer players")
    play.add_argument("--position", help="start from this position string")
    for side in SIDE_OPTIONS:
        play.add_argument(
            f"--{side}", choices=PLAYER_KINDS, help=f"who plays the {side} (human or computer)"
        )
    return parser


def _play(args: argparse.Namespace) -> int:
    try:
        game = load(args.game, args.ruleset)
    except UnknownGame as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    chosen = {side: getattr(args, side) for side in SIDE_OPTIONS if getattr(args, side)}
    wrong = sorted(set(chosen) - set(game.sides))
    if wrong:
        print(
            f"ludotheque: {game.name} has no side {', '.join(wrong)}; "
            f"its sides are {', '.join(game.sides)}",
            file=sys.stderr,
        )
        return 2
    if not chosen:  # a newcomer plays the first side against the computer
        chosen = {game.sides[0]: "human", game.sides[1]: "random"}
    players = {}
    for i, side in enumerate(game.sides):
        seed = None if args.seed is None else args.seed * 10 + i
        players[side] = make_player(chosen.get(side, "human"), seed)
    dice_seed = None if args.seed is None else f"terminal-{args.seed}"
    try:
        record = Record.new(
            game,
            start=args.position,
            players={s: chosen.get(s, "human") for s in game.sides},
            seed=dice_seed,
        )
    except InvalidPosition as exc:
        print(f"ludotheque: invalid position: {exc}", file=sys.stderr)
        return 2
    from .terminal.play import TerminalGame

    return TerminalGame(record, players).run()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = _parser().parse_args(argv)
    if args.command == "play":
        return _play(args)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
