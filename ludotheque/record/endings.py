"""How a record's game ends outside the rules of the game: the draws that depend on its history,
which a state does not hold (a position seen ``repetition`` times, ``turn_limit`` moves played
without a result), and the endings a record is told of (a resignation, an abandoned game, a
game aborted before it began, a draw the players agreed).

>>> draw(seen=3, moves=10, repetition=3, turn_limit=400)
Outcome(winner=None, reason='repetition')
>>> draw(seen=1, moves=10, repetition=3, turn_limit=400) is None
True
"""

from __future__ import annotations

from ..core import Game, Outcome

REPETITION = "repetition"
"""A draw: one position occurred ``repetition`` times."""
TURN_LIMIT = "turn-limit"
"""A draw: ``turn_limit`` moves were played without a result."""
RESIGNATION = "resignation"
"""A side resigned: the other side wins."""
ABANDONED = "abandoned"
"""The game was left unfinished for too long: no winner."""
ABORTED = "aborted"
"""The game was called off before it began (a side's first move not made in time, or a player
aborting before their first move): no winner, and not a draw."""
AGREEMENT = "agreement"
"""A draw the players agreed (one offered it, the other accepted)."""


def draw_options(
    game: Game, repetition: int | bool | None, turn_limit: int | bool | None
) -> tuple[int | None, int | None]:
    """A new record's draw options, ``(repetition, turn_limit)``: for each, ``True`` takes the
    game's default (its ``repetition_limit``, its ``turn_limit``; none when it has none),
    ``False`` or ``None`` switches the rule off, an integer sets it."""
    return (
        _option(repetition, getattr(game, "repetition_limit", None)),
        _option(turn_limit, getattr(game, "turn_limit", None)),
    )


def _option(value: int | bool | None, default: int | None) -> int | None:
    if value is True:
        return default
    if value is False or value is None:
        return None
    return int(value)


def draw(seen: int, moves: int, repetition: int | None, turn_limit: int | None) -> Outcome | None:
    """The draw of a game going on whose position was seen ``seen`` times (this time included)
    after ``moves`` moves (chance outcomes aside), under the options ``repetition`` and
    ``turn_limit`` (``None``: off); ``None`` when neither rule ends it."""
    if repetition is not None and seen >= repetition:
        return Outcome(None, REPETITION)
    if turn_limit is not None and moves >= turn_limit:
        return Outcome(None, TURN_LIMIT)
    return None


__all__ = [
    "ABANDONED",
    "ABORTED",
    "AGREEMENT",
    "REPETITION",
    "RESIGNATION",
    "TURN_LIMIT",
    "draw",
    "draw_options",
]
