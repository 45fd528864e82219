"""``ludotheque admin``: what an operator does by hand on a deployment's database.

``admin jobs`` lists the dead jobs (those that failed their last try, see ``worker.DEAD``),
newest first, with their error; ``--retry ID`` puts one back in the queue (its tries counted
from zero), after the cause was mended. ``admin token NAME --scope ...`` makes a personal API
token (printed once), ``tokens NAME`` lists an account's, ``revoke-token ID`` revokes one.
The moderators' subcommands (reports, bans, closing an account) are ``moderate``'s.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from .. import timesource
from ..accounts.rules import username_key
from ..accounts.tokens import SCOPES, create_token, revoke_token, tokens_of
from ..compute.worker import DEAD
from ..store.db import JobRow, UserRow, make_engine, migrate, session_factory
from . import moderate


def add_parser(commands: Any) -> None:
    """The ``admin`` command and its subcommands."""
    admin = commands.add_parser(
        "admin", help="operate a server's database (dead jobs, reports, bans, ...)"
    )
    where = ("the server's database: a URL, or a path to a SQLite file (default: DATABASE_URL, "
             "else SQLite in your data directory, as `ludotheque serve`)")  # fmt: skip
    admin.add_argument("--db", help=where)
    tasks = admin.add_subparsers(dest="task", required=True)
    jobs = tasks.add_parser("jobs", help="list the dead jobs (failed their last try)")
    jobs.add_argument("--retry", type=int, metavar="ID", help="queue this dead job again")
    jobs.add_argument("--limit", type=int, default=50, help="how many to list (default 50)")
    moderate.add_parsers(tasks)
    token = tasks.add_parser("token", help="make a personal API token for an account")
    token.add_argument("username")
    token.add_argument("--scope", action="append", choices=SCOPES, required=True,
                       help="a scope (repeat for several): " + ", ".join(SCOPES))  # fmt: skip
    token.add_argument("--label", default="made by an operator", help="what it is for")
    tokens = tasks.add_parser("tokens", help="list an account's live API tokens")
    tokens.add_argument("username")
    revoke = tasks.add_parser("revoke-token", help="revoke an API token by its number")
    revoke.add_argument("token_id", type=int, metavar="ID")
    for task in tasks.choices.values():  # ``--db`` after the task too (it wins when given)
        task.add_argument("--db", default=argparse.SUPPRESS, help=where)


def token_task(db: Session, args: argparse.Namespace, where: str = "") -> int:
    """``admin token``, ``tokens`` and ``revoke-token``: 0, or 1 when nothing was found
    (``where``: the database, named when an account is not found in it)."""
    if args.task == "revoke-token":
        if revoke_token(db, args.token_id):
            print(f"token {args.token_id} is revoked")
            return 0
        print(f"there is no live token {args.token_id}")
        return 1
    user = db.scalar(select(UserRow).where(UserRow.username_key == username_key(args.username)))
    if user is None or user.level is not None or user.closed_at is not None:
        print(f"there is no account called {args.username}" + (f" in {where}" if where else ""))
        return 1
    if args.task == "token":
        secret = create_token(db, user.id, args.label, args.scope)
        print(f"a token for {user.username} ({' '.join(args.scope)}), shown this once:")
        print(secret)
        return 0
    found = tokens_of(db, user.id)
    if not found:
        print(f"{user.username} has no API token")
    for info in found:
        used = info.used_at or "never used"
        print(f"{info.id}\t{info.label}\t{' '.join(info.scopes)}\tmade {info.created_at}\t{used}")
    return 0


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
            if args.task in ("token", "tokens", "revoke-token"):
                shown = make_url(url).render_as_string(hide_password=True)
                return token_task(db, args, shown)
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
