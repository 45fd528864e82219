"""The Bot API's two streams, NDJSON over a long HTTP response, fed as the sockets are.

A game stream takes its place among the game's sockets (``Hub.rooms``) on the bot's seat: the
hub's broadcasts and the chat's lines reach it as they reach a page, from any process (the bus
refreshes the game here and the hub tells its members), and an open stream counts as the
player being there (a bot whose stream closes has left, as a page that closes). The event
stream takes its place among the lobby's pages (``Lobby.sockets``): its challenges live while
it is open, the lobby's views tell it of challenges, and its ``start`` notices of games made;
it also watches the bot's games (a watcher's seat in their rooms) to tell when they end,
and counts as a page open for the lobby's list of who is online.
A line of nothing goes every ``KEEPALIVE`` seconds, as lichess's streams do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from ..accounts.identity import Who
from ..clock.jobs import presence
from ..clock.table import watched_presence
from ..lobby.lobby import Lobby
from ..play.hub import Hub
from ..play.service import GameService
from ..play.session import WATCH, GameSession
from ..play.snapshot import snapshot
from ..store.db import SeekRow
from .seats import playing, side_in
from .views import challenge, chat_line, game_event, game_full, game_state, match_goes_on

KEEPALIVE = 7.0


def line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


class Listener:
    """A member of the hub's rooms or the lobby's pages that is a queue: what sockets are
    sent, it keeps for its stream to read."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send_text(self, text: str) -> None:
        with contextlib.suppress(ValueError):
            self.queue.put_nowait(json.loads(text))

    async def send_json(self, data: dict[str, Any]) -> None:
        self.queue.put_nowait(data)

    async def next(self) -> dict[str, Any] | None:
        """The next message, or ``None`` after ``KEEPALIVE`` seconds of silence."""
        try:
            return await asyncio.wait_for(self.queue.get(), KEEPALIVE)
        except TimeoutError:
            return None


async def game_lines(
    service: GameService, hub: Hub, session: GameSession, seat: str
) -> AsyncIterator[str]:
    """A bot's game stream: ``gameFull``, then ``gameState`` whenever the game changes and
    ``chatLine`` for each line of the players' chat; it ends when the game does (a game of a
    backgammon match that goes on: once its next game is made, or declined)."""
    listener = Listener()
    hub.join(session, listener, seat)  # type: ignore[arg-type]
    try:
        if hub.seated(session, seat) == 1 and seat in session.presence:
            await presence(service, session, seat, True)  # the bot is back
        async with session.lock:
            await service.refresh(session)
            view = hub.view(session, listener, seat)["game"]  # type: ignore[arg-type]
        full = game_full(view, seat)
        full["state"] = last = game_state(view, session.rematch_id)
        yield line(full)
        while not _over(session, last):
            message = await listener.next()
            if message is None:
                yield "\n"
                continue
            if message.get("type") == "chat":
                names = {s: p.name for s, p in session.people.items()}
                yield line(chat_line(message.get("message") or {}, names))
                continue
            if message.get("type") != "state":
                continue
            async with session.lock:
                state = game_state(snapshot(session, seat), session.rematch_id)
            if state != last:
                yield line(state)
                last = state
    finally:
        hub.leave(session, listener)  # type: ignore[arg-type]
        if hub.seated(session, seat) == 0 and watched_presence(session, seat):
            hub.later(presence(service, session, seat, False))


def _over(session: GameSession, state: dict[str, Any]) -> bool:
    """Whether a game stream has said all: the game is over, and so is what follows it here
    (a match's next game made, declined, or its offer lapsed: a player left)."""
    if state["status"] == "started":
        return False
    waiting = state["matchGoesOn"] and state["nextGame"] is None
    ended = session.rematch_declined is not None or session.rematch_lapsed is not None
    return not waiting or ended


class EventStream:
    """One bot's event stream: the challenges it knows of, the games it watches."""

    def __init__(self, service: GameService, hub: Hub, lobby: Lobby, who: Who) -> None:
        assert who.user is not None
        self.service, self.hub, self.lobby, self.who = service, hub, lobby, who
        self.user = who.user
        self.listener = Listener()
        self.games: dict[str, tuple[GameSession, str]] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.told: set[str] = set()  # the games whose end was told

    async def watch(self, game_id: str, side: str) -> str | None:
        """Watch ``game_id`` (its end is told); its ``gameStart`` (or ``gameFinish``)."""
        if game_id in self.games:
            return None
        session = await self.service.get(game_id)
        async with session.lock:
            await self.service.refresh(session)
            view = snapshot(session, side)
        if session.finished:
            return line(game_event("gameFinish", view, side))
        self.hub.join(session, self.listener, WATCH)  # type: ignore[arg-type]
        self.games[game_id] = (session, side)
        return line(game_event("gameStart", view, side))

    async def _gone(self, seek_id: str) -> str:
        def read() -> str:
            with self.service.sessions() as db:
                row = db.get(SeekRow, seek_id)
                return "gone" if row is None else row.status

        return await self.service.run_db(read)

    async def lobby_changed(self, view: dict[str, Any]) -> AsyncIterator[str]:
        """The lobby's view changed: the challenges to or from the bot that came or went."""
        now = {s["id"]: s for s in view.get("seeks", [])
               if s.get("opponent") and (s.get("mine") or s.get("to_me"))}  # fmt: skip
        me = self.user.username
        for seek_id, seek in now.items():
            if seek_id not in self.challenges:
                yield line({"type": "challenge", "challenge": challenge(seek, me)})
        for seek_id, seek in self.challenges.items():
            if seek_id in now:
                continue
            status = await self._gone(seek_id)
            if status == "paired":
                continue  # its gameStart follows
            if status == "declined":
                yield line({"type": "challengeDeclined",
                            "challenge": challenge(seek, me, "declined")})  # fmt: skip
            else:
                yield line({"type": "challengeCanceled",
                            "challenge": challenge(seek, me, "canceled")})  # fmt: skip
        self.challenges = now

    async def lines(self) -> AsyncIterator[str]:
        """The stream: the games going on and the challenges open, then what comes."""
        self.lobby.joined(self.listener, self.who)
        self.lobby.presence.joined(self.listener, self.who)  # online while it listens
        try:
            for game_id, side in await playing(self.service, self.user.id):
                started = await self.watch(game_id, side)
                if started:
                    yield started
            await self.lobby.refresh()
            async for text in self.lobby_changed(self.lobby.view(self.who)):
                yield text
            while True:
                message = await self.listener.next()
                if message is None:
                    yield "\n"
                    continue
                async for text in self.heard(message):
                    yield text
        finally:
            self.lobby.left(self.listener)
            self.lobby.presence.left(self.listener)
            for session, _side in self.games.values():
                self.hub.leave(session, self.listener)  # type: ignore[arg-type]

    async def heard(self, message: dict[str, Any]) -> AsyncIterator[str]:
        kind = message.get("type")
        if kind == "lobby":
            async for text in self.lobby_changed(message):
                yield text
        elif kind == "start":
            game_id = str(message.get("url", "")).rsplit("/", 1)[-1]
            side = await side_in(self.service, game_id, self.user.id)
            if side is not None:
                started = await self.watch(game_id, side)
                if started:
                    yield started
        elif kind == "state":
            game = message.get("game") or {}
            watched = self.games.get(str(game.get("id")))
            if watched is None or game.get("outcome") is None:
                return
            session, side = watched
            if session.id not in self.told:
                self.told.add(session.id)
                async with session.lock:
                    # the notice may come before this process's copy has read the end
                    await self.service.refresh(session)
                    view = snapshot(session, side)
                yield line(game_event("gameFinish", view, side))
            # a match that goes on: watched until its next game is made (its gameStart)
            if match_goes_on(game) and not (session.rematch_declined or session.rematch_lapsed):
                if session.rematch_id is None:
                    return
                following = await side_in(self.service, session.rematch_id, self.user.id)
                started = await self.watch(session.rematch_id, following or side)
                if started:
                    yield started
            del self.games[session.id]
            self.hub.leave(session, self.listener)  # type: ignore[arg-type]
