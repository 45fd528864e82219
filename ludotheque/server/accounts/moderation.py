"""Moderation in the database: bans (who banned an account, when and why; who lifted it),
closing an account, and the chat lines people reported.

A banned account may still sign in, read, watch, and play casual games with friends; it may
not chat, post or accept challenges in the lobby (quick pairing included), nor start a rated
game against the computer. Every place that does one of those asks ``refuse_banned`` (in the
transaction that does it, where it can), so that a ban applies at once in every process.

A closed account can no longer sign in (its password is gone and its sessions end); its name
is no longer shown (its games and chat lines say "Closed account" instead, as lichess does),
its ratings leave the leaderboard, its seeks are withdrawn; its row stays, so that its name
(and every look-alike of it) stays taken: nobody can pass for it afterwards.

These functions take an open ``Session`` and commit: the server runs them through its
database thread, ``ludotheque admin`` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ..errors import GameError, say
from ..store.db import BanRow, ChatRow, LoginRow, ReportRow, SeekRow, UserRow, now
from .rules import username_key

BANNED = say(
    "Your account is banned: it cannot chat, post or accept challenges, nor play rated games.",
)
CLOSED_NAME = "Closed account"
"""What a closed account's name becomes where it was shown (``player.closed`` in the pages)."""


class Banned(GameError):
    """What a banned account is told when it tries to do what a ban forbids (403)."""

    def __init__(self) -> None:
        super().__init__(BANNED, "banned", 403)


def active_ban(db: Session, user_id: int) -> BanRow | None:
    """The ban in force on an account, if any (the latest one)."""
    return db.scalar(
        select(BanRow)
        .where(BanRow.user_id == user_id, BanRow.lifted_at.is_(None))
        .order_by(BanRow.id.desc())
        .limit(1)
    )


def refuse_banned(db: Session, user_id: int | None) -> None:
    """Raise ``Banned`` if ``user_id`` is a banned account (nothing for visitors)."""
    if user_id is not None and active_ban(db, user_id) is not None:
        raise Banned()


async def check_not_banned(run_db: Callable[[Callable[[], None]], Any], sessions: Any,
                           user_id: int | None) -> None:  # fmt: skip
    """``refuse_banned`` from the event loop: ``run_db`` and ``sessions`` are a game
    service's (its database thread and its sessions)."""
    if user_id is None:
        return

    def read() -> None:
        with sessions() as db:
            refuse_banned(db, user_id)

    await run_db(read)


def account_named(db: Session, name: str) -> UserRow | None:
    """The account (not a computer level) called ``name``, or a look-alike of it."""
    return db.scalar(
        select(UserRow).where(UserRow.username_key == username_key(name.strip()),
                              UserRow.level.is_(None))
    )  # fmt: skip


def _withdraw_seeks(db: Session, user_id: int) -> None:
    db.execute(
        update(SeekRow)
        .where(SeekRow.user_id == user_id, SeekRow.status == "open")
        .values(status="cancelled")
    )


def ban(db: Session, user_id: int, reason: str, by: str) -> tuple[BanRow, bool]:
    """Ban an account (its open seeks are withdrawn); the ban in force, and whether it is
    new (an account already banned keeps its ban)."""
    current = active_ban(db, user_id)
    if current is not None:
        return current, False
    row = BanRow(user_id=user_id, reason=reason, banned_by=by[:64], banned_at=now())
    db.add(row)
    _withdraw_seeks(db, user_id)
    db.commit()
    return row, True


def unban(db: Session, user_id: int, by: str) -> BanRow | None:
    """Lift the ban in force on an account; the ban lifted (``None``: it was not banned)."""
    current = active_ban(db, user_id)
    if current is None:
        return None
    current.lifted_at = now()
    current.lifted_by = by[:64]
    db.commit()
    return current


def bans_of(db: Session, user_id: int | None = None, limit: int = 50) -> list[BanRow]:
    """Bans, the most recent first: of one account, or of all."""
    query = select(BanRow).order_by(BanRow.id.desc()).limit(limit)
    if user_id is not None:
        query = query.where(BanRow.user_id == user_id)
    return list(db.scalars(query).all())


def close_account(db: Session, user_id: int) -> bool:
    """Close an account (see the module's note); whether it was open. Its sessions end in
    the database at once (each process forgets what it remembered of them within seconds)."""
    row = db.get(UserRow, user_id)
    if row is None or row.level is not None or row.closed_at is not None:
        return False
    row.closed_at = now()
    row.password_hash = None
    db.execute(delete(LoginRow).where(LoginRow.user_id == user_id))
    db.execute(update(ChatRow).where(ChatRow.user_id == user_id).values(name=None))
    _withdraw_seeks(db, user_id)
    db.commit()
    return True


def reports(db: Session, *, handled: bool = False, limit: int = 50) -> list[ReportRow]:
    """Reported chat lines, the oldest waiting first (``handled``: the handled ones too,
    most recent first)."""
    query = select(ReportRow)
    if handled:
        query = query.order_by(ReportRow.id.desc())
    else:
        query = query.where(ReportRow.handled_at.is_(None)).order_by(ReportRow.id)
    return list(db.scalars(query.limit(limit)).all())


def handle_report(db: Session, report_id: int, by: str) -> bool:
    """Mark a report handled; whether there was such a report waiting."""
    done = db.execute(
        update(ReportRow)
        .where(ReportRow.id == report_id, ReportRow.handled_at.is_(None))
        .values(handled_at=now(), handled_by=by[:64])
    )
    db.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


def names_of(db: Session, user_ids: set[int]) -> dict[int, str]:
    """The names of accounts by id, a closed account's as ``CLOSED_NAME`` (for moderators'
    listings: the account stays known by its id)."""
    if not user_ids:
        return {}
    rows = db.execute(
        select(UserRow.id, UserRow.username, UserRow.closed_at).where(UserRow.id.in_(user_ids))
    ).all()
    return {i: (f"{name} ({CLOSED_NAME.lower()})" if closed else name) for i, name, closed in rows}


__all__ = [
    "BANNED",
    "CLOSED_NAME",
    "Banned",
    "account_named",
    "active_ban",
    "ban",
    "bans_of",
    "check_not_banned",
    "close_account",
    "handle_report",
    "names_of",
    "refuse_banned",
    "reports",
    "unban",
]
