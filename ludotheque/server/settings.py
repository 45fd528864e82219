"""The server's settings: one object, read from the environment, with sane defaults."""

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


@dataclass(frozen=True)
class Settings:
    """``database_url``: SQLAlchemy URL (``DATABASE_URL``; default SQLite in the user's data
    directory); ``computer_workers``: processes that think for the computer players;
    ``computer_delay``: a pause before a computer move is shown, so people see what happens."""

    database_url: str = field(default_factory=lambda: os.environ.get("DATABASE_URL", ""))
    computer_workers: int = int(os.environ.get("LUDOTHEQUE_COMPUTER_WORKERS", "1"))
    computer_delay: float = float(os.environ.get("LUDOTHEQUE_COMPUTER_DELAY", "0.4"))
    host: str = "127.0.0.1"
    port: int = 8000

    def resolved_database_url(self) -> str:
        return self.database_url or default_database_url()
