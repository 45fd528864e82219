"""The JSON API of games: creating one, a seat's view and its actions (the same table as the
WebSocket's, ``actions.ACTIONS``), and the records. Links are capabilities: a seat's token
opens ``/api/play/<token>``; finished games are public by id."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Body as BodyParam
from fastapi.requests import HTTPConnection
from fastapi.responses import Response
from pydantic import BaseModel, Field

from .. import metrics
from ..accounts.identity import (
    AccountDep,
    refuse_bot_in_browser,
    require_csrf,
    signed_in_request,
    who,
)
from ..accounts.profiles import archive_named
from ..accounts.rules import SIGN_IN_REQUIRED, AccountError
from ..errors import GameError, say
from ..rating.jobs import computer_people
from ..web.guard import RateLimits
from .actions import ACTIONS, Action, Body, Seat, perform
from .deps import LimitsDep, ServiceDep, address
from .schemas import (
    REFUSALS,
    ArchiveEntry,
    Created,
    GameRecord,
    GameView,
    Partial,
    RematchLink,
    documented,
)
from .service import GameService
from .session import BOTH, WATCH, GameSession
from .snapshot import snapshot


class NewGame(BaseModel):
    """A request for a new game."""

    game: str = Field(max_length=32, description="`general`, `backgammon` or `defiance`")
    mode: str = Field(default="local", max_length=16, description="`local`, `computer` or `friend`")
    ruleset: str | None = Field(
        default=None, max_length=32, description="the game's ruleset (default: its first)"
    )
    side: str | None = Field(
        default=None, max_length=16, description="your side against the computer"
    )
    level: str | None = Field(
        default=None, max_length=16,
        description="the computer's level: easy, medium, hard; for the General also perfect",
    )  # fmt: skip
    position: str | None = Field(
        default=None, max_length=2000, description="start from this position string"
    )
    control: str | None = Field(
        default=None, max_length=16, description="a time control, e.g. `5+3`, `3d`"
    )
    rated: bool = Field(
        default=False, description="rated (signed in, against the computer, with a clock)"
    )
    length: int | None = Field(
        default=None, ge=1, le=25, description="backgammon `match`: the match's length"
    )


NOT_PUBLIC = say("only finished games are public")


async def create_game(
    service: GameService, limits: RateLimits, conn: HTTPConnection, spec: NewGame
) -> tuple[Any, dict[str, str], str]:
    """Create a game for a client (counted against its creation limit). A signed-in player
    who plays the computer plays under their name (rated if they asked, with a clock)."""
    limits.check("create", address(conn))
    if spec.mode not in ("local", "computer", "friend"):
        raise GameError(
            say("malformed request: mode: the mode is one of local, computer, friend"),
            "bad-request", 400,
        )  # fmt: skip
    person = getattr(conn.state, "who", None)
    user = person.user if person is not None else None
    if person is not None and person.bot_in_browser:  # a bot plays under its name by its token
        if spec.rated:
            refuse_bot_in_browser(person)
        user = None
    people = await computer_people(conn.app.state.users, spec, user)
    if spec.rated and not people:
        raise AccountError(SIGN_IN_REQUIRED, "sign-in-required", 403)
    created = await service.create(**spec.model_dump(), people=people)
    return created.session, created.seats, created.watch


router = APIRouter()


@router.post(
    "/api/games", status_code=201, response_model=None, tags=["games"],
    responses={201: {"model": Created, "description": "the game and its links"}, **REFUSALS},
)  # fmt: skip
async def api_create(
    request: Request, service: ServiceDep, limits: LimitsDep, spec: NewGame
) -> dict[str, Any]:
    """Create a game: at one screen (`local`), against the computer at a `level`, or between
    friends (one link per side); from the start or a position string; with a clock; rated
    against the computer for a signed-in player."""
    if signed_in_request(request):  # a session cookie authorises it: it must be ours
        request.state.who = await who(request)
        if request.state.who.user is not None:
            require_csrf(request, request.state.who)
    session, seats, watch = await create_game(service, limits, request, spec)
    async with session.lock:
        view = snapshot(session, BOTH if spec.mode != "friend" else WATCH)
    return {
        "id": session.id,
        "seats": {side: f"/play/{token}" for side, token in seats.items()},
        "watch": f"/watch/{watch}",
        "game": view,
    }


@router.get(
    "/api/play/{token}", response_model=None, tags=["games"],
    responses=documented(GameView, "the game as this seat sees it"),
)  # fmt: skip
async def api_state(token: str, service: ServiceDep, account: AccountDep) -> dict[str, Any]:
    """A seat's view of its game (the seat's link is the token: keep it private). A seat
    that belongs to an account acts only for it: anyone else gets the watchers' view."""
    session, seat = await service.seat_for(token, account)
    async with session.lock:
        await service.refresh(session)  # a move just made on another process is in it
        return snapshot(session, seat)


REPLIES = {"state": GameView, "partial": Partial, "rematch": RematchLink}
"""What each kind of action answers (see ``actions.Action.reply``)."""


def _rest(action: Action) -> None:
    async def endpoint(
        token: str, request: Request, service: ServiceDep, limits: LimitsDep,
        account: AccountDep, body: Any = None,
    ) -> dict[str, Any]:  # fmt: skip
        if action.changes:
            limits.check("change", address(request))
        began = time.perf_counter()
        session, seat = await service.seat_for(token, account)
        message: dict[str, Any] | Body = {} if body is None else body
        answer = await perform(action, Seat(service, session, seat, token), message)
        if action.changes:
            metrics.round_trip("http", time.perf_counter() - began)
        return answer

    endpoint.__name__ = f"api_{action.name.replace('-', '_')}"
    endpoint.__doc__ = action.summary
    # the action's own body, documented (FastAPI reads the annotation at registration)
    endpoint.__annotations__["body"] = Annotated[action.body | None, BodyParam()]
    router.add_api_route(
        f"/api/play/{{token}}/{action.name}", endpoint, methods=["POST"], response_model=None,
        tags=["games"], responses=documented(REPLIES[action.reply]),
    )  # fmt: skip


for _action in ACTIONS.values():
    _rest(_action)


RECORD = {
    200: {"model": GameRecord, "description": "the record, as a file to download"},
    **REFUSALS,
}


@router.get("/api/play/{token}/record", response_class=Response, tags=["records"],
            responses=RECORD)  # fmt: skip
async def api_record(token: str, service: ServiceDep) -> Response:
    """The game's record so far (the dice's seed stays secret until the game is over)."""
    session, _ = await service.seat(token)
    return record_response(session)


@router.get("/api/games/{game_id}/record", response_class=Response, tags=["records"],
            responses=RECORD)  # fmt: skip
async def api_public_record(game_id: str, service: ServiceDep) -> Response:
    """A finished game's record, with its dice's seed (anyone may read finished games)."""
    session = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    return record_response(session)


@router.get(
    "/api/games/{game_id}", response_model=None, tags=["records"],
    responses=documented(GameView, "the finished game, as a watcher sees it"),
)  # fmt: skip
async def api_public_state(game_id: str, service: ServiceDep) -> dict[str, Any]:
    """A finished game's view (as a watcher's)."""
    session = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    return snapshot(session, WATCH)


@router.get(
    "/api/archive", response_model=None, tags=["records"],
    responses=documented(list[ArchiveEntry], "finished games, newest first"),
)  # fmt: skip
async def api_archive(service: ServiceDep) -> list[dict[str, Any]]:
    """The archive as JSON: finished games, newest first, with their players' names."""
    return await archive_named(service)


def record_response(session: GameSession) -> Response:
    """A game's record to download; the dice seed is revealed once the game is over."""
    text = session.record.to_json(reveal_seed=session.finished)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{session.game}-{session.id}.json"'},
    )


# -- live ---------------------------------------------------------------------------------
