"""The server's settings: one object, read from the environment by pydantic-settings.

Every setting is read from the variable named in its description (``LUDOTHEQUE_`` and its name
in capitals; ``DATABASE_URL`` for the database), so that every process of a deployment
(``serve`` processes, ``worker`` processes) is configured the same way. Every limit is on by
default; ``0`` switches a limit off. A value that does not read (``LUDOTHEQUE_MAX_BODY=16k``,
``LUDOTHEQUE_BUS=redis``) stops the process at start with a message that names the variable
and what it accepts (``SettingsError``), instead of failing later on its first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

APP_NAME = "ludotheque"
PREFIX = "LUDOTHEQUE_"

Count = Annotated[int, Field(ge=0)]
Seconds = Annotated[float, Field(ge=0)]


def default_database_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    folder = Path(platformdirs.user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ludotheque.sqlite3'}"


class SettingsError(ValueError):
    """Settings that do not read: the message names each variable and what it accepts."""


class Settings(BaseSettings):
    """What a server or worker process needs to know."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, frozen=True, extra="ignore", populate_by_name=True
    )

    database_url: str = Field(
        default="", validation_alias=AliasChoices("database_url", "DATABASE_URL"),
        description="the database's SQLAlchemy URL [DATABASE_URL]; default: SQLite in the "
        "user's data directory",
    )  # fmt: skip
    bus: Literal["auto", "memory", "postgresql"] = Field(
        default="auto", description="the live-update bus: memory (one process), postgresql "
        "(LISTEN/NOTIFY, any number of processes), or auto: postgresql on PostgreSQL",
    )  # fmt: skip
    computer: Literal["inline", "queue"] = Field(
        default="inline", description="who thinks for the computer: inline (the server "
        "process itself, as a worker among others) or queue (only `ludotheque worker`)",
    )  # fmt: skip
    computer_workers: Annotated[int, Field(ge=1)] = Field(
        default=1, description="processes that think for an inline computer"
    )
    computer_delay: Seconds = Field(
        default=0.4, description="seconds before a computer move is shown"
    )
    job_time_limit: Annotated[float, Field(gt=0)] = Field(
        default=30.0, description="seconds a computer move may take before it is tried again"
    )
    job_heartbeat: Annotated[float, Field(gt=0)] = Field(
        default=2.0, description="a worker renews its lease this often; a lease not renewed "
        "for 3 times as long is taken over",
    )  # fmt: skip
    job_attempts: Annotated[int, Field(ge=1)] = Field(
        default=3, description="tries of a computer move before its quickest legal move"
    )
    idle_seconds: Seconds = Field(
        default=300.0, description="a game nobody touches for this long leaves memory"
    )
    abandon_days: Seconds = Field(
        default=30.0, description="unfinished games with no change for this long are archived"
    )
    max_body: Count = Field(default=16384, description="largest request body, in bytes")
    max_message: Count = Field(default=4096, description="largest WebSocket message, in bytes")
    max_depth: Count = Field(default=8, description="deepest nesting of a JSON message")
    create_per_minute: Count = Field(
        default=30, description="games created per client address per minute"
    )
    moves_per_minute: Count = Field(
        default=600, description="moves and other changes per client address per minute"
    )
    connections_per_address: Count = Field(
        default=64, description="open WebSockets per client address"
    )
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(), description="other origins whose pages may open WebSockets "
        "(comma-separated)",
    )  # fmt: skip
    secret: str = Field(
        default="", description="signs CSRF tokens and seat links: at least 16 bytes, the same "
        "in every process; unset: made once and kept (see store.secret)",
    )  # fmt: skip
    password_memory: Annotated[int, Field(ge=8)] = Field(
        default=65536, description="Argon2id's memory per password hash, in KiB"
    )
    analyses_queued: Count = Field(
        default=3, description="analyses one address, and one account, may have waiting"
    )
    analysis_workers: Annotated[int, Field(ge=1)] = Field(
        default=1, description="analyses thought at once by one server or worker process"
    )
    analysis_time_limit: Annotated[float, Field(gt=0)] = Field(
        default=900.0, description="seconds an analysis may take before it is given up"
    )
    analyses_per_minute: Count = Field(
        default=30, description="analyses asked per client address per minute"
    )
    hint_workers: Annotated[int, Field(ge=1)] = Field(
        default=1, description="processes in each server that answer hints and the board"
    )
    hint_time_limit: Annotated[float, Field(gt=0)] = Field(
        default=20.0, description="seconds the best moves of one position may take"
    )
    hints_per_minute: Count = Field(
        default=120, description="best-move questions per client address per minute"
    )
    puzzles_dir: str | None = Field(
        default=None, description="a folder of puzzle sets (<game>.jsonl) served instead of "
        "the shipped ones (default: the shipped sets)",
    )  # fmt: skip
    log_format: Literal["text", "json"] = Field(
        default="text", description="logs on standard error: text, or json (an object a line)"
    )
    host: str = "127.0.0.1"
    port: int = 8000

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(o.strip() for o in value.split(",") if o.strip())
        return value

    @classmethod
    def read(cls, **given: Any) -> Settings:
        """The settings from the environment (and ``given``), or ``SettingsError``."""
        try:
            return cls(**given)
        except ValidationError as exc:
            raise SettingsError(explain(exc)) from None

    def resolved_database_url(self) -> str:
        return self.database_url or default_database_url()

    def resolved_bus(self) -> str:
        """The bus to use: ``auto`` is LISTEN/NOTIFY on PostgreSQL, in-memory otherwise."""
        if self.bus != "auto":
            return self.bus
        return "postgresql" if self.resolved_database_url().startswith("postgresql") else "memory"


def variable(name: str) -> str:
    """The environment variable of setting ``name``."""
    return "DATABASE_URL" if name == "database_url" else PREFIX + name.upper()


def explain(exc: ValidationError) -> str:
    """One line per wrong setting: its variable, the value given, and what it accepts."""
    lines = []
    for error in exc.errors():
        name = str(error["loc"][0]) if error.get("loc") else "?"
        field = Settings.model_fields.get(name)
        what = field.description if field is not None and field.description else ""
        given = error.get("input")
        lines.append(f"{variable(name)}={given!s}: {error['msg'].lower()}"
                     + (f" ({what})" if what else ""))  # fmt: skip
    return "the settings do not read:\n  " + "\n  ".join(lines)
