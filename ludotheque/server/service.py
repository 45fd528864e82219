"""Games on the server: creating them, seats, moves, rolls, undo, resignation, rematch.

Each game lives in memory as a record rebuilt from its event log; every change is checked
against the rules first, then appended to the log, and only then applied and announced, so a
refused or failed change leaves nothing behind. A per-game lock serialises changes.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .. import load
from ..ai.levels import LEVELS
from ..core import CHANCE, IllegalMove, InvalidPosition, UnknownGame
from ..record import Record
from .boards import available
from .db import EventRow, GameRow, SeatRow, now, token_hash

MODES = ("local", "computer", "friend")
BOTH = "both"
WATCH = "watch"


class GameError(Exception):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable word for clients."""

    def __init__(self, message: str, code: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


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
    seq: int = 0
    undo_request: str | None = None
    rematch_id: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: bool = False

    @property
    def ply(self) -> int:
        """How many plies (moves and rolls) the game has: the number a move must quote."""
        return len(self.record.moves) + len(self.record.chance)

    @property
    def finished(self) -> bool:
        return self.record.outcome() is not None

    def human_sides(self) -> set[str]:
        sides = set(self.record.game_object.sides)
        return sides - {self.computer_side} if self.computer_side else sides


@dataclass(frozen=True)
class Created:
    """A new game and the links that give its seats."""

    session: GameSession
    seats: dict[str, str]  # side (or "both") -> token
    watch: str


class GameService:
    """The rules of the app around the rules of the games."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        think: Callable[[GameSession], Awaitable[str]] | None = None,
        on_change: Callable[[GameSession], Awaitable[None]] | None = None,
        computer_delay: float = 0.0,
    ) -> None:
        self.sessions = sessions
        self.think = think
        self.on_change = on_change
        self.computer_delay = computer_delay
        self.games: dict[str, GameSession] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # -- creating and finding games --------------------------------------------------------

    def create(
        self,
        game: str,
        mode: str,
        ruleset: str | None = None,
        side: str | None = None,
        level: str | None = None,
        position: str | None = None,
        rematch_of: str | None = None,
        with_seats: bool = True,
    ) -> Created:
        """Create a game; raises ``GameError`` for anything unknown or invalid."""
        if game not in available():
            raise GameError(
                f"unknown game {game!r}; the games are {', '.join(available())}",
                "unknown-game", 404,
            )  # fmt: skip
        try:
            g = load(game, ruleset)
        except UnknownGame as exc:
            raise GameError(str(exc), "unknown-ruleset", 400) from None
        if mode not in MODES:
            raise GameError(f"the mode is one of {', '.join(MODES)}", "bad-mode", 400)
        if side is not None and side not in g.sides:
            raise GameError(f"{game} has sides {', '.join(g.sides)}", "bad-side", 400)
        if position is not None and mode == "friend":
            raise GameError(
                "games from a position are for one screen or against the computer",
                "bad-mode", 400,
            )  # fmt: skip
        computer_side = None
        if mode == "computer":
            level = level or "medium"
            if level not in LEVELS:
                raise GameError(f"the level is one of {', '.join(LEVELS)}", "bad-level", 400)
            human = side or g.sides[0]
            computer_side = g.opponent(human)
        else:
            level = None
        try:
            record = Record.new(g, start=position or None)
        except InvalidPosition as exc:
            raise GameError(f"invalid position: {exc}", "invalid-position", 422) from None
        players: dict[str, str] = {
            s: (level or "medium") if s == computer_side else "human" for s in g.sides
        }
        record.players = dict(players)
        game_id = secrets.token_urlsafe(8)
        if not with_seats:
            seats = {}
        elif mode == "friend":
            seats = {s: new_token() for s in g.sides}
        else:
            seats = {BOTH: new_token()}
        watch = new_token()
        assert record.seed is not None or not getattr(g, "has_chance", False)
        with self.sessions() as db:
            db.add(
                GameRow(
                    id=game_id,
                    game=g.name,
                    ruleset=g.ruleset,
                    mode=mode,
                    start=record.start,
                    players=players,
                    computer_side=computer_side,
                    level=level,
                    seed=record.seed or "",
                    rematch_of=rematch_of,
                )
            )
            db.flush()
            for seat_side, token in seats.items():
                db.add(SeatRow(token_sha256=token_hash(token), game_id=game_id, side=seat_side))
            db.add(SeatRow(token_sha256=token_hash(watch), game_id=game_id, side=WATCH))
            db.commit()
        session = GameSession(
            game_id, g.name, g.ruleset, mode, players, computer_side, level, record
        )
        self.games[game_id] = session
        return Created(session, seats, watch)

    def seat(self, token: str) -> tuple[GameSession, str]:
        """The game and seat (a side, ``both`` or ``watch``) that ``token`` opens."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise GameError("this link is not valid", "bad-token", 403)
        with self.sessions() as db:
            row = db.get(SeatRow, token_hash(token))
        if row is None:
            raise GameError("this link does not open any game", "bad-token", 403)
        return self.get(row.game_id), row.side

    def get(self, game_id: str) -> GameSession:
        """A game by id, rebuilt from its log if it is not in memory."""
        session = self.games.get(game_id)
        if session is not None:
            return session
        with self.sessions() as db:
            row = db.get(GameRow, game_id)
            if row is None:
                raise GameError("there is no such game", "not-found", 404)
            events = db.scalars(
                select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
            ).all()
        record = Record.new(
            load(row.game, row.ruleset), start=row.start, players=dict(row.players),
            seed=row.seed or None,
        )  # fmt: skip
        session = GameSession(
            row.id, row.game, row.ruleset, row.mode, dict(row.players), row.computer_side,
            row.level, record, rematch_id=row.rematch_id,
        )  # fmt: skip
        for ev in events:
            _replay(session, ev.kind, ev.data)
            session.seq = ev.seq + 1
        self.games[game_id] = session
        return session

    def unfinished_games(self) -> list[str]:
        """Ids of unfinished games (to resume after a restart)."""
        with self.sessions() as db:
            rows = db.scalars(select(GameRow.id).where(GameRow.finished_at.is_(None))).all()
        return list(rows)

    def archive(self, limit: int = 200) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        with self.sessions() as db:
            rows = db.scalars(
                select(GameRow)
                .where(GameRow.finished_at.is_not(None))
                .order_by(GameRow.finished_at.desc())
                .limit(limit)
            ).all()
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

    # -- changes ---------------------------------------------------------------------------

    async def play(self, session: GameSession, seat: str, move: Any, ply: Any) -> None:
        """A move from a seat; ``ply`` is the ply the client saw (stale or replayed moves are
        refused). Rolls that follow are made by the server."""
        async with session.lock:
            self._check_turn(session, seat, ply)
            await self._move(session, move)

    def _check_turn(self, session: GameSession, seat: str, ply: Any) -> None:
        if seat == WATCH:
            raise GameError("watchers cannot move", "not-your-seat", 403)
        if session.finished:
            over = session.record.outcome()
            assert over is not None
            raise GameError(f"the game is over ({over.reason})", "game-over", 409)
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise GameError("a move must say which ply it answers (an integer)", "bad-ply", 400)
        if ply != session.ply:
            raise GameError(
                "this move answers an older position: the game has moved on "
                f"(ply {session.ply}, not {ply}); nothing was played",
                "stale", 409,
            )  # fmt: skip
        to_move = session.record.state.to_move
        if to_move == CHANCE or to_move is None:
            raise GameError("it is nobody's turn to move", "not-your-turn", 409)
        if seat != BOTH and seat != to_move:
            raise GameError(f"it is the {to_move}' turn, not yours", "not-your-turn", 409)
        if session.mode == "computer" and to_move == session.computer_side:
            raise GameError("it is the computer's turn", "not-your-turn", 409)

    async def _move(self, session: GameSession, move: Any) -> None:
        record = session.record
        if not isinstance(move, str) or len(move) > 400:
            raise GameError("a move is written in notation, as text", "bad-move", 400)
        state = record.state
        try:
            parsed = state.parse_move(move)
            record.play(parsed)
        except IllegalMove as exc:
            raise GameError(str(exc), "illegal", 422) from None
        self._persist(session, [("move", {"text": str(parsed)})], undo_plies=1)
        await self._roll_and_announce(session)

    async def _roll_and_announce(self, session: GameSession) -> None:
        """Roll the dice whenever they are due, and play a pass that is forced."""
        record = session.record
        while record.outcome() is None:
            state = record.state
            if state.to_move == CHANCE:
                record.roll()
                self._persist(session, [("chance", {"text": record.chance[-1]})], undo_plies=1)
                continue
            moves = state.legal_moves()
            if len(moves) == 1 and str(moves[0]) == "pass":
                record.play(moves[0])
                self._persist(session, [("move", {"text": "pass"})], undo_plies=1)
                continue
            break
        session.undo_request = None if session.mode == "friend" else session.undo_request
        await self._announce(session)
        self._schedule_computer(session)

    def _persist(
        self, session: GameSession, events: list[tuple[str, dict[str, Any]]], undo_plies: int
    ) -> None:
        """Append events to the log; on failure, take the in-memory change back."""
        try:
            with self.sessions() as db:
                for i, (kind, data) in enumerate(events):
                    db.add(EventRow(game_id=session.id, seq=session.seq + i, kind=kind, data=data))
                over = session.record.outcome()
                row = db.get(GameRow, session.id)
                assert row is not None
                if over is not None:
                    row.finished_at = row.finished_at or now()
                    row.winner, row.reason = over.winner, over.reason
                else:
                    row.finished_at, row.winner, row.reason = None, None, None
                db.commit()
        except Exception:
            for _ in range(undo_plies):
                if events and events[0][0] in ("move", "chance"):
                    session.record.undo()
            raise
        session.seq += len(events)

    def partial(self, session: GameSession, seat: str, request: Any) -> dict[str, Any]:
        """Part of the current turn, for games whose turns have parts (backgammon's single
        checkers, Defiance and Domain's action before its Command move)."""
        from .boards import board

        adapter = board(session.game)
        if not hasattr(adapter, "partial"):
            raise GameError("this game's turns have no parts", "bad-request", 400)
        if not isinstance(request, dict):
            raise GameError("malformed request", "bad-request", 400)
        state = session.record.state
        if session.finished or state.to_move in (None, CHANCE):
            raise GameError("there is no turn to play now", "not-your-turn", 409)
        try:
            return dict(adapter.partial(state, request))
        except IllegalMove as exc:
            raise GameError(str(exc), "illegal", 422) from None
        except (TypeError, ValueError, KeyError) as exc:
            raise GameError(f"malformed request: {exc}", "bad-request", 400) from None

    async def undo(self, session: GameSession, seat: str) -> None:
        """Take back the last move of the seat's side (and what followed). Free at one screen
        and against the computer; in friend games it needs the other player's consent."""
        async with session.lock:
            if seat == WATCH:
                raise GameError("watchers cannot undo", "not-your-seat", 403)
            if session.mode == "friend":
                raise GameError("ask your opponent: undo needs their consent", "ask", 409)
            sides = session.human_sides() if seat == BOTH else {seat}
            self._undo_to(session, sides)
            await self._announce(session)
            self._schedule_computer(session)

    def _undo_to(self, session: GameSession, sides: set[str]) -> None:
        record = session.record
        if record.result is not None:
            raise GameError("a resigned game cannot be taken back", "game-over", 409)
        states = record.states
        plies = record.plies
        mine = [  # a forced pass is not a move one would take back
            i
            for i, (kind, text) in enumerate(plies)
            if kind == "move" and text != "pass" and states[i].to_move in sides
        ]
        if not mine:
            raise GameError("there is no move of yours to take back", "nothing-to-undo", 409)
        count = len(plies) - mine[-1]
        popped = [plies[-k] for k in range(1, count + 1)]
        for _ in range(count):
            record.undo()
        try:
            self._persist(session, [("undo", {"plies": count})], undo_plies=0)
        except Exception:
            for _, text in reversed(popped):
                record.play(text)
            raise

    async def request_undo(self, session: GameSession, seat: str) -> None:
        async with session.lock:
            if session.mode != "friend" or seat not in session.record.game_object.sides:
                raise GameError("undo requests are for games between friends", "bad-mode", 409)
            if session.finished:
                raise GameError("the game is over", "game-over", 409)
            states, plies = session.record.states, session.record.plies
            if not any(k == "move" and states[i].to_move == seat for i, (k, _) in enumerate(plies)):
                raise GameError("there is no move of yours to take back", "nothing-to-undo", 409)
            session.undo_request = seat
            self._persist(session, [("undo-request", {"side": seat})], undo_plies=0)
            await self._announce(session)

    async def answer_undo(self, session: GameSession, seat: str, accept: Any) -> None:
        async with session.lock:
            asker = session.undo_request
            if asker is None:
                raise GameError("nobody asked to undo", "no-request", 409)
            if seat == asker or seat not in session.record.game_object.sides:
                raise GameError("only the other player answers", "not-your-seat", 403)
            if not isinstance(accept, bool):
                raise GameError("answer yes or no (true or false)", "bad-answer", 400)
            session.undo_request = None
            self._persist(
                session, [("undo-answer", {"side": seat, "accept": accept})], undo_plies=0
            )
            if accept:
                self._undo_to(session, {asker})
            await self._announce(session)

    async def resign(self, session: GameSession, seat: str) -> None:
        async with session.lock:
            if seat == WATCH:
                raise GameError("watchers cannot resign", "not-your-seat", 403)
            if session.finished:
                raise GameError("the game is already over", "game-over", 409)
            side = seat
            if seat == BOTH:
                to_move = session.record.state.to_move
                sides = session.human_sides()
                side = str(to_move) if to_move in sides else next(iter(sorted(sides)))
            session.record.resign(side)
            try:
                self._persist(session, [("resign", {"side": side})], undo_plies=0)
            except Exception:
                session.record.result = None
                raise
            await self._announce(session)

    def rematch(self, session: GameSession, seat: str, token: str) -> tuple[GameSession, str]:
        """The rematch, sides swapped: created by whoever asks first, joined by the others.

        Returns the rematch and the asker's token in it. Only hashes of tokens are stored, so
        each holder's new seat is registered when they present their old token; the new token
        derives from the old one, so asking twice gives the same link.
        """
        if seat == WATCH:
            raise GameError("watchers cannot start a rematch", "not-your-seat", 403)
        if not session.finished:
            raise GameError("finish (or resign) the game first", "not-over", 409)
        if session.rematch_id is None:
            human = session.computer_side if session.mode == "computer" else None
            created = self.create(
                session.game, session.mode, session.ruleset, side=human, level=session.level,
                position=session.record.start, rematch_of=session.id, with_seats=False,
            )  # fmt: skip
            session.rematch_id = created.session.id
            with self.sessions() as db:
                row = db.get(GameRow, session.id)
                assert row is not None
                row.rematch_id = created.session.id
                db.commit()
        sides = session.record.game_object.sides
        new_seat = seat
        if session.mode == "friend" and seat in sides:
            new_seat = session.record.game_object.opponent(seat)
        new_token_value = rematch_token(token)
        with self.sessions() as db:
            if db.get(SeatRow, token_hash(new_token_value)) is None:
                db.add(
                    SeatRow(
                        token_sha256=token_hash(new_token_value),
                        game_id=session.rematch_id,
                        side=new_seat,
                    )
                )
                db.commit()
        return self.get(session.rematch_id), new_token_value

    # -- computer and announcements --------------------------------------------------------

    def _schedule_computer(self, session: GameSession) -> None:
        if (
            self.think is None
            or session.mode != "computer"
            or session.finished
            or session.thinking
            or session.record.state.to_move != session.computer_side
        ):
            return
        session.thinking = True
        task = asyncio.get_running_loop().create_task(self._computer_turn(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _computer_turn(self, session: GameSession) -> None:
        assert self.think is not None
        ply = session.ply
        try:
            if self.computer_delay:
                await asyncio.sleep(self.computer_delay)
            move = await self.think(session)
        finally:
            session.thinking = False
        async with session.lock:
            if session.ply != ply or session.finished:
                return  # the game changed while the computer thought (an undo): think again
            try:
                await self._move(session, move)
            except GameError:
                return

    async def begin(self, session: GameSession) -> None:
        """A new game: roll the opening dice if the game has them, and let the computer move
        if it is its turn."""
        async with session.lock:
            await self._roll_and_announce(session)

    def kick(self, session: GameSession) -> None:
        """Let the computer move if it is its turn."""
        self._schedule_computer(session)

    async def resume(self) -> None:
        """After a restart: roll dice that were due and let the computer move where it is its
        turn."""
        for game_id in self.unfinished_games():
            await self.begin(self.get(game_id))

    async def _announce(self, session: GameSession) -> None:
        if self.on_change is not None:
            await self.on_change(session)


def _replay(session: GameSession, kind: str, data: dict[str, Any]) -> None:
    """Apply one logged event to a game being rebuilt."""
    record = session.record
    if kind in ("move", "chance"):
        record.play(data["text"])
    elif kind == "undo":
        for _ in range(int(data["plies"])):
            record.undo()
        session.undo_request = None
    elif kind == "resign":
        record.resign(data["side"])
    elif kind == "undo-request":
        session.undo_request = data["side"]
    elif kind == "undo-answer":
        session.undo_request = None
