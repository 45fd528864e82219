"""Ratings on the server: who plays a game, their rating when it began, and the update once a
rated game ends.

A rated game that ends queues a ``rate`` job in the same write as its end (see
``service.GameService._summary``). The job (``rate_job``) rates both sides in one transaction
that also appends a ``rated`` entry to the game's log: the log's unique ``(game, seq)`` and
the entry itself make the update happen exactly once, whichever worker takes the job and
however often. Ratings rows are locked (``FOR UPDATE`` on PostgreSQL) in the order of their
players, so that two games ending together for one player are rated one after the other.

Ratings are Glicko-2 (``ratings``), per game and ruleset. The computer's levels are rated
players too: they start from ratings measured with the arena (``COMPUTER_START``), anchored at
medium = 1500, uncertain (deviation 350), and move with the games played on the site.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ... import available_games
from ..play.people import Person
from ..play.points import rates_now
from ..play.session import GameSession
from ..store.db import PlayerRow, RatingHistoryRow, RatingRow, UserRow, now
from .glicko import DRAW, LOSS, WIN, Rating, rate_game

RATED_RULESETS: dict[str, tuple[str, ...]] = available_games()
"""The games and rulesets of the lobby and the ratings: every one the registry has (a game
added to ``ludotheque`` comes with its ratings). Backgammon's money games are casual
(``points.CASUAL``); a match is rated once, by its result (``points.rates_now``)."""


LEADERBOARD_GAMES = 30
LEADERBOARD_DAYS = 7
LEADERBOARD_DEVIATION = 75.0
"""Who is on a leaderboard: lichess's rule for its rating leaderboards (its FAQ, "How do
ranks and leaderboards work?"): at least ``LEADERBOARD_GAMES`` rated games in the rating, a
rated game in the last ``LEADERBOARD_DAYS`` days, and a rating deviation under
``LEADERBOARD_DEVIATION`` now (lichess's standard chess figure; its provisional mark comes
much earlier, at 110). One place for the three figures: the page and the README say them."""


def on_leaderboard(rating: Rating, when: datetime) -> bool:
    """Whether ``rating`` (its games and last game, and its deviation as it stands at
    ``when``) is established enough for a leaderboard."""
    last = rating.last_played
    if rating.games < LEADERBOARD_GAMES or last is None:
        return False
    if last.tzinfo is None:
        last = last.replace(tzinfo=when.tzinfo)
    if when - last > timedelta(days=LEADERBOARD_DAYS):
        return False
    return rating.at(when).deviation < LEADERBOARD_DEVIATION


def _elo(score: float) -> float:
    """The rating difference that gives ``score`` (Glicko-2's scale is Elo's)."""
    return 400.0 * math.log10(score / (1.0 - score))


# Each level against the one below (``ludotheque arena``; the README's "Measured strength"):
# the score of the stronger. Missing pairs take the nearest measured ruleset's.
_MEASURED = {
    ("general", "default"): (0.983, 0.783),
    ("backgammon", "seed"): (0.765, 0.760),
    ("backgammon", "standard"): (0.805, 0.760),
    ("backgammon", "match"): (0.805, 0.760),  # standard's checker play: the nearest measure
    ("defiance", "8x8"): (0.940, 0.840),
    ("defiance", "10x10"): (0.940, 0.840),
}
_PERFECT = {("general", "default"): 0.625}
"""The General's ``perfect`` level against ``hard`` from the start, the mean of its scores on
each side (``python bench/perfect.py``; the README's "Measured strength"): its rebels won all 40
games (``--generals hard``, seeds 1-10 and 101-130), its general drew 15 of 30 and lost 15
(``--perfect-general --generals hard``: hard's rebels are the proven winners; the perfect
general holds a draw when they allow it)."""
COMPUTER_DEVIATION = 350.0


def _computer_start() -> dict[tuple[str, str, str], float]:
    out: dict[tuple[str, str, str], float] = {}
    for (game, ruleset), (easy_score, hard_score) in _MEASURED.items():
        out[(game, ruleset, "easy")] = 1500.0 - _elo(easy_score)
        out[(game, ruleset, "medium")] = 1500.0
        out[(game, ruleset, "hard")] = 1500.0 + _elo(hard_score)
    for (game, ruleset), perfect_score in _PERFECT.items():
        out[(game, ruleset, "perfect")] = out[(game, ruleset, "hard")] + _elo(perfect_score)
    return out


COMPUTER_START = _computer_start()


def first_rating(game: str, ruleset: str, level: str | None) -> Rating:
    """A player's rating before their first rated game: 1500? for people; the arena's
    measure for a computer level."""
    start = COMPUTER_START.get((game, ruleset, level or ""))
    if level is None or start is None:
        return Rating()
    return Rating(rating=start, deviation=COMPUTER_DEVIATION)


def _rating(row: RatingRow | None, game: str, ruleset: str, level: str | None) -> Rating:
    if row is None:
        return first_rating(game, ruleset, level)
    last = row.last_played
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=now().tzinfo)
    return Rating(row.rating, row.deviation, row.volatility, row.games, last)


def rating_of(db: Session, user_id: int, game: str, ruleset: str) -> Rating:
    """A player's rating now (its deviation grown for the time since their last game)."""
    user = db.get(UserRow, user_id)
    row = db.get(RatingRow, (user_id, game, ruleset))
    return _rating(row, game, ruleset, user.level if user else None).at(now())


def person(db: Session, user_id: int, game: str, ruleset: str, *, visitor: str | None = None
           ) -> Person:  # fmt: skip
    """An account (or a computer level's) as the player of a new game, with its rating."""
    user = db.get(UserRow, user_id)
    assert user is not None
    rating = rating_of(db, user_id, game, ruleset)
    return Person(user.id, user.username, user.level, visitor, rating.rating, rating.provisional,
                  bot=user.bot_at is not None)  # fmt: skip


def _ensure_row(db: Session, user_id: int, game: str, ruleset: str, start: Rating) -> None:
    """A ratings row for the player (the first rating) unless there is one already."""
    values = {
        "user_id": user_id, "game": game, "ruleset": ruleset, "rating": start.rating,
        "deviation": start.deviation, "volatility": start.volatility, "games": 0, "wins": 0,
        "draws": 0, "losses": 0, "last_played": None,
    }  # fmt: skip
    dialect = db.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    db.execute(insert(RatingRow).values(**values).on_conflict_do_nothing())


def _score(winner: str | None, side: str) -> float:
    return DRAW if winner is None else (WIN if winner == side else LOSS)


def rate_rows(
    db: Session, session: GameSession, when: datetime
) -> dict[str, dict[str, Any]] | None:
    """Rate both players of the finished, rated ``session`` in ``db``'s transaction: their
    ratings and results, a point of each one's history, the change on the game's players.
    What changed, per side (``None``: nothing to rate)."""
    over = session.record.outcome()
    sides = list(session.record.game_object.sides)
    people = session.people
    if over is None or any(s not in people or not people[s].rateable for s in sides):
        return None
    if not rates_now(session.record):  # a match's games before its last, a money game
        return None
    ids = {s: people[s].user_id for s in sides}
    if len(set(ids.values())) != 2:
        return None
    game, ruleset = session.game, session.ruleset
    rows: dict[str, RatingRow] = {}
    for side in sorted(sides, key=lambda s: ids[s] or 0):  # lock in one order: no deadlock
        user_id = ids[side]
        assert user_id is not None
        _ensure_row(db, user_id, game, ruleset, first_rating(game, ruleset, people[side].level))
        row = db.scalars(
            select(RatingRow)
            .where(RatingRow.user_id == user_id, RatingRow.game == game,
                   RatingRow.ruleset == ruleset)
            .with_for_update()
        ).one()  # fmt: skip
        rows[side] = row
    first, second = sides
    before = {s: _rating(rows[s], game, ruleset, people[s].level) for s in sides}
    a, b = rate_game(before[first], before[second], _score(over.winner, first), when)
    after = {first: a, second: b}
    changes: dict[str, dict[str, Any]] = {}
    for side in sides:
        row, new, old = rows[side], after[side], before[side]
        score = _score(over.winner, side)
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.wins += score == WIN
        row.draws += score == DRAW
        row.losses += score == LOSS
        row.last_played = when
        db.add(
            RatingHistoryRow(
                user_id=ids[side], game=game, ruleset=ruleset, game_id=session.id,
                rating=new.rating, deviation=new.deviation, at=when,
            )
        )  # fmt: skip
        db.execute(
            update(PlayerRow)
            .where(PlayerRow.game_id == session.id, PlayerRow.side == side)
            .values(change=new.rating - old.rating)
        )
        changes[side] = {
            "before": round(old.rating, 2),
            "after": round(new.rating, 2),
            "change": round(new.rating - old.rating, 2),
            "provisional": new.provisional,
        }
    return changes
