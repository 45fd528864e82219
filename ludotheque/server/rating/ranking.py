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
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..play.people import Person
from ..play.service import UNRATED, GameService, GameSession
from ..store.db import PlayerRow, RatingHistoryRow, RatingRow, UserRow, now
from .glicko import DRAW, LOSS, WIN, Rating, rate_game

RATED_RULESETS = {
    "general": ("default",),
    "backgammon": ("seed", "standard", "money", "match"),
    "defiance": ("10x10", "8x8"),
}
"""The games and rulesets of the lobby and the ratings. Backgammon's money games are casual
(``points.CASUAL``); a match is rated once, by its result (``points.rates_now``)."""


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
COMPUTER_DEVIATION = 350.0


def _computer_start() -> dict[tuple[str, str, str], float]:
    out: dict[tuple[str, str, str], float] = {}
    for (game, ruleset), (easy_score, hard_score) in _MEASURED.items():
        out[(game, ruleset, "easy")] = 1500.0 - _elo(easy_score)
        out[(game, ruleset, "medium")] = 1500.0
        out[(game, ruleset, "hard")] = 1500.0 + _elo(hard_score)
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
    return Person(user.id, user.username, user.level, visitor, rating.rating, rating.provisional)


def people_of(db: Session, game_id: str) -> dict[str, Person]:
    """Who plays each side of a game (the sides with a known player)."""
    rows = db.execute(
        select(PlayerRow, UserRow)
        .outerjoin(UserRow, UserRow.id == PlayerRow.user_id)
        .where(PlayerRow.game_id == game_id)
    ).all()
    return {
        p.side: Person(
            p.user_id,
            u.username if u else None,
            u.level if u else None,
            p.visitor,
            p.rating,
            bool(p.provisional),
        )
        for p, u in rows
    }


def swapped_people(session: GameSession) -> dict[str, Person]:
    """The players of a rematch, sides swapped, with the ratings the first game left them."""
    game = session.record.game_object
    out: dict[str, Person] = {}
    for side, who in session.people.items():
        after = (session.rating_changes or {}).get(side)
        if after is not None:
            who = Person(who.user_id, who.name, who.level, who.visitor, after["after"],
                         bool(after["provisional"]))  # fmt: skip
        out[game.opponent(side)] = who
    return out


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
    from ..play.points import rates_now

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


async def rate_job(service: GameService, game_id: str, done: Any) -> str:
    """A ``rate`` job: rate the game once (``rated``), or nothing to do (``obsolete``: not
    rated, aborted, or rated already). ``done`` closes the job in the same transaction."""
    session = await service.get(game_id)
    for _ in range(5):
        async with session.lock:
            await service.refresh(session)
            over = session.record.outcome()
            if (
                not session.rated or over is None or over.reason in UNRATED
                or session.rating_changes is not None
            ):  # fmt: skip
                return "obsolete"
            stamp = now()

            def write(when: datetime = stamp) -> dict[str, Any] | None:
                with service.sessions() as db:
                    changes = rate_rows(db, session, when)
                    if changes is None:
                        return None
                    service._write(db, session, [("rated", changes)])
                    done(db)
                    db.commit()
                    return changes

            try:
                changes = await service.run_db(write)
            except IntegrityError:  # another entry took this place of the log: read it
                continue
            if changes is None:
                return "obsolete"
            session.rating_changes = changes
            service._stored(session, [("rated", changes)], False)
        await service._announce(session)
        return "rated"
    raise RuntimeError(f"game {game_id}: the log kept changing while it was being rated")


async def computer_people(users: Any, spec: Any, user: Any) -> dict[str, Person]:
    """The players of a game against the computer that a signed-in ``user`` asks for
    (``spec``: ``api.NewGame``): the user and the computer's level, with their ratings;
    nothing for anyone else, or for a request the game service will refuse anyway."""
    from ... import load
    from ...ai.levels import LEVELS
    from ...core import UnknownGame

    if user is None or spec.mode != "computer":
        return {}
    try:
        g = load(spec.game, spec.ruleset)
    except (UnknownGame, ValueError):
        return {}
    level = spec.level or "medium"
    human = spec.side or g.sides[0]
    if human not in g.sides or level not in LEVELS:
        return {}
    bot = await users.computer(level)
    if bot is None:
        return {}
    machine = g.opponent(human)

    def read() -> dict[str, Person]:
        with users.service.sessions() as db:
            return {
                human: person(db, user.id, g.name, g.ruleset),
                machine: person(db, bot.id, g.name, g.ruleset),
            }

    return dict(await users.service.run_db(read))


async def sit_down(service: GameService, session: GameSession, side: str, user_id: int) -> None:
    """A signed-in player opened their seat link of a game between friends: their name (and
    rating, for their profile) goes with the side, in the log (``seated``) and in the game's
    players; once per side, never in a finished game, never both sides for one account."""
    from ..play.service import WATCH

    def taken() -> bool:
        return (
            session.mode != "friend" or side in (WATCH, "both") or side in session.people
            or session.finished
            or any(p.user_id == user_id for p in session.people.values())
        )  # fmt: skip

    if taken():
        return

    def read() -> Person:
        with service.sessions() as db:
            return person(db, user_id, session.game, session.ruleset)

    who = await service.run_db(read)
    async with session.lock:
        await service.refresh(session)
        if taken():
            return
        data = {"side": side, "user_id": who.user_id, "name": who.name, "rating": who.rating,
                "provisional": who.provisional}  # fmt: skip

        def change() -> list[tuple[str, dict[str, Any]]]:
            session.people[side] = who
            session.record.players[side] = who.name or "human"
            return [("seated", data)]

        def row(db: Session) -> None:
            db.add(PlayerRow(game_id=session.id, side=side, user_id=who.user_id,
                             rating=who.rating, provisional=who.provisional))  # fmt: skip

        await service._change(session, change, after=row)
    await service._announce(session)
