"""Games on the server: creating them, seats, moves, rolls, undo, resignation, rematch.

The database is the truth. A game is an append-only log of events; a process holds in memory
only the games it is serving now (a record rebuilt from the log, dropped when idle). A change is
checked against the rules on the in-memory record, then written at the next place of the log in
one transaction with everything that follows from it (the dice rolled after a move, forced
passes, the computer's job, the announcement on the bus). The log's unique ``(game, seq)``
decides a race between processes: the loser's change is taken back in memory, the game is
refreshed from the log, and the request is refused as stale. A per-game asyncio lock only
orders the changes of one process. Database work runs in threads, off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import Table, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ... import load
from ...ai.levels import LEVELS
from ...core import CHANCE, IllegalMove, InvalidPosition, Outcome, UnknownGame
from ...record import Record
from .. import metrics
from ..i18n.engine_words import french
from ..settings import Settings
from ..store.bus import Bus, MemoryBus, PostgresBus
from ..store.db import EventRow, GameRow, JobRow, PlayerRow, SeatRow, now, token_hash
from ..store.dberrors import WRITE_TRIES, is_database_error, is_transient
from ..store.pglog import Append, PgLog, Refused
from ..store.sqlitelog import SqliteLog
from .boards import available
from .people import Person

log = logging.getLogger("ludotheque.service")

MODES = ("local", "computer", "friend")
BOTH = "both"
WATCH = "watch"
Event = tuple[str, dict[str, Any]]
Extra = Callable[[Session], None]
T = TypeVar("T")
EVENTS = cast(Table, EventRow.__table__)
GAMES = cast(Table, GameRow.__table__)


@dataclass(frozen=True)
class Text:
    """A message a player may read, in English and French: both are written where the
    message is raised (one source for each message); ``{name}`` takes ``params``."""

    en: str
    fr: str
    params: dict[str, Any] = field(default_factory=dict)

    def __call__(self, lang: str = "en") -> str:
        template = self.fr if lang == "fr" else self.en
        return template.format(**self.params)


def say(en: str, fr: str, **params: Any) -> Text:
    """A message in both languages (see ``Text``)."""
    return Text(en, fr, params)


class GameError(Exception):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable word for clients,
    ``text`` the message in both languages (``message`` is the English one)."""

    def __init__(self, message: str | Text, code: str, status: int) -> None:
        self.text = message if isinstance(message, Text) else Text(message, message)
        self.message = self.text("en")
        super().__init__(self.message)
        self.code = code
        self.status = status

    def in_language(self, lang: str) -> str:
        return self.text(lang)


class Conflict(Exception):
    """Another process wrote at this place of the game's log first."""


NO_GAME = Text("there is no such game", "cette partie n'existe pas")
UNREADABLE = Text(
    "this game's record cannot be read again; it has been set aside and the server's "
    "operators can see why",
    "le relevé de cette partie ne peut plus être lu ; elle a été mise de côté et les "
    "responsables du serveur savent pourquoi",
)


class Unreadable(Exception):
    """A game's stored log no longer replays (the reason is the message)."""


DATABASE_BUSY = Text(
    "the game is busy (the database refused the change several times); nothing was played: "
    "try again",
    "la partie est occupée (la base de données a refusé la modification plusieurs fois) ; rien "
    "n'a été joué : réessayez",
)
DATABASE_AWAY = Text(
    "the database is unavailable for a moment; nothing was changed: try again shortly",
    "la base de données est indisponible un instant ; rien n'a changé : réessayez bientôt",
)
UNCERTAIN = Text(
    "the database did not confirm this in time: it may have been recorded; the game will "
    "show it once the connection is back",
    "la base de données ne l'a pas confirmé à temps : ce peut être enregistré ; la partie "
    "l'affichera quand la connexion reviendra",
)
DATABASE_DOWN = Text(
    "the database is unavailable for a moment; try again shortly",
    "la base de données est indisponible un instant ; réessayez bientôt",
)
NO_UNDO_RATED = Text(
    "moves are not taken back in a rated game", "on ne reprend pas de coup dans une partie classée"
)
NOTHING_TO_UNDO = Text(
    "there is no move of yours to take back", "vous n'avez aucun coup à reprendre"
)


def _reads_back(game: Any, text: str, state: Any) -> bool:
    """Whether the position string ``text`` (what is stored) reads back as ``state``."""
    try:
        return bool(game.parse_position(text) == state)
    except ValueError:
        return False


def _bad_position(exc: Exception) -> Text:
    text = str(exc)
    return say("invalid position: {text}", "position invalide : {said}", text=text,
               said=french(text) or text)  # fmt: skip


next_epoch = itertools.count(1).__next__
"""A new history epoch (see ``snapshot.since``): unique in this process."""


def new_token() -> str:
    return secrets.token_urlsafe(18)


def rematch_token(token: str) -> str:
    """The token of the same seat holder in the rematch (derived, so nothing needs storing)."""
    return hashlib.sha256(f"rematch:{token}".encode()).hexdigest()[:24]


@dataclass
class GameSession:
    """A game in memory: its description, its record, and what is pending."""

    id: str
    game: str
    ruleset: str
    mode: str
    players: dict[str, str]
    computer_side: str | None
    level: str | None
    record: Record
    seq: int = 0  # the next place in the game's log
    undo_request: str | None = None
    undo_refused: str | None = None  # whose undo request was refused, until the next move
    rematch_id: str | None = None
    rematch_by: str | None = None  # the side that offered the rematch (the first to ask)
    rematch_declined: str | None = None  # the side that turned the offered rematch down
    declined: str | None = None  # a rematch turned down: the side its decliner would have had
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=time.monotonic)
    clients: int = 0  # this process's open sockets on the game (they keep it in memory)
    history_cache: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    history_epoch: int = field(default_factory=next_epoch)
    # the table (see timing.py, people.py and ranking.py): the time control and the clock
    # after the last change (``clocks.Clock``), the log place where the clock was last set,
    # whether the game is rated and listed, who plays each side, since when a player has
    # been away, and how the ratings changed once the game was rated
    control: str | None = None
    clock: Any = None
    clock_seq: int = 0
    rated: bool = False
    public: bool = False
    people: dict[str, Person] = field(default_factory=dict)
    presence: dict[str, float] = field(default_factory=dict)
    rating_changes: dict[str, Any] | None = None
    now: Callable[[], float] = field(default=time.time, repr=False)  # the clocks' time

    @property
    def ply(self) -> int:
        """How many plies (moves and rolls) the game has: the number a move must quote."""
        return len(self.record.moves) + len(self.record.chance)

    @property
    def finished(self) -> bool:
        return self.record.outcome() is not None

    @property
    def computer_due(self) -> bool:
        """Whether the computer is to move now (a job for it is then in the queue)."""
        return (
            self.mode == "computer"
            and not self.finished
            and self.record.state.to_move == self.computer_side
        )

    thinking = computer_due

    def human_sides(self) -> set[str]:
        sides = set(self.record.game_object.sides)
        return sides - {self.computer_side} if self.computer_side else sides


@dataclass(frozen=True)
class Created:
    """A new game and the links that give its seats."""

    session: GameSession
    seats: dict[str, str]  # side (or "both") -> token
    watch: str


def engine_error(exc: Exception) -> GameError:
    """An engine's refusal as a request's refusal (the engine's message, a 422), in French
    from ``engine_words`` (the English behind a French lead-in when it is not known there)."""
    text = str(exc) or "this is not allowed by the rules"
    fr = french(text)
    said = say("{text}", "{said}", text=text, said=fr) if fr else (
        say("{text}", "refusé par les règles : {text}", text=text))  # fmt: skip
    return GameError(said, "illegal", 422)


class GameService:
    """The rules of the app around the rules of the games."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        settings: Settings | None = None,
        bus: Bus | None = None,
        on_change: Callable[[GameSession], Awaitable[None]] | None = None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings or Settings()
        self.bus: Bus = bus or MemoryBus()
        self.on_change = on_change
        self.games: dict[str, GameSession] = {}
        self.seat_cache: dict[str, tuple[str, str]] = {}
        self.loading: dict[str, asyncio.Future[GameSession]] = {}
        self.heard_while_loading: dict[str, int] = {}
        # games whose log does not replay: id -> why (each is logged once, its jobs ended)
        self.unreadable: dict[str, str] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.now: Callable[[], float] = time.time  # the clocks' time (tests set their own)
        self.bus.subscribe("game", self._heard)
        self.bus.on_gap(self.catch_up)
        # SQLite has one writer at a time: one thread for it (more would only wait on its lock)
        sqlite = (
            sessions.kw.get("bind") is not None and sessions.kw["bind"].dialect.name == "sqlite"
        )
        self.executor = ThreadPoolExecutor(1 if sqlite else 8, thread_name_prefix="ludotheque-db")
        bind = sessions.kw.get("bind")
        self.pglog: PgLog | None = None
        if bind is not None and bind.dialect.name == "postgresql":
            url = bind.url.set(drivername="postgresql")
            self.pglog = PgLog(url.render_as_string(hide_password=False))
        self.sqlitelog: SqliteLog | None = None
        if bind is not None and sqlite and isinstance(self.bus, MemoryBus):
            self.sqlitelog = SqliteLog(bind)

    async def run_db(self, fn: Callable[[], T]) -> T:
        """Run database work in a thread, so that the event loop never waits on it."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn)

    def close(self) -> None:
        if self.sqlitelog is not None:  # its connection goes back in the thread that used it
            self.executor.submit(self.sqlitelog.close)
        self.executor.shutdown(wait=False)

    async def aclose(self) -> None:
        """Close what lives on the event loop (the log's connections), then the rest."""
        if self.pglog is not None:
            await self.pglog.close()
        self.close()

    # -- creating and finding games --------------------------------------------------------

    async def create(
        self,
        game: str,
        mode: str,
        ruleset: str | None = None,
        side: str | None = None,
        level: str | None = None,
        position: str | None = None,
        rematch_of: GameSession | None = None,
        rematch_by: str | None = None,
        with_seats: bool = True,
        control: str | None = None,
        rated: bool = False,
        public: bool = False,
        people: dict[str, Person] | None = None,
        tokens: dict[str, str] | None = None,
        claim: Extra | None = None,
        game_id: str | None = None,
        length: int | None = None,
        next_start: str | None = None,
    ) -> Created:
        """Create a game (with its opening rolls, its clock started, and the computer's job if
        it moves first); raises ``GameError`` for anything unknown or invalid.

        ``control`` is a time control (``clocks.TimeControl`` key; ``None``: no clock);
        ``rated`` games need a clock and an account (or a computer level) on each side, given
        in ``people``; ``tokens`` are the seat tokens to use (side or ``watch`` -> token)
        instead of new ones; ``claim`` runs in the transaction that creates the game (the
        lobby's pairing: if it raises, there is no game); ``game_id`` is the new game's id
        (default: a new random one). Games played for points (see ``points``): ``length`` makes
        the first game of a match of that many points; ``next_start`` is the start of the
        next game of a match (the app's, not a position a player chose)."""
        if game not in available():
            raise GameError(
                say("unknown game {game!r}; the games are {games}",
                    "jeu inconnu {game!r} ; les jeux sont {games}",
                    game=game, games=", ".join(available())),
                "unknown-game", 404,
            )  # fmt: skip
        try:
            g = load(game, ruleset)
        except UnknownGame as exc:
            raise GameError(
                say("unknown ruleset: {text}", "variante inconnue : {text}", text=str(exc)),
                "unknown-ruleset", 400,
            ) from None  # fmt: skip
        if mode not in MODES:
            raise GameError(
                say("the mode is one of {modes}", "le mode est l'un de {modes}",
                    modes=", ".join(MODES)),
                "bad-mode", 400,
            )  # fmt: skip
        if side is not None and side not in g.sides:
            raise GameError(
                say("{game} has sides {sides}", "les camps de {game} sont {sides}",
                    game=game, sides=", ".join(g.sides)),
                "bad-side", 400,
            )  # fmt: skip
        if position is not None and mode == "friend":
            raise GameError(
                say("games from a position are for one screen or against the computer",
                    "une partie depuis une position se joue à un écran ou contre "
                    "l'ordinateur"),
                "bad-mode", 400,
            )  # fmt: skip
        computer_side = None
        if mode == "computer":
            level = level or "medium"
            if level not in LEVELS:
                raise GameError(
                    say("the level is one of {levels}", "le niveau est l'un de {levels}",
                        levels=", ".join(LEVELS)),
                    "bad-level", 400,
                )  # fmt: skip
            human = side or g.sides[0]
            computer_side = g.opponent(human)
        else:
            level = None
        from ..clock.table import checked_control

        control = checked_control(g.name, control, rated, mode, people or {}, position)
        from .points import first_start

        app_start = first_start(g, length=length, rated=rated, position=position,
                                next_start=next_start)  # fmt: skip
        try:
            record = Record.new(g, start=position or app_start or None)
        except InvalidPosition as exc:
            raise GameError(_bad_position(exc), "invalid-position", 422) from None
        except ValueError as exc:  # an engine's bare error is still the position's fault
            raise GameError(_bad_position(exc), "invalid-position", 422) from None
        if record.start is not None and not _reads_back(g, record.start, record.states[0]):
            # stored, it would not load again: refuse it now rather than lose the game later
            raise GameError(
                say("invalid position: it cannot be written down and read back as it is",
                    "position invalide : elle ne peut pas être notée puis relue telle quelle"),
                "invalid-position", 422,
            )  # fmt: skip
        players: dict[str, str] = {
            s: (level or "medium") if s == computer_side else "human" for s in g.sides
        }
        people = dict(people or {})
        record.players = {s: people[s].name or who if s in people else who
                          for s, who in players.items()}  # fmt: skip
        game_id = game_id or secrets.token_urlsafe(8)
        given = dict(tokens or {})
        seats: dict[str, str]
        if not with_seats:
            seats = {}
        elif mode == "friend":
            seats = {s: given.get(s) or new_token() for s in g.sides}
        else:
            seats = {BOTH: given.get(BOTH) or new_token()}
        watch = given.get(WATCH) or new_token()
        session = GameSession(
            game_id, g.name, g.ruleset, mode, players, computer_side, level, record,
            control=control, rated=rated, public=public, people=people,
        )  # fmt: skip
        from ..clock.table import new_clock

        session.now = lambda: self.now()
        session.clock = new_clock(session)
        events = self._advance(session)
        self._timed(session, events, self.now())
        row = GameRow(
            id=game_id, game=g.name, ruleset=g.ruleset, mode=mode, start=record.start,
            players=players, computer_side=computer_side, level=level, seed=record.seed or "",
            rematch_of=rematch_of.id if rematch_of else None, control=control, rated=rated,
            public=public,
        )  # fmt: skip

        def first(db: Session) -> None:
            if claim is not None:
                claim(db)
            db.add(row)
            db.flush()
            for seat_side, token in seats.items():
                db.add(SeatRow(token_sha256=token_hash(token), game_id=game_id, side=seat_side))
            db.add(SeatRow(token_sha256=token_hash(watch), game_id=game_id, side=WATCH))
            for side, person in people.items():
                db.add(
                    PlayerRow(
                        game_id=game_id, side=side, user_id=person.user_id,
                        visitor=person.visitor, rating=person.rating,
                        provisional=person.provisional,
                    )
                )  # fmt: skip
            db.flush()

        if rematch_of is None:
            await self._store(session, events, before=first)
        else:
            # the rematch and its mention in the old game's log are one transaction: of two
            # processes creating a rematch at once, one succeeds
            old = rematch_of
            backup = old.record.copy()
            old.rematch_id, old.rematch_by = game_id, rematch_by

            def both(db: Session) -> None:
                first(db)
                self._write(db, session, events)

            offer: dict[str, Any] = {"id": game_id}
            if rematch_by is not None:
                offer["by"] = rematch_by
            try:
                await self._store(old, [("rematch", offer)], before=both)
            except BaseException:
                old.record, old.rematch_id, old.rematch_by = backup, None, None
                raise
            session.seq = len(events)
            session.clock_seq = session.seq
            self._announce_commit(session)
        self.games[game_id] = session
        return Created(session, seats, watch)

    async def seat(self, token: str) -> tuple[GameSession, str]:
        """The game and seat (a side, ``both`` or ``watch``) that ``token`` opens."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise GameError(say("this link is not valid", "ce lien n'est pas valide"),
                            "bad-token", 404)  # fmt: skip
        digest = token_hash(token)
        found = self.seat_cache.get(digest)
        if found is None:

            def lookup() -> tuple[str, str] | None:
                with self.sessions() as db:
                    row = db.get(SeatRow, digest)
                    return None if row is None else (row.game_id, row.side)

            found = await self.run_db(lookup)
            if found is None:
                raise GameError(
                    say("this link does not open any game", "ce lien n'ouvre aucune partie"),
                    "bad-token", 404,
                )  # fmt: skip
            if len(self.seat_cache) > 100_000:
                self.seat_cache.clear()
            self.seat_cache[digest] = found
        return await self.get(found[0]), found[1]

    async def get(self, game_id: str) -> GameSession:
        """A game by id, rebuilt from its log if it is not in memory. A game whose log no
        longer replays is set aside (see ``_set_aside``): ``GameError`` ``unreadable``."""
        session = self.games.get(game_id)
        if session is None:
            if game_id in self.unreadable:
                raise GameError(UNREADABLE, "unreadable", 410)
            pending = self.loading.get(game_id)
            if pending is not None:  # another request is loading it: share its work
                session = await asyncio.shield(pending)
            else:
                future: asyncio.Future[GameSession] = asyncio.get_running_loop().create_future()
                self.loading[game_id] = future
                try:
                    try:
                        session = await self._load(game_id)
                    except Unreadable as exc:
                        await self._set_aside(game_id, str(exc))
                        raise GameError(UNREADABLE, "unreadable", 410) from None
                    self.games[game_id] = session
                    # a change announced while the log was being read may not be in it
                    if self.heard_while_loading.pop(game_id, -1) > session.seq:
                        async with session.lock:
                            await self.refresh(session)
                    future.set_result(session)
                except BaseException as exc:
                    future.set_exception(exc)
                    future.exception()  # retrieved: nobody else may be waiting
                    raise
                finally:
                    del self.loading[game_id]
                    self.heard_while_loading.pop(game_id, None)
        session.last_used = time.monotonic()
        return session

    async def _load(self, game_id: str) -> GameSession:
        if not isinstance(game_id, str) or len(game_id) > 32:
            raise GameError(NO_GAME, "not-found", 404)

        def read() -> tuple[GameRow | None, list[EventRow], dict[str, Person]]:
            with self.sessions() as db:
                row = db.get(GameRow, game_id)
                if row is None:
                    return None, [], {}
                events = db.scalars(
                    select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                ).all()
                from ..rating.ranking import people_of

                return row, list(events), people_of(db, game_id)

        row, events, people = await self.run_db(read)
        if row is None:
            raise GameError(NO_GAME, "not-found", 404)
        place = "its start"
        try:
            record = Record.new(
                load(row.game, row.ruleset), start=row.start, players=dict(row.players),
                seed=row.seed or None,
            )  # fmt: skip
            session = GameSession(
                row.id, row.game, row.ruleset, row.mode, dict(row.players), row.computer_side,
                row.level, record, rematch_id=row.rematch_id, control=row.control,
                rated=bool(row.rated), public=bool(row.public), people=people,
            )  # fmt: skip
            session.now = lambda: self.now()
            for ev in events:
                place = f"entry {ev.seq} ({ev.kind})"
                _replay(session, ev.kind, ev.data)
                session.seq = ev.seq + 1
                if _sets_clock(ev.kind, ev.data):
                    session.clock_seq = session.seq
        except Exception as exc:  # whatever the stored data did, this game alone suffers
            raise Unreadable(f"{place}: {type(exc).__name__}: {exc}") from exc
        return session

    async def _set_aside(self, game_id: str, reason: str) -> None:
        """A game whose log does not replay: remembered (its requests are refused at once,
        without reading it again), said once in the log, and its queued or running jobs
        ended as dead with the reason, so that no worker tries it again and again."""
        if game_id in self.unreadable:
            return
        if len(self.unreadable) > 10_000:
            self.unreadable.clear()
        self.unreadable[game_id] = reason
        log.error("game %s cannot be read from its log and is set aside: %s", game_id, reason)

        def end_jobs() -> None:
            with self.sessions() as db:
                db.execute(
                    update(JobRow)
                    .where(JobRow.game_id == game_id, JobRow.status.in_(("queued", "running")))
                    .values(status="dead", error=f"unreadable game: {reason}"[:2000],
                            finished_at=time.time(), lease_until=None)
                )  # fmt: skip
                db.commit()

        try:
            await self.run_db(end_jobs)
        except Exception:
            log.warning("the jobs of unreadable game %s could not be ended", game_id)

    async def refresh(self, session: GameSession) -> bool:
        """Catch up with the log (changes made by other processes); whether anything came.
        What came is announced to this process's sockets (once the caller lets go of the
        game), whoever asked for the refresh: a process that lost a race tells its sockets
        of the winner's move too."""
        seq = session.seq

        def read() -> list[EventRow]:
            with self.sessions() as db:
                return list(
                    db.scalars(
                        select(EventRow)
                        .where(EventRow.game_id == session.id, EventRow.seq >= seq)
                        .order_by(EventRow.seq)
                    ).all()
                )

        events = await self.run_db(read)
        if session.seq != seq:  # another refresh of this process came first
            return False
        for ev in events:
            _replay(session, ev.kind, ev.data)
            session.seq = ev.seq + 1
            if _sets_clock(ev.kind, ev.data):
                session.clock_seq = session.seq
        if events:
            self.announce_soon(session)
        return bool(events)

    def announce_soon(self, session: GameSession) -> None:
        """Announce ``session`` to this process's sockets once the caller lets go of it."""
        task = asyncio.get_running_loop().create_task(self._announce(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _heard(self, payload: str) -> Awaitable[None] | None:
        """A change announced on the bus: the refresh to make if this process holds the game
        and has not seen the change (decided at once: most notices concern nobody here)."""
        game_id, _, seq_text = payload.partition(" ")
        if not seq_text.isdigit():
            return None
        seq = int(seq_text)
        session = self.games.get(game_id)
        if session is None:
            if game_id in self.loading:  # being read: catch up once it is read
                self.heard_while_loading[game_id] = max(
                    seq, self.heard_while_loading.get(game_id, -1)
                )
            return None
        if session.seq >= seq:
            return None
        if session.clients == 0 and not session.lock.locked():
            # nobody here is looking: forget it rather than read every move of it (it is
            # rebuilt from the log if it is asked for again)
            del self.games[game_id]
            return None
        return self._catch_up(session, seq)

    async def catch_up(self) -> int:
        """Compare the games this process shows to sockets with the log, and refresh (and
        so announce) those that are behind: after a gap in the bus, or now and then in case
        a notice was lost. How many were behind."""
        held = {gid: s.seq for gid, s in self.games.items() if s.clients > 0}
        if not held:
            return 0
        ids = list(held)

        def read() -> list[tuple[str, int]]:
            tops: list[tuple[str, int]] = []
            with self.sessions() as db:
                for i in range(0, len(ids), 500):
                    rows = db.execute(
                        select(EventRow.game_id, func.max(EventRow.seq))
                        .where(EventRow.game_id.in_(ids[i : i + 500]))
                        .group_by(EventRow.game_id)
                    ).all()
                    tops.extend((gid, int(top)) for gid, top in rows)
            return tops

        behind = [gid for gid, top in await self.run_db(read) if top + 1 > held[gid]]
        for gid in behind:
            session = self.games.get(gid)
            if session is not None:
                async with session.lock:
                    await self.refresh(session)
        return len(behind)

    async def _catch_up(self, session: GameSession, seq: int) -> None:
        async with session.lock:
            if session.seq < seq:  # the change may be this process's own, just committed
                await self.refresh(session)

    def forget_idle(self) -> int:
        """Drop the games nobody used for ``idle_seconds`` (they are rebuilt on demand)."""
        limit = time.monotonic() - self.settings.idle_seconds
        idle = [
            gid
            for gid, s in self.games.items()
            if s.clients == 0 and s.last_used < limit and not s.lock.locked()
        ]
        for gid in idle:
            del self.games[gid]
        return len(idle)

    async def archive(self, limit: int = 200) -> list[dict[str, Any]]:
        """Finished games, newest first."""

        def read() -> list[GameRow]:
            with self.sessions() as db:
                return list(
                    db.scalars(
                        select(GameRow)
                        .where(GameRow.finished_at.is_not(None))
                        .order_by(GameRow.finished_at.desc())
                        .limit(limit)
                    ).all()
                )

        rows = await self.run_db(read)
        return [
            {
                "id": r.id,
                "game": r.game,
                "ruleset": r.ruleset,
                "mode": r.mode,
                "players": r.players,
                "winner": r.winner,
                "reason": r.reason,
                "finished_at": r.finished_at.isoformat() if r.finished_at else None,
            }
            for r in rows
        ]

    # -- writing ---------------------------------------------------------------------------

    def _advance(self, session: GameSession) -> list[Event]:
        """Roll the dice whenever they are due and play passes that are forced; the events."""
        record = session.record
        events: list[Event] = []
        while record.outcome() is None:
            state = record.state
            if state.to_move == CHANCE:
                record.roll()
                events.append(("chance", {"text": record.chance[-1]}))
                continue
            moves = state.legal_moves()
            if len(moves) == 1 and str(moves[0]) == "pass":
                record.play(moves[0])
                events.append(("move", {"text": "pass"}))
                continue
            break
        return events

    def _summary(self, session: GameSession, events: list[Event]) -> Append:
        """What writing ``events`` at ``session.seq`` changes besides the log: the game's
        summary row and, when the computer is due, its job."""
        over = session.record.outcome()
        stamp = time.time()
        clock = session.clock
        clocked = any(_sets_clock(kind, data) for kind, data in events)
        deadline = clock.deadline() if clocked and clock is not None else None
        rate = (
            session.rated and over is not None and over.reason not in UNRATED
            and any(kind in ENDINGS for kind, _ in events)
        )  # fmt: skip
        return Append(
            game_id=session.id, seq=session.seq, events=events, stamp=now(),
            rematch_id=session.rematch_id, over=over is not None,
            winner=over.winner if over is not None else None,
            reason=over.reason if over is not None else None,
            to_move=None if over is not None else session.record.state.to_move,
            job_not_before=stamp + self.settings.computer_delay if session.computer_due else None,
            job_created=stamp, notify=isinstance(self.bus, PostgresBus),
            clock_not_before=deadline, clock_reset=clocked, rate=rate,
        )  # fmt: skip

    def _write(self, db: Session, session: GameSession, events: list[Event]) -> None:
        """Append ``events`` at ``session.seq`` with what follows from them: the game's
        summary row, the computer's job when it is due, the announcements."""
        change = self._summary(session, events)
        if events:  # plain statements, no ORM objects: this runs for every move
            db.connection().execute(
                insert(EVENTS),
                [
                    {
                        "game_id": session.id,
                        "seq": change.seq + i,
                        "kind": kind,
                        "data": data,
                        "created_at": change.stamp,
                    }
                    for i, (kind, data) in enumerate(events)
                ],
            )  # fmt: skip  (the unique (game, seq) speaks here)
        end = change.seq + len(events)
        summary: dict[str, Any] = {"updated_at": change.stamp, "rematch_id": change.rematch_id}
        if change.over:
            summary.update(
                finished_at=func.coalesce(GAMES.c.finished_at, change.stamp),
                winner=change.winner, reason=change.reason, to_move=None,
            )  # fmt: skip
        else:
            summary.update(finished_at=None, winner=None, reason=None, to_move=change.to_move)
        # Core statements on the connection: the ORM's bulk machinery costs more than the SQL
        db.connection().execute(update(GAMES).where(GAMES.c.id == session.id).values(**summary))
        if change.clock_reset:  # the game's older flag-fall jobs are obsolete
            db.connection().execute(
                update(JOBS)
                .where(JOBS.c.game_id == session.id, JOBS.c.kind == "clock",
                       JOBS.c.status == "queued")
                .values(status="done", error="obsolete", finished_at=change.job_created)
            )  # fmt: skip
        for kind, not_before in change.jobs():
            db.add(
                JobRow(
                    kind=kind, game_id=session.id, seq=end, status="queued", attempts=0,
                    not_before=not_before, created_at=change.job_created,
                )
            )  # fmt: skip
        if change.wakes_workers:
            self.bus.publish_in(db, "job", session.id)
        self.bus.publish_in(db, "game", f"{session.id} {end}")

    async def _store(
        self,
        session: GameSession,
        events: list[Event],
        *,
        before: Extra | None = None,
        after: Extra | None = None,
    ) -> None:
        """Write ``events`` (already applied to the in-memory game) in one transaction, with
        ``before`` and ``after`` as more work in it. Raises ``Conflict`` if another process
        wrote at this place of the log first; the caller then takes the change back."""

        write: Callable[[], Awaitable[None]]
        if before is None and after is None and self.pglog is not None:
            # the hot path on PostgreSQL: one statement on the event loop (see pglog)
            change, pglog = self._summary(session, events), self.pglog

            async def write() -> None:
                await pglog.append(change)

        elif before is None and after is None and self.sqlitelog is not None:
            # the hot path on SQLite: a few plain statements in the database thread
            change, log = self._summary(session, events), self.sqlitelog

            async def write() -> None:
                await self.run_db(lambda: log.append(change))

        else:
            change = self._summary(session, events)

            def orm_write() -> None:
                with self.sessions() as db:
                    if before is not None:
                        before(db)
                    self._write(db, session, events)
                    if after is not None:
                        after(db)
                    db.commit()

            async def write() -> None:
                await self.run_db(orm_write)

        await self._attempt(session, events, write)
        self._stored(session, events, change.wakes_workers)

    async def _attempt(
        self, session: GameSession, events: list[Event], write: Callable[[], Awaitable[None]]
    ) -> None:
        """Run ``write``: again when the database aborted it (a deadlock: nothing was
        written), up to ``WRITE_TRIES``; ``Conflict`` when another process took the place in
        the log. When the database failed otherwise, the commit may or may not have happened:
        the log says which before anyone is told (``_landed``)."""
        for attempt in itertools.count(1):
            try:
                await write()
                return
            except (Refused, IntegrityError):
                raise Conflict from None
            except Exception as exc:
                if not is_database_error(exc):
                    raise
                if is_transient(exc):
                    if attempt < WRITE_TRIES:
                        await asyncio.sleep(0.01 * attempt * (1 + secrets.randbelow(100) / 100))
                        continue
                    raise GameError(DATABASE_BUSY, "busy", 409) from None
                landed = await self._landed(session, events)
                if landed:
                    log.warning("game %s: the database failed as it committed entry %d, "
                                "which the log holds", session.id, session.seq)  # fmt: skip
                    return
                if landed is None:
                    raise GameError(UNCERTAIN, "uncertain", 503) from None
                raise GameError(DATABASE_AWAY, "unavailable", 503) from None

    async def _landed(self, session: GameSession, events: list[Event]) -> bool | None:
        """After a failure of the database during a write: whether ``events`` are in the log
        at ``session.seq`` (``None``: the log cannot be read now). Other entries there are
        another process's change (``Conflict``)."""
        if not events:
            return None
        first, end = session.seq, session.seq + len(events)

        def read() -> list[tuple[str, Any]]:
            with self.sessions() as db:
                rows = db.execute(
                    select(EventRow.kind, EventRow.data)
                    .where(EventRow.game_id == session.id, EventRow.seq >= first,
                           EventRow.seq < end)
                    .order_by(EventRow.seq)
                ).all()  # fmt: skip
                return [(kind, data) for kind, data in rows]

        try:
            found = await self.run_db(read)
        except Exception:
            return None
        if not found:
            return False
        if _same_entries(found, events):
            return True
        raise Conflict

    def _stored(self, session: GameSession, events: list[Event], wake: bool) -> None:
        """``events`` are in the log: the game's place in it moves on; announce them."""
        for kind, _ in events:
            metrics.moved(kind)
        session.seq += len(events)
        if any(_sets_clock(kind, data) for kind, data in events):
            session.clock_seq = session.seq
        self._announce_commit(session, wake)

    def _announce_commit(self, session: GameSession, wake: bool = False) -> None:
        self.bus.committed("game", f"{session.id} {session.seq}")
        if wake or session.computer_due:
            self.bus.committed("job", session.id)

    async def _change(
        self,
        session: GameSession,
        change: Callable[[], list[Event]],
        after: Extra | None = None,
    ) -> None:
        """Apply ``change`` to the in-memory game (it returns the events to log), write it,
        and take it all back if it was refused or could not be written. If the clock of the
        side to move has run out, the game ends on time instead (and the change is refused)."""
        stamp = self.now()
        if session.clock is not None and not session.finished:
            from ..clock.table import TIME_RAN_OUT, end_event, flagged

            late = await flagged(session, stamp)
            if late is not None:
                await self.apply(session, lambda: [end_event(session, *late)], stamp=stamp)
                self.announce_soon(session)
                raise GameError(TIME_RAN_OUT, "time-out", 409)
        await self.apply(session, change, after, stamp=stamp)

    def _timed(self, session: GameSession, events: list[Event], stamp: float) -> None:
        """The clock after a change (pressed, started or stopped), written into its events."""
        if session.clock is not None:
            from ..clock.table import after_change

            after_change(session, events, stamp)

    async def apply(
        self,
        session: GameSession,
        change: Callable[[], list[Event]],
        after: Extra | None = None,
        *,
        stamp: float,
    ) -> None:
        """``_change`` without the look at the clock first (the caller has looked)."""
        backup = session.record.copy()
        saved = (
            session.undo_request, session.undo_refused, session.rematch_id, session.clock,
            dict(session.presence), session.rating_changes, dict(session.people),
        )  # fmt: skip

        def restore() -> None:
            session.record = backup
            (
                session.undo_request, session.undo_refused, session.rematch_id, session.clock,
                session.presence, session.rating_changes, session.people,
            ) = saved  # fmt: skip

        try:
            events = change()
            self._timed(session, events, stamp)
        except GameError:
            restore()
            raise
        except (IllegalMove, InvalidPosition, ValueError) as exc:
            restore()
            raise engine_error(exc) from None
        try:
            await self._store(session, events, after=after)
        except Conflict:
            restore()
            await self.refresh(session)
            raise GameError(
                say("the game changed meanwhile (another move came first); nothing was played",
                    "la partie a changé entre-temps (un autre coup est arrivé d'abord) ; rien "
                    "n'a été joué"),
                "stale", 409,
            ) from None  # fmt: skip
        except BaseException:
            restore()
            raise

    # -- changes ---------------------------------------------------------------------------

    async def play(self, session: GameSession, seat: str, move: Any, ply: Any) -> None:
        """A move from a seat; ``ply`` is the ply the client saw (stale or replayed moves are
        refused). Rolls that follow are made by the server."""
        async with session.lock:
            if isinstance(ply, int) and ply != session.ply:
                await self.refresh(session)  # the client may know of a move made elsewhere
            self._check_turn(session, seat, ply)
            if not isinstance(move, str) or len(move) > 400:
                raise GameError(
                    say("a move is written in notation, as text",
                        "un coup s'écrit en notation, comme du texte"),
                    "bad-move", 400,
                )  # fmt: skip

            def change() -> list[Event]:
                record = session.record
                parsed = record.state.parse_move(move)
                record.play(parsed)
                session.undo_refused = None
                return [("move", {"text": str(parsed)}), *self._advance(session)]

            await self._change(session, change)
            if session.mode == "friend":
                session.undo_request = None
        await self._announce(session)

    def _check_turn(self, session: GameSession, seat: str, ply: Any) -> None:
        if seat == WATCH:
            raise GameError(say("watchers cannot move", "les spectateurs ne jouent pas"),
                            "not-your-seat", 403)  # fmt: skip
        if session.finished:
            over = session.record.outcome()
            assert over is not None
            raise GameError(
                say("the game is over ({reason})", "la partie est finie ({reason})",
                    reason=over.reason),
                "game-over", 409,
            )  # fmt: skip
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise GameError(
                say("a move must say which ply it answers (an integer)",
                    "un coup doit dire à quel demi-coup il répond (un entier)"),
                "bad-ply", 400,
            )  # fmt: skip
        if ply != session.ply:
            raise GameError(
                say("this move answers an older position: the game has moved on "
                    "(ply {now}, not {ply}); nothing was played",
                    "ce coup répond à une position dépassée : la partie a avancé "
                    "(demi-coup {now}, pas {ply}) ; rien n'a été joué",
                    now=session.ply, ply=ply),
                "stale", 409,
            )  # fmt: skip
        to_move = session.record.state.to_move
        if to_move == CHANCE or to_move is None:
            raise GameError(say("it is nobody's turn to move", "ce n'est au tour de personne"),
                            "not-your-turn", 409)  # fmt: skip
        if seat != BOTH and seat != to_move:
            raise GameError(
                say("it is the {side}' turn, not yours", "c'est au tour des {side}, pas au vôtre",
                    side=to_move),
                "not-your-turn", 409,
            )  # fmt: skip
        if session.mode == "computer" and to_move == session.computer_side:
            raise GameError(say("it is the computer's turn", "c'est au tour de l'ordinateur"),
                            "not-your-turn", 409)  # fmt: skip

    def partial(self, session: GameSession, seat: str, request: Any) -> dict[str, Any]:
        """Part of the current turn, for games whose turns have parts (backgammon's single
        checkers, Defiance and Domain's action before its Command move)."""
        from .boards import board

        adapter = board(session.game)
        if not hasattr(adapter, "partial"):
            raise GameError(
                say("this game's turns have no parts", "les tours de ce jeu n'ont pas d'étapes"),
                "bad-request", 400,
            )  # fmt: skip
        if not isinstance(request, dict):
            raise GameError(say("malformed request", "requête mal formée"), "bad-request", 400)
        state = session.record.state
        if session.finished or state.to_move in (None, CHANCE):
            raise GameError(say("there is no turn to play now", "il n'y a pas de tour à jouer"),
                            "not-your-turn", 409)  # fmt: skip
        try:
            return dict(adapter.partial(state, request))
        except IllegalMove as exc:
            raise engine_error(exc) from None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise GameError(
                say("malformed request: {text}", "requête mal formée : {text}", text=str(exc)),
                "bad-request", 400,
            ) from None  # fmt: skip

    async def undo(self, session: GameSession, seat: str) -> None:
        """Take back the last move of the seat's side (and what followed). Free at one screen
        and against the computer; in friend games it needs the other player's consent."""
        async with session.lock:
            if seat == WATCH:
                raise GameError(say("watchers cannot undo", "les spectateurs n'annulent rien"),
                                "not-your-seat", 403)  # fmt: skip
            if session.mode == "friend":
                raise GameError(
                    say("ask your opponent: undo needs their consent",
                        "demandez à votre adversaire : annuler demande son accord"),
                    "ask", 409,
                )  # fmt: skip
            if session.rated:
                raise GameError(NO_UNDO_RATED, "rated", 409)
            sides = session.human_sides() if seat == BOTH else {seat}
            await self._change(session, lambda: [self._undo_to(session, sides)])
        await self._announce(session)

    def _undo_to(self, session: GameSession, sides: set[str]) -> Event:
        """Take back, in memory, the last move of one of ``sides``; the event that logs it."""
        record = session.record
        if record.outcome() is not None:
            raise GameError(
                say("a finished game is final: it cannot be taken back",
                    "une partie finie est définitive : elle ne peut pas être reprise"),
                "game-over", 409,
            )  # fmt: skip
        states = record.states
        plies = record.plies
        mine = [  # a forced pass is not a move one would take back
            i
            for i, (kind, text) in enumerate(plies)
            if kind == "move" and text != "pass" and states[i].to_move in sides
        ]
        if not mine:
            raise GameError(NOTHING_TO_UNDO, "nothing-to-undo", 409)
        count = len(plies) - mine[-1]
        for _ in range(count):
            record.undo()
        session.undo_request = None
        return ("undo", {"plies": count})

    async def request_undo(self, session: GameSession, seat: str) -> None:
        async with session.lock:
            if session.mode != "friend" or seat not in session.record.game_object.sides:
                raise GameError(
                    say("undo requests are for games between friends",
                        "les demandes d'annulation sont pour les parties entre amis"),
                    "bad-mode", 409,
                )  # fmt: skip
            if session.finished:
                raise GameError(say("the game is over", "la partie est finie"), "game-over", 409)
            if session.rated:
                raise GameError(NO_UNDO_RATED, "rated", 409)
            states, plies = session.record.states, session.record.plies
            if not any(k == "move" and states[i].to_move == seat for i, (k, _) in enumerate(plies)):
                raise GameError(NOTHING_TO_UNDO, "nothing-to-undo", 409)

            def change() -> list[Event]:
                session.undo_request, session.undo_refused = seat, None
                return [("undo-request", {"side": seat})]

            await self._change(session, change)
        await self._announce(session)

    async def answer_undo(self, session: GameSession, seat: str, accept: Any) -> None:
        async with session.lock:
            asker = session.undo_request
            if asker is None:
                raise GameError(say("nobody asked to undo", "personne n'a demandé d'annuler"),
                                "no-request", 409)  # fmt: skip
            if seat == asker or seat not in session.record.game_object.sides:
                raise GameError(say("only the other player answers", "seul l'autre joueur répond"),
                                "not-your-seat", 403)  # fmt: skip
            if not isinstance(accept, bool):
                raise GameError(
                    say("answer yes or no (true or false)", "répondez oui ou non (true ou false)"),
                    "bad-answer", 400,
                )  # fmt: skip

            def change() -> list[Event]:
                session.undo_request = None
                session.undo_refused = None if accept else asker  # the asker is told
                events: list[Event] = [("undo-answer", {"side": seat, "accept": accept})]
                if accept:
                    events.append(self._undo_to(session, {asker}))
                return events

            await self._change(session, change)
        await self._announce(session)

    async def resign(self, session: GameSession, seat: str) -> None:
        async with session.lock:
            if seat == WATCH:
                raise GameError(
                    say("watchers cannot resign", "les spectateurs n'abandonnent pas"),
                    "not-your-seat", 403,
                )  # fmt: skip
            if session.finished:
                raise GameError(say("the game is already over", "la partie est déjà finie"),
                                "game-over", 409)  # fmt: skip
            side = seat
            if seat == BOTH:
                to_move = session.record.state.to_move
                sides = session.human_sides()
                side = str(to_move) if to_move in sides else next(iter(sorted(sides)))

            def change() -> list[Event]:
                session.record.resign(side)
                return [("resign", {"side": side})]

            await self._change(session, change)
        await self._announce(session)

    async def abandon(self, session: GameSession) -> bool:
        """End a game nobody finished: no winner, reason ``abandoned``, and into the archive."""
        async with session.lock:
            await self.refresh(session)
            if session.finished:
                return False

            def change() -> list[Event]:
                session.record.abandon()
                return [("abandon", {})]

            try:
                await self._change(session, change)
            except GameError:
                return False
        await self._announce(session)
        return True

    async def abandon_stale(self, limit: int = 100) -> int:
        """Archive as abandoned the unfinished games with no change for ``abandon_days``."""
        if self.settings.abandon_days <= 0:
            return 0
        cutoff = now() - timedelta(days=self.settings.abandon_days)

        def read() -> list[str]:
            with self.sessions() as db:
                return list(
                    db.scalars(
                        select(GameRow.id)
                        .where(
                            GameRow.finished_at.is_(None),
                            or_(
                                GameRow.updated_at < cutoff,
                                (GameRow.updated_at.is_(None)) & (GameRow.created_at < cutoff),
                            ),
                        )
                        .limit(limit)
                    ).all()
                )

        count = 0
        for game_id in await self.run_db(read):
            count += await self.abandon(await self.get(game_id))
        return count

    async def rematch(self, session: GameSession, seat: str, token: str) -> tuple[GameSession, str]:
        """The rematch, sides swapped: created by whoever asks first, joined by the others.

        Returns the rematch and the asker's token in it. Only hashes of tokens are stored, so
        each holder's new seat is registered when they present their old token; the new token
        derives from the old one, so asking twice gives the same link.
        """
        if seat == WATCH:
            async with session.lock:
                await self.refresh(session)
            if session.rematch_id is None:  # watchers follow a rematch, they do not start one
                raise GameError(
                    say("watchers cannot start a rematch; there is none yet",
                        "les spectateurs ne lancent pas de revanche ; il n'y en a pas encore"),
                    "no-rematch", 409,
                )  # fmt: skip
        from .points import following

        async with session.lock:
            if not session.finished:
                await self.refresh(session)
            if not session.finished:
                raise GameError(
                    say("finish (or resign) the game first",
                        "finissez d'abord la partie (ou abandonnez)"),
                    "not-over", 409,
                )  # fmt: skip
            # games played for points: the next game of the match (same sides), or a new one
            after = following(session.record)
            same = after is not None and after.same_sides
            if session.rematch_id is None:
                human = session.computer_side if session.mode == "computer" else None
                if same and session.computer_side is not None:
                    human = session.record.game_object.opponent(session.computer_side)
                try:
                    from ..rating.ranking import swapped_people

                    await self.create(
                        session.game, session.mode, session.ruleset, side=human,
                        level=session.level,
                        position=session.record.start if after is None else None,
                        rematch_of=session, with_seats=False, control=session.control,
                        rematch_by=seat if seat in session.record.game_object.sides else None,
                        rated=session.rated, public=session.public,
                        people=dict(session.people) if same else swapped_people(session),
                        next_start=None if after is None else after.start,
                    )  # fmt: skip
                except Conflict:  # another process made the rematch first
                    await self.refresh(session)
                    if session.rematch_id is None:
                        raise GameError(
                            say(
                                "the game changed meanwhile; try again",
                                "la partie a changé entre-temps ; réessayez",
                            ),
                            "stale",
                            409,
                        ) from None
                announce = True
            else:
                if seat == session.rematch_declined:
                    raise GameError(
                        say("you declined this rematch", "vous avez refusé cette revanche"),
                        "declined", 409,
                    )  # fmt: skip
                announce = False
        rematch_id = session.rematch_id
        assert rematch_id is not None
        if announce:  # everyone on the old game hears of the rematch
            await self._announce(session)
        new_seat = _rematch_seat(session, seat, same)
        new_token_value = rematch_token(token)
        digest = token_hash(new_token_value)

        def register() -> None:
            with self.sessions() as db:
                if db.get(SeatRow, digest) is None:
                    db.add(SeatRow(token_sha256=digest, game_id=rematch_id, side=new_seat))
                    try:
                        db.commit()
                    except IntegrityError:  # registered at the same instant elsewhere
                        db.rollback()

        await self.run_db(register)
        return await self.get(rematch_id), new_token_value

    async def decline_rematch(self, session: GameSession, seat: str) -> None:
        """The other player turns the rematch down. Both logs say so, in one transaction:
        the old game's (its offer is not shown again) and the rematch's, where the player
        who offered it waits (they are told)."""
        async with session.lock:
            await self.refresh(session)
            sides = session.record.game_object.sides
            if session.mode != "friend" or seat not in sides:
                raise GameError(
                    say("rematch offers are for games between friends",
                        "les propositions de revanche sont pour les parties entre amis"),
                    "bad-mode", 409,
                )  # fmt: skip
            rematch_id = session.rematch_id
            if rematch_id is None or not session.finished:
                raise GameError(say("nobody offered a rematch", "personne n'a proposé de revanche"),
                                "no-rematch", 409)  # fmt: skip
            if seat == session.rematch_by:
                raise GameError(
                    say("only the other player answers", "seul l'autre joueur répond"),
                    "not-your-seat", 403,
                )  # fmt: skip
            if session.rematch_declined is not None:
                return  # said already (a second click, or another tab)
            from .points import following

            after = following(session.record)
            new_side = _rematch_seat(session, seat, after is not None and after.same_sides)
            new = await self.get(rematch_id)
            async with new.lock:
                await self.refresh(new)
                told: list[Event] = [("declined", {"side": new_side})]
                session.rematch_declined, new.declined = seat, new_side

                def tell(db: Session) -> None:
                    self._write(db, new, told)

                try:
                    await self._store(session, [("rematch-decline", {"side": seat})], before=tell)
                except Conflict:  # another process wrote in one of the two logs first
                    session.rematch_declined, new.declined = None, None
                    raise GameError(
                        say("the game changed meanwhile; try again",
                            "la partie a changé entre-temps ; réessayez"),
                        "stale", 409,
                    ) from None  # fmt: skip
                except BaseException:
                    session.rematch_declined, new.declined = None, None
                    raise
                new.seq += len(told)
                self._announce_commit(new)
        await self._announce(session)
        await self._announce(new)

    # -- the computer ----------------------------------------------------------------------

    async def computer_move(self, game_id: str, seq: int, move: str, done: Extra) -> bool:
        """Play the computer's ``move`` if the game is still where the job found it (log
        position ``seq``); ``done`` runs in the same transaction (it closes the job). Whether
        the move was played."""
        session = await self.get(game_id)
        async with session.lock:
            await self.refresh(session)
            if session.seq != seq or not session.computer_due:
                return False

            def change() -> list[Event]:
                record = session.record
                parsed = record.state.parse_move(move)
                record.play(parsed)
                return [("move", {"text": str(parsed)}), *self._advance(session)]

            try:
                await self._change(session, change, after=done)
            except GameError as exc:
                if exc.code in ("stale", "time-out"):
                    return False
                raise
        await self._announce(session)
        return True

    async def resume_legacy(self) -> None:
        """Games from before the job queue whose computer is to move get their job."""

        def read() -> list[str]:
            with self.sessions() as db:
                return list(
                    db.scalars(
                        select(GameRow.id).where(
                            GameRow.finished_at.is_(None),
                            GameRow.updated_at.is_(None),
                            GameRow.mode == "computer",
                        )
                    ).all()
                )

        for game_id in await self.run_db(read):
            session = await self.get(game_id)
            async with session.lock:
                await self._store(session, [])

    async def _announce(self, session: GameSession) -> None:
        if self.on_change is not None:
            await self.on_change(session)


ENDINGS = frozenset({"move", "resign", "end", "abandon"})
"""The kinds of log entries that may end a game."""
UNRATED = frozenset({"aborted", "abandoned"})
"""Ends that never count for ratings."""
JOBS = cast(Table, JobRow.__table__)


def _same_entries(found: list[tuple[str, Any]], events: list[Event]) -> bool:
    """Whether log entries read back are ``events`` (compared as the database keeps JSON)."""
    return json.dumps(found, sort_keys=True) == json.dumps(
        [[kind, json.loads(json.dumps(data))] for kind, data in events], sort_keys=True
    )


def _sets_clock(kind: str, data: dict[str, Any]) -> bool:
    """Whether a log entry sets the game's clock (a ``clock`` entry, or any that carries the
    clock's state after its change)."""
    return kind == "clock" or "clock" in data


def _rematch_seat(session: GameSession, seat: str, same: bool) -> str:
    """The seat that ``seat`` of ``session`` has in its rematch: the other side between
    friends (sides swap), the same side for the next game of a match, and watchers watch."""
    game = session.record.game_object
    if session.mode == "friend" and seat in game.sides and not same:
        return str(game.opponent(seat))
    return seat


def _replay(session: GameSession, kind: str, data: dict[str, Any]) -> None:
    """Apply one logged event to a game being rebuilt."""
    record = session.record
    if _sets_clock(kind, data):
        from ..clock.controls import Clock

        session.clock = Clock.from_dict(data if kind == "clock" else data["clock"])
    if kind in ("move", "chance"):
        record.play(data["text"])
        if kind == "move":
            session.undo_refused = None
    elif kind == "undo":
        for _ in range(int(data["plies"])):
            record.undo()
        session.undo_request = None
    elif kind == "resign":
        record.resign(data["side"])
    elif kind == "abandon":
        record.abandon()
    elif kind == "undo-request":
        session.undo_request, session.undo_refused = data["side"], None
    elif kind == "undo-answer":
        session.undo_refused = None if data.get("accept") else session.undo_request
        session.undo_request = None
    elif kind == "rematch":
        session.rematch_id = data["id"]
        session.rematch_by = data.get("by")
    elif kind == "rematch-decline":
        session.rematch_declined = data["side"]
    elif kind == "declined":
        session.declined = data["side"]
    elif kind == "end":  # decided by the clock or a player's absence: see timing.py
        record.result = Outcome(data["winner"], data["reason"])
    elif kind == "gone":
        session.presence[data["side"]] = float(data["at"])
    elif kind == "back":
        session.presence.pop(data["side"], None)
    elif kind == "rated":
        session.rating_changes = data
    elif kind == "seated":  # a signed-in player took their seat (see ranking.sit_down)
        session.people[data["side"]] = Person(
            data["user_id"], data["name"], None, None, data["rating"], data["provisional"]
        )
        record.players[data["side"]] = data["name"]
