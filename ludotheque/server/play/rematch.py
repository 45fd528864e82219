"""The rematch. Between two people it is an offer: the first to ask offers it (it waits), the
other accepts (the rematch is made, and both go to it) or declines; the offer lapses when a
player leaves the game's page (``offers.REMATCH_LAPSE``). At one screen and against the
computer (which accepts at once) the rematch is made when asked. Between friends sides swap;
the next game of a backgammon match keeps them. Watchers follow a rematch once it is made."""

from __future__ import annotations

import asyncio

from sqlalchemy.exc import IntegrityError

from ..errors import GameError, say
from ..store.db import SeatRow, token_hash
from .offers import REMATCH_LAPSE, gone_for, standing_rematch
from .people import Person
from .service import GameService
from .session import WATCH, Event, GameSession, rematch_seat, rematch_token, replay
from .writer import Conflict

STALE = say("the game changed meanwhile; try again")


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
) -> tuple[GameSession, str] | None:
    """Ask for the rematch: between two people, offer it (``None``: the offer waits for the
    other player) or accept the other's offer; elsewhere make it. Once it is made, anyone on
    the game joins it (watchers as watchers).

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
        if not session.finished or session.rematch_id is None:
            await service.refresh(session)
        if not session.finished:
            raise GameError(
                say("finish (or resign) the game first"),
                "not-over", 409,
            )  # fmt: skip
        # games played for points: the next game of the match (same sides), or a new one
        after = service.matches.following(session.record)
        same = after is not None and after.same_sides
        announce = False
        if session.rematch_id is None:
            if session.mode == "friend" and seat in session.record.game_object.sides:
                asked = _asked(session, seat, service.now())
            else:  # at one screen, against the computer: made at once
                asked = "make"
            if asked == "offer":
                await _write(service, session, ("rematch-offer", {"side": seat}))
                announce = True
            elif asked == "make":
                by = session.rematch_by if session.mode == "friend" else seat
                await _make(service, session, by if by in session.record.game_object.sides
                            else None, same)  # fmt: skip
                announce = True
        elif seat == session.rematch_declined:
            raise GameError(
                say("you declined this rematch"),
                "declined", 409,
            )  # fmt: skip
    if announce:  # everyone on the old game hears of the offer, or of the rematch
        await service.announce(session)
    rematch_id = session.rematch_id
    if rematch_id is None:
        return None
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


def _asked(session: GameSession, seat: str, now: float) -> str:
    """What ``seat``'s asking does between two people before the rematch is made: ``make``
    it (the other's offer stands: accepted), ``offer`` it, or nothing more (``wait``: its
    own offer stands); or the reason it may not ask."""
    declined = session.rematch_declined
    if declined is not None:
        if declined == seat:
            raise GameError(say("you declined this rematch"), "declined", 409)
        raise GameError(say("your opponent declined the rematch"), "declined", 409)
    standing = standing_rematch(session, now)
    if standing == seat:
        return "wait"
    if standing is not None:
        return "make"
    if gone_for(session, now) is not None:
        raise GameError(
            say("your opponent has left the game: there is nobody to offer a rematch to"),
            "opponent-gone", 409,
        )  # fmt: skip
    return "offer"


async def _write(service: GameService, session: GameSession, event: Event) -> None:
    """Apply ``event`` to the finished game in memory and write it in its log; taken back in
    memory if it could not be written."""
    saved = session.rematch_by, session.rematch_lapsed, session.rematch_declined
    events = [event]
    replay(session, *event)
    try:
        await service.writer.store(session, events)
    except Conflict:  # another process wrote in the log first: the log decides
        session.rematch_by, session.rematch_lapsed, session.rematch_declined = saved
        await service.refresh(session)
        raise GameError(STALE, "stale", 409) from None
    except BaseException:
        session.rematch_by, session.rematch_lapsed, session.rematch_declined = saved
        raise


async def _make(service: GameService, session: GameSession, by: str | None, same: bool) -> None:
    """Make the rematch of ``session`` (its lock held), offered by ``by``."""
    human = session.computer_side if session.mode == "computer" else None
    if same and session.computer_side is not None:
        human = session.record.game_object.opponent(session.computer_side)
    following = service.matches.following(session.record)
    try:
        await service.create(
            session.game, session.mode, session.ruleset, side=human,
            level=session.level,
            position=session.record.start if following is None else None,
            rematch_of=session, with_seats=False, control=session.control,
            rematch_by=by, rated=session.rated, public=session.public,
            people=dict(session.people) if same else swapped_people(session),
            next_start=None if following is None else following.start,
        )  # fmt: skip
    except Conflict:  # another process made the rematch first
        await service.refresh(session)
        if session.rematch_id is None:
            raise GameError(STALE, "stale", 409) from None


async def decline_rematch(service: GameService, session: GameSession, seat: str) -> None:
    """The other player turns the standing rematch offer down: the old game's log says so,
    and the player who offered it is told."""
    async with session.lock:
        await service.refresh(session)
        sides = session.record.game_object.sides
        if session.mode != "friend" or seat not in sides:
            raise GameError(
                say("rematch offers are for games between friends"),
                "bad-mode", 409,
            )  # fmt: skip
        if session.rematch_declined is not None:
            return  # said already (a second click, or another tab)
        standing = standing_rematch(session, service.now())
        if standing is None or not session.finished:
            raise GameError(say("nobody offered a rematch"),
                            "no-rematch", 409)  # fmt: skip
        if seat == standing:
            raise GameError(
                say("only the other player answers"),
                "not-your-seat", 403,
            )  # fmt: skip
        await _write(service, session, ("rematch-decline", {"side": seat}))
    await service.announce(session)


async def lapse_rematch(service: GameService, session: GameSession) -> bool:
    """After a player left a finished game's page: once they have been away for
    ``REMATCH_LAPSE`` seconds, the standing rematch offer lapses (``lapse_now``). Whether it
    lapsed."""
    await asyncio.sleep(REMATCH_LAPSE + 0.25)
    return await lapse_now(service, session)


async def lapse_now(service: GameService, session: GameSession) -> bool:
    """If a player has been away for ``REMATCH_LAPSE`` seconds, the rematch offer that was
    standing lapses: written in the log, and told to whoever is still there. Whether it did."""
    async with session.lock:
        await service.refresh(session)
        now = service.now()
        gone = gone_for(session, now)
        if session.rematch_by is None or gone is None or session.rematch_id is not None:
            return False
        if session.rematch_declined is not None or session.rematch_lapsed is not None:
            return False
        try:
            await _write(service, session, ("rematch-lapse", {"side": gone}))
        except GameError:
            return False
    await service.announce(session)
    return True
