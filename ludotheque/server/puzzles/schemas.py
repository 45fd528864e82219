"""What the puzzles' API answers, as Pydantic models (see ``play.schemas``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..play.schemas import Answer


class PuzzleView(Answer):
    """A puzzle as the solver sees it: its position and side, not its solution."""

    id: str
    game: str
    ruleset: str
    position: str = Field(description="the position string, the solver to move")
    side: str = Field(description="the solver's side")
    themes: list[str]
    rating: int = Field(description="its rating now")
    source: str = Field(description="what proved it: `tables`, `search` or `analysis`")
    moves: int = Field(description="how many moves the solver makes")
    cube: bool = Field(description="a backgammon cube decision (double, take, drop, no double)")


class StreakView(Answer):
    id: str
    count: int = Field(description="puzzles solved in it so far")
    over: bool
    best: int = Field(description="the best streak (of the account, or this one for a guest)")


class AttemptView(Answer):
    """A new try at a puzzle: its id plays it (`/api/puzzles/attempts/<id>/move`)."""

    attempt: str
    mode: str = Field(description="`play`, `daily`, `streak` or `mistake`")
    rated: bool = Field(description="whether the first answer moves the ratings")
    puzzle: PuzzleView
    streak: StreakView | None


class StepView(Answer):
    side: str
    move: str
    position: str = Field(description="the position after the move")


class RatingChange(Answer):
    before: float
    after: float
    change: float
    provisional: bool = Field(description='the player\'s new rating is provisional ("1560?")')
    puzzle: float | None = Field(description="the puzzle's new rating (none for a mistake's)")


class MoveAnswer(Answer):
    """An answer checked: when right, the solver's move and the reply are played."""

    right: bool
    step: int = Field(description="the solver's moves answered right so far")
    played: list[StepView]
    solved: bool
    result: str | None = Field(description="`win` (right first time), `loss`, or not yet")
    rating: RatingChange | None = Field(description="the player's rating, when it moved now")
    streak: StreakView | None


class ProofView(Answer):
    """The whole line, once answered, with what the source measured."""

    id: str
    start: str
    source: str
    steps: list[StepView]
    facts: dict[str, Any]


class MistakeView(Answer):
    id: str
    game: str
    ruleset: str
    game_id: str
    ply: int = Field(description="the error's ply in the game's record")
    move: int = Field(description="its move's number, from 1")
    played: str
    label: str


class PuzzleRatingView(Answer):
    game: str
    rating: int
    provisional: bool
    games: int
    best_streak: int
