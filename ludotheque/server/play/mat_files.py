"""Backgammon played for points as a ``.mat`` file, the text that GNU Backgammon and eXtreme
Gammon import: the whole match (or money session) that a finished game belongs to.

A match is a chain of games on the server, each linked to the one before it by ``rematch_of``
(``points.py``); the file walks back along that chain to the match's first game (its start
score 0-0) or, for money, to the session's first game, and writes every game up to the one
asked for. Only finished games are public, as for the JSON record.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from sqlalchemy import select

from ...games.backgammon import BackgammonState, mat
from ...record import Record
from ..errors import GameError, say
from ..store.db import GameRow
from .deps import ServiceDep
from .routes import NOT_PUBLIC
from .schemas import REFUSALS
from .service import GameService
from .session import GameSession

router = APIRouter()

NOT_FOR_POINTS = say(
    "only backgammon played for points (a money game or a match) has a .mat file",
)
MAX_GAMES = 500
"""The longest chain a file walks back (a money session can go on for ever)."""


def _start(session: GameSession) -> BackgammonState | None:
    """The first position of a game played for points, else ``None``."""
    first = session.record.states[0]
    if isinstance(first, BackgammonState) and first.stakes is not None:
        return first
    return None


async def _previous(service: GameService, game_id: str) -> str | None:
    def read() -> str | None:
        with service.sessions() as db:
            return db.execute(select(GameRow.rematch_of).where(GameRow.id == game_id)).scalar()

    return await service.run_db(read)


async def match_records(service: GameService, session: GameSession) -> list[Record]:
    """The records of the match or money session that ``session`` belongs to, in order, up
    to and including ``session``'s game."""
    start = _start(session)
    if start is None or start.stakes is None:
        raise GameError(NOT_FOR_POINTS, "not-for-points", 404)
    chain = [session]
    length = start.stakes.length
    while len(chain) < MAX_GAMES:
        current = _start(chain[0])
        assert current is not None and current.stakes is not None
        if length and current.stakes.score == (0, 0):
            break  # the match's first game
        before = await _previous(service, chain[0].id)
        if before is None:
            break
        game = await service.get(before)
        earlier = _start(game)
        if (
            earlier is None
            or earlier.stakes is None
            or earlier.stakes.length != length
            or game.record.players != chain[0].record.players
        ):
            break  # another match or session (a new match swaps the sides)
        chain.insert(0, game)
    return [game.record for game in chain]


@router.get(
    "/api/games/{game_id}/match.mat", response_class=Response, tags=["records"],
    responses={200: {"content": {"text/plain": {}}, "description": "the .mat file"}, **REFUSALS},
)  # fmt: skip
async def api_match_file(game_id: str, service: ServiceDep) -> Response:
    """The ``.mat`` file of the match or money session a finished game belongs to."""
    session = await service.get(game_id)
    if not session.finished:
        raise GameError(NOT_PUBLIC, "not-finished", 403)
    text = mat.dumps(await match_records(service, session))
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="backgammon-{session.id}.mat"'},
    )
