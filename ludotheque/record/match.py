"""Games played for points (backgammon's ``money`` and ``match``): what a record's game scored,
and where the next game of the match (or money session) starts.

The stakes live in the position: cube actions are moves like the others and the match score is
in the start position, so a match is a chain of records, each starting where the game before it
left the score (``Record.next_game``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .endings import RESIGNATION

if TYPE_CHECKING:
    from .history import Record


def points(record: Record) -> int | None:
    """In a game played for points (its ruleset has stakes): the points the winner scored once
    the game is over (a record's resignation gives up everything the resigning side could still
    lose); ``None`` otherwise."""
    game = record.game_object
    if not getattr(game, "has_stakes", False):
        return None
    outcome = record.outcome()
    if outcome is None or outcome.winner is None:
        return None
    state: Any = record.state
    if record.result is not None and record.result.reason == RESIGNATION:
        return int(state.points_if_resigned(game.opponent(outcome.winner)))
    scored = state.points()
    return None if scored is None else int(scored)


def next_start(record: Record) -> str | None:
    """The start position of the next game once this one is over: at the new score of a match
    (the Crawford game when it is due), a fresh game in money play; ``None`` when the match is
    won, for games that are not played for points, and before the end."""
    outcome = record.outcome()
    scored = points(record)
    if outcome is None or outcome.winner is None or scored is None:
        return None
    state: Any = record.state
    following = state.next_game(outcome.winner, scored)
    return None if following is None else str(following.position())


__all__ = ["next_start", "points"]
