"""This process's open WebSockets on games: who holds which seat, and what each was last
told of its game's history (so that a move sends each socket only what it lacks)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine
from typing import Any

from fastapi import WebSocket

from ..clock.jobs import presence
from ..clock.table import watched_presence
from .service import GameService
from .session import GameSession
from .snapshot import since, snapshot

log = logging.getLogger("ludotheque.api")


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
        for seat in set(self.rooms.get(session.id, {}).values()):
            if seat in session.presence and watched_presence(session, seat):
                self.later(presence(self.service, session, seat, True))
