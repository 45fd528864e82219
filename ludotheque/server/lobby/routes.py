"""The lobby's page, its JSON API, its WebSocket, and the ways back into a lobby game.

Posting, accepting, withdrawing and declining seeks are POSTs that a cookie authorises (the
session, or an anonymous visitor's cookie): each needs the page's CSRF token in the
``X-CSRF-Token`` header. The WebSocket only listens (its origin is checked as the games' are).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select

from .. import metrics
from ..accounts.identity import Who, refuse_bot_in_browser, require_csrf, who
from ..bots.seats import check_room
from ..errors import GameError, say
from ..play.budget import Budget
from ..play.deps import LimitsDep, address
from ..play.hub import Hub
from ..play.schemas import REFUSALS, documented
from ..play.service import GameService
from ..play.session import BOTH, WATCH
from ..play.sockets import GONE, TOO_MANY_CONNECTIONS, over_budget, receive_text, refuse
from ..rating.ranking import RATED_RULESETS
from ..store.db import GameRow, PlayerRow, SeatRow, token_hash
from ..web.guard import origin_allowed
from ..web.pages import error_page, looking, page, presets
from .lobby import Lobby, seat_token
from .pairing import BASE_WINDOW, MAX_RATED_WINDOW, WIDENING
from .schemas import Accepted, Done, LobbyView, SeekPosted

router = APIRouter()
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")  # what a username may look like (rules)
NOT_YOUR_GAME = say("this game is not yours to play")


def get_lobby(request: Request) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


LobbyDep = Annotated[Lobby, Depends(get_lobby)]
WhoNow = Annotated[Who, Depends(who)]


class SeekBody(BaseModel):
    """A new seek (see ``Lobby.post``)."""

    kind: str = Field(default="open", max_length=8)
    game: str = Field(max_length=32)
    ruleset: str | None = Field(default=None, max_length=32)
    control: str | None = Field(default=None, max_length=16)
    rated: bool = False
    side: str | None = Field(default=None, max_length=16)
    opponent: str | None = Field(default=None, max_length=40)


@router.get(
    "/lobby", response_class=HTMLResponse, dependencies=[Depends(looking)],
    include_in_schema=False,
)  # fmt: skip
async def lobby_page(request: Request, challenge: str = "") -> HTMLResponse:
    """The lobby; ``?challenge=<name>`` (a profile's Challenge button) fills the form's
    opponent with that player, for the visitor to choose the game and post it."""
    games = [{"name": g, "rulesets": list(r)} for g, r in RATED_RULESETS.items()]
    name = challenge.strip()[:40] if NAME.fullmatch(challenge.strip()) else None
    window = {"base": round(BASE_WINDOW), "step": round(WIDENING), "most": round(MAX_RATED_WINDOW)}
    return page(request, "lobby.html", games=games, presets=presets(), challenge=name,
                window=window)  # fmt: skip


@router.get(
    "/api/lobby", response_model=None, tags=["lobby"],
    responses=documented(LobbyView, "the lobby as this visitor sees it"),
)  # fmt: skip
async def api_lobby(request: Request, lobby: LobbyDep, person: WhoNow) -> dict[str, Any]:
    """What the lobby page shows to this visitor, read now."""
    await lobby.refresh(games=True)
    return lobby.view(person)


@router.post(
    "/api/lobby/seeks", status_code=201, response_model=None, tags=["lobby"],
    responses={201: {"model": SeekPosted, "description": "the seek is open"}, **REFUSALS},
)  # fmt: skip
async def api_seek(
    request: Request, lobby: LobbyDep, person: WhoNow, limits: LimitsDep, body: SeekBody
) -> dict[str, Any]:
    """Seek a game: an open challenge, one to a named player, or quick pairing (needs the
    `X-CSRF-Token` header of `/api/me`)."""
    require_csrf(request, person)
    refuse_bot_in_browser(person)
    limits.check("create", address(request))
    await check_room(lobby.service, person.user)  # a bot's games at once
    return await lobby.post(person, body.model_dump())


@router.post(
    "/api/lobby/seeks/{seek_id}/accept", response_model=None, tags=["lobby"],
    responses=documented(Accepted, "the game is made"),
)  # fmt: skip
async def api_accept(
    request: Request, seek_id: str, lobby: LobbyDep, person: WhoNow, limits: LimitsDep
) -> dict[str, Any]:
    require_csrf(request, person)
    refuse_bot_in_browser(person)
    limits.check("create", address(request))
    await check_room(lobby.service, person.user)
    game_id = await lobby.accept(person, seek_id[:40])
    return {"id": game_id, "url": f"/resume/{game_id}"}


@router.post(
    "/api/lobby/seeks/{seek_id}/cancel", response_model=None, tags=["lobby"],
    responses=documented(Done, "withdrawn"),
)  # fmt: skip
async def api_cancel(
    request: Request, seek_id: str, lobby: LobbyDep, person: WhoNow
) -> dict[str, Any]:
    require_csrf(request, person)
    await lobby.cancel(person, seek_id[:40])
    return {"ok": True}


@router.post(
    "/api/lobby/seeks/{seek_id}/decline", response_model=None, tags=["lobby"],
    responses=documented(Done, "declined"),
)  # fmt: skip
async def api_decline(
    request: Request, seek_id: str, lobby: LobbyDep, person: WhoNow
) -> dict[str, Any]:
    require_csrf(request, person)
    await lobby.decline(person, seek_id[:40])
    return {"ok": True}


async def _seat_link(request: Request, game_id: str, person: Who) -> str | None:
    """The seat link of ``person`` in a game they play (made and registered on demand),
    else the watch link of a lobby game, else ``None``."""
    service: GameService = request.app.state.service
    secret: bytes = request.app.state.secret
    if not isinstance(game_id, str) or len(game_id) > 32:
        return None

    def find() -> tuple[str | None, bool]:
        with service.sessions() as db:
            game = db.get(GameRow, game_id)
            if game is None:
                return None, False
            mine = None
            if person.user is not None or person.visitor is not None:
                condition = (
                    PlayerRow.user_id == person.user.id if person.user is not None
                    else PlayerRow.visitor == person.visitor
                )  # fmt: skip
                mine = db.scalar(
                    select(PlayerRow.side).where(PlayerRow.game_id == game_id, condition)
                )
            if mine is not None and game.mode in ("friend", "computer"):
                seat = mine if game.mode == "friend" else BOTH
                token = seat_token(secret, game_id, seat)
                if db.get(SeatRow, token_hash(token)) is None:  # made on demand (a rematch)
                    db.add(SeatRow(token_sha256=token_hash(token), game_id=game_id, side=seat))
                    with contextlib.suppress(Exception):
                        db.commit()
                return f"/play/{token}", True
            if game.public:
                return f"/watch/{seat_token(secret, game_id, WATCH)}", False
            return None, False

    link, _mine = await service.run_db(find)
    return link


@router.get("/resume/{game_id}", dependencies=[Depends(looking)], include_in_schema=False)
async def resume(request: Request, game_id: str) -> Response:
    """Back to a game one plays (a lobby game, or a rated one): their seat, found through
    their account or visitor cookie; a lobby game's watchers' page for anyone else."""
    link = await _seat_link(request, game_id, request.state.who)
    if link is None:
        return error_page(request, GameError(NOT_YOUR_GAME, "not-found", 404))
    return RedirectResponse(link, status_code=303)


@router.get("/live/{game_id}", dependencies=[Depends(looking)], include_in_schema=False)
async def live_game(request: Request, game_id: str) -> Response:
    """Watch a lobby game (its players are sent to their seat instead)."""
    return await resume(request, game_id)


@router.websocket("/ws/lobby")
async def lobby_socket(socket: WebSocket) -> None:
    """The lobby's live list: a ``lobby`` message whenever it changes, ``start`` (with the
    game's address) when a game was made for this visitor."""
    settings = socket.app.state.settings
    lobby: Lobby = socket.app.state.lobby
    hub: Hub = socket.app.state.hub
    await socket.accept()
    if not origin_allowed(socket.headers, settings.allowed_origins):
        await socket.close(code=4403)
        return
    where = f"lobby {address(socket)}"  # counted apart from the games' sockets
    cap = settings.connections_per_address
    if cap and hub.per_address.get(where, 0) >= cap:
        await refuse(socket, TOO_MANY_CONNECTIONS, 4429)
        return
    hub.per_address[where] = hub.per_address.get(where, 0) + 1
    metrics.socket_opened("lobby")
    try:
        person = await who(socket)
        if person.fresh_binding:  # no cookie: nobody to pair (the page sets it first)
            person = Who(None, None, None)
        lobby.joined(socket, person)
        try:
            await lobby.refresh(games=True)
            await socket.send_json(lobby.view(person))
            budget = Budget()
            while True:
                raw = await receive_text(socket)
                if not budget.allow("ping"):  # the page only pings
                    await over_budget(socket, budget)
                elif raw.strip() == '{"type":"ping"}':
                    await socket.send_json({"type": "pong"})
                await asyncio.sleep(0)
        except GONE:
            pass
        finally:
            lobby.left(socket)
    finally:
        metrics.socket_closed("lobby")
        left = hub.per_address.get(where, 1) - 1
        if left > 0:
            hub.per_address[where] = left
        else:
            hub.per_address.pop(where, None)
