"""What the lobby's API answers, as Pydantic models (see ``play.schemas``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..play.schemas import Answer


class SeekView(Answer):
    """An open challenge, a quick-pairing seek, or a challenge to a named player."""

    id: str
    kind: str = Field(description="`open` or `quick`")
    name: str | None = Field(description="who seeks (`null`: anonymous)")
    rating: int
    provisional: bool
    game: str
    ruleset: str
    control: str | None = Field(description="the time control, e.g. `5+3`")
    control_name: dict[str, str] = Field(description="its name per language (`1 day a move`)")
    rated: bool
    side: str | None = Field(description="the side the seeker plays (`null`: either)")
    opponent: str | None = Field(description="the player challenged by name, if any")
    mine: bool = Field(description="whether it is the reader's own")
    to_me: bool = Field(description="whether it challenges the reader")
    bot: bool = Field(description="whether the seeker is a bot account")


class PlayingView(Answer):
    """A lobby game being played, to watch."""

    id: str
    game: str
    ruleset: str
    control: str | None
    control_name: dict[str, str] = Field(description="its name per language")
    rated: bool
    players: dict[str, dict[str, Any]] = Field(description="side → name, rating, provisional, bot")
    url: str = Field(description="where to watch it; the reader's own game: their seat")
    mine: bool = Field(description="the reader plays in it")


class OnlinePlayer(Answer):
    name: str
    bot: bool = Field(description="a bot account")


class OnlineView(Answer):
    """Who has a page of the site open now, on any server process."""

    count: int = Field(description="everyone online, signed in or not")
    anonymous: int = Field(description="visitors without an account (not named)")
    players: list[OnlinePlayer] = Field(description="the players signed in, by name")


class Declined(Answer):
    id: str = Field(description="the reader's challenge that was declined")
    by: str | None = Field(description="the player it named, who declined it")


class LobbyView(Answer):
    type: str = Field(description="always `lobby` (the same message as the lobby's socket)")
    seeks: list[SeekView]
    quick: SeekView | None = Field(description="the reader's own quick-pairing seek")
    games: list[PlayingView]
    signed_in: bool
    online: OnlineView
    declined: list[Declined] = Field(
        description="the reader's challenges to a named player declined in the last minute"
    )


class SeekPosted(Answer):
    id: str = Field(description="the new seek's id (to withdraw it)")


class Accepted(Answer):
    id: str = Field(description="the game made")
    url: str = Field(description="where the acceptor plays it")


class Done(Answer):
    ok: bool
