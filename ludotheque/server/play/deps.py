"""What the routes of a game ask for: the app's service, settings, limits and sockets, the
client's address, and the language of the page that asks."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.requests import HTTPConnection

from ..i18n.languages import pick_language
from ..settings import Settings
from ..web.guard import RateLimits
from .hub import Hub
from .service import GameService


def get_service(conn: HTTPConnection) -> GameService:
    return conn.app.state.service  # type: ignore[no-any-return]


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings  # type: ignore[no-any-return]


def get_limits(conn: HTTPConnection) -> RateLimits:
    return conn.app.state.limits  # type: ignore[no-any-return]


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub  # type: ignore[no-any-return]


def address(conn: HTTPConnection) -> str:
    """The client's address (behind a proxy, uvicorn's ``--forwarded-allow-ips`` sets it)."""
    return conn.client.host if conn.client else "unknown"


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LimitsDep = Annotated[RateLimits, Depends(get_limits)]


def seat_language(conn: HTTPConnection) -> str:
    """The language of the page that made the request (its cookie, else the browser's)."""
    return pick_language(conn.cookies.get("lang"), conn.headers.get("accept-language"))
