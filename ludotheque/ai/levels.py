"""Named computer players: the algorithms by name, and per game the levels ``easy``,
``medium`` and ``hard`` (each an algorithm with its budget); the General, solved, has a fourth,
``perfect`` (``levels_of``).

``hard`` answers within two seconds a move on a two-core machine; ``easy`` plays the moves a
one-move-ahead player likes, with the misjudgements of such a player (a greedy choice with
noise), never random moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import available_games
from .agent import Agent, Budget, RandomAgent
from .alphabeta import AlphaBetaAgent
from .expectimax import ExpectimaxAgent
from .greedy import GreedyAgent
from .mcts import MCTSAgent

LEVELS = ("easy", "medium", "hard")
"""The levels of every game."""
PERFECT = "perfect"
SOLVED = frozenset({"general"})
"""The games with a ``perfect`` level: those whose solution the package ships."""
ALL_LEVELS = (*LEVELS, PERFECT)
"""Every level of some game."""
ALGORITHMS = ("random", "greedy", "mcts", "alphabeta", "expectimax", "perfect")


def levels_of(game: str) -> tuple[str, ...]:
    """The levels of ``game``: ``LEVELS``, and ``perfect`` for a solved game."""
    return ALL_LEVELS if game in SOLVED else LEVELS


@dataclass(frozen=True)
class Level:
    """A level: how to build its agent, and a line for people."""

    make: Callable[[int | None], Agent]
    description: str


def _general() -> dict[str, Level]:
    return {
        "easy": Level(
            lambda s: GreedyAgent(s, temperature=0.2, name="easy"),
            "one move ahead, and not always the best of those",
        ),
        "medium": Level(
            # Rebels who search two plies every move leave a general no capture at all: the
            # general could then never win against medium, whoever played him. One move in five
            # is a one-ply misjudgement (easy's kind), which a deeper general can punish; and the
            # rebels play on instead of repeating (a draw is worth the worst evaluation to them).
            lambda s: AlphaBetaAgent(
                s, Budget(iterations=2), contempt={"rebels": 1.0}, slip=0.2, name="medium"
            ),
            "alpha-beta, two plies, one move in five misjudged; the rebels refusing draws",
        ),
        "hard": Level(
            # Four plies take ~0.04 s a move (measured with bench/think.py: a median of about
            # 0.05 s for the rebels, 0.02 s for the general); the clock only guards slow
            # machines. A fixed depth plays the same moves for the same seed on any machine (a
            # 1.5-second clock reached 4 plies for the rebels, 5 for the general, and scored
            # about the same against medium in trial matches).
            # The rebels are the stronger side under our rules: as the rebels, hard refuses
            # repetition draws; as the general it values a draw at zero, as medium does.
            lambda s: AlphaBetaAgent(
                s, Budget(iterations=4, seconds=1.5), contempt={"rebels": 0.1}, name="hard"
            ),
            "alpha-beta, four plies; as the rebels, playing on rather than repeating",
        ),
    }


def _backgammon() -> dict[str, Level]:
    # The backgammon player (``ai.backgammon``) plays every ruleset: the cubeless ones by the
    # chance to win, money and match play with the cube by cubeful equity and match equity.
    from .backgammon import BackgammonAgent

    return {
        "easy": Level(
            lambda s: BackgammonAgent(
                s, Budget(iterations=1), temperature=0.09, cube_noise=0.06, name="easy"
            ),
            "one play ahead, often not the best of those; rough cube decisions",
        ),
        # A little noise keeps the levels apart: in backgammon the dice decide so much that the
        # exact one-ply player loses only ~56% to the two-ply search in trial matches.
        "medium": Level(
            lambda s: BackgammonAgent(
                s, Budget(iterations=1), temperature=0.04, cube_noise=0.02, name="medium"
            ),
            "one play ahead, now and then not the best of those; fair cube decisions",
        ),
        "hard": Level(
            # Three plies on the five best two-ply plays within 0.16 won 531 of 1,000 cubeless
            # games against GNU Backgammon 0-ply (two plies alone: 518); with the shipped
            # network (a middle layer of 64 units), 534 of 1,000 against GNU Backgammon 1-ply
            # on dice named before the match. See the README.
            lambda s: BackgammonAgent(
                s,
                Budget(iterations=3, seconds=1.6),
                beam=10,
                deep=5,
                margin=0.16,
                cube_plies=2,
                name="hard",
            ),
            "two plies through every roll on the ten best candidates, three on the five best "
            "of those when they are close; cube decisions two rolls ahead",
        ),
    }


def _defiance() -> dict[str, Level]:
    return {
        "easy": Level(
            lambda s: GreedyAgent(s, temperature=0.05, name="easy"),
            "one turn ahead, and not always the best of those",
        ),
        "medium": Level(
            # Always the best turn one ply ahead beat easy 96% of the time, but hard's two plies
            # on three turns a side could not punish it (49% of wins over 104 games). Three turns
            # in ten are drawn as easy draws all of its turns.
            lambda s: GreedyAgent(s, slip=0.3, slip_temperature=0.05, name="medium"),
            "the best turn one ply ahead, three turns in ten misjudged",
        ),
        "hard": Level(
            lambda s: AlphaBetaAgent(
                s, Budget(iterations=2, seconds=1.7), beam=3, order_depth=1, name="hard"
            ),
            "two plies, the three best turns of each side",
        ),
    }


_LEVELS: dict[str, Callable[[], dict[str, Level]]] = {
    "general": _general,
    "backgammon": _backgammon,
    "defiance": _defiance,
}


def game_levels(game: str) -> dict[str, Level]:
    """The levels of a game."""
    if game not in _LEVELS:
        raise ValueError(f"no levels for {game!r}; games: {', '.join(sorted(_LEVELS))}")
    return _LEVELS[game]()


def agent_names() -> tuple[str, ...]:
    """Every name ``make_agent`` accepts."""
    return LEVELS + ALGORITHMS


def make_agent(game: str, name: str, seed: int | None = None, ruleset: str | None = None) -> Agent:
    """The agent called ``name`` (a level or an algorithm) for ``game``.

    ``ruleset`` is accepted for symmetry with ``ludotheque.load``; the levels are the same for
    every ruleset of a game.
    """
    if game not in available_games():
        raise ValueError(f"unknown game {game!r}")
    del ruleset
    if name in LEVELS:
        return game_levels(game)[name].make(seed)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "mcts":
        return MCTSAgent(seed, Budget(iterations=400), cutoff=40)
    if name == "alphabeta":
        return AlphaBetaAgent(seed, Budget(iterations=3), beam=5 if game == "defiance" else None)
    if name == "perfect":  # the General only: play from its solved tables
        from .perfect import make_perfect

        return make_perfect(game, seed)
    if name == "expectimax":
        return ExpectimaxAgent(seed, Budget(iterations=2), beam=4)
    raise ValueError(f"unknown player {name!r}; choose from: {', '.join(agent_names())}")
