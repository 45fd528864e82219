"""Puzzles on the site: the pages (``/puzzles``, a puzzle's page, your mistakes) and the API.

- ``POST /api/puzzles/start``: a new attempt, at the next puzzle near the player's rating
  (``play``, per game, an optional theme), the day's (``daily``), a streak's (``streak``) or a
  named puzzle (``puzzle``: a shipped one, or one of the player's own mistakes).
- ``POST /api/puzzles/attempts/<id>/move``: an answer, checked; the reply is played.
- ``GET /api/puzzles/attempts/<id>/proof``: the whole line with its source's facts, once
  answered.
- ``GET /api/puzzles/mistakes`` and ``GET /api/puzzles/ratings``: the signed-in player's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import Field, StrictStr
from sqlalchemy.orm import Session

from ...puzzles.model import GAMES, Puzzle
from .. import timesource
from ..accounts.identity import Who, require_csrf, who
from ..errors import GameError, say
from ..play.actions import Body
from ..play.deps import ServiceDep
from ..play.schemas import documented
from ..play.service import GameService
from ..rating.glicko import Rating
from ..web.pages import looking, page
from . import catalogue as cat
from . import store
from .catalogue import Catalogue
from .mistakes import mistake, mistakes_of
from .schemas import AttemptView, MistakeView, MoveAnswer, ProofView, PuzzleRatingView

NO_PUZZLE = say("no such puzzle")
NO_GAME = say("no puzzles for this game")
ALL_DONE = say("you have answered every puzzle of this choice: try another theme")
STREAK_END = say("no harder puzzle is left: your streak is complete")
SIGN_IN = say("sign in to see your mistakes")

SEEN = 300
"""The most puzzles a guest's browser says it has answered."""

router = APIRouter()
WhoNow = Annotated[Who, Depends(who)]
rng = random.SystemRandom()
T = TypeVar("T")


def catalogue(request: Request) -> Catalogue:
    """The server's puzzle sets (read once, from the settings' folder or the shipped sets)."""
    state = request.app.state
    found: Catalogue | None = getattr(state, "puzzles", None)
    if found is None:
        found = state.puzzles = Catalogue(state.settings.puzzles_dir)
    return found


CatalogueDep = Annotated[Catalogue, Depends(catalogue)]


def today() -> date:
    """The UTC day (the server's one clock, which tests replace)."""
    return timesource.now().date()


def puzzle_view(puzzle: Puzzle, rating: float) -> dict[str, Any]:
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "ruleset": puzzle.ruleset,
        "position": puzzle.position,
        "side": puzzle.side,
        "themes": list(puzzle.themes),
        "rating": round(rating),
        "source": puzzle.source,
        "moves": len(puzzle.solver_moves()),
        "cube": cat.is_cube(puzzle),
    }


def _game(game: str | None) -> str:
    if game not in GAMES:
        raise GameError(NO_GAME, "not-found", 404)
    return str(game)


def find(db: Session, books: Catalogue, puzzle_id: str, user_id: int | None) -> Puzzle:
    """A shipped puzzle, or one of the player's own mistakes, by its id; else a 404."""
    found = books.get(puzzle_id)
    if found is None and user_id is not None:
        found = mistake(db, user_id, puzzle_id)
    if found is None:
        raise GameError(NO_PUZZLE, "not-found", 404)
    return found


class StartBody(Body):
    """What to play: the mode, the game, and for ``play`` a theme, for ``puzzle`` its id, for
    ``streak`` the streak going on (none: a new one)."""

    mode: Literal["play", "daily", "streak", "puzzle"] = "play"
    game: StrictStr | None = Field(default=None, max_length=32)
    theme: StrictStr | None = Field(default=None, max_length=32)
    id: StrictStr | None = Field(default=None, max_length=48)
    streak: StrictStr | None = Field(default=None, max_length=32)
    seen: list[StrictStr] = Field(
        default_factory=list, max_length=SEEN,
        description="a guest's puzzles answered already (kept in the browser), not to be chosen",
    )  # fmt: skip


class AnswerBody(Body):
    move: StrictStr = Field(
        max_length=400,
        description="the move in the game's notation, or "
        "a cube action: `double`, `no double`, `take`, `drop`",
    )


def _choose(
    db: Session, books: Catalogue, body: StartBody, user_id: int | None
) -> tuple[Puzzle, str, str | None]:
    """The puzzle to start, its attempt's mode, and its streak."""
    if body.mode == "puzzle":
        puzzle = find(db, books, body.id or "", user_id)
        return puzzle, "mistake" if puzzle.source == "analysis" else "play", None
    game = _game(body.game)
    puzzles = books.of(game)
    if not puzzles:
        raise GameError(NO_GAME, "not-found", 404)
    if body.mode == "daily":
        chosen = cat.daily(puzzles, game, today())
        assert chosen is not None
        return chosen, "daily", None
    if body.mode == "streak":
        if body.streak:
            streak, next_one = store.streak_next(db, books, body.streak, rng)
        else:
            streak = store.new_streak(db, game, user_id)
            streak, next_one = store.streak_next(db, books, streak.id, rng)
        if next_one is None:
            raise GameError(STREAK_END, "streak-complete", 409)
        return next_one, "streak", streak.id
    live = store.live_ratings(db, game)
    mine = store.player_rating(db, user_id, game).rating if user_id else Rating().rating
    done = store.done_ids(db, user_id, game) if user_id else {i[:48] for i in body.seen}
    chosen = cat.near(
        cat.with_theme(puzzles, body.theme), mine, lambda p: live.get(p.id, p.rating), done, rng
    )
    if chosen is None:
        raise GameError(ALL_DONE, "all-done", 409)
    return chosen, "play", None


@router.post(
    "/api/puzzles/start",
    response_model=None,
    tags=["puzzles"],
    responses=documented(AttemptView, "the attempt, and the puzzle to solve"),
)
async def api_start(
    request: Request, body: StartBody, person: WhoNow, service: ServiceDep, books: CatalogueDep
) -> dict[str, Any]:
    """Start a puzzle: the next one near your rating, the day's, a streak's, or a named one."""
    require_csrf(request, person)
    user_id = person.user.id if person.user else None

    def start(db: Session) -> dict[str, Any]:
        puzzle, mode, streak_id = _choose(db, books, body, user_id)
        row = store.start_attempt(db, puzzle, user_id, mode, streak_id)
        rating = store.puzzle_rating(db, puzzle).rating
        return {
            "attempt": row.id,
            "mode": mode,
            "rated": row.rated,
            "puzzle": puzzle_view(puzzle, rating),
            "streak": store.streak_of(db, streak_id),
        }

    return await _read(service, start)


@router.post(
    "/api/puzzles/attempts/{attempt_id}/move",
    response_model=None,
    tags=["puzzles"],
    responses=documented(MoveAnswer, "the answer checked"),
)
async def api_answer(
    request: Request,
    attempt_id: str,
    body: AnswerBody,
    person: WhoNow,
    service: ServiceDep,
    books: CatalogueDep,
) -> dict[str, Any]:
    """Answer the attempt's puzzle: right, the solver's move and the reply are played (the
    puzzle is solved after the last); wrong, the attempt is lost and the position stays."""
    require_csrf(request, person)

    def check(db: Session) -> dict[str, Any]:
        row = store.attempt(db, attempt_id)
        puzzle = find(db, books, row.puzzle_id, row.user_id)
        done = store.answer(db, row, puzzle, body.move)
        return {
            "right": done.right,
            "step": done.step,
            "played": [vars(s) for s in done.played],
            "solved": done.solved,
            "result": done.result,
            "rating": done.rating,
            "streak": done.streak,
        }

    return await _read(service, check)


@router.get(
    "/api/puzzles/attempts/{attempt_id}/proof",
    response_model=None,
    tags=["puzzles"],
    responses=documented(ProofView, "the solution, with its source's facts"),
)
async def api_proof(attempt_id: str, service: ServiceDep, books: CatalogueDep) -> dict[str, Any]:
    """The puzzle's whole line, once the attempt has an answer (right or wrong)."""

    def read(db: Session) -> dict[str, Any]:
        row = store.attempt(db, attempt_id)
        if row.result is None:
            raise GameError(store.NO_PROOF, "not-yet", 409)
        puzzle = find(db, books, row.puzzle_id, row.user_id)
        return {
            "id": puzzle.id,
            "start": puzzle.position,
            "source": puzzle.source,
            "steps": [vars(s) for s in cat.proof_steps(puzzle)],
            "facts": puzzle.facts,
        }

    return await _read(service, read)


async def _read(service: GameService, read: Callable[[Session], T]) -> T:
    """``read`` (or write) with a database session, in the service's thread (the event loop
    never waits on it): every handler here works so."""

    def run() -> T:
        with service.sessions() as db:
            return read(db)

    return await service.run_db(run)


def _own(person: Who) -> int:
    """The signed-in player's id, for what is only theirs; a guest is told to sign in (401)."""
    if person.user is None:
        raise GameError(SIGN_IN, "sign-in", 401)
    return person.user.id


def _mistake_view(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "ruleset": puzzle.ruleset,
        "game_id": puzzle.facts["game_id"],
        "ply": puzzle.facts["ply"],
        "move": int(puzzle.facts["move_index"]) + 1,
        "played": puzzle.facts["played"],
        "label": puzzle.facts["label"],
    }


def _mistakes(db: Session, user_id: int) -> list[dict[str, Any]]:
    return [_mistake_view(p) for p in mistakes_of(db, user_id)]


@router.get(
    "/api/puzzles/mistakes",
    response_model=None,
    tags=["puzzles"],
    responses=documented(list[MistakeView], "your mistakes, newest game first"),
)
async def api_mistakes(person: WhoNow, service: ServiceDep) -> list[dict[str, Any]]:
    """The signed-in player's own mistakes in their analysed games, as puzzles."""
    user_id = _own(person)
    return await _read(service, lambda db: _mistakes(db, user_id))


def _ratings(db: Session, user_id: int) -> list[dict[str, Any]]:
    out = []
    for game in GAMES:
        rating = store.player_rating(db, user_id, game)
        out.append(
            {
                "game": game,
                "rating": round(rating.rating),
                "provisional": rating.provisional,
                "games": rating.games,
                "best_streak": store.best_streak(db, user_id, game),
            }
        )
    return out


@router.get(
    "/api/puzzles/ratings",
    response_model=None,
    tags=["puzzles"],
    responses=documented(list[PuzzleRatingView], "your puzzle rating in each game"),
)
async def api_ratings(person: WhoNow, service: ServiceDep) -> list[dict[str, Any]]:
    """The signed-in player's puzzle ratings and best streaks."""
    user_id = _own(person)
    return await _read(service, lambda db: _ratings(db, user_id))


# -- pages -----------------------------------------------------------------------------------

pages = APIRouter(dependencies=[Depends(looking)], include_in_schema=False)


@pages.get("/puzzles", response_class=HTMLResponse)
async def puzzles_page(request: Request, service: ServiceDep, books: CatalogueDep) -> HTMLResponse:
    person: Who = request.state.who
    user_id = person.user.id if person.user else None
    ratings = [] if user_id is None else await _read(service, lambda db: _ratings(db, user_id))
    games = [{"name": g, "count": len(books.of(g)), "themes": books.themes(g)} for g in GAMES]
    return page(
        request,
        "puzzles.html",
        games=games,
        ratings={r["game"]: r for r in ratings},
        signed_in=user_id is not None,
    )


@pages.get("/puzzles/play", response_class=HTMLResponse)
async def puzzle_page(
    request: Request,
    mode: str = "play",
    game: str | None = None,
    theme: str | None = None,
    id: str | None = None,
) -> HTMLResponse:
    """A puzzle's page: the page asks the API for the puzzle (and the next ones)."""
    mode = mode if mode in ("play", "daily", "streak", "puzzle") else "play"
    if mode != "puzzle":
        game = game if game in GAMES else GAMES[0]
    person: Who = request.state.who
    return page(
        request,
        "puzzle.html",
        mode=mode,
        game=game or "",
        theme=(theme or "")[:32],
        puzzle_id=(id or "")[:48],
        signed_in=person.user is not None,
    )


@pages.get("/puzzles/mistakes", response_class=HTMLResponse)
async def mistakes_page(request: Request, service: ServiceDep) -> HTMLResponse:
    person: Who = request.state.who
    user_id = person.user.id if person.user else None
    found = [] if user_id is None else await _read(service, lambda db: _mistakes(db, user_id))
    return page(request, "puzzle_mistakes.html", mistakes=found, signed_in=user_id is not None)
