"""What the lessons' API takes and answers, as Pydantic models."""

from __future__ import annotations

from pydantic import Field

from ..play.actions import Body
from ..play.schemas import Answer


class TryBody(Body):
    """A move tried on a step, in the game's notation (an opening roll as ``w5b2``). Its length
    is checked by the route, so that the refusal is in the reader's language."""

    move: str = Field(description="the move, e.g. `c2-b2xa1c3`, `13/7* 13/11`, `d3>E`")


class ProgressBody(Body):
    """Steps solved elsewhere (in the browser, before signing in), to keep with the account."""

    game: str = Field(description="`general`, `backgammon` or `defiance`")
    steps: list[str] = Field(description="the steps' ids")


class StepView(Answer):
    """A step, with its words in the reader's language."""

    id: str
    ruleset: str
    position: str
    side: str | None = Field(description="who plays (`chance`: the opening dice are chosen)")
    title: str
    do: str = Field(description="what to do")
    hint: str
    hint_move: str | None = Field(
        description="a move that meets the goal, drawn on the board with the hint (none at a roll)"
    )
    why: str = Field(description="the explanation shown once the step is solved")


class CourseView(Answer):
    """A game's course: its steps and those the reader has solved (with an account; a guest's
    are in the browser)."""

    game: str
    steps: list[StepView]
    solved: list[str]
    account: bool


class Tried(Answer):
    """How a move was judged: `solved`, `missed` (legal, but not the goal: `message` says why;
    the step's position is to be set back) or `illegal` (`message` is the engine's refusal)."""

    result: str
    position: str = Field(description="the position after a legal move, else the step's")
    played: str | None = Field(description="the move as the game writes it")
    message: str
    solved: list[str] = Field(description="the game's steps solved by the account so far")


class Progress(Answer):
    """Each game's solved steps, for an account (empty lists for a guest)."""

    account: bool
    solved: dict[str, list[str]]
