"""Storage: games, their seats (capability tokens) and their append-only event log.

A game's state is never stored: it is rebuilt by replaying its events (moves, rolls, undos,
resignations) through a record, which re-validates every move. The schema is managed by Alembic
(``ludotheque/server/migrations``); SQLite runs in WAL mode.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def token_hash(token: str) -> str:
    """Seats are stored as hashes of their tokens: a database copy gives no seat away."""
    return hashlib.sha256(token.encode()).hexdigest()


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: what it is and who plays it; its moves are in ``events``."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))  # local | computer | friend
    start: Mapped[str | None] = mapped_column(Text, nullable=True)
    players: Mapped[dict[str, Any]] = mapped_column(JSON)  # side -> "human" | level name
    computer_side: Mapped[str | None] = mapped_column(String(16), nullable=True)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seed: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    """A capability: whoever holds the token may play ``side`` (or ``both``), or ``watch``."""

    __tablename__ = "seats"

    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    side: Mapped[str] = mapped_column(String(16))


class EventRow(Base):
    """One entry of a game's append-only log."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def make_engine(url: str) -> Engine:
    """An engine, with WAL and foreign keys for SQLite."""
    connect_args: dict[str, Any] = {}
    if url.startswith("sqlite"):
        connect_args["check_same_thread"] = False
    engine = create_engine(url, connect_args=connect_args)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema up to date (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def session_factory(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(engine, expire_on_commit=False)
