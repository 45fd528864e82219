"""The tournaments' JSON API and pages.

API (JSON, in the OpenAPI page): ``GET /api/tournaments`` (upcoming, running, finished),
``POST /api/tournaments`` (signed in), ``GET /api/tournament/{id}`` (standings, pairings,
rounds, games), ``POST /api/tournament/{id}/join`` and ``…/withdraw``. A session cookie needs
the ``X-CSRF-Token`` header; a bot joins with its API token (``Authorization: Bearer``, scope
``bot:play``) and then plays its tournament games through the Bot API as any other game.

Pages: ``/tournaments`` (the lists and, signed in, the form to create one) and
``/tournament/{id}`` (its table, pairings and games; join and withdraw buttons). Both work
without scripts (plain forms that post and come back); the tournament's page reads its live
part again every few seconds (``tournament.js``: polling, which any process answers).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ... import load
from ...games.backgammon.cube import MAX_LENGTH
from ..accounts.identity import CSRF_FIELD, Who, refuse_bot_in_browser, require_csrf, who
from ..accounts.rules import SIGN_IN_REQUIRED, AccountError
from ..errors import GameError
from ..play.deps import LimitsDep, ServiceDep, address
from ..play.schemas import REFUSALS, documented
from ..rating.ranking import RATED_RULESETS
from ..web.pages import language, page, presets
from .berserk import go_berserk
from .director import KINDS, MAX_MINUTES, MAX_ROUNDS, Tournaments
from .schemas import Done, TournamentBody, TournamentList, TournamentMade, TournamentView

router = APIRouter()
WhoNow = Annotated[Who, Depends(who)]


def get_tournaments(request: Request) -> Tournaments:
    return request.app.state.tournaments  # type: ignore[no-any-return]


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]


def _signed_in(person: Who) -> Who:
    if person.user is None:
        raise AccountError(SIGN_IN_REQUIRED, "sign-in-required", 401)
    return person


@router.get("/api/tournaments", response_model=None, tags=["tournaments"],
            responses=documented(TournamentList, "the tournaments"))  # fmt: skip
async def api_list(tournaments: TournamentsDep) -> dict[str, Any]:
    """Upcoming tournaments (soonest first), running ones, and the latest finished."""
    return await tournaments.listing()


@router.post(
    "/api/tournaments", status_code=201, response_model=None, tags=["tournaments"],
    responses={201: {"model": TournamentMade, "description": "made"}, **REFUSALS},
)  # fmt: skip
async def api_create(
    request: Request, body: TournamentBody, person: WhoNow, tournaments: TournamentsDep,
    limits: LimitsDep,
) -> dict[str, Any]:  # fmt: skip
    """Create a tournament (signed in): an arena of `minutes` or a Swiss of `rounds`, of one
    game and ruleset, on a live clock (a backgammon match: `length` points), rated or not,
    starting in `starts_in` minutes. Its creator does not join it by making it."""
    _signed_in(person)
    require_csrf(request, person)
    limits.check("create", address(request))
    tid = await tournaments.create(person, body.model_dump())
    return {"id": tid, "url": f"/tournament/{tid}"}


@router.get("/api/tournament/{tid}", response_model=None, tags=["tournaments"],
            responses=documented(TournamentView, "the tournament"))  # fmt: skip
async def api_show(tid: str, person: WhoNow, tournaments: TournamentsDep) -> dict[str, Any]:
    """A tournament: its standings (arena: points with streaks; Swiss: score, Buchholz,
    Sonneborn-Berger), the pairings being played, every game."""
    return await tournaments.view(tid[:20], person.user.id if person.user else None)


@router.post("/api/tournament/{tid}/join", response_model=None, tags=["tournaments"],
             responses=documented(Done, "joined"))  # fmt: skip
async def api_join(
    request: Request, tid: str, person: WhoNow, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Play in the tournament (signed in; a bot: its token, scope `bot:play`). Its games
    come as any game does: `gameStart` on the bot's event stream, a page sent to the game."""
    _signed_in(person)
    require_csrf(request, person)
    refuse_bot_in_browser(person)
    await tournaments.join(person, tid[:20])
    return {"ok": True}


@router.post("/api/tournament/{tid}/withdraw", response_model=None, tags=["tournaments"],
             responses=documented(Done, "withdrawn"))  # fmt: skip
async def api_withdraw(
    request: Request, tid: str, person: WhoNow, tournaments: TournamentsDep
) -> dict[str, Any]:
    """Be paired no more (a game being played goes on; before the start: leave the list)."""
    _signed_in(person)
    require_csrf(request, person)
    await tournaments.withdraw(person, tid[:20])
    return {"ok": True}


@router.post("/api/tournament/{tid}/berserk", response_model=None, tags=["tournaments"],
             responses=documented(Done, "berserk"))  # fmt: skip
async def api_berserk(
    request: Request, tid: str, person: WhoNow, service: ServiceDep
) -> dict[str, Any]:
    """Go berserk in your arena game being played (the General, Defiance), before your first
    move: half your time, no increment; a win gives one point more."""
    _signed_in(person)
    require_csrf(request, person)
    assert person.user is not None
    await go_berserk(service, tid[:20], person.user.id)
    return {"ok": True}


# -- pages --------------------------------------------------------------------------------------


async def _looking(request: Request) -> Who:
    person = await who(request)
    request.state.who = person
    return person


def _form_choices() -> dict[str, Any]:
    return {"games": [{"name": g, "rulesets": list(r)} for g, r in RATED_RULESETS.items()],
            "presets": presets(), "kinds": KINDS, "max_rounds": MAX_ROUNDS,
            "max_minutes": MAX_MINUTES, "max_length": MAX_LENGTH}  # fmt: skip


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, UTC).isoformat()


def _dated(item: dict[str, Any]) -> dict[str, Any]:
    """A tournament's summary with its times as ISO texts (for the pages' dates) and its
    game's sides (the columns of its games)."""
    return {**item, "starts_iso": _iso(item["starts_at"]), "ends_iso": _iso(item["ends_at"]),
            "finished_iso": _iso(item["finished_at"]),
            "sides": list(load(item["game"], item["ruleset"]).sides)}  # fmt: skip


async def _list_page(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    listing = await get_tournaments(request).listing()
    lists = {k: [_dated(item) for item in items] for k, items in listing.items()}
    return page(request, "tournaments.html", status, lists=lists, **_form_choices(), **context)


@router.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
async def list_page(request: Request) -> HTMLResponse:
    await _looking(request)
    return await _list_page(request)


@router.post("/tournaments", include_in_schema=False)
async def create_from_page(request: Request) -> Response:
    """The create form: the new tournament's page, or the form again with what was wrong."""
    person = await _looking(request)
    form: dict[str, Any] = dict((await request.form()).items())
    if person.user is None:
        return RedirectResponse("/signin?next=/tournaments", status_code=303)
    try:
        require_csrf(request, person, form.get(CSRF_FIELD))
        request.app.state.limits.check("create", address(request))
        spec = {k: v for k, v in form.items() if k != CSRF_FIELD}
        game, _, ruleset = str(form.get("variant") or "").partition("/")
        spec.update(game=game, ruleset=ruleset)
        spec["rated"] = form.get("rated") == "yes"
        tid = await get_tournaments(request).create(person, spec)
    except GameError as exc:
        return await _list_page(request, exc.status, error=exc.in_language(language(request)),
                                asked=form)  # fmt: skip
    return RedirectResponse(f"/tournament/{tid}", status_code=303)


@router.get("/tournament/{tid}", response_class=HTMLResponse, include_in_schema=False)
async def tournament_page(request: Request, tid: str, part: int = 0) -> HTMLResponse:
    """A tournament's page (``part=1``: only its live part, which the page reads again)."""
    person = await _looking(request)
    view = await get_tournaments(request).view(tid[:20], person.user.id if person.user else None)
    name = "tournament_live.html" if part else "tournament.html"
    return page(request, name, t_view=_dated(view))


@router.post("/tournament/{tid}/{action}", include_in_schema=False)
async def act_from_page(request: Request, tid: str, action: str) -> Response:
    """The join and withdraw buttons."""
    person = await _looking(request)
    form = await request.form()
    if person.user is None:
        return RedirectResponse(f"/signin?next=/tournament/{tid[:20]}", status_code=303)
    tournaments = get_tournaments(request)
    try:
        require_csrf(request, person, form.get(CSRF_FIELD))
        if action == "join":
            refuse_bot_in_browser(person)
            await tournaments.join(person, tid[:20])
        elif action == "withdraw":
            await tournaments.withdraw(person, tid[:20])
        elif action == "berserk":
            await go_berserk(tournaments.service, tid[:20], person.user.id)
    except GameError as exc:
        view = await tournaments.view(tid[:20], person.user.id)
        return page(request, "tournament.html", exc.status, t_view=_dated(view),
                    error=exc.in_language(language(request)))  # fmt: skip
    back = str(form.get("next") or "")
    if action == "berserk" and back.startswith("/play/") and "//" not in back:
        return RedirectResponse(back, status_code=303)  # berserk from the game's page
    return RedirectResponse(f"/tournament/{tid[:20]}", status_code=303)
