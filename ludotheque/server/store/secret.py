"""The server's secret (it signs CSRF tokens), the same in every process of a deployment.

``LUDOTHEQUE_SECRET`` when it is set (at least 16 bytes). Otherwise one is made once and kept:
beside a SQLite database, in a file of its own readable by its owner only (so that
``ludotheque serve`` still needs nothing else); on any other database, in the database itself
(table ``server_settings``), where every process finds the same one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..settings import Settings
from .db import SettingRow

MIN_BYTES = 16
NAME = "csrf_secret"


def _sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (``None``: not SQLite, or in memory)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[1] if "///" in url else ""
    path = path.split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path)


def _from_file(path: Path) -> str:
    """The secret kept in ``path``, made there first if there is none (by whichever process
    comes first: the file is created exclusively, then read by everyone)."""
    if not path.exists():
        value = secrets.token_urlsafe(32)
        with contextlib.suppress(FileExistsError):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(value + "\n")
    for _ in range(50):  # another process may be between creating and writing it
        text = path.read_text().strip()
        if text:
            return text
        time.sleep(0.01)
    raise RuntimeError(f"the secret file {path} is empty")


def _from_database(engine: Engine) -> str:
    with Session(engine) as db:
        row = db.get(SettingRow, NAME)
        if row is None:
            db.add(SettingRow(name=NAME, value=secrets.token_urlsafe(32)))
            try:
                db.commit()
            except IntegrityError:  # made at the same instant by another process
                db.rollback()
        value = db.scalar(select(SettingRow.value).where(SettingRow.name == NAME))
    assert value is not None
    return value


def server_secret(settings: Settings, engine: Engine) -> bytes:
    """The secret of this deployment (see the module's note)."""
    if settings.secret:
        value = settings.secret.encode()
        if len(value) < MIN_BYTES:
            raise ValueError(f"LUDOTHEQUE_SECRET must have at least {MIN_BYTES} bytes")
        return value
    path = _sqlite_file(settings.resolved_database_url())
    if path is not None:
        return _from_file(path.with_name(path.name + ".secret")).encode()
    return _from_database(engine).encode()
