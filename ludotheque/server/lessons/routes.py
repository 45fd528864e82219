"""The lessons: ``/learn`` (the three courses and the reader's progress), ``/learn/<game>``
(the steps, on the game's own board, as the analysis board uses it) and their API.

- ``GET /api/lessons``: each game's solved steps (an account's; a guest's are in the browser).
- ``GET /api/lessons/<game>``: the course, its words in the reader's language.
- ``POST /api/lessons/<game>/<step>`` with ``{"move": …}``: the move judged by the engine:
  ``solved``, ``missed`` (legal, with why it misses) or ``illegal`` (the engine's refusal);
  a step solved is kept with the account.
- ``POST /api/lessons/progress`` with ``{"game": …, "steps": […]}``: steps solved in the
  browser before signing in, kept with the account.

What is legal on a step's board, part by part, comes from the analysis board's API
(``/api/analysis/position`` and ``/partial``), which the board already speaks.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.exc import IntegrityError

from ...core import CHANCE
from ...lessons import COURSES, Course, Step, check, start_state
from ..accounts.identity import Who, require_csrf, who
from ..errors import GameError, say
from ..i18n.languages import translate
from ..i18n.lesson_words import LESSONS
from ..i18n.refusals import refused
from ..play.deps import ServiceDep
from ..play.schemas import documented
from ..play.service import GameService
from ..web.pages import language, looking, page
from .progress import record, solved
from .schemas import CourseView, Progress, ProgressBody, Tried, TryBody

MOVE_LIMIT = 400

NO_MOVE = say("no move was given: play one on the board")
SIGN_IN = say("sign in to keep your progress with an account")

router = APIRouter()


def _course(game: str) -> Course:
    course = COURSES.get(game)
    if course is None:
        raise GameError(say("there is no lesson for {game}", game=game[:40]), "no-lesson", 404)
    return course


def _step(course: Course, step_id: str) -> Step:
    step = course.step(step_id)
    if step is None:
        raise GameError(say("this lesson has no step {step}", step=step_id[:40]), "no-step", 404)
    return step


def step_view(lang: str, game: str, step: Step) -> dict[str, Any]:
    """A step as the page is told it: its position, who plays, its words in ``lang``, and the
    move the hint draws on the board (the step's answer: one of the moves that meet the goal)."""

    def words(part: str) -> str:
        return translate(lang, f"lesson.{game}.{step.id}.{part}")

    side = start_state(game, step).to_move
    return {
        "id": step.id, "ruleset": step.ruleset, "position": step.position, "side": side,
        "title": words("title"), "do": words("do"), "hint": words("hint"),
        "hint_move": None if side == CHANCE else step.answer, "why": words("why"),
    }  # fmt: skip


async def _solved(service: GameService, person: Who) -> dict[str, list[str]]:
    """Each game's steps the reader has solved (nothing for a guest: their browser keeps it)."""
    user = person.user
    if user is None:
        return {game: [] for game in COURSES}

    def read() -> dict[str, list[str]]:
        with service.sessions() as db:
            return solved(db, user.id)

    found: dict[str, list[str]] = await service.run_db(read)
    return found


async def _keep(
    service: GameService, person: Who, game: str, steps: list[str]
) -> dict[str, list[str]]:
    """Keep ``steps`` of ``game`` solved with the reader's account; each game's solved steps.
    Two requests keeping one step at once: the database takes one row, the other request
    finds it there when it tries again."""
    user = person.user
    assert user is not None

    def write() -> dict[str, list[str]]:
        with service.sessions() as db:
            for attempt in range(2):
                record(db, user.id, game, steps)
                try:
                    db.commit()
                    break
                except IntegrityError:
                    db.rollback()
                    if attempt:
                        raise
            return solved(db, user.id)

    found: dict[str, list[str]] = await service.run_db(write)
    return found


# -- the API ---------------------------------------------------------------------------------


@router.get("/api/lessons", response_model=None, tags=["lessons"],
            responses=documented(Progress, "each game's solved steps"))  # fmt: skip
async def api_progress(request: Request, service: ServiceDep) -> dict[str, Any]:
    """Each game's solved steps (an account's; a guest keeps theirs in the browser)."""
    person = await who(request)
    return {"account": person.user is not None, "solved": await _solved(service, person)}


@router.post("/api/lessons/progress", response_model=None, tags=["lessons"],
             responses=documented(Progress, "each game's solved steps, these added"))  # fmt: skip
async def api_keep(request: Request, service: ServiceDep, body: ProgressBody) -> dict[str, Any]:
    """Keep with the account the steps a guest solved in the browser before signing in."""
    person = await who(request)
    if person.user is None:
        raise GameError(SIGN_IN, "not-signed-in", 401)
    require_csrf(request, person)
    course = _course(body.game)
    steps = [_step(course, s).id for s in body.steps[: len(course.steps) + 1]]
    return {"account": True, "solved": await _keep(service, person, course.game, steps)}


@router.get("/api/lessons/{game}", response_model=None, tags=["lessons"],
            responses=documented(CourseView, "the course"))  # fmt: skip
async def api_course(game: str, request: Request, service: ServiceDep) -> dict[str, Any]:
    """A game's course, its words in the reader's language, and the steps solved."""
    course = _course(game)
    lang = language(request)
    person = await who(request)
    done = await _solved(service, person)
    return {
        "game": game, "steps": [step_view(lang, game, s) for s in course.steps],
        "solved": done[game], "account": person.user is not None,
    }  # fmt: skip


@router.post("/api/lessons/{game}/{step_id}", response_model=None, tags=["lessons"],
             responses=documented(Tried, "the move judged"))  # fmt: skip
async def api_try(
    game: str, step_id: str, request: Request, service: ServiceDep, body: TryBody
) -> dict[str, Any]:
    """Judge a move on a step by the game's engine; a step solved is kept with the account."""
    course = _course(game)
    step = _step(course, step_id)
    lang = language(request)
    text = body.move.strip()
    if not text:
        raise GameError(NO_MOVE, "no-move", 400)
    if len(text) > MOVE_LIMIT:
        raise GameError(say("a move is at most {limit} characters long", limit=MOVE_LIMIT),
                        "move-too-long", 400)  # fmt: skip
    person = await who(request)
    if person.user is not None:
        require_csrf(request, person)
    verdict = check(game, step, text)
    done = (await _solved(service, person))[game]
    if verdict.result == "solved":
        message = translate(lang, f"lesson.{game}.{step.id}.why")
        if person.user is not None:
            done = (await _keep(service, person, game, [step.id]))[game]
    elif verdict.result == "missed":
        why = translate(lang, f"lesson.{game}.{step.id}.miss")
        message = translate(lang, "learn.missed", why=why)
    else:
        assert verdict.refusal is not None
        message = translate(lang, "learn.illegal", refusal=refused(verdict.refusal)(lang))
    return {"result": verdict.result, "position": verdict.position, "played": verdict.played,
            "message": message, "solved": done}  # fmt: skip


# -- the pages -------------------------------------------------------------------------------


def page_words(lang: str) -> dict[str, str]:
    """The pages' own words (``learn.*``) in ``lang``, for their script."""
    return {key: translate(lang, key) for key in LESSONS if key.startswith("learn.")}


@router.get("/learn", response_class=HTMLResponse, dependencies=[Depends(looking)],
            include_in_schema=False)  # fmt: skip
async def learn_page(request: Request, service: ServiceDep) -> HTMLResponse:
    person: Who = request.state.who
    done = await _solved(service, person)
    courses = [{"game": game, "total": len(c.steps), "done": len(done[game]),
                "first": c.ids[0]} for game, c in COURSES.items()]  # fmt: skip
    return page(request, "learn.html", courses=courses, account=person.user is not None,
                learn_words=page_words(language(request)))  # fmt: skip


@router.get("/learn/{game}", response_class=HTMLResponse, dependencies=[Depends(looking)],
            include_in_schema=False)  # fmt: skip
async def lesson_page(request: Request, game: str, service: ServiceDep) -> HTMLResponse:
    lang = language(request)
    try:
        course = _course(game)
    except GameError as exc:
        return page(request, "error.html", status=exc.status, message=exc.in_language(lang))
    person: Who = request.state.who
    steps = [step_view(lang, game, s) for s in course.steps]
    done = (await _solved(service, person))[game]
    return page(request, "lesson.html", game=game, steps=steps, account=person.user is not None,
                solved=done, learn_words=page_words(lang))  # fmt: skip


__all__ = ["router"]
