"""The steps of the lessons an account has solved, in the database (``lesson_steps``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...lessons import COURSES
from ..store.db import LessonRow


def solved(db: Session, user_id: int) -> dict[str, list[str]]:
    """Each game's solved steps, in the course's order (steps no longer in a course left out)."""
    rows = db.execute(
        select(LessonRow.game, LessonRow.step).where(LessonRow.user_id == user_id)
    ).all()
    done = {(game, step) for game, step in rows}
    return {game: [s for s in course.ids if (game, s) in done] for game, course in COURSES.items()}


def record(db: Session, user_id: int, game: str, steps: list[str]) -> None:
    """Mark ``steps`` of ``game`` solved for the account (those already marked are kept as they
    were, with their first date); the caller commits."""
    have = set(
        db.scalars(
            select(LessonRow.step).where(LessonRow.user_id == user_id, LessonRow.game == game)
        )
    )
    for step in dict.fromkeys(steps):
        if step not in have:
            db.add(LessonRow(user_id=user_id, game=game, step=step))
