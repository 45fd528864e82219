"""A game as a server process holds it: what it is, its record, what is pending, its table.

``GameSession`` is the in-memory side of a game whose truth is its log in the database:
``replay`` applies one entry of that log, whichever process wrote it.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ...core import Outcome
from ...record import Record
from .. import timesource
from ..clock.controls import Clock
from .people import Person

MODES = ("local", "computer", "friend")
BOTH = "both"
WATCH = "watch"
Event = tuple[str, dict[str, Any]]
"""One entry of a game's log: its kind and its data."""
Extra = Callable[[Session], None]
"""More work in the transaction that writes a change."""
ENDINGS = frozenset({"move", "resign", "end", "abandon"})
"""The kinds of log entries that may end a game."""
UNRATED = frozenset({"aborted", "abandoned"})
"""Ends that never count for ratings."""

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
    rematch_lapsed: str | None = None  # the side whose leaving ended the last rematch offer
    # the end and the offers of a game going on (see ``offers``): who aborted it or claimed
    # it (an ``end`` entry's ``by``); the draw offer standing, as (side, ply when offered);
    # the ply at which each side's last draw offer was declined
    ended_by: str | None = None
    draw_offer: tuple[str, int] | None = None
    draw_declined: dict[str, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=timesource.monotonic)
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
    # each side's time as the game went: plies played -> seconds left (see ``note_clock``)
    clock_plies: dict[int, dict[str, float]] = field(default_factory=dict)
    rated: bool = False
    public: bool = False
    people: dict[str, Person] = field(default_factory=dict)
    presence: dict[str, float] = field(default_factory=dict)
    rating_changes: dict[str, Any] | None = None
    now: Callable[[], float] = field(default=timesource.time, repr=False)  # the clocks' time

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

    def owner(self, seat: str) -> int | None:
        """The account a seat belongs to: the account that plays its side (the human's side
        for ``both`` against the computer), ``None`` for a seat anyone with its link may use
        (anonymous players, one screen, watchers)."""
        if seat == BOTH:
            if self.mode != "computer" or self.computer_side is None:
                return None
            seat = str(self.record.game_object.opponent(self.computer_side))
        who = self.people.get(seat)
        if who is None or who.level is not None:
            return None
        return who.user_id

    def acting(self, seat: str, user_id: int | None) -> str:
        """The seat a link opens for the account ``user_id`` (``None``: not signed in): its
        own seat when it belongs to nobody or to that account, a watcher's view otherwise
        (a seat link that leaked plays for nobody else)."""
        owner = self.owner(seat)
        return seat if owner is None or owner == user_id else WATCH


@dataclass(frozen=True)
class Created:
    """A new game and the links that give its seats."""

    session: GameSession
    seats: dict[str, str]  # side (or "both") -> token
    watch: str


def sets_clock(kind: str, data: dict[str, Any]) -> bool:
    """Whether a log entry sets the game's clock (a ``clock`` entry, or any that carries the
    clock's state after its change)."""
    return kind == "clock" or "clock" in data


def rematch_seat(session: GameSession, seat: str, same: bool) -> str:
    """The seat that ``seat`` of ``session`` has in its rematch: the other side between
    friends (sides swap), the same side for the next game of a match, and watchers watch."""
    game = session.record.game_object
    if session.mode == "friend" and seat in game.sides and not same:
        return str(game.opponent(seat))
    return seat


def note_clock(session: GameSession) -> None:
    """Keep each side's time after the change just made (its clock set), under the number of
    plies played then: a replay shows the clocks as they were at each move. An undo's plies
    go with it."""
    if session.clock is None:
        return
    plies = len(session.record.plies)
    for later in [n for n in session.clock_plies if n > plies]:
        del session.clock_plies[later]
    session.clock_plies[plies] = {s: float(v) for s, v in session.clock.remaining.items()}


def replay(session: GameSession, kind: str, data: dict[str, Any]) -> None:
    """Apply one logged event to a game being rebuilt."""
    _replay(session, kind, data)
    if sets_clock(kind, data):
        note_clock(session)


def _replay(session: GameSession, kind: str, data: dict[str, Any]) -> None:
    record = session.record
    if sets_clock(kind, data):
        session.clock = Clock.from_dict(data if kind == "clock" else data["clock"])
    if kind == "chance":
        # the roll's draw number; games logged before draws were counted (none given) drew
        # each roll at its place among the rolls kept, undone ones drawn again (their next
        # rolls are fresh draws all the same: past every draw seen)
        draw = data.get("draw")
        spent = record.drawn
        record.drawn = draw if isinstance(draw, int) else len(record.chance)
        record.play(data["text"])
        record.drawn = max(record.drawn, spent)
    elif kind == "move":
        record.play(data["text"])
        session.undo_refused = None
    elif kind == "undo":
        for _ in range(int(data["plies"])):
            record.undo()
        session.undo_request = session.draw_offer = None
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
    elif kind == "rematch-offer":
        session.rematch_by, session.rematch_lapsed = data["side"], None
    elif kind == "rematch-lapse":
        session.rematch_by, session.rematch_lapsed = None, data["side"]
    elif kind == "rematch-decline":
        session.rematch_declined = data["side"]
    elif kind == "draw-offer":
        session.draw_offer = (data["side"], int(data["ply"]))
    elif kind == "draw-decline":
        if session.draw_offer is not None:
            session.draw_declined[session.draw_offer[0]] = int(data["ply"])
        session.draw_offer = None
    elif kind == "declined":
        session.declined = data["side"]
    elif kind == "end":  # the clock, a claim, an abort or an agreed draw: see ``offers``
        record.end(Outcome(data["winner"], data["reason"]))
        session.ended_by = data.get("by")
        session.draw_offer = None
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
