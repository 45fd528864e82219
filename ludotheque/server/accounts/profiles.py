"""What profiles and leaderboards show: ratings, results, rating histories, the games being
played and the games played (newest first, a page at a time), read from the database; the
history is drawn by ``chart``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from ..i18n.languages import format_ago, format_moment
from ..play.points import CASUAL
from ..rating.ranking import (
    LEADERBOARD_DAYS,
    LEADERBOARD_DEVIATION,
    LEADERBOARD_GAMES,
    RATED_RULESETS,
    _rating,
    on_leaderboard,
)
from ..store.db import GameRow, PlayerRow, RatingHistoryRow, RatingRow, UserRow, now
from .chart import Point, aware, rating_chart

GAMES_SHOWN = 30  # finished games on a page of a profile
PLAYING_SHOWN = 50  # games being played, at most
BOARD_SIZE = 50


def _rating_view(row: RatingRow, level: str | None) -> dict[str, Any]:
    current = _rating(row, row.game, row.ruleset, level).at(now())
    return {
        "game": row.game, "ruleset": row.ruleset, "rating": round(current.rating),
        "deviation": round(current.deviation), "provisional": current.provisional,
        "games": row.games, "wins": row.wins, "draws": row.draws, "losses": row.losses,
    }  # fmt: skip


def profile(
    db: Session, user: UserRow, viewer_id: int | None, lang: str = "en", page: int = 1
) -> dict[str, Any]:
    """A player's profile: ratings (with W/D/L) per game and ruleset and the chart of each,
    the games they are playing now, and a page of their finished games (``page``, from 1):
    newest first, games that ended in the same second by id. Links: replay for finished
    games; for games being played, the player's seat (``/resume``) when they look at their
    own profile, watching for the others when the game is public. ``challenge`` says what
    the viewer may do: ``button`` (another signed-in player), ``signin`` (an anonymous
    visitor), ``None`` (their own profile, or a computer level's)."""
    ratings = [
        _rating_view(r, user.level)
        for r in db.scalars(
            select(RatingRow).where(RatingRow.user_id == user.id).order_by(RatingRow.game)
        ).all()
        if r.games > 0
    ]
    history: dict[tuple[str, str], list[Point]] = {}
    for h, change in db.execute(
        select(RatingHistoryRow, PlayerRow.change)
        .outerjoin(
            PlayerRow,
            (PlayerRow.game_id == RatingHistoryRow.game_id) & (PlayerRow.user_id == user.id),
        )
        .where(RatingHistoryRow.user_id == user.id)
        .order_by(RatingHistoryRow.at, RatingHistoryRow.id)
    ).all():
        history.setdefault((h.game, h.ruleset), []).append(Point(h.at, h.rating, change))
    charts = {
        key: rating_chart(points, f"{key[0]}-{key[1]}", lang) for key, points in history.items()
    }
    page = max(1, page)
    moment = now()
    finished = _games(db, user, viewer_id, lang, moment, finished=True,
                      offset=(page - 1) * GAMES_SHOWN, limit=GAMES_SHOWN + 1)  # fmt: skip
    playing = _games(db, user, viewer_id, lang, moment, finished=False, offset=0,
                     limit=PLAYING_SHOWN)  # fmt: skip
    challenge = (
        None if user.level is not None or viewer_id == user.id
        else "signin" if viewer_id is None
        else "button"
    )  # fmt: skip
    return {
        "player": user, "ratings": ratings, "charts": charts, "playing": playing,
        "games": finished[:GAMES_SHOWN], "page": page, "more": len(finished) > GAMES_SHOWN,
        "challenge": challenge,
    }  # fmt: skip


def _games(
    db: Session, user: UserRow, viewer_id: int | None, lang: str, moment: datetime, *,
    finished: bool, offset: int, limit: int,
) -> list[dict[str, Any]]:  # fmt: skip
    """The games ``user`` plays (``finished``: played) with their links, newest first."""
    me, them = aliased(PlayerRow), aliased(PlayerRow)
    newest = GameRow.finished_at if finished else GameRow.created_at
    rows = db.execute(
        select(GameRow, me, them, UserRow)
        .join(me, me.game_id == GameRow.id)
        .outerjoin(them, (them.game_id == GameRow.id) & (them.side != me.side))
        .outerjoin(UserRow, UserRow.id == them.user_id)
        .where(
            me.user_id == user.id,
            GameRow.finished_at.is_not(None) if finished else GameRow.finished_at.is_(None),
        )
        .order_by(newest.desc(), GameRow.id.desc())
        .offset(offset)
        .limit(limit)
    ).all()
    games = []
    for game, mine, _theirs, opponent in rows:
        result: str | None = None
        if game.finished_at is not None:
            result = (
                "aborted" if game.reason == "aborted"
                else "draw" if game.winner is None
                else "win" if game.winner == mine.side
                else "loss"
            )  # fmt: skip
            url: str | None = f"/archive/{game.id}"
        else:
            url = (f"/resume/{game.id}" if viewer_id == user.id
                   else f"/live/{game.id}" if game.public else None)  # fmt: skip
        when = aware(game.finished_at or game.created_at)
        games.append({
            "id": game.id, "game": game.game, "ruleset": game.ruleset, "side": mine.side,
            "control": game.control, "rated": bool(game.rated), "result": result,
            "reason": game.reason, "change": None if mine.change is None else round(mine.change),
            "opponent": None if opponent is None or opponent.closed_at else opponent.username,
            "opponent_closed": opponent is not None and opponent.closed_at is not None,
            "opponent_level": None if opponent is None else opponent.level,
            "url": url, "when": when.isoformat(), "when_text": format_ago(lang, when, moment),
            "when_full": f"{format_moment(lang, when)} UTC",
        })  # fmt: skip
    return games


@dataclass(frozen=True)
class Board:
    """A leaderboard: the established ratings of a game and ruleset, best first."""

    game: str
    ruleset: str
    established: list[dict[str, Any]]

    @property
    def rule(self) -> dict[str, int]:
        """Who is listed (``ranking.on_leaderboard``), in figures for the page."""
        return {"games": LEADERBOARD_GAMES, "days": LEADERBOARD_DAYS,
                "deviation": round(LEADERBOARD_DEVIATION)}  # fmt: skip


def leaderboard(db: Session, game: str, ruleset: str) -> Board:
    """The players of a game and ruleset whose ratings are established (``on_leaderboard``:
    lichess's rule), by rating; the computer's levels among them."""
    rows = db.execute(
        select(RatingRow, UserRow)
        .join(UserRow, UserRow.id == RatingRow.user_id)
        .where(RatingRow.game == game, RatingRow.ruleset == ruleset, RatingRow.games > 0)
        .where(UserRow.closed_at.is_(None))  # a closed account's ratings leave the board
        .order_by(RatingRow.rating.desc(), UserRow.username)
        .limit(4 * BOARD_SIZE)
    ).all()
    moment = now()
    established = [
        {**_rating_view(row, user.level), "name": user.username, "level": user.level}
        for row, user in rows
        if on_leaderboard(_rating(row, game, ruleset, user.level), moment)
    ]
    return Board(game, ruleset, established[:BOARD_SIZE])


def boards() -> list[tuple[str, str]]:
    """Every game and ruleset with a leaderboard (not the casual ones: backgammon's money)."""
    return [(g, r) for g, rulesets in RATED_RULESETS.items() for r in rulesets
            if (g, r) not in CASUAL]  # fmt: skip


def named(db: Session, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``games`` (the archive's rows) with who played each side, by name (``people`` maps a
    side to its account's name or computer level, a closed account's without its name; sides
    without an account are left out), and each game's time control (``control``)."""
    ids = [g["id"] for g in games]
    found: dict[str, dict[str, dict[str, Any]]] = {}
    controls: dict[str, str | None] = {}
    if ids:
        rows = db.execute(
            select(PlayerRow.game_id, PlayerRow.side, UserRow.username, UserRow.level,
                   UserRow.closed_at)
            .join(UserRow, UserRow.id == PlayerRow.user_id)
            .where(PlayerRow.game_id.in_(ids))
        ).all()  # fmt: skip
        for game_id, side, username, level, closed in rows:
            found.setdefault(game_id, {})[side] = {
                "name": None if closed else username, "level": level, "closed": bool(closed),
            }  # fmt: skip
        for game_id, control in db.execute(
            select(GameRow.id, GameRow.control).where(GameRow.id.in_(ids))
        ).all():
            controls[game_id] = control
    return [{**g, "people": found.get(g["id"], {}), "control": controls.get(g["id"])}
            for g in games]  # fmt: skip


async def archive_named(service: Any) -> list[dict[str, Any]]:
    """The archive, with the names of the players who have an account."""
    games = await service.archive()

    def read() -> list[dict[str, Any]]:
        with service.sessions() as db:
            return named(db, games)

    return list(await service.run_db(read))
