"""Who is asking: the signed-in account (a session cookie), or an anonymous visitor, and the
CSRF check of every state-changing request a cookie authorises.

A visitor without a session gets a random ``CSRF_COOKIE`` with the first page: it binds the
CSRF tokens of their forms (a signed double-submit) and, hashed, names them in the lobby (their
seeks and the lobby games they play). Seat links stay the capabilities they were: requests
that carry a seat token need no CSRF token, since no cookie authorises them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends
from fastapi.requests import HTTPConnection
from starlette.responses import Response

from ..errors import GameError, say
from .rules import (
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    SESSION_COOKIE,
    check_csrf,
    csrf_token,
    new_csrf_binding,
    session_cookie,
)
from .tokens import BAD_TOKEN, bearer
from .users import User, Users


def player_key(user_id: int | None, visitor: str | None) -> str:
    """Who plays, in one word, the same wherever it is written (a request's ``Who``, a seek,
    a game's players): ``u<account id>``, else ``v<the visitor hash's first 32 characters>``."""
    return f"u{user_id}" if user_id is not None else f"v{(visitor or '')[:32]}"


@dataclass(frozen=True)
class Who:
    """The person behind a request."""

    user: User | None
    session: str | None  # the session cookie (when it opened an account)
    binding: str | None  # what CSRF tokens are bound to: the session, else the CSRF cookie
    fresh_binding: str | None = None  # a CSRF cookie to set with this response
    scopes: tuple[str, ...] | None = None  # an API token's scopes (``None``: not a token)

    @property
    def visitor(self) -> str | None:
        """An anonymous visitor's id (a hash of their cookie): ``None`` when signed in."""
        if self.user is not None or not self.binding:
            return None
        return hashlib.sha256(f"visitor:{self.binding}".encode()).hexdigest()

    @property
    def key(self) -> str | None:
        """Who this is, in one word (``player_key``; ``None``: unknown)."""
        if self.user is None and self.visitor is None:
            return None
        return player_key(self.user.id if self.user is not None else None, self.visitor)

    @property
    def bot_in_browser(self) -> bool:
        """A bot account behind a session cookie: as on lichess, a bot plays through the Bot
        API with its token, never from a browser (its seats open there as a watcher's)."""
        return self.user is not None and self.user.bot and self.scopes is None

    @property
    def acting_id(self) -> int | None:
        """The account whose seats this request acts for (``GameSession.acting``): ``None``
        when not signed in, and for a bot in a browser."""
        return None if self.user is None or self.bot_in_browser else self.user.id


BOT_IN_BROWSER = say("a bot account plays through the Bot API with its token, not from a browser")


def refuse_bot_in_browser(person: Who) -> None:
    """Refuse (403) to start or join a game for a bot account behind a session cookie."""
    if person.bot_in_browser:
        raise GameError(BOT_IN_BROWSER, "bot-needs-token", 403)


def get_users(conn: HTTPConnection) -> Users:
    return conn.app.state.users  # type: ignore[no-any-return]


def get_secret(conn: HTTPConnection) -> bytes:
    return conn.app.state.secret  # type: ignore[no-any-return]


BAD_TOKEN_ERROR = GameError(BAD_TOKEN, "bad-token", 401)


async def by_token(conn: HTTPConnection) -> tuple[User, tuple[str, ...]] | None:
    """The account and scopes of the request's ``Authorization: Bearer`` token (``None``: no
    such header; a token that opens nothing is refused, 401)."""
    secret = bearer(conn.headers.get("authorization"))
    if secret is None:
        return None
    found = await get_users(conn).by_token(secret)
    if found is None:
        raise BAD_TOKEN_ERROR
    return found


async def who(conn: HTTPConnection) -> Who:
    """The person behind ``conn`` (a request or a socket): an API token's account, else a
    session's, else an anonymous visitor."""
    users = get_users(conn)
    tokened = await by_token(conn)
    if tokened is not None:
        return Who(tokened[0], None, None, scopes=tokened[1])
    token = conn.cookies.get(SESSION_COOKIE)
    user = await users.current(token)
    if user is not None:
        return Who(user, token, token)
    binding = conn.cookies.get(CSRF_COOKIE)
    if binding and 16 <= len(binding) <= 64:
        return Who(None, None, binding)
    fresh = new_csrf_binding()
    return Who(None, None, fresh, fresh_binding=fresh)


WhoDep = Annotated[Who, Depends(who)]


async def account_id(conn: HTTPConnection) -> int | None:
    """The signed-in account behind ``conn`` (``None``: not signed in): a seat of a game
    that belongs to an account acts only for it (``GameSession.acting``)."""
    tokened = await by_token(conn)
    if tokened is not None:
        return tokened[0].id
    user = await get_users(conn).current(conn.cookies.get(SESSION_COOKIE))
    return None if user is None or user.bot else user.id  # a bot acts with its token


AccountDep = Annotated[int | None, Depends(account_id)]
UsersDep = Annotated[Users, Depends(get_users)]


def token_for(conn: HTTPConnection, person: Who) -> str:
    """The CSRF token of the pages shown to ``person`` (empty for an API token's request,
    which needs none)."""
    if person.binding is None:
        return ""
    return csrf_token(get_secret(conn), person.binding)


def require_csrf(conn: HTTPConnection, person: Who, submitted: Any = None) -> None:
    """Refuse (403) a state-changing request whose CSRF token (the form field ``submitted``,
    else the ``X-CSRF-Token`` header) is not the one bound to ``person``. A binding made for
    this very request (no cookie came) cannot be right. A request an API token authorises
    needs none (no cookie authorises it)."""
    if person.scopes is not None:
        return
    if submitted is None:
        submitted = conn.headers.get(CSRF_HEADER)
    binding = None if person.fresh_binding else person.binding
    check_csrf(get_secret(conn), binding, submitted)


def signed_in_request(conn: HTTPConnection) -> bool:
    """Whether a session cookie (it then authorises the request: CSRF needed) or an API
    token came with the request."""
    return (
        bool(conn.cookies.get(SESSION_COOKIE))
        or bearer(conn.headers.get("authorization")) is not None
    )


def remember(response: Response, conn: HTTPConnection, person: Who) -> Response:
    """Set the CSRF cookie that ``person`` was just given, if any."""
    if person.fresh_binding:
        response.set_cookie(
            CSRF_COOKIE, person.fresh_binding, max_age=365 * 86400, path="/", httponly=True,
            samesite="lax", secure=conn.url.scheme == "https",
        )  # fmt: skip
    return response


def sign_in_response(response: Response, conn: HTTPConnection, token: str) -> Response:
    """``response`` with the session cookie of ``token``."""
    response.set_cookie(**session_cookie(token, secure=conn.url.scheme == "https"))
    return response


def sign_out_response(response: Response) -> Response:
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


__all__ = ["CSRF_FIELD", "Who", "WhoDep", "who"]
