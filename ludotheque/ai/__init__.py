"""Computer players: agents that choose a move for any game through the public protocol."""

from .agent import Agent, Budget, RandomAgent
from .alphabeta import AlphaBetaAgent
from .expectimax import ExpectimaxAgent
from .greedy import GreedyAgent
from .levels import game_levels, make_agent
from .mcts import MCTSAgent

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "Budget",
    "ExpectimaxAgent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "game_levels",
    "make_agent",
]
