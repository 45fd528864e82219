"""Accounts in the database: signing up, in and out, and finding who a session belongs to.

The rules (usernames, passwords, hashing, tokens) are ``accounts``'s; this module stores
them. Passwords are hashed in a thread of their own (Argon2id takes a tenth of a second on
purpose), never on the event loop nor in the database's thread. A session is found by the
SHA-256 of its cookie; each process remembers what it found for a few seconds, so that the
pages and sockets of one visit do not each ask the database.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .. import timesource
from ..errors import say
from ..play.service import GameService
from ..store.db import LoginRow, UserRow, now
from .moderation import close_account
from .rules import (
    SESSION_SECONDS,
    USERNAME_TAKEN,
    WRONG_CREDENTIALS,
    AccountError,
    Passwords,
    new_session_token,
    session_hash,
    username_key,
    validate_password,
    validate_username,
)

CACHE_SECONDS = 5.0
SEEN_EVERY = timedelta(hours=1)  # a session's last use is written at most this often

WRONG_PASSWORD = say("This is not your current password.")


@dataclass(frozen=True)
class User:
    """An account as the app shows it (``level``: one of the computer's levels; ``closed``:
    a closed account, whose name is no longer shown)."""

    id: int
    username: str
    level: str | None = None
    closed: bool = False


class Users:
    """Accounts and sessions on the service's database."""

    def __init__(self, service: GameService, passwords: Passwords | None = None) -> None:
        self.service = service
        memory = service.settings.password_memory
        if passwords is None:  # a tiny memory cost is for tests: the cheapest hash then
            passwords = Passwords(memory_cost=memory) if memory >= 1024 else Passwords.cheap()
        self.passwords = passwords
        self.cache: dict[str, tuple[float, User | None]] = {}
        self.computers: dict[str, User] = {}

    async def sign_up(self, username: object, password: object) -> tuple[User, str]:
        """A new account and its first session's token; ``AccountError`` if the name or the
        password is not acceptable, or the name (or a look-alike of it) is taken."""
        name = validate_username(username)
        secret = validate_password(password, name)
        hashed = await asyncio.to_thread(self.passwords.hash, secret)
        token = new_session_token()

        def write() -> User:
            with self.service.sessions() as db:
                row = UserRow(username=name, username_key=username_key(name),
                              password_hash=hashed)  # fmt: skip
                db.add(row)
                try:
                    db.flush()
                except IntegrityError:
                    db.rollback()
                    raise AccountError(USERNAME_TAKEN, "username-taken", 409) from None
                db.add(LoginRow(token_sha256=session_hash(token), user_id=row.id))
                db.commit()
                return User(row.id, row.username)

        return await self.service.run_db(write), token

    async def sign_in(self, username: object, password: object) -> tuple[User, str]:
        """A new session for the account, or ``AccountError`` (the same message whether the
        name or the password was wrong, in the same time)."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise AccountError(WRONG_CREDENTIALS, "wrong-credentials", 401)
        key = username_key(username.strip())

        def read() -> UserRow | None:
            with self.service.sessions() as db:
                return db.scalar(
                    select(UserRow).where(
                        UserRow.username_key == key, UserRow.level.is_(None),
                        UserRow.closed_at.is_(None),
                    )
                )  # fmt: skip

        row = await self.service.run_db(read)
        stored = row.password_hash if row is not None else None
        verdict = await asyncio.to_thread(self.passwords.verify, stored, password)
        if row is None or not verdict.ok or row.username.lower() != username.strip().lower():
            raise AccountError(WRONG_CREDENTIALS, "wrong-credentials", 401)
        token = new_session_token()
        user_id = row.id

        def write() -> None:
            with self.service.sessions() as db:
                db.add(LoginRow(token_sha256=session_hash(token), user_id=user_id))
                if verdict.rehash is not None:
                    db.execute(
                        update(UserRow)
                        .where(UserRow.id == user_id)
                        .values(password_hash=verdict.rehash)
                    )
                db.commit()

        await self.service.run_db(write)
        return User(row.id, row.username), token

    async def sign_out(self, token: str | None) -> None:
        """End the session of ``token`` (everywhere: its row is deleted)."""
        if not token:
            return
        digest = session_hash(token)
        self.cache.pop(digest, None)

        def write() -> None:
            with self.service.sessions() as db:
                db.execute(delete(LoginRow).where(LoginRow.token_sha256 == digest))
                db.commit()

        await self.service.run_db(write)

    async def current(self, token: str | None) -> User | None:
        """The account whose session ``token`` is (``None``: none, or expired)."""
        if not token or len(token) > 200:
            return None
        digest = session_hash(token)
        cached = self.cache.get(digest)
        moment = timesource.monotonic()
        if cached is not None and moment - cached[0] < CACHE_SECONDS:
            return cached[1]

        def read() -> User | None:
            with self.service.sessions() as db:
                found = db.execute(
                    select(LoginRow, UserRow)
                    .join(UserRow, UserRow.id == LoginRow.user_id)
                    .where(LoginRow.token_sha256 == digest)
                ).first()
                if found is None:
                    return None
                login, user = found
                stamp = now()
                seen = (
                    login.seen_at
                    if login.seen_at.tzinfo
                    else login.seen_at.replace(tzinfo=stamp.tzinfo)
                )
                if stamp - seen > timedelta(seconds=SESSION_SECONDS):
                    db.delete(login)
                    db.commit()
                    return None
                if stamp - seen > SEEN_EVERY:
                    login.seen_at = stamp
                    db.commit()
                return User(user.id, user.username, user.level)

        user = await self.service.run_db(read)
        if len(self.cache) > 10_000:
            self.cache.clear()
        self.cache[digest] = (moment, user)
        return user

    async def named(self, username: str) -> User | None:
        """The account called ``username`` (or a look-alike of it), or a computer level's."""
        if not isinstance(username, str) or not 0 < len(username) <= 40:
            return None
        key = username_key(username.strip())

        def read() -> User | None:
            with self.service.sessions() as db:
                row = db.scalar(select(UserRow).where(UserRow.username_key == key))
                if row is None:
                    return None
                return User(row.id, row.username, row.level, row.closed_at is not None)

        return await self.service.run_db(read)

    def _forget(self, user_id: int, keep: str | None = None) -> None:
        """Forget what this process remembers of ``user_id``'s sessions (but ``keep``'s)."""
        for digest, (_, user) in list(self.cache.items()):
            if user is not None and user.id == user_id and digest != keep:
                self.cache.pop(digest, None)

    async def _check_password(self, user: User, password: object) -> UserRow:
        """The account's row if ``password`` is its password, else ``AccountError``."""

        def read() -> UserRow | None:
            with self.service.sessions() as db:
                return db.get(UserRow, user.id)

        row = await self.service.run_db(read)
        stored = row.password_hash if row is not None and row.closed_at is None else None
        given = password if isinstance(password, str) else ""
        verdict = await asyncio.to_thread(self.passwords.verify, stored, given)
        if row is None or stored is None or not verdict.ok:
            raise AccountError(WRONG_PASSWORD, "wrong-password", 403)
        return row

    async def change_password(
        self, user: User, session: str | None, current: object, new: object
    ) -> None:
        """Give ``user`` the password ``new`` once ``current`` is checked: every other
        session of the account ends (``session``, the one asking, stays signed in)."""
        await self._check_password(user, current)
        secret = validate_password(new, user.username)
        hashed = await asyncio.to_thread(self.passwords.hash, secret)
        keep = session_hash(session) if session else ""

        def write() -> None:
            with self.service.sessions() as db:
                db.execute(update(UserRow).where(UserRow.id == user.id)
                           .values(password_hash=hashed))  # fmt: skip
                db.execute(
                    delete(LoginRow).where(LoginRow.user_id == user.id,
                                           LoginRow.token_sha256 != keep)
                )  # fmt: skip
                db.commit()

        await self.service.run_db(write)
        self._forget(user.id, keep)

    async def close(self, user: User, password: object) -> None:
        """Close ``user``'s account once its password is checked (see ``moderation``)."""
        await self._check_password(user, password)

        def write() -> None:
            with self.service.sessions() as db:
                close_account(db, user.id)

        await self.service.run_db(write)
        self._forget(user.id)

    async def computer(self, level: str) -> User | None:
        """The account that holds a computer level's ratings."""
        found = self.computers.get(level)
        if found is not None:
            return found

        def read() -> User | None:
            with self.service.sessions() as db:
                row = db.scalar(select(UserRow).where(UserRow.level == level))
                return None if row is None else User(row.id, row.username, row.level)

        user = await self.service.run_db(read)
        if user is not None:
            self.computers[level] = user
        return user
