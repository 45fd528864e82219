"""Analyses of finished games as jobs, stored once for every later visitor.

An analysis is asked for one finished game at one strength (``quick``, ``normal``, ``deep``):
a row of ``analyses`` (its status, its progress, then its result as the analysis's JSON) and a
job of kind ``analysis`` in the queue, both written in one transaction. The row's primary key
``(game_id, strength)`` makes identical requests share one job: of two processes asking at
once, the database keeps one row, and the other reads it. The job's ``seq`` is the strength's
number (``STRENGTH_CODES``), so the queue's own ``(game_id, kind, seq)`` is unique too.

Analyses are long (seconds to minutes), so they never take the place of a computer move: they
are served by an ``AnalysisWorker`` of their own, which thinks in a process pool
(``AnalysisPool``) whose processes report their progress through a queue; the worker writes it
into the row a few times a second, and the page polls it. The General's endgame tables
(``ludotheque.solve``) are the analysis's own default oracle, loaded as each thinking process
starts (``warm_oracles``), so an analysis says "the general wins in 23" wherever a table knows,
and damaged tables leave the search to judge alone, with a warning, rather than fail it.

``HintPool`` is the other use of the engines: the best moves of one position (hints at one
screen or against the computer, the analysis board), answered by each server process in a
small pool of its own, with one ``Analyst`` per game kept between questions.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer, String, Text, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ... import load
from ...analysis import Analyst, analyse, best_moves
from ...analysis.model import VERSION
from ...analysis.proof import default_oracle
from ...analysis.strength import DEFAULT, NAMES, strengths
from ...record import Record
from .. import timesource
from ..compute.pool import ComputerPool
from ..compute.worker import DEAD, Job, Worker
from ..errors import GameError, say
from ..play.service import GameService
from ..store.db import Base, GameRow, JobRow

KIND = "analysis"
KINDS = (KIND,)
STRENGTH_CODES = {name: code for code, name in enumerate(NAMES)}
"""The job's ``seq`` for each strength."""

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

log = logging.getLogger("ludotheque.analysis")


PROGRESS_EVERY = 0.4
"""Seconds between two writes of an analysis's progress."""


class AnalysisRow(Base):
    """The analysis of one finished game at one strength: asked, running, done or failed.

    ``done`` of ``total`` plies are analysed so far; ``result`` is the analysis's JSON
    (``Analysis.to_json``, of format ``version``) once it is done. Times are seconds since
    the epoch, as the jobs'.
    """

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    strength: Mapped[str] = mapped_column(String(16), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default=QUEUED)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=VERSION)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    requested_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    # who asked for it last (its address, its account if signed in): a cap per asker
    requested_from: Mapped[str | None] = mapped_column(String(80), nullable=True)
    requested_user: Mapped[int | None] = mapped_column(Integer, nullable=True)


@dataclass(frozen=True)
class AnalysisView:
    """What a page is told of an analysis: its status, progress and (once done) its JSON."""

    game_id: str
    strength: str
    status: str  # none | queued | running | done | failed
    done: int = 0
    total: int = 0
    result: str | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer, the analysis itself as data (``None`` until it is done)."""
        return {
            "game_id": self.game_id,
            "strength": self.strength,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "analysis": None if self.result is None else json.loads(self.result),
            "error": self.error,
        }


NOT_FINISHED = say("only a finished game can be analysed")
BAD_STRENGTH = say(
    "unknown strength: choose quick, normal or deep",
)


def check_strength(strength: str | None) -> str:
    """The strength asked for (the default when none), or a 400 ``GameError``."""
    name = strength or DEFAULT
    if name not in STRENGTH_CODES:
        raise GameError(BAD_STRENGTH, "bad-request", 400)
    return name


def _view(row: AnalysisRow | None, game_id: str, strength: str) -> AnalysisView:
    if row is None or (row.status == DONE and row.version != VERSION):
        return AnalysisView(game_id, strength, "none")
    return AnalysisView(
        game_id, strength, row.status, row.done, row.total,
        row.result if row.status == DONE else None, row.error,
    )  # fmt: skip


def read_analysis(db: Session, game_id: str, strength: str) -> AnalysisView:
    """The analysis of a game at a strength as it stands (status ``none``: never asked)."""
    return _view(db.get(AnalysisRow, (game_id, strength)), game_id, strength)


@dataclass(frozen=True)
class Asker:
    """Who asks for an analysis: their address, their account if they are signed in, and how
    many queued or running analyses each may have at once (0: no cap)."""

    address: str
    user_id: int | None = None
    most: int = 0


def waiting_for(db: Session, asker: Asker) -> int:
    """How many analyses ``asker`` (their address or their account) has queued or running."""
    mine = AnalysisRow.requested_from == asker.address[:80]
    if asker.user_id is not None:
        mine = or_(mine, AnalysisRow.requested_user == asker.user_id)
    return int(
        db.scalar(
            select(func.count()).select_from(AnalysisRow)
            .where(AnalysisRow.status.in_((QUEUED, RUNNING)), mine)
        ) or 0
    )  # fmt: skip


def request_analysis(
    service: GameService, db: Session, game_id: str, strength: str, plies: int,
    asker: Asker | None = None,
) -> tuple[AnalysisView, bool]:  # fmt: skip
    """Ask for an analysis (the game must be known to be finished): the view, and whether a
    job was queued by this call. An analysis already asked, running or done is shared; one
    that failed (or was made by an older version) is asked again, unless ``asker`` already
    waits for as many analyses as they may (429)."""
    stamp = timesource.time()
    code = STRENGTH_CODES[strength]
    row = db.get(AnalysisRow, (game_id, strength))
    job = db.scalars(
        select(JobRow).where(JobRow.game_id == game_id, JobRow.kind == KIND, JobRow.seq == code)
    ).first()
    if row is not None and _alive(row, job):
        return _view(row, game_id, strength), False
    if asker is not None and asker.most and waiting_for(db, asker) >= asker.most:
        error = GameError(
            say("you already have {n} analyses waiting: ask again once one is done",
                n=asker.most),
            "too-many-analyses", 429,
        )  # fmt: skip
        error.retry_after = 30
        raise error
    who = {"requested_from": asker.address[:80], "requested_user": asker.user_id} if asker else {}
    if row is None:
        db.add(AnalysisRow(game_id=game_id, strength=strength, status=QUEUED, done=0,
                           total=plies, version=VERSION, requested_at=stamp, **who))  # fmt: skip
        try:
            db.flush()
        except IntegrityError:  # another process asked in the same instant: share its job
            db.rollback()
            return read_analysis(db, game_id, strength), False
    else:
        taken = db.execute(
            update(AnalysisRow)
            .where(AnalysisRow.game_id == game_id, AnalysisRow.strength == strength,
                   AnalysisRow.status == row.status, AnalysisRow.version == row.version)
            .values(status=QUEUED, done=0, total=plies, version=VERSION, result=None,
                    error=None, requested_at=stamp, finished_at=None, **who)
        )  # fmt: skip
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            db.rollback()
            return read_analysis(db, game_id, strength), False
    if job is None:
        db.add(JobRow(kind=KIND, game_id=game_id, seq=code, status=QUEUED, attempts=0,
                      not_before=stamp, created_at=stamp))  # fmt: skip
    else:
        job.status, job.attempts, job.not_before = QUEUED, 0, stamp
        job.error = job.worker = job.lease_until = job.finished_at = None
    service.bus.publish_in(db, "job", game_id)
    db.commit()
    return AnalysisView(game_id, strength, QUEUED, 0, plies), True


def _alive(row: AnalysisRow, job: JobRow | None) -> bool:
    """Whether an analysis needs no new job: done by this version, or asked and its job
    still in the queue or being thought (a job given up leaves a row to ask again)."""
    if row.status == DONE:
        return row.version == VERSION
    if row.status == FAILED:
        return False
    return job is not None and job.status in (QUEUED, RUNNING)


def game_is_finished(db: Session, game_id: str) -> bool:
    row = db.get(GameRow, game_id)
    return row is not None and row.finished_at is not None


# -- the thinking processes -----------------------------------------------------------------

_progress: Any = None  # the pool's progress queue, in a thinking process
_analysts: dict[tuple[str, str, str], Any] = {}  # a hint process's engines, kept between calls


def warm_oracles() -> None:
    """Load the General's solution (the analysis's default oracle) now, as a thinking process
    starts, rather than in its first analysis or hint."""
    default_oracle("general")


def _start_analysis_process(progress: Any) -> None:
    global _progress
    _progress = progress
    warm_oracles()


def analyse_in_process(task: int, record_json: str, strength: str) -> str:
    """The analysis (JSON) of a record, in a pool process; its progress goes to the queue."""
    record = Record.from_json(record_json)
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = timesource.monotonic()
        if _progress is not None and (done == total or now - last >= 0.2):
            last = now
            _progress.put((task, done, total))

    return analyse(record, strength, progress=progress).to_json(indent=None)


def hint_strength(game: str, n: int) -> Any:
    """The strength of hints and of the analysis board: the analysis's ``normal``, looking
    at least ``n`` moves to the end (so that ``n`` best moves have exact values)."""
    normal = strengths(game)["normal"]
    if normal.root_beam is not None and normal.root_beam < n:
        normal = dataclasses.replace(normal, root_beam=n)
    return normal


@dataclass(frozen=True)
class SoFar:
    """What a game's record tells hints beyond its positions: the moves played and its draw
    rules (``repetition``: ``True`` for the game's own; ``turn_limit``)."""

    moves: int = 0
    repetition: int | bool | None = True
    turn_limit: int | None = None


NO_RECORD = SoFar()
"""An analysis board's position: no moves counted, the game's own repetition rule."""


def best_in_process(
    game: str, ruleset: str, position: str, history: list[str], n: int, so_far: SoFar = NO_RECORD
) -> list[dict[str, Any]]:
    """The ``n`` best moves of a position (JSON-ready), in a hint process; ``history`` lists
    the positions before it, ``so_far`` the rest a game's record knows."""
    engine = load(game, ruleset)
    key = (game, engine.ruleset, str(n))
    analyst = _analysts.get(key)
    if analyst is None:
        analyst = _analysts[key] = Analyst(engine, hint_strength(game, n))
    state = engine.parse_position(position)
    earlier = [engine.parse_position(p) for p in history]
    best = best_moves(
        state, n, history=earlier, analyst=analyst, moves_so_far=so_far.moves,
        repetition=so_far.repetition, turn_limit=so_far.turn_limit,
    )  # fmt: skip
    return [m.to_dict() for m in best]


def _start_hint_process() -> None:
    warm_oracles()


class AnalysisPool(ComputerPool):
    """Processes for analyses, which report ``(task, done, total)`` through a queue read by a
    thread of this process; ``kill`` (a computation that took too long) starts afresh."""

    def __init__(self, workers: int = 1) -> None:
        self.listeners: dict[int, Callable[[int, int], None]] = {}
        self.tasks = 0
        self.queue: Any = None
        self.reader: threading.Thread | None = None
        super().__init__(workers)

    def _new(self) -> ProcessPoolExecutor:
        self._stop_reader()
        self.queue = self.context.Queue()
        self.reader = threading.Thread(
            target=self._read, args=(self.queue,), name="ludotheque-analysis-progress",
            daemon=True,
        )  # fmt: skip
        self.reader.start()
        return self._executor(_start_analysis_process, (self.queue,))

    def _read(self, source: Any) -> None:
        while True:
            try:
                item = source.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            task, done, total = item
            listener = self.listeners.get(task)
            if listener is not None:
                with contextlib.suppress(Exception):
                    listener(done, total)

    def _stop_reader(self) -> None:
        if self.queue is not None:
            with contextlib.suppress(Exception):
                self.queue.put(None)
            if self.reader is not None:
                self.reader.join(2)
            with contextlib.suppress(Exception):
                self.queue.close()
                self.queue.cancel_join_thread()

    async def analyse(
        self, record_json: str, strength: str, progress: Callable[[int, int], None]
    ) -> str:
        """The analysis (JSON) of a record; ``progress(done, total)`` is called on the event
        loop as plies are analysed."""
        loop = asyncio.get_running_loop()
        self.tasks += 1
        task = self.tasks

        def heard(done: int, total: int) -> None:
            loop.call_soon_threadsafe(progress, done, total)

        self.listeners[task] = heard
        try:
            return await loop.run_in_executor(
                self.pool, analyse_in_process, task, record_json, strength
            )
        finally:
            self.listeners.pop(task, None)

    def close(self) -> None:
        super().close()
        self._stop_reader()


class HintPool(ComputerPool):
    """Processes that answer the best moves of positions (hints, the analysis board), each
    question within ``time_limit`` seconds."""

    def __init__(self, workers: int = 1, time_limit: float = 20.0) -> None:
        self.time_limit = time_limit
        super().__init__(workers)

    def _new(self) -> ProcessPoolExecutor:
        return self._executor(_start_hint_process)

    async def best(
        self, game: str, ruleset: str, position: str, history: list[str], n: int,
        so_far: SoFar = NO_RECORD,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """The ``n`` best moves of ``position`` (after the positions of ``history``, a game's
        record telling ``so_far``); a ``TimeoutError`` after the time limit (the processes
        are then started afresh)."""
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self.pool, best_in_process, game, ruleset, position, history, n, so_far
            )
            return await asyncio.wait_for(future, self.time_limit)
        except (TimeoutError, BrokenProcessPool):  # too slow, or a process died: start afresh
            self.kill()
            raise TimeoutError("the engine did not answer") from None


# -- the worker -----------------------------------------------------------------------------


class AnalysisWorker(Worker):
    """Takes analysis jobs from the queue (and only those) and thinks them in its pool."""

    def __init__(
        self, service: GameService, pool: AnalysisPool | None = None, name: str | None = None
    ) -> None:
        super().__init__(service, None, name, kinds=KINDS)
        self.engines = pool
        self.own_pool = pool is None

    async def run(self, stop: asyncio.Event) -> None:
        """Serve analysis jobs until ``stop`` is set (or the task is cancelled); a pool made
        here is closed on the way out."""
        try:
            await super().run(stop)
        finally:
            if self.own_pool and self.engines is not None:
                self.engines.close()
                self.engines = None

    def _pool(self) -> AnalysisPool:
        if self.engines is None:
            self.engines = AnalysisPool(self.settings.analysis_workers)
        return self.engines

    def _write(self, job: Job, strength: str, **values: Any) -> None:
        with self.service.sessions() as db:
            db.execute(
                update(AnalysisRow)
                .where(AnalysisRow.game_id == job.game_id, AnalysisRow.strength == strength)
                .values(**values)
            )
            db.commit()

    def tries(self, kind: str) -> int:
        """An analysis fails for good after ``job_attempts`` tries (see ``_handle``)."""
        return max(1, self.settings.job_attempts)

    def _finish(
        self, job: Job, strength: str, status: str, *, dead: bool = False, **values: Any
    ) -> None:
        """Close the job (``dead``: it failed its last try) and write the analysis's end in
        one transaction."""
        with self.service.sessions() as db:
            db.execute(
                update(AnalysisRow)
                .where(AnalysisRow.game_id == job.game_id, AnalysisRow.strength == strength)
                .values(status=status, finished_at=timesource.time(), **values)
            )
            job_status = DONE if status == DONE else DEAD if dead else FAILED
            self._close(db, job, job_status, values.get("error"))
            db.commit()

    async def _handle(self, job: Job) -> None:
        strengths_by_code = {code: name for name, code in STRENGTH_CODES.items()}
        strength = strengths_by_code.get(job.seq)
        if strength is None:
            await self.service.run_db(lambda: self._end(job, FAILED, "unknown strength"))
            return
        try:
            session = await self.service.get(job.game_id)
        except GameError as exc:
            if exc.code == "unreadable":
                unreadable = "the game's record cannot be read"
                await self.service.run_db(
                    lambda: self._finish(job, strength, FAILED, dead=True, error=unreadable)
                )
                return
            await self.service.run_db(lambda: self._end(job, FAILED, "no such game"))
            return
        async with session.lock:
            await self.service.refresh(session)
            finished = session.finished
            record_json = session.record.to_json(reveal_seed=False)
            total = len(session.record.plies)
        if not finished:
            await self.service.run_db(
                lambda: self._finish(job, strength, FAILED, error="the game is not finished")
            )
            return
        await self.service.run_db(
            lambda: self._write(job, strength, status=RUNNING, done=0, total=total)
        )
        reported = [0, total]
        written = [0, total]

        def progress(done: int, total: int) -> None:
            reported[:] = [done, total]

        def write(done: int, total: int) -> None:
            self._write(job, strength, done=done, total=total)

        async def report() -> None:
            while True:
                await asyncio.sleep(PROGRESS_EVERY)
                if reported != written:
                    now = list(reported)
                    with contextlib.suppress(Exception):
                        await self.service.run_db(partial(write, *now))
                    written[:] = now

        reporter = asyncio.ensure_future(report())
        pool = self._pool()
        try:
            limit = self.settings.analysis_time_limit
            text = await asyncio.wait_for(pool.analyse(record_json, strength, progress), limit)
        except TimeoutError:
            pool.kill()
            message = f"the analysis took more than {limit:g} s"
            await self.service.run_db(lambda: self._finish(job, strength, FAILED, error=message))
            return
        except Exception as exc:
            if isinstance(exc, BrokenProcessPool):  # a process died: the next try starts afresh
                pool.kill()
            error = f"{type(exc).__name__}: {exc}"
            if job.attempts >= self.tries(job.kind):
                log.error("analysis job %d of game %s is dead after %d tries: %s", job.id,
                          job.game_id, job.attempts, error, exc_info=True)  # fmt: skip
                await self.service.run_db(
                    lambda: self._finish(job, strength, FAILED, dead=True, error=error)
                )
                return
            raise  # the worker puts the job back for another try
        finally:
            reporter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporter
        await self.service.run_db(
            lambda: self._finish(
                job, strength, DONE, result=text, done=total, total=total, error=None,
                version=VERSION,
            )
        )  # fmt: skip


__all__ = [
    "KIND",
    "KINDS",
    "STRENGTH_CODES",
    "AnalysisPool",
    "AnalysisRow",
    "AnalysisView",
    "AnalysisWorker",
    "HintPool",
    "check_strength",
    "read_analysis",
    "request_analysis",
    "warm_oracles",
]
