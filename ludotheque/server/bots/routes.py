"""The Bot API, shaped like lichess's: a bot account, its event stream, a game's stream, its
moves and offers, and challenges. Every request carries ``Authorization: Bearer <token>`` (a
personal API token, ``accounts.tokens``); a bot's move goes through the same path as a
person's (``play.actions``), so the rules, the clocks, the ratings and what every page is told
stay one.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from .. import metrics
from ..accounts.identity import Who, refuse_bot_in_browser, require_csrf, who
from ..accounts.rules import AccountError
from ..accounts.tokens import require_scope
from ..chat.live import Chat
from ..errors import GameError, say
from ..lobby.lobby import Lobby
from ..play.actions import ACTIONS, Seat, perform
from ..play.deps import LimitsDep, ServiceDep, address, get_hub
from ..play.schemas import REFUSALS, documented
from ..play.session import GameSession
from .schemas import Account, ChallengeMade, Done, EventLine, GameLine
from .seats import bot_seat, check_room, require_bot, upgrade
from .streams import EventStream, game_lines

router = APIRouter(tags=["bots"])
NDJSON = "application/x-ndjson"
BAD_ANSWER = say("answer yes or no")
TOO_MANY_STREAMS = say("too many open streams from your address; close some and try again")


def _room_for_stream(request: Request) -> str:
    """Refuse (429) a stream beyond the per-address cap of open connections (the sockets'
    ``connections_per_address``, counted apart); the key it is counted under."""
    where = f"stream {address(request)}"
    cap = request.app.state.settings.connections_per_address
    if cap and get_hub(request).per_address.get(where, 0) >= cap:
        raise GameError(TOO_MANY_STREAMS, "too-many-connections", 429)
    return where


async def _counted(request: Request, where: str, lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """``lines``, counted among the address's open streams while they last."""
    counts = get_hub(request).per_address
    counts[where] = counts.get(where, 0) + 1
    try:
        async for text in lines:
            yield text
    finally:
        left = counts.get(where, 1) - 1
        if left > 0:
            counts[where] = left
        else:
            counts.pop(where, None)


TOKEN_REQUIRED = say(
    "send your personal API token as the header 'Authorization: Bearer <token>' (made on your "
    "account page), or sign in"
)


async def account(request: Request) -> Who:
    """The account behind the request (an API token's, or a session's): 401 without one."""
    person = await who(request)
    if person.user is None:
        raise AccountError(TOKEN_REQUIRED, "sign-in-required", 401)
    return person


AccountWho = Annotated[Who, Depends(account)]


def _streamed(model: type[BaseModel], what: str) -> dict[int | str, dict[str, Any]]:
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {200: {"model": model, "description": what, "content": {NDJSON: {"schema": schema}}},
            **REFUSALS}  # fmt: skip


class ChallengeBody(BaseModel):
    """A challenge to a named player (a lobby challenge to them)."""

    game: str = Field(max_length=32, description="`general`, `backgammon` or `defiance`")
    ruleset: str | None = Field(default=None, max_length=32, description="default: its first")
    control: str | None = Field(
        default=None, max_length=16, description="a time control: `5+3`, `3+12d` (backgammon), `1d`"
    )
    rated: bool = Field(default=False, description="rated (needs a time control)")
    side: str | None = Field(default=None, max_length=16, description="your side (default: drawn)")


class ChatBody(BaseModel):
    room: str = Field(default="player", max_length=16, description="`player` or `spectator`")
    text: str = Field(max_length=400, description="the line")


@router.get("/api/account", response_model=None, responses=documented(Account, "the account"))
async def api_account(person: AccountWho) -> dict[str, Any]:
    """The account the token opens, its title (`BOT` for a bot) and the token's scopes."""
    user = person.user
    assert user is not None
    return {"id": user.id, "username": user.username, "title": "BOT" if user.bot else None,
            "scopes": list(person.scopes) if person.scopes is not None else None}  # fmt: skip


@router.post("/api/bot/account/upgrade", response_model=None,
             responses=documented(Done, "the account is a bot"))  # fmt: skip
async def api_upgrade(request: Request, person: AccountWho, service: ServiceDep) -> dict[str, Any]:
    """Make this account a bot, for good: only an account that has played no game may. A
    bot's name shows BOT everywhere; it plays through this API (scope `bot:play`)."""
    require_scope(person.scopes, "bot:play")
    require_csrf(request, person)
    assert person.user is not None
    await upgrade(service, request.app.state.users, person.user)
    return {"ok": True}


EVENTS = _streamed(EventLine, "one event a line (NDJSON), a blank line to keep alive")
GAME_LINES = _streamed(GameLine, "`gameFull`, then `gameState` and `chatLine` lines")


@router.get("/api/stream/event", response_class=StreamingResponse, responses=EVENTS)
async def api_events(
    request: Request, person: AccountWho, service: ServiceDep
) -> StreamingResponse:
    """The account's events as they come, one JSON object a line: `gameStart` for each game
    going on and each new one, `gameFinish`, `challenge` (to it or from it),
    `challengeCanceled`, `challengeDeclined`. The account's challenges stay open while this
    stream is (as a lobby page's)."""
    require_scope(person.scopes, "bot:play", "challenge", "read")
    where = _room_for_stream(request)
    stream = EventStream(service, get_hub(request), request.app.state.lobby, person)
    return StreamingResponse(_counted(request, where, stream.lines()), media_type=NDJSON)


async def _bot_game(request: Request, person: Who, game_id: str) -> tuple[GameSession, str, str]:
    require_scope(person.scopes, "bot:play")
    assert person.user is not None
    require_bot(person.user)
    refuse_bot_in_browser(person)
    return await bot_seat(request.app.state.service, request.app.state.secret, game_id,
                          person.user.id)  # fmt: skip


@router.get("/api/bot/game/stream/{game_id}", response_class=StreamingResponse,
            responses=GAME_LINES)  # fmt: skip
async def api_game_stream(
    request: Request, game_id: str, person: AccountWho, service: ServiceDep
) -> StreamingResponse:
    """A game of the bot as it goes, one JSON object a line: `gameFull` (the game, its
    players, its state), then a `gameState` after every change (the moves, the position
    string, whose turn, the legal moves, the clocks, backgammon's dice and cube, the draw
    offer standing, the status) and a `chatLine` for each line of the players' chat. It
    ends with the game."""
    session, seat, _token = await _bot_game(request, person, game_id)
    where = _room_for_stream(request)
    lines = game_lines(service, get_hub(request), session, seat)
    return StreamingResponse(_counted(request, where, lines), media_type=NDJSON)


async def _act(request: Request, person: Who, game_id: str, name: str,
               body: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """Do the seat action ``name`` as the bot, as a person's page would."""
    request.app.state.limits.check("change", address(request))
    require_csrf(request, person)
    began = time.perf_counter()
    session, seat, token = await _bot_game(request, person, game_id)
    service = request.app.state.service
    await perform(ACTIONS[name], Seat(service, session, seat, token), body, view=False)
    metrics.round_trip("http", time.perf_counter() - began)
    return {"ok": True}


@router.post("/api/bot/game/{game_id}/move/{move:path}", response_model=None,
             responses=documented(Done, "played"))  # fmt: skip
async def api_move(
    request: Request, game_id: str, move: str, person: AccountWho, service: ServiceDep,
    ply: Annotated[int | None, Query(description="the ply it answers (default: now)")] = None,
) -> dict[str, Any]:  # fmt: skip
    """Play a move in the game's notation, URL-encoded (`a2-b2`; backgammon `13/7 8/7` as
    `13%2F7%208%2F7`, and its decisions `roll`, `double`, `take`, `drop`, `resign single`
    (`gammon`, `backgammon`) on its turn, `accept` or `decline` an offer to resign). `ply`
    refuses it if the game moved on."""
    if ply is None:
        session, _seat, _token = await _bot_game(request, person, game_id)
        async with session.lock:
            await service.refresh(session)
            ply = session.ply
    return await _act(request, person, game_id, "move", {"move": move, "ply": ply})


@router.post("/api/bot/game/{game_id}/resign", response_model=None,
             responses=documented(Done, "resigned"))  # fmt: skip
async def api_resign(request: Request, game_id: str, person: AccountWho) -> dict[str, Any]:
    """Resign the game."""
    return await _act(request, person, game_id, "resign", {})


@router.post("/api/bot/game/{game_id}/abort", response_model=None,
             responses=documented(Done, "aborted"))  # fmt: skip
async def api_abort(request: Request, game_id: str, person: AccountWho) -> dict[str, Any]:
    """Call the game off before the bot's first move (no result, never rated)."""
    return await _act(request, person, game_id, "abort", {})


@router.post("/api/bot/game/{game_id}/draw/{accept}", response_model=None,
             responses=documented(Done, "offered, accepted or declined"))  # fmt: skip
async def api_draw(
    request: Request, game_id: str, accept: str, person: AccountWho
) -> dict[str, Any]:
    """`yes`: offer a draw, or accept the opponent's offer standing; `no`: decline it (the
    General and Defiance; backgammon has no draws)."""
    if accept.lower() in ("yes", "true"):
        return await _act(request, person, game_id, "draw-offer", {})
    if accept.lower() in ("no", "false"):
        return await _act(request, person, game_id, "draw-answer", {"accept": False})
    raise GameError(BAD_ANSWER, "bad-request", 400)


@router.post("/api/bot/game/{game_id}/rematch", response_model=None,
             responses=documented(Done, "asked"))  # fmt: skip
async def api_next_game(request: Request, game_id: str, person: AccountWho) -> dict[str, Any]:
    """Backgammon's match: ask for its next game once a game is over (its `gameState` says
    `matchGoesOn`). It is made once both sides ask; both event streams then say `gameStart`,
    and the game stream's last `gameState` names it (`nextGame`). Keep the game stream open
    meanwhile: a player away from the game lets the offer lapse, as a person's page does."""
    return await _act(request, person, game_id, "rematch", {})


@router.post("/api/bot/game/{game_id}/chat", response_model=None,
             responses=documented(Done, "said"))  # fmt: skip
async def api_chat(
    request: Request, game_id: str, body: ChatBody, person: AccountWho
) -> dict[str, Any]:
    """Say a line in the game's chat: the players' (`player`) or the watchers'
    (`spectator`)."""
    require_csrf(request, person)
    session, seat, _token = await _bot_game(request, person, game_id)
    chat: Chat = request.app.state.chat
    await chat.send(session, seat if body.room == "player" else "watch", person, body.text)
    return {"ok": True}


@router.post("/api/challenge/{username}", status_code=201, response_model=None,
             responses={201: {"model": ChallengeMade, "description": "the challenge is open"},
                        **REFUSALS})  # fmt: skip
async def api_challenge(
    request: Request, username: str, body: ChallengeBody, person: AccountWho,
    limits: LimitsDep, service: ServiceDep,
) -> dict[str, Any]:  # fmt: skip
    """Challenge the player `username` (a person or a bot) to a game: it stays open while
    your event stream (or lobby page) is, until they accept or decline it or you cancel it.
    Their event stream tells them with `challenge`."""
    require_scope(person.scopes, "challenge", "bot:play")
    require_csrf(request, person)
    refuse_bot_in_browser(person)
    limits.check("create", address(request))
    await check_room(service, person.user)
    lobby: Lobby = request.app.state.lobby
    made = await lobby.post(person, {**body.model_dump(), "kind": "open", "opponent": username})
    return {"id": made["id"], "url": f"/lobby#{made['id']}", "status": "created"}


@router.post("/api/challenge/{challenge_id}/accept", response_model=None,
             responses=documented(ChallengeMade, "the game is made"))  # fmt: skip
async def api_challenge_accept(
    request: Request, challenge_id: str, person: AccountWho, limits: LimitsDep,
    service: ServiceDep,
) -> dict[str, Any]:  # fmt: skip
    """Accept a challenge: the game is made, and both event streams say `gameStart`."""
    require_scope(person.scopes, "challenge", "bot:play")
    require_csrf(request, person)
    refuse_bot_in_browser(person)
    limits.check("create", address(request))
    await check_room(service, person.user)
    lobby: Lobby = request.app.state.lobby
    game_id = await lobby.accept(person, challenge_id[:40])
    return {"id": game_id, "url": f"/resume/{game_id}", "status": "accepted"}


@router.post("/api/challenge/{challenge_id}/decline", response_model=None,
             responses=documented(Done, "declined"))  # fmt: skip
async def api_challenge_decline(
    request: Request, challenge_id: str, person: AccountWho
) -> dict[str, Any]:
    """Decline a challenge to you: its sender's event stream says `challengeDeclined`."""
    require_scope(person.scopes, "challenge", "bot:play")
    require_csrf(request, person)
    await request.app.state.lobby.decline(person, challenge_id[:40])
    return {"ok": True}


@router.post("/api/challenge/{challenge_id}/cancel", response_model=None,
             responses=documented(Done, "cancelled"))  # fmt: skip
async def api_challenge_cancel(
    request: Request, challenge_id: str, person: AccountWho
) -> dict[str, Any]:
    """Withdraw a challenge you sent: its receiver's event stream says `challengeCanceled`."""
    require_scope(person.scopes, "challenge", "bot:play")
    require_csrf(request, person)
    await request.app.state.lobby.cancel(person, challenge_id[:40])
    return {"ok": True}
