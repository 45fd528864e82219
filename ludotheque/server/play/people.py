"""Who plays a side of a game, as the game's page shows it, and as the database keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.db import PlayerRow, UserRow


@dataclass(frozen=True)
class Person:
    """A player of one side: an account (``user_id`` and ``name``), a computer level
    (``level``, and the account that holds its ratings), or an anonymous visitor of the lobby
    (``visitor``: a hash of their cookie); ``rating`` when the game began."""

    user_id: int | None = None
    name: str | None = None
    level: str | None = None
    visitor: str | None = None
    rating: float | None = None
    provisional: bool = True
    closed: bool = False  # a closed account: its name is no longer shown

    @property
    def rateable(self) -> bool:
        """Whether a rated game may count for this player (an account or a computer level)."""
        return self.user_id is not None

    def view(self) -> dict[str, Any]:
        """What a page shows: the name (``None``: anonymous), the level, the rating."""
        return {
            "name": self.name if self.level is None and not self.closed else None,
            "closed": self.closed,
            "level": self.level,
            "rating": None if self.rating is None else round(self.rating),
            "provisional": self.provisional,
        }


def people_of(db: Session, game_id: str) -> dict[str, Person]:
    """Who plays each side of a game (the sides with a known player)."""
    rows = db.execute(
        select(PlayerRow, UserRow)
        .outerjoin(UserRow, UserRow.id == PlayerRow.user_id)
        .where(PlayerRow.game_id == game_id)
    ).all()
    return {
        p.side: Person(
            p.user_id,
            u.username if u else None,
            u.level if u else None,
            p.visitor,
            p.rating,
            bool(p.provisional),
            bool(u is not None and u.closed_at is not None),
        )
        for p, u in rows
    }
