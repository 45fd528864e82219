"""What profiles and leaderboards show: ratings, results, rating histories and games, read
from the database; and the rating history drawn as an SVG chart (no script: the page's
Content-Security-Policy forbids inline ones, and a chart needs none)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from ..i18n.languages import format_day
from ..play.points import CASUAL
from ..rating.ranking import RATED_RULESETS, _rating
from ..store.db import GameRow, PlayerRow, RatingHistoryRow, RatingRow, UserRow, now

GAMES_SHOWN = 50
BOARD_SIZE = 50


def _rating_view(row: RatingRow, level: str | None) -> dict[str, Any]:
    current = _rating(row, row.game, row.ruleset, level).at(now())
    return {
        "game": row.game, "ruleset": row.ruleset, "rating": round(current.rating),
        "deviation": round(current.deviation), "provisional": current.provisional,
        "games": row.games, "wins": row.wins, "draws": row.draws, "losses": row.losses,
    }  # fmt: skip


def profile(db: Session, user: UserRow, viewer_id: int | None, lang: str = "en") -> dict[str, Any]:
    """A player's profile: ratings (with W/D/L) per game and ruleset, the history of each,
    and their latest games with links (replay when finished; their seat for the player
    themselves; watching for lobby games)."""
    ratings = [
        _rating_view(r, user.level)
        for r in db.scalars(
            select(RatingRow).where(RatingRow.user_id == user.id).order_by(RatingRow.game)
        ).all()
        if r.games > 0
    ]
    history: dict[tuple[str, str], list[tuple[datetime, float]]] = {}
    for h, change in db.execute(
        select(RatingHistoryRow, PlayerRow.change)
        .outerjoin(
            PlayerRow,
            (PlayerRow.game_id == RatingHistoryRow.game_id) & (PlayerRow.user_id == user.id),
        )
        .where(RatingHistoryRow.user_id == user.id)
        .order_by(RatingHistoryRow.id)
    ).all():
        points = history.setdefault((h.game, h.ruleset), [])
        if not points and change is not None:  # where the line starts: before the first game
            points.append((h.at, h.rating - change))
        points.append((h.at, h.rating))
    me, them = aliased(PlayerRow), aliased(PlayerRow)
    rows = db.execute(
        select(GameRow, me, them, UserRow)
        .join(me, me.game_id == GameRow.id)
        .outerjoin(them, (them.game_id == GameRow.id) & (them.side != me.side))
        .outerjoin(UserRow, UserRow.id == them.user_id)
        .where(me.user_id == user.id)
        .order_by(GameRow.created_at.desc())
        .limit(GAMES_SHOWN)
    ).all()
    games = []
    for game, mine, _theirs, opponent in rows:
        result: str | None
        if game.finished_at is not None:
            result = (
                "aborted" if game.reason == "aborted"
                else "draw" if game.winner is None
                else "win" if game.winner == mine.side
                else "loss"
            )  # fmt: skip
            url: str | None = f"/archive/{game.id}"
        else:
            result = None
            url = (f"/resume/{game.id}" if viewer_id == user.id
                   else f"/live/{game.id}" if game.public else None)  # fmt: skip
        games.append({
            "id": game.id, "game": game.game, "ruleset": game.ruleset, "side": mine.side,
            "control": game.control, "rated": bool(game.rated), "result": result,
            "reason": game.reason, "change": None if mine.change is None else round(mine.change),
            "opponent": None if opponent is None or opponent.closed_at else opponent.username,
            "opponent_closed": opponent is not None and opponent.closed_at is not None,
            "opponent_level": None if opponent is None else opponent.level,
            "url": url, "when": (game.finished_at or game.created_at).isoformat(),
        })  # fmt: skip
    charts = {
        key: rating_chart(points, f"{key[0]}-{key[1]}", lang) for key, points in history.items()
    }
    return {"user": user, "ratings": ratings, "charts": charts, "games": games}


@dataclass(frozen=True)
class Board:
    """A leaderboard: established ratings, then provisional ones."""

    game: str
    ruleset: str
    established: list[dict[str, Any]]
    provisional: list[dict[str, Any]]


def leaderboard(db: Session, game: str, ruleset: str) -> Board:
    """The players of a game and ruleset by rating (the computer's levels among them)."""
    rows = db.execute(
        select(RatingRow, UserRow)
        .join(UserRow, UserRow.id == RatingRow.user_id)
        .where(RatingRow.game == game, RatingRow.ruleset == ruleset, RatingRow.games > 0)
        .where(UserRow.closed_at.is_(None))  # a closed account's ratings leave the board
        .order_by(RatingRow.rating.desc())
        .limit(4 * BOARD_SIZE)
    ).all()
    established: list[dict[str, Any]] = []
    provisional: list[dict[str, Any]] = []
    for row, user in rows:
        view = {**_rating_view(row, user.level), "name": user.username, "level": user.level}
        (provisional if view["provisional"] else established).append(view)
    return Board(game, ruleset, established[:BOARD_SIZE], provisional[:BOARD_SIZE])


def boards() -> list[tuple[str, str]]:
    """Every game and ruleset with a leaderboard (not the casual ones: backgammon's money)."""
    return [(g, r) for g, rulesets in RATED_RULESETS.items() for r in rulesets
            if (g, r) not in CASUAL]  # fmt: skip


# -- the chart ---------------------------------------------------------------------------------

WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 50, 12, 14, 30


def rating_chart(points: list[tuple[datetime, float]], label: str, lang: str = "en") -> Markup:
    """The rating after each rated game as a line (one point per game, in order), with the
    lowest and highest rating and the first and last dates on the axes (dates as ``lang``
    writes them)."""
    if not points:
        return Markup("")
    ratings = [r for _, r in points]
    low, high = min(ratings), max(ratings)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    span_x = max(1, len(points) - 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(i: int, rating: float) -> tuple[float, float]:
        x = LEFT + inner_w * (i / span_x if len(points) > 1 else 0.5)
        y = TOP + inner_h * (1 - (rating - low) / (high - low))
        return round(x, 1), round(y, 1)

    coords = [xy(i, r) for i, (_, r) in enumerate(points)]
    line = " ".join(f"{x},{y}" for x, y in coords)
    dots = "".join(
        f'<circle class="dot" cx="{x}" cy="{y}" r="3"><title>{escape(format_day(lang, when))}'
        f": {round(rating)}</title></circle>"
        for (x, y), (when, rating) in zip(coords, points, strict=True)
    )
    first, last = format_day(lang, points[0][0]), format_day(lang, points[-1][0])
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-{escape(label)}" data-points="{len(points)}">',
        f'<title id="chart-{escape(label)}">{round(ratings[0])} → {round(ratings[-1])}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}"/>',
        f'<text class="tick" x="{LEFT - 6}" y="{TOP + 10}" text-anchor="end">{round(high)}</text>',
        f'<text class="tick" x="{LEFT - 6}" y="{HEIGHT - BOTTOM}" text-anchor="end">'
        f"{round(low)}</text>",
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 8}">{first}</text>',
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">{last}</text>',
        f'<polyline class="line" points="{line}"/>',
        dots,
        "</svg>",
    ]
    return Markup("".join(parts))


def named(db: Session, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``games`` (the archive's rows) with who played each side, by name: ``people`` maps a
    side to its account's name or computer level (sides without an account are left out)."""
    ids = [g["id"] for g in games]
    found: dict[str, dict[str, dict[str, Any]]] = {}
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
    return [{**g, "people": found.get(g["id"], {})} for g in games]


async def archive_named(service: Any) -> list[dict[str, Any]]:
    """The archive, with the names of the players who have an account."""
    games = await service.archive()

    def read() -> list[dict[str, Any]]:
        with service.sessions() as db:
            return named(db, games)

    return list(await service.run_db(read))
