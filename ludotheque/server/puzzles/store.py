"""Puzzles in the database: attempts, their answers, the ratings they move and streaks.

Every function takes an open ``Session`` and is run by the routes in a thread
(``service.run_db``). An answer moves an attempt on by a conditional update of its ``step``:
of two answers to the same ply at once, one counts, the other is refused. A rated attempt
rates the player and the puzzle once: the ``puzzle_done`` row's primary key decides it.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...puzzles.model import Puzzle
from ..errors import GameError, say
from ..rating.glicko import LOSS, PROVISIONAL_DEVIATION, WIN, Rating, rate_game
from ..store.db import (
    PuzzleAttemptRow,
    PuzzleDoneRow,
    PuzzlePlayerRow,
    PuzzleRatingRow,
    PuzzleStreakRow,
    now,
)
from . import catalogue as cat
from .catalogue import Catalogue

PUZZLE_DEVIATION = 200.0
"""A shipped puzzle's deviation before anyone plays it (its rating is the set's)."""
RATED_MODES = ("play", "daily")

NO_ATTEMPT = say("no such puzzle attempt")
OVER = say("this puzzle is solved already: open it again to practise")
STALE = say("this answer came twice: the puzzle has moved on")
NO_PROOF = say("the proof is shown after your answer")
STREAK_OVER = say("this streak is over: start a new one")
NO_STREAK = say("no such streak")


@dataclass(frozen=True)
class Answer:
    """What an answer did: right or wrong, the plies played (the solver's move and the
    reply), the attempt's result and the rating it moved."""

    right: bool
    step: int
    played: list[cat.Step]
    solved: bool
    result: str | None
    rating: dict[str, float] | None
    streak: dict[str, Any] | None


def puzzle_rating(db: Session, puzzle: Puzzle) -> Rating:
    row = db.get(PuzzleRatingRow, puzzle.id)
    if row is None:
        return Rating(puzzle.rating, PUZZLE_DEVIATION)
    return Rating(row.rating, row.deviation, row.volatility, row.plays)


def live_ratings(db: Session, game: str) -> dict[str, float]:
    """The puzzles of ``game`` that have been rated, and their ratings now."""
    rows = db.scalars(select(PuzzleRatingRow).where(PuzzleRatingRow.game == game))
    return {row.puzzle_id: row.rating for row in rows}


def player_rating(db: Session, user_id: int, game: str) -> Rating:
    row = db.get(PuzzlePlayerRow, (user_id, game))
    if row is None:
        return Rating()
    last = row.last_played
    if last is not None and last.tzinfo is None:  # SQLite gives the time back without its zone
        last = last.replace(tzinfo=UTC)
    return Rating(row.rating, row.deviation, row.volatility, row.games, last)


def best_streak(db: Session, user_id: int, game: str) -> int:
    row = db.get(PuzzlePlayerRow, (user_id, game))
    return 0 if row is None else row.best_streak


def done_ids(db: Session, user_id: int, game: str) -> set[str]:
    rows = db.scalars(
        select(PuzzleDoneRow.puzzle_id).where(
            PuzzleDoneRow.user_id == user_id, PuzzleDoneRow.game == game
        )
    )
    return set(rows)


def _player_row(db: Session, user_id: int, game: str) -> PuzzlePlayerRow:
    row = db.get(PuzzlePlayerRow, (user_id, game))
    if row is None:
        start = Rating()
        row = PuzzlePlayerRow(
            user_id=user_id,
            game=game,
            rating=start.rating,
            deviation=start.deviation,
            volatility=start.volatility,
            games=0,
            best_streak=0,
        )
        db.add(row)
        db.flush()
    return row


def start_attempt(
    db: Session, puzzle: Puzzle, user_id: int | None, mode: str, streak_id: str | None = None
) -> PuzzleAttemptRow:
    """A new attempt at ``puzzle``: rated when a signed-in player has never answered it
    (and it is a shipped puzzle played as such, not a streak's or a mistake)."""
    rated = (
        user_id is not None
        and mode in RATED_MODES
        and db.get(PuzzleDoneRow, (user_id, puzzle.id)) is None
    )
    row = PuzzleAttemptRow(
        id=secrets.token_urlsafe(18),
        puzzle_id=puzzle.id,
        game=puzzle.game,
        user_id=user_id,
        mode=mode,
        streak_id=streak_id,
        step=0,
        result=None,
        solved=False,
        rated=rated,
        created_at=now(),
    )
    db.add(row)
    db.commit()
    return row


def attempt(db: Session, attempt_id: str) -> PuzzleAttemptRow:
    row = db.get(PuzzleAttemptRow, attempt_id[:32])
    if row is None:
        raise GameError(NO_ATTEMPT, "not-found", 404)
    return row


def _rate(db: Session, row: PuzzleAttemptRow, puzzle: Puzzle, won: bool) -> dict[str, Any]:
    """Rate the player and the puzzle for a first answer (once: ``puzzle_done`` decides)."""
    assert row.user_id is not None
    when = now()
    player = _player_row(db, row.user_id, puzzle.game)
    before = player_rating(db, row.user_id, puzzle.game)
    mine, its = rate_game(before, puzzle_rating(db, puzzle), WIN if won else LOSS, when)
    try:
        with db.begin_nested():
            db.add(
                PuzzleDoneRow(
                    user_id=row.user_id,
                    puzzle_id=puzzle.id,
                    game=puzzle.game,
                    won=won,
                    change=mine.rating - before.rating,
                    at=when,
                )
            )
    except IntegrityError:  # answered at once elsewhere: rated there
        row.rated = False
        return {}
    player.rating, player.deviation, player.volatility = (
        mine.rating,
        mine.deviation,
        mine.volatility,
    )
    player.games, player.last_played = player.games + 1, when
    if not puzzle.id.startswith("m"):
        stored = db.get(PuzzleRatingRow, puzzle.id)
        if stored is None:
            stored = PuzzleRatingRow(puzzle_id=puzzle.id, game=puzzle.game, plays=0, wins=0)
            db.add(stored)
        stored.rating, stored.deviation, stored.volatility = (
            its.rating,
            its.deviation,
            its.volatility,
        )
        stored.plays = (stored.plays or 0) + 1
        stored.wins = (stored.wins or 0) + (1 if won else 0)
    return {"before": before.rating, "after": mine.rating, "change": mine.rating - before.rating,
            "provisional": mine.deviation >= PROVISIONAL_DEVIATION,
            "puzzle": None if puzzle.id.startswith("m") else its.rating}  # fmt: skip


def _streak(db: Session, row: PuzzleAttemptRow, puzzle: Puzzle, won: bool) -> dict[str, Any]:
    streak = db.get(PuzzleStreakRow, row.streak_id)
    if streak is None:
        return {}
    if won:
        streak.count += 1
        streak.last_rating = puzzle_rating(db, puzzle).rating
    else:
        streak.over = True
    best = streak.count
    if streak.user_id is not None:
        player = _player_row(db, streak.user_id, puzzle.game)
        player.best_streak = max(player.best_streak, streak.count)
        best = player.best_streak
    return {"id": streak.id, "count": streak.count, "over": streak.over, "best": best}


def answer(db: Session, row: PuzzleAttemptRow, puzzle: Puzzle, move: str) -> Answer:
    """Check ``move`` at the attempt's step: right, the reply is played; wrong, the attempt
    is lost (its first answer decides the rating) and the position stays."""
    if row.solved:
        raise GameError(OVER, "attempt-over", 409)
    index = row.step
    state = cat.state_at(puzzle, 2 * index)
    if cat.canonical(state, move) is None:
        raise GameError(
            say("“{move}” is not a move in this position", move=move[:60]), "bad-move", 400
        )
    right = cat.is_right(puzzle, index, state, move)
    played: list[cat.Step] = []
    solved = False
    step = index
    if right:
        step = index + 1
        line = cat.line_steps(puzzle)
        played = line[2 * index : 2 * index + 2]
        solved = step >= len(puzzle.solver_moves())
    decided = row.result is not None
    result = row.result
    if result is None and (solved or not right):
        result = "win" if right else "loss"
    moved = db.execute(
        update(PuzzleAttemptRow)
        .where(
            PuzzleAttemptRow.id == row.id,
            PuzzleAttemptRow.step == index,
            PuzzleAttemptRow.solved.is_(False),
        )
        .values(step=step, solved=solved, result=result)
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        db.rollback()
        raise GameError(STALE, "stale", 409)
    rating = None
    streak = None
    if result is not None and not decided:  # decided now
        if row.rated:
            rating = _rate(db, row, puzzle, result == "win") or None
        if row.streak_id is not None:
            streak = _streak(db, row, puzzle, result == "win") or None
    db.commit()
    return Answer(right, step, played, solved, result, rating, streak)


def new_streak(db: Session, game: str, user_id: int | None) -> PuzzleStreakRow:
    row = PuzzleStreakRow(
        id=secrets.token_urlsafe(18),
        game=game,
        user_id=user_id,
        count=0,
        over=False,
        last_rating=cat.STREAK_START - 1,
        created_at=now(),
    )
    db.add(row)
    db.commit()
    return row


def streak_next(
    db: Session, catalogue: Catalogue, streak_id: str, rng: random.Random
) -> tuple[PuzzleStreakRow, Puzzle | None]:
    """The streak's next puzzle (``None``: none is left above the last one), once the last
    attempt of the streak is solved."""
    streak = db.get(PuzzleStreakRow, streak_id[:32])
    if streak is None:
        raise GameError(NO_STREAK, "not-found", 404)
    if streak.over:
        raise GameError(STREAK_OVER, "streak-over", 409)
    attempts = list(
        db.scalars(select(PuzzleAttemptRow).where(PuzzleAttemptRow.streak_id == streak.id))
    )
    if any(not a.solved for a in attempts):
        raise GameError(say("solve this streak's puzzle first"), "streak-busy", 409)
    seen = {a.puzzle_id for a in attempts}
    live = live_ratings(db, streak.game)
    puzzles = catalogue.of(streak.game)
    puzzle = cat.rising(puzzles, streak.last_rating, lambda p: live.get(p.id, p.rating), seen, rng)
    return streak, puzzle


def streak_of(db: Session, streak_id: str | None) -> dict[str, Any] | None:
    if streak_id is None:
        return None
    streak = db.get(PuzzleStreakRow, streak_id)
    if streak is None:
        return None
    best = streak.count
    if streak.user_id is not None:
        best = max(best, best_streak(db, streak.user_id, streak.game))
    return {"id": streak.id, "count": streak.count, "over": streak.over, "best": best}
