"""The pages: home, game (play, watch, replay), archive, rules, dice, errors.

Every page knows who is looking (``identity.who``, a dependency of the whole router): the
header shows their name or the way to sign in, and forms carry their CSRF token.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context

from ... import available_games, load
from ...ai.levels import ALL_LEVELS, SOLVED
from ...solve.certificate import summary
from ..accounts.identity import CSRF_FIELD, Who, remember, require_csrf, token_for, who
from ..clock.controls import PRESETS, control_name, control_names
from ..errors import GameError, say
from ..i18n import catalog
from ..i18n.languages import (
    LANGUAGES,
    format_day,
    format_moment,
    format_number,
    pick_language,
    texts,
    translate,
)
from ..play import boards
from ..play.actions import validated
from ..play.deps import LimitsDep, ServiceDep
from ..play.people import Running, running_of
from ..play.routes import NewGame, create_game
from ..play.service import GameService
from ..play.session import BOTH, WATCH
from ..tournaments.berserk import in_game
from . import diagrams

HERE = Path(__file__).parent
RULESET_LABELS = {
    ("backgammon", "seed"): "seed",
    ("backgammon", "standard"): "standard",
    ("backgammon", "money"): "money",
    ("backgammon", "match"): "match",
    ("defiance", "10x10"): "10×10",
    ("defiance", "8x8"): "8×8",
}

templates = Jinja2Templates(directory=HERE / "templates")
templates.env.globals["diagrams"] = diagrams


def gettext_callables(lang: str) -> dict[str, Any]:
    """Jinja2's i18n extension's functions for a page in ``lang`` (``{% trans %}``, ``_``,
    ``gettext``, ``ngettext``): the catalogue's words, their ``%(name)s`` (trans blocks) or
    ``{name}`` blanks filled."""

    def fill(text: str, values: dict[str, Any]) -> str:
        if not values:
            return text
        return text % values if "%(" in text else text.format(**values)

    def _gettext(message: str, **values: Any) -> str:
        return fill(catalog.gettext(lang, message), values)

    def _ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
        return fill(catalog.ngettext(lang, singular, plural, n), {"num": n, "n": n, **values})

    return {"_": _gettext, "gettext": _gettext, "ngettext": _ngettext}


@pass_context
def day(context: Context, value: Any) -> str:
    """A date (or an ISO text of one) as the page's language writes it."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return format_day(context.get("lang", "en"), moment)


@pass_context
def moment(context: Context, value: Any) -> str:
    """A date and time (or an ISO text of one) as the page's language writes it."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    return format_moment(context.get("lang", "en"), when)


@pass_context
def control(context: Context, key: str | None) -> str:
    """A time control's name (``clock.controls.control_name``) in the page's language."""
    return control_name(key)(context.get("lang", "en"))


@pass_context
def number(context: Context, value: Any) -> str:
    """A number as the page's language writes it (1,500; 1 500)."""
    return format_number(context.get("lang", "en"), value)


templates.env.add_extension("jinja2.ext.i18n")
templates.env.newstyle_gettext = True  # type: ignore[attr-defined]
templates.env.filters["day"] = day
templates.env.filters["moment"] = moment
templates.env.filters["control"] = control
templates.env.filters["number"] = number


def language(request: Request) -> str:
    return pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))


Lang = Annotated[str, Depends(language)]


def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A page in the visitor's language (its words are given to the browser as JSON data),
    for the person looking at it (their name in the header, their CSRF token in forms)."""
    lang = language(request)
    person: Who | None = getattr(request.state, "who", None)

    def t(key: str, **values: object) -> str:
        return translate(lang, key, **values)

    csrf = token_for(request, person) if person is not None else ""
    viewer = person.user if person else None
    response = templates.TemplateResponse(
        request,
        name,
        {"t": t, "lang": lang, "texts": texts(lang), "path": request.url.path,
         "user": viewer, "csrf": csrf, "csrf_field": CSRF_FIELD,
         **gettext_callables(lang), **context,
         # the header's account: never a page's own subject (a profile's ``user``)
         "viewer": viewer},
        status_code=status,
    )  # fmt: skip
    if person is not None:
        remember(response, request, person)
    return response


async def looking(request: Request) -> None:
    """Who is looking at the page, for ``page`` (the router's dependency)."""
    request.state.who = await who(request)


def error_page(request: Request, exc: GameError) -> HTMLResponse:
    return page(
        request, "error.html", status=exc.status, message=exc.in_language(language(request))
    )


router = APIRouter(dependencies=[Depends(looking)], include_in_schema=False)


def presets() -> dict[str, list[dict[str, str]]]:
    """Each game's time-control presets, for the forms: key and label in both languages."""
    return {
        game: [{"key": c.key, **control_names(c.key), "speed": c.speed} for c in controls]
        for game, controls in PRESETS.items()
    }  # fmt: skip


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, service: ServiceDep) -> HTMLResponse:
    games = [
        {
            "name": name,
            "rulesets": [{"name": r, "label": RULESET_LABELS.get((name, r), r)} for r in rulesets],
            "sides": list(load(name).sides),
        }
        for name, rulesets in available_games().items()
        if name in boards.available()
    ]
    return page(
        request, "home.html", games=games, levels=ALL_LEVELS, solved=sorted(SOLVED),
        presets=presets(),
        running=await running_now(request, service),
    )  # fmt: skip


async def running_now(request: Request, service: GameService) -> list[dict[str, Any]]:
    """The games the person looking plays now (an account's, or an anonymous lobby
    visitor's), for the home page: each opens their seat again through ``/resume``."""
    person: Who = request.state.who
    user_id = None if person.user is None else person.user.id
    visitor = None if user_id is not None or person.fresh_binding else person.visitor
    if user_id is None and visitor is None:
        return []
    lang = language(request)

    def read() -> list[Running]:
        with service.sessions() as db:
            return running_of(db, user_id, visitor, limit=20)

    out = []
    for game in await service.run_db(read):
        control = control_name(game.control)(lang) if game.control else None
        out.append({"id": game.id, "game": game.game, "side": game.side,
                    "opponent": None if game.opponent is None else game.opponent.view(),
                    "my_turn": game.my_turn, "control": control, "rated": game.rated})  # fmt: skip
    return out


@router.get("/lang/{code}")
async def switch_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
    return response


def _account(request: Request) -> int | None:
    person: Who = request.state.who
    return person.acting_id


@router.get("/play/{token}", response_class=HTMLResponse)
async def play_page(request: Request, token: str, service: ServiceDep) -> Response:
    """A seat's page. A seat that belongs to another account (its link leaked, or its
    player is signed out) shows the game as watchers see it, and says why."""
    try:
        session, given = await service.seat(token)
    except GameError as exc:
        return error_page(request, exc)
    seat = session.acting(given, _account(request))
    if given == WATCH:
        return RedirectResponse(f"/watch/{token}", status_code=303)
    if seat == WATCH:
        owner = session.people.get(given) if given != BOTH else None
        person: Who = request.state.who
        mine = person.bot_in_browser and session.owner(given) == person.user.id  # type: ignore[union-attr]
        return page(request, "game.html", game=session.game, token=token, seat=WATCH,
                    mode="watch", not_yours=True, bot_in_browser=mine,
                    owner=owner.name if owner is not None else None)  # fmt: skip
    tournament = None if seat == BOTH else await in_game(service, session, seat)
    return page(request, "game.html", game=session.game, token=token, seat=seat, mode="play",
                game_id=session.id, tournament=tournament)  # fmt: skip


@router.get("/watch/{token}", response_class=HTMLResponse)
async def watch_page(request: Request, token: str, service: ServiceDep) -> Response:
    try:
        session, given = await service.seat(token)
    except GameError as exc:
        return error_page(request, exc)
    if given != WATCH and session.acting(given, _account(request)) == given:
        # a player's own seat: it plays, it does not watch (its socket would act)
        return RedirectResponse(f"/play/{token}", status_code=303)
    return page(request, "game.html", game=session.game, token=token, seat=WATCH, mode="watch")


@router.get("/archive/{game_id}", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, service: ServiceDep) -> HTMLResponse:
    try:
        session = await service.get(game_id)
    except GameError as exc:
        return error_page(request, exc)
    if not session.finished:
        return page(request, "error.html", status=404, message="this game is not finished")
    return page(request, "game.html", game=session.game, token="", game_id=game_id,
                seat=WATCH, mode="archive")  # fmt: skip


@router.get("/dice", response_class=HTMLResponse)
async def dice_page(request: Request, lang: Lang) -> HTMLResponse:
    return page(request, f"dice.{lang}.html")


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request) -> HTMLResponse:
    return page(request, "rules/index.html", games=[g for g in boards.available()])


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str, lang: Lang) -> HTMLResponse:
    if game not in boards.available():
        return page(request, "error.html", status=404, message=f"no game {game[:40]!r}")
    # the General's page shows the proof its solution ships (the strategy's header)
    proof = summary() if game == "general" else None
    return page(request, f"rules/{game}.{lang}.html", game=game, proof=proof)


def _text(value: Any, limit: int) -> str | None:
    """A form field as text (``None`` when empty); over ``limit`` characters it is kept, so
    that validation refuses it with a message instead of cutting it silently."""
    text = str(value or "").strip()
    return text or None if len(text) <= limit else text


@router.post("/new")
async def new_from_form(request: Request, service: ServiceDep, limits: LimitsDep) -> Response:
    form = await request.form()
    try:
        person: Who = request.state.who
        if person.user is not None:  # the session cookie authorises it: it must be ours
            require_csrf(request, person, form.get(CSRF_FIELD))
        spec = validated(
            NewGame,
            {
                "game": str(form.get("game", "")),
                "mode": str(form.get("mode") or "local"),
                "ruleset": _text(form.get("ruleset"), 32),
                "side": _text(form.get("side"), 16),
                "level": _text(form.get("level"), 16),
                "position": _text(form.get("position"), 2000),
                "control": _text(form.get("control"), 16),
                "rated": form.get("rated") == "on",
                "length": _text(form.get("length"), 4),  # a match's points (checked there)
            },
        )
        _session, seats, watch = await create_game(service, limits, request, spec)
    except GameError as exc:
        wants_json = "application/json" in request.headers.get("accept", "")
        # the home page's script asks for the refusal alone, and says it by the form
        response = (
            JSONResponse(
                {"detail": exc.in_language(language(request)), "code": exc.code},
                status_code=exc.status,
            )
            if wants_json
            else error_page(request, exc)
        )
        retry = exc.retry_after
        if retry is not None:
            response.headers["Retry-After"] = str(retry)
        return response
    if spec.mode == "friend":  # the links on a page of their own: reloading it makes no game
        query = urlencode({**seats, WATCH: watch})
        return RedirectResponse(f"/links?{query}", status_code=303)
    return RedirectResponse(f"/play/{seats[BOTH]}", status_code=303)


@router.get("/links", response_class=HTMLResponse)
async def links_page(request: Request, service: ServiceDep) -> Response:
    """A friend game's links, each side's seat and the watchers', from the tokens the address
    carries (where the new game's form leads): shown only when they are every seat of one
    game, so that the page names no link its reader does not already hold."""
    given = dict(request.query_params)

    def refused() -> GameError:
        return GameError(say("this link does not open any game"), "bad-token", 404)

    try:
        watch = given.pop(WATCH, "")
        session, seat = await service.seat(watch)
        if seat != WATCH or set(given) != set(session.record.game_object.sides):
            raise refused()
        for side, token in given.items():
            other, seat = await service.seat(token)
            if other.id != session.id or seat != side:
                raise refused()
    except GameError as exc:
        return error_page(request, exc)
    seats = {side: given[side] for side in session.record.game_object.sides}
    return page(request, "links.html", game=session.game, seats=seats, watch=watch)
