"""Games played for points on the server (backgammon's ``money`` and ``match``): the first game
of a match at the length asked for, what follows a finished game, and which games are rated.

A match is a chain of games, each a game of its own on the server (its own log, seats, clock
and record, its start position carrying the match score): when one ends, the next starts from
``Record.next_game`` through the rematch action, with the same sides (the score is white's and
black's), until a side reaches the match length; then the rematch is a new match, sides
swapped. A money session goes on the same way, game after game. A game that ends outside the
rules' points (lost on time, left, abandoned) ends its match: the other side wins it.

Ratings: a rated match is rated once, by its result, when its last game ends (the games before
it are not rated). Money games are casual: a money result is a number of points that Glicko-2's
win, draw or loss does not measure, and a rating by single games would reward the cube's
gambles as much as play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core import Game, InvalidPosition
from ...games.backgammon.cube import MATCH, MAX_LENGTH, MONEY
from ...record import Record
from ..errors import GameError, say

CASUAL = frozenset({("backgammon", MONEY)})
"""Game and ruleset pairs that are never rated."""
NOT_RATED = say(
    "money games are casual: they are not rated (a match is)",
)


@dataclass(frozen=True)
class Following:
    """What follows a finished game played for points: the start position of the game after
    it, whether the sides stay as they are (the next game of the same match or money session)
    or are swapped (a new match), and the words for it (``next`` or ``new-match``)."""

    start: str
    same_sides: bool
    kind: str


def first_start(game: Game, *, length: int | None, rated: bool, position: str | None,
                next_start: str | None) -> str | None:  # fmt: skip
    """The start the app itself gives a new game (``None``: the game's own start, or the
    player's ``position``): a match of ``length`` points, or ``next_start`` (the next game of
    a match, made by ``following``). Refuses a length for a game that is not a match, a length
    out of 1–25, a length with a position, and a rated money game (``GameError``)."""
    kind = getattr(game, "stakes_kind", None)
    if rated and (game.name, game.ruleset) in CASUAL:
        raise GameError(NOT_RATED, "bad-rated", 400)
    if next_start is not None:
        return next_start
    if length is None:
        return None
    if kind != MATCH:
        raise GameError(
            say("a match length is for backgammon's 'match' rules"),
            "bad-length", 400,
        )  # fmt: skip
    if position:
        raise GameError(
            say("give a match length or a position, not both (a position carries its match)"),
            "bad-length", 400,
        )  # fmt: skip
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise GameError(
            say("a match is 1 to {n} points long",
                n=MAX_LENGTH),
            "bad-length", 400,
        )  # fmt: skip
    try:
        start: Any = game.start(length=length)  # type: ignore[call-arg]
    except InvalidPosition as exc:  # pragma: no cover - the length was checked above
        raise GameError(say("{text}", text=str(exc)), "bad-length", 400) from None
    return str(start.position())


def following(record: Record) -> Following | None:
    """What follows ``record``'s game, once it is over, in a game played for points
    (``None`` for the others and before the end): see ``Following``."""
    game: Any = record.game_object
    kind = getattr(game, "stakes_kind", None)
    if kind is None or record.outcome() is None:
        return None
    state: Any = record.state
    stakes = state.stakes
    if kind == MONEY:
        return Following(game.start(jacoby=stakes.jacoby).position(), True, "next")
    nxt = record.next_game(seed="")
    if nxt is not None and nxt.start is not None:
        return Following(nxt.start, True, "next")
    return Following(game.start(length=stakes.length).position(), False, "new-match")


def match_over(record: Record) -> bool:
    """Whether ``record``'s game is the last of its match (over, and no game follows it)."""
    nxt = following(record)
    return nxt is not None and not nxt.same_sides


def rates_now(record: Record) -> bool:
    """Whether a rated game's end is rated now: every game but a match's, which is rated
    once, by its last game (its winner wins the match), and never a money game."""
    game = record.game_object
    if (game.name, game.ruleset) in CASUAL:
        return False
    if getattr(game, "stakes_kind", None) == MATCH:
        return match_over(record)
    return True


def summary(record: Record) -> dict[str, Any]:
    """What the game page shows of a game played for points beyond its position: the points
    the game was won for, the match score after it, the match's winner, and what follows
    (``next``, ``new-match`` or ``None``)."""
    game: Any = record.game_object
    if getattr(game, "stakes_kind", None) is None:
        return {}
    over = record.outcome()
    points = record.points()
    out: dict[str, Any] = {"points": points, "next": None, "score_after": None,
                           "match_winner": None}  # fmt: skip
    if over is None:
        return out
    nxt = following(record)
    out["next"] = None if nxt is None else nxt.kind
    state: Any = record.state
    stakes = state.stakes
    if stakes is not None and stakes.length:
        if over.winner is not None and points is not None:
            after = state.score_after(over.winner, points)
            out["score_after"] = {"white": after[0], "black": after[1]}
        if nxt is not None and not nxt.same_sides:
            out["match_winner"] = over.winner
    return out


__all__ = [
    "CASUAL",
    "NOT_RATED",
    "Following",
    "first_start",
    "following",
    "match_over",
    "rates_now",
    "summary",
]


class MatchChain:
    """The rules of games played for points the game service is given
    (``play.collaborators.MatchRules``)."""

    first_start = staticmethod(first_start)
    following = staticmethod(following)


MATCHES = MatchChain()
