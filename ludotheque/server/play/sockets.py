"""The WebSocket of a game: a seat's live view, and its actions (``actions.ACTIONS``), each
within its socket's budget (``budget``); refusals are messages in the page's language."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from .. import metrics
from ..accounts.identity import who
from ..clock.jobs import presence
from ..clock.table import watched_presence
from ..errors import DATABASE_DOWN, GameError, say
from ..rating.jobs import sit_down
from ..settings import Settings
from ..store.dberrors import is_database_error
from ..web.guard import RateLimits, origin_allowed, read_json
from .actions import ACTIONS, Seat, perform
from .budget import Budget, kind_of
from .deps import LimitsDep, ServiceDep, SettingsDep, address, get_hub, seat_language
from .hub import Hub
from .service import GameService

log = logging.getLogger("ludotheque.api")
# a peer gone: told by the peer (Disconnect), or found when a send to it failed (Disconnected)
GONE = (WebSocketDisconnect, WebSocketDisconnected)

live = APIRouter()

BAD_ORIGIN = GameError(
    say("this page may not open a game of another site"),
    "bad-origin", 403,
)  # fmt: skip
TOO_MANY_CONNECTIONS = GameError(
    say("too many open games from your address; close some and try again"),
    "too-many-connections", 429,
)  # fmt: skip


BINARY = GameError(
    say("messages are JSON text: binary frames are not read"),
    "binary", 400,
)  # fmt: skip
TOO_FAST = GameError(
    say("you are sending too many messages; wait a moment"),
    "too-fast", 429,
)  # fmt: skip
FLOOD = GameError(
    say("too many messages: the connection is closed"),
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
    person = await who(socket)
    try:
        session, seat = await service.seat_for(token, person.acting_id)
    except GameError as exc:
        await refuse(socket, exc, 4404 if exc.status == 404 else 4400)
        return
    hub.join(session, socket, seat)
    try:
        if person.user is not None and seat in session.record.game_object.sides:
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
            # asked again each time: a seat someone signed in took since belongs to them
            acting = session.acting(seat, person.acting_id)
            await handle(
                socket, Seat(service, session, acting, token), raw, settings, limits, person,
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
        if kind in ("chat", "chat-report", "chat-mute") and person is not None:
            # a line, a report or a mute: answered (``chat-ack``...), or refused with its id
            chat = socket.app.state.chat
            await socket.send_json(await chat.receive(seat.session, seat.seat, person, message))
            return
        action = ACTIONS.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise GameError(
                say("unknown message type {kind!r}",
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
                say("the server could not do this; nothing was changed"),
                "internal", 500,
            )  # fmt: skip
        reply: dict[str, Any] = {
            "type": "error", "code": exc.code, "message": exc.in_language(seat_language(socket)),
        }  # fmt: skip
        retry = exc.retry_after
        if retry is not None:
            reply["retry_after"] = retry
        if isinstance(message, dict) and message.get("id") is not None:
            reply["id"] = message["id"]
        with contextlib.suppress(Exception):
            await socket.send_json(reply)
