"""``ludotheque admin`` for moderators: the reported chat lines with their context, bans (who,
when, why; lifted by whom), and closing an account. See ``accounts.moderation``.

    ludotheque admin reports [--all] [--done ID]
    ludotheque admin ban NAME --reason "insults in chat"
    ludotheque admin unban NAME
    ludotheque admin bans [NAME]
    ludotheque admin close NAME

``--by`` names the moderator in the records (default: the system user running the command).
"""

from __future__ import annotations

import argparse
import datetime as dt
import getpass
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.moderation import (
    account_named,
    ban,
    bans_of,
    close_account,
    handle_report,
    names_of,
    reports,
    unban,
)
from ..store.db import BanRow, ReportRow

TASKS = ("reports", "ban", "unban", "bans", "close")


def _moderator() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        return "admin"


def add_parsers(tasks: Any) -> None:
    """The moderators' subcommands of ``admin``."""
    by = argparse.ArgumentParser(add_help=False)
    by.add_argument("--by", default=None, help="the moderator's name in the records "
                    "(default: the system user)")  # fmt: skip
    listing = tasks.add_parser("reports", help="list the reported chat lines, with context")
    listing.add_argument("--all", action="store_true", help="the handled ones too")
    listing.add_argument("--done", type=int, metavar="ID", help="mark this report handled")
    listing.add_argument("--limit", type=int, default=50, help="how many to list (default 50)")
    listing.add_argument("--by", default=None, help="the moderator's name in the records")
    banning = tasks.add_parser("ban", parents=[by], help="ban an account (no chat, no "
                               "lobby challenges, no rated games)")  # fmt: skip
    banning.add_argument("name", help="the account's username")
    banning.add_argument("--reason", required=True, help="why (kept with the ban)")
    lifting = tasks.add_parser("unban", parents=[by], help="lift an account's ban")
    lifting.add_argument("name", help="the account's username")
    history = tasks.add_parser("bans", help="list bans, the latest first")
    history.add_argument("name", nargs="?", help="only this account's")
    closing = tasks.add_parser("close", parents=[by], help="close an account for good")
    closing.add_argument("name", help="the account's username")


def _when(moment: dt.datetime | None) -> str:
    if moment is None:
        return "-"
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _seconds(stamp: Any) -> str:
    try:
        return dt.datetime.fromtimestamp(float(stamp), dt.UTC).strftime("%H:%M:%S")
    except (TypeError, ValueError, OverflowError):
        return "--:--:--"


def _print_report(report: ReportRow, names: dict[int, str]) -> None:
    def who(user_id: int | None, key: str, name: str | None) -> str:
        if user_id is not None:
            return f"{names.get(user_id, '?')} (account {user_id})"
        return f"{name or 'anonymous'} ({key})"

    state = f"handled {_when(report.handled_at)} by {report.handled_by}" if report.handled_at \
        else "waiting"  # fmt: skip
    print(f"report {report.id}\t{_when(report.at)}\t{state}")
    print(f"  game {report.game_id}, {report.channel}' chat")
    print(f"  said by {who(report.sender_user_id, report.sender, report.sender_name)}")
    print(f"  reported by {who(report.reporter_user_id, report.reporter, None)}")
    for line in report.context if isinstance(report.context, list) else []:
        if isinstance(line, dict):
            print(f"    {_seconds(line.get('at'))} {line.get('name') or line.get('sender')}: "
                  f"{line.get('text')}")  # fmt: skip
    print(f"  >> {report.sender_name or report.sender}: {report.text}")


def _print_ban(row: BanRow, names: dict[int, str]) -> None:
    lifted = f"lifted {_when(row.lifted_at)} by {row.lifted_by}" if row.lifted_at else "in force"
    print(f"ban {row.id}\t{names.get(row.user_id, '?')}\t{_when(row.banned_at)} by "
          f"{row.banned_by}\t{lifted}\treason: {row.reason}")  # fmt: skip


def run(db: Session, args: argparse.Namespace) -> int:
    """One moderators' subcommand; prints what it did. 0, or 1 when it could not be done."""
    by = getattr(args, "by", None) or _moderator()
    if args.task == "reports":
        if args.done is not None:
            if handle_report(db, args.done, by):
                print(f"report {args.done} is handled")
                return 0
            print(f"there is no waiting report {args.done}")
            return 1
        rows = reports(db, handled=args.all, limit=max(1, args.limit))
        if not rows:
            print("no report" if args.all else "no report waiting")
            return 0
        ids = {i for r in rows for i in (r.sender_user_id, r.reporter_user_id) if i is not None}
        ids |= {line["user_id"] for r in rows for line in r.context
                if isinstance(line, dict) and isinstance(line.get("user_id"), int)}  # fmt: skip
        names = names_of(db, ids)
        for report in rows:
            _print_report(report, names)
        return 0
    if args.task == "bans":
        user = account_named(db, args.name) if args.name else None
        if args.name and user is None:
            print(f"there is no account called {args.name}")
            return 1
        bans = bans_of(db, user.id if user is not None else None)
        if not bans:
            print("no ban")
            return 0
        names = names_of(db, {b.user_id for b in bans})
        for row in bans:
            _print_ban(row, names)
        return 0
    user = account_named(db, args.name)
    if user is None:
        print(f"there is no account called {args.name}")
        return 1
    if args.task == "ban":
        row, new = ban(db, user.id, args.reason, by)
        if not new:
            print(f"{user.username} is banned already (since {_when(row.banned_at)}, by "
                  f"{row.banned_by}: {row.reason})")  # fmt: skip
            return 1
        print(f"{user.username} is banned ({_when(row.banned_at)}, by {by}: {args.reason})")
        return 0
    if args.task == "unban":
        lifted = unban(db, user.id, by)
        if lifted is None:
            print(f"{user.username} is not banned")
            return 1
        print(f"{user.username} is no longer banned (the ban of {_when(lifted.banned_at)} "
              f"for: {lifted.reason})")  # fmt: skip
        return 0
    if close_account(db, user.id):
        print(f"the account {user.username} is closed (by {by})")
        return 0
    print(f"the account {user.username} is closed already")
    return 1


__all__ = ["TASKS", "add_parsers", "run"]
