"""What the accounts' API answers, as Pydantic models (see ``play.schemas``)."""

from __future__ import annotations

from pydantic import Field

from ..play.schemas import Answer


class Account(Answer):
    id: int
    username: str


class Me(Answer):
    user: Account | None = Field(description="who the session cookie belongs to")
    csrf: str = Field(description="the token for requests a cookie authorises (`X-CSRF-Token`)")


class RatingView(Answer):
    game: str
    ruleset: str
    rating: int
    deviation: int
    provisional: bool
    games: int
    wins: int
    draws: int
    losses: int


class ProfileGame(Answer):
    id: str
    game: str
    ruleset: str
    side: str
    control: str | None
    rated: bool
    result: str | None = Field(description="`win`, `loss`, `draw`, `aborted`; `null`: playing")
    reason: str | None
    change: int | None = Field(description="the rating change, once rated")
    opponent: str | None
    opponent_closed: bool = Field(description="the opponent closed their account")
    opponent_level: str | None
    url: str | None
    when: str = Field(description="ISO 8601: when it ended (when it began, if being played)")
    when_text: str = Field(description="`when` for people (`3 hours ago`, `5 Dec 2026`)")
    when_full: str = Field(description="`when` as a date and time for people (UTC)")


class Profile(Answer):
    username: str
    level: str | None = Field(description="the computer's level, for the computer's accounts")
    ratings: list[RatingView]
    playing: list[ProfileGame] = Field(description="the games being played now")
    games: list[ProfileGame] = Field(description="the latest finished games, newest first")
