"""The server's settings: one object, read from the environment, with sane defaults.

Every limit is on by default; ``0`` switches a limit off. Each setting is read from the
environment variable named in its comment, so that every process of a deployment (``serve``
processes, ``worker`` processes) is configured the same way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

APP_NAME = "ludotheque"


def default_database_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ludotheque.sqlite3'}"


def _env(name: str, default: str) -> str:
    return os.environ.get(f"LUDOTHEQUE_{name}", default)


def _int(name: str, default: int) -> int:
    return int(_env(name, str(default)))


def _float(name: str, default: float) -> float:
    return float(_env(name, str(default)))


@dataclass(frozen=True)
class Settings:
    """What a server or worker process needs to know (environment variable in brackets)."""

    # SQLAlchemy URL [DATABASE_URL]; default: SQLite in the user's data directory
    database_url: str = field(default_factory=lambda: os.environ.get("DATABASE_URL", ""))
    # the live-update bus [LUDOTHEQUE_BUS]: "memory" (one process), "postgresql"
    # (LISTEN/NOTIFY, any number of processes), or "auto": postgresql on PostgreSQL
    bus: str = field(default_factory=lambda: _env("BUS", "auto"))
    # who thinks for the computer [LUDOTHEQUE_COMPUTER]: "inline" (the server process itself,
    # as a worker among others) or "queue" (only `ludotheque worker` processes)
    computer: str = field(default_factory=lambda: _env("COMPUTER", "inline"))
    # processes that think for an inline computer [LUDOTHEQUE_COMPUTER_WORKERS]
    computer_workers: int = field(default_factory=lambda: _int("COMPUTER_WORKERS", 1))
    # a pause before a computer move is shown, so people see what happens [..._COMPUTER_DELAY]
    computer_delay: float = field(default_factory=lambda: _float("COMPUTER_DELAY", 0.4))
    # seconds a computer move may take before it is tried again [LUDOTHEQUE_JOB_TIME_LIMIT]
    job_time_limit: float = field(default_factory=lambda: _float("JOB_TIME_LIMIT", 30.0))
    # a worker renews its hold on a job this often; a job not renewed for 3 times as long
    # belongs to a dead worker and is taken again [LUDOTHEQUE_JOB_HEARTBEAT]
    job_heartbeat: float = field(default_factory=lambda: _float("JOB_HEARTBEAT", 2.0))
    # tries of a computer move before the computer plays its quickest legal move
    # [LUDOTHEQUE_JOB_ATTEMPTS]
    job_attempts: int = field(default_factory=lambda: _int("JOB_ATTEMPTS", 3))
    # a game nobody has touched for this long leaves memory [LUDOTHEQUE_IDLE_SECONDS]
    idle_seconds: float = field(default_factory=lambda: _float("IDLE_SECONDS", 300.0))
    # an unfinished game with no change for this long is archived as abandoned
    # [LUDOTHEQUE_ABANDON_DAYS]
    abandon_days: float = field(default_factory=lambda: _float("ABANDON_DAYS", 30.0))
    # largest request body, in bytes [LUDOTHEQUE_MAX_BODY]
    max_body: int = field(default_factory=lambda: _int("MAX_BODY", 16384))
    # largest WebSocket message, in bytes [LUDOTHEQUE_MAX_MESSAGE]
    max_message: int = field(default_factory=lambda: _int("MAX_MESSAGE", 4096))
    # deepest nesting of a JSON message [LUDOTHEQUE_MAX_DEPTH]
    max_depth: int = field(default_factory=lambda: _int("MAX_DEPTH", 8))
    # games created per client address per minute [LUDOTHEQUE_CREATE_PER_MINUTE]
    create_per_minute: int = field(default_factory=lambda: _int("CREATE_PER_MINUTE", 30))
    # requests that change a game (moves, undos, ...) per address per minute
    # [LUDOTHEQUE_MOVES_PER_MINUTE]
    moves_per_minute: int = field(default_factory=lambda: _int("MOVES_PER_MINUTE", 600))
    # open WebSockets per client address [LUDOTHEQUE_CONNECTIONS_PER_ADDRESS]
    connections_per_address: int = field(
        default_factory=lambda: _int("CONNECTIONS_PER_ADDRESS", 64)
    )
    # origins allowed to open WebSockets besides the server's own, comma-separated
    # [LUDOTHEQUE_ALLOWED_ORIGINS]
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o.strip() for o in _env("ALLOWED_ORIGINS", "").split(",") if o.strip()
        )
    )
    # the server's secret for CSRF tokens, at least 16 bytes, the same in every process
    # [LUDOTHEQUE_SECRET]; unset: made once and kept beside the SQLite database, or in the
    # PostgreSQL database itself (see ``secret.server_secret``)
    secret: str = field(default_factory=lambda: _env("SECRET", ""))
    # Argon2id's cost for passwords [LUDOTHEQUE_PASSWORD_MEMORY, in KiB]
    password_memory: int = field(default_factory=lambda: _int("PASSWORD_MEMORY", 65536))
    # queued or running analyses one address (and one account) may have at once
    # [LUDOTHEQUE_ANALYSES_QUEUED]
    analyses_queued: int = field(default_factory=lambda: _int("ANALYSES_QUEUED", 3))
    # logs on standard error: "text" or "json" (one object a line) [LUDOTHEQUE_LOG_FORMAT]
    log_format: str = field(default_factory=lambda: _env("LOG_FORMAT", "text"))
    host: str = "127.0.0.1"
    port: int = 8000

    def resolved_database_url(self) -> str:
        return self.database_url or default_database_url()

    def resolved_bus(self) -> str:
        """The bus to use: ``auto`` is LISTEN/NOTIFY on PostgreSQL, in-memory otherwise."""
        if self.bus != "auto":
            return self.bus
        return "postgresql" if self.resolved_database_url().startswith("postgresql") else "memory"
