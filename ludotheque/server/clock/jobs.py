"""What a game's clock does to the game on its own: the end on time (checked when a client
sees a clock reach zero, and by a ``clock`` job at the deadline), and a player who left: their
going and coming back, and the claim their opponent may make after the grace period.

``can_win`` may search for a tenth of a second: it runs in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import GameError
from ..play.rematch import lapse_rematch
from ..play.service import GameService
from ..play.session import Event, GameSession
from .controls import Clock, can_claim, claim_outcome
from .table import (
    NO_CLAIM,
    control_of,
    end_event,
    flagged,
    moves_left,
    running_side,
    watched_presence,
)


async def check_flag(service: GameService, session: GameSession) -> bool:
    """End the game if the side to move has run out of time (a client saw its clock reach
    zero, or a clock job came due); whether it ended. Idempotent."""
    async with session.lock:
        await service.refresh(session)
        stamp = service.now()
        late = await flagged(session, stamp)
        if late is None:
            return False
        await service.apply(session, lambda: [end_event(session, *late)], stamp=stamp)
    await service.announce(session)
    return True


async def clock_job(
    service: GameService, game_id: str, seq: int, done: Any
) -> tuple[str, float | None]:
    """A ``clock`` job for the clock set at log place ``seq``: end the game if its flag fell
    (``done`` closes the job in the same transaction). Returns ``("ended", None)``,
    ``("obsolete", None)`` (a later change set the clock again, or the game is over) or
    ``("early", deadline)`` (the deadline has not come: the job is to wait until then)."""
    session = await service.get(game_id)
    async with session.lock:
        await service.refresh(session)
        clock: Clock | None = session.clock
        if session.finished or clock is None or session.clock_seq > seq:
            return "obsolete", None
        stamp = service.now()
        late = await flagged(session, stamp)
        if late is None:
            return "early", clock.deadline()
        await service.apply(session, lambda: [end_event(session, *late)], done, stamp=stamp)
    await service.announce(session)
    return "ended", None


# -- leaving and claiming ----------------------------------------------------------------------


async def presence(service: GameService, session: GameSession, side: str, here: bool) -> None:
    """Write down that ``side``'s player came back (``here``) or left (nothing if the log
    already says so)."""
    async with session.lock:
        await service.refresh(session)
        if not watched_presence(session, side) or (side in session.presence) != here:
            return
        stamp = service.now()

        def change() -> list[Event]:
            if here:
                session.presence.pop(side, None)
                return [("back", {"side": side})]
            session.presence[side] = stamp
            return [("gone", {"side": side, "at": stamp})]

        try:
            await service.change(session, change)
        except GameError:  # the game ended meanwhile (on time, or elsewhere)
            return
    await service.announce(session)
    if not here and session.finished:  # a rematch offer lapses if they stay away
        await lapse_rematch(service, session)


async def claim(service: GameService, session: GameSession, seat: str) -> None:
    """``seat`` claims the game its opponent left: a win (a draw if the claimer cannot win),
    once the opponent has been away for the grace period, on move."""
    async with session.lock:
        await service.refresh(session)
        sides = session.record.game_object.sides
        if session.mode != "friend" or seat not in sides or session.finished:
            raise GameError(NO_CLAIM, "no-claim", 409)
        gone = session.record.game_object.opponent(seat)
        stamp = service.now()
        to_move = running_side(session)
        if not can_claim(
            control_of(session), gone=gone, to_move=to_move,
            gone_since=session.presence.get(gone), now=stamp,
        ):  # fmt: skip
            raise GameError(NO_CLAIM, "no-claim", 409)
        state = session.record.state
        left = moves_left(session)
        outcome = await asyncio.to_thread(claim_outcome, state, seat, moves_left=left)

        def change() -> list[Event]:
            kind, data = end_event(session, outcome, stamp)
            session.ended_by = seat  # the claimer: the other player is the one who left
            return [(kind, {**data, "by": seat})]

        await service.change(session, change)
    await service.announce(session)
