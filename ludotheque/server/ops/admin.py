"""``ludotheque admin``: what an operator does by hand on a deployment's database.

``admin jobs`` lists the dead jobs (those that failed their last try, see ``worker.DEAD``),
newest first, with their error; ``--retry ID`` puts one back in the queue (its tries counted
from zero), after the cause was mended. The moderators' subcommands (reports, bans, closing
an account) are ``moderate``'s.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .. import timesource
from ..compute.worker import DEAD
from ..store.db import JobRow, make_engine, migrate, session_factory
from . import moderate


def add_parser(commands: Any) -> None:
    """The ``admin`` command and its subcommands."""
    admin = commands.add_parser(
        "admin", help="operate a server's database (dead jobs, reports, bans, ...)"
    )
    admin.add_argument("--db", help="the server's database URL (default: DATABASE_URL)")
    tasks = admin.add_subparsers(dest="task", required=True)
    jobs = tasks.add_parser("jobs", help="list the dead jobs (failed their last try)")
    jobs.add_argument("--retry", type=int, metavar="ID", help="queue this dead job again")
    jobs.add_argument("--limit", type=int, default=50, help="how many to list (default 50)")
    moderate.add_parsers(tasks)


def dead_jobs(db: Session, limit: int = 50) -> list[JobRow]:
    """The dead jobs, the most recent first."""
    return list(
        db.scalars(
            select(JobRow)
            .where(JobRow.status == DEAD)
            .order_by(JobRow.finished_at.desc(), JobRow.id.desc())
            .limit(limit)
        ).all()
    )


def retry_job(db: Session, job_id: int) -> bool:
    """Queue a dead job again, its tries counted from zero; whether there was one."""
    changed = db.execute(
        update(JobRow)
        .where(JobRow.id == job_id, JobRow.status == DEAD)
        .values(status="queued", attempts=0, not_before=timesource.time(), lease_until=None,
                worker=None, finished_at=None)
    )  # fmt: skip
    db.commit()
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def run(args: argparse.Namespace, url: str) -> int:
    """``ludotheque admin ...``: prints what it did; 0, or 1 when there was nothing to do."""
    engine = make_engine(url)
    migrate(engine)
    try:
        with session_factory(engine)() as db:
            if args.task in moderate.TASKS:
                return moderate.run(db, args)
            if args.retry is not None:
                if retry_job(db, args.retry):
                    print(f"job {args.retry} is queued again")
                    return 0
                print(f"there is no dead job {args.retry}")
                return 1
            rows = dead_jobs(db, max(1, args.limit))
            if not rows:
                print("no dead job")
                return 0
            for job in rows:
                when = (
                    time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(job.finished_at))
                    if job.finished_at
                    else "-"
                )
                error = (job.error or "").splitlines()[0][:200] if job.error else ""
                print(f"{job.id}\t{job.kind}\tgame {job.game_id}\ttries {job.attempts}\t"
                      f"{when} UTC\t{error}")  # fmt: skip
            return 0
    finally:
        engine.dispose()
