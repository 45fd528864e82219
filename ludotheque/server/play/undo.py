"""Taking moves back: free at one screen and against the computer (never in rated games),
by request and consent between friends."""

from __future__ import annotations

from typing import Any

from ..errors import GameError, say
from .service import GameService
from .session import BOTH, WATCH, Event, GameSession

NO_UNDO_RATED = say("moves are not taken back in a rated game")
NOTHING_TO_UNDO = say("there is no move of yours to take back")


async def undo(service: GameService, session: GameSession, seat: str) -> None:
    """Take back the last move of the seat's side (and what followed). Free at one screen
    and against the computer; in friend games it needs the other player's consent."""
    async with session.lock:
        if seat == WATCH:
            raise GameError(say("watchers cannot undo"),
                            "not-your-seat", 403)  # fmt: skip
        if session.mode == "friend":
            raise GameError(
                say("ask your opponent: undo needs their consent"),
                "ask", 409,
            )  # fmt: skip
        if session.rated:
            raise GameError(NO_UNDO_RATED, "rated", 409)
        sides = session.human_sides() if seat == BOTH else {seat}
        await service.writer.change(session, lambda: [undo_to(session, sides)])
    await service.announce(session)


def undo_to(session: GameSession, sides: set[str]) -> Event:
    """Take back, in memory, the last move of one of ``sides``; the event that logs it."""
    record = session.record
    if record.outcome() is not None:
        raise GameError(
            say("a finished game is final: it cannot be taken back"),
            "game-over", 409,
        )  # fmt: skip
    states = record.states
    plies = record.plies
    mine = [  # a forced pass is not a move one would take back
        i
        for i, (kind, text) in enumerate(plies)
        if kind == "move" and text != "pass" and states[i].to_move in sides
    ]
    if not mine:
        raise GameError(NOTHING_TO_UNDO, "nothing-to-undo", 409)
    count = len(plies) - mine[-1]
    for _ in range(count):
        record.undo()
    session.undo_request = session.draw_offer = None  # an offer stands in a position only
    return ("undo", {"plies": count})


async def request_undo(service: GameService, session: GameSession, seat: str) -> None:
    async with session.lock:
        if session.mode != "friend" or seat not in session.record.game_object.sides:
            raise GameError(
                say("undo requests are for games between friends"),
                "bad-mode", 409,
            )  # fmt: skip
        if session.finished:
            raise GameError(say("the game is over"), "game-over", 409)
        if session.rated:
            raise GameError(NO_UNDO_RATED, "rated", 409)
        states, plies = session.record.states, session.record.plies
        if not any(k == "move" and states[i].to_move == seat for i, (k, _) in enumerate(plies)):
            raise GameError(NOTHING_TO_UNDO, "nothing-to-undo", 409)

        def change() -> list[Event]:
            session.undo_request, session.undo_refused = seat, None
            return [("undo-request", {"side": seat})]

        await service.writer.change(session, change)
    await service.announce(session)


async def answer_undo(service: GameService, session: GameSession, seat: str, accept: Any) -> None:
    async with session.lock:
        asker = session.undo_request
        if asker is None:
            raise GameError(say("nobody asked to undo"),
                            "no-request", 409)  # fmt: skip
        if seat == asker or seat not in session.record.game_object.sides:
            raise GameError(say("only the other player answers"),
                            "not-your-seat", 403)  # fmt: skip
        if not isinstance(accept, bool):
            raise GameError(
                say("answer yes or no (true or false)"),
                "bad-answer", 400,
            )  # fmt: skip

        def change() -> list[Event]:
            session.undo_request = None
            session.undo_refused = None if accept else asker  # the asker is told
            events: list[Event] = [("undo-answer", {"side": seat, "accept": accept})]
            if accept:
                events.append(undo_to(session, {asker}))
            return events

        await service.writer.change(session, change)
    await service.announce(session)
