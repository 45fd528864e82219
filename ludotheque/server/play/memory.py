"""The games a server process holds in memory: each rebuilt from its log when it is asked for,
kept while it is used, refreshed when the bus (or a look at the log) says it changed, and
dropped when idle. A game whose log no longer replays is set aside, alone."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update

from ... import load
from ...record import Record
from .. import timesource
from ..errors import GameError, say
from ..settings import Settings
from ..store.bus import Bus
from ..store.db import EventRow, GameRow, JobRow, SeatRow, token_hash
from .database import Database
from .people import Person, people_of
from .session import GameSession, next_epoch, replay, sets_clock

log = logging.getLogger("ludotheque.service")

NO_GAME = say("there is no such game")
UNREADABLE = say(
    "this game's record cannot be read again; it has been set aside and the server's "
    "operators can see why",
)


def record_time(moment: datetime) -> str:
    """A stored moment as records write their dates (ISO 8601, UTC, to the second; SQLite
    gives them back without their zone, which is UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


class Unreadable(Exception):
    """A game's stored log no longer replays (the reason is the message)."""


RELOADED = tuple(
    f.name for f in dataclasses.fields(GameSession)
    if f.name not in {"lock", "last_used", "clients", "history_cache", "history_epoch", "now"}
)  # fmt: skip
"""What a game read again from its log replaces in the session held in memory."""


class Games:
    """This process's games in memory (see the module's note)."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        bus: Bus,
        announce: Callable[[GameSession], Coroutine[Any, Any, None]],
        now: Callable[[], float],
    ) -> None:
        self.db = db
        self.sessions = db.sessions
        self.settings = settings
        self.bus = bus
        self.announce = announce
        self.now = now  # the clocks' time
        self.games: dict[str, GameSession] = {}
        self.seat_cache: dict[str, tuple[str, str]] = {}
        self.loading: dict[str, asyncio.Future[GameSession]] = {}
        self.heard_while_loading: dict[str, int] = {}
        # games whose log does not replay: id -> why (each is logged once, its jobs ended)
        self.unreadable: dict[str, str] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        bus.subscribe("game", self._heard)
        bus.on_gap(self.catch_up)

    async def seat(self, token: str) -> tuple[GameSession, str]:
        """The game and seat (a side, ``both`` or ``watch``) that ``token`` opens."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise GameError(say("this link is not valid"),
                            "bad-token", 404)  # fmt: skip
        digest = token_hash(token)
        found = self.seat_cache.get(digest)
        if found is None:

            def lookup() -> tuple[str, str] | None:
                with self.sessions() as db:
                    row = db.get(SeatRow, digest)
                    return None if row is None else (row.game_id, row.side)

            found = await self.db.run(lookup)
            if found is None:
                raise GameError(
                    say("this link does not open any game"),
                    "bad-token", 404,
                )  # fmt: skip
            if len(self.seat_cache) > 100_000:
                self.seat_cache.clear()
            self.seat_cache[digest] = found
        return await self.get(found[0]), found[1]

    async def get(self, game_id: str) -> GameSession:
        """A game by id, rebuilt from its log if it is not in memory. A game whose log no
        longer replays is set aside (see ``_set_aside``): ``GameError`` ``unreadable``."""
        session = self.games.get(game_id)
        if session is None:
            if game_id in self.unreadable:
                raise GameError(UNREADABLE, "unreadable", 410)
            pending = self.loading.get(game_id)
            if pending is not None:  # another request is loading it: share its work
                session = await asyncio.shield(pending)
            else:
                future: asyncio.Future[GameSession] = asyncio.get_running_loop().create_future()
                self.loading[game_id] = future
                try:
                    try:
                        session = await self._load(game_id)
                    except Unreadable as exc:
                        await self._set_aside(game_id, str(exc))
                        raise GameError(UNREADABLE, "unreadable", 410) from None
                    self.games[game_id] = session
                    # a change announced while the log was being read may not be in it
                    if self.heard_while_loading.pop(game_id, -1) > session.seq:
                        async with session.lock:
                            await self.refresh(session)
                    future.set_result(session)
                except BaseException as exc:
                    future.set_exception(exc)
                    future.exception()  # retrieved: nobody else may be waiting
                    raise
                finally:
                    del self.loading[game_id]
                    self.heard_while_loading.pop(game_id, None)
        session.last_used = timesource.monotonic()
        return session

    async def _load(self, game_id: str) -> GameSession:
        if not isinstance(game_id, str) or len(game_id) > 32:
            raise GameError(NO_GAME, "not-found", 404)

        def read() -> tuple[GameRow | None, list[EventRow], dict[str, Person]]:
            with self.sessions() as db:
                row = db.get(GameRow, game_id)
                if row is None:
                    return None, [], {}
                events = db.scalars(
                    select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                ).all()
                return row, list(events), people_of(db, game_id)

        row, events, people = await self.db.run(read)
        if row is None:
            raise GameError(NO_GAME, "not-found", 404)
        place = "its start"
        closed = {side: known for side, known in people.items() if known.closed}
        try:
            record = Record.new(
                load(row.game, row.ruleset), start=row.start, players=dict(row.players),
                seed=row.seed or None,
            )  # fmt: skip
            session = GameSession(
                row.id, row.game, row.ruleset, row.mode, dict(row.players), row.computer_side,
                row.level, record, rematch_id=row.rematch_id, control=row.control,
                rated=bool(row.rated), public=bool(row.public), people=people,
            )  # fmt: skip
            session.now = self.now
            record.started = record_time(row.created_at)  # the game's own times, not now
            for ev in events:
                place = f"entry {ev.seq} ({ev.kind})"
                was = record.ended
                replay(session, ev.kind, ev.data)
                if record.ended is not None and record.ended != was:
                    record.ended = record_time(ev.created_at)
                session.seq = ev.seq + 1
                if sets_clock(ev.kind, ev.data):
                    session.clock_seq = session.seq
            for side, known in closed.items():  # its name is gone, in the page and record
                session.people[side] = known
                record.players[side] = "human"
        except Exception as exc:  # whatever the stored data did, this game alone suffers
            raise Unreadable(f"{place}: {type(exc).__name__}: {exc}") from exc
        return session

    async def _set_aside(self, game_id: str, reason: str) -> None:
        """A game whose log does not replay: remembered (its requests are refused at once,
        without reading it again), said once in the log, and its queued or running jobs
        ended as dead with the reason, so that no worker tries it again and again."""
        if game_id in self.unreadable:
            return
        if len(self.unreadable) > 10_000:
            self.unreadable.clear()
        self.unreadable[game_id] = reason
        log.error("game %s cannot be read from its log and is set aside: %s", game_id, reason)

        def end_jobs() -> None:
            with self.sessions() as db:
                db.execute(
                    update(JobRow)
                    .where(JobRow.game_id == game_id, JobRow.status.in_(("queued", "running")))
                    .values(status="dead", error=f"unreadable game: {reason}"[:2000],
                            finished_at=timesource.time(), lease_until=None)
                )  # fmt: skip
                db.commit()

        try:
            await self.db.run(end_jobs)
        except Exception:
            log.warning("the jobs of unreadable game %s could not be ended", game_id)

    async def refresh(self, session: GameSession) -> bool:
        """Catch up with the log (changes made by other processes); whether anything came.
        What came is announced to this process's sockets (once the caller lets go of the
        game), whoever asked for the refresh: a process that lost a race tells its sockets
        of the winner's move too."""
        seq = session.seq

        def read() -> list[EventRow]:
            with self.sessions() as db:
                return list(
                    db.scalars(
                        select(EventRow)
                        .where(EventRow.game_id == session.id, EventRow.seq >= seq)
                        .order_by(EventRow.seq)
                    ).all()
                )

        events = await self.db.run(read)
        if session.seq != seq:  # another refresh of this process came first
            return False
        for ev in events:
            was = session.record.ended
            replay(session, ev.kind, ev.data)
            if session.record.ended is not None and session.record.ended != was:
                session.record.ended = record_time(ev.created_at)
            session.seq = ev.seq + 1
            if sets_clock(ev.kind, ev.data):
                session.clock_seq = session.seq
        if events:
            self.announce_soon(session)
        return bool(events)

    async def reload(self, session: GameSession) -> None:
        """Read a game again from the start of its log, in place (everyone holding the
        session sees it): when the log ends before this process's memory of it."""
        fresh = await self._load(session.id)
        for name in RELOADED:
            setattr(session, name, getattr(fresh, name))
        session.history_cache.clear()
        session.history_epoch = next_epoch()
        self.announce_soon(session)

    def announce_soon(self, session: GameSession) -> None:
        """Announce ``session`` to this process's sockets once the caller lets go of it."""
        task = asyncio.get_running_loop().create_task(self.announce(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _heard(self, payload: str) -> Awaitable[None] | None:
        """A change announced on the bus: the refresh to make if this process holds the game
        and has not seen the change (decided at once: most notices concern nobody here)."""
        game_id, _, seq_text = payload.partition(" ")
        if not seq_text.isdigit():
            return None
        seq = int(seq_text)
        session = self.games.get(game_id)
        if session is None:
            if game_id in self.loading:  # being read: catch up once it is read
                self.heard_while_loading[game_id] = max(
                    seq, self.heard_while_loading.get(game_id, -1)
                )
            return None
        if session.seq >= seq:
            return None
        if session.clients == 0 and not session.lock.locked():
            # nobody here is looking: forget it rather than read every move of it (it is
            # rebuilt from the log if it is asked for again)
            del self.games[game_id]
            return None
        return self._catch_up(session, seq)

    async def catch_up(self) -> int:
        """Compare the games this process shows to sockets with the log, and refresh (and
        so announce) those that are behind: after a gap in the bus, or now and then in case
        a notice was lost. How many were behind."""
        held = {gid: s.seq for gid, s in self.games.items() if s.clients > 0}
        if not held:
            return 0
        ids = list(held)

        def read() -> list[tuple[str, int]]:
            tops: list[tuple[str, int]] = []
            with self.sessions() as db:
                for i in range(0, len(ids), 500):
                    rows = db.execute(
                        select(EventRow.game_id, func.max(EventRow.seq))
                        .where(EventRow.game_id.in_(ids[i : i + 500]))
                        .group_by(EventRow.game_id)
                    ).all()
                    tops.extend((gid, int(top)) for gid, top in rows)
            return tops

        behind = [gid for gid, top in await self.db.run(read) if top + 1 > held[gid]]
        for gid in behind:
            session = self.games.get(gid)
            if session is not None:
                async with session.lock:
                    await self.refresh(session)
        return len(behind)

    async def _catch_up(self, session: GameSession, seq: int) -> None:
        async with session.lock:
            if session.seq < seq:  # the change may be this process's own, just committed
                await self.refresh(session)

    def forget_idle(self) -> int:
        """Drop the games nobody used for ``idle_seconds`` (they are rebuilt on demand)."""
        limit = timesource.monotonic() - self.settings.idle_seconds
        idle = [
            gid
            for gid, s in self.games.items()
            if s.clients == 0 and s.last_used < limit and not s.lock.locked()
        ]
        for gid in idle:
            del self.games[gid]
        return len(idle)

    async def archive(self, limit: int = 200) -> list[dict[str, Any]]:
        """Finished games, newest first, with the number of moves in each (a game without
        any has nothing to analyse)."""
        moves = (
            select(func.count(EventRow.id))
            .where(EventRow.game_id == GameRow.id, EventRow.kind == "move")
            .correlate(GameRow)
            .scalar_subquery()
        )

        def read() -> list[tuple[GameRow, int]]:
            with self.sessions() as db:
                return [
                    (row, int(count))
                    for row, count in db.execute(
                        select(GameRow, moves)
                        .where(GameRow.finished_at.is_not(None))
                        .order_by(GameRow.finished_at.desc())
                        .limit(limit)
                    ).all()
                ]

        rows = await self.db.run(read)
        return [
            {
                "id": r.id,
                "game": r.game,
                "ruleset": r.ruleset,
                "mode": r.mode,
                "players": r.players,
                "winner": r.winner,
                "reason": r.reason,
                "finished_at": r.finished_at.isoformat() if r.finished_at else None,
                "moves": count,
            }
            for r, count in rows
        ]
