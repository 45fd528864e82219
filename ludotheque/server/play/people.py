"""Who plays a side of a game, as the game's page shows it, and as the database keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.db import GameRow, PlayerRow, UserRow


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


@dataclass(frozen=True)
class Running:
    """A game someone is playing now, as their lists show it (home page, profile)."""

    id: str
    game: str
    side: str
    opponent: Person | None  # None: nobody known yet (a friend's seat not taken)
    my_turn: bool
    control: str | None
    rated: bool
    updated_at: datetime | None


def running_of(
    db: Session, user_id: int | None = None, visitor: str | None = None, limit: int = 50
) -> list[Running]:
    """The unfinished games an account (or an anonymous visitor of the lobby) plays, the
    most recently changed first: each is reached again through ``/resume/<id>``."""
    if user_id is None and visitor is None:
        return []
    mine = PlayerRow.user_id == user_id if user_id is not None else PlayerRow.visitor == visitor
    rows = db.execute(
        select(GameRow, PlayerRow.side)
        .join(PlayerRow, PlayerRow.game_id == GameRow.id)
        .where(mine, GameRow.finished_at.is_(None))
        .order_by(GameRow.updated_at.desc().nulls_last(), GameRow.created_at.desc(), GameRow.id)
        .limit(limit)
    ).all()
    out = []
    for game, side in rows:
        people = people_of(db, game.id)
        others = [p for s, p in people.items() if s != side]
        opponent = others[0] if others else None
        turn = game.to_move == side
        row = Running(game.id, game.game, side, opponent, turn, game.control, bool(game.rated),
                      game.updated_at)  # fmt: skip
        out.append(row)
    return out
