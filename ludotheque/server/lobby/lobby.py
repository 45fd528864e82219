"""The lobby: open challenges, quick pairing by rating, challenges to a named player, and the
games being played now.

Seeks are rows of ``seeks`` (the rules of seeking and pairing are ``matchmaking``'s). The
database decides every pairing: a game is created in the same transaction as the conditional
update that takes its seeks from ``open`` to ``paired`` (``status = 'open'`` in the
``WHERE``), so of two processes accepting one challenge, or pairing one seek, exactly one
makes a game. Quick pairing runs in waves (every two seconds while seeks wait, and at once when
one comes) in every process; a wave that loses a race only made no game.

Changes are announced on the bus's ``lobby`` channel: ``seeks`` (the list changed) and
``start <game id> <who> <who>`` (a game was made for these two), so that every process's
lobby pages update live, and both players are sent to their game wherever they are connected.
A seek lives while its owner's lobby page is open: the process that holds the page renews it
every ten seconds and cancels it when the page closes; a seek not renewed for 45 seconds
(its process died) is gone.

Lobby games are games between friends whose seat links derive from the server's secret and
the game (``seat_token``): only hashes are stored, as for every seat, and a player finds their
seat again through their account or visitor cookie (``/resume/<game id>``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from ... import load
from .. import timesource
from ..accounts.identity import Who, player_key
from ..accounts.moderation import check_not_banned
from ..accounts.rules import username_key
from ..accounts.users import Users
from ..clock.controls import control_names
from ..errors import GameError, say
from ..play.boards import available
from ..play.people import Person
from ..play.points import CASUAL, NOT_RATED
from ..play.service import GameService
from ..play.session import WATCH
from ..rating.ranking import RATED_RULESETS, person, rating_of
from ..store.bus import Bus
from ..store.db import GameRow, PlayerRow, SeekRow, UserRow, now
from ..store.dberrors import Outage
from .pairing import Seek, check_accept, make_seek, pair
from .presence import Presence, online

log = logging.getLogger("ludotheque.lobby")

RENEW_SECONDS = 10.0  # a process renews the seeks of the lobby pages it holds this often
STALE_SECONDS = 45.0  # a seek not renewed for this long is gone
DECLINED_SECONDS = 60.0  # how long a challenger's lobby page is told of a declined challenge
WAVE_SECONDS = 2.0  # quick pairing runs this often while seeks wait
PAIRED_RECENTLY = 120.0  # after a gap in the bus, pages of seeks paired this recently are told
GAMES_SECONDS = 10.0  # the list of games being played is read again this often
MAX_OPEN = 3  # open challenges per player at once
LISTED_GAMES = 30

SEEK_GONE = say(
    "this challenge is no longer open (someone was quicker, or it was withdrawn)",
)
NO_SUCH_PLAYER = say("there is no player called {name}")
NOT_YOURSELF = say("you cannot challenge yourself")
TOO_MANY = say(
    "you have {n} open challenges already; withdraw one first",
    n=MAX_OPEN,
)
RATED_CLOCK = say("a rated game needs a time control")
NOT_PLAYED_HERE = say(
    "these rules are not played in the lobby yet",
)


class SeekGone(Exception):
    """The seek was paired, withdrawn or gone before this pairing could take it."""


def seat_token(secret: bytes, game_id: str, side: str) -> str:
    """The seat link token of ``side`` (or ``watch``) in a lobby game: derived from the
    server's secret, so no process needs to store it (only its hash is, as for every seat)."""
    mac = hmac.new(secret, f"seat\0{game_id}\0{side}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()


@dataclass(frozen=True)
class Player:
    """Someone who gets a seat in a lobby game: an account, or an anonymous visitor."""

    key: str  # Who.key
    user_id: int | None
    visitor: str | None


def _player(row: SeekRow) -> Player:
    return Player(player_key(row.user_id, row.visitor), row.user_id, row.visitor)


def _of(who: Who) -> Player:
    assert who.key is not None
    return Player(who.key, who.user.id if who.user else None, who.visitor)


def _owned_by(who: Who) -> Any:
    if who.user is not None:
        return SeekRow.user_id == who.user.id
    return SeekRow.visitor == who.visitor


def _seek(row: SeekRow) -> Seek:
    return Seek(
        row.id, _player(row).key, row.game, row.ruleset, row.control, bool(row.rated),
        row.created_at, row.rating, row.deviation, row.side, row.user_id is not None,
        row.opponent_name,
    )  # fmt: skip


class Lobby:
    """This process's part of the lobby: its pages' sockets, and the work any process does."""

    def __init__(self, service: GameService, users: Users, bus: Bus, secret: bytes) -> None:
        self.service = service
        self.users = users
        self.bus = bus
        self.secret = secret
        self.sockets: dict[Any, Who] = {}
        self.seeks: list[SeekRow] = []
        self.bots: set[int] = set()  # the bot accounts among the seekers
        self.games: list[dict[str, Any]] = []
        self.game_players: dict[str, frozenset[str]] = {}  # game id -> its players' keys
        self.read_at = 0.0
        self.games_at = 0.0
        self.dirty = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()
        self.presence = Presence(service, bus)
        self.online: dict[str, Any] = {"count": 0, "anonymous": 0, "players": []}
        bus.subscribe("lobby", self._heard)
        bus.on_gap(self.catch_up)

    def now(self) -> float:
        return timesource.time()

    # -- announcements ---------------------------------------------------------------------

    def _publish_in(self, db: Session, payload: str) -> None:
        self.bus.publish_in(db, "lobby", payload)

    def _heard(self, payload: str) -> None:
        """A notice: the list changed (read it again soon), or a game was made for someone
        whose page this process holds (send them to it)."""
        kind, _, rest = payload.partition(" ")
        if kind == "start":
            game_id, _, keys = rest.partition(" ")
            for socket, who in list(self.sockets.items()):
                if who.key in keys.split():
                    self._send(socket, {"type": "start", "url": f"/resume/{game_id}"})
        self.dirty.set()

    async def catch_up(self) -> None:
        """After a gap in the bus: the list is read again, and a page here whose seek was
        paired meanwhile (its ``start`` notice unheard) is sent to its game."""
        self.dirty.set()
        keys = {who.key for who in self.sockets.values() if who.key is not None}
        if not keys:
            return
        recent = now() - timedelta(seconds=PAIRED_RECENTLY)

        def read() -> list[tuple[str, str]]:
            with self.service.sessions() as db:
                rows = db.execute(
                    select(SeekRow)
                    .join(GameRow, GameRow.id == SeekRow.game_id)
                    .where(SeekRow.status == "paired", GameRow.created_at > recent,
                           GameRow.finished_at.is_(None))
                ).scalars().all()  # fmt: skip
                return [(row.game_id or "", _player(row).key) for row in rows]

        for game_id, key in await self.service.run_db(read):
            if key not in keys:
                continue
            for socket, who in list(self.sockets.items()):
                if who.key == key:
                    self._send(socket, {"type": "start", "url": f"/resume/{game_id}"})

    def _send(self, socket: Any, message: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._deliver(socket, message))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _deliver(self, socket: Any, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await socket.send_json(message)

    # -- reading -----------------------------------------------------------------------------

    async def refresh(self, games: bool = False) -> None:
        """Read the open seeks and who is online (and the games being played) again."""
        stamp = self.now()
        fresh = stamp - STALE_SECONDS

        def read() -> tuple[list[SeekRow], dict[str, Any], Playing | None, set[int]]:
            with self.service.sessions() as db:
                seeks = list(
                    db.scalars(
                        select(SeekRow)
                        .where(SeekRow.status == "open", SeekRow.seen_at > fresh)
                        .order_by(SeekRow.created_at)
                        .limit(300)
                    ).all()
                )
                seeks += db.scalars(
                    select(SeekRow)
                    .where(SeekRow.status == "declined",
                           SeekRow.seen_at > stamp - DECLINED_SECONDS)
                    .order_by(SeekRow.created_at)
                    .limit(100)
                ).all()  # fmt: skip
                ids = {s.user_id for s in seeks if s.user_id is not None}
                bots = set(
                    db.scalars(
                        select(UserRow.id).where(UserRow.id.in_(ids), UserRow.bot_at.is_not(None))
                    ).all()
                ) if ids else set()  # fmt: skip
                return seeks, online(db, stamp), (_playing(db) if games else None), bots

        seeks, here, playing, bots = await self.service.run_db(read)
        self.seeks = seeks
        self.bots = bots
        self.online = here
        self.read_at = timesource.monotonic()
        if playing is not None:
            self.games, self.game_players = playing
            self.games_at = timesource.monotonic()

    def view(self, who: Who) -> dict[str, Any]:
        """What ``who``'s lobby page shows: the open challenges they may see, their own
        quick-pairing seek, the challenges to them, the games being played, who is online,
        and their challenges to a named player declined in the last minute."""
        me = _of(who) if who.key is not None else None
        my_key = username_key(who.user.username) if who.user is not None else None
        seeks, quick, declined = [], None, []
        for row in self.seeks:
            mine = me is not None and _player(row).key == me.key
            if row.status == "declined":  # (read for its challenger only, for a minute)
                if mine:
                    declined.append({"id": row.id, "by": row.opponent_name})
                continue
            if row.kind == "quick":
                if mine:
                    quick = _seek_view(row, True, False, self.bots)
                continue
            to_me = row.opponent_key is not None and row.opponent_key == my_key
            if row.opponent_key is not None and not (mine or to_me):
                continue
            seeks.append(_seek_view(row, mine, to_me, self.bots))
        games = self.games
        if me is not None:  # the reader's own games: theirs to go back to, not to watch
            games = [{**g, "mine": True, "url": f"/resume/{g['id']}"}
                     if me.key in self.game_players.get(g["id"], ()) else g
                     for g in games]  # fmt: skip
        return {"type": "lobby", "seeks": seeks, "quick": quick, "games": games,
                "signed_in": who.user is not None, "online": self.online,
                "declined": declined}  # fmt: skip

    # -- seeking -----------------------------------------------------------------------------

    async def post(self, who: Who, spec: dict[str, Any]) -> dict[str, Any]:
        """A new seek of ``who``: ``kind`` ``open`` (an open challenge, or one to the player
        named ``opponent``) or ``quick``; game, ruleset, control, rated, side. A quick seek
        replaces the owner's other one and is paired at once if it can be."""
        if who.key is None:
            raise GameError(SEEK_GONE, "bad-seek", 400)
        await self._not_banned(who)
        kind = "quick" if spec.get("kind") == "quick" else "open"
        game = str(spec.get("game") or "")
        if game not in available():
            raise GameError(say("unknown game {g!r}", g=game[:40]),
                            "bad-seek", 400)  # fmt: skip
        ruleset = spec.get("ruleset") or RATED_RULESETS[game][0]
        if ruleset not in RATED_RULESETS.get(game, ()):
            raise GameError(NOT_PLAYED_HERE, "bad-seek", 400)
        control = spec.get("control") or None
        rated = bool(spec.get("rated"))
        if rated and control is None:
            raise GameError(RATED_CLOCK, "bad-seek", 400)
        if rated and (game, ruleset) in CASUAL:  # backgammon's money games
            raise GameError(NOT_RATED, "bad-seek", 400)
        opponent_name: str | None = None
        if kind == "open" and spec.get("opponent"):
            target = await self.users.named(str(spec["opponent"]))
            if target is None or target.level is not None or target.closed:
                raise GameError(
                    NO_SUCH_PLAYER.given(name=str(spec["opponent"])[:40]),
                    "no-such-player", 404,
                )  # fmt: skip
            if who.user is not None and target.id == who.user.id:
                raise GameError(NOT_YOURSELF, "bad-seek", 400)
            opponent_name = target.username
        user = who.user
        stamp = self.now()
        seek_id = secrets.token_urlsafe(12)

        def write() -> Seek:
            with self.service.sessions() as db:
                rating = rating_of(db, user.id, game, ruleset) if user is not None else None
                seek = make_seek(
                    id=seek_id, player=who.key or "", game=game, ruleset=ruleset,
                    control=control, rated=rated, since=stamp,
                    rating=rating.rating if rating else 1500.0,
                    deviation=rating.deviation if rating else 500.0,
                    side=spec.get("side") or None, account=user is not None,
                    opponent=opponent_name,
                )  # fmt: skip
                mine = select(SeekRow).where(_owned_by(who), SeekRow.status == "open")
                if kind == "quick":
                    db.execute(
                        update(SeekRow)
                        .where(_owned_by(who), SeekRow.status == "open", SeekRow.kind == "quick")
                        .values(status="cancelled")
                    )
                elif len(db.scalars(mine.where(SeekRow.kind == "open")).all()) >= MAX_OPEN:
                    raise GameError(TOO_MANY, "too-many-seeks", 409)
                db.add(
                    SeekRow(
                        id=seek.id, kind=kind, user_id=user.id if user else None,
                        visitor=who.visitor, name=user.username if user else None,
                        game=seek.game, ruleset=seek.ruleset, control=seek.control,
                        rated=seek.rated, side=seek.side,
                        opponent_key=username_key(opponent_name) if opponent_name else None,
                        opponent_name=opponent_name, rating=seek.rating,
                        deviation=seek.deviation, created_at=stamp, seen_at=stamp,
                        status="open",
                    )
                )  # fmt: skip
                self._publish_in(db, "seeks")
                db.commit()
                return seek

        seek = await self.service.run_db(write)
        self.bus.committed("lobby", "seeks")
        if kind == "quick":
            await self.wave()
        return {"id": seek.id}

    async def _not_banned(self, who: Who) -> None:
        """A banned account neither posts nor accepts (``moderation.Banned``)."""
        user_id = who.user.id if who.user is not None else None
        await check_not_banned(self.service.run_db, self.service.sessions, user_id)

    async def _withdraw(self, who: Who, seek_id: str, status: str) -> None:
        """Take ``seek_id`` out of the lobby: its owner cancels it, or the player it names
        declines it."""
        my_key = username_key(who.user.username) if who.user is not None else None

        def write() -> int:
            with self.service.sessions() as db:
                whose = (
                    _owned_by(who) if status == "cancelled"
                    else SeekRow.opponent_key == (my_key or "\0")
                )  # fmt: skip
                done = db.execute(
                    update(SeekRow)
                    .where(SeekRow.id == seek_id, SeekRow.status == "open", whose)
                    .values(status=status, seen_at=self.now())  # (a decline's time: shown)
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    self._publish_in(db, "seeks")
                db.commit()
                return int(done.rowcount)  # type: ignore[attr-defined]

        if not await self.service.run_db(write):
            raise GameError(SEEK_GONE, "seek-gone", 409)
        self.bus.committed("lobby", "seeks")

    async def cancel(self, who: Who, seek_id: str) -> None:
        await self._withdraw(who, seek_id, "cancelled")

    async def decline(self, who: Who, seek_id: str) -> None:
        await self._withdraw(who, seek_id, "declined")

    async def accept(self, who: Who, seek_id: str) -> str:
        """``who`` accepts an open challenge: the game is made (or ``SEEK_GONE``); the id of
        the game."""
        if who.key is None:
            raise GameError(SEEK_GONE, "seek-gone", 409)
        await self._not_banned(who)

        def read() -> SeekRow | None:
            with self.service.sessions() as db:
                return db.get(SeekRow, seek_id)

        row = await self.service.run_db(read)
        if row is None or row.status != "open" or row.kind != "open":
            raise GameError(SEEK_GONE, "seek-gone", 409)
        seek = _seek(row)
        user = who.user
        check_accept(seek, who.key, account=user is not None,
                     username=user.username if user else None)  # fmt: skip
        sides = load(row.game, row.ruleset).sides
        first = row.side if row.side is not None else sides[secrets.randbelow(2)]
        other = sides[1] if first == sides[0] else sides[0]
        return await self._start(row, {first: _player(row), other: _of(who)}, [row.id])

    async def wave(self) -> int:
        """Pair the quick seeks that fit (see ``matchmaking.pair``); the games made."""
        stamp = self.now()

        def read() -> list[SeekRow]:
            with self.service.sessions() as db:
                return list(
                    db.scalars(
                        select(SeekRow).where(
                            SeekRow.status == "open", SeekRow.kind == "quick",
                            SeekRow.seen_at > stamp - STALE_SECONDS,
                        )
                    ).all()
                )  # fmt: skip

        rows = {row.id: row for row in await self.service.run_db(read)}
        made = 0
        for pairing in pair([_seek(r) for r in rows.values()], stamp):
            players = {side: _player(rows[s.id]) for side, s in pairing.sides.items()}
            first = rows[pairing.seeks[0].id]
            try:
                await self._start(first, players, [s.id for s in pairing.seeks])
                made += 1
            except GameError as exc:
                if exc.code != "seek-gone":
                    log.warning("quick pairing failed: %s", exc.message)
        return made

    async def _start(self, like: SeekRow, players: dict[str, Player], seek_ids: list[str]) -> str:
        """Make the game of ``like``'s kind between ``players`` (side -> player), taking
        ``seek_ids`` out of the lobby in the same transaction; its id."""
        game_id = secrets.token_urlsafe(8)
        game, ruleset = like.game, like.ruleset

        def who_plays() -> dict[str, Person]:
            with self.service.sessions() as db:
                return {
                    side: person(db, p.user_id, game, ruleset, visitor=p.visitor)
                    if p.user_id is not None
                    else Person(visitor=p.visitor)
                    for side, p in players.items()
                }

        people = await self.service.run_db(who_plays)
        keys = " ".join(p.key for p in players.values())
        notice = f"start {game_id} {keys}"

        fresh = self.now() - STALE_SECONDS

        def claim(db: Session) -> None:
            for seek_id in seek_ids:
                taken = db.execute(
                    update(SeekRow)
                    .where(SeekRow.id == seek_id, SeekRow.status == "open",
                           SeekRow.seen_at > fresh)
                    .values(status="paired", game_id=game_id)
                )  # fmt: skip
                if taken.rowcount != 1:  # type: ignore[attr-defined]
                    raise SeekGone(seek_id)
            self._publish_in(db, notice)

        tokens = {side: seat_token(self.secret, game_id, side) for side in players}
        tokens[WATCH] = seat_token(self.secret, game_id, WATCH)
        try:
            await self.service.create(
                game, "friend", ruleset, control=like.control, rated=bool(like.rated),
                public=True, people=people, tokens=tokens, claim=claim, game_id=game_id,
            )  # fmt: skip
        except SeekGone:
            raise GameError(SEEK_GONE, "seek-gone", 409) from None
        self.bus.committed("lobby", notice)
        return game_id

    # -- pages -----------------------------------------------------------------------------

    def joined(self, socket: Any, who: Who) -> None:
        self.sockets[socket] = who

    def left(self, socket: Any) -> None:
        """A lobby page closed: its owner's open seeks go (in a task of its own: the socket's
        may be cancelled), unless another of their pages here is still open."""
        who = self.sockets.pop(socket, None)
        if who is None or who.key is None or any(w.key == who.key for w in self.sockets.values()):
            return
        task = asyncio.get_running_loop().create_task(self._withdraw_all(who))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _withdraw_all(self, who: Who) -> None:
        def write() -> int:
            with self.service.sessions() as db:
                done = db.execute(
                    update(SeekRow)
                    .where(_owned_by(who), SeekRow.status == "open")
                    .values(status="cancelled")
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    self._publish_in(db, "seeks")
                db.commit()
                return int(done.rowcount)  # type: ignore[attr-defined]

        with contextlib.suppress(Exception):
            if await self.service.run_db(write):
                self.bus.committed("lobby", "seeks")

    async def _renew(self) -> None:
        """Keep the seeks of the pages held here alive; let the others' go."""
        stamp = self.now()
        users = {w.user.id for w in self.sockets.values() if w.user is not None}
        visitors = {w.visitor for w in self.sockets.values() if w.visitor}

        def write() -> None:
            with self.service.sessions() as db:
                if users or visitors:
                    db.execute(
                        update(SeekRow)
                        .where(SeekRow.status == "open",
                               or_(SeekRow.user_id.in_(users), SeekRow.visitor.in_(visitors)))
                        .values(seen_at=stamp)
                    )  # fmt: skip
                db.execute(
                    update(SeekRow)
                    .where(SeekRow.status == "open", SeekRow.seen_at < stamp - STALE_SECONDS)
                    .values(status="expired")
                )
                db.commit()

        await self.service.run_db(write)

    async def push(self) -> None:
        """Send every lobby page here its view."""
        for socket, who in list(self.sockets.items()):
            await self._deliver(socket, self.view(who))

    async def run(self, stop: asyncio.Event) -> None:
        """Until ``stop``: pair quick seeks, keep seeks alive, update the pages (and keep
        this process's people online)."""
        beats = asyncio.get_running_loop().create_task(self.presence.run(stop))
        try:
            await self._rounds(stop)
        finally:
            beats.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beats
            await self.presence.forget()

    async def _rounds(self, stop: asyncio.Event) -> None:
        outage = Outage(log, "the lobby's round")
        last_renew = last_wave = 0.0
        while not stop.is_set():
            try:
                moment = timesource.monotonic()
                if moment - last_renew >= RENEW_SECONDS:
                    last_renew = moment
                    await self._renew()
                if moment - last_wave >= WAVE_SECONDS and any(
                    s.kind == "quick" for s in self.seeks
                ):
                    last_wave = moment
                    await self.wave()
                if self.sockets and (
                    self.dirty.is_set() or moment - self.games_at >= GAMES_SECONDS
                ):
                    self.dirty.clear()
                    await self.refresh(games=True)
                    await self.push()
                elif not self.sockets and moment - self.read_at >= WAVE_SECONDS:
                    self.dirty.clear()
                    await self.refresh()  # quick seeks of other processes' pages pair here too
                outage.succeeded()
            except Exception as exc:
                outage.failed(exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.dirty.wait(), 0.25 if self.sockets else 1.0)


def _seek_view(row: SeekRow, mine: bool, to_me: bool, bots: set[int]) -> dict[str, Any]:
    return {
        "id": row.id, "kind": row.kind, "name": row.name, "rating": round(row.rating),
        "provisional": row.deviation >= 110.0 or row.user_id is None, "game": row.game,
        "ruleset": row.ruleset, "control": row.control,
        "control_name": control_names(row.control), "rated": bool(row.rated), "side": row.side,
        "opponent": row.opponent_name, "mine": mine, "to_me": to_me,
        "bot": row.user_id in bots,
    }  # fmt: skip


Playing = tuple[list[dict[str, Any]], dict[str, frozenset[str]]]
"""The lobby games being played, and who plays each (see ``_playing``)."""


def _playing(db: Session) -> Playing:
    """The lobby games not finished, newest first, with their players; and who plays each
    (``Who.key``s: kept here, never shown, so that a player's own game reads as theirs)."""
    games = db.scalars(
        select(GameRow)
        .where(GameRow.public.is_(True), GameRow.finished_at.is_(None))
        .order_by(GameRow.created_at.desc())
        .limit(LISTED_GAMES)
    ).all()
    if not games:
        return [], {}
    rows = db.execute(
        select(PlayerRow, UserRow)
        .outerjoin(UserRow, UserRow.id == PlayerRow.user_id)
        .where(PlayerRow.game_id.in_([g.id for g in games]))
    ).all()
    names: dict[str, dict[str, dict[str, Any]]] = {}
    keys: dict[str, set[str]] = {}
    for p, u in rows:
        if p.user_id is not None or p.visitor:
            keys.setdefault(p.game_id, set()).add(player_key(p.user_id, p.visitor))
        names.setdefault(p.game_id, {})[p.side] = {
            "name": u.username if u is not None and u.closed_at is None else None,
            "rating": None if p.rating is None else round(p.rating),
            "provisional": bool(p.provisional),
            "bot": u is not None and u.bot_at is not None,
        }
    return [
        {"id": g.id, "game": g.game, "ruleset": g.ruleset, "control": g.control,
         "control_name": control_names(g.control), "rated": bool(g.rated),
         "players": names.get(g.id, {}), "url": f"/live/{g.id}", "mine": False}
        for g in games
    ], {game_id: frozenset(k) for game_id, k in keys.items()}  # fmt: skip
