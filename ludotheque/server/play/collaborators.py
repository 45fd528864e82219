"""What the game service asks of the features around it, passed in when it is made: the
games' clocks (``clock.table.CLOCKS``) and the chain of games played for points
(``play.points.MATCHES``). The service knows these as protocols, so it imports neither, and a
test may give it its own."""

from __future__ import annotations

from typing import Any, Protocol

from ...core import Game, Outcome
from ...record import Record
from ..errors import Text
from .people import Person
from .session import Event, GameSession


class ClockRules(Protocol):
    """A game's clock, as the service keeps it."""

    time_ran_out: Text
    """The refusal of a change that came after the mover's time ran out."""

    def checked_control(
        self, game: str, control: str | None, rated: bool, mode: str,
        people: dict[str, Person], position: str | None,
    ) -> str | None:  # fmt: skip
        """A new game's time control in its canonical form, or a ``GameError``."""

    def new_clock(self, session: GameSession) -> Any:
        """A new game's clock (``None``: no clock)."""

    def after_change(self, session: GameSession, events: list[Event], stamp: float) -> None:
        """The clock pressed, started or stopped by a change, written into its events."""

    async def flagged(self, session: GameSession, stamp: float) -> tuple[Outcome, float] | None:
        """How the game ends if the side to move has run out of time at ``stamp``."""

    def end_event(self, session: GameSession, outcome: Outcome, at: float) -> Event:
        """The log entry of a game ended by its clock or a claim."""


class Following(Protocol):
    """The next game of a match or money session (see ``points.Following``)."""

    @property
    def start(self) -> str: ...

    @property
    def same_sides(self) -> bool: ...


class MatchRules(Protocol):
    """Games played for points: a match's first game, and what follows a finished one."""

    def first_start(
        self, game: Game, *, length: int | None, rated: bool, position: str | None,
        next_start: str | None,
    ) -> str | None:  # fmt: skip
        """The start the app gives a new game (``None``: the game's own)."""

    def following(self, record: Record) -> Following | None:
        """What follows a finished game played for points (``None`` for the others)."""
