"""The web app: pages, a JSON API and WebSockets over the game service.

``create_app(settings)`` assembles one server process: the database (migrated), the bus, the
game service, this process's sockets (the hub), the rate limits and, unless the settings say
the computer is served by a queue of ``ludotheque worker`` processes, a worker inside the
process. Any number of such processes may serve one PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .accounts.routes import router as account_router
from .accounts.settings import router as settings_router
from .accounts.throttle import SignInThrottle
from .accounts.users import Users
from .analysis.routes import router as analysis_router
from .archive.routes import router as archive_router
from .bots.routes import router as bot_router
from .chat.live import Chat
from .clock.table import CLOCKS
from .compute.lifeline import end_with_parent
from .compute.pool import ComputerPool
from .compute.worker import CHORES, Worker
from .errors import DATABASE_DOWN, NO_SUCH_PAGE, NOT_ALLOWED, GameError
from .lessons.routes import router as lessons_router
from .lobby.lobby import Lobby
from .lobby.presence import Online
from .lobby.routes import router as lobby_router
from .ops.routes import configure_logging, schema_heads
from .ops.routes import router as ops_router
from .play.actions import describe
from .play.deps import seat_language
from .play.hub import Hub
from .play.mat_files import router as mat_router
from .play.points import MATCHES
from .play.routes import router as api_router
from .play.service import GameService
from .play.session import GameSession
from .play.sockets import live
from .puzzles.routes import pages as puzzle_pages
from .puzzles.routes import router as puzzle_router
from .settings import Settings
from .store.bus import PostgresBus, make_bus
from .store.db import make_engine, migrate, session_factory
from .store.dberrors import Outage
from .store.secret import server_secret
from .tournaments.director import Tournaments
from .tournaments.rounds import Rounds, TournamentWorker
from .tournaments.routes import router as tournament_router
from .web.docs import router as docs_router
from .web.guard import Guard, RateLimits
from .web.pages import error_page, looking
from .web.pages import router as pages_router
from .web.shared_limits import SharedCounts

HERE = Path(__file__).parent
log = logging.getLogger("ludotheque.app")
SWEEP_SECONDS = 10.0
CATCH_UP_SECONDS = 3.0
"""How often a process compares the games it shows with the log (on PostgreSQL)."""
ABANDON_SWEEP_SECONDS = 3600.0


def create_app(settings: Settings | None = None, *, migrated: bool = False) -> FastAPI:
    """An app on the settings' database (created and migrated unless ``migrated``)."""
    settings = settings or Settings()
    if settings.computer not in ("inline", "queue"):
        raise ValueError(f"unknown computer setting {settings.computer!r}: inline or queue")
    engine = make_engine(settings.resolved_database_url())
    if not migrated:
        migrate(engine)
    bus = make_bus(settings.resolved_bus(), engine)
    hub = Hub()
    service = GameService(
        session_factory(engine),
        settings,
        bus,
        on_change=hub.broadcast,
        clocks=CLOCKS,
        matches=MATCHES,
    )
    hub.service = service
    shared = (
        SharedCounts(engine.url.set(drivername="postgresql").render_as_string(hide_password=False))
        if engine.dialect.name == "postgresql"
        else None
    )  # with PostgreSQL, limits are counted across every process
    limits = RateLimits(
        {"create": settings.create_per_minute, "change": settings.moves_per_minute}, shared
    )
    users = Users(service)
    secret = server_secret(settings, engine)
    lobby = Lobby(service, users, bus, secret)
    chat = Chat(service, bus, hub)
    tournaments = Tournaments(service)
    rounds = Rounds(service, secret)

    async def changed(session: GameSession) -> None:
        """A game changed: its sockets are told; a tournament's game that ended wakes its
        tournament."""
        await hub.broadcast(session)
        try:
            await tournaments.heard(session)
        except Exception as exc:  # the tournament's own job looks again soon (its tick)
            log.warning("waking the tournament of game %s failed: %s", session.id, exc)

    service.on_change = changed

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        stop = asyncio.Event()
        tasks: list[asyncio.Task[None]] = []
        pool: ComputerPool | None = None
        await bus.start()
        if settings.computer == "inline":
            pool = ComputerPool(settings.computer_workers)
            worker = Worker(service, pool)
            tasks.append(asyncio.create_task(worker.run(stop)))
        # flag falls and ratings never wait behind a computer that thinks
        chores = Worker(service, None, kinds=CHORES)
        tasks.append(asyncio.create_task(chores.run(stop)))
        # tournaments' starts, rounds, re-pairings and ends: jobs any process takes
        tasks.append(asyncio.create_task(TournamentWorker(service, rounds).run(stop)))
        tasks.append(asyncio.create_task(_sweep(service, stop)))
        if shared is not None:
            tasks.append(asyncio.create_task(shared.run(stop)))
        if isinstance(bus, PostgresBus):  # a notice lost without a gap is caught up too
            tasks.append(asyncio.create_task(_watch_log(service, stop)))
        tasks.append(asyncio.create_task(lobby.run(stop)))
        with contextlib.suppress(Exception):
            await service.resume_legacy()
        try:
            yield
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await bus.close()
            if pool is not None:
                pool.close()
            await service.aclose()
            engine.dispose()

    app = FastAPI(title="Ludothèque", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = service
    app.state.hub = hub
    app.state.settings = settings
    app.state.limits = limits
    app.state.shared_counts = shared
    app.state.schema_heads = schema_heads()
    app.state.users = users
    app.state.throttle = SignInThrottle(service)
    app.state.secret = secret
    app.state.lobby = lobby
    app.state.chat = chat
    app.state.tournaments = tournaments
    app.mount("/static", StaticFiles(directory=HERE / "web" / "static"), name="static")
    app.include_router(ops_router)  # /healthz, /readyz, /metrics
    app.include_router(pages_router)
    app.include_router(archive_router)  # /archive: finished games, filtered, matches together
    app.include_router(docs_router)  # /docs: Swagger UI, vendored
    app.include_router(account_router)
    app.include_router(settings_router)  # /account: password, games, closing
    app.include_router(lobby_router)
    app.include_router(analysis_router)  # analyses, hints, the analysis board
    app.include_router(lessons_router)  # /learn: the lessons, each move judged by the engine
    app.include_router(puzzle_router)  # /api/puzzles/...: attempts, answers, proofs
    app.include_router(puzzle_pages)  # /puzzles: choosing, a puzzle's page, your mistakes
    app.include_router(tournament_router)  # /tournaments, /api/tournament/...
    app.include_router(bot_router)  # the Bot API: /api/account, /api/bot/..., /api/challenge/...
    app.include_router(mat_router)  # before api_router: /api/games/{id}/match.mat
    app.include_router(api_router)
    app.include_router(live)
    app.add_middleware(Online, presence=lobby.presence)  # who is online: every WebSocket
    app.add_middleware(Guard, max_body=settings.max_body, max_depth=settings.max_depth)

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        headers = {}
        retry = exc.retry_after
        if retry is not None:
            headers["Retry-After"] = str(retry)
        return JSONResponse(
            {"detail": exc.in_language(seat_language(request)), "code": exc.code},
            status_code=exc.status,
            headers=headers,
        )

    async def database_failed(request: Request, exc: Exception) -> Response:
        """The database failed a request (it is away, or restarting): a 503 that says so,
        in the reader's language, and one line in the log (not a traceback)."""
        log.warning("the database failed %s %s: %s", request.method, request.url.path,
                    f"{type(exc).__name__}: {exc}".splitlines()[0][:200])  # fmt: skip
        error = GameError(DATABASE_DOWN, "unavailable", 503)
        if not request.url.path.startswith("/api/"):
            with contextlib.suppress(Exception):  # (who is looking needs the database too)
                await looking(request)
            return error_page(request, error)
        return JSONResponse(
            {"detail": error.in_language(seat_language(request)), "code": error.code},
            status_code=503, headers={"Retry-After": "2"},
        )  # fmt: skip

    app.add_exception_handler(SQLAlchemyError, database_failed)
    if find_spec("psycopg") is not None:  # PostgreSQL's driver (the postgresql extra)
        app.add_exception_handler(import_module("psycopg").Error, database_failed)

    @app.exception_handler(StarletteHTTPException)
    async def no_route(request: Request, exc: StarletteHTTPException) -> Response:
        """An address nothing answers (404) or a method it does not take (405): a page in the
        reader's language, with their name in its header; JSON under ``/api/``."""
        if exc.status_code not in (404, 405):
            return JSONResponse({"detail": exc.detail, "code": "http"},
                                status_code=exc.status_code, headers=exc.headers)  # fmt: skip
        found = exc.status_code == 404
        error = GameError(NO_SUCH_PAGE if found else NOT_ALLOWED,
                          "not-found" if found else "method", exc.status_code)  # fmt: skip
        if request.url.path.startswith("/api/") or request.method != "GET":
            return JSONResponse(
                {"detail": error.in_language(seat_language(request)), "code": error.code},
                status_code=exc.status_code, headers=exc.headers,
            )  # fmt: skip
        await looking(request)
        return error_page(request, error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = describe(exc)  # type: ignore[arg-type]
        return JSONResponse(
            {"detail": f"malformed request: {problems}", "code": "bad-request"}, status_code=400
        )

    return app


def settle_garbage() -> None:
    """Keep full garbage collections short: collect the young generations (cheap), then
    freeze what survived, so that the collector no longer walks the thousands of game states
    held in memory. Measured with bench/load.py at 1,000 games: full collections of a
    200 MB heap were the p99 round trip (147 ms; 13 ms with the collector off). What is
    dropped later is still freed by reference counting; only cyclic garbage that outlived two
    young collections stays."""
    gc.collect(1)
    gc.freeze()


async def _sweep(service: GameService, stop: asyncio.Event) -> None:
    """Now and then: drop idle games from memory, archive games abandoned long ago."""
    outage = Outage(log, "the sweep")
    last_abandon = 0.0
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        try:
            service.forget_idle()
            settle_garbage()
            if loop.time() - last_abandon > ABANDON_SWEEP_SECONDS:
                last_abandon = loop.time()
                await service.abandon_stale()
            outage.succeeded()
        except Exception as exc:
            outage.failed(exc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SWEEP_SECONDS)


async def _watch_log(service: GameService, stop: asyncio.Event) -> None:
    """Now and then: games whose sockets are behind the log are caught up (the bus tells
    of every change, and of its own gaps; this is for a notice lost without one)."""
    outage = Outage(log, "catching up with the log")
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), CATCH_UP_SECONDS)
        try:
            await service.catch_up()
            outage.succeeded()
        except Exception as exc:  # the database is away: the next round tries again
            outage.failed(exc)


def app_from_environment() -> FastAPI:
    """The app factory for ``uvicorn --factory`` and ``serve --workers N`` (settings from
    the environment; the parent process migrated the database), in a process that ends with
    uvicorn's supervisor, its parent (which starts its processes from its main thread, so
    the kill signal is safe; see ``compute.lifeline``)."""
    end_with_parent(kill_signal=True)
    settings = Settings.read()
    if settings.log_format == "json":  # a process of its own: its logs as its parent's
        configure_logging("json", logging.WARNING)
    return create_app(settings, migrated=True)
