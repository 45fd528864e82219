"""A signed-in player's account page (``/account``): change the password, download every game
they played as one file, close the account.

Each form needs its CSRF token and the account's current password (a session cookie alone
does not change a password or close an account: a borrowed browser must not be enough). Wrong
passwords count as failed sign-ins (``throttle``), so that the form is no way around their
growing waits. Changing the password ends the account's other sessions; closing the account
ends all of them (see ``moderation.close_account`` for what closing does).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import GameError, say
from ..play.deps import address
from ..play.service import GameService
from ..store.db import GameRow, PlayerRow
from ..web.pages import language, looking, page
from .identity import CSRF_FIELD, Who, require_csrf, sign_out_response
from .moderation import active_ban
from .rules import PASSWORD_MAX, PASSWORD_MIN, AccountError, new_csrf_binding, username_key
from .throttle import DEVICE_COOKIE, Device, SignInThrottle, read_device
from .tokens import PREFIX, SCOPES, TokenInfo, create_token, revoke_token, tokens_of
from .users import User, Users

router = APIRouter(dependencies=[Depends(looking)])

PASSWORDS_DIFFER = say("The two new passwords are not the same.")
CONFIRM_CLOSE = say("Tick the box to confirm that you want to close your account.")
SIGN_IN_FIRST = say("Sign in to see your account.")
GAMES_CAP = 5000
NEW_TOKEN_COOKIE = "new_token"  # games in one download (the most recent)
T = TypeVar("T")


def _signed_in(request: Request) -> tuple[Who, User] | None:
    person: Who = request.state.who
    return None if person.user is None else (person, person.user)


def _to_sign_in() -> RedirectResponse:
    return RedirectResponse("/signin?next=/account", status_code=303)


async def _in_db(request: Request, work: Callable[[Session], T]) -> T:
    """``work`` with a database session, in the service's thread (the event loop never waits)."""
    service: GameService = request.app.state.service

    def run() -> T:
        with service.sessions() as db:
            return work(db)

    return await service.run_db(run)


async def _account_page(
    request: Request, user: User, status: int = 200, **context: Any
) -> HTMLResponse:
    """The account page of ``user`` (``context``: a notice, or a form's error)."""

    def read(db: Session) -> tuple[Any, list[TokenInfo]]:
        return active_ban(db, user.id), tokens_of(db, user.id)

    ban, tokens = await _in_db(request, read)
    limits = {"pass_min": PASSWORD_MIN, "pass_max": PASSWORD_MAX}
    return page(request, "account.html", status=status, banned=ban, tokens=tokens,
                scopes=SCOPES, **limits, **context)  # fmt: skip


@router.get("/account", response_class=HTMLResponse, include_in_schema=False)
async def account_page(request: Request) -> Response:
    found = _signed_in(request)
    if found is None:
        return _to_sign_in()
    changed = request.query_params.get("changed")
    notice = changed if changed in ("password", "token") else None
    secret = request.cookies.get(NEW_TOKEN_COOKIE)  # a token just made: shown this once
    if not (secret and secret.startswith(PREFIX) and len(secret) < 100):
        secret = None
    response = await _account_page(request, found[1], notice=notice, new_token=secret)
    if secret:
        response.delete_cookie(NEW_TOKEN_COOKIE, path="/account")
        response.headers["Cache-Control"] = "no-store"  # the secret stays in no cache
    return response


def _throttled_as(request: Request, user: User) -> tuple[str, str, Device | None]:
    """What the sign-in throttle counts a password try by: the account, the address, the
    device."""
    device = read_device(request.app.state.secret, request.cookies.get(DEVICE_COOKIE))
    return username_key(user.username), address(request), device


async def _checked_form(request: Request, person: Who) -> Any:
    """The posted form, once its CSRF token is checked and the sign-in throttle lets this
    account try a password now."""
    form = await request.form()
    require_csrf(request, person, form.get(CSRF_FIELD))
    assert person.user is not None
    throttle: SignInThrottle = request.app.state.throttle
    await throttle.check(*_throttled_as(request, person.user))
    return form


async def _wrong_password(request: Request, person: Who, exc: GameError) -> None:
    """Count a wrong current password as a failed sign-in of the account."""
    if exc.code == "wrong-password" and person.user is not None:
        throttle: SignInThrottle = request.app.state.throttle
        await throttle.failed(*_throttled_as(request, person.user))


async def _refused(request: Request, user: User, exc: GameError, form: str) -> HTMLResponse:
    """The account page again with ``exc`` said in the reader's language at the ``form`` that
    was refused (``password``, ``close``, ``token``), with the refusal's status."""
    message = exc.in_language(language(request))
    return await _account_page(request, user, exc.status, **{f"{form}_error": message})


@router.post("/account/password", include_in_schema=False)
async def change_password(request: Request) -> Response:
    """Change the password: the current one, the new one twice. The other sessions end."""
    found = _signed_in(request)
    if found is None:
        return _to_sign_in()
    person, user = found
    users: Users = request.app.state.users
    try:
        form = await _checked_form(request, person)
        new = form.get("new")
        if new != form.get("repeat"):
            raise AccountError(PASSWORDS_DIFFER, "bad-password")
        await users.change_password(user, person.session, form.get("current"), new)
    except GameError as exc:
        await _wrong_password(request, person, exc)
        return await _refused(request, user, exc, "password")
    return RedirectResponse("/account?changed=password", status_code=303)


@router.post("/account/close", include_in_schema=False)
async def close_account(request: Request) -> Response:
    """Close the account (its password, and the box ticked); signed out, told what it did."""
    found = _signed_in(request)
    if found is None:
        return _to_sign_in()
    person, user = found
    users: Users = request.app.state.users
    try:
        form = await _checked_form(request, person)
        if form.get("confirm") != "yes":
            raise AccountError(CONFIRM_CLOSE, "not-confirmed")
        await users.close(user, form.get("password"))
    except GameError as exc:
        await _wrong_password(request, person, exc)
        return await _refused(request, user, exc, "close")
    fresh = new_csrf_binding()  # the page after: nobody signed in any more
    request.state.who = Who(None, None, fresh, fresh_binding=fresh)
    return sign_out_response(page(request, "account_closed.html"))


@router.post("/account/tokens", include_in_schema=False)
async def make_token(request: Request) -> Response:
    """Make a personal API token (a label, its scopes): the page shows it this once."""
    found = _signed_in(request)
    if found is None:
        return _to_sign_in()
    person, user = found
    form = await request.form()
    try:
        require_csrf(request, person, form.get(CSRF_FIELD))
        label, scopes = str(form.get("label") or ""), form.getlist("scope")
        secret = await _in_db(request, lambda db: create_token(db, user.id, label, scopes))
    except GameError as exc:
        return await _refused(request, user, exc, "token")
    # shown once by the page the browser is sent to (reading it again makes no new token)
    response = RedirectResponse("/account#tokens-title", status_code=303)
    response.set_cookie(NEW_TOKEN_COOKIE, secret, max_age=120, path="/account", httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")  # fmt: skip
    return response


@router.post("/account/tokens/{token_id}/revoke", include_in_schema=False)
async def drop_token(request: Request, token_id: int) -> Response:
    """Revoke one of the account's tokens (at once, in every process within seconds)."""
    found = _signed_in(request)
    if found is None:
        return _to_sign_in()
    person, user = found
    form = await request.form()
    require_csrf(request, person, form.get(CSRF_FIELD))
    await _in_db(request, lambda db: revoke_token(db, token_id, user.id))
    request.app.state.users.forget_tokens()
    return RedirectResponse("/account?changed=token#tokens-title", status_code=303)


@router.get("/account/games", include_in_schema=False)
async def download_games(request: Request) -> Response:
    """Every game the account played (the most recent ``GAMES_CAP``), as one file: one game
    record a line (JSON Lines), each the record its game's page downloads (``Record.from_json``
    reads it), oldest first."""
    found = _signed_in(request)
    if found is None:
        raise GameError(SIGN_IN_FIRST, "sign-in-required", 401)
    user = found[1]
    service: GameService = request.app.state.service
    request.app.state.limits.check("create", address(request))  # heavy: counted as a creation

    def read(db: Session) -> list[str]:
        rows = db.scalars(
            select(GameRow.id)
            .join(PlayerRow, PlayerRow.game_id == GameRow.id)
            .where(PlayerRow.user_id == user.id)
            .order_by(GameRow.created_at.desc(), GameRow.id.desc())
            .limit(GAMES_CAP)
        ).all()
        return list(dict.fromkeys(reversed(rows)))  # both sides against oneself: once

    ids = await _in_db(request, read)

    async def lines() -> AsyncIterator[str]:
        for game_id in ids:
            try:
                session = await service.get(game_id)
            except GameError:  # a game whose log no longer replays is left out
                continue
            async with session.lock:  # (not held while the line goes out)
                text = session.record.to_json(reveal_seed=session.finished, indent=None)
            yield text + "\n"

    name = f"ludotheque-{user.username}-games.jsonl"
    return StreamingResponse(
        lines(), media_type="application/x-ndjson; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )  # fmt: skip


__all__ = ["router"]
