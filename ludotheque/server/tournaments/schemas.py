"""What the tournaments' API takes and answers, as Pydantic models (see ``play.schemas``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..play.schemas import Answer


class TournamentBody(BaseModel):
    """A new tournament."""

    name: str = Field(default="", max_length=64, description="its name (default: none)")
    kind: str = Field(max_length=8, description="`arena` or `swiss`")
    game: str = Field(max_length=32, description="`general`, `backgammon` or `defiance`")
    ruleset: str | None = Field(default=None, max_length=32, description="default: its first")
    control: str = Field(max_length=16, description="a live time control: `3+2`, `3+12d`")
    length: int | None = Field(default=None, description="a backgammon match's points")
    rated: bool = Field(default=True, description="whether its games are rated")
    rounds: int | None = Field(default=None, description="a Swiss's rounds (1 to 15)")
    minutes: int | None = Field(default=None, description="an arena's length (1 to 720)")
    starts_in: float = Field(default=0, description="minutes from now to its start (0: now)")


class TournamentMade(Answer):
    id: str
    url: str


class TournamentSummary(Answer):
    """A tournament in a list."""

    id: str
    name: str
    kind: str = Field(description="`arena` or `swiss`")
    game: str
    ruleset: str
    control: str
    control_name: dict[str, str] = Field(description="its name per language")
    length: int | None = Field(description="a backgammon match's points")
    rated: bool
    rounds: int | None
    minutes: int | None
    round: int = Field(description="the Swiss round being played (arena: games made)")
    status: str = Field(description="`upcoming`, `running` or `finished`")
    starts_at: float = Field(description="seconds since the epoch")
    ends_at: float | None
    finished_at: float | None
    players: int
    url: str


class TournamentList(Answer):
    upcoming: list[TournamentSummary]
    running: list[TournamentSummary]
    finished: list[TournamentSummary]


class TournamentGame(Answer):
    """A game (or a Swiss bye: no black, no game) of the tournament."""

    round: int
    board: int
    white: dict[str, Any] = Field(description="the first side's player: id, name, bot")
    black: dict[str, Any] | None = Field(description="the second side's (`null`: a bye)")
    game_id: str | None
    status: str = Field(description="`pending`, `playing` or `done`")
    result: str | None = Field(description="for the first side: `win`, `draw`, `loss`, "
                               "`none` (aborted) or `bye`")  # fmt: skip
    url: str | None
    berserk: list[str] = Field(description="who went berserk: `white` (the first side), `black`")


class TournamentView(TournamentSummary):
    """A tournament, its table, its pairings and its games."""

    now: float = Field(description="the server's time, seconds since the epoch")
    berserk: bool = Field(
        description="whether its players may go berserk (arenas of the General and Defiance)"
    )
    my_game: dict[str, Any] | None = Field(description="the reader's game being played here")
    standings: list[dict[str, Any]] = Field(
        description="in order: arena `points`, `scores` per game, `fire`, `performance`; "
        "Swiss `score`, `buchholz`, `sonneborn`; each with `player`, `place`, `rating`"
    )
    pairings: list[TournamentGame] = Field(description="the round's (arena: being played)")
    games: list[TournamentGame]
    joined: bool = Field(description="whether the reader plays in it")


class Done(Answer):
    ok: bool
