"""Ends the players agree on: aborting a game before one's first move, and draws by agreement
(an offer, its answer, the computer's answer). The rules are ``offers``'s; each change is one
entry of the game's log, written through the service like a move."""

from __future__ import annotations

import asyncio

from ...ai.draws import accepts_draw
from ...core import Outcome
from ...record import ABORTED, AGREEMENT
from ..errors import GameError, say, say_n
from .offers import (
    draw_wait,
    has_draws,
    may_abort,
    offers_draws,
    seat_side,
    seat_sides,
    standing_draw,
)
from .service import GameService
from .session import WATCH, Event, GameSession

GAME_OVER = say("the game is over")
NO_DRAWS = say("this game has no draws")
NO_OFFER = say("there is no draw offer to answer")


async def abort(service: GameService, session: GameSession, seat: str) -> None:
    """Call the game off: for a player none of whose sides has moved yet. No result, never
    rated, and not a draw (``aborted``; the log says who aborted it)."""
    async with session.lock:
        await service.refresh(session)
        if seat == WATCH or not seat_sides(session, seat):
            raise GameError(say("watchers cannot abort the game"),
                            "not-your-seat", 403)  # fmt: skip
        if session.finished:
            raise GameError(GAME_OVER, "game-over", 409)
        if not may_abort(session, seat):
            raise GameError(
                say("you have moved already: the game can no longer be aborted (you may resign)"),
                "no-abort", 409,
            )  # fmt: skip
        stamp = service.now()
        by = seat_side(session, seat) or seat  # at one screen: ``both``

        def change() -> list[Event]:
            kind, data = service.clocks.end_event(session, Outcome(None, ABORTED), stamp)
            session.ended_by, session.draw_offer = by, None
            return [(kind, {**data, "by": by})]

        await service.writer.change(session, change)
    await service.announce(session)


def _checked_offerer(session: GameSession, seat: str) -> str:
    """The side of ``seat``, which offers or answers a draw; or the reason it may not."""
    if not has_draws(session):
        raise GameError(NO_DRAWS, "no-draws", 409)
    if not offers_draws(session, seat):
        raise GameError(
            say("draw offers are made by one player to the other"),
            "not-your-seat", 403,
        )  # fmt: skip
    if session.finished:
        raise GameError(GAME_OVER, "game-over", 409)
    side = seat_side(session, seat)
    assert side is not None  # (``offers_draws``)
    return side


def _agreed(service: GameService, session: GameSession, stamp: float) -> Event:
    """The draw both players want, in memory: its log entry."""
    session.draw_offer = None
    return service.clocks.end_event(session, Outcome(None, AGREEMENT), stamp)


async def offer_draw(service: GameService, session: GameSession, seat: str) -> None:
    """``seat`` offers a draw (nothing more if its offer stands already; the opponent's
    standing offer is accepted instead). Against the computer, it answers at once."""
    async with session.lock:
        await service.refresh(session)
        side = _checked_offerer(session, seat)
        standing = standing_draw(session)
        if standing == side:
            return
        stamp = service.now()
        if standing is not None:  # both want a draw: it is one
            await service.writer.change(session, lambda: [_agreed(service, session, stamp)])
        else:
            wait = draw_wait(session, side)
            if wait:
                raise GameError(
                    say_n("your draw offer was declined: you may offer again after {n} more "
                          "move", "your draw offer was declined: you may offer again after {n} "
                          "more moves", wait),
                    "draw-wait", 409,
                )  # fmt: skip
            ply = session.ply

            def change() -> list[Event]:
                session.draw_offer = (side, ply)
                return [("draw-offer", {"side": side, "ply": ply})]

            await service.writer.change(session, change)
    await service.announce(session)
    if session.mode == "computer" and standing is None:
        await computer_answers(service, session)


async def answer_draw(service: GameService, session: GameSession, seat: str, accept: bool) -> None:
    """The opponent of a standing draw offer accepts it (the game is drawn) or declines it."""
    async with session.lock:
        await service.refresh(session)
        side = _checked_offerer(session, seat)
        standing = standing_draw(session)
        if standing is None or standing == side:
            raise GameError(NO_OFFER, "no-offer", 409)
        await _answer(service, session, side, standing, accept)
    await service.announce(session)


async def _answer(
    service: GameService, session: GameSession, side: str, offerer: str, accept: bool
) -> None:
    """Write ``side``'s answer to ``offerer``'s standing draw offer (the game's lock held)."""
    stamp = service.now()
    if accept:
        await service.writer.change(session, lambda: [_agreed(service, session, stamp)])
        return
    ply = session.ply

    def change() -> list[Event]:
        session.draw_declined[offerer] = ply
        session.draw_offer = None
        return [("draw-decline", {"side": side, "ply": ply})]

    await service.writer.change(session, change)


async def computer_answers(service: GameService, session: GameSession) -> bool:
    """The computer answers the draw offer standing against it, after a moment (the
    computer's delay): it accepts when it is not winning (``ai.draws``). Whether it answered
    (not if the offer went meanwhile, or the game moved on)."""
    await asyncio.sleep(service.settings.computer_delay)
    async with session.lock:
        await service.refresh(session)
        offerer, machine = standing_draw(session), session.computer_side
        if offerer is None or machine is None or offerer == machine:
            return False
        state, ply = session.record.state, session.ply
    accept = await asyncio.to_thread(accepts_draw, state, machine)
    async with session.lock:
        await service.refresh(session)
        if standing_draw(session) != offerer or session.ply != ply:
            return False
        try:
            await _answer(service, session, machine, offerer, accept)
        except GameError:  # the game ended meanwhile (on time)
            return False
    await service.announce(session)
    return True
