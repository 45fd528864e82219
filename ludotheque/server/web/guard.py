"""What stands between the network and the games: sizes, nesting, rates, headers, origins.

- Request bodies over ``max_body`` bytes are refused (413) before they are read whole.
- JSON is read by ``read_json``: at most ``max_depth`` levels of nesting, checked before it
  is parsed (a hundred thousand ``[`` would exhaust Python's recursion), objects only.
- Game creation and changes are limited per client address with the ``limits`` library's
  moving window (429 with ``Retry-After``); each process counts its own requests.
- Every response carries security headers: a Content-Security-Policy with no inline script
  and ``frame-ancestors 'none'``, ``Referrer-Policy: no-referrer`` (seat links are
  credentials), ``X-Content-Type-Options: nosniff``.
- ``origin_allowed`` tells whether a WebSocket's ``Origin`` is the server's own (or listed).
"""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.parse import urlsplit

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import timesource
from ..errors import GameError, say
from ..i18n.languages import pick_language
from ..metrics import refused
from .shared_limits import SharedCounts

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (strings are skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def read_json(raw: str | bytes, max_bytes: int, max_depth: int) -> dict[str, Any]:
    """A JSON object from a request or a message, or a ``GameError`` saying what is wrong."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if max_bytes and size > max_bytes:
        raise GameError(
            say("this message is too large ({size} bytes; {most} at most)",
                size=size, most=max_bytes),
            "too-large", 413,
        )  # fmt: skip
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise GameError(
            say("malformed message (not UTF-8 text)"),
            "bad-request", 400,
        ) from None  # fmt: skip
    if max_depth and nesting_depth(text) > max_depth:
        raise GameError(
            say("malformed message: nested more than {depth} levels deep", depth=max_depth),
            "bad-request", 400,
        )  # fmt: skip
    try:
        message = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError):
        raise GameError(say("malformed message (JSON)"),
                        "bad-request", 400) from None  # fmt: skip
    if not isinstance(message, dict):
        raise GameError(
            say("malformed message: a JSON object was expected"),
            "bad-request", 400,
        )  # fmt: skip
    return message


class RateLimits:
    """Requests per client (an address, an account) per minute, by kind (``create``,
    ``change``, ...): counted in this process (the ``limits`` library's moving window), or,
    with ``shared`` (PostgreSQL), across every process of the deployment."""

    def __init__(self, per_minute: dict[str, int], shared: SharedCounts | None = None) -> None:
        self.per_minute = {kind: n for kind, n in per_minute.items() if n > 0}
        self.items = {kind: RateLimitItemPerMinute(n) for kind, n in self.per_minute.items()}
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.shared = shared

    def check(self, kind: str, address: str) -> None:
        """Count one request; raise a 429 ``GameError`` (with ``retry_after``) over the limit."""
        item = self.items.get(kind)
        if item is None:
            return
        if self.shared is not None:
            wait = self.shared.hit(kind, address[:80], self.per_minute[kind])
            if wait is None:
                return
            retry = int(wait)
        else:
            if self.limiter.hit(item, kind, address):
                return
            stats = self.limiter.get_window_stats(item, kind, address)
            retry = max(1, math.ceil(stats.reset_time - timesource.time()))
        refused(kind)
        error = GameError(
            say("too many requests: wait {retry} s and try again", retry=retry),
            "rate-limited", 429,
        )  # fmt: skip
        error.retry_after = retry
        raise error


def origin_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket's ``Origin`` is this server (same host and port) or listed. A
    client that sends no ``Origin`` is not a browser page, so it cannot be a forged one."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = headers.get("host", "")
    parts = urlsplit(origin)
    return bool(parts.netloc) and parts.netloc.lower() == host.lower()


class Guard:
    """ASGI middleware: body size and JSON nesting limits (before any route parses the body),
    and security headers."""

    def __init__(self, app: ASGIApp, max_body: int, max_depth: int = 0) -> None:
        self.app = app
        self.max_body = max_body
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body
        length = Headers(scope=scope).get("content-length")
        if limit and length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, scope, too_large(limit))
            return
        # bodies are small: read the whole body here (up to the limit), then hand it on
        chunks: list[bytes] = []
        seen = 0
        more = scope.get("method") not in ("GET", "HEAD", "OPTIONS")
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if limit and seen > limit:
                await _refuse(send, scope, too_large(limit))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        # JSON nested deeper than a route needs is refused before it is parsed (a hundred
        # thousand ``[`` would exhaust Python's recursion in the JSON reader)
        json_like = body.lstrip()[:1] in (b"{", b"[")
        if (
            json_like
            and self.max_depth
            and nesting_depth(body.decode("utf-8", "replace")) > (self.max_depth)
        ):
            await _refuse(send, scope, too_deep(self.max_depth))
            return
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers.extend((k, v) for k, v in SECURITY_HEADERS if k not in names)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, replay, with_headers)


def too_large(most: int) -> GameError:
    return GameError(
        say("this request is too large ({most} bytes at most)", most=most), "too-large", 413
    )


def too_deep(depth: int) -> GameError:
    return GameError(
        say("malformed message: nested more than {depth} levels deep", depth=depth),
        "bad-request", 400,
    )  # fmt: skip


async def _refuse(send: Send, scope: Scope, error: GameError) -> None:
    """Answer ``error`` before the app sees the request, in the language of its page."""
    request = Request(scope)
    lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
    body = json.dumps({"detail": error.in_language(lang), "code": error.code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS],
        }
    )  # fmt: skip
    await send({"type": "http.response.body", "body": body})
