"""What a reader does with others' chat lines: report one to the moderators, mute a sender.

A report keeps the line, the lines said before it in that chat (``CONTEXT`` of them, as they
were then: a line edited or a name closed later does not change what the moderators read),
the game and channel, who said it and who reported it. Reporting a line twice is one report
(a unique ``(line, reporter)``). Mutes of a signed-in reader are kept with their account, so
that they follow them from browser to browser; a visitor's stay in their browser.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import GameError, say
from ..store.db import ChatRow, MuteRow, ReportRow, now

CONTEXT = 10  # lines before the reported one kept with the report
MAX_MUTES = 500  # senders one account may keep muted

NO_SUCH_LINE = say("This message is not in your chat.")
OWN_LINE = say("You cannot report your own message.")
BAD_MUTE = say("Nobody to mute here.")


def muted_by(db: Session, user_id: int) -> list[str]:
    """Whom an account muted (the pages' keys of the senders), oldest first."""
    return list(
        db.scalars(
            select(MuteRow.muted)
            .where(MuteRow.user_id == user_id)
            .order_by(MuteRow.at, MuteRow.muted)
        ).all()
    )


def set_muted(db: Session, user_id: int, keys: list[str], muted: bool) -> list[str]:
    """Mute (or unmute) the senders ``keys`` for an account; whom it mutes now. Past
    ``MAX_MUTES`` the oldest mutes go."""
    wanted = [k for k in dict.fromkeys(keys) if isinstance(k, str) and 0 < len(k) <= 80]
    if not wanted or len(wanted) > 200:
        raise GameError(BAD_MUTE, "bad-request", 400)
    if muted:
        have = set(muted_by(db, user_id))
        for key in wanted:
            if key not in have:
                db.add(MuteRow(user_id=user_id, muted=key, at=now()))
        db.flush()
        count = db.scalar(select(func.count()).where(MuteRow.user_id == user_id)) or 0
        if count > MAX_MUTES:
            oldest = muted_by(db, user_id)[: count - MAX_MUTES]
            db.execute(delete(MuteRow).where(MuteRow.user_id == user_id,
                                             MuteRow.muted.in_(oldest)))  # fmt: skip
    else:
        db.execute(delete(MuteRow).where(MuteRow.user_id == user_id, MuteRow.muted.in_(wanted)))
    db.commit()
    return muted_by(db, user_id)


def _line(row: ChatRow) -> dict[str, Any]:
    return {"id": row.id, "at": row.at, "sender": row.sender, "name": row.name,
            "user_id": row.user_id, "text": row.text}  # fmt: skip


def report(
    db: Session,
    game_id: str,
    channel: str,
    line_id: Any,
    reporter: str,
    reporter_user_id: int | None,
    me: str,
) -> tuple[ReportRow, bool]:
    """Report the line ``line_id`` of ``game_id``'s ``channel`` (the one the reporter reads;
    ``me``: their own sender key there): the report, and whether it is new."""
    row = db.get(ChatRow, line_id) if isinstance(line_id, int) else None
    if row is None or row.game_id != game_id or row.channel != channel:
        raise GameError(NO_SUCH_LINE, "not-found", 404)
    if row.sender == me:
        raise GameError(OWN_LINE, "bad-request", 400)
    known = db.scalar(
        select(ReportRow).where(ReportRow.chat_id == row.id, ReportRow.reporter == reporter)
    )
    if known is not None:
        return known, False
    before = db.scalars(
        select(ChatRow)
        .where(ChatRow.game_id == game_id, ChatRow.channel == channel, ChatRow.id < row.id)
        .order_by(ChatRow.id.desc())
        .limit(CONTEXT)
    ).all()
    made = ReportRow(
        chat_id=row.id, game_id=game_id, channel=channel, sender=row.sender,
        sender_user_id=row.user_id, sender_name=row.name, text=row.text,
        context=[_line(r) for r in reversed(before)], reporter=reporter[:80],
        reporter_user_id=reporter_user_id, at=now(),
    )  # fmt: skip
    db.add(made)
    try:
        db.commit()
    except IntegrityError:  # the same reporter, at the same moment, from another page
        db.rollback()
        known = db.scalar(
            select(ReportRow).where(ReportRow.chat_id == row.id, ReportRow.reporter == reporter)
        )
        if known is None:
            raise
        return known, False
    return made, True


__all__ = ["CONTEXT", "muted_by", "report", "set_muted"]
