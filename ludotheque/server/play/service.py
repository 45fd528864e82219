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

import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from ... import load
from ...ai.levels import levels_of
from ...core import CHANCE, IllegalMove, InvalidPosition, UnknownGame
from ...record import Record
from .. import timesource
from ..errors import GameError, say
from ..i18n.refusals import refused
from ..settings import Settings
from ..store.bus import Bus, MemoryBus
from ..store.db import GameRow, PlayerRow, SeatRow, now, token_hash
from ..store.pglog import PgLog
from ..store.sqlitelog import SqliteLog
from .boards import available, board
from .collaborators import ClockRules, MatchRules
from .database import Database
from .memory import Games, record_time
from .people import Person
from .refusals import bad_position, engine_error, reads_back
from .session import BOTH, MODES, WATCH, Created, Event, Extra, GameSession, new_token
from .writer import Writer

log = logging.getLogger("ludotheque.service")
T = TypeVar("T")


class GameService:
    """The rules of the app around the rules of the games: it holds this process's games in
    memory (``memory``), writes their changes (``writer``) through its database (``db``), and
    makes the changes players ask for."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        settings: Settings | None = None,
        bus: Bus | None = None,
        on_change: Callable[[GameSession], Awaitable[None]] | None = None,
        *,
        clocks: ClockRules,
        matches: MatchRules,
    ) -> None:
        self.sessions = sessions
        self.clocks = clocks
        self.matches = matches
        self.settings = settings or Settings()
        self.bus: Bus = bus or MemoryBus()
        self.on_change = on_change
        self.now: Callable[[], float] = timesource.time  # the clocks' time (tests set their own)
        self.db = Database(sessions, self.bus)
        self.memory = Games(self.db, self.settings, self.bus, self.announce, lambda: self.now())
        self.writer = Writer(
            self.db, self.settings, self.bus, self.memory, lambda: self.now(), clocks
        )

    # -- what the other features use -------------------------------------------------------

    @property
    def games(self) -> dict[str, GameSession]:
        """The games in this process's memory, by id."""
        return self.memory.games

    @property
    def unreadable(self) -> dict[str, str]:
        return self.memory.unreadable

    @property
    def pglog(self) -> PgLog | None:
        return self.db.pglog

    @property
    def sqlitelog(self) -> SqliteLog | None:
        return self.db.sqlitelog

    async def run_db(self, fn: Callable[[], T]) -> T:
        """Run database work in a thread, so that the event loop never waits on it."""
        return await self.db.run(fn)

    def close(self) -> None:
        self.db.close()

    async def aclose(self) -> None:
        await self.db.aclose()

    async def get(self, game_id: str) -> GameSession:
        return await self.memory.get(game_id)

    async def seat(self, token: str) -> tuple[GameSession, str]:
        """The game and seat ``token`` opens, whoever holds it (see ``seat_for``)."""
        return await self.memory.seat(token)

    async def seat_for(self, token: str, user_id: int | None) -> tuple[GameSession, str]:
        """The game and the seat ``token`` opens for the account ``user_id`` (``None``: not
        signed in): a seat that belongs to another account opens as a watcher's."""
        session, seat = await self.memory.seat(token)
        return session, session.acting(seat, user_id)

    async def refresh(self, session: GameSession) -> bool:
        return await self.memory.refresh(session)

    def announce_soon(self, session: GameSession) -> None:
        self.memory.announce_soon(session)

    async def catch_up(self) -> int:
        return await self.memory.catch_up()

    def forget_idle(self) -> int:
        return self.memory.forget_idle()

    async def archive(self, limit: int = 200) -> list[dict[str, Any]]:
        return await self.memory.archive(limit)

    async def apply(
        self, session: GameSession, change: Callable[[], list[Event]], after: Extra | None = None,
        *, stamp: float,
    ) -> None:  # fmt: skip
        await self.writer.apply(session, change, after, stamp=stamp)

    async def change(
        self, session: GameSession, change: Callable[[], list[Event]], after: Extra | None = None
    ) -> None:
        await self.writer.change(session, change, after)

    def write(self, db: Session, session: GameSession, events: list[Event]) -> None:
        self.writer.write(db, session, events)

    def stored(self, session: GameSession, events: list[Event], wake: bool) -> None:
        self.writer.stored(session, events, wake)

    # -- creating games, and the changes players make ----------------------------------------

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
                    game=game, games=", ".join(available())),
                "unknown-game", 404,
            )  # fmt: skip
        try:
            g = load(game, ruleset)
        except UnknownGame as exc:  # the engine's refusal, in the reader's language
            raise GameError(refused(exc), "unknown-ruleset", 400) from None
        if mode not in MODES:
            raise GameError(
                say("the mode is one of {modes}",
                    modes=", ".join(MODES)),
                "bad-mode", 400,
            )  # fmt: skip
        if side is not None and side not in g.sides:
            raise GameError(
                say("{game} has sides {sides}",
                    game=game, sides=", ".join(g.sides)),
                "bad-side", 400,
            )  # fmt: skip
        if position is not None and mode == "friend":
            raise GameError(
                say("games from a position are for one screen or against the computer"),
                "bad-mode", 400,
            )  # fmt: skip
        computer_side = None
        if mode == "computer":
            level = level or "medium"
            if level not in levels_of(g.name):
                raise GameError(
                    say("the level is one of {levels}",
                        levels=", ".join(levels_of(g.name))),
                    "bad-level", 400,
                )  # fmt: skip
            human = side or g.sides[0]
            computer_side = g.opponent(human)
        else:
            level = None
        control = self.clocks.checked_control(g.name, control, rated, mode, people or {}, position)
        app_start = self.matches.first_start(g, length=length, rated=rated, position=position,
                                next_start=next_start)  # fmt: skip
        try:
            record = Record.new(g, start=position or app_start or None)
        except InvalidPosition as exc:
            raise GameError(bad_position(exc), "invalid-position", 422) from None
        except ValueError as exc:  # an engine's bare error is still the position's fault
            raise GameError(bad_position(exc), "invalid-position", 422) from None
        if record.start is not None and not reads_back(g, record.start, record.states[0]):
            # stored, it would not load again: refuse it now rather than lose the game later
            raise GameError(
                say("invalid position: it cannot be written down and read back as it is"),
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
        session.now = lambda: self.now()
        session.clock = self.clocks.new_clock(session)
        events = self._advance(session)
        self.writer.timed(session, events, self.now())
        created = now()  # one moment for the row and the record: read again, they agree
        record.started = record_time(created)
        row = GameRow(
            id=game_id, game=g.name, ruleset=g.ruleset, mode=mode, start=record.start,
            created_at=created,
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
            await self.writer.store(session, events, before=first)
        else:
            # the rematch and its mention in the old game's log are one transaction: of two
            # processes creating a rematch at once, one succeeds
            old = rematch_of
            backup = old.record.copy()
            old.rematch_id, old.rematch_by = game_id, rematch_by

            def both(db: Session) -> None:
                first(db)
                self.writer.write(db, session, events)

            offer: dict[str, Any] = {"id": game_id}
            if rematch_by is not None:
                offer["by"] = rematch_by
            try:
                await self.writer.store(old, [("rematch", offer)], before=both)
            except BaseException:
                old.record, old.rematch_id, old.rematch_by = backup, None, None
                raise
            session.seq = len(events)
            session.clock_seq = session.seq
            self.writer.announce_commit(session)
        self.games[game_id] = session
        return Created(session, seats, watch)

    async def play(self, session: GameSession, seat: str, move: Any, ply: Any) -> None:
        """A move from a seat; ``ply`` is the ply the client saw (stale or replayed moves are
        refused). Rolls that follow are made by the server."""
        async with session.lock:
            if isinstance(ply, int) and ply != session.ply:
                await self.refresh(session)  # the client may know of a move made elsewhere
            self._check_turn(session, seat, ply)
            if not isinstance(move, str) or len(move) > 400:
                raise GameError(
                    say("a move is written in notation, as text"),
                    "bad-move", 400,
                )  # fmt: skip

            def change() -> list[Event]:
                record = session.record
                parsed = record.state.parse_move(move)
                record.play(parsed)
                session.undo_refused = None
                return [("move", {"text": str(parsed)}), *self._advance(session)]

            await self.writer.change(session, change)
            if session.mode == "friend":
                session.undo_request = None
        await self.announce(session)

    def _check_turn(self, session: GameSession, seat: str, ply: Any) -> None:
        if seat == WATCH:
            raise GameError(say("watchers cannot move"),
                            "not-your-seat", 403)  # fmt: skip
        if session.finished:
            over = session.record.outcome()
            assert over is not None
            raise GameError(
                say("the game is over ({reason})",
                    reason=over.reason),
                "game-over", 409,
            )  # fmt: skip
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise GameError(
                say("a move must say which ply it answers (an integer)"),
                "bad-ply", 400,
            )  # fmt: skip
        if ply != session.ply:  # an older position, or a client ahead of the game
            stale = (
                say("this move answers an older position: the game has moved on "
                    "(ply {now}, not {ply}); nothing was played", now=session.ply, ply=ply)
                if ply < session.ply
                else say("this move quotes ply {ply}, but the game is at ply {now}: quote the "
                         "ply of the position it answers; nothing was played",
                         now=session.ply, ply=ply)
            )  # fmt: skip
            raise GameError(stale, "stale", 409)
        to_move = session.record.state.to_move
        if to_move == CHANCE or to_move is None:
            raise GameError(say("it is nobody's turn to move"),
                            "not-your-turn", 409)  # fmt: skip
        if seat != BOTH and seat != to_move:
            raise GameError(
                say("it is not your turn ({side} to move)",
                    side=to_move),
                "not-your-turn", 409,
            )  # fmt: skip
        if session.mode == "computer" and to_move == session.computer_side:
            raise GameError(say("it is the computer's turn"),
                            "not-your-turn", 409)  # fmt: skip

    def partial(self, session: GameSession, seat: str, request: Any) -> dict[str, Any]:
        """Part of the current turn, for games whose turns have parts (backgammon's single
        checkers, Defiance and Domain's action before its Command move)."""
        adapter = board(session.game)
        if not hasattr(adapter, "partial"):
            raise GameError(
                say("this game's turns have no parts"),
                "bad-request", 400,
            )  # fmt: skip
        if not isinstance(request, dict):
            raise GameError(say("malformed request"), "bad-request", 400)
        state = session.record.state
        if session.finished or state.to_move in (None, CHANCE):
            raise GameError(say("there is no turn to play now"),
                            "not-your-turn", 409)  # fmt: skip
        try:
            return dict(adapter.partial(state, request))
        except IllegalMove as exc:
            raise engine_error(exc) from None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise GameError(
                say("malformed request: {text}", text=str(exc)),
                "bad-request", 400,
            ) from None  # fmt: skip

    async def resign(self, session: GameSession, seat: str) -> None:
        async with session.lock:
            if seat == WATCH:
                raise GameError(
                    say("watchers cannot resign"),
                    "not-your-seat", 403,
                )  # fmt: skip
            if session.finished:
                raise GameError(say("the game is already over"),
                                "game-over", 409)  # fmt: skip
            side = seat
            if seat == BOTH:
                to_move = session.record.state.to_move
                sides = session.human_sides()
                side = str(to_move) if to_move in sides else next(iter(sorted(sides)))

            def change() -> list[Event]:
                session.record.resign(side)
                return [("resign", {"side": side})]

            await self.writer.change(session, change)
        await self.announce(session)

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
                await self.writer.change(session, change)
            except GameError:
                return False
        await self.announce(session)
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
                await self.writer.change(session, change, after=done)
            except GameError as exc:
                if exc.code in ("stale", "time-out"):
                    return False
                raise
        await self.announce(session)
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
                await self.writer.store(session, [])

    async def announce(self, session: GameSession) -> None:
        """Tell this process's sockets on ``session`` what it is now."""
        if self.on_change is not None:
            await self.on_change(session)

    def _advance(self, session: GameSession) -> list[Event]:
        """Roll the dice whenever they are due and play passes that are forced; the events."""
        record = session.record
        events: list[Event] = []
        while record.outcome() is None:
            state = record.state
            if state.to_move == CHANCE:
                record.roll()
                # its draw number: the log replays it exactly (see ``session.replay``)
                events.append(("chance", {"text": record.chance[-1], "draw": record.draws[-1]}))
                continue
            moves = state.legal_moves()
            if len(moves) == 1 and str(moves[0]) == "pass":
                record.play(moves[0])
                events.append(("move", {"text": "pass"}))
                continue
            break
        return events
