"""What the ratings do to games: a finished rated game is rated once (a ``rate`` job), a
signed-in player sits down with their name and rating, and a rated game against the computer
is set up with the players' ratings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ... import load
from ...ai.levels import levels_of
from ...core import UnknownGame
from ..accounts.moderation import check_not_banned
from ..play.people import Person
from ..play.service import GameService
from ..play.session import UNRATED, WATCH, GameSession
from ..store.db import PlayerRow, now
from .ranking import person, rate_rows


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
                    service.write(db, session, [("rated", changes)])
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
            service.stored(session, [("rated", changes)], False)
        await service.announce(session)
        return "rated"
    raise RuntimeError(f"game {game_id}: the log kept changing while it was being rated")


async def computer_people(users: Any, spec: Any, user: Any) -> dict[str, Person]:
    """The players of a game against the computer that a signed-in ``user`` asks for
    (``spec``: ``api.NewGame``): the user and the computer's level, with their ratings;
    nothing for anyone else, or for a request the game service will refuse anyway."""
    if user is None or spec.mode != "computer":
        return {}
    if spec.rated:  # a banned account plays the computer, but not for a rating
        await check_not_banned(users.service.run_db, users.service.sessions, user.id)
    try:
        g = load(spec.game, spec.ruleset)
    except (UnknownGame, ValueError):
        return {}
    level = spec.level or "medium"
    human = spec.side or g.sides[0]
    if human not in g.sides or level not in levels_of(g.name):
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

        await service.change(session, change, after=row)
    await service.announce(session)
