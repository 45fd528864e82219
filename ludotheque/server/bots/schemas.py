"""What the Bot API answers and streams, as Pydantic models (the documentation of
``/openapi.json``; the tests check what is sent against them, unknown fields forbidden)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel

from ..play.schemas import Answer


class Done(Answer):
    ok: bool = Field(description="`true`: done")


class Account(Answer):
    id: int
    username: str
    title: str | None = Field(description="`BOT` for a bot account")
    scopes: list[str] | None = Field(description="the token's scopes (`null`: a session)")


class ChallengeMade(Answer):
    id: str = Field(description="the challenge's id, or the game's once accepted")
    url: str
    status: str = Field(description="`created`, or `accepted`")


class Player(Answer):
    name: str | None = Field(description="the account's name (`null`: anonymous, computer)")
    title: str | None = Field(description="`BOT` for a bot account")
    rating: int | None
    provisional: bool
    level: str | None = Field(description="the computer's level, for the computer")


class Control(Answer):
    key: str = Field(description="the time control, e.g. `5+3`, `3+12d`, `1d`")
    kind: str = Field(description="`fischer`, `delay` or `correspondence`")
    speed: str


class GameState(Answer):
    type: Literal["gameState"]
    moves: list[str] = Field(description="the moves so far, in the game's notation")
    ply: int = Field(description="the ply a move answers now")
    position: str = Field(description="the position string now")
    toMove: str | None = Field(description="the side to move (`null`: over; `chance`: dice)")
    legal: list[str] = Field(description="the moves the bot may play now (empty: not its turn)")
    times: dict[str, int | None] | None = Field(description="milliseconds left, by side")
    delay: int | None = Field(description="backgammon: milliseconds of the delay left")
    dice: list[int] | None = Field(description="backgammon: the dice to play")
    cube: dict[str, Any] | None = Field(description="backgammon for points: the cube")
    match: dict[str, Any] | None = Field(description="backgammon's match: length and score")
    drawOffer: str | None = Field(description="the side whose draw offer stands")
    status: str = Field(description="`started`, `mate`, `resign`, `outoftime`, `timeout`, "
                        "`draw`, `aborted`")  # fmt: skip
    winner: str | None = Field(default=None, description="the winning side, once over")
    reason: str | None = Field(default=None, description="how it ended, the rules' code")
    matchGoesOn: bool | None = Field(
        default=None,
        description="once over: a backgammon match goes on (`POST …/rematch` for its next game)",
    )
    nextGame: str | None = Field(default=None, description="the match's next game, once made")


class GameFull(Answer):
    type: Literal["gameFull"]
    id: str
    game: str
    ruleset: str
    rated: bool
    clock: Control | None
    sides: list[str]
    side: str = Field(description="the bot's side")
    players: dict[str, Player]
    initialPosition: str
    state: GameState


class ChatLine(Answer):
    type: Literal["chatLine"]
    room: str = Field(description="`player`")
    username: str | None
    side: str | None = Field(description="the side that spoke")
    text: str


class GameLine(RootModel[GameFull | GameState | ChatLine]):
    """One line of a game stream: a `gameFull`, a `gameState` or a `chatLine`."""


class GameInfo(Answer):
    id: str
    gameId: str
    game: str
    ruleset: str
    side: str = Field(description="the bot's side")
    position: str
    isMyTurn: bool
    lastMove: str | None
    opponent: Player
    rated: bool
    clock: Control | None
    status: str
    compat: dict[str, bool]
    winner: str | None = None
    reason: str | None = None
    matchGoesOn: bool | None = None


class GameEvent(Answer):
    type: Literal["gameStart", "gameFinish"]
    game: GameInfo


class ChallengeInfo(Answer):
    id: str
    url: str
    status: str = Field(description="`created`, `declined` or `canceled`")
    challenger: dict[str, Any]
    destUser: dict[str, Any]
    game: str
    ruleset: str
    rated: bool
    timeControl: dict[str, Any]
    side: str | None
    direction: str = Field(description="`in`: to the bot; `out`: from it")


class ChallengeEvent(Answer):
    type: Literal["challenge", "challengeCanceled", "challengeDeclined"]
    challenge: ChallengeInfo


class EventLine(RootModel[GameEvent | ChallengeEvent]):
    """One line of the event stream: a game or a challenge event."""
