"""Personal API tokens: what a program shows instead of a session cookie.

A token is ``lud_`` and 32 random bytes (URL-safe base64): high-entropy, so a plain SHA-256
of it is all the database keeps (as for seats and sessions; no slow hash is needed to stop a
guess). It is shown once, when made, on the account page or by ``ludotheque admin token``.
Each has scopes: ``bot:play`` (play as a bot: the Bot API, making the account a bot),
``challenge`` (challenge players, accept and decline challenges), ``read`` (read the
account and its event stream). A request sends it as ``Authorization: Bearer <token>``; such
a request needs no CSRF token (no cookie authorises it).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..errors import GameError, say
from ..store.db import TokenRow, UserRow, now

PREFIX = "lud_"
SCOPES = ("bot:play", "challenge", "read")
LABEL_MAX = 64
MAX_TOKENS = 20  # live tokens per account
USED_EVERY = timedelta(minutes=10)  # a token's last use is written at most this often

UNKNOWN_SCOPE = say("unknown scope {scope!r}: the scopes are bot:play, challenge and read")
NO_SCOPE = say("choose at least one scope")
TOO_MANY_TOKENS = say("you have {n} tokens already; revoke one first", n=MAX_TOKENS)
BAD_TOKEN = say("this API token is unknown or revoked")
MISSING_SCOPE = say("this API token lacks the scope {scope}")


def new_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def read_scopes(given: Iterable[object]) -> tuple[str, ...]:
    """The scopes asked for, in ``SCOPES``' order (refused: an unknown one, or none)."""
    asked = {str(s).strip() for s in given if str(s).strip()}
    for scope in sorted(asked):
        if scope not in SCOPES:
            raise GameError(UNKNOWN_SCOPE.given(scope=scope[:40]), "bad-scope", 400)
    if not asked:
        raise GameError(NO_SCOPE, "bad-scope", 400)
    return tuple(s for s in SCOPES if s in asked)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None``: no such header)."""
    if not header:
        return None
    kind, _, value = header.strip().partition(" ")
    if kind.lower() != "bearer":
        return None
    return value.strip()


@dataclass(frozen=True)
class TokenInfo:
    """A token as the account page and ``admin`` list it (never its secret)."""

    id: int
    label: str
    scopes: tuple[str, ...]
    created_at: object
    used_at: object


def create_token(db: Session, user_id: int, label: str, scopes: Iterable[object]) -> str:
    """Make a token for ``user_id``: its secret, to show once."""
    chosen = read_scopes(scopes)
    live = db.scalars(
        select(TokenRow.id).where(TokenRow.user_id == user_id, TokenRow.revoked_at.is_(None))
    ).all()
    if len(live) >= MAX_TOKENS:
        raise GameError(TOO_MANY_TOKENS, "too-many-tokens", 409)
    secret = new_secret()
    name = " ".join(str(label).split())[:LABEL_MAX] or "token"
    db.add(TokenRow(user_id=user_id, token_sha256=token_digest(secret), label=name,
                    scopes=" ".join(chosen), created_at=now()))  # fmt: skip
    db.commit()
    return secret


def revoke_token(db: Session, token_id: int, user_id: int | None = None) -> bool:
    """Revoke a token (``user_id``: only if it is that account's); whether one was."""
    query = update(TokenRow).where(TokenRow.id == token_id, TokenRow.revoked_at.is_(None))
    if user_id is not None:
        query = query.where(TokenRow.user_id == user_id)
    done = db.execute(query.values(revoked_at=now()))
    db.commit()
    return bool(done.rowcount)  # type: ignore[attr-defined]


def tokens_of(db: Session, user_id: int) -> list[TokenInfo]:
    """The account's live tokens, newest first."""
    rows = db.scalars(
        select(TokenRow)
        .where(TokenRow.user_id == user_id, TokenRow.revoked_at.is_(None))
        .order_by(TokenRow.id.desc())
    ).all()
    return [TokenInfo(r.id, r.label, tuple(r.scopes.split()), r.created_at, r.used_at)
            for r in rows]  # fmt: skip


def token_owner(db: Session, secret: str) -> tuple[UserRow, tuple[str, ...]] | None:
    """The account a live token opens, and its scopes (``None``: unknown, revoked, or its
    account closed); its last use is written now and then."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    found = db.execute(
        select(TokenRow, UserRow)
        .join(UserRow, UserRow.id == TokenRow.user_id)
        .where(TokenRow.token_sha256 == token_digest(secret), TokenRow.revoked_at.is_(None))
    ).first()
    if found is None or found[1].closed_at is not None:
        return None
    token, user = found
    stamp = now()
    used = token.used_at
    if used is not None and used.tzinfo is None:
        used = used.replace(tzinfo=stamp.tzinfo)
    if used is None or stamp - used > USED_EVERY:
        token.used_at = stamp
        db.commit()
    return user, tuple(token.scopes.split())


def require_scope(scopes: tuple[str, ...] | None, *wanted: str) -> None:
    """Refuse (403) a token request whose token has none of the ``wanted`` scopes (``None``:
    a cookie, which may do all that its account may)."""
    if scopes is not None and not any(scope in scopes for scope in wanted):
        raise GameError(MISSING_SCOPE.given(scope=" or ".join(wanted)), "missing-scope", 403)
