"""Tournaments on the server: creating one, joining and withdrawing, the lists, and what a
tournament's page and the API show (standings, pairings, rounds, games).

Any signed-in account may create a tournament and join one (a bot through the Bot API, with a
token of scope ``bot:play``); a tournament is rated or casual for all its games, always on a
clock. What happens over time is the queue's work (``rounds``).
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ... import load
from ...core import UnknownGame
from ...games.backgammon.cube import MATCH, MAX_LENGTH
from .. import timesource
from ..accounts.identity import Who
from ..accounts.moderation import check_not_banned
from ..clock.controls import TimeControl, control_names
from ..errors import GameError, say
from ..play.points import CASUAL
from ..play.service import GameService
from ..play.session import GameSession
from ..rating.ranking import RATED_RULESETS, rating_of
from ..store.db import EntrantRow, PairingRow, TournamentRow, UserRow
from .berserk import allowed
from .rounds import CHANNEL, UNFINISHED, finished_game_tournament, queue_job, wake
from .scoring import LOSS, NONE, WIN, ArenaGame, SwissGame, arena_line, swiss_table

KINDS = ("arena", "swiss")
MAX_ROUNDS = 15
MAX_MINUTES = 720
MAX_DELAY_MINUTES = 7 * 24 * 60
LISTED = 30
NAME = re.compile(r"[^\x00-\x1f\x7f]{0,64}")

NO_SUCH = say("there is no such tournament")
BAD_KIND = say("a tournament is an arena or a Swiss")
BAD_GAME = say("unknown game or ruleset")
BAD_CLOCK = say("a tournament needs a time control that its game uses")
LIVE_ONLY = say("a tournament is played on a live clock, not by correspondence")
BAD_ROUNDS = say("a Swiss has 1 to {most} rounds", most=MAX_ROUNDS)
BAD_MINUTES = say("an arena lasts 1 to {most} minutes", most=MAX_MINUTES)
BAD_LENGTH = say("a backgammon match is 1 to {most} points long", most=MAX_LENGTH)
BAD_START = say("a tournament starts within a week")
BAD_NAME = say("a tournament's name is at most 64 characters, on one line")
CASUAL_ONLY = say("money games are casual: a money tournament cannot be rated")
FINISHED = say("this tournament is over")
NOT_IN = say("you are not playing in this tournament")
BOT_SCOPE = say("a bot joins with a token of scope bot:play")


def _clean_name(value: object) -> str:
    text = str(value or "").strip()
    if not NAME.fullmatch(text):
        raise GameError(BAD_NAME, "bad-tournament", 400)
    return text


@dataclass(frozen=True)
class Spec:
    """A tournament asked for, checked."""

    name: str
    kind: str
    game: str
    ruleset: str
    control: str
    length: int | None
    rated: bool
    rounds: int | None
    minutes: int | None
    starts_in: float


def check_spec(spec: dict[str, Any]) -> Spec:
    """The tournament ``spec`` asks for, or a ``GameError`` saying what is wrong."""
    kind = str(spec.get("kind") or "")
    if kind not in KINDS:
        raise GameError(BAD_KIND, "bad-tournament", 400)
    game = str(spec.get("game") or "")
    ruleset = str(spec.get("ruleset") or RATED_RULESETS.get(game, ("",))[0])
    if ruleset not in RATED_RULESETS.get(game, ()):
        raise GameError(BAD_GAME, "bad-tournament", 400)
    try:
        g = load(game, ruleset)
    except (UnknownGame, ValueError):
        raise GameError(BAD_GAME, "bad-tournament", 400) from None
    try:
        control = TimeControl.parse(str(spec.get("control") or ""))
    except ValueError:
        raise GameError(BAD_CLOCK, "bad-tournament", 400) from None
    if not control.live:
        raise GameError(LIVE_ONLY, "bad-tournament", 400)
    rated = bool(spec.get("rated", True))
    if rated and (g.name, g.ruleset) in CASUAL:
        raise GameError(CASUAL_ONLY, "bad-tournament", 400)
    length = None
    if g.name == "backgammon" and g.ruleset == MATCH:
        length = _int(spec.get("length", 3), 1, MAX_LENGTH, BAD_LENGTH)
    rounds = minutes = None
    if kind == "swiss":
        rounds = _int(spec.get("rounds"), 1, MAX_ROUNDS, BAD_ROUNDS)
    else:
        minutes = _int(spec.get("minutes"), 1, MAX_MINUTES, BAD_MINUTES)
    try:
        starts_in = float(str(spec.get("starts_in") or 0))
    except ValueError:
        raise GameError(BAD_START, "bad-tournament", 400) from None
    if not 0 <= starts_in <= MAX_DELAY_MINUTES:  # (NaN is neither)
        raise GameError(BAD_START, "bad-tournament", 400)
    return Spec(_clean_name(spec.get("name")), kind, g.name, g.ruleset, control.key, length,
                rated, rounds, minutes, 60.0 * starts_in)  # fmt: skip


def _int(value: object, low: int, high: int, refusal: Any) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise GameError(refusal, "bad-tournament", 400) from None
    if not low <= number <= high:
        raise GameError(refusal, "bad-tournament", 400)
    return number


class Tournaments:
    """Tournaments as this process serves them."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.seen: set[str] = set()  # finished games already looked up here

    # -- changes ----------------------------------------------------------------------------

    async def create(self, who: Who, spec: dict[str, Any]) -> str:
        """A new tournament by ``who`` (signed in); its id. Its first job is its start."""
        assert who.user is not None
        await check_not_banned(self.service.run_db, self.service.sessions, who.user.id)
        checked = check_spec(spec)
        self.service.clocks.checked_control(checked.game, checked.control, False, "friend", {},
                                            None)  # fmt: skip
        tid = secrets.token_urlsafe(6)
        user_id = who.user.id

        def write() -> None:
            stamp = timesource.time()
            starts = stamp + checked.starts_in
            with self.service.sessions() as db:
                db.add(TournamentRow(
                    id=tid, name=checked.name, kind=checked.kind, game=checked.game,
                    ruleset=checked.ruleset, control=checked.control, length=checked.length,
                    rated=checked.rated, rounds=checked.rounds, minutes=checked.minutes,
                    berserk=allowed(checked.kind, checked.game), created_by=user_id,
                    created_at=stamp, starts_at=starts,
                    status="upcoming", round=0, step=0,
                ))  # fmt: skip
                db.flush()
                queue_job(db, tid, 0, starts)
                self.service.bus.publish_in(db, "job", tid)
                db.commit()

        await self.service.run_db(write)
        return tid

    async def join(self, who: Who, tid: str) -> None:
        """``who`` plays in the tournament (again, after withdrawing)."""
        assert who.user is not None
        if who.scopes is not None and "bot:play" not in who.scopes:
            raise GameError(BOT_SCOPE, "missing-scope", 403)
        user_id = who.user.id
        await check_not_banned(self.service.run_db, self.service.sessions, user_id)

        def write() -> None:
            with self.service.sessions() as db:
                t = self._get(db, tid)
                if t.status == "finished":
                    raise GameError(FINISHED, "tournament-over", 409)
                row = db.get(EntrantRow, (tid, user_id))
                if row is not None:  # back: its pause counts only the games from now on
                    row.withdrawn, row.joined_at = False, timesource.time()
                else:
                    rating = rating_of(db, user_id, t.game, t.ruleset).rating
                    db.add(EntrantRow(tournament_id=tid, user_id=user_id, rating=rating,
                                      joined_at=timesource.time(), withdrawn=False))  # fmt: skip
                if t.status == "running":
                    wake(db, tid)
                self.service.bus.publish_in(db, CHANNEL, tid)
                db.commit()

        with contextlib.suppress(IntegrityError):  # joined twice at once: once is enough
            await self.service.run_db(write)
        self.service.bus.committed(CHANNEL, tid)

    async def withdraw(self, who: Who, tid: str) -> None:
        """``who`` is paired no more (before the start: they leave the list)."""
        assert who.user is not None
        user_id = who.user.id

        def write() -> None:
            with self.service.sessions() as db:
                t = self._get(db, tid)
                row = db.get(EntrantRow, (tid, user_id))
                if row is None or row.withdrawn:
                    raise GameError(NOT_IN, "not-in-tournament", 409)
                if t.status == "upcoming":
                    db.delete(row)
                else:
                    row.withdrawn = True
                self.service.bus.publish_in(db, CHANNEL, tid)
                db.commit()

        await self.service.run_db(write)
        self.service.bus.committed(CHANNEL, tid)

    async def heard(self, session: GameSession) -> None:
        """A game changed on this process: if it is a tournament's and it ended, the
        tournament is woken at once (every process that holds the game may do so: waking
        twice is harmless)."""
        if not session.finished or session.id in self.seen:
            return
        self.seen.add(session.id)
        if len(self.seen) > 50_000:
            self.seen.clear()

        def write() -> str | None:
            with self.service.sessions() as db:
                tid = finished_game_tournament(db, session.id)
                if tid is not None and wake(db, tid):
                    self.service.bus.publish_in(db, "job", tid)
                db.commit()
                return tid

        if await self.service.run_db(write) is not None:
            self.service.bus.committed("job", session.id)

    # -- reading ----------------------------------------------------------------------------

    def _get(self, db: Session, tid: str) -> TournamentRow:
        t = db.get(TournamentRow, tid)
        if t is None:
            raise GameError(NO_SUCH, "no-such-tournament", 404)
        return t

    async def listing(self) -> dict[str, list[dict[str, Any]]]:
        """Upcoming (soonest first), running, and finished (latest first) tournaments."""

        def read() -> dict[str, list[dict[str, Any]]]:
            with self.service.sessions() as db:
                out: dict[str, list[dict[str, Any]]] = {}
                for status, order in (("upcoming", TournamentRow.starts_at),
                                      ("running", TournamentRow.starts_at),
                                      ("finished", TournamentRow.finished_at.desc())):  # fmt: skip
                    rows = db.scalars(select(TournamentRow).where(TournamentRow.status == status)
                                      .order_by(order).limit(LISTED)).all()  # fmt: skip
                    counts = _counts(db, [t.id for t in rows], status == "finished")
                    out[status] = [_summary(t, counts.get(t.id, 0)) for t in rows]
                return out

        return await self.service.run_db(read)

    async def view(self, tid: str, user_id: int | None) -> dict[str, Any]:
        """A tournament as its page and the API show it."""

        def read() -> dict[str, Any]:
            with self.service.sessions() as db:
                t = self._get(db, tid)
                of_t = select(EntrantRow).where(EntrantRow.tournament_id == tid)
                entrants = list(db.scalars(of_t).all())
                rows = list(db.scalars(select(PairingRow).where(PairingRow.tournament_id == tid)
                                       .order_by(PairingRow.round, PairingRow.board,
                                                 PairingRow.id)).all())  # fmt: skip
                ids = (
                    {e.user_id for e in entrants}
                    | {r.white for r in rows}
                    | {r.black for r in rows if r.black is not None}
                )
                named = db.scalars(select(UserRow).where(UserRow.id.in_(ids))).all()
                users = {u.id: u for u in named}
                return _view(t, entrants, rows, users, user_id)

        return await self.service.run_db(read)


def _mine(rows: list[PairingRow], user_id: int | None, kind: str) -> dict[str, Any] | None:
    """The reader's game being played here: its id, and whether they went berserk."""
    if user_id is None:
        return None
    for r in rows:
        if r.status == "playing" and user_id in (r.white, r.black) and r.game_id:
            mine = r.berserk_white if r.white == user_id else r.berserk_black
            return {"game_id": r.game_id, "url": f"/resume/{r.game_id}", "berserk": mine}
    return None


def _counted(e: EntrantRow, finished: bool, played: set[int]) -> bool:
    """Whether an entrant counts among a tournament's players: in it now, or, once it is
    over, having played a game of it (``played``: who did; a player paused or withdrawn is in
    its final table)."""
    return not e.withdrawn or (finished and e.user_id in played)


def _played(rows: Iterable[PairingRow]) -> set[int]:
    return {u for r in rows for u in (r.white, r.black) if u is not None}


def _counts(db: Session, ids: list[str], finished: bool = False) -> dict[str, int]:
    """The players of each tournament (``_counted``)."""
    if not ids:
        return {}
    rows = db.scalars(select(EntrantRow).where(EntrantRow.tournament_id.in_(ids))).all()
    pairings: dict[str, list[PairingRow]] = {}
    if finished:
        for p in db.scalars(select(PairingRow).where(PairingRow.tournament_id.in_(ids))).all():
            pairings.setdefault(p.tournament_id, []).append(p)
    played = {t: _played(ps) for t, ps in pairings.items()}
    out: dict[str, int] = {}
    for r in rows:
        if _counted(r, finished, played.get(r.tournament_id, set())):
            out[r.tournament_id] = out.get(r.tournament_id, 0) + 1
    return out


def _players(t: TournamentRow, entrants: list[EntrantRow], rows: list[PairingRow]) -> int:
    """The players of one tournament (``_counted``)."""
    played = _played(rows)
    return sum(1 for e in entrants if _counted(e, t.status == "finished", played))


def _summary(t: TournamentRow, players: int) -> dict[str, Any]:
    return {
        "id": t.id, "name": t.name, "kind": t.kind, "game": t.game, "ruleset": t.ruleset,
        "control": t.control, "control_name": control_names(t.control), "length": t.length,
        "rated": bool(t.rated), "rounds": t.rounds, "minutes": t.minutes, "round": t.round,
        "status": t.status, "starts_at": t.starts_at, "ends_at": t.ends_at,
        "finished_at": t.finished_at, "players": players, "url": f"/tournament/{t.id}",
    }  # fmt: skip


def _name(users: dict[int, UserRow], uid: int | None) -> dict[str, Any] | None:
    if uid is None:
        return None
    u = users.get(uid)
    gone = u is None or u.closed_at is not None
    return {"id": uid, "name": None if gone or u is None else u.username,
            "bot": u is not None and u.bot_at is not None}  # fmt: skip


def _flip(result: str | None) -> str:
    if result == WIN:
        return LOSS
    if result == LOSS:
        return WIN
    return result or NONE


def _game(r: PairingRow, users: dict[int, UserRow]) -> dict[str, Any]:
    return {"round": r.round, "board": r.board, "white": _name(users, r.white),
            "black": _name(users, r.black), "game_id": r.game_id, "status": r.status,
            "result": r.result, "url": f"/live/{r.game_id}" if r.game_id else None,
            "berserk": [side for side, on in (("white", r.berserk_white),
                                              ("black", r.berserk_black)) if on]}  # fmt: skip


def _view(t: TournamentRow, entrants: list[EntrantRow], rows: list[PairingRow],
          users: dict[int, UserRow], user_id: int | None) -> dict[str, Any]:  # fmt: skip
    """The tournament's view: its summary, its table, the games being played, every game."""
    per: dict[int, list[tuple[PairingRow, bool]]] = {e.user_id: [] for e in entrants}
    for r in rows:
        per.setdefault(r.white, []).append((r, True))
        if r.black is not None:
            per.setdefault(r.black, []).append((r, False))
    withdrawn = {e.user_id for e in entrants if e.withdrawn}
    seeded = sorted(entrants, key=lambda e: (-e.rating, e.joined_at, e.user_id))
    ratings = {e.user_id: e.rating for e in entrants}
    standings: list[dict[str, Any]] = []
    if t.kind == "arena":
        for e in seeded:
            played = [(r, first) for r, first in per.get(e.user_id, []) if r.status == "done"]
            line = arena_line([
                ArenaGame(r.result or NONE if first else _flip(r.result),
                          r.berserk_white if first else r.berserk_black,
                          ratings.get((r.black if first else r.white) or 0, 1500.0))
                for r, first in played
            ])  # fmt: skip
            standings.append({"player": _name(users, e.user_id), "points": line.total,
                              "scores": line.points, "fire": line.fire, "on_fire": line.on_fire,
                              "performance": line.performance, "games": len(played),
                              "withdrawn": e.user_id in withdrawn,
                              "rating": round(e.rating)})  # fmt: skip
        standings.sort(key=lambda s: (-s["points"], -(s["performance"] or 0), -s["rating"]))
    else:
        ranks = {e.user_id: n for n, e in enumerate(seeded, start=1)}
        table = swiss_table({
            uid: (ranks.get(uid, len(ranks) + 1), [
                SwissGame(r.black if first else r.white,
                          "none" if r.status != "done" or r.result == "bye"
                          else (r.result or NONE) if first else _flip(r.result),
                          "w" if first else "b", r.result == "bye")
                for r, first in games
            ]) for uid, games in per.items()
        })  # fmt: skip
        for row in table:
            standings.append({"player": _name(users, row.id), "rank": row.rank,
                              "score": row.score / 2, "buchholz": row.buchholz / 2,
                              "sonneborn": row.sonneborn / 4,
                              "withdrawn": row.id in withdrawn,
                              "rating": round(ratings.get(row.id, 1500.0))})  # fmt: skip
    for n, s in enumerate(standings, start=1):
        s["place"] = n
    current = (
        [g for g in rows if g.status in UNFINISHED]
        if t.kind == "arena"
        else [g for g in rows if g.round == t.round]
    )
    me = next((e for e in entrants if e.user_id == user_id), None)
    return {
        **_summary(t, _players(t, entrants, rows)),
        "now": timesource.time(), "berserk": bool(t.berserk),
        "my_game": _mine(rows, user_id, t.kind),
        "standings": standings,
        "pairings": [_game(r, users) for r in current],
        "games": [_game(r, users) for r in rows],
        "joined": me is not None and not me.withdrawn,
    }  # fmt: skip
