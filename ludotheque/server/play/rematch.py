"""The rematch: offered by whoever asks first, joined by the others, declined by the other
player. Between friends sides swap; the next game of a backgammon match keeps them."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import GameError, say
from ..store.db import SeatRow, token_hash
from .people import Person
from .service import GameService
from .session import WATCH, Event, GameSession, rematch_seat, rematch_token
from .writer import Conflict


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


async def rematch(
    service: GameService, session: GameSession, seat: str, token: str
) -> tuple[GameSession, str]:
    """The rematch, sides swapped: created by whoever asks first, joined by the others.

    Returns the rematch and the asker's token in it. Only hashes of tokens are stored, so
    each holder's new seat is registered when they present their old token; the new token
    derives from the old one, so asking twice gives the same link.
    """
    if seat == WATCH:
        async with session.lock:
            await service.refresh(session)
        if session.rematch_id is None:  # watchers follow a rematch, they do not start one
            raise GameError(
                say("watchers cannot start a rematch; there is none yet"),
                "no-rematch", 409,
            )  # fmt: skip
    async with session.lock:
        if not session.finished:
            await service.refresh(session)
        if not session.finished:
            raise GameError(
                say("finish (or resign) the game first"),
                "not-over", 409,
            )  # fmt: skip
        # games played for points: the next game of the match (same sides), or a new one
        after = service.matches.following(session.record)
        same = after is not None and after.same_sides
        if session.rematch_id is None:
            human = session.computer_side if session.mode == "computer" else None
            if same and session.computer_side is not None:
                human = session.record.game_object.opponent(session.computer_side)
            try:
                await service.create(
                    session.game, session.mode, session.ruleset, side=human,
                    level=session.level,
                    position=session.record.start if after is None else None,
                    rematch_of=session, with_seats=False, control=session.control,
                    rematch_by=seat if seat in session.record.game_object.sides else None,
                    rated=session.rated, public=session.public,
                    people=dict(session.people) if same else swapped_people(session),
                    next_start=None if after is None else after.start,
                )  # fmt: skip
            except Conflict:  # another process made the rematch first
                await service.refresh(session)
                if session.rematch_id is None:
                    raise GameError(
                        say(
                            "the game changed meanwhile; try again",
                        ),
                        "stale",
                        409,
                    ) from None
            announce = True
        else:
            if seat == session.rematch_declined:
                raise GameError(
                    say("you declined this rematch"),
                    "declined", 409,
                )  # fmt: skip
            announce = False
    rematch_id = session.rematch_id
    assert rematch_id is not None
    if announce:  # everyone on the old game hears of the rematch
        await service.announce(session)
    new_seat = rematch_seat(session, seat, same)
    new_token_value = rematch_token(token)
    digest = token_hash(new_token_value)

    def register() -> None:
        with service.sessions() as db:
            if db.get(SeatRow, digest) is None:
                db.add(SeatRow(token_sha256=digest, game_id=rematch_id, side=new_seat))
                try:
                    db.commit()
                except IntegrityError:  # registered at the same instant elsewhere
                    db.rollback()

    await service.run_db(register)
    return await service.get(rematch_id), new_token_value


async def decline_rematch(service: GameService, session: GameSession, seat: str) -> None:
    """The other player turns the rematch down. Both logs say so, in one transaction:
    the old game's (its offer is not shown again) and the rematch's, where the player
    who offered it waits (they are told)."""
    async with session.lock:
        await service.refresh(session)
        sides = session.record.game_object.sides
        if session.mode != "friend" or seat not in sides:
            raise GameError(
                say("rematch offers are for games between friends"),
                "bad-mode", 409,
            )  # fmt: skip
        rematch_id = session.rematch_id
        if rematch_id is None or not session.finished:
            raise GameError(say("nobody offered a rematch"),
                            "no-rematch", 409)  # fmt: skip
        if seat == session.rematch_by:
            raise GameError(
                say("only the other player answers"),
                "not-your-seat", 403,
            )  # fmt: skip
        if session.rematch_declined is not None:
            return  # said already (a second click, or another tab)
        after = service.matches.following(session.record)
        new_side = rematch_seat(session, seat, after is not None and after.same_sides)
        new = await service.get(rematch_id)
        async with new.lock:
            await service.refresh(new)
            told: list[Event] = [("declined", {"side": new_side})]
            session.rematch_declined, new.declined = seat, new_side

            def tell(db: Session) -> None:
                service.writer.write(db, new, told)

            try:
                declined: list[Event] = [("rematch-decline", {"side": seat})]
                await service.writer.store(session, declined, before=tell)
            except Conflict:  # another process wrote in one of the two logs first
                session.rematch_declined, new.declined = None, None
                raise GameError(
                    say("the game changed meanwhile; try again"),
                    "stale", 409,
                ) from None  # fmt: skip
            except BaseException:
                session.rematch_declined, new.declined = None, None
                raise
            new.seq += len(told)
            service.writer.announce_commit(new)
    await service.announce(session)
    await service.announce(new)
