"""Bot accounts and their seats: becoming a bot (for good, before any game), how many games a
bot plays at once, and the seat of a bot in one of its games.

A bot plays lobby games (challenges, seeks): their seat links derive from the server's secret
(``lobby.seat_token``), so the Bot API finds the bot's seat from the game and its account
and acts through it exactly as a person's page does (``play.actions``).
"""

from __future__ import annotations

import contextlib

from sqlalchemy import func, select, update

from ..accounts.users import User, Users
from ..errors import GameError, say
from ..lobby.lobby import seat_token
from ..play.people import running_of
from ..play.service import GameService
from ..play.session import WATCH, GameSession
from ..store.db import GameRow, PlayerRow, SeatRow, UserRow, now, token_hash

MAX_GAMES = 8
"""Games a bot account plays at once (lichess's bots are held to a few too): a challenge
beyond it is neither sent nor accepted."""

NOT_A_BOT = say("this is for bot accounts: upgrade the account first (/api/bot/account/upgrade)")
HAS_GAMES = say("only an account that has played no game may become a bot")
NOT_YOUR_GAME = say("this game is not yours to play")
TOO_MANY_GAMES = say(
    "a bot plays at most {n} games at once; finish one first",
    n=MAX_GAMES,
)


def require_bot(user: User) -> None:
    if not user.bot:
        raise GameError(NOT_A_BOT, "not-a-bot", 403)


async def upgrade(service: GameService, users: Users, user: User) -> None:
    """Make ``user`` a bot, for good: only while it has played no game (a bot's results are
    never mixed with a person's). Again on a bot: nothing to do."""
    if user.bot:
        return

    def write() -> bool:
        with service.sessions() as db:
            played = db.scalar(
                select(func.count()).select_from(PlayerRow).where(PlayerRow.user_id == user.id)
            )
            if played:
                return False
            db.execute(update(UserRow).where(UserRow.id == user.id).values(bot_at=now()))
            db.commit()
            return True

    if not await service.run_db(write):
        raise GameError(HAS_GAMES, "has-games", 409)
    users.forget_tokens()
    users.cache.clear()


async def check_room(service: GameService, user: User | None) -> None:
    """Refuse (429) a new game to a bot that plays ``MAX_GAMES`` already."""
    if user is None or not user.bot:
        return

    def count() -> int:
        with service.sessions() as db:
            return int(
                db.scalar(
                    select(func.count())
                    .select_from(PlayerRow)
                    .join(GameRow, GameRow.id == PlayerRow.game_id)
                    .where(PlayerRow.user_id == user.id, GameRow.finished_at.is_(None))
                )
                or 0
            )

    if await service.run_db(count) >= MAX_GAMES:
        raise GameError(TOO_MANY_GAMES, "too-many-games", 429)


async def playing(service: GameService, user_id: int) -> list[tuple[str, str]]:
    """The account's unfinished games and its side in each."""

    def read() -> list[tuple[str, str]]:
        with service.sessions() as db:
            return [(g.id, g.side) for g in running_of(db, user_id, limit=100)]

    return await service.run_db(read)


async def side_in(service: GameService, game_id: str, user_id: int) -> str | None:
    """The side ``user_id`` plays in ``game_id`` (``None``: it plays none)."""

    def read() -> str | None:
        with service.sessions() as db:
            return db.scalar(
                select(PlayerRow.side).where(
                    PlayerRow.game_id == game_id, PlayerRow.user_id == user_id
                )
            )

    return await service.run_db(read)


async def bot_seat(
    service: GameService, secret: bytes, game_id: str, user_id: int
) -> tuple[GameSession, str, str]:
    """The game, the seat and the seat's token of the account ``user_id`` in ``game_id``
    (404 when it plays no side of it)."""
    if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
        raise GameError(NOT_YOUR_GAME, "not-found", 404)
    side = await side_in(service, game_id, user_id)
    if side is None:
        raise GameError(NOT_YOUR_GAME, "not-found", 404)
    token = seat_token(secret, game_id, side)

    def register() -> None:  # a rematch's seat is made on demand, as /resume does
        with service.sessions() as db:
            if db.get(SeatRow, token_hash(token)) is None:
                db.add(SeatRow(token_sha256=token_hash(token), game_id=game_id, side=side))
                with contextlib.suppress(Exception):
                    db.commit()

    await service.run_db(register)
    session, seat = await service.seat_for(token, user_id)
    if seat == WATCH:
        raise GameError(NOT_YOUR_GAME, "not-found", 404)
    return session, seat, token
