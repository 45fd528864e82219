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

``can_win`` may search for a tenth of a second: it runs in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...core import CHANCE, Outcome
from ..play.people import Person
from ..play.service import BOTH, WATCH, Event, GameError, GameService, GameSession, say
from .controls import (
    Clock,
    TimeControl,
    allowed,
    can_claim,
    claim_at,
    claim_outcome,
    flag,
    flag_outcome,
    grace_seconds,
    press,
    stop,
)

log = logging.getLogger("ludotheque.timing")

TIME_RAN_OUT = say(
    "the time ran out: the game is over", "le temps est écoulé : la partie est finie"
)
BAD_CONTROL = say(
    "this time control does not suit this game", "cette cadence ne convient pas à ce jeu"
)
RATED_NEEDS = say(
    "a rated game needs a clock and an account on each side",
    "une partie classée demande une pendule et un compte de chaque côté",
)
NO_CLAIM = say(
    "there is nothing to claim: your opponent is here, or the grace period is not over",
    "il n’y a rien à réclamer : votre adversaire est là, ou le délai de grâce n’est pas fini",
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


def _running_side(session: GameSession) -> str | None:
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
    running = _running_side(session)
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
    session.record.result = outcome
    data: dict[str, Any] = {"winner": outcome.winner, "reason": outcome.reason}
    if session.clock is not None:
        session.clock = stop(session.clock, max(at, session.clock.since or at))
        data["clock"] = session.clock.to_dict()
    return ("end", data)


async def check_flag(service: GameService, session: GameSession) -> bool:
    """End the game if the side to move has run out of time (a client saw its clock reach
    zero, or a clock job came due); whether it ended. Idempotent."""
    async with session.lock:
        await service.refresh(session)
        stamp = service.now()
        late = await flagged(session, stamp)
        if late is None:
            return False
        await service.apply(session, lambda: [end_event(session, *late)], stamp=stamp)
    await service._announce(session)
    return True


async def clock_job(
    service: GameService, game_id: str, seq: int, done: Any
) -> tuple[str, float | None]:
    """A ``clock`` job for the clock set at log place ``seq``: end the game if its flag fell
    (``done`` closes the job in the same transaction). Returns ``("ended", None)``,
    ``("obsolete", None)`` (a later change set the clock again, or the game is over) or
    ``("early", deadline)`` (the deadline has not come: the job is to wait until then)."""
    session = await service.get(game_id)
    async with session.lock:
        await service.refresh(session)
        clock: Clock | None = session.clock
        if session.finished or clock is None or session.clock_seq > seq:
            return "obsolete", None
        stamp = service.now()
        late = await flagged(session, stamp)
        if late is None:
            return "early", clock.deadline()
        await service.apply(session, lambda: [end_event(session, *late)], done, stamp=stamp)
    await service._announce(session)
    return "ended", None


# -- leaving and claiming ----------------------------------------------------------------------


def watched_presence(session: GameSession, seat: str) -> bool:
    """Whether ``seat``'s comings and goings are written down: a player's own seat in a live
    game between two people (not at one screen, not against the computer)."""
    return (
        session.mode == "friend"
        and seat not in (BOTH, WATCH)
        and not session.finished
        and grace_seconds(_control(session)) is not None
    )


def _control(session: GameSession) -> TimeControl | None:
    return None if session.control is None else TimeControl.parse(session.control)


async def presence(service: GameService, session: GameSession, side: str, here: bool) -> None:
    """Write down that ``side``'s player came back (``here``) or left (nothing if the log
    already says so)."""
    async with session.lock:
        await service.refresh(session)
        if not watched_presence(session, side) or (side in session.presence) != here:
            return
        stamp = service.now()

        def change() -> list[Event]:
            if here:
                session.presence.pop(side, None)
                return [("back", {"side": side})]
            session.presence[side] = stamp
            return [("gone", {"side": side, "at": stamp})]

        try:
            await service._change(session, change)
        except GameError:  # the game ended meanwhile (on time, or elsewhere)
            return
    await service._announce(session)


async def claim(service: GameService, session: GameSession, seat: str) -> None:
    """``seat`` claims the game its opponent left: a win (a draw if the claimer cannot win),
    once the opponent has been away for the grace period, on move."""
    async with session.lock:
        await service.refresh(session)
        sides = session.record.game_object.sides
        if session.mode != "friend" or seat not in sides or session.finished:
            raise GameError(NO_CLAIM, "no-claim", 409)
        gone = session.record.game_object.opponent(seat)
        stamp = service.now()
        to_move = _running_side(session)
        if not can_claim(
            _control(session), gone=gone, to_move=to_move,
            gone_since=session.presence.get(gone), now=stamp,
        ):  # fmt: skip
            raise GameError(NO_CLAIM, "no-claim", 409)
        state = session.record.state
        left = moves_left(session)
        outcome = await asyncio.to_thread(claim_outcome, state, seat, moves_left=left)
        await service._change(session, lambda: [end_event(session, outcome, stamp)])
    await service._announce(session)


# -- what a page is told -----------------------------------------------------------------------


def table_view(session: GameSession, stamp: float) -> dict[str, Any]:
    """The clock (its faces at ``stamp``, the server's time), the time control, who plays
    each side, who is away and when the game may be claimed against them."""
    control = _control(session)
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
        },
        "clock": None if clock is None else clock.view(stamp),
        "rated": session.rated,
        "people": {side: person.view() for side, person in session.people.items()},
        "away": away,
        "ratings": session.rating_changes,
    }


__all__ = [
    "TIME_RAN_OUT",
    "after_change",
    "check_flag",
    "checked_control",
    "claim",
    "clock_job",
    "end_event",
    "flagged",
    "new_clock",
    "presence",
    "table_view",
]
