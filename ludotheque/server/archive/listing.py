"""The archive's list: finished games, newest first, filtered by game, player and result, a
backgammon match's games grouped (in order, with the points each game scored and the match
score after it), and how each backgammon game was won (single, gammon or backgammon: what a
resignation gave up).

A match is a chain of games linked by ``rematch_of`` (``play.points``); its first game starts at
0-0. A game's facts (points, score, how it was won) come from its record, replayed once: a
finished game never changes, so they are kept by id (``FACTS``) for the next reader.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ... import available_games
from ..accounts.profiles import named
from ..accounts.rules import USERNAME_MAX, username_key
from ..errors import GameError, say
from ..play.boards import board
from ..play.service import GameService
from ..store.db import EventRow, GameRow, PlayerRow, UserRow

LIMIT = 200
"""The most games a page of the archive lists."""
RESULTS = ("won", "draw", "resignation", "gammon", "aborted")
"""The results a reader may filter by: won (not drawn), drawn, resigned, won by a gammon or a
backgammon, aborted or left unfinished."""
UNPLAYED = ("aborted", "abandoned")
BORNE_OR_RESIGNED = ("borne-off", "gammon", "backgammon", "resignation")
GAMMONS = ("gammon", "backgammon")
POINTS = ("money", "match")
"""The rulesets played for points (``play.points``)."""
MAX_CHAIN = 60
"""The most games a match's chain is walked back (a 25-point match is shorter)."""
FACTS_KEPT = 20_000


@dataclass(frozen=True)
class Filters:
    """What the reader asked for (empty: anything)."""

    game: str = ""
    player: str = ""
    result: str = ""

    @property
    def any(self) -> bool:
        return bool(self.game or self.player or self.result)


def filters_from(params: Mapping[str, str]) -> Filters:
    """The filters of a query string; an unknown game or result, or a name longer than any
    account's, is refused (``GameError`` ``bad-filter``, 400)."""
    game = str(params.get("game") or "").strip()
    player = str(params.get("player") or "").strip()
    result = str(params.get("result") or "").strip()
    if game and game not in available_games():
        raise GameError(say("no game called {name}", name=game[:40]), "bad-filter", 400)
    if result and result not in RESULTS:
        raise GameError(
            say("no such result to filter by: {name} (choose {names})",
                name=result[:40], names=", ".join(RESULTS)),
            "bad-filter", 400,
        )  # fmt: skip
    if len(player) > USERNAME_MAX:
        raise GameError(
            say("a player's name is at most {n} characters", n=USERNAME_MAX), "bad-filter", 400
        )
    return Filters(game, player, result)


@dataclass(frozen=True)
class Facts:
    """What a finished backgammon game's record says beyond its row: how it was won
    (``win_kind``: single, gammon or backgammon) and whether that counts (``kind_scores``);
    played for points, the points scored; in a match, its length, the score before the game
    and after it, and the match's winner when it ends the match."""

    win_kind: str | None = None
    kind_scores: bool = False
    points: int | None = None
    length: int = 0
    score_before: tuple[int, int] = (0, 0)
    score_after: dict[str, int] | None = None
    match_winner: str | None = None
    rematch_of: str | None = None


FACTS: OrderedDict[str, Facts] = OrderedDict()
"""Facts of finished games by id, the most recently read last (bounded)."""


async def facts_of(service: GameService, game_id: str, rematch_of: str | None) -> Facts:
    """The facts of a finished backgammon game (read from its record once, then kept); an
    unreadable game has none."""
    known = FACTS.get(game_id)
    if known is not None:
        FACTS.move_to_end(game_id)
        return known
    try:
        session = await service.get(game_id)
    except GameError:
        return Facts(rematch_of=rematch_of)
    record = session.record
    adapter = board(session.game)
    extra: dict[str, Any] = adapter.record_extra(record) if hasattr(adapter, "record_extra") else {}
    stakes = getattr(record.states[0], "stakes", None)
    length = stakes.length if stakes is not None else 0
    before = (stakes.score[0], stakes.score[1]) if stakes is not None else (0, 0)
    found = Facts(
        win_kind=extra.get("win_kind"), kind_scores=bool(extra.get("kind_scores")),
        points=extra.get("points"), length=length, score_before=before,
        score_after=extra.get("score_after"), match_winner=extra.get("match_winner"),
        rematch_of=rematch_of if rematch_of is not None else await _rematch_of(service, game_id),
    )  # fmt: skip
    if session.finished:
        FACTS[game_id] = found
        while len(FACTS) > FACTS_KEPT:
            FACTS.popitem(last=False)
    return found


async def _rematch_of(service: GameService, game_id: str) -> str | None:
    def read() -> str | None:
        with service.sessions() as db:
            return db.execute(select(GameRow.rematch_of).where(GameRow.id == game_id)).scalar()

    return await service.run_db(read)


def _query(filters: Filters, limit: int) -> Any:
    moves = (
        select(func.count(EventRow.id))
        .where(EventRow.game_id == GameRow.id, EventRow.kind == "move")
        .correlate(GameRow)
        .scalar_subquery()
    )
    query = select(GameRow, moves).where(GameRow.finished_at.is_not(None))
    if filters.game:
        query = query.where(GameRow.game == filters.game)
    if filters.player:
        played = (
            select(PlayerRow.game_id)
            .join(UserRow, UserRow.id == PlayerRow.user_id)
            .where(UserRow.username_key == username_key(filters.player),
                   UserRow.closed_at.is_(None))
        )  # fmt: skip
        query = query.where(GameRow.id.in_(played))
    result = filters.result
    if result == "won":
        query = query.where(GameRow.winner.is_not(None))
    elif result == "draw":
        query = query.where(GameRow.winner.is_(None), GameRow.reason.not_in(UNPLAYED))
    elif result == "resignation":
        query = query.where(GameRow.reason == "resignation")
    elif result == "gammon":  # which of these were gammons is in their records (see _keep)
        query = query.where(GameRow.game == "backgammon", GameRow.winner.is_not(None),
                            GameRow.reason.in_(BORNE_OR_RESIGNED))  # fmt: skip
    elif result == "aborted":
        query = query.where(GameRow.reason.in_(UNPLAYED))
    return query.order_by(GameRow.finished_at.desc(), GameRow.id).limit(limit)


def _row(r: GameRow, count: int) -> dict[str, Any]:
    return {
        "id": r.id, "game": r.game, "ruleset": r.ruleset, "mode": r.mode,
        "players": r.players, "winner": r.winner, "reason": r.reason,
        "finished_at": r.finished_at.isoformat() if r.finished_at else None,
        "moves": int(count), "rematch_of": r.rematch_of,
    }  # fmt: skip


def _read(db: Session, filters: Filters, limit: int) -> list[dict[str, Any]]:
    games = [_row(r, count) for r, count in db.execute(_query(filters, limit)).all()]
    return named(db, games)


async def archive_list(
    service: GameService, filters: Filters, limit: int = LIMIT
) -> list[dict[str, Any]]:
    """The archive's entries, newest first: a game (``{"kind": "game", "game": ...}``) or a
    match (``{"kind": "match", "length", "games" (in order), "score", "winner"}``) placed
    where its newest game is. Each backgammon game carries its facts (``win_kind``,
    ``kind_scores``, ``points``, ``score_after``; in a match ``number``, 1 for its first)."""

    def read() -> list[dict[str, Any]]:
        with service.sessions() as db:
            return _read(db, filters, limit)

    games = await service.run_db(read)
    shown: list[dict[str, Any]] = []
    for g in games:
        # a record is read (once) only where it says more than the row: points and matches,
        # what a resignation gave up, and for the gammon filter how a game was won
        told = g["ruleset"] in POINTS or g["reason"] == "resignation" or filters.result == "gammon"
        if g["game"] == "backgammon" and g["winner"] is not None and told:
            facts = await facts_of(service, g["id"], g["rematch_of"])
            g.update(win_kind=facts.win_kind, kind_scores=facts.kind_scores,
                     points=facts.points, score_after=facts.score_after)  # fmt: skip
            if facts.length:
                g["match"] = await _match_of(service, g["id"], facts)
        if filters.result == "gammon" and g.get("win_kind") not in GAMMONS:
            continue
        shown.append(g)
    return group(shown)


async def _match_of(service: GameService, game_id: str, facts: Facts) -> dict[str, Any]:
    """Which match a game belongs to (the id of its first game), its number in it, the
    match's length and the match's winner if this game ends it."""
    first, number, current = game_id, 1, facts
    while current.score_before != (0, 0) and current.rematch_of and number < MAX_CHAIN:
        before = await facts_of(service, current.rematch_of, None)
        if before.length != current.length:
            break
        first, number, current = current.rematch_of, number + 1, before
    return {"first": first, "number": number, "length": facts.length,
            "winner": facts.match_winner}  # fmt: skip


def group(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Newest-first games as entries: a match's games together (in order) where its newest
    game is, every other game on its own."""
    entries: list[dict[str, Any]] = []
    matches: dict[str, dict[str, Any]] = {}
    for g in games:
        match = g.get("match")
        if match is None:
            entries.append({"kind": "game", "game": g})
            continue
        g["number"] = match["number"]
        entry = matches.get(match["first"])
        if entry is None:
            entry = {"kind": "match", "id": match["first"], "length": match["length"], "games": []}
            matches[match["first"]] = entry
            entries.append(entry)
        entry["games"].append(g)
    for entry in matches.values():  # games finished within a second may come in any order
        entry["games"].sort(key=lambda g: g["number"])
        last = entry["games"][-1]
        entry["score"] = last.get("score_after")
        entry["winner"] = last["match"]["winner"]
    return entries
