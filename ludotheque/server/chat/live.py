"""Chat in a game: the players' channel and the watchers', kept with the game, live for all.

What may be said and how often is ``chat``'s (``clean``, ``ChatLimiter``). A message is a row
of ``chat`` (never an entry of the move log) and is announced on the bus's ``chat`` channel with
the message itself, so that every process tells its own sockets on that game and channel.
Players speak in the players' channel (under their name, or their side's); watchers read and
write the watchers' channel, once signed in (an anonymous crowd has no names to mute). Each
process counts its own senders (a socket lives in one process), as ``guard`` does for requests.
Messages are text: the page escapes them (``textContent``).

Nothing typed is lost: each line comes with the page's own name for it (a ``nonce``), is
answered (the line as stored, or why not), and a line sent again after a lost answer is
recognised by its nonce and answered without being written twice. A banned account does not
speak (``accounts.moderation``).
"""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from .. import timesource
from ..accounts.identity import Who
from ..accounts.moderation import refuse_banned
from ..errors import GameError, say
from ..play.service import GameService
from ..play.session import GameSession
from ..play.snapshot import _chat_channel
from ..store.bus import Bus
from ..store.db import ChatRow
from .reports import muted_by, report, set_muted
from .rules import PLAYERS, WATCHERS, ChatError, ChatLimiter, Message

if TYPE_CHECKING:
    from ..play.hub import Hub

HISTORY = 100  # messages a page gets when it opens

MESSAGES = ("chat", "chat-report", "chat-mute")
"""The socket messages the chat answers (see ``Chat.receive``)."""
NO_CHAT = say("there is no chat here")
SIGN_IN_TO_CHAT = say("sign in to talk with the other watchers")


def _view(
    row_id: int, message: Message, side: str | None, nonce: str | None = None
) -> dict[str, Any]:
    return {"id": row_id, **message.to_dict(), "side": side, "nonce": nonce}


def nonce_of(value: Any) -> str | None:
    """The page's name for a line, if it is one (1 to 32 letters, digits, ``-`` or ``_``)."""
    if not isinstance(value, str) or not 0 < len(value) <= 32 or not value.isascii():
        return None
    return value if value.replace("-", "").replace("_", "").isalnum() else None


class Chat:
    """This process's side of the games' chat."""

    def __init__(self, service: GameService, bus: Bus, hub: Hub) -> None:
        self.service = service
        self.bus = bus
        self.hub = hub
        self.limiter = ChatLimiter()
        self.swept = timesource.monotonic()
        self.last_heard: dict[str, int] = {}  # game -> the last message told here
        bus.subscribe("chat", self._heard)
        bus.on_gap(self.catch_up)

    @staticmethod
    def sender(session: GameSession, seat: str, who: Who) -> tuple[str, str | None]:
        """Who speaks, as the messages say it: a key (a side for players, the account for
        watchers) and the name shown (``None``: the side's name, written by the page)."""
        if seat in session.record.game_object.sides:
            person = session.people.get(seat)
            return f"side:{seat}", person.name if person is not None else None
        if who.user is not None:
            return f"{who.key}", who.user.username
        return f"{who.key or 'anonymous'}", None

    async def send(
        self, session: GameSession, seat: str, who: Who, text: Any, nonce: Any = None
    ) -> dict[str, Any]:
        """Say ``text`` in ``seat``'s channel of the game: the line as everyone is told it
        (the one already stored, if its ``nonce`` came before); a ``GameError`` says why
        not (a ``ChatError`` 429 with ``retry_after`` when it is only too soon)."""
        channel = _chat_channel(session, seat)
        if channel is None:
            raise GameError(NO_CHAT, "no-chat", 409)
        if channel == WATCHERS and who.user is None:
            raise GameError(SIGN_IN_TO_CHAT, "sign-in-required", 403)
        key, name = self.sender(session, seat, who)
        stamp = timesource.time()
        message = Message.new(stamp, channel, key, name or "", text)
        nonce = nonce_of(nonce)
        user_id = who.user.id if who.user else None

        def before() -> ChatRow | None:
            with self.service.sessions() as db:
                refuse_banned(db, user_id)
                if nonce is None:
                    return None
                return db.scalar(
                    select(ChatRow).where(ChatRow.game_id == session.id,
                                          ChatRow.sender == key, ChatRow.nonce == nonce)
                )  # fmt: skip

        known = await self.service.run_db(before)
        if known is not None:  # sent again after a lost answer: it is there already
            return self._row_view(session, known)
        limit_key = who.key or f"{session.id}:{seat}"
        self.limiter.check(limit_key, message.text, stamp)
        if timesource.monotonic() - self.swept > 60:
            self.swept = timesource.monotonic()
            self.limiter.forget(stamp)
        side = seat if channel == PLAYERS else None

        def write() -> tuple[str, dict[str, Any]]:
            with self.service.sessions() as db:
                row = ChatRow(
                    game_id=session.id, channel=channel, sender=key, name=name,
                    user_id=user_id, text=message.text, at=stamp, nonce=nonce,
                )  # fmt: skip
                db.add(row)
                db.flush()
                view = _view(row.id, message, side, nonce)
                payload = f"{session.id} " + json.dumps(
                    view, ensure_ascii=False, separators=(",", ":")
                )
                self.bus.publish_in(db, "chat", payload)
                db.commit()
                return payload, view

        payload, view = await self.service.run_db(write)
        self.bus.committed("chat", payload)
        return view

    async def receive(
        self, session: GameSession, seat: str, who: Who, message: dict[str, Any]
    ) -> dict[str, Any]:
        """The answer to one of a socket's ``MESSAGES`` (``id``: the page's name for its
        request, given back): ``chat-ack`` with the line as stored, ``chat-reported`` with
        the line reported, ``chat-muted`` with whom the account mutes now. A refusal is a
        ``GameError``, answered as the socket answers any."""
        kind, ask = message.get("type"), message.get("id")
        if kind == "chat":
            view = await self.send(session, seat, who, message.get("text"), ask)
            return {"type": "chat-ack", "id": ask, "message": view}
        channel = _chat_channel(session, seat)
        if channel is None:
            raise GameError(NO_CHAT, "no-chat", 409)
        user_id = who.user.id if who.user is not None else None
        if kind == "chat-report":
            me, _ = self.sender(session, seat, who)
            reporter = who.key or f"{session.id}:{seat}"
            line = message.get("line")

            def write() -> bool:
                with self.service.sessions() as db:
                    return report(db, session.id, channel, line, reporter, user_id, me)[1]

            fresh = await self.service.run_db(write)
            return {"type": "chat-reported", "id": ask, "line": line, "new": fresh}
        keys = message.get("keys")
        if user_id is None or not isinstance(keys, list):  # a visitor's browser keeps them
            raise GameError(say("Sign in to keep your mutes."), "sign-in-required", 403)
        muted = bool(message.get("muted", True))

        def mute() -> list[str]:
            with self.service.sessions() as db:
                return set_muted(db, user_id, keys, muted)

        return {"type": "chat-muted", "id": ask, "muted": await self.service.run_db(mute)}

    def _heard(self, payload: str) -> None:
        """A message said somewhere: tell this process's sockets on its game and channel."""
        game_id, _, body = payload.partition(" ")
        room = self.hub.rooms.get(game_id)
        session = self.service.games.get(game_id)
        if not room or session is None:
            return
        with contextlib.suppress(ValueError, TypeError):
            self._tell(session, room, json.loads(body))

    def _tell(self, session: GameSession, room: dict[Any, str], message: dict[str, Any]) -> None:
        """Send ``message`` to the sockets of ``room`` that read its channel."""
        number = message.get("id")
        if isinstance(number, int):
            self.last_heard[session.id] = max(number, self.last_heard.get(session.id, 0))
        text = json.dumps({"type": "chat", "message": message}, ensure_ascii=False)
        for socket, seat in list(room.items()):
            if _chat_channel(session, seat) == message.get("channel"):
                self.hub.send_later(socket, text)

    async def catch_up(self) -> None:
        """After a gap in the bus: the messages said meanwhile in the games this process
        shows, to their sockets."""
        known = {gid: n for gid, n in self.last_heard.items() if self.hub.rooms.get(gid)}
        self.last_heard = dict(known)
        if not known:
            return

        def read() -> list[ChatRow]:
            with self.service.sessions() as db:
                return list(
                    db.scalars(
                        select(ChatRow)
                        .where(ChatRow.game_id.in_(list(known)[:1000]))
                        .where(ChatRow.id > min(known.values()))
                        .order_by(ChatRow.id.desc())
                        .limit(5000)
                    ).all()
                )[::-1]

        for row in await self.service.run_db(read):
            room = self.hub.rooms.get(row.game_id)
            session = self.service.games.get(row.game_id)
            if room and session is not None and row.id > known.get(row.game_id, row.id):
                self._tell(session, room, self._row_view(session, row))

    @staticmethod
    def _row_view(session: GameSession, row: ChatRow) -> dict[str, Any]:
        """A stored message as the sockets are told it."""
        side = row.sender.removeprefix("side:") if row.sender.startswith("side:") else None
        message = Message(row.at, row.channel, row.sender, row.name or "", row.text)
        side = side if side in session.record.game_object.sides else None
        return _view(row.id, message, side, row.nonce)

    async def history(self, session: GameSession, seat: str, who: Who) -> dict[str, Any] | None:
        """The last messages of ``seat``'s channel, and who the reader is in it (``me``)."""
        channel = _chat_channel(session, seat)
        if channel is None:
            return None

        user_id = who.user.id if who.user is not None else None

        def read() -> tuple[list[ChatRow], list[str] | None]:
            with self.service.sessions() as db:
                rows = db.scalars(
                    select(ChatRow)
                    .where(ChatRow.game_id == session.id, ChatRow.channel == channel)
                    .order_by(ChatRow.id.desc())
                    .limit(HISTORY)
                ).all()
                muted = None if user_id is None else muted_by(db, user_id)
                return list(reversed(rows)), muted

        rows, muted = await self.service.run_db(read)
        messages = [self._row_view(session, r) for r in rows]
        last = rows[-1].id if rows else 0
        self.last_heard[session.id] = max(last, self.last_heard.get(session.id, 0))
        me, _ = self.sender(session, seat, who)
        can_write = channel == PLAYERS or who.user is not None
        # ``muted``: whom the account muted (``None``: a visitor, whose browser keeps it)
        return {"type": "chat-history", "channel": channel, "me": me, "messages": messages,
                "can_write": can_write, "muted": muted}  # fmt: skip


__all__ = ["MESSAGES", "Chat", "ChatError"]
