"""Accounts' pages: sign up, sign in, sign out, a player's profile, the leaderboards.

Every form carries its CSRF token; signing in and out are POSTs. After signing up or in, the
visitor goes back where they came from (``next``, a path of this site only).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlalchemy import select

from ..errors import GameError, say
from ..play.deps import address
from ..play.schemas import documented
from ..play.service import GameService
from ..store.db import UserRow
from ..web.pages import error_page, language, looking, page
from .identity import (
    CSRF_FIELD,
    Who,
    remember,
    require_csrf,
    sign_in_response,
    sign_out_response,
    token_for,
)
from .profiles import boards, leaderboard, profile
from .rules import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    USERNAME_MAX,
    USERNAME_MIN,
    AccountError,
    username_key,
)
from .schemas import Me, Profile
from .throttle import DEVICE_COOKIE, SignInThrottle, device_cookie, read_device
from .users import Users

router = APIRouter(dependencies=[Depends(looking)])

NO_SUCH_PLAYER = say("there is no such player")
ACCOUNT_CLOSED = say("This account is closed.")
SIGNED_IN_ALREADY = say(
    "You are signed in as {name}: sign out first to use another account.",
)


def _next(value: Any) -> str:
    """Where to go after signing in: a path of this site, else the lobby."""
    target = str(value or "")
    if target.startswith(("/signin", "/signup")):
        return "/lobby"
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target[:300]
    return "/lobby"


def _person(request: Request) -> Who:
    return request.state.who  # type: ignore[no-any-return]


def _users(request: Request) -> Users:
    return request.app.state.users  # type: ignore[no-any-return]


def _form_page(request: Request, name: str, **context: Any) -> HTMLResponse:
    limits = {"user_min": USERNAME_MIN, "user_max": USERNAME_MAX, "pass_min": PASSWORD_MIN,
              "pass_max": PASSWORD_MAX}  # fmt: skip
    return page(request, name, next=_next(request.query_params.get("next")), **limits, **context)


@router.get("/signup", response_class=HTMLResponse, include_in_schema=False)
async def signup_page(request: Request) -> HTMLResponse:
    return _form_page(request, "signup.html")


@router.get("/signin", response_class=HTMLResponse, include_in_schema=False)
async def signin_page(request: Request) -> HTMLResponse:
    return _form_page(request, "signin.html")


async def _account_form(request: Request, name: str) -> Response:
    """Sign up or in from a form: the session cookie and back to ``next``, or the form
    again with the reason (the username kept, never the password). Someone signed in is
    refused (409): a form left open in another tab never switches accounts silently."""
    form = await request.form()
    person = _person(request)
    # shown again as typed, whatever its length (refused if too long, never cut; the body's
    # own limit bounds it)
    username = typed = str(form.get("username") or "")
    target = _next(form.get("next"))
    secret: bytes = request.app.state.secret
    device = read_device(secret, request.cookies.get(DEVICE_COOKIE))
    account = username_key(username.strip())
    throttle: SignInThrottle = request.app.state.throttle
    where = address(request)
    try:
        require_csrf(request, person, form.get(CSRF_FIELD))
        if person.user is not None:
            raise AccountError(SIGNED_IN_ALREADY.given(name=person.user.username),
                               "signed-in", 409)  # fmt: skip
        users = _users(request)
        if name == "signup.html":
            # making accounts costs one of the address's creations each
            request.app.state.limits.check("create", where)
            user, token = await users.sign_up(typed, form.get("password"))
        else:
            await throttle.check(account, where, device)  # growing waits after failures
            try:
                user, token = await users.sign_in(typed[:64], form.get("password"))
            except AccountError as exc:
                if exc.code == "wrong-credentials":
                    await throttle.failed(account, where, device)
                raise
            await throttle.succeeded(account, where, device)
    except GameError as exc:  # refused: the reason, in the visitor's language
        message = exc.in_language(language(request))
        again = _form_page(request, name, error=message, username=username, status=exc.status)
        retry = exc.retry_after
        if retry is not None:
            again.headers["Retry-After"] = str(retry)
        return again
    response = sign_in_response(RedirectResponse(target, status_code=303), request, token)
    if device is None or device.account != username_key(user.username):
        # this browser is the owner's now: its tries no longer wait for strangers' failures
        secure = request.url.scheme == "https"
        response.set_cookie(**device_cookie(secret, username_key(user.username), secure=secure))
    return response


@router.post("/signup", include_in_schema=False)
async def signup(request: Request) -> Response:
    return await _account_form(request, "signup.html")


@router.post("/signin", include_in_schema=False)
async def signin(request: Request) -> Response:
    return await _account_form(request, "signin.html")


@router.post("/signout", include_in_schema=False)
async def signout(request: Request) -> Response:
    form = await request.form()
    person = _person(request)
    require_csrf(request, person, form.get(CSRF_FIELD))
    await _users(request).sign_out(person.session)
    return sign_out_response(RedirectResponse("/", status_code=303))


@router.get("/@/{username}", response_class=HTMLResponse, include_in_schema=False)
async def profile_page(request: Request, username: str) -> HTMLResponse:
    service: GameService = request.app.state.service
    person = _person(request)
    found = await _users(request).named(username)
    if found is not None and found.closed:
        return error_page(request, GameError(ACCOUNT_CLOSED, "closed", 404))
    if found is None or found.username != username:
        if found is not None:  # the canonical spelling of the name
            return RedirectResponse(f"/@/{found.username}", status_code=301)  # type: ignore[return-value]
        return error_page(request, GameError(NO_SUCH_PLAYER, "not-found", 404))
    viewer = person.user.id if person.user else None
    lang = language(request)
    number = request.query_params.get("page", "1")
    page_number = int(number) if number.isdigit() and len(number) < 6 else 1

    def read() -> dict[str, Any]:
        with service.sessions() as db:
            row = db.scalar(select(UserRow).where(UserRow.id == found.id))
            assert row is not None
            return profile(db, row, viewer, lang, page_number)

    data = await service.run_db(read)
    return page(request, "profile.html", **data, me=viewer == found.id)


@router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
async def leaderboard_page(request: Request) -> HTMLResponse:
    service: GameService = request.app.state.service
    choices = boards()
    game = request.query_params.get("game") or choices[0][0]
    ruleset = request.query_params.get("ruleset") or ""
    valid = [(g, r) for g, r in choices if g == game and (r == ruleset or not ruleset)]
    chosen = valid[0] if valid else choices[0]

    def read() -> Any:
        with service.sessions() as db:
            return leaderboard(db, *chosen)

    board = await service.run_db(read)
    return page(request, "leaderboard.html", board=board, choices=choices)


@router.get(
    "/api/players/{username}", response_model=None, tags=["players"],
    responses=documented(Profile, "the player's ratings and latest games"),
)  # fmt: skip
async def api_profile(request: Request, username: str) -> dict[str, Any]:
    """A player's ratings and latest games, as JSON."""
    service: GameService = request.app.state.service
    found = await _users(request).named(username)
    if found is None:
        raise GameError(NO_SUCH_PLAYER, "not-found", 404)
    if found.closed:
        raise GameError(ACCOUNT_CLOSED, "closed", 404)
    person = _person(request)
    viewer = person.user.id if person.user else None

    def read() -> dict[str, Any]:
        with service.sessions() as db:
            row = db.scalar(select(UserRow).where(UserRow.id == found.id))
            assert row is not None
            data = profile(db, row, viewer)
            return {"username": row.username, "level": row.level, "ratings": data["ratings"],
                    "playing": data["playing"], "games": data["games"]}  # fmt: skip

    return await service.run_db(read)


@router.get(
    "/api/me", response_class=JSONResponse, tags=["players"],
    responses=documented(Me, "who is signed in here, and the CSRF token"),
)  # fmt: skip
async def api_me(request: Request) -> Response:
    """Who the session cookie belongs to (``null``: nobody signed in), and the CSRF token
    for the requests that a cookie authorises (the CSRF cookie comes with it if needed)."""
    person = _person(request)
    user = person.user
    body = {
        "user": None if user is None else {"id": user.id, "username": user.username},
        "csrf": token_for(request, person),
    }
    return remember(JSONResponse(body), request, person)
