"""Guessing passwords is slowed down, without letting an attacker lock an owner out.

Failed sign-ins are counted in the database (so every process sees them) per account, per
address and per device. After a few free failures, each further try of that account, from
that address or that device must wait longer: 1 s, 2 s, 4 s, ... at most 15 minutes after the
last failure (a try during the wait is refused unread, with ``Retry-After``). A success clears
the account's and the device's counts.

An attacker who fails on purpose against an account would make its owner wait too; so a
browser where the owner has signed in before carries a *device cookie* (signed by the server,
naming the account), and its tries count against that device instead of the account (OWASP's
"device cookies"). The owner signs in from their own browser whatever strangers try.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .. import timesource
from ..errors import say
from ..metrics import refused
from ..play.service import GameService
from ..store.db import SignInFailureRow
from .rules import AccountError

DEVICE_COOKIE = "device"
DEVICE_SECONDS = 365 * 86400
FREE = {"account": 5, "address": 20, "device": 10}
"""Failures in a row before waiting starts, per scope."""
MOST_WAIT = 900.0
FORGET_AFTER = 86400.0


def too_soon(retry: int) -> AccountError:
    """The refusal of a try made during its wait."""
    error = AccountError(
        say("too many failed sign-ins: wait {retry} s before trying again", retry=retry),
        "sign-in-throttled", 429,
    )  # fmt: skip
    error.retry_after = retry
    return error


def wait_after(failures: int, free: int) -> float:
    """Seconds to wait after ``failures`` failures in a row, the first ``free`` free."""
    if failures < free:
        return 0.0
    return min(MOST_WAIT, 2.0 ** (failures - free))


@dataclass(frozen=True)
class Device:
    """A browser where an account signed in: the account's key and the device's own."""

    account: str
    nonce: str


def _mac(secret: bytes, account: str, nonce: str) -> str:
    return hmac.new(secret, f"device:{account}:{nonce}".encode(), hashlib.sha256).hexdigest()[:32]


def device_cookie(secret: bytes, account: str, *, secure: bool) -> dict[str, Any]:
    """The arguments of ``response.set_cookie`` for a new device cookie of ``account``."""
    nonce = secrets.token_urlsafe(12)
    return {
        "key": DEVICE_COOKIE, "value": f"{account}.{nonce}.{_mac(secret, account, nonce)}",
        "max_age": DEVICE_SECONDS, "path": "/", "httponly": True, "samesite": "lax",
        "secure": secure,
    }  # fmt: skip


def read_device(secret: bytes, value: str | None) -> Device | None:
    """The device a cookie names, if the server signed it."""
    if not value or len(value) > 200:
        return None
    parts = value.rsplit(".", 2)
    if len(parts) != 3:
        return None
    account, nonce, mac = parts
    if not hmac.compare_digest(mac, _mac(secret, account, nonce)):
        return None
    return Device(account, nonce)


class SignInThrottle:
    """Failed sign-ins, counted in the database (see the module's note)."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    @staticmethod
    def scopes(account: str, address: str, device: Device | None) -> list[tuple[str, str]]:
        """The counts a try of ``account`` from ``address`` on ``device`` answers to."""
        mine = device is not None and device.account == account
        who = ("device", device.nonce) if mine and device is not None else ("account", account)
        return [who, ("address", address[:80])]

    async def check(self, account: str, address: str, device: Device | None) -> None:
        """Refuse (429, with ``retry_after``) a try made before its wait is over."""
        scopes = self.scopes(account, address, device)
        now = timesource.time()

        def read() -> list[SignInFailureRow]:
            with self.service.sessions() as db:
                return [r for s, k in scopes if (r := db.get(SignInFailureRow, (s, k)))]

        left = 0.0
        for row in await self.service.run_db(read):
            left = max(left, row.last_at + wait_after(row.failures, FREE[row.scope]) - now)
        if left > 0:
            refused("sign-in")
            raise too_soon(max(1, math.ceil(left)))

    async def failed(self, account: str, address: str, device: Device | None) -> None:
        """One more failure for each of the try's counts."""
        scopes = self.scopes(account, address, device)
        now = timesource.time()

        def write() -> None:
            for scope, key in scopes:
                for _ in range(2):  # a row made meanwhile by another process: update it
                    with self.service.sessions() as db:
                        bumped = db.execute(
                            update(SignInFailureRow)
                            .where(SignInFailureRow.scope == scope, SignInFailureRow.key == key)
                            .values(failures=SignInFailureRow.failures + 1, last_at=now)
                        )  # fmt: skip
                        if bumped.rowcount == 0:  # type: ignore[attr-defined]
                            db.add(SignInFailureRow(scope=scope, key=key, failures=1, last_at=now))
                        try:
                            db.commit()
                            break
                        except IntegrityError:
                            db.rollback()
            if secrets.randbelow(100) == 0:  # now and then, old counts go
                with self.service.sessions() as db:
                    db.execute(
                        delete(SignInFailureRow).where(
                            SignInFailureRow.last_at < now - FORGET_AFTER
                        )
                    )
                    db.commit()

        await self.service.run_db(write)

    async def succeeded(self, account: str, address: str, device: Device | None) -> None:
        """The owner is in: the account's (or device's) count starts again."""
        scopes = [s for s in self.scopes(account, address, device) if s[0] != "address"]

        def write() -> None:
            with self.service.sessions() as db:
                for scope, key in scopes:
                    db.execute(
                        delete(SignInFailureRow).where(
                            SignInFailureRow.scope == scope, SignInFailureRow.key == key
                        )
                    )
                db.commit()

        await self.service.run_db(write)

    async def failures(self, scope: str, key: str) -> int:
        """The failures in a row counted for ``scope`` and ``key`` (for tests and operators)."""

        def read() -> int:
            with self.service.sessions() as db:
                found = db.scalar(
                    select(SignInFailureRow.failures).where(
                        SignInFailureRow.scope == scope, SignInFailureRow.key == key
                    )
                )
                return int(found or 0)

        return await self.service.run_db(read)
