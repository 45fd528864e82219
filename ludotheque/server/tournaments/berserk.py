"""Berserk, lichess's arena rule: before their first move of an arena game, a player may give up
half their time and their increment; a win then gives one point more (``scoring``).

Only in arenas of the General and Defiance, whose clocks are Fischer's: backgammon's matches
are played on a delay clock (no increment to give up) over many games, so they have none. The
clock's new state is a ``clock`` entry of the game's log (any process reads it back), and the
pairing's row says who went berserk, both in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ... import load
from ..clock.controls import berserk
from ..errors import GameError, say
from ..play.service import GameService
from ..play.session import Event, GameSession
from ..store.db import PairingRow, TournamentRow

NO_GAME = say("you have no game being played in this tournament")
NOT_HERE = say("berserk is for arenas of the General and Defiance")
TOO_LATE = say("berserk only before your first move, once")
GAMES = ("general", "defiance")


def allowed(kind: str, game: str) -> bool:
    """Whether a tournament of ``kind`` and ``game`` offers berserk."""
    return kind == "arena" and game in GAMES


async def go_berserk(service: GameService, tournament_id: str, user_id: int) -> str:
    """``user_id`` goes berserk in their game being played in the tournament; its id."""

    def read() -> tuple[TournamentRow | None, PairingRow | None]:
        with service.sessions() as db:
            t = db.get(TournamentRow, tournament_id)
            row = db.scalars(
                select(PairingRow).where(
                    PairingRow.tournament_id == tournament_id, PairingRow.status == "playing",
                    (PairingRow.white == user_id) | (PairingRow.black == user_id),
                )
            ).first()  # fmt: skip
            return t, row

    t, row = await service.run_db(read)
    if t is None or row is None or row.game_id is None:
        raise GameError(NO_GAME, "no-game", 409)
    if not t.berserk:
        raise GameError(NOT_HERE, "no-berserk", 409)
    first = row.white == user_id
    side = load(t.game, t.ruleset).sides[0 if first else 1]
    session = await service.get(row.game_id)
    async with session.lock:
        await service.refresh(session)
        if session.finished or session.clock is None:
            raise GameError(TOO_LATE, "too-late", 409)
        try:
            clock = berserk(session.clock, side)
        except ValueError:
            raise GameError(TOO_LATE, "too-late", 409) from None
        before = session.clock

        def change() -> list[Event]:
            session.clock = clock
            return [("clock", clock.to_dict())]

        def mark(db: Session) -> None:
            flag = {"berserk_white": True} if first else {"berserk_black": True}
            db.execute(update(PairingRow).where(PairingRow.id == row.id).values(**flag))

        try:
            await service.change(session, change, after=mark)
        except BaseException:
            session.clock = before
            raise
    await service.announce(session)
    return row.game_id


@dataclass(frozen=True)
class InGame:
    """What a tournament game's page shows its player: the tournament (a link back to it) and
    whether they may go berserk now (lichess offers it on the game's page too)."""

    tournament_id: str
    name: str
    berserk: bool


async def in_game(service: GameService, session: GameSession, side: str) -> InGame | None:
    """The tournament ``session`` is a game of, as its player of ``side`` sees it (``None``:
    no tournament's game)."""

    def read() -> tuple[TournamentRow, PairingRow] | None:
        with service.sessions() as db:
            row = db.scalars(select(PairingRow).where(PairingRow.game_id == session.id)).first()
            t = None if row is None else db.get(TournamentRow, row.tournament_id)
            return None if row is None or t is None else (t, row)

    found = await service.run_db(read)
    if found is None:
        return None
    t, row = found
    sides = load(t.game, t.ruleset).sides
    done = row.berserk_white if side == sides[0] else row.berserk_black
    possible = bool(t.berserk) and not done and not session.finished and row.status == "playing"
    if possible and session.clock is not None:
        try:
            berserk(session.clock, side)
        except ValueError:
            possible = False
    return InGame(t.id, t.name, possible and session.clock is not None)
