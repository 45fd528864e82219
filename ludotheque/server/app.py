"""The web app: pages, a JSON API and WebSockets, over the game service.

Links are capabilities: ``/play/<token>`` opens a seat (one side, or both at one screen),
``/watch/<token>`` a watcher's view; finished games are public in the archive.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from .. import available_games, load
from ..ai.levels import LEVELS
from . import boards, diagrams
from .computer import ComputerPool
from .db import make_engine, migrate, session_factory
from .i18n import LANGUAGES, TEXTS, pick_language, translate
from .service import BOTH, WATCH, GameError, GameService, GameSession
from .settings import Settings
from .snapshot import snapshot

HERE = Path(__file__).parent
RULESET_LABELS = {
    ("backgammon", "seed"): "seed",
    ("backgammon", "standard"): "standard",
    ("defiance", "10x10"): "10×10",
    ("defiance", "8x8"): "8×8",
}


class NewGame(BaseModel):
    """A request for a new game."""

    game: str
    mode: Literal["local", "computer", "friend"] = "local"
    ruleset: str | None = None
    side: str | None = None
    level: str | None = None
    position: str | None = Field(default=None, max_length=2000)


class MoveRequest(BaseModel):
    move: str = Field(max_length=400)
    ply: int


class PartialRequest(BaseModel):
    """Part of a turn: backgammon's single checker moves so far, or a Defiance action."""

    steps: list[list[int]] | None = Field(default=None, max_length=4)
    action: str | None = Field(default=None, max_length=20)


class Answer(BaseModel):
    accept: bool


class Hub:
    """The open WebSockets of each game, and the seat of each."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[WebSocket, str]] = {}

    def join(self, game_id: str, socket: WebSocket, seat: str) -> None:
        self.rooms.setdefault(game_id, {})[socket] = seat

    def leave(self, game_id: str, socket: WebSocket) -> None:
        self.rooms.get(game_id, {}).pop(socket, None)

    async def broadcast(self, session: GameSession) -> None:
        for socket, seat in list(self.rooms.get(session.id, {}).items()):
            try:
                await socket.send_json({"type": "state", "game": snapshot(session, seat)})
            except Exception:  # a closed connection: it will reconnect and catch up
                self.leave(session.id, socket)


def create_app(settings: Settings | None = None) -> FastAPI:
    """An app on the settings' database (created and migrated if needed)."""
    settings = settings or Settings()
    engine = make_engine(settings.resolved_database_url())
    migrate(engine)
    hub = Hub()
    computer = ComputerPool(settings.computer_workers)

    async def think(session: GameSession) -> str:
        digest = hashlib.sha256(f"{session.id}:{session.ply}".encode()).digest()
        seed = int.from_bytes(digest[:4], "big")
        level = session.level or "medium"
        return await computer.choose(session.record.to_json(reveal_seed=False), level, seed)

    service = GameService(
        session_factory(engine), think=think, on_change=hub.broadcast,
        computer_delay=settings.computer_delay,
    )  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.resume()
        yield
        for task in list(service.tasks):
            task.cancel()
        computer.close()
        engine.dispose()

    app = FastAPI(title="Ludothèque", lifespan=lifespan)
    app.state.service = service
    app.state.hub = hub
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.globals["diagrams"] = diagrams

    # -- errors ----------------------------------------------------------------------------

    @app.exception_handler(GameError)
    async def game_error(_request: Request, exc: GameError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
            for e in exc.errors()
        )
        return JSONResponse(
            {"detail": f"malformed request: {problems}", "code": "bad-request"}, status_code=400
        )

    # -- pages -----------------------------------------------------------------------------

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))

        def t(key: str, **values: object) -> str:
            return translate(lang, key, **values)

        return templates.TemplateResponse(
            request,
            name,
            {"t": t, "lang": lang, "texts": json.dumps(TEXTS[lang], ensure_ascii=False),
             "path": request.url.path, **context},
            status_code=status,
        )  # fmt: skip

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        games = [
            {
                "name": name,
                "rulesets": [
                    {"name": r, "label": RULESET_LABELS.get((name, r), r)} for r in rulesets
                ],
                "sides": list(load(name).sides),
            }
            for name, rulesets in available_games().items()
            if name in boards.available()
        ]
        return page(request, "home.html", games=games, levels=LEVELS)

    @app.get("/lang/{code}")
    async def switch_language(code: str, next: str = "/") -> Response:
        target = next if next.startswith("/") and not next.startswith("//") else "/"
        response = RedirectResponse(target, status_code=303)
        if code in LANGUAGES:
            response.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="lax")
        return response

    @app.get("/play/{token}", response_class=HTMLResponse)
    async def play_page(request: Request, token: str) -> HTMLResponse:
        try:
            session, seat = service.seat(token)
        except GameError as exc:
            return page(request, "error.html", status=exc.status, message=exc.message)
        if seat == WATCH:
            return RedirectResponse(f"/watch/{token}", status_code=303)  # type: ignore[return-value]
        return page(request, "game.html", game=session.game, token=token, seat=seat, mode="play")

    @app.get("/watch/{token}", response_class=HTMLResponse)
    async def watch_page(request: Request, token: str) -> HTMLResponse:
        try:
            session, _ = service.seat(token)
        except GameError as exc:
            return page(request, "error.html", status=exc.status, message=exc.message)
        return page(request, "game.html", game=session.game, token=token, seat=WATCH, mode="watch")

    @app.get("/archive", response_class=HTMLResponse)
    async def archive_page(request: Request) -> HTMLResponse:
        return page(request, "archive.html", games=service.archive())

    @app.get("/archive/{game_id}", response_class=HTMLResponse)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        try:
            session = service.get(game_id)
        except GameError as exc:
            return page(request, "error.html", status=exc.status, message=exc.message)
        if not session.finished:
            return page(request, "error.html", status=404, message="this game is not finished")
        return page(request, "game.html", game=session.game, token="", game_id=game_id,
                    seat=WATCH, mode="archive")  # fmt: skip

    @app.get("/dice", response_class=HTMLResponse)
    async def dice_page(request: Request) -> HTMLResponse:
        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
        return page(request, f"dice.{lang}.html")

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules_page(request: Request, game: str) -> HTMLResponse:
        if game not in boards.available():
            return page(request, "error.html", status=404, message=f"no game {game!r}")
        lang = pick_language(request.cookies.get("lang"), request.headers.get("accept-language"))
        return page(request, f"rules/{game}.{lang}.html", game=game)

    @app.post("/new")
    async def new_from_form(request: Request) -> Response:
        form = await request.form()
        spec = NewGame(
            game=str(form.get("game", "")),
            mode=str(form.get("mode", "local")),  # type: ignore[arg-type]
            ruleset=str(form.get("ruleset") or "") or None,
            side=str(form.get("side") or "") or None,
            level=str(form.get("level") or "") or None,
            position=str(form.get("position") or "").strip() or None,
        )
        try:
            created = service.create(**spec.model_dump())
        except GameError as exc:
            return page(request, "error.html", status=exc.status, message=exc.message)
        await service.begin(created.session)
        if spec.mode == "friend":
            return page(request, "links.html", game=spec.game, seats=created.seats,
                        watch=created.watch)  # fmt: skip
        return RedirectResponse(f"/play/{created.seats[BOTH]}", status_code=303)

    # -- the JSON API ----------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    async def api_create(spec: NewGame) -> dict[str, Any]:
        created = service.create(**spec.model_dump())
        await service.begin(created.session)
        base = {side: f"/play/{token}" for side, token in created.seats.items()}
        return {
            "id": created.session.id,
            "seats": base,
            "watch": f"/watch/{created.watch}",
            "game": snapshot(created.session, BOTH if spec.mode != "friend" else WATCH),
        }

    @app.get("/api/play/{token}")
    async def api_state(token: str) -> dict[str, Any]:
        session, seat = service.seat(token)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/move")
    async def api_move(token: str, body: MoveRequest) -> dict[str, Any]:
        session, seat = service.seat(token)
        await service.play(session, seat, body.move, body.ply)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/partial")
    async def api_partial(token: str, body: PartialRequest) -> dict[str, Any]:
        session, seat = service.seat(token)
        return service.partial(session, seat, body.model_dump(exclude_none=True))

    @app.post("/api/play/{token}/undo")
    async def api_undo(token: str) -> dict[str, Any]:
        session, seat = service.seat(token)
        await service.undo(session, seat)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/undo-request")
    async def api_undo_request(token: str) -> dict[str, Any]:
        session, seat = service.seat(token)
        await service.request_undo(session, seat)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/undo-answer")
    async def api_undo_answer(token: str, body: Answer) -> dict[str, Any]:
        session, seat = service.seat(token)
        await service.answer_undo(session, seat, body.accept)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/resign")
    async def api_resign(token: str) -> dict[str, Any]:
        session, seat = service.seat(token)
        await service.resign(session, seat)
        return snapshot(session, seat)

    @app.post("/api/play/{token}/rematch")
    async def api_rematch(token: str) -> dict[str, Any]:
        session, seat = service.seat(token)
        new, new_token = service.rematch(session, seat, token)
        await service.begin(new)
        await hub.broadcast(session)
        return {"url": f"/play/{new_token}", "id": new.id}

    @app.get("/api/play/{token}/record")
    async def api_record(token: str) -> Response:
        session, _ = service.seat(token)
        return record_response(session)

    @app.get("/api/games/{game_id}/record")
    async def api_public_record(game_id: str) -> Response:
        session = service.get(game_id)
        if not session.finished:
            raise GameError("only finished games are public", "not-finished", 403)
        return record_response(session)

    @app.get("/api/games/{game_id}")
    async def api_public_state(game_id: str) -> dict[str, Any]:
        session = service.get(game_id)
        if not session.finished:
            raise GameError("only finished games are public", "not-finished", 403)
        return snapshot(session, WATCH)

    @app.get("/api/archive")
    async def api_archive() -> list[dict[str, Any]]:
        return service.archive()

    def record_response(session: GameSession) -> Response:
        text = session.record.to_json(reveal_seed=session.finished)
        return Response(
            text,
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="{session.game}-{session.id}.json"'
            },
        )

    # -- live ------------------------------------------------------------------------------

    @app.websocket("/ws/{token}")
    async def live(socket: WebSocket, token: str) -> None:
        await socket.accept()
        try:
            session, seat = service.seat(token)
        except GameError as exc:
            await socket.send_json({"type": "error", "code": exc.code, "message": exc.message})
            await socket.close(code=4403)
            return
        hub.join(session.id, socket, seat)
        try:
            await socket.send_json({"type": "state", "game": snapshot(session, seat)})
            while True:
                raw = await socket.receive_text()
                await handle(socket, session, seat, token, raw)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(session.id, socket)

    async def handle(
        socket: WebSocket, session: GameSession, seat: str, token: str, raw: str
    ) -> None:
        try:
            message = json.loads(raw)
            if not isinstance(message, dict):
                raise ValueError
        except ValueError:
            await socket.send_json(
                {"type": "error", "code": "bad-request", "message": "malformed message (JSON)"}
            )
            return
        kind = message.get("type")
        try:
            if kind == "move":
                await service.play(session, seat, message.get("move"), message.get("ply"))
            elif kind == "undo":
                await service.undo(session, seat)
            elif kind == "undo-request":
                await service.request_undo(session, seat)
            elif kind == "undo-answer":
                await service.answer_undo(session, seat, message.get("accept"))
            elif kind == "resign":
                await service.resign(session, seat)
            elif kind == "rematch":
                new, new_token = service.rematch(session, seat, token)
                await service.begin(new)
                await socket.send_json({"type": "rematch", "url": f"/play/{new_token}"})
                await hub.broadcast(session)
            elif kind == "partial":
                reply = service.partial(session, seat, message)
                await socket.send_json({"type": "partial", "id": message.get("id"), **reply})
            elif kind == "sync":
                await socket.send_json({"type": "state", "game": snapshot(session, seat)})
            elif kind == "ping":
                await socket.send_json({"type": "pong"})
            else:
                raise GameError(f"unknown message type {kind!r}", "bad-request", 400)
        except GameError as exc:
            reply = {"type": "error", "code": exc.code, "message": exc.message}
            if message.get("id") is not None:
                reply["id"] = message["id"]
            await socket.send_json(reply)

    return app
