"""Computer players: agents that choose a move for any game through the public protocol."""

from .agent import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
