"""Storage: games, their seats (capability tokens) and their append-only event log; accounts,
ratings, the lobby's seeks, the games' chat and its moderation (reports, mutes, bans), and the
lessons' steps each account has solved.

A game's state is never stored: it is rebuilt by replaying its events (moves, rolls, undos,
resignations, the clock's state after each change, the end on time) through a record, which
re-validates every move. The log's unique ``(game_id, seq)`` decides races between server
processes: of two changes written at the same place in a game's log, the database accepts
exactly one. Computer moves, flag falls and rating updates are rows of ``jobs``, taken by
workers. A seek is paired by a conditional update (``status = 'open'``): of two processes
accepting one seek, one wins. The schema is managed by Alembic
(``ludotheque/server/migrations``); SQLite runs in WAL mode.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
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

from .. import timesource

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    """The time to store (``timesource.now``: the server's one clock, which tests replace)."""
    return timesource.now()


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
    # the time control (``clocks.TimeControl`` key; None: no clock), whether the game is rated,
    # and whether it is listed in the lobby's games being played (lobby games are)
    control: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    public: Mapped[bool] = mapped_column(Boolean, default=False)


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
        UniqueConstraint("tournament_id", "kind", "seq", name="uq_jobs_tournament_kind_seq"),
        Index("ix_jobs_status_not_before", "status", "not_before"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))  # computer | clock | rate | tournament | ...
    # the game the job is about; a tournament's own jobs (its start, rounds, re-pairings and
    # end) have none, and say their tournament instead (``seq``: the tournament's step)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), index=True, nullable=True)
    tournament_id: Mapped[str | None] = mapped_column(
        ForeignKey("tournaments.id"), index=True, nullable=True
    )
    seq: Mapped[int] = mapped_column(Integer)  # the log position the job answers
    status: Mapped[str] = mapped_column(String(16), default="queued")  # queued|running|done|failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    not_before: Mapped[float] = mapped_column(Float)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class UserRow(Base):
    """An account, or one of the computer's levels (``level`` set, no password): those have
    ratings too, so that a player sees how strong each level is."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    # the look-alike skeleton (``accounts.username_key``): two names with one key cannot exist
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # a closed account: no sign-in, its name no longer shown; the row (and its key) stays, so
    # that nobody else takes the name
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # a bot account (``bots``): set once, never undone; its name shows BOT everywhere
    bot_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TokenRow(Base):
    """A personal API token: the SHA-256 of its secret (shown once, never stored), its
    scopes (space-separated), and when it was made, last used and revoked."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LoginRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie, and when it was last used."""

    __tablename__ = "logins"

    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PlayerRow(Base):
    """Who plays a side of a game: an account (``user_id``), an anonymous visitor of the lobby
    (``visitor``: the hash of their cookie), the computer (neither); the rating they had
    when the game began and, once it is rated, how it changed."""

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    side: Mapped[str] = mapped_column(String(16), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    visitor: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    change: Mapped[float | None] = mapped_column(Float, nullable=True)


class RatingRow(Base):
    """A player's Glicko-2 rating in one game and ruleset, with their results there."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game", "ruleset", "rating"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    last_played: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatingHistoryRow(Base):
    """A rating after one rated game: the points of a profile's chart."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SeekRow(Base):
    """A player waiting in the lobby: an open challenge, a quick-pairing seek, or a challenge
    to a named player. ``status`` goes from ``open`` to ``paired`` (with ``game_id``) by a
    conditional update, or to ``cancelled``, ``declined`` or ``expired``. ``seen_at`` is
    renewed while the owner's lobby page is open; a seek not seen for a while is gone."""

    __tablename__ = "seeks"
    __table_args__ = (Index("ix_seeks_status_created", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # open | quick
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    visitor: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: anonymous
    game: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(String(32))
    control: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    side: Mapped[str | None] = mapped_column(String(16), nullable=True)
    opponent_key: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    opponent_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(12), default="open")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ChatRow(Base):
    """A chat message, kept with its game (not in its move log): the players' or the
    watchers' channel."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(64))
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    # the sender's own name for the line (a page's random word): a line sent again after a
    # lost answer is recognised, not written twice
    nonce: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ReportRow(Base):
    """A chat line reported to the moderators by someone who read it: the line, the lines
    before it (``context``, as they were then), where it was said, who said and who reported
    it. One report per line and reporter."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("chat_id", "reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(ForeignKey("chat.id"), index=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    channel: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(64))
    sender_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    sender_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    context: Mapped[list[Any]] = mapped_column(JSON)
    reporter: Mapped[str] = mapped_column(String(80))  # ``Who.key``, or the game and seat
    reporter_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    handled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    handled_by: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MuteRow(Base):
    """Someone a signed-in player muted in chat (``muted``: the page's key of the sender),
    kept with the account so that it follows them from browser to browser."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    muted: Mapped[str] = mapped_column(String(80), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BanRow(Base):
    """A ban of an account: who banned it, when and why; and, once lifted, who lifted it and
    when. An account is banned while one of its bans is not lifted."""

    __tablename__ = "bans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(Text)
    banned_by: Mapped[str] = mapped_column(String(64))
    banned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    lifted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lifted_by: Mapped[str | None] = mapped_column(String(64), nullable=True)


class RateCountRow(Base):
    """Requests of one kind from one client (an address, an account) in one minute window,
    summed over every process (see ``shared_limits``)."""

    __tablename__ = "rate_counts"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    window: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class SignInFailureRow(Base):
    """Failed sign-ins in a row for one account, address or device (see ``throttle``)."""

    __tablename__ = "sign_in_failures"

    scope: Mapped[str] = mapped_column(String(8), primary_key=True)  # account|address|device
    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """Someone with a live connection (a lobby or game WebSocket) on one server process: a
    row per process and person, renewed while the connection lasts (see ``lobby.presence``).
    ``key`` is ``u<account id>`` or ``v<visitor hash>``; ``seen_at`` is seconds since the
    epoch."""

    __tablename__ = "presence"
    __table_args__ = (Index("ix_presence_seen_at", "seen_at"),)

    process: Mapped[str] = mapped_column(String(24), primary_key=True)
    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seen_at: Mapped[float] = mapped_column(Float)


class LessonRow(Base):
    """A step of a lesson an account has solved (``ludotheque.lessons``), and when: one row
    per account, game and step, written once (a step solved again changes nothing)."""

    __tablename__ = "lesson_steps"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    step: Mapped[str] = mapped_column(String(32), primary_key=True)
    solved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TournamentRow(Base):
    """A tournament: an arena (``minutes`` long, players paired again as they finish) or a
    Swiss (``rounds`` rounds), of one game and ruleset on one clock (backgammon: matches of
    ``length`` points). ``status`` goes upcoming → running → finished; ``step`` counts the
    tournament's changes (its jobs are one per step: of two workers, one moves it on);
    ``round`` is the Swiss round being played (the arena's: how many pairings were made).
    Times are seconds since the epoch."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status_starts", "status", "starts_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))  # arena | swiss
    game: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(String(32))
    control: Mapped[str] = mapped_column(String(16))
    length: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[float] = mapped_column(Float)
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(12), default="upcoming")
    round: Mapped[int] = mapped_column(Integer, default=0)
    step: Mapped[int] = mapped_column(Integer, default=0)


class EntrantRow(Base):
    """A player of a tournament: their rating when they joined (the Swiss pairing number
    follows it), and whether they withdrew (a withdrawn player is paired no more; their games
    stay in the table)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class PairingRow(Base):
    """A tournament game (or a Swiss bye: no black, no game): who plays the first side
    (``white``) and the second (``black``), the game once made (``pending`` → ``playing`` →
    ``done``), its result for the first side (``win``, ``draw``, ``loss``, ``none`` for a game
    without result, ``bye``) and who played berserk."""

    __tablename__ = "tournament_games"
    __table_args__ = (Index("ix_tournament_games_t_status", "tournament_id", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer, default=0)
    white: Mapped[int] = mapped_column(ForeignKey("users.id"))
    black: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    status: Mapped[str] = mapped_column(String(8), default="pending")
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    berserk_white: Mapped[bool] = mapped_column(Boolean, default=False)
    berserk_black: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class SettingRow(Base):
    """Values every process of a deployment shares (the CSRF secret on PostgreSQL)."""

    __tablename__ = "server_settings"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class PuzzleRatingRow(Base):
    """A puzzle's live Glicko-2 rating (a row once it has been rated: before, the set's)."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class PuzzlePlayerRow(Base):
    """An account's puzzle rating in one game, and its best streak there."""

    __tablename__ = "puzzle_players"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    last_played: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleDoneRow(Base):
    """A puzzle an account has answered, rated once: the row's primary key decides it (of two
    first answers at once, the database keeps one)."""

    __tablename__ = "puzzle_done"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    won: Mapped[bool] = mapped_column(Boolean)
    change: Mapped[float] = mapped_column(Float, default=0.0)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleAttemptRow(Base):
    """One try at a puzzle, by anyone (its id is the capability that plays it): how far the
    solver got (``step``: the solver's moves answered right), its result once known (``win``,
    ``loss``), whether it counts for the ratings, and the streak it belongs to."""

    __tablename__ = "puzzle_attempts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(48))
    game: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    mode: Mapped[str] = mapped_column(String(16))  # play | daily | streak | mistake
    streak_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    solved: Mapped[bool] = mapped_column(Boolean, default=False)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzleStreakRow(Base):
    """A streak: puzzles of rising rating until a wrong move; ``count`` solved so far."""

    __tablename__ = "puzzle_streaks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    last_rating: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


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
    """Bring the schema up to date (Alembic ``upgrade heads``: independent features may add
    their tables on branches of their own, each from the revision it needs)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # processes starting together migrate one after the other
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7145092301)")
        config.attributes["connection"] = connection
        command.upgrade(config, "heads")


def session_factory(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(engine, expire_on_commit=False)
