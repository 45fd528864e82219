"""What the game API answers, as Pydantic models: the documentation of ``/openapi.json``.

The routes build their answers as plain data (a game's view is sent on every move: it is not
validated again on its way out); these models describe it, field by field, and the tests
check every answer against them with unknown fields forbidden, so the documentation cannot
drift from what is sent.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Answer(BaseModel):
    """An answer of the API: every field documented, none left out."""

    model_config = ConfigDict(extra="forbid")


class Refusal(Answer):
    """A refused request: a message for people (in the language of the page that asked) and
    a stable code for programs."""

    detail: str = Field(description="what went wrong, for a person to read")
    code: str = Field(description="a stable word for programs, e.g. `stale`, `illegal`")


class Computer(Answer):
    side: str = Field(description="the side the computer plays")
    level: str | None = Field(description="its level: easy, medium, hard, perfect (the General)")
    thinking: bool = Field(description="whether it is to move now")


class HistoryEntry(Answer):
    kind: str = Field(description="`move`, or `chance` for a roll of the dice")
    text: str = Field(description="the move or roll in the game's notation")
    side: str | None = Field(description="who made it (`chance` for a roll)")
    position: str = Field(description="the position string after it")
    note: str | None = Field(default=None, description="why a pass was forced, or the cube")
    note_fr: str | None = Field(default=None, description="the note in French")


class Outcome(Answer):
    winner: str | None = Field(description="the winning side, `null` for a draw")
    reason: str = Field(description="how it ended, a code of the game's rules")


class EndedBy(Outcome):
    by: str | None = Field(
        default=None, description="who ended it: the side that aborted it or claimed it"
    )


class Offers(Answer):
    abort: bool = Field(description="whether this seat may abort the game now")
    draw: str | None = Field(description="the side whose draw offer stands")
    draw_allowed: bool = Field(description="whether this seat may offer draws in this game")
    draw_wait: int = Field(description="moves this seat must make before offering again")
    draw_declined: bool = Field(description="this seat's draw offer was just declined")
    rematch: str | None = Field(description="the side whose rematch offer stands")
    rematch_lapsed: str | None = Field(description="the player whose leaving ended it")


class Undo(Answer):
    free: bool = Field(description="whether undo needs no consent (one screen, computer)")
    request: str | None = Field(description="the side that asks to undo, if any")
    refused: str | None = Field(description="the side whose request was refused")
    allowed: bool = Field(description="false in rated games")


class ClockView(Answer):
    control: str = Field(description="the time control, e.g. `5+3`")
    kind: str = Field(description="`fischer`, `delay` or `days`")
    now: float = Field(description="the server's time (seconds since the epoch)")
    running: str | None = Field(description="the side whose clock runs")
    left: dict[str, float] = Field(description="seconds left per side, at `now`")
    delay: float | None = Field(description="what is left of the delay (backgammon)")
    first_move: float | None = Field(description="seconds left to make the first move")
    deadline: float | None = Field(description="when the running clock falls")
    low: dict[str, bool] = Field(description="which sides are in low time")


class Control(Answer):
    key: str
    kind: str
    speed: str
    low: float = Field(description="seconds below which a clock is low")
    name: dict[str, str] = Field(description="the control's name per language (`5+3`)")


class PersonView(Answer):
    name: str | None = Field(description="the account's name (`null`: anonymous or computer)")
    closed: bool = Field(description="a closed account (its name is no longer shown)")
    level: str | None = Field(description="the computer's level, for the computer")
    rating: int | None
    provisional: bool
    bot: bool = Field(description="a bot account (shown BOT beside its name)")


class Away(Answer):
    since: float = Field(description="when the player left")
    claim_at: float | None = Field(description="when the game may be claimed against them")


class RatingChange(Answer):
    before: float
    after: float
    change: float
    provisional: bool


class Table(Answer):
    now: float = Field(description="the server's time (seconds since the epoch)")
    control: Control | None
    clock: ClockView | None
    rated: bool
    people: dict[str, PersonView] = Field(description="who plays each side")
    away: dict[str, Away] = Field(description="players who left a live game")
    ratings: dict[str, RatingChange] | None = Field(description="once a rated game is rated")


class Dice(Answer):
    sha256: str = Field(description="the commitment to the dice's seed, known from the start")
    seed: str | None = Field(description="the seed itself, once the game is over")
    rolls: list[str] = Field(description="every roll so far")
    draws: list[int] = Field(
        description="each roll's draw number: 0, 1, 2… unless an undo took rolls back (a roll "
        "taken back is never drawn again)"
    )


class GameView(Answer):
    """A game as a seat sees it: the position, whose turn, the legal moves, the history, the
    clock and the players. The same view comes over the WebSocket (``type: state``), where a
    move's message carries only the history the socket lacks (``history_from``)."""

    id: str
    game: str = Field(description="`general`, `backgammon` or `defiance`")
    ruleset: str
    mode: str = Field(description="`local`, `computer` or `friend`")
    sides: list[str]
    players: dict[str, str] = Field(
        description="per side, the site's computer's level, or `human` for anyone else: a "
        "person or a bot account (`table.people[side].bot` says which, with its name)"
    )
    computer: Computer | None
    seat: str = Field(description="this link's seat: a side, `both` or `watch`")
    my_sides: list[str] = Field(description="the sides this seat plays")
    start: str = Field(description="the start position string")
    position: str = Field(description="the position string now")
    to_move: str | None = Field(description="the side to move; `chance` before a roll")
    can_move: bool = Field(description="whether this seat may move now")
    ply: int = Field(description="moves and rolls so far: a move must quote it")
    history: list[HistoryEntry]
    history_from: int | None = Field(default=None, description="over the WebSocket only")
    legal: list[str] = Field(description="the legal moves now, in notation")
    extra: dict[str, Any] = Field(
        description="what the game's board shows besides the position: the General's "
        "captures and flight; backgammon's dice, pips, cube and IDs (GNU, XGID); "
        "Defiance's pools and sectors"
    )
    game_extra: dict[str, Any] = Field(
        description="what concerns the whole game (backgammon: the points won, the match)"
    )
    outcome: EndedBy | None
    offers: Offers
    undo: Undo
    rematch: bool = Field(description="whether a rematch was made")
    rematch_by: str | None
    rematch_declined: str | None
    declined: str | None
    watch: bool
    table: Table
    clocks: list[tuple[int, dict[str, float]]] | None = Field(
        description="a finished game with a clock: each side's seconds left after so many "
        "plies (`[plies, {side: seconds}]`, at each change of the clock), for its replay"
    )
    chat: str | None = Field(description="the chat this seat uses: `players` or `watchers`")
    dice: Dice | None = Field(description="backgammon's provably fair dice")


class Created(Answer):
    """A new game: its links (give each player their own seat link) and its view."""

    id: str
    seats: dict[str, str] = Field(description="side (or `both`) → the seat's link")
    watch: str = Field(description="the link to watch the game")
    game: GameView


class Step(Answer):
    src: int | str
    dst: int | str
    die: int
    hit: bool
    text: str


class Partial(Answer):
    """Part of a turn: backgammon's single checker moves, or Defiance's action before its
    Command move (the fields depend on the game)."""

    model_config = ConfigDict(extra="allow")
    done: list[Step] | None = None
    next: list[Step] | None = None
    dice_left: list[int] | None = None
    play: str | None = None


class RematchLink(Answer):
    id: str | None = Field(description="the rematch's game id (`null` while an offer waits)")
    url: str | None = Field(description="the asker's seat in it (or the watch link)")
    waiting: bool = Field(description="an offer made: it waits for the other player")


class ArchiveEntry(Answer):
    id: str
    game: str
    ruleset: str
    mode: str
    players: dict[str, str]
    winner: str | None
    reason: str | None
    finished_at: str | None = Field(description="ISO 8601, UTC")
    moves: int = Field(description="moves logged in the game (rolls aside)")
    people: dict[str, str] = Field(description="side → the account's name or computer level")
    control: str | None = Field(description="the time control, e.g. `5+3`")


class GameRecord(Answer):
    """A game's record (``ludotheque.record``): replayable, and its dice verifiable."""

    format: str
    version: int
    game: str
    ruleset: str
    start: str | None
    moves: list[str]
    chance: list[str]
    players: dict[str, str]
    started: str
    ended: str | None
    result: Outcome | None
    dice: dict[str, Any] | None
    options: dict[str, Any]


REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": Refusal, "description": what}
    for status, what in {
        400: "malformed request", 403: "not allowed for this seat or this person",
        404: "no such game or link", 409: "not now (stale, not your turn, game over…)",
        410: "a game set aside", 413: "too large", 422: "refused by the rules",
        429: "too many requests (see `Retry-After`)", 503: "the database is away",
    }.items()
}  # fmt: skip
"""The refusals every operation may answer."""


def documented(model: Any, description: str = "") -> dict[int | str, dict[str, Any]]:
    """An operation's answers for the documentation: ``model`` when it succeeds, and the
    refusals every operation may give."""
    return {200: {"model": model, "description": description or "done"}, **REFUSALS}
