"""Computer players as jobs: workers take computer moves from the queue in the database.

A job is a row of ``jobs``, written in the same transaction as the change that made the
computer due. A worker claims one (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so that workers
never wait for each other; a conditional update decides on either database), holds it with a
lease it renews while it thinks, thinks in a child process under a time limit, and plays the
move through the game service, closing the job in the move's own transaction. A worker that
dies stops renewing its lease: when the lease runs out, any worker takes the job again. After
``job_attempts`` failed tries the computer plays a random legal move, chosen at once in the
worker itself, so that a game never waits forever. ``ludotheque worker`` runs this loop alone; the
default ``ludotheque serve`` runs it inside the server process.

Two lighter kinds of job need no thinking: ``clock`` (a flag falls at its deadline, see
``timing``) and ``rate`` (a rated game that ended is rated, see ``ranking``). Every server
process serves them with a worker of its own (without a pool of thinking processes, so that no
long thought delays a flag), and ``ludotheque worker`` processes serve them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
from dataclasses import dataclass

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from ...ai.levels import make_agent
from .. import metrics, timesource
from ..clock.jobs import clock_job
from ..errors import GameError
from ..play.service import GameService
from ..rating.jobs import rate_job
from ..store.db import JobRow
from ..store.dberrors import Outage
from .pool import ComputerPool

COMPUTER = ("computer",)
CHORES = ("clock", "rate")
EVERY_KIND = COMPUTER + CHORES
DEAD = "dead"
"""A job that failed its last try: kept with its error for an operator (``ludotheque admin
jobs``), never tried again by itself."""
BACKOFF_FIRST = 0.5
BACKOFF_MOST = 30.0


def backoff(attempts: int) -> float:
    """Seconds before the next try of a job that failed ``attempts`` times: doubling from
    half a second, at most 30 s, so that a failing job never crowds out the others."""
    return min(BACKOFF_MOST, BACKOFF_FIRST * 2.0 ** max(0, attempts - 1))


log = logging.getLogger("ludotheque.worker")


@dataclass(frozen=True)
class Job:
    """What a worker holds of a claimed job."""

    id: int
    game_id: str
    seq: int
    attempts: int
    kind: str = "computer"
    tournament_id: str | None = None  # a tournament's own job (``tournaments.rounds``)


class Worker:
    """Takes computer moves from the queue and plays them, until ``stop`` is set."""

    def __init__(
        self,
        service: GameService,
        pool: ComputerPool | None,
        name: str | None = None,
        kinds: tuple[str, ...] = EVERY_KIND,
    ) -> None:
        self.service = service
        self.settings = service.settings
        self.pool = pool
        self.kinds = kinds if pool is not None else tuple(k for k in kinds if k != "computer")
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"[:64]
        self.wake = asyncio.Event()
        self.current: Job | None = None
        service.bus.subscribe("job", self._heard)

    def _heard(self, _payload: str) -> None:
        self.wake.set()

    @property
    def lease(self) -> float:
        return 3 * self.settings.job_heartbeat

    def tries(self, kind: str) -> int:
        """How many tries a job of ``kind`` gets before it is dead: the computer's thinking
        tries, then one for its quickest legal move; twice the setting for the chores."""
        if kind == "computer":
            return self.settings.job_attempts + 1
        return max(1, 2 * self.settings.job_attempts)

    # -- the queue -------------------------------------------------------------------------

    def claim(self) -> Job | None:
        """Take the oldest job that is ready, or one whose worker's lease ran out."""
        stamp = timesource.time()
        with self.service.sessions() as db:
            ready = or_(
                and_(JobRow.status == "queued", JobRow.not_before <= stamp),
                and_(JobRow.status == "running", JobRow.lease_until < stamp),
            )
            row = db.scalars(
                select(JobRow).where(ready, JobRow.kind.in_(self.kinds))
                .order_by(JobRow.id).limit(1)
                .with_for_update(skip_locked=True)
            ).first()  # fmt: skip
            if row is None:
                return None
            job = Job(
                row.id, row.game_id or "", row.seq, row.attempts + 1, row.kind, row.tournament_id
            )
            over = job.attempts > self.tries(row.kind)  # its workers died on every try
            values: dict[str, object] = (
                {"status": DEAD, "lease_until": None, "finished_at": stamp,
                 "error": f"its worker stopped answering on each of {row.attempts} tries"}
                if over else
                {"status": "running", "attempts": job.attempts, "worker": self.name,
                 "lease_until": stamp + self.lease}
            )  # fmt: skip
            taken = db.execute(
                update(JobRow)
                .where(JobRow.id == row.id, JobRow.status == row.status,
                       JobRow.attempts == row.attempts)
                .values(**values)
            )  # fmt: skip
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                db.rollback()
                return None
            db.commit()
            if over:
                log.error("%s job %d of game %s is dead: its worker stopped answering on each "
                          "of %d tries", row.kind, row.id, row.game_id, row.attempts)  # fmt: skip
                return None
            return job

    def next_ready(self) -> float | None:
        """When the next queued job becomes ready (seconds since the epoch), if any."""
        with self.service.sessions() as db:
            value = db.scalar(
                select(func.min(JobRow.not_before)).where(
                    JobRow.status == "queued", JobRow.kind.in_(self.kinds)
                )
            )
            return None if value is None else float(value)

    def _renew(self, job: Job) -> None:
        with self.service.sessions() as db:
            db.execute(
                update(JobRow)
                .where(JobRow.id == job.id, JobRow.worker == self.name,
                       JobRow.status == "running")
                .values(lease_until=timesource.time() + self.lease)
            )  # fmt: skip
            db.commit()

    def _close(self, db: Session, job: Job, status: str, error: str | None = None) -> None:
        db.execute(
            update(JobRow)
            .where(JobRow.id == job.id)
            .values(status=status, error=error, finished_at=timesource.time(), lease_until=None)
        )

    def _end(self, job: Job, status: str, error: str | None = None) -> None:
        with self.service.sessions() as db:
            self._close(db, job, status, error)
            db.commit()

    def _later(self, job: Job, when: float) -> None:
        """Put a job that came too early back in the queue for ``when`` (this try is not
        counted)."""
        with self.service.sessions() as db:
            db.execute(
                update(JobRow)
                .where(JobRow.id == job.id, JobRow.worker == self.name)
                .values(status="queued", lease_until=None, worker=None, not_before=when,
                        attempts=job.attempts - 1)
            )  # fmt: skip
            db.commit()

    def _retry(self, job: Job, error: str) -> None:
        """Put a failed job back in the queue, its next try after ``backoff``."""
        with self.service.sessions() as db:
            db.execute(
                update(JobRow)
                .where(JobRow.id == job.id, JobRow.worker == self.name)
                .values(status="queued", error=error, lease_until=None, worker=None,
                        not_before=timesource.time() + backoff(job.attempts))
            )  # fmt: skip
            db.commit()

    # -- the work --------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Serve jobs until ``stop`` is set."""
        outage = Outage(log, f"the {'/'.join(self.kinds)} job queue")
        while not stop.is_set():
            try:
                job = await self.service.run_db(self.claim)
                outage.succeeded()
            except Exception as exc:
                outage.failed(exc)
                await self._sleep(stop, 1.0)
                continue
            if job is not None:
                await self.handle(job)
                continue
            try:
                ready = await self.service.run_db(self.next_ready)
            except Exception:
                ready = None
            delay = 1.0 if ready is None else min(1.0, max(0.0, ready - timesource.time()))
            await self._sleep(stop, delay)

    async def _sleep(self, stop: asyncio.Event, delay: float) -> None:
        self.wake.clear()
        waits = [asyncio.ensure_future(self.wake.wait()), asyncio.ensure_future(stop.wait())]
        try:
            await asyncio.wait(waits, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()

    async def handle(self, job: Job) -> None:
        """Think and play one job; a failure puts it back for another try, later each time
        (``backoff``), until its last try: then it is dead, with its error."""
        self.current = job
        beat = asyncio.ensure_future(self._heartbeat(job))
        try:
            await self._handle(job)
        except asyncio.CancelledError:
            # this process stops: the job goes back to the queue at once for another one
            # (this try is not counted), rather than waiting for its lease to run out
            with contextlib.suppress(Exception):
                await asyncio.shield(
                    self.service.run_db(lambda: self._later(job, timesource.time()))
                )
            raise
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"[:2000]
            unreadable = isinstance(exc, GameError) and exc.code == "unreadable"
            if unreadable:
                error = f"unreadable game: {self.service.unreadable.get(job.game_id, exc)}"
            dead = unreadable or job.attempts >= self.tries(job.kind)
            metrics.job_failed(job.kind, dead)
            if dead:
                # the traceback once, with the job's end; earlier tries get a line each (an
                # unreadable game was reported by the service, once)
                if not unreadable:
                    log.error("%s job %d of game %s is dead after %d tries: %s", job.kind,
                              job.id, job.game_id, job.attempts, error, exc_info=True)  # fmt: skip
                with contextlib.suppress(Exception):
                    await self.service.run_db(lambda: self._end(job, DEAD, error))
            else:
                log.warning("%s job %d of game %s failed (try %d of %d, again in %g s): %s",
                            job.kind, job.id, job.game_id, job.attempts,
                            self.tries(job.kind), backoff(job.attempts), error)  # fmt: skip
                with contextlib.suppress(Exception):
                    await self.service.run_db(lambda: self._retry(job, error))
        finally:
            beat.cancel()
            self.current = None

    async def _heartbeat(self, job: Job) -> None:
        while True:
            await asyncio.sleep(self.settings.job_heartbeat)
            with contextlib.suppress(Exception):
                await self.service.run_db(lambda: self._renew(job))

    async def _chore(self, job: Job) -> None:
        """A clock or rating job (see the module's note)."""
        try:
            await self.service.get(job.game_id)
        except GameError as exc:
            if exc.code == "unreadable":
                raise
            await self.service.run_db(lambda: self._end(job, "failed", "no such game"))
            return

        def done(db: Session) -> None:
            self._close(db, job, "done")

        if job.kind == "clock":
            outcome, deadline = await clock_job(self.service, job.game_id, job.seq, done)
            if outcome == "early" and deadline is not None:
                await self.service.run_db(lambda: self._later(job, deadline))
                return
        else:
            outcome = await rate_job(self.service, job.game_id, done)
        if outcome == "obsolete":
            await self.service.run_db(lambda: self._end(job, "done", "obsolete"))

    async def _handle(self, job: Job) -> None:
        if job.kind != "computer":
            await self._chore(job)
            return
        assert self.pool is not None
        try:
            session = await self.service.get(job.game_id)
        except GameError as exc:
            if exc.code == "unreadable":
                raise
            await self.service.run_db(lambda: self._end(job, "failed", "no such game"))
            return
        async with session.lock:
            await self.service.refresh(session)
            if session.seq != job.seq or not session.computer_due:
                await self.service.run_db(lambda: self._end(job, "done", "obsolete"))
                return
            record_json = session.record.to_json(reveal_seed=False)
            ply = session.ply
        digest = hashlib.sha256(f"{session.id}:{ply}".encode()).digest()
        seed = int.from_bytes(digest[:4], "big")
        if job.attempts > self.settings.job_attempts:
            # every thinking try failed: a random legal move, chosen here (no process, no
            # clock); if even that fails, the job is dead (see ``tries``)
            log.warning("game %s: the computer played a random move (try %d)",
                        job.game_id, job.attempts)  # fmt: skip
            move = str(make_agent(session.game, "random", seed=seed).choose(session.record.state))
        else:
            try:
                move = await asyncio.wait_for(
                    self.pool.choose(record_json, session.level or "medium", seed),
                    self.settings.job_time_limit,
                )
            except TimeoutError:
                self.pool.kill()
                raise TimeoutError(f"no move within {self.settings.job_time_limit} s") from None
        played = await self.service.computer_move(
            job.game_id, job.seq, move, done=lambda db: self._close(db, job, "done")
        )
        if not played:
            await self.service.run_db(lambda: self._end(job, "done", "obsolete"))
