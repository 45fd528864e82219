"""The write path: a change applied to a game in memory, then written at the next place of its
log in one transaction with everything that follows from it (the game's summary row, the jobs
it makes due, the bus's notices), and taken back if it cannot be. The log's unique
``(game, seq)`` decides a race between processes; a transaction the database aborted is
tried again; when the database fails as a change is committed, the log says whether it was.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, cast

from sqlalchemy import Table, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...core import IllegalMove, InvalidPosition
from .. import metrics, timesource
from ..errors import DATABASE_AWAY, DATABASE_BUSY, UNCERTAIN, GameError, say
from ..settings import Settings
from ..store.bus import Bus, PostgresBus
from ..store.db import EventRow, GameRow, JobRow, now
from ..store.dberrors import WRITE_TRIES, is_database_error, is_transient
from ..store.pglog import Append, Behind, Refused
from .collaborators import ClockRules
from .database import Database
from .memory import Games
from .refusals import engine_error
from .session import ENDINGS, UNRATED, Event, Extra, GameSession, sets_clock

log = logging.getLogger("ludotheque.service")
EVENTS = cast(Table, EventRow.__table__)
GAMES = cast(Table, GameRow.__table__)
JOBS = cast(Table, JobRow.__table__)


class Conflict(Exception):
    """Another process wrote at this place of the game's log first."""


def same_entries(found: list[tuple[str, Any]], events: list[Event]) -> bool:
    """Whether log entries read back are ``events`` (compared as the database keeps JSON)."""
    return json.dumps(found, sort_keys=True) == json.dumps(
        [[kind, json.loads(json.dumps(data))] for kind, data in events], sort_keys=True
    )


class Writer:
    """Changes to games, written to their logs (see the module's note)."""

    def __init__(
        self, db: Database, settings: Settings, bus: Bus, memory: Games,
        now: Callable[[], float], clocks: ClockRules,
    ) -> None:  # fmt: skip
        self.db = db
        self.clocks = clocks
        self.settings = settings
        self.bus = bus
        self.memory = memory
        self.now = now  # the clocks' time

    def summary(self, session: GameSession, events: list[Event]) -> Append:
        """What writing ``events`` at ``session.seq`` changes besides the log: the game's
        summary row and, when the computer is due, its job."""
        over = session.record.outcome()
        stamp = timesource.time()
        clock = session.clock
        clocked = any(sets_clock(kind, data) for kind, data in events)
        deadline = clock.deadline() if clocked and clock is not None else None
        rate = (
            session.rated and over is not None and over.reason not in UNRATED
            and any(kind in ENDINGS for kind, _ in events)
        )  # fmt: skip
        return Append(
            game_id=session.id, seq=session.seq, events=events, stamp=now(),
            rematch_id=session.rematch_id, over=over is not None,
            winner=over.winner if over is not None else None,
            reason=over.reason if over is not None else None,
            to_move=None if over is not None else session.record.state.to_move,
            job_not_before=stamp + self.settings.computer_delay if session.computer_due else None,
            job_created=stamp, notify=isinstance(self.bus, PostgresBus),
            clock_not_before=deadline, clock_reset=clocked, rate=rate,
        )  # fmt: skip

    def write(self, db: Session, session: GameSession, events: list[Event]) -> None:
        """Append ``events`` at ``session.seq`` with what follows from them: the game's
        summary row, the computer's job when it is due, the announcements."""
        change = self.summary(session, events)
        if events and change.seq > 0:  # the log goes on from its last entry, never after a hole
            previous = db.connection().execute(
                select(EVENTS.c.id).where(EVENTS.c.game_id == session.id,
                                          EVENTS.c.seq == change.seq - 1)
            ).first()  # fmt: skip
            if previous is None:
                raise Behind
        if events:  # plain statements, no ORM objects: this runs for every move
            db.connection().execute(
                insert(EVENTS),
                [
                    {
                        "game_id": session.id,
                        "seq": change.seq + i,
                        "kind": kind,
                        "data": data,
                        "created_at": change.stamp,
                    }
                    for i, (kind, data) in enumerate(events)
                ],
            )  # fmt: skip  (the unique (game, seq) speaks here)
        end = change.seq + len(events)
        summary: dict[str, Any] = {"updated_at": change.stamp, "rematch_id": change.rematch_id}
        if change.over:
            summary.update(
                finished_at=func.coalesce(GAMES.c.finished_at, change.stamp),
                winner=change.winner, reason=change.reason, to_move=None,
            )  # fmt: skip
        else:
            summary.update(finished_at=None, winner=None, reason=None, to_move=change.to_move)
        # Core statements on the connection: the ORM's bulk machinery costs more than the SQL
        db.connection().execute(update(GAMES).where(GAMES.c.id == session.id).values(**summary))
        if change.clock_reset:  # the game's older flag-fall jobs are obsolete
            db.connection().execute(
                update(JOBS)
                .where(JOBS.c.game_id == session.id, JOBS.c.kind == "clock",
                       JOBS.c.status == "queued")
                .values(status="done", error="obsolete", finished_at=change.job_created)
            )  # fmt: skip
        for kind, not_before in change.jobs():
            db.add(
                JobRow(
                    kind=kind, game_id=session.id, seq=end, status="queued", attempts=0,
                    not_before=not_before, created_at=change.job_created,
                )
            )  # fmt: skip
        if change.wakes_workers:
            self.bus.publish_in(db, "job", session.id)
        self.bus.publish_in(db, "game", f"{session.id} {end}")

    async def store(
        self,
        session: GameSession,
        events: list[Event],
        *,
        before: Extra | None = None,
        after: Extra | None = None,
    ) -> None:
        """Write ``events`` (already applied to the in-memory game) in one transaction, with
        ``before`` and ``after`` as more work in it. Raises ``Conflict`` if another process
        wrote at this place of the log first; the caller then takes the change back."""

        write: Callable[[], Awaitable[None]]
        if before is None and after is None and self.db.pglog is not None:
            # the hot path on PostgreSQL: one statement on the event loop (see pglog)
            change, pglog = self.summary(session, events), self.db.pglog

            async def write() -> None:
                await pglog.append(change)

        elif before is None and after is None and self.db.sqlitelog is not None:
            # the hot path on SQLite: a few plain statements in the database thread
            change, log = self.summary(session, events), self.db.sqlitelog

            async def write() -> None:
                await self.db.run(lambda: log.append(change))

        else:
            change = self.summary(session, events)

            def orm_write() -> None:
                with self.db.sessions() as db:
                    if before is not None:
                        before(db)
                    self.write(db, session, events)
                    if after is not None:
                        after(db)
                    db.commit()

            async def write() -> None:
                await self.db.run(orm_write)

        await self._attempt(session, events, write)
        self.stored(session, events, change.wakes_workers)

    async def _attempt(
        self, session: GameSession, events: list[Event], write: Callable[[], Awaitable[None]]
    ) -> None:
        """Run ``write``: again when the database aborted it (a deadlock: nothing was
        written), up to ``WRITE_TRIES``; ``Conflict`` when another process took the place in
        the log. When the database failed otherwise, the commit may or may not have happened:
        the log says which before anyone is told (``_landed``)."""
        for attempt in itertools.count(1):
            try:
                await write()
                return
            except (Refused, IntegrityError):
                raise Conflict from None
            except Exception as exc:
                if not is_database_error(exc):
                    raise
                if is_transient(exc):
                    if attempt < WRITE_TRIES:
                        await asyncio.sleep(0.01 * attempt * (1 + secrets.randbelow(100) / 100))
                        continue
                    raise GameError(DATABASE_BUSY, "busy", 409) from None
                landed = await self._landed(session, events)
                if landed:
                    log.warning("game %s: the database failed as it committed entry %d, "
                                "which the log holds", session.id, session.seq)  # fmt: skip
                    return
                if landed is None:
                    raise GameError(UNCERTAIN, "uncertain", 503) from None
                raise GameError(DATABASE_AWAY, "unavailable", 503) from None

    async def _landed(self, session: GameSession, events: list[Event]) -> bool | None:
        """After a failure of the database during a write: whether ``events`` are in the log
        at ``session.seq`` (``None``: the log cannot be read now). Other entries there are
        another process's change (``Conflict``)."""
        if not events:
            return None
        first, end = session.seq, session.seq + len(events)

        def read() -> list[tuple[str, Any]]:
            with self.db.sessions() as db:
                rows = db.execute(
                    select(EventRow.kind, EventRow.data)
                    .where(EventRow.game_id == session.id, EventRow.seq >= first,
                           EventRow.seq < end)
                    .order_by(EventRow.seq)
                ).all()  # fmt: skip
                return [(kind, data) for kind, data in rows]

        try:
            found = await self.db.run(read)
        except Exception:
            return None
        if not found:
            return False
        if same_entries(found, events):
            return True
        raise Conflict

    def stored(self, session: GameSession, events: list[Event], wake: bool) -> None:
        """``events`` are in the log: the game's place in it moves on; announce them."""
        for kind, _ in events:
            metrics.moved(kind)
        session.seq += len(events)
        if any(sets_clock(kind, data) for kind, data in events):
            session.clock_seq = session.seq
        self.announce_commit(session, wake)

    def announce_commit(self, session: GameSession, wake: bool = False) -> None:
        self.bus.committed("game", f"{session.id} {session.seq}")
        if wake or session.computer_due:
            self.bus.committed("job", session.id)

    async def change(
        self,
        session: GameSession,
        change: Callable[[], list[Event]],
        after: Extra | None = None,
    ) -> None:
        """Apply ``change`` to the in-memory game (it returns the events to log), write it,
        and take it all back if it was refused or could not be written. If the clock of the
        side to move has run out, the game ends on time instead (and the change is refused)."""
        stamp = self.now()
        if session.clock is not None and not session.finished:
            late = await self.clocks.flagged(session, stamp)
            if late is not None:
                end = self.clocks.end_event(session, *late)
                await self.apply(session, lambda: [end], stamp=stamp)
                self.memory.announce_soon(session)
                raise GameError(self.clocks.time_ran_out, "time-out", 409)
        await self.apply(session, change, after, stamp=stamp)

    def timed(self, session: GameSession, events: list[Event], stamp: float) -> None:
        """The clock after a change (pressed, started or stopped), written into its events."""
        if session.clock is not None:
            self.clocks.after_change(session, events, stamp)

    async def apply(
        self,
        session: GameSession,
        change: Callable[[], list[Event]],
        after: Extra | None = None,
        *,
        stamp: float,
    ) -> None:
        """``_change`` without the look at the clock first (the caller has looked)."""
        backup = session.record.copy()
        saved = (
            session.undo_request, session.undo_refused, session.rematch_id, session.clock,
            dict(session.presence), session.rating_changes, dict(session.people),
            session.rematch_by, session.rematch_lapsed, session.ended_by, session.draw_offer,
            dict(session.draw_declined),
        )  # fmt: skip

        def restore() -> None:
            session.record = backup
            (
                session.undo_request, session.undo_refused, session.rematch_id, session.clock,
                session.presence, session.rating_changes, session.people,
                session.rematch_by, session.rematch_lapsed, session.ended_by,
                session.draw_offer, session.draw_declined,
            ) = saved  # fmt: skip

        try:
            events = change()
            self.timed(session, events, stamp)
        except GameError:
            restore()
            raise
        except (IllegalMove, InvalidPosition, ValueError) as exc:
            restore()
            raise engine_error(exc) from None
        try:
            await self.store(session, events, after=after)
        except Conflict:
            restore()
            await self.memory.refresh(session)
            raise GameError(
                say("the game changed meanwhile (another move came first); nothing was played"),
                "stale", 409,
            ) from None  # fmt: skip
        except Behind:
            # the database lost its last commits: this memory of the game is ahead of the
            # log, which is the truth; the game is read again from it
            restore()
            log.warning("game %s: the log ends before entry %d; reading it again",
                        session.id, session.seq)  # fmt: skip
            await self.memory.reload(session)
            raise GameError(
                say("the game changed meanwhile (the server read it again); nothing was played"),
                "stale", 409,
            ) from None  # fmt: skip
        except BaseException:
            restore()
            raise
