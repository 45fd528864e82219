"""Storage: games, their seats (capability tokens) and their append-only event log.

A game's state is never stored: it is rebuilt by replaying its events (moves, rolls, undos,
resignations) through a record, which re-validates every move. The log's unique
``(game_id, seq)`` decides races between server processes: of two changes written at the same
place in a game's log, the database accepts exactly one. Computer moves (and later analyses) are
rows of ``jobs``, taken by workers. The schema is managed by Alembic
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
    Float,
    ForeignKey,
    Index,
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
    __table_args__ = (Index("ix_games_unfinished", "finished_at", "updated_at"),)

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
    # the side to move after the last change (None when over): finds the computer's turns
    to_move: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the last change, for archiving games left unfinished for a long time
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


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


class JobRow(Base):
    """A piece of work for a worker: a computer move at one place (``seq``) of a game's log.

    Times are seconds since the epoch (floats: the computer's short pause needs sub-second
    precision). A running job whose ``lease_until`` passed belongs to a worker that died: any
    worker may take it again, up to the attempts allowed.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        UniqueConstraint("game_id", "kind", "seq"),
        Index("ix_jobs_status_not_before", "status", "not_before"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))  # computer
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # the log position the job answers
    status: Mapped[str] = mapped_column(String(16), default="queued")  # queued|running|done|failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    not_before: Mapped[float] = mapped_column(Float)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str) -> Engine:
    """An engine, with WAL and foreign keys for SQLite. Connections are not pinged before
    each use (a round trip per move): a connection the database dropped fails once, and the
    pool then replaces every connection of that generation."""
    connect_args: dict[str, Any] = {}
    options: dict[str, Any] = {"pool_recycle": 1800}
    if is_sqlite(url):
        connect_args["check_same_thread"] = False
    else:
        options.update(pool_size=10, max_overflow=20)
    engine = create_engine(url, connect_args=connect_args, **options)
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # with WAL, NORMAL loses no committed move when a process dies (only, at worst,
            # the last ones on a power cut) and spares an fsync per move
            cursor.execute("PRAGMA synchronous=NORMAL")
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
        if connection.dialect.name == "postgresql":
            # processes starting together migrate one after the other
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7145092301)")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def session_factory(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(engine, expire_on_commit=False)
