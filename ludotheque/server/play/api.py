"""The JSON API and the WebSocket: both run the actions of ``actions.ACTIONS``.

Links are capabilities: a seat's token opens ``/api/play/<token>`` and ``/ws/<token>``;
finished games are public by id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from fastapi.requests import HTTPConnection
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnected

from .. import metrics
from ..i18n.languages import pick_language
from ..settings import Settings
from ..store.dberrors import is_database_error
from ..web.guard import RateLimits, origin_allowed, read_json
from .actions import ACTIONS, Action, Seat, perform, validated
from .budget import Budget, kind_of
from .service import (
    BOTH,
    DATABASE_DOWN,
    WATCH,
    GameError,
    GameService,
    GameSession,
    Text,
    say,
)
from .snapshot import since, snapshot

log = logging.getLogger("ludotheque.api")
# a peer gone: told by the peer (Disconnect), or found when a send to it failed (Disconnected)
GONE = (WebSocketDisconnect, WebSocketDisconnected)


def get_service(conn: HTTPConnection) -> GameService:
    return conn.app.state.service  # type: ignore[no-any-return]


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings  # type: ignore[no-any-return]


def get_limits(conn: HTTPConnection) -> RateLimits:
    return conn.app.state.limits  # type: ignore[no-any-return]


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub  # type: ignore[no-any-return]


def address(conn: HTTPConnection) -> str:
    """The client's address (behind a proxy, uvicorn's ``--forwarded-allow-ips`` sets it)."""
    return conn.client.host if conn.client else "unknown"


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LimitsDep = Annotated[RateLimits, Depends(get_limits)]


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


NOT_PUBLIC = Text("only finished games are public", "seules les parties finies sont publiques")


def seat_language(conn: HTTPConnection) -> str:
    """The language of the page that made the request (its cookie, else the browser's)."""
    return pick_language(conn.cookies.get("lang"), conn.headers.get("accept-language"))


async def create_game(
    service: GameService, limits: RateLimits, conn: HTTPConnection, spec: NewGame
) -> tuple[Any, dict[str, str], str]:
    """Create a game for a client (counted against its creation limit). A signed-in player
    who plays the computer plays under their name (rated if they asked, with a clock)."""
    limits.check("create", address(conn))
    if spec.mode not in ("local", "computer", "friend"):
        raise GameError(
            say("malformed request: mode: the mode is one of local, computer, friend",
                "requête mal formée : le mode est l'un de local, computer, friend"),
            "bad-request", 400,
        )  # fmt: skip
    from ..rating.ranking import computer_people

    person = getattr(conn.state, "who", None)
    user = person.user if person is not None else None
    people = await computer_people(conn.app.state.users, spec, user)
    if spec.rated and not people:
        from ..accounts.rules import SIGN_IN_REQUIRED, AccountError

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
    from ..accounts.identity import require_csrf, signed_in_request, who

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
    from ..web.pages import archive_named

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


class Hub:
    """This process's open WebSockets: by game (with each one's seat) and by address, and
    what each socket was last told of its game's history (so a move sends only what is new)."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[WebSocket, str]] = {}
        self.per_address: dict[str, int] = {}
        self.known: dict[WebSocket, tuple[int, int]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.service: GameService | None = None  # set by the app (for players coming back)

    def join(self, session: GameSession, socket: WebSocket, seat: str) -> None:
        self.rooms.setdefault(session.id, {})[socket] = seat
        session.clients += 1

    def seated(self, session: GameSession, seat: str) -> int:
        """How many of this process's sockets hold ``seat`` of the game."""
        return sum(1 for s in self.rooms.get(session.id, {}).values() if s == seat)

    def send_later(self, socket: WebSocket, text: str) -> None:
        """Send ``text`` to ``socket`` without waiting (a closed socket is left alone)."""

        async def send() -> None:
            with contextlib.suppress(Exception):
                await socket.send_text(text)

        self.later(send())

    def later(self, work: Coroutine[Any, Any, None]) -> None:
        """Do ``work`` in a task of its own (kept until done; a failure is logged)."""

        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("a background task of the hub failed")

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def leave(self, session: GameSession, socket: WebSocket) -> None:
        room = self.rooms.get(session.id, {})
        if room.pop(socket, None) is not None:
            session.clients -= 1
        self.known.pop(socket, None)
        if not room:
            self.rooms.pop(session.id, None)

    def view(self, session: GameSession, socket: WebSocket, seat: str) -> dict[str, Any]:
        """The whole view for ``socket`` (on connecting, on ``sync``), remembered as told."""
        view = snapshot(session, seat)
        self.known[socket] = (session.history_epoch, len(view["history"]))
        return {"type": "state", "game": view}

    async def broadcast(self, session: GameSession) -> None:
        """Send each socket on the game its seat's view, with only the history it lacks (one
        view computed per seat, one message encoded per seat and history length)."""
        views: dict[str, dict[str, Any]] = {}
        messages: dict[tuple[str, tuple[int, int] | None], str] = {}
        for socket, seat in list(self.rooms.get(session.id, {}).items()):
            if seat not in views:
                async with session.lock:
                    views[seat] = snapshot(session, seat)
            view = views[seat]
            known = self.known.get(socket)
            key = (seat, known)
            if key not in messages:
                part = since(view, session.history_epoch, known)
                messages[key] = json.dumps(
                    {"type": "state", "game": part}, ensure_ascii=False, separators=(",", ":")
                )
            try:
                await socket.send_text(messages[key])
                self.known[socket] = (session.history_epoch, len(view["history"]))
            except Exception:  # a closed connection: it will reconnect and catch up
                self.leave(session, socket)
        self._still_here(session)

    def _still_here(self, session: GameSession) -> None:
        """A player the log says is away but who has a socket here is back (their other
        page closed on another process, or closed here just as this one opened)."""
        if not session.presence or self.service is None:
            return
        from ..clock.table import presence, watched_presence

        for seat in set(self.rooms.get(session.id, {}).values()):
            if seat in session.presence and watched_presence(session, seat):
                self.later(presence(self.service, session, seat, True))


live = APIRouter()

BAD_ORIGIN = GameError(
    say("this page may not open a game of another site",
        "cette page ne peut pas ouvrir une partie d'un autre site"),
    "bad-origin", 403,
)  # fmt: skip
TOO_MANY_CONNECTIONS = GameError(
    say("too many open games from your address; close some and try again",
        "trop de parties ouvertes depuis votre adresse ; fermez-en et réessayez"),
    "too-many-connections", 429,
)  # fmt: skip


BINARY = GameError(
    say("messages are JSON text: binary frames are not read",
        "les messages sont du texte JSON : les trames binaires ne sont pas lues"),
    "binary", 400,
)  # fmt: skip
TOO_FAST = GameError(
    say("you are sending too many messages; wait a moment",
        "vous envoyez trop de messages ; attendez un instant"),
    "too-fast", 429,
)  # fmt: skip
FLOOD = GameError(
    say("too many messages: the connection is closed",
        "trop de messages : la connexion est fermée"),
    "flood", 429,
)  # fmt: skip
UNSUPPORTED_DATA = 1003
POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


async def refuse(socket: WebSocket, error: GameError, close_code: int) -> None:
    """Tell an accepted socket why it is refused, in its page's language, and close it
    (quietly if it is gone already)."""
    message = error.in_language(seat_language(socket))
    with contextlib.suppress(*GONE, RuntimeError):
        await socket.send_json({"type": "error", "code": error.code, "message": message})
        await socket.close(code=close_code)


async def receive_text(socket: WebSocket) -> str:
    """The next text message; a peer that leaves raises ``WebSocketDisconnect``, and so does
    a binary frame, once the socket is closed with 1003 (unsupported data) and told why."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code") or 1000, message.get("reason"))
    text = message.get("text")
    if not isinstance(text, str):
        await refuse(socket, BINARY, UNSUPPORTED_DATA)
        raise WebSocketDisconnect(UNSUPPORTED_DATA)
    return text


async def over_budget(socket: WebSocket, budget: Budget, message_id: Any = None) -> None:
    """A message over its socket's budget is dropped; the sender is told (once a second),
    and a socket that keeps at it is closed with 1008 (policy violation)."""
    metrics.refused("flood")
    if budget.abusive:
        await refuse(socket, FLOOD, POLICY_VIOLATION)
        raise WebSocketDisconnect(POLICY_VIOLATION)
    if budget.tell():
        reply: dict[str, Any] = {
            "type": "error", "code": TOO_FAST.code,
            "message": TOO_FAST.in_language(seat_language(socket)),
        }  # fmt: skip
        if message_id is not None:
            reply["id"] = message_id
        with contextlib.suppress(*GONE):
            await socket.send_json(reply)


@live.websocket("/ws/{token}")
async def websocket(
    socket: WebSocket, token: str, service: ServiceDep, settings: SettingsDep,
    limits: LimitsDep,
) -> None:  # fmt: skip
    hub = get_hub(socket)
    if not origin_allowed(socket.headers, settings.allowed_origins):
        await socket.accept()
        await refuse(socket, BAD_ORIGIN, 4403)
        return
    where = address(socket)
    if (
        settings.connections_per_address
        and hub.per_address.get(where, 0) >= settings.connections_per_address
    ):
        await socket.accept()
        await refuse(socket, TOO_MANY_CONNECTIONS, 4429)
        return
    await socket.accept()
    hub.per_address[where] = hub.per_address.get(where, 0) + 1
    metrics.socket_opened("game")
    try:
        await _serve_socket(socket, token, service, settings, limits, hub)
    except Exception as exc:
        if not is_database_error(exc):
            raise
        log.warning("the database failed a socket: %s",
                    f"{type(exc).__name__}: {exc}".splitlines()[0][:200])  # fmt: skip
        await refuse(socket, GameError(DATABASE_DOWN, "unavailable", 503), TRY_AGAIN_LATER)
    finally:
        metrics.socket_closed("game")
        left = hub.per_address.get(where, 1) - 1
        if left > 0:
            hub.per_address[where] = left
        else:
            hub.per_address.pop(where, None)


async def _serve_socket(
    socket: WebSocket, token: str, service: GameService, settings: Settings,
    limits: RateLimits, hub: Hub,
) -> None:  # fmt: skip
    """A game's socket, once accepted: its first view, then its messages until it leaves."""
    try:
        session, seat = await service.seat(token)
    except GameError as exc:
        await refuse(socket, exc, 4404 if exc.status == 404 else 4400)
        return
    from ..accounts.identity import who
    from ..clock.table import presence, watched_presence

    person = await who(socket)
    hub.join(session, socket, seat)
    try:
        if person.user is not None and seat in session.record.game_object.sides:
            from ..rating.ranking import sit_down

            with contextlib.suppress(GameError):  # (someone sat down first)
                await sit_down(service, session, seat, person.user.id)  # their name
        if hub.seated(session, seat) == 1 and seat in session.presence:
            await presence(service, session, seat, True)  # the player is back
        async with session.lock:
            await service.refresh(session)  # a change this process missed is in it
            first = hub.view(session, socket, seat)
        await socket.send_json(first)
        chat = socket.app.state.chat
        talk = await chat.history(session, seat, person)
        if talk is not None:
            await socket.send_json(talk)
        budget = Budget()
        while True:
            raw = await receive_text(socket)
            if not budget.allow("any"):
                await over_budget(socket, budget)
                continue
            await handle(
                socket, Seat(service, session, seat, token), raw, settings, limits, person,
                budget,
            )  # fmt: skip
            await asyncio.sleep(0)  # a busy socket leaves the others their turn
    except GONE:
        pass
    finally:
        hub.leave(session, socket)
        if hub.seated(session, seat) == 0 and watched_presence(session, seat):
            # the player left: written by a task of its own (this one may be cancelled
            # with its socket)
            hub.later(presence(service, session, seat, False))


async def handle(
    socket: WebSocket,
    seat: Seat,
    raw: str,
    settings: Settings,
    limits: RateLimits,
    person: Any = None,
    budget: Budget | None = None,
) -> None:
    """One message from a socket: an action, ``sync``, ``ping`` or ``chat`` (a message in the
    seat's chat, from ``person``), within the socket's ``budget``; refusals are messages."""
    message: dict[str, Any] = {}
    try:
        try:
            message = read_json(raw, settings.max_message, settings.max_depth)
        except GameError:
            if budget is not None and not budget.allow("other"):
                await over_budget(socket, budget)
                return
            raise
        kind = message.get("type")
        if budget is not None:
            action_of = ACTIONS.get(kind) if isinstance(kind, str) else None
            spent = kind_of(kind, None if action_of is None else action_of.changes)
            if not budget.allow(spent):
                await over_budget(socket, budget, message.get("id"))
                return
        if kind == "sync":  # what the database holds now, whatever this process heard
            async with seat.session.lock:
                await seat.service.refresh(seat.session)
                view = get_hub(socket).view(seat.session, socket, seat.seat)
            await socket.send_json(view)
            return
        if kind == "ping":
            await socket.send_json({"type": "pong"})
            return
        if kind == "chat" and person is not None:
            chat = socket.app.state.chat
            await chat.send(seat.session, seat.seat, person, message.get("text"))
            return
        action = ACTIONS.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise GameError(
                say("unknown message type {kind!r}", "type de message inconnu {kind!r}",
                    kind=str(kind)[:40]),
                "bad-request", 400,
            )  # fmt: skip
        if action.changes:
            limits.check("change", address(socket))
        began = time.perf_counter()
        result = await perform(action, seat, message, view=False)
        if action.changes:
            metrics.round_trip("socket", time.perf_counter() - began)
        if action.reply == "partial":
            await socket.send_json({"type": "partial", "id": message.get("id"), **result})
        elif action.reply == "rematch":
            await socket.send_json({"type": "rematch", **result})
        # a state reply comes to every socket of the game with the broadcast
    except GONE:
        raise
    except Exception as exc:
        if isinstance(exc, GameError):
            pass
        elif is_database_error(exc):  # the database is away: said, without a traceback
            log.warning("the database failed a message: %s",
                        f"{type(exc).__name__}: {exc}".splitlines()[0][:200])  # fmt: skip
            exc = GameError(DATABASE_DOWN, "unavailable", 503)
        else:
            log.exception("a message failed: %.200r", raw)
            exc = GameError(
                say("the server could not do this; nothing was changed",
                    "le serveur n'a pas pu le faire ; rien n'a changé"),
                "internal", 500,
            )  # fmt: skip
        reply: dict[str, Any] = {
            "type": "error", "code": exc.code, "message": exc.in_language(seat_language(socket)),
        }  # fmt: skip
        retry = getattr(exc, "retry_after", None)
        if retry is not None:
            reply["retry_after"] = retry
        if isinstance(message, dict) and message.get("id") is not None:
            reply["id"] = message["id"]
        with contextlib.suppress(Exception):
            await socket.send_json(reply)
