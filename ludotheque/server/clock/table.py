"""The clock of a game on the server, the end on time, and claims against a player who left.

The rules of clocks are ``clocks``'s; this module keeps them on a game. Nothing depends on the
process a player is connected to:

- The clock's state after each change is written into the change's last log entry (a
  ``clock`` entry when the change has none), so any process rebuilds it by replaying the log.
- A change checks the clock first (``flagged``): if the side to move has run out of time, the
  game ends on time instead, at the deadline, whichever process the request came to.
- Every change that sets a running clock queues a ``clock`` job for its deadline, in the same
  write (older clock jobs of the game become obsolete). Whoever takes it when it is due
  (``clock_job``) ends the game if nobody moved: idempotent, checked against the log place
  where the clock was set.
- A player whose last socket on a live game closes is written into the log as ``gone`` (and
  ``back`` on return); after the grace period, while it is their turn, the opponent may
  ``claim`` the game. Everyone sees the countdown, computed from the log's time.

The changes a game's clock makes on its own (the end on time, a player's going and coming
back, a claim) are ``clock.jobs``'s.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...core import CHANCE, Outcome
from ..errors import GameError, say
from ..play.people import Person
from ..play.session import BOTH, WATCH, Event, GameSession, note_clock
from .controls import (
    Clock,
    TimeControl,
    allowed,
    claim_at,
    control_names,
    flag,
    flag_outcome,
    grace_seconds,
    press,
    stop,
)

log = logging.getLogger("ludotheque.timing")

TIME_RAN_OUT = say("the time ran out: the game is over")
BAD_CONTROL = say("this time control does not suit this game")
RATED_NEEDS = say(
    "a rated game needs a clock and an account on each side",
)
NO_CLAIM = say(
    "there is nothing to claim: your opponent is here, or the grace period is not over",
)
LONGEST = 180 * 60.0  # the longest live game's base time (minutes): 3 hours


def checked_control(
    game: str,
    control: str | None,
    rated: bool,
    mode: str,
    people: dict[str, Person],
    position: str | None,
) -> str | None:
    """The time control of a new game in its canonical form (``None``: no clock), or a
    ``GameError``: a control the game does not use, or a rated game without a clock, with a
    side nobody can be rated for, or from a position."""
    key = None
    if control:
        try:
            parsed = TimeControl.parse(control)
        except ValueError:
            raise GameError(BAD_CONTROL, "bad-control", 400) from None
        if not allowed(game, parsed) or (parsed.live and parsed.base > LONGEST):
            raise GameError(BAD_CONTROL, "bad-control", 400)
        key = parsed.key
    if rated:
        rateable = len(people) == 2 and all(p.rateable for p in people.values())
        if key is None or not rateable or position or mode == "local":
            raise GameError(RATED_NEEDS, "bad-rated", 400)
    return key


def new_clock(session: GameSession) -> Clock | None:
    """A full clock for a new game with a time control (not running yet)."""
    if session.control is None:
        return None
    return Clock.new(TimeControl.parse(session.control), tuple(session.record.game_object.sides))


def running_side(session: GameSession) -> str | None:
    if session.finished:
        return None
    to_move = session.record.state.to_move
    return None if to_move in (None, CHANCE) else str(to_move)


def after_change(session: GameSession, events: list[Event], stamp: float) -> None:
    """Press, start or stop the clock after a change made at ``stamp``, and write its new
    state into the change's events: a move presses the mover's clock (the next side's
    starts); anything else that changes whose turn it is (an undo, the end) stops the clock
    and starts the right one."""
    clock: Clock | None = session.clock
    if clock is None:
        return
    running = running_side(session)
    moved = any(kind == "move" for kind, _ in events)
    if moved and clock.running is not None:
        new = press(clock, stamp, running)
    elif running != clock.running:
        new = stop(clock, stamp)
        if running is not None:
            new = press(new, stamp, running)
    else:
        return
    session.clock = new
    note_clock(session)
    state = new.to_dict()
    if events:
        kind, data = events[-1]
        events[-1] = (kind, {**data, "clock": state})
    else:
        events.append(("clock", state))


def moves_left(session: GameSession) -> int | None:
    """Moves before the record's turn limit draws the game (``None``: no limit)."""
    limit = session.record.turn_limit
    return None if limit is None else max(0, limit - len(session.record.moves))


async def flagged(session: GameSession, stamp: float) -> tuple[Outcome, float] | None:
    """If the running side's time is out at ``stamp``: the result (a loss, a draw when the
    opponent cannot win, ``aborted`` on a first move) and the instant the flag fell."""
    clock: Clock | None = session.clock
    if clock is None or session.finished:
        return None
    fell = flag(clock, stamp)
    if fell is None:
        return None
    state = session.record.state
    left = moves_left(session)
    outcome = await asyncio.to_thread(flag_outcome, fell, state, moves_left=left)
    return outcome, fell.at


def end_event(session: GameSession, outcome: Outcome, at: float) -> Event:
    """End the game in memory with ``outcome`` (the clock stopped at ``at``): the log entry."""
    session.record.end(outcome)
    data: dict[str, Any] = {"winner": outcome.winner, "reason": outcome.reason}
    if session.clock is not None:
        session.clock = stop(session.clock, max(at, session.clock.since or at))
        data["clock"] = session.clock.to_dict()
    return ("end", data)


# -- leaving and claiming ----------------------------------------------------------------------


def watched_presence(session: GameSession, seat: str) -> bool:
    """Whether ``seat``'s comings and goings are written down: a player's own seat in a live
    game between two people (not at one screen, not against the computer), and once any game
    between two people is over, until its rematch is made or declined (an offer lapses when
    a player leaves: ``play.offers``)."""
    if session.mode != "friend" or seat in (BOTH, WATCH):
        return False
    if session.finished:
        return session.rematch_id is None and session.rematch_declined is None
    return grace_seconds(control_of(session)) is not None


def control_of(session: GameSession) -> TimeControl | None:
    return None if session.control is None else TimeControl.parse(session.control)


# -- what a page is told -----------------------------------------------------------------------


def table_view(session: GameSession, stamp: float) -> dict[str, Any]:
    """The clock (its faces at ``stamp``, the server's time), the time control, who plays
    each side, who is away and when the game may be claimed against them."""
    control = control_of(session)
    away = {}
    for side, since in session.presence.items():
        when = claim_at(control, since)
        away[side] = {"since": since, "claim_at": when}
    clock: Clock | None = session.clock
    return {
        "now": stamp,
        "control": None
        if control is None
        else {
            "key": control.key,
            "kind": control.kind,
            "speed": control.speed,
            "low": control.low_time,
            "name": control_names(control.key),
        },
        "clock": None if clock is None else clock.view(stamp),
        "rated": session.rated,
        "people": {side: person.view() for side, person in session.people.items()},
        "away": away,
        "ratings": session.rating_changes,
    }


class ClockTable:
    """The clock rules the game service is given (``play.collaborators.ClockRules``)."""

    time_ran_out = TIME_RAN_OUT
    checked_control = staticmethod(checked_control)
    new_clock = staticmethod(new_clock)
    after_change = staticmethod(after_change)
    flagged = staticmethod(flagged)
    end_event = staticmethod(end_event)


CLOCKS = ClockTable()
