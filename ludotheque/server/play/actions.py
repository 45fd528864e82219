"""One table of the things a seat can do, shared by the REST routes and the WebSocket.

Each action names its message body (a pydantic model: the same validation on both paths),
whether it changes the game (changes count against the per-address rate limit), and what it
answers: the seat's new view (``state``; over the WebSocket the broadcast brings it), a part
of a turn (``partial``), or the rematch's link (``rematch``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from ..clock.jobs import check_flag, claim
from ..errors import GameError, say
from .agreements import abort, answer_draw, offer_draw
from .rematch import decline_rematch, rematch
from .service import GameService
from .session import WATCH, GameSession
from .snapshot import snapshot
from .undo import answer_undo, request_undo, undo


class Body(BaseModel):
    """A message body; unknown fields (``type``, ``id``) are ignored."""

    model_config = ConfigDict(extra="ignore")


class MoveBody(Body):
    """A move."""

    move: StrictStr = Field(
        max_length=400, description="the move in the game's notation, e.g. `a2-b2`, `13/7 8/7`"
    )
    ply: StrictInt = Field(description="the game's `ply` the move answers (stale ones are refused)")


class PartialBody(Body):
    """Part of a turn: backgammon's single checker moves so far, or a Defiance action."""

    steps: list[list[StrictInt]] | None = Field(
        default=None, max_length=4, description="backgammon: the checker moves so far, "
        "each `[from, to, die]` in the mover's numbering (25 the bar, 0 off)",
    )  # fmt: skip
    action: StrictStr | None = Field(
        default=None, max_length=20, description="Defiance: the action chosen so far"
    )


class AnswerBody(Body):
    """An answer to an offer."""

    accept: StrictBool = Field(description="true to accept, false to refuse")


@dataclass(frozen=True)
class Seat:
    """Who asks: the game, their seat in it, and the token that opened it."""

    service: GameService
    session: GameSession
    seat: str
    token: str


Run = Callable[[Seat, Any], Awaitable[dict[str, Any] | None]]


@dataclass(frozen=True)
class Action:
    name: str
    body: type[Body]
    run: Run
    changes: bool = True
    reply: str = "state"
    summary: str = ""  # what it does, for the API's documentation


async def _move(s: Seat, body: MoveBody) -> None:
    await s.service.play(s.session, s.seat, body.move, body.ply)


async def _partial(s: Seat, body: PartialBody) -> dict[str, Any]:
    return s.service.partial(s.session, s.seat, body.model_dump(exclude_none=True))


async def _undo(s: Seat, _body: Body) -> None:
    await undo(s.service, s.session, s.seat)


async def _undo_request(s: Seat, _body: Body) -> None:
    await request_undo(s.service, s.session, s.seat)


async def _undo_answer(s: Seat, body: AnswerBody) -> None:
    await answer_undo(s.service, s.session, s.seat, body.accept)


async def _resign(s: Seat, _body: Body) -> None:
    await s.service.resign(s.session, s.seat)


async def _claim(s: Seat, _body: Body) -> None:
    await claim(s.service, s.session, s.seat)


async def _flag(s: Seat, _body: Body) -> None:
    """Anyone on the game may say that a clock reached zero: the server looks at its own."""
    await check_flag(s.service, s.session)


async def _abort(s: Seat, _body: Body) -> None:
    await abort(s.service, s.session, s.seat)


async def _draw_offer(s: Seat, _body: Body) -> None:
    await offer_draw(s.service, s.session, s.seat)


async def _draw_answer(s: Seat, body: AnswerBody) -> None:
    await answer_draw(s.service, s.session, s.seat, body.accept)


async def _rematch(s: Seat, _body: Body) -> dict[str, Any]:
    made = await rematch(s.service, s.session, s.seat, s.token)
    if made is None:  # an offer: it waits for the other player
        return {"url": None, "id": None, "waiting": True}
    new, token = made
    page = "watch" if s.seat == WATCH else "play"  # a watcher follows the rematch as one
    return {"url": f"/{page}/{token}", "id": new.id, "waiting": False}


async def _rematch_decline(s: Seat, _body: Body) -> None:
    await decline_rematch(s.service, s.session, s.seat)


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action("move", MoveBody, _move, summary="Play a move in the game's notation, quoting "
               "the ply it answers (a stale move is refused)."),
        Action("partial", PartialBody, _partial, changes=False, reply="partial",
               summary="Part of a turn (backgammon's checkers one by one, Defiance's action "
               "before its Command move): what may follow."),
        Action("undo", Body, _undo, summary="Take back your last move (at one screen or "
               "against the computer; not in rated games)."),
        Action("undo-request", Body, _undo_request, summary="Ask your opponent to let you take "
               "back your last move (between friends)."),
        Action("undo-answer", AnswerBody, _undo_answer, summary="Answer your opponent's undo "
               "request."),
        Action("resign", Body, _resign, summary="Resign the game."),
        Action("abort", Body, _abort, summary="Call the game off before your first move (no "
               "result, never rated)."),
        Action("draw-offer", Body, _draw_offer, summary="Offer a draw (the General and "
               "Defiance); it stands until your opponent answers or moves. Offering while "
               "your opponent's offer stands accepts it."),
        Action("draw-answer", AnswerBody, _draw_answer, summary="Accept or decline the draw "
               "your opponent offered."),
        Action("rematch", Body, _rematch, reply="rematch", summary="Ask for the rematch "
               "(sides swapped; the next game of a backgammon match): between two people, "
               "offer it, or accept the offer standing (it is made once both want it); join "
               "it once made."),
        Action("rematch-decline", Body, _rematch_decline, summary="Decline the rematch your "
               "opponent offered."),
        Action("claim", Body, _claim, summary="Claim the game your opponent left (after the "
               "grace period, on your turn)."),
        Action("flag", Body, _flag, summary="Say that the side to move ran out of time (the "
               "server's clock decides)."),
    )
}  # fmt: skip


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], message: dict[str, Any]) -> M:
    """``message`` read as ``model``, or a 400 saying which field is wrong."""
    try:
        return model.model_validate(message)
    except ValidationError as exc:
        raise GameError(
            say("malformed request: {text}", text=describe(exc)),
            "bad-request", 400,
        ) from None  # fmt: skip


def describe(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
        for e in exc.errors()
    )


async def perform(
    action: Action, seat: Seat, message: dict[str, Any] | Body, *, view: bool = True
) -> dict[str, Any]:
    """Do ``action`` for ``seat`` with ``message`` (its body, read already or to read); the
    answer (for ``state`` actions, the seat's new view, or nothing when ``view`` is false: a
    socket gets it with the broadcast anyway)."""
    if isinstance(message, action.body):
        body = message
    else:
        body = validated(action.body, message if isinstance(message, dict) else dict(message))
    result = await action.run(seat, body)
    if action.reply == "state":
        if not view:
            return {}
        async with seat.session.lock:
            return snapshot(seat.session, seat.seat)
    assert result is not None
    return result
