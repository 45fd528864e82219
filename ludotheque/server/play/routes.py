"""The JSON API of games: creating one, a seat's view and its actions (the same table as the
WebSocket's, ``actions.ACTIONS``), and the records. Links are capabilities: a seat's token
opens ``/api/play/<token>``; finished games are public by id."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.requests import HTTPConnection
from fastapi.responses import Response
from pydantic import BaseModel, Field

from .. import metrics
from ..accounts.identity import require_csrf, signed_in_request, who
from ..accounts.profiles import archive_named
from ..accounts.rules import SIGN_IN_REQUIRED, AccountError
from ..errors import GameError, say
from ..rating.jobs import computer_people
from ..web.guard import RateLimits, read_json
from .actions import ACTIONS, Action, Seat, perform, validated
from .deps import LimitsDep, ServiceDep, SettingsDep, address
from .service import GameService
from .session import BOTH, WATCH, GameSession
from .snapshot import snapshot


class NewGame(BaseModel):
    """A request for a new game."""

    game: str = Field(max_length=32)
    mode: str = Field(default="local", max_length=16)
    ruleset: str | None = Field(default=None, max_length=32)
    side: str | None = Field(default=None, max_length=16)
    level: str | None = Field(default=None, max_length=16)
    position: str | None = Field(default=None, max_length=2000)
    control: str | None = Field(default=None, max_length=16)  # a time control ("5+3")
    rated: bool = False  # against the computer, signed in, with a clock
    length: int | None = Field(default=None, ge=1, le=25)  # backgammon's match to N points


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
    people = await computer_people(conn.app.state.users, spec, user)
    if spec.rated and not people:
        raise AccountError(SIGN_IN_REQUIRED, "sign-in-required", 403)
    created = await service.create(**spec.model_dump(), people=people)
    return created.session, created.seats, created.watch


router = APIRouter()


@router.post("/api/games", status_code=201)
async def api_create(
    request: Request, service: ServiceDep, limits: LimitsDep, settings: SettingsDep
) -> dict[str, Any]:
    message = read_json(await request.body(), settings.max_body, settings.max_depth)
    spec = validated(NewGame, message)
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


@router.get("/api/play/{token}")
async def api_state(token: str, service: ServiceDep) -> dict[str, Any]:
    session, seat = await service.seat(token)
    async with session.lock:
        await service.refresh(session)  # a move just made on another process is in it
        return snapshot(session, seat)


def _rest(action: Action) -> None:
    async def endpoint(
        token: str, request: Request, service: ServiceDep, limits: LimitsDep,
        settings: SettingsDep,
    ) -> dict[str, Any]:  # fmt: skip
        message = read_json(await request.body(), settings.max_body, settings.max_depth)
        if action.changes:
            limits.check("change", address(request))
        began = time.perf_counter()
        session, seat = await service.seat(token)
        answer = await perform(action, Seat(service, session, seat, token), message)
        if action.changes:
            metrics.round_trip("http", time.perf_counter() - began)
        return answer

    endpoint.__name__ = f"api_{action.name.replace('-', '_')}"
    router.add_api_route(f"/api/play/{{token}}/{action.name}", endpoint, methods=["POST"])


for _action in ACTIONS.values():
    _rest(_action)


@router.get("/api/play/{token}/record")
async def api_record(token: str, service: ServiceDep) -> Response:
    session, _ = await service.seat(token)
    return record_response(session)


@router.get("/api/games/{game_id}/record")
async def api_public_record(game_id: str, service: ServiceDep) -> Response:
    session = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    return record_response(session)


@router.get("/api/games/{game_id}")
async def api_public_state(game_id: str, service: ServiceDep) -> dict[str, Any]:
    session = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    return snapshot(session, WATCH)


@router.get("/api/archive")
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
