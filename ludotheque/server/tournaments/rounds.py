"""A tournament moving on, as jobs on the queue: its start, a Swiss round's end and the next
one's pairings, the arena's re-pairing of whoever finished, its end.

A tournament has at most one queued job at a time, of kind ``tournament``, whose ``seq`` is
the tournament's ``step``. Any worker of any process takes it (``TournamentWorker``): it reads
the results of the games being played (a backgammon match: its last game, once the match is
over), then, in one transaction, writes those results, decides what comes next (pairings, as
``pending`` rows of ``tournament_games`` with their games' ids chosen), moves the step on by a
conditional update (``step = seq``: of two workers holding the same step, one writes) and
queues the job of the next step: due at the start, at the arena's end, or after ``TICK``
seconds. Then it makes the pending games through the game service, as the lobby makes its
games (rated, clocked, seats derived from the server's secret for the accounts that own them),
each game's row taken from ``pending`` to ``playing`` in the game's own transaction, so that a
game is made once even if a worker dies between the two: the next step makes what is left.

A tournament game that ends wakes its tournament at once (``Tournaments.heard``, on every
process that holds the game: the queued job's ``not_before`` becomes now), so the arena pairs
again as soon as players finish; the ``TICK`` is the safety net.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ... import load
from .. import timesource
from ..compute.worker import Job, Worker
from ..errors import GameError
from ..lobby.lobby import seat_token
from ..play.people import Person
from ..play.points import MATCHES
from ..play.service import GameService
from ..play.session import WATCH, GameSession
from ..rating.ranking import person
from ..store.db import EntrantRow, JobRow, PairingRow, TournamentRow
from .pairing import ABSENT, BLACK, BYE, WHITE, Entrant, Game, Waiting, arena_pairs, swiss_round
from .scoring import DRAW, LOSS, NONE, WIN, ArenaGame, arena_line

log = logging.getLogger("ludotheque.tournaments")

KIND = "tournament"
KINDS = (KIND,)
TICK = 2.0
"""Seconds between two looks at a running tournament when no game's end woke it."""
UNFINISHED = ("pending", "playing")
CHANNEL = "tournament"
"""The bus's channel: a tournament changed (its id), for the pages that follow it."""


class Taken(Exception):
    """A pending game was made by another worker first."""


ABSENT_AFTER = 2
"""An arena player whose last this many games were aborted (no first move in time) is taken
out of the pairing, as lichess pauses a player who left: the others stop being paired with
someone who is not there. Joining again brings the player back."""


def _gone(games: list[ArenaGame]) -> bool:
    """Whether a player's last ``ABSENT_AFTER`` arena games all ended without a result."""
    last = games[-ABSENT_AFTER:]
    return len(last) == ABSENT_AFTER and all(g.result == NONE for g in last)


def queue_job(db: Session, tournament_id: str, seq: int, when: float) -> None:
    """The tournament's job for step ``seq``, due at ``when``."""
    stamp = timesource.time()
    db.add(JobRow(kind=KIND, game_id=None, tournament_id=tournament_id, seq=seq,
                  status="queued", attempts=0, not_before=when, created_at=stamp))  # fmt: skip


def result_of(session: GameSession, first: str) -> str | None:
    """The result for the first side of a finished game (``none``: aborted), else ``None``."""
    over = session.record.outcome()
    if over is None:
        return None
    if over.reason == "aborted":
        return NONE
    if over.winner is None:
        return DRAW
    return WIN if over.winner == first else LOSS


@dataclass
class Plan:
    """What a step decided: the games to make (pending rows' ids) and whether it changed."""

    pending: list[int]
    changed: bool


class Rounds:
    """Moves tournaments on (the jobs' work) and makes their games."""

    def __init__(self, service: GameService, secret: bytes) -> None:
        self.service = service
        self.secret = secret

    # -- results ------------------------------------------------------------------------------

    async def _result(self, t: TournamentRow, row: PairingRow) -> str | None:
        """The result of a game being played (a match: of its last game, once it is over)."""
        sides = load(t.game, t.ruleset).sides
        game_id = row.game_id
        for _ in range(200):  # a match's games, one after the other
            if game_id is None:
                return None
            try:
                session = await self.service.get(game_id)
            except GameError:
                return NONE
            async with session.lock:
                await self.service.refresh(session)
            result = result_of(session, sides[0])
            if result is None:
                return None
            following = MATCHES.following(session.record) if t.length else None
            if following is None or not following.same_sides or result == NONE:
                return result
            if session.rematch_id is None:
                if session.rematch_declined or session.rematch_lapsed:
                    return result
                return None  # the match's next game is being made
            game_id = session.rematch_id
        return None

    async def results(self, tournament_id: str) -> dict[int, str]:
        """The results of the tournament's games that ended (pairing id -> result)."""

        def read() -> tuple[TournamentRow | None, list[PairingRow]]:
            with self.service.sessions() as db:
                t = db.get(TournamentRow, tournament_id)
                rows = db.scalars(
                    select(PairingRow).where(PairingRow.tournament_id == tournament_id,
                                             PairingRow.status == "playing")
                ).all()  # fmt: skip
                return t, list(rows)

        t, rows = await self.service.run_db(read)
        out: dict[int, str] = {}
        if t is None:
            return out
        for row in rows:
            result = await self._result(t, row)
            if result is not None:
                out[row.id] = result
        return out

    # -- a step ---------------------------------------------------------------------------------

    async def step(self, tournament_id: str, seq: int, done: Callable[[Session], None]) -> str:
        """The job of ``seq``: ``obsolete`` (another moved the tournament on) or ``done``."""
        results = await self.results(tournament_id)
        plan = await self.service.run_db(lambda: self.plan(tournament_id, seq, results, done))
        if plan is None:
            return "obsolete"
        if plan.changed:
            self.service.bus.committed(CHANNEL, tournament_id)
        await self.make_games(tournament_id)
        return "done"

    def plan(
        self, tournament_id: str, seq: int, results: dict[int, str],
        done: Callable[[Session], None],
    ) -> Plan | None:  # fmt: skip
        """Write the results, decide and write what comes next, move the step on, queue the
        next job, close this one: one transaction (``None``: the step was taken)."""
        now = timesource.time()
        with self.service.sessions() as db:
            t = db.get(TournamentRow, tournament_id)
            if t is None or t.step != seq:
                return None
            changed = False
            for pairing_id, result in results.items():
                wrote = db.execute(
                    update(PairingRow)
                    .where(PairingRow.id == pairing_id, PairingRow.status == "playing")
                    .values(status="done", result=result, finished_at=now)
                )  # fmt: skip
                changed = changed or bool(wrote.rowcount)  # type: ignore[attr-defined]
            db.flush()
            rows = list(db.scalars(select(PairingRow).where(PairingRow.tournament_id == t.id)
                                   .order_by(PairingRow.id)).all())  # fmt: skip
            entrants = list(db.scalars(select(EntrantRow)
                                       .where(EntrantRow.tournament_id == t.id)).all())  # fmt: skip
            next_at: float | None = now + TICK
            if t.status == "upcoming":
                if now < t.starts_at:
                    next_at = t.starts_at
                else:
                    t.status, changed = "running", True
                    if t.kind == "arena":
                        t.ends_at = now + 60.0 * (t.minutes or 0)
            if t.status == "running":
                made = (self._swiss if t.kind == "swiss" else self._arena)(db, t, rows, entrants,
                                                                           now)  # fmt: skip
                changed = changed or made
                if t.status == "finished":
                    t.finished_at, next_at = now, None
                elif t.kind == "arena" and t.ends_at is not None and t.ends_at > now:
                    next_at = min(now + TICK, t.ends_at)
            taken = db.execute(
                update(TournamentRow)
                .where(TournamentRow.id == t.id, TournamentRow.step == seq)
                .values(step=seq + 1, status=t.status, round=t.round, ends_at=t.ends_at,
                        finished_at=t.finished_at)
            )  # fmt: skip
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                db.rollback()
                return None
            if next_at is not None:
                queue_job(db, t.id, seq + 1, next_at)
            done(db)
            if changed:
                self.service.bus.publish_in(db, CHANNEL, t.id)
            db.commit()
            pending = [r.id for r in rows if r.status == "pending"]
            pending += [
                r.id for r in db.scalars(
                    select(PairingRow).where(PairingRow.tournament_id == t.id,
                                             PairingRow.status == "pending")
                ).all() if r.id not in pending
            ]  # fmt: skip
            return Plan(pending, changed)

    def _pair(self, db: Session, t: TournamentRow, white: int, black: int | None,
              board: int, now: float) -> None:  # fmt: skip
        """A new game of ``t`` (``black`` None: a bye, its point given at once)."""
        if black is None:
            db.add(PairingRow(tournament_id=t.id, round=t.round, board=board, white=white,
                              black=None, game_id=None, status="done", result="bye",
                              created_at=now, finished_at=now))  # fmt: skip
            return
        db.add(PairingRow(tournament_id=t.id, round=t.round, board=board, white=white,
                          black=black, game_id=secrets.token_urlsafe(8), status="pending",
                          created_at=now))  # fmt: skip

    def _swiss(self, db: Session, t: TournamentRow, rows: list[PairingRow],
               entrants: list[EntrantRow], now: float) -> bool:  # fmt: skip
        """A Swiss round ends when its games have: the next is paired, or the table is final."""
        if any(r.status in UNFINISHED for r in rows):
            return False
        playing = [e for e in entrants if not e.withdrawn]
        if t.round >= (t.rounds or 0) or len(playing) < 2:
            t.status = "finished"
            return True
        seeded = sorted(entrants, key=lambda e: (-e.rating, e.joined_at, e.user_id))
        ranks = {e.user_id: n for n, e in enumerate(seeded, start=1)}
        games = swiss_history(rows, [e.user_id for e in entrants], t.round)
        field = [Entrant(e.user_id, ranks[e.user_id], games[e.user_id], e.withdrawn)
                 for e in entrants]  # fmt: skip
        made = swiss_round(field, t.rounds)
        t.round += 1
        for board, (white, black) in enumerate(made.pairs):
            self._pair(db, t, white, black, board, now)
        if made.bye is not None:
            self._pair(db, t, made.bye, None, len(made.pairs), now)
        return True

    def _arena(self, db: Session, t: TournamentRow, rows: list[PairingRow],
               entrants: list[EntrantRow], now: float) -> bool:  # fmt: skip
        """Pair the arena's waiting players; after its end, finish once its games have."""
        busy = {p for r in rows if r.status in UNFINISHED for p in (r.white, r.black)}
        if t.ends_at is not None and now >= t.ends_at:
            if busy:
                return False
            t.status = "finished"
            return True
        games: dict[int, list[ArenaGame]] = {e.user_id: [] for e in entrants}
        # the games since each player (last) joined: a player back after a pause is not paused
        # again for the games that paused them
        joined = {e.user_id: e.joined_at for e in entrants}
        recent: dict[int, list[ArenaGame]] = {}
        last: dict[int, int] = {}
        whites = dict.fromkeys(games, 0)
        blacks = dict.fromkeys(games, 0)
        for r in rows:
            if r.black is None or r.status != "done":
                continue
            for me, them, first in ((r.white, r.black, True), (r.black, r.white, False)):
                result = r.result or NONE
                if not first and result in (WIN, LOSS):
                    result = LOSS if result == WIN else WIN
                berserk = r.berserk_white if first else r.berserk_black
                games.setdefault(me, []).append(ArenaGame(result, berserk))
                if (r.finished_at or 0.0) >= joined.get(me, 0.0):
                    recent.setdefault(me, []).append(ArenaGame(result, berserk))
                last[me] = them
            whites[r.white] = whites.get(r.white, 0) + 1
            blacks[r.black] = blacks.get(r.black, 0) + 1
        for e in entrants:
            if not e.withdrawn and e.user_id not in busy and _gone(recent.get(e.user_id, [])):
                e.withdrawn = True  # paused: joining again brings the player back
        waiting = [
            Waiting(e.user_id, arena_line(games.get(e.user_id, [])).total, e.rating,
                    last.get(e.user_id), whites.get(e.user_id, 0), blacks.get(e.user_id, 0))
            for e in entrants if not e.withdrawn and e.user_id not in busy
        ]  # fmt: skip
        pairs = arena_pairs(waiting, others_playing=bool(busy))
        if not pairs:
            return False
        for white, black in pairs:
            t.round += 1
            self._pair(db, t, white, black, 0, now)
        return True

    # -- games ----------------------------------------------------------------------------------

    async def make_games(self, tournament_id: str) -> int:
        """Make the tournament's pending games; how many this call made."""

        def read() -> tuple[TournamentRow | None, list[PairingRow], dict[int, Person]]:
            with self.service.sessions() as db:
                t = db.get(TournamentRow, tournament_id)
                rows = list(db.scalars(select(PairingRow).where(
                    PairingRow.tournament_id == tournament_id, PairingRow.status == "pending"
                )).all())  # fmt: skip
                people: dict[int, Person] = {}
                if t is not None:
                    for r in rows:
                        for uid in (r.white, r.black):
                            if uid is not None and uid not in people:
                                people[uid] = person(db, uid, t.game, t.ruleset)
                return t, rows, people

        t, rows, people = await self.service.run_db(read)
        made = 0
        if t is None:
            return made
        for row in rows:
            try:
                await self._make(t, row, people)
                made += 1
            except Taken:
                continue
            except GameError as exc:  # the game cannot be made: the pairing has no result
                log.warning("tournament %s: game %s not made: %s", t.id, row.game_id,
                            exc.message)  # fmt: skip
                await self.service.run_db(partial(self._unplayable, row.id))
        return made

    def _unplayable(self, pairing_id: int) -> None:
        """A pairing whose game the service refused: done, without result (a Swiss round
        never waits for it)."""
        with self.service.sessions() as db:
            db.execute(
                update(PairingRow)
                .where(PairingRow.id == pairing_id, PairingRow.status == "pending")
                .values(status="done", result=NONE, finished_at=timesource.time(), game_id=None)
            )  # fmt: skip
            db.commit()

    async def _make(self, t: TournamentRow, row: PairingRow, people: dict[int, Person]) -> None:
        assert row.game_id is not None and row.black is not None
        game_id = row.game_id
        first, second = load(t.game, t.ruleset).sides
        players = {first: people[row.white], second: people[row.black]}
        notice = f"start {game_id} u{row.white} u{row.black}"

        def claim(db: Session) -> None:
            taken = db.execute(
                update(PairingRow)
                .where(PairingRow.id == row.id, PairingRow.status == "pending")
                .values(status="playing")
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                raise Taken(row.id)
            self.service.bus.publish_in(db, "lobby", notice)
            self.service.bus.publish_in(db, CHANNEL, t.id)

        tokens = {side: seat_token(self.secret, game_id, side) for side in players}
        tokens[WATCH] = seat_token(self.secret, game_id, WATCH)
        try:
            await self.service.create(
                t.game, "friend", t.ruleset, control=t.control, rated=t.rated, public=True,
                people=players, tokens=tokens, claim=claim, game_id=game_id,
                length=t.length,
            )  # fmt: skip
        except Taken:
            raise
        except Exception:
            # the game was made by another worker (its id is taken), or cannot be: look again
            def state() -> str | None:
                with self.service.sessions() as db:
                    again = db.get(PairingRow, row.id)
                    return None if again is None else again.status

            if await self.service.run_db(state) != "pending":
                raise Taken(row.id) from None
            raise
        self.service.bus.committed("lobby", notice)
        self.service.bus.committed(CHANNEL, t.id)


class TournamentWorker(Worker):
    """Takes tournaments' jobs from the queue (and only those)."""

    def __init__(self, service: GameService, rounds: Rounds, name: str | None = None) -> None:
        super().__init__(service, None, name, kinds=KINDS)
        self.rounds = rounds

    async def _handle(self, job: Job) -> None:
        if job.tournament_id is None:
            await self.service.run_db(lambda: self._end(job, "failed", "no tournament"))
            return

        def done(db: Session) -> None:
            self._close(db, job, "done")

        outcome = await self.rounds.step(job.tournament_id, job.seq, done)
        if outcome == "obsolete":
            await self.service.run_db(lambda: self._end(job, "done", "obsolete"))


def wake(db: Session, tournament_id: str) -> int:
    """Make the tournament's queued job due now (a game of it ended); the jobs woken."""
    done = db.execute(
        update(JobRow)
        .where(JobRow.tournament_id == tournament_id, JobRow.kind == KIND,
               JobRow.status == "queued")
        .values(not_before=timesource.time())
    )  # fmt: skip
    return int(done.rowcount)  # type: ignore[attr-defined]


def finished_game_tournament(db: Session, game_id: str) -> str | None:
    """The tournament a game belongs to (a match's later games: through their first)."""
    row = db.scalars(select(PairingRow).where(PairingRow.game_id == game_id)).first()
    return None if row is None else row.tournament_id


def swiss_history(
    rows: list[PairingRow], players: list[int], played: int
) -> dict[int, tuple[Game, ...]]:
    """Each player's rounds 1…``played`` as the Swiss pairing reads them, from the
    tournament's rows (a round without a row of theirs: ``absent``; a row done without a
    result: a game without one)."""
    seen: dict[int, dict[int, Game]] = {p: {} for p in players}
    for r in rows:
        if r.black is None:
            seen.setdefault(r.white, {})[r.round] = Game(BYE)
            continue
        result = r.result or NONE
        theirs = {WIN: LOSS, LOSS: WIN}.get(result, result)
        seen.setdefault(r.white, {})[r.round] = Game(result, r.black, WHITE)
        seen.setdefault(r.black, {})[r.round] = Game(theirs, r.white, BLACK)
    return {p: tuple(seen[p].get(n, Game(ABSENT)) for n in range(1, played + 1))
            for p in players}  # fmt: skip
