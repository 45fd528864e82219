"""The analysis in the app: analyses of finished games, hints, and the analysis board.

- ``GET /api/games/<id>/analysis?strength=normal`` tells where the analysis of a finished game
  stands (``none``, ``queued``, ``running`` with its progress, ``done`` with the analysis,
  ``failed``); ``POST`` to the same address asks for it (one job, shared by every request).
- ``POST /api/play/<token>/hints``: the engine's three best moves of the current position, for
  a player whose turn it is, only where hints are fair: at one screen and against the
  computer, never between two players (friends, the lobby) nor in a rated game.
- ``/analysis``: the analysis board, on any position (``?game=…&ruleset=…&position=…``), and
  its API: ``/api/analysis/position`` (a position and its legal moves, after a move if one is
  given), ``/api/analysis/partial`` (part of a turn) and ``/api/analysis/best``.

Including this router runs, with the app, an ``AnalysisWorker`` (when the server works its own
queue, ``LUDOTHEQUE_COMPUTER=inline``) and, on demand, the pool of processes that answers
hints and the board.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.requests import HTTPConnection
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field, StrictStr

from ... import available_games, load
from ...analysis.strength import DEFAULT, NAMES
from ...core import CHANCE, Game, IllegalMove, InvalidPosition, State, UnknownGame
from ..accounts.identity import AccountDep, signed_in_request, who
from ..errors import GameError, say
from ..i18n.languages import analysis_module, translate
from ..i18n.refusals import refused
from ..play.actions import Body
from ..play.boards import available, board
from ..play.deps import ServiceDep, SettingsDep, address
from ..play.refusals import bad_position, engine_error
from ..play.routes import NOT_PUBLIC
from ..play.schemas import Partial, documented
from ..play.session import BOTH, WATCH, GameSession
from ..settings import Settings
from ..web.guard import RateLimits
from ..web.pages import language, looking, page, templates
from ..web.shared_limits import SharedCounts
from .jobs import (
    NO_RECORD,
    AnalysisView,
    AnalysisWorker,
    Asker,
    HintPool,
    SoFar,
    check_strength,
    read_analysis,
    request_analysis,
)
from .schemas import AnalysisAnswer, BoardBest, BoardView, Hints

HINTS = 3
HISTORY = 40  # earlier positions a board sends for the repetition draw
GAME_HISTORY = 1000  # earlier positions of a game hints are given (its turn limit is 400)


NO_HINTS = say(
    "no hints in this game: only at one screen and against the computer, unrated",
)
NOT_YOUR_TURN = say("hints come on your turn")
NO_DECISION = say(
    "there is no move to judge here (roll the dice first, or the game is over)",
)
ENGINE_SLOW = say("the engine took too long; try again")


class Engines:
    """What the router keeps per app: its rate limits and the pool for best moves."""

    def __init__(self, settings: Settings, shared: SharedCounts | None = None) -> None:
        self.settings = settings
        per_minute = {"analyse": settings.analyses_per_minute, "hint": settings.hints_per_minute}
        self.limits = RateLimits(per_minute, shared)
        self.pool: HintPool | None = None

    def hints(self) -> HintPool:
        if self.pool is None:
            self.pool = HintPool(self.settings.hint_workers, self.settings.hint_time_limit)
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def engines(conn: HTTPConnection) -> Engines:
    state = conn.app.state
    found: Engines | None = getattr(state, "analysis_engines", None)
    if found is None:
        found = state.analysis_engines = Engines(
            state.settings, getattr(state, "shared_counts", None)
        )
    return found


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """With the app: an analysis worker (when the server works its queue itself)."""
    stop = asyncio.Event()
    task: asyncio.Task[None] | None = None
    if app.state.settings.computer == "inline":
        task = asyncio.create_task(AnalysisWorker(app.state.service).run(stop))
    try:
        yield
    finally:
        stop.set()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        found = getattr(app.state, "analysis_engines", None)
        if found is not None:
            found.close()


router = APIRouter(lifespan=lifespan)


# -- analyses of finished games ------------------------------------------------------------


def read_analysis_default(views: list[AnalysisView], strength: str | None) -> AnalysisView:
    """The view to show when no analysis is done or under way: the default strength's."""
    wanted = strength or DEFAULT
    return next((v for v in views if v.strength == wanted), views[0])


async def _finished(service: Any, game_id: str) -> GameSession:
    session: GameSession = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    return session


@router.get(
    "/api/games/{game_id}/analysis", response_model=None, tags=["analysis"],
    responses=documented(AnalysisAnswer, "the analysis asked for, or `none`"),
)  # fmt: skip
async def api_analysis(game_id: str, service: ServiceDep, strength: str | None = None) -> Any:
    """Without a strength: the deepest analysis done, else one under way, else none."""
    names = [check_strength(strength)] if strength is not None else list(reversed(NAMES))
    await _finished(service, game_id)

    def read() -> dict[str, Any]:
        with service.sessions() as db:
            views = [read_analysis(db, game_id, name) for name in names]
        for wanted in (("done",), ("queued", "running")):
            for view in views:
                if view.status in wanted:
                    found: dict[str, Any] = view.to_dict()
                    return found
        return read_analysis_default(views, strength).to_dict()

    return await service.run_db(read)


class AnalyseBody(Body):
    """An analysis to ask for."""

    strength: StrictStr | None = Field(
        default=None, max_length=16, description="`quick`, `normal` (the default) or `deep`"
    )


@router.post(
    "/api/games/{game_id}/analysis", response_model=None, tags=["analysis"],
    responses={**documented(AnalysisAnswer, "done already"),
               202: {"model": AnalysisAnswer, "description": "asked: poll it with GET"}},
)  # fmt: skip
async def api_analyse(
    game_id: str, request: Request, service: ServiceDep, settings: SettingsDep,
    body: AnalyseBody | None = None,
) -> JSONResponse:  # fmt: skip
    """Ask for the analysis of a finished game (shared by everyone who asks)."""
    body = body or AnalyseBody()
    name = check_strength(body.strength)
    session = await _finished(service, game_id)
    engines(request).limits.check("analyse", address(request))
    plies = len(session.record.plies)
    person = await who(request) if signed_in_request(request) else None
    user = person.user if person is not None else None
    asker = Asker(address(request), user.id if user is not None else None,
                  settings.analyses_queued)  # fmt: skip

    def ask() -> tuple[dict[str, Any], bool]:
        with service.sessions() as db:
            view, queued = request_analysis(service, db, game_id, name, plies, asker)
            return view.to_dict(), queued

    view, queued = await service.run_db(ask)
    if queued:
        service.bus.committed("job", game_id)
    return JSONResponse(view, status_code=200 if view["status"] == "done" else 202)


# -- hints -----------------------------------------------------------------------------------


def hints_allowed(session: GameSession) -> bool:
    """Hints are fair at one screen and against the computer, when the game is not rated and
    not one of the lobby's (those are played between people)."""
    return session.mode in ("local", "computer") and not session.rated and not session.public


@router.post(
    "/api/play/{token}/hints", response_model=None, tags=["analysis"],
    responses=documented(Hints, "the best moves of the game's position"),
)  # fmt: skip
async def api_hints(
    token: str, request: Request, service: ServiceDep, account: AccountDep
) -> dict[str, Any]:
    """The best moves now (at one screen and against the computer, not in rated games)."""
    session, seat = await service.seat_for(token, account)
    if seat == WATCH or not hints_allowed(session):
        raise GameError(NO_HINTS, "no-hints", 403)
    engines(request).limits.check("hint", address(request))
    async with session.lock:
        await service.refresh(session)
        record = session.record
        state = record.state
        to_move = None if session.finished else state.to_move
        if to_move is None or to_move == CHANCE:
            raise GameError(NO_DECISION, "not-your-turn", 409)
        if (seat != BOTH and seat != to_move) or to_move == session.computer_side:
            raise GameError(NOT_YOUR_TURN, "not-your-turn", 409)
        ply = session.ply
        position = state.position()
        history = [s.position() for s in record.states[-GAME_HISTORY - 1 : -1]]
        so_far = SoFar(len(record.moves), record.repetition, record.turn_limit)
    moves = await _best(request, session.game, session.ruleset, position, history, so_far)
    return {"ply": ply, "position": position, "side": to_move, "moves": moves}


async def _best(
    conn: HTTPConnection, game: str, ruleset: str, position: str, history: list[str],
    so_far: SoFar = NO_RECORD,
) -> list[dict[str, Any]]:  # fmt: skip
    """The best moves, knowing the game so far: its positions (``history``, for the
    repetition draw) and, from a game's record, its moves and draw rules (``so_far``)."""
    try:
        return await engines(conn).hints().best(game, ruleset, position, history, HINTS, so_far)
    except TimeoutError:
        raise GameError(ENGINE_SLOW, "engine-slow", 503) from None


# -- the analysis board --------------------------------------------------------------------


class BoardBody(Body):
    """A position of the analysis board: the game, its ruleset, the position string (empty:
    the start) and, for ``position``, a move to play on it."""

    game: StrictStr = Field(max_length=32, description="`general`, `backgammon` or `defiance`")
    ruleset: StrictStr | None = Field(default=None, max_length=32)
    position: StrictStr | None = Field(
        default=None, max_length=2000, description="a position string (empty: the start)"
    )
    move: StrictStr | None = Field(
        default=None, max_length=400, description="a move (or roll) to play on it"
    )


class PartialRequest(BoardBody):
    """Part of a turn on the analysis board (see the game API's `partial`)."""

    steps: list[list[int]] | None = Field(default=None, max_length=4)
    action: StrictStr | None = Field(default=None, max_length=20)


class BestBody(BoardBody):
    """A position whose best moves are asked for, with the positions before it (for the
    repetition rule)."""

    history: list[StrictStr] = Field(default_factory=list, max_length=HISTORY)


def _game(name: str, ruleset: str | None) -> Game:
    if name not in available():
        raise GameError(say("no game {name}", name=name[:40]), "bad-request",
                        400)  # fmt: skip
    try:
        return load(name, None if ruleset in (None, "", "default") else ruleset)
    except UnknownGame as exc:  # the engine's refusal, in the reader's language
        raise GameError(refused(exc), "bad-request", 400) from None


def _state(game: Game, position: str | None) -> State:
    if not position or not position.strip():
        return game.start()
    try:
        return game.parse_position(position.strip())
    except (InvalidPosition, IllegalMove) as exc:
        raise GameError(bad_position(exc), "bad-position", 422) from None


def board_view(state: State) -> dict[str, Any]:
    """What the analysis board is told of a position: as a game's view, without a game."""
    game = state.game
    adapter = board(game.name)
    outcome = state.outcome()
    to_move = None if outcome is not None else state.to_move
    return {
        "game": game.name,
        "ruleset": game.ruleset,
        "sides": list(game.sides),
        "position": state.position(),
        "to_move": to_move,
        "legal": adapter.legal(state) if to_move not in (None, CHANCE) else [],
        "extra": adapter.extra(state),
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason},
        "rolls": [str(o) for o, _ in state.chance_outcomes()] if to_move == CHANCE else [],
    }


@router.post(
    "/api/analysis/position", response_model=None, tags=["analysis"],
    responses=documented(BoardView, "the position (after the move, if one was given)"),
)  # fmt: skip
async def api_board_position(body: BoardBody) -> dict[str, Any]:
    """A position of the analysis board: its legal moves, and the move given played."""
    state = _state(_game(body.game, body.ruleset), body.position)
    played = None
    if body.move is not None:
        try:
            move = state.parse_move(body.move) if state.to_move != CHANCE else body.move
            after = state.play(move)
        except (IllegalMove, InvalidPosition) as exc:
            raise engine_error(exc) from None
        text = str(move)
        if state.to_move == CHANCE:  # a roll, as the game writes it
            text = next((str(o) for o, _ in state.chance_outcomes() if state.play(o) == after),
                        text)  # fmt: skip
        played = {
            "kind": "chance" if state.to_move == CHANCE else "move",
            "text": text,
            "side": state.to_move,
        }
        state = after
    return {**board_view(state), "played": played}


@router.post(
    "/api/analysis/partial", response_model=None, tags=["analysis"],
    responses=documented(Partial, "what may follow"),
)  # fmt: skip
async def api_board_partial(body: PartialRequest) -> dict[str, Any]:
    """Part of a turn on the analysis board."""
    state = _state(_game(body.game, body.ruleset), body.position)
    adapter = board(state.game.name)
    if not hasattr(adapter, "partial") or state.to_move in (None, CHANCE):
        raise GameError(say("there is no turn to play now"),
                        "not-your-turn", 409)  # fmt: skip
    try:
        return dict(adapter.partial(state, body.model_dump(exclude_none=True)))
    except IllegalMove as exc:
        raise engine_error(exc) from None
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        raise GameError(say("malformed request: {text}",
                            text=str(exc)), "bad-request", 400) from None  # fmt: skip


@router.post(
    "/api/analysis/best", response_model=None, tags=["analysis"],
    responses=documented(BoardBest, "the best moves"),
)  # fmt: skip
async def api_board_best(request: Request, body: BestBody) -> dict[str, Any]:
    """The best moves of a position of the analysis board."""
    game = _game(body.game, body.ruleset)
    state = _state(game, body.position)
    if state.outcome() is not None or state.to_move in (None, CHANCE):
        raise GameError(NO_DECISION, "no-decision", 409)
    history = [_state(game, p).position() for p in body.history]
    engines(request).limits.check("hint", address(request))
    moves = await _best(request, game.name, game.ruleset, state.position(), history)
    return {"position": state.position(), "side": state.to_move, "moves": moves}


# -- pages ---------------------------------------------------------------------------------


def _words(lang: str, key: str, **values: object) -> str:
    return translate(lang, key, **values)


templates.env.globals["analysis_word"] = _words


@router.get("/analysis/words.js", include_in_schema=False)
async def words_module() -> Response:
    return Response(
        analysis_module(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "public, max-age=300"},
    )


@router.get(
    "/analysis", response_class=HTMLResponse, dependencies=[Depends(looking)],
    include_in_schema=False,
)  # fmt: skip
async def board_page(
    request: Request,
    game: str | None = None,
    ruleset: str | None = None,
    position: str | None = None,
    edit: str | None = None,
) -> HTMLResponse:
    lang = language(request)
    if game is not None and ":" in game:  # the set-up form's "game:ruleset"
        game, ruleset = game.split(":", 1)
    games = [
        {"name": name, "rulesets": list(rulesets)}
        for name, rulesets in available_games().items()
        if name in available()
    ]
    chosen = game if game in available() else available()[0]
    error = None
    engine: Game | None = None
    try:
        engine = _game(chosen, ruleset)
        start = _state(engine, position).position() if position else engine.start().position()
    except GameError as exc:
        error = exc.in_language(lang)
        engine = engine or load(chosen)
        start = engine.start().position()
    return page(
        request, "analysis.html", games=games, chosen=chosen, ruleset=engine.ruleset,
        start=start, position=position or "", error=error, limits=editor_limits(engine),
        initial=engine.start().position(), editing=edit == "1",
        w=lambda key, **v: translate(lang, key, **v),
    )  # fmt: skip


def editor_limits(game: Game) -> dict[str, int]:
    """What the position editor may not exceed, as the rules contract says: backgammon's
    checkers on a point (``cap``, 0 for no limit) and Defiance's counters a side (``pool``)."""
    cap = getattr(game, "cap", 0) or 0
    pool = getattr(game, "pool_size", 0) or 0
    return {"cap": int(cap), "pool": int(pool)}


__all__ = ["board_view", "hints_allowed", "router"]
