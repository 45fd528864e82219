"""What the analysis's API answers, as Pydantic models (see ``play.schemas``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..play.schemas import Answer, Outcome


class AnalysisAnswer(Answer):
    """An analysis of a finished game at one strength: asked, running, done or failed."""

    game_id: str
    strength: str = Field(description="`quick`, `normal` or `deep`")
    status: str = Field(description="`none`, `queued`, `running`, `done` or `failed`")
    done: int = Field(description="plies analysed so far")
    total: int
    analysis: dict[str, Any] | None = Field(
        description="once done: every move judged, with the chances and the better move "
        "(``ludotheque.analysis``'s JSON, with its format version)"
    )
    error: str | None


class BestMove(Answer):
    move: str
    win: float | None = Field(description="the mover's chances after it, 0 to 1")
    equity: float | None = Field(description="backgammon: its equity")
    plies: int | None = Field(description="how deep it was searched")
    exact: bool = Field(description="whether the value is proven (a table's)")
    proof: dict[str, Any] | None = Field(description="a proven result, where one is known")


class Hints(Answer):
    ply: int
    position: str
    side: str
    moves: list[BestMove]


class Played(Answer):
    kind: str = Field(description="`move`, or `chance` for a roll")
    text: str
    side: str | None


class BoardView(Answer):
    """A position on the analysis board, as a game's view without a game."""

    game: str
    ruleset: str
    sides: list[str]
    position: str
    to_move: str | None
    legal: list[str]
    extra: dict[str, Any]
    outcome: Outcome | None
    rolls: list[str] = Field(description="the outcomes to choose from at a roll")
    played: Played | None = Field(default=None, description="the move just played, if any")


class BoardBest(Answer):
    position: str
    side: str | None
    moves: list[BestMove]
