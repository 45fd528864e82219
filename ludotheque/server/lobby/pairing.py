"""Seeks and quick pairing: players waiting for a game, matched by rating.

A ``Seek`` is a player waiting for a game of a kind: game, ruleset, time control, rated or
casual, and optionally a side and a named opponent. Quick pairing (``pair``) matches the seeks of
one kind by rating, as lichess's pools do: a seek accepts opponents within a rating *window*
that starts at ±100 (wider for a player whose rating is still uncertain: up to ±350) and
widens by 10 points a second of waiting, up to ±800 for rated games and without limit for
casual ones. Two seeks pair when each accepts the other; the longest-waiting seek is served
first, with the closest rating it accepts. Everything is pure: the time comes in as ``now``
(seconds), so any process can pair the seeks it reads from the database.

Open challenges and challenges to a named player are seeks too, accepted by hand
(``check_accept`` says who may).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ... import available_games, load
from ..accounts.rules import SIGN_IN_REQUIRED, AccountError, username_key
from ..clock.controls import TimeControl, allowed
from ..errors import GameError, say

BASE_WINDOW = 100.0  # rating points either way, at once
UNCERTAIN_WINDOW = 350.0  # at most this much at once for a player with a wide deviation
WIDENING = 10.0  # more rating points a second of waiting
MAX_RATED_WINDOW = 800.0
WAVE_SECONDS = 2.0  # pair again this often while seeks wait (their windows widen)
SEEK_LIFETIME = 15 * 60.0  # a quick-pairing seek nobody matched for this long is dropped


@dataclass(frozen=True)
class Seek:
    """A player waiting for a game: who (``player``, an account or an anonymous visitor's
    id; ``account`` tells which), for what kind of game (``control``: a ``TimeControl`` key,
    ``None`` untimed), at what rating, on which ``side`` (``None``: either), against whom
    (``opponent``: a username, ``None``: anyone), and since when."""

    id: str
    player: str
    game: str
    ruleset: str
    control: str | None
    rated: bool
    since: float
    rating: float = 1500.0
    deviation: float = 500.0
    side: str | None = None
    account: bool = True
    opponent: str | None = None

    @property
    def kind(self) -> tuple[str, str, str | None, bool]:
        """What must be equal for two seeks to meet: game, ruleset, control, rated."""
        return (self.game, self.ruleset, self.control, self.rated)

    def window(self, now: float) -> float:
        """How far (rating points, either way) this seek accepts an opponent at ``now``."""
        start = max(BASE_WINDOW, min(self.deviation, UNCERTAIN_WINDOW))
        widened = start + WIDENING * max(0.0, now - self.since)
        return min(widened, MAX_RATED_WINDOW) if self.rated else widened


def make_seek(
    *,
    id: str,
    player: str,
    game: str,
    ruleset: str | None,
    control: str | None,
    rated: bool,
    since: float,
    rating: float = 1500.0,
    deviation: float = 500.0,
    side: str | None = None,
    account: bool = True,
    opponent: str | None = None,
) -> Seek:
    """A checked seek (the ruleset defaults to the game's first; the control is written back
    in its canonical form), or a ``GameError`` in both languages: unknown game, ruleset or
    side, a time control the game does not use, or a rated seek without an account."""
    games = available_games()
    if game not in games:
        raise GameError(say("unknown game {game!r}", game=game), "bad-seek", 400)
    ruleset = ruleset or games[game][0]
    if ruleset not in games[game]:
        raise GameError(say("unknown rules {r!r}", r=ruleset), "bad-seek", 400)
    if control is not None:
        try:
            parsed = TimeControl.parse(control)
        except ValueError:
            parsed = None
        if parsed is None or not allowed(game, parsed):
            raise GameError(
                say("this time control does not suit this game"),
                "bad-seek", 400,
            )  # fmt: skip
        control = parsed.key
    if side is not None and side not in load(game, ruleset).sides:
        raise GameError(say("unknown side {s!r}", s=side), "bad-seek", 400)
    if rated and not account:
        raise AccountError(SIGN_IN_REQUIRED, "sign-in-required", 403)
    return Seek(
        id, player, game, ruleset, control, rated, since, rating, deviation, side, account,
        opponent,
    )  # fmt: skip


def compatible(a: Seek, b: Seek, now: float) -> bool:
    """Whether quick pairing may match ``a`` and ``b`` at ``now``: two players, one kind of
    game, sides that fit, and each rating within the other's window."""
    if a.player == b.player or a.kind != b.kind:
        return False
    if a.side is not None and a.side == b.side:
        return False
    return abs(a.rating - b.rating) <= min(a.window(now), b.window(now))


@dataclass(frozen=True)
class Pairing:
    """A game to start: ``sides`` maps each side of the game to its seek."""

    sides: dict[str, Seek]

    @property
    def seeks(self) -> tuple[Seek, Seek]:
        a, b = self.sides.values()
        return a, b


def _coin(a: Seek, b: Seek) -> bool:
    return secrets.randbelow(2) == 0


def assign_sides(
    a: Seek, b: Seek, sides: Sequence[str], coin: Callable[[Seek, Seek], bool] = _coin
) -> Pairing:
    """Who plays which side: a wished side is granted (``compatible`` saw that the wishes
    fit); otherwise ``coin(a, b)`` decides (``True``: ``a`` plays the first side)."""
    first, second = sides
    if a.side is not None:
        a_first = a.side == first
    elif b.side is not None:
        a_first = b.side != first
    else:
        a_first = coin(a, b)
    return Pairing({first: a, second: b} if a_first else {first: b, second: a})


def pair(
    seeks: Iterable[Seek], now: float, coin: Callable[[Seek, Seek], bool] = _coin
) -> list[Pairing]:
    """The games quick pairing starts at ``now`` from ``seeks`` (each seek in one at most).

    Longest-waiting first, each takes the compatible seek of closest rating (then the
    longest-waiting, then the smallest id, so that every process pairs alike). Seeks for a
    named opponent are not for quick pairing and are left out.
    """
    waiting = sorted((s for s in seeks if s.opponent is None), key=lambda s: (s.since, s.id))
    taken: set[str] = set()
    pairings: list[Pairing] = []
    for seek in waiting:
        if seek.id in taken:
            continue
        options = [
            other
            for other in waiting
            if other.id != seek.id and other.id not in taken and compatible(seek, other, now)
        ]
        if not options:
            continue
        best = min(options, key=lambda o: (abs(o.rating - seek.rating), o.since, o.id))
        taken.update((seek.id, best.id))
        pairings.append(assign_sides(seek, best, load(seek.game, seek.ruleset).sides, coin))
    return pairings


def add(seeks: Iterable[Seek], seek: Seek) -> list[Seek]:
    """The pool with ``seek`` in it, in place of any other seek of the same player (one seek
    a player: a new one replaces the old)."""
    return [s for s in seeks if s.player != seek.player] + [seek]


def expire(seeks: Iterable[Seek], now: float, lifetime: float = SEEK_LIFETIME) -> list[Seek]:
    """The seeks younger than ``lifetime`` at ``now``."""
    return [s for s in seeks if now - s.since < lifetime]


NOT_FOR_YOU = say("this challenge is for another player")
OWN_SEEK = say("you cannot accept your own challenge")


def check_accept(seek: Seek, player: str, *, account: bool, username: str | None) -> None:
    """Whether ``player`` (signed in as ``username`` when ``account``) may accept ``seek`` by
    hand; an error in both languages says why not: their own seek, a challenge to someone
    else, or a rated game without an account."""
    if player == seek.player:
        raise GameError(OWN_SEEK, "own-seek", 409)
    if seek.opponent is not None and (
        username is None or username_key(username) != username_key(seek.opponent)
    ):
        raise GameError(NOT_FOR_YOU, "not-for-you", 403)
    if seek.rated and not account:
        raise AccountError(SIGN_IN_REQUIRED, "sign-in-required", 403)


__all__ = [
    "Pairing",
    "Seek",
    "add",
    "assign_sides",
    "check_accept",
    "compatible",
    "expire",
    "make_seek",
    "pair",
]
