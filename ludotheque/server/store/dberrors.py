"""Which exceptions come from the database, and which of those a second try may cure.

PostgreSQL aborts one of two transactions that wait on each other (a deadlock, SQLSTATE
40P01) or that a serializable order refuses (40001); SQLite answers "database is locked" when
another writer held it past the busy timeout. Such a transaction wrote nothing, and the same
work tried again usually passes. Anything else from the database (a lost connection, a server
going down) may have happened after the commit was sent: see ``GameService._landed``.
"""

from __future__ import annotations

import logging
import sqlite3

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

TRANSIENT_STATES = frozenset({"40P01", "40001"})
WRITE_TRIES = 4
"""Tries of one write whose transaction the database aborted (deadlock, serialization)."""


def _cause(exc: BaseException) -> BaseException:
    """The driver's exception behind SQLAlchemy's wrapper, or ``exc`` itself."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return exc.orig
    return exc


def is_database_error(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by the database or its driver."""
    if isinstance(exc, SQLAlchemyError | sqlite3.Error):
        return True
    return type(exc).__module__.split(".")[0] == "psycopg"


def is_transient(exc: BaseException) -> bool:
    """Whether the database aborted the transaction so that trying again may pass."""
    cause = _cause(exc)
    if getattr(cause, "sqlstate", None) in TRANSIENT_STATES:
        return True
    return isinstance(cause, sqlite3.OperationalError) and "locked" in str(cause)


class Outage:
    """What a loop that keeps working says when its work fails: a database that is away is
    one warning line when it goes and one when it comes back (never a traceback a second);
    any other failure is a bug, logged with its traceback."""

    def __init__(self, log: logging.Logger, what: str) -> None:
        self.log = log
        self.what = what
        self.away = False

    def failed(self, exc: BaseException) -> None:
        if not is_database_error(exc):
            self.log.error("%s failed", self.what, exc_info=exc)
            return
        if not self.away:
            self.away = True
            first = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
            self.log.warning("%s: the database is away (%s); trying again", self.what, first)

    def succeeded(self) -> None:
        if self.away:
            self.away = False
            self.log.warning("%s: the database answers again", self.what)
