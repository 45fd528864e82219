"""Game clocks kept by the server: time controls, presets, flag fall, and the end of a game
on time or when a player leaves.

Three kinds of time control (``TimeControl``), each with one canonical text form:

- **Fischer** (the General, Defiance), ``"5+3"``: minutes for the game, plus seconds added
  after each move. Presets 3+2 and 5+3 (blitz), 10+5 and 15+10 (rapid), 30+20 (classical).
- **Delay** (backgammon), ``"3+12d"``: a reserve of minutes for the game, and a per-move delay
  that counts down first on every turn; the reserve runs only once the delay is spent, and
  what is left of the delay is not kept. This is the simple ("US") delay of backgammon
  tournaments and servers. A match is a chain of games, each with its own clock (``points``),
  so the reserve is per game, not per match. Presets 1, 3, 5 and 10 minutes, each with the
  12-second delay that backgammon tournaments use.
- **Correspondence** (all three games), ``"3d"``: days per move; every move gives the next
  player the full time again (as lichess's correspondence). Presets 1, 3, 7 and 14 days.

No clock at all (``None``) stays possible for casual games.

A ``Clock`` is a value: ``press`` (a side has moved), ``stop`` (the game ended) return a new
clock; the time always comes in as an argument (``now``, seconds since the epoch), so the
server passes ``timesource.time()`` and tests pass what they like. Any process can tell a
game's ``deadline`` (store it in an indexed column and let a sweeper look for past deadlines).
There is no pause. As on lichess, a side's first move of a live game does not use its clock; it must
come within ``FIRST_MOVE_SECONDS`` (in correspondence: within the time per move) or the game is
aborted (no result, never rated).

Running out of time loses, except that a side whose opponent cannot possibly win draws, in the
games that have draws (``timeout_outcome``). The knowledge of what "cannot possibly win" means
is per game (``can_win``) and conservative: it says so only when it is proved.

A player who leaves a live game (their last connection closes) can be claimed against after a
grace period that grows with the time control (``grace_seconds``), while it is their turn.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ...core import CHANCE, Outcome, State
from ..errors import Text, say, say_n
from ..i18n.catalog import LANGUAGES

FISCHER = "fischer"
DELAY = "delay"
CORRESPONDENCE = "correspondence"
KINDS = (FISCHER, DELAY, CORRESPONDENCE)

DAY = 86400.0
MOVES_PER_GAME = 40  # lichess's estimate of a game's length: base + 40 x increment
FIRST_MOVE_SECONDS = 30.0  # a live game is aborted if a side's first move takes longer
GRACE_UNTIMED = 300.0  # a casual game without clock: claim after five minutes away

TIME_OUT = "time-out"
LEFT = "left"
ABORTED = "aborted"
REASONS: dict[str, Text] = {
    TIME_OUT: say("time-out"),
    LEFT: say("the opponent left the game"),
    ABORTED: say("aborted (no first move in time)"),
}

# Games that have a draw; in the others running out of time always loses.
HAS_DRAWS = {"general": True, "backgammon": False, "defiance": True}


@dataclass(frozen=True)
class TimeControl:
    """How much time each side has: ``kind`` (``fischer``, ``delay`` or ``correspondence``),
    ``base`` (seconds: the game's time, the reserve, or the time per move) and ``step``
    (seconds: the increment or the delay).

    >>> TimeControl.parse("5+3")
    TimeControl(kind='fischer', base=300.0, step=3.0)
    >>> TimeControl.parse("3+12d").key, TimeControl.parse("3d").speed
    ('3+12d', 'correspondence')
    """

    kind: str
    base: float
    step: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of time control {self.kind!r}")
        if not (math.isfinite(self.base) and math.isfinite(self.step)):
            raise ValueError("a time control's times are finite numbers")
        if self.base <= 0 or self.step < 0:
            raise ValueError("a time control needs some time, and no negative step")
        if self.kind == CORRESPONDENCE and self.step:
            raise ValueError("correspondence has no increment")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The control written ``"5+3"`` (minutes + seconds of increment), ``"3+12d"``
        (minutes of reserve + seconds of delay) or ``"3d"`` (days per move); ``ValueError``
        on anything else."""
        if not isinstance(text, str):
            raise ValueError(f"a time control is text such as '5+3', not {text!r}")
        found = _CONTROL.fullmatch(text.strip().lower())
        if found is None:
            raise ValueError(
                f"unknown time control {text!r}: write minutes+seconds ('5+3'), "
                "a backgammon reserve and delay ('3+12d') or days per move ('3d')"
            )
        minutes, seconds, delay, days = found.group("min", "sec", "delay", "days")
        if days is not None:
            return cls(CORRESPONDENCE, int(days) * DAY)
        return cls(DELAY if delay else FISCHER, float(minutes) * 60.0, float(seconds))

    @property
    def key(self) -> str:
        """The canonical text form (``parse`` reads it back)."""
        if self.kind == CORRESPONDENCE:
            return f"{_number(self.base / DAY)}d"
        suffix = "d" if self.kind == DELAY else ""
        return f"{_number(self.base / 60.0)}+{_number(self.step)}{suffix}"

    @property
    def live(self) -> bool:
        """Whether the players are expected to stay at the board (not correspondence)."""
        return self.kind != CORRESPONDENCE

    @property
    def estimate(self) -> float:
        """The expected length of a game in seconds (lichess: base + 40 x increment)."""
        return self.base + MOVES_PER_GAME * self.step

    @property
    def speed(self) -> str:
        """``bullet``, ``blitz``, ``rapid``, ``classical`` or ``correspondence`` (lichess's
        thresholds on ``estimate``: under 3, 8 and 25 minutes)."""
        if not self.live:
            return "correspondence"
        if self.estimate < 180:
            return "bullet"
        if self.estimate < 480:
            return "blitz"
        if self.estimate < 1500:
            return "rapid"
        return "classical"

    @property
    def low_time(self) -> float:
        """Below this many seconds a clock shows (and sounds) its low-time state: an eighth
        of the base time, between 10 and 60 seconds, as lichess; a tenth of a
        correspondence move's time, at most 12 hours."""
        if not self.live:
            return min(self.base / 10.0, DAY / 2)
        return min(60.0, max(10.0, self.base / 8.0))

    def label(self) -> Text:
        """The control for people (``control_name``): ``5+3``, ``3 min + 12 s delay``,
        ``3 days a move``."""
        return control_name(self.key)


def control_name(key: str | None) -> Text:
    """The one name of a time control, for people, wherever one is shown: ``"5+3"``
    (Fischer: minutes + seconds added a move, as players write it), ``"1 min + 12 s
    delay"`` (backgammon's ``"1+12d"``: a reserve of minutes and a delay of seconds a move),
    ``"1 day a move"`` / ``"3 days a move"`` (correspondence, ``"3d"``), and ``"No clock"``
    (``None``). A key that does not read is shown as it is (it names no control we know)."""
    if not key:
        return say("No clock")
    try:
        control = TimeControl.parse(key)
    except ValueError:
        return Text(key)  # as it is: no word to translate
    if control.kind == CORRESPONDENCE:
        days = round(control.base / DAY)
        return say_n("{n} day a move", "{n} days a move", days)
    values = {"m": _number(control.base / 60.0), "s": _number(control.step)}
    if control.kind == DELAY:
        return say("{m} min + {s} s delay", **values)
    return say("{m}+{s}", **values)


def control_names(key: str | None) -> dict[str, str]:
    """``control_name`` in every language of the site, for the pages' scripts."""
    name = control_name(key)
    return {lang: name(lang) for lang in LANGUAGES}


_CONTROL = re.compile(
    r"(?:(?P<min>\d{1,3}(?:\.\d{1,2})?)\+(?P<sec>\d{1,3})(?P<delay>d)?)|(?:(?P<days>\d{1,2})d)"
)


def _number(value: float) -> str:
    """``5``, ``0.5``: a number as the canonical forms write it."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _controls(*keys: str) -> tuple[TimeControl, ...]:
    return tuple(TimeControl.parse(k) for k in keys)


CORRESPONDENCE_PRESETS = _controls("1d", "3d", "7d", "14d")
PRESETS: dict[str, tuple[TimeControl, ...]] = {
    "general": _controls("3+2", "5+3", "10+5", "15+10", "30+20") + CORRESPONDENCE_PRESETS,
    "defiance": _controls("3+2", "5+3", "10+5", "15+10", "30+20") + CORRESPONDENCE_PRESETS,
    "backgammon": _controls("1+12d", "3+12d", "5+12d", "10+12d") + CORRESPONDENCE_PRESETS,
}


def allowed(game: str, control: TimeControl) -> bool:
    """Whether ``control`` suits ``game``: Fischer for the General and Defiance, delay for
    backgammon, correspondence for all three."""
    if control.kind == CORRESPONDENCE:
        return True
    return control.kind == (DELAY if game == "backgammon" else FISCHER)


@dataclass(frozen=True)
class Flag:
    """A clock ran out: ``side``'s, at the instant ``at``; ``first_move`` when it was the
    side's first move (the game is then aborted rather than lost)."""

    side: str
    at: float
    first_move: bool = False


@dataclass(frozen=True)
class Clock:
    """Both sides' clocks in one game.

    ``remaining``: per side, the seconds of main time (Fischer), of reserve (delay), or of the
    time per move (correspondence), as they stood when ``running`` started; ``running`` is the
    side whose clock runs (``None``: none) since ``since``; ``moves`` counts each side's moves;
    ``berserk``: the sides that gave up half their time and their increment (a tournament's
    berserk, see ``berserk``).
    """

    control: TimeControl
    remaining: Mapping[str, float]
    running: str | None = None
    since: float | None = None
    moves: Mapping[str, int] = field(default_factory=dict)
    berserk: frozenset[str] = frozenset()

    @classmethod
    def new(cls, control: TimeControl, sides: tuple[str, ...]) -> Clock:
        """A clock with the full time for each of ``sides``, not running yet."""
        if len(sides) != 2 or sides[0] == sides[1]:
            raise ValueError(f"a clock is for two sides, not {sides!r}")
        return cls(control, {s: control.base for s in sides}, None, None, {s: 0 for s in sides})

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.remaining)

    def _first_move(self, side: str) -> bool:
        """Whether ``side`` has not moved yet."""
        return self.moves.get(side, 0) == 0

    def _free(self, side: str) -> bool:
        """Whether ``side``'s thinking costs its clock nothing now: its first move of a live
        game (that move has its own limit)."""
        return self.control.live and self._first_move(side)

    def deadline(self) -> float | None:
        """When the running side's time runs out (``None`` when no clock runs)."""
        side, since = self.running, self.since
        if side is None or since is None:
            return None
        if self._free(side):
            return since + FIRST_MOVE_SECONDS
        if self.control.kind == DELAY:
            return since + self.control.step + self.remaining[side]
        return since + self.remaining[side]

    def left(self, now: float) -> dict[str, float]:
        """Each side's time left at ``now`` (never below zero), as the clock face shows it:
        the reserve for a delay clock (see ``delay_left``)."""
        out = dict(self.remaining)
        side, since = self.running, self.since
        if side is not None and since is not None and not self._free(side):
            out[side] = max(0.0, self.remaining[side] - self._charge(now - since))
        return out

    def delay_left(self, now: float) -> float | None:
        """The running side's delay still to count down before its reserve runs."""
        if self.control.kind != DELAY or self.running is None or self.since is None:
            return None
        return max(0.0, self.control.step - max(0.0, now - self.since))

    def _charge(self, elapsed: float) -> float:
        """What ``elapsed`` seconds of thinking cost the clock."""
        elapsed = max(0.0, elapsed)
        if self.control.kind == DELAY:
            return max(0.0, elapsed - self.control.step)
        return elapsed

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy, to store with the game (``from_dict`` reads it back)."""
        out: dict[str, Any] = {
            "control": self.control.key,
            "remaining": dict(self.remaining),
            "running": self.running,
            "since": self.since,
            "moves": dict(self.moves),
        }
        if self.berserk:  # (absent otherwise: the clocks stored before it read the same)
            out["berserk"] = sorted(self.berserk)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Clock:
        """A clock from ``to_dict``'s form; ``ValueError`` on anything else."""
        try:
            control = TimeControl.parse(data["control"])
            remaining = {str(k): float(v) for k, v in data["remaining"].items()}
            moves = {str(k): int(v) for k, v in data["moves"].items()}
            running = data["running"]
            since = None if data["since"] is None else float(data["since"])
            berserk = frozenset(str(s) for s in data.get("berserk", ()))
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"not a clock: {data!r}") from exc
        sides = tuple(remaining)
        if len(sides) != 2 or set(moves) != set(sides) or running not in (None, *sides):
            raise ValueError(f"not a clock: {data!r}")
        if (running is None) != (since is None) or min(remaining.values()) < 0:
            raise ValueError(f"not a clock: {data!r}")
        if not berserk <= set(sides):
            raise ValueError(f"not a clock: {data!r}")
        return cls(control, remaining, running, since, moves, berserk)

    def view(self, now: float) -> dict[str, Any]:
        """What the browser needs to draw the clocks and let them tick: the times left at
        ``now`` (the server's time, sent along), whose runs, the delay and first-move
        countdowns, the deadline, and which sides are in low time."""
        left = self.left(now)
        side = self.running
        first = side is not None and self._free(side)
        deadline = self.deadline()
        return {
            "control": self.control.key,
            "kind": self.control.kind,
            "now": now,
            "running": side,
            "left": left,
            "delay": self.delay_left(now),
            "first_move": max(0.0, deadline - now) if first and deadline is not None else None,
            "deadline": deadline,
            "low": {s: t < self.control.low_time for s, t in left.items()},
        }


def _side(clock: Clock, side: str | None) -> None:
    if side is not None and side not in clock.remaining:
        raise ValueError(f"unknown side {side!r}: this clock's sides are {clock.sides}")


def flag(clock: Clock | None, now: float) -> Flag | None:
    """The running side's flag if its time is out at ``now``; else ``None``."""
    if clock is None:
        return None
    deadline, side = clock.deadline(), clock.running
    if deadline is None or side is None or now < deadline:
        return None
    return Flag(side, deadline, clock._first_move(side))


def press(clock: Clock, now: float, next_side: str | None) -> Clock:
    """The running side has moved at ``now``: its thinking time is charged (a Fischer clock
    then gains its increment, a correspondence clock is full again for the next move), and
    ``next_side``'s clock starts (``None``: the game is over, no clock runs). A side may
    follow itself (the other's turn was a forced pass). With no clock running, this only
    starts ``next_side``'s.

    Check ``flag`` first: pressing a clock whose time is out raises ``ValueError``. To hand
    the turn over without a move (an undo), ``press(stop(clock, now), now, side)``.
    """
    _side(clock, next_side)
    side, since = clock.running, clock.since
    if side is None or since is None:
        if next_side is None:
            return clock
        remaining = dict(clock.remaining)
        if clock.control.kind == CORRESPONDENCE:
            remaining[next_side] = clock.control.base
        return replace(clock, remaining=remaining, running=next_side, since=now)
    fell = flag(clock, now)
    if fell is not None:
        raise ValueError(f"the {side}' time ran out at {fell.at}: the move comes too late")
    remaining = dict(clock.remaining)
    if not clock._free(side):
        remaining[side] -= clock._charge(now - since)
        if clock.control.kind == FISCHER and next_side is not None and side not in clock.berserk:
            remaining[side] += clock.control.step
    if clock.control.kind == CORRESPONDENCE:
        remaining[side] = clock.control.base  # (the next move's time)
        if next_side is not None:
            remaining[next_side] = clock.control.base
    moves = dict(clock.moves)
    moves[side] += 1
    return Clock(clock.control, remaining, next_side, None if next_side is None else now, moves,
                 clock.berserk)  # fmt: skip


def berserk(clock: Clock, side: str) -> Clock:
    """``side`` goes berserk (lichess's arena rule): half its time, no increment from now on.
    Only before its first move, on a live Fischer clock, once (``ValueError`` otherwise)."""
    _side(clock, side)
    if clock.control.kind != FISCHER or not clock.control.live:
        raise ValueError("berserk is for live Fischer clocks")
    if not clock._first_move(side) or side in clock.berserk:
        raise ValueError("berserk only before one's first move, once")
    remaining = dict(clock.remaining)
    remaining[side] = remaining[side] / 2.0
    return replace(clock, remaining=remaining, berserk=clock.berserk | {side})


def stop(clock: Clock, now: float) -> Clock:
    """The game ended at ``now`` (or the clock stops for an undo): the running side is
    charged its time (down to zero at most), and no clock runs."""
    if clock.running is None:
        return clock
    left = clock.left(now)
    return Clock(clock.control, left, None, None, dict(clock.moves), clock.berserk)


# -- leaving a game ----------------------------------------------------------------------------

GRACE_BY_SPEED = {"bullet": 15.0, "blitz": 20.0, "rapid": 30.0, "classical": 60.0}


def grace_seconds(control: TimeControl | None) -> float | None:
    """How long a player may be away from a live game, on move, before the opponent may claim
    it: 15 s (bullet), 20 s (blitz), 30 s (rapid), 60 s (classical); five minutes in a casual
    game without clock; ``None`` in correspondence (the time per move decides there)."""
    if control is None:
        return GRACE_UNTIMED
    if not control.live:
        return None
    return GRACE_BY_SPEED[control.speed]


def claim_at(control: TimeControl | None, gone_since: float) -> float | None:
    """When the opponent of a player gone since ``gone_since`` may claim the game (the end of
    the countdown they see); ``None`` when leaving cannot be claimed against."""
    grace = grace_seconds(control)
    return None if grace is None else gone_since + grace


def can_claim(
    control: TimeControl | None,
    *,
    gone: str,
    to_move: str | None,
    gone_since: float | None,
    now: float,
) -> bool:
    """Whether the opponent of ``gone`` (away since ``gone_since``; ``None``: connected) may
    claim the game at ``now``: ``gone`` must be on move, and away for the grace period."""
    if gone_since is None or to_move != gone:
        return False
    when = claim_at(control, gone_since)
    return when is not None and now >= when


# -- who can still win -------------------------------------------------------------------------

SEARCH_BUDGET = 5000  # states a proof that a side cannot win may visit (about 0.1 s)


def can_win(
    state: State, side: str, *, moves_left: int | None = None, budget: int = SEARCH_BUDGET
) -> bool:
    """Whether ``side`` could still win from ``state`` by some series of legal moves (the
    other side helping), within ``moves_left`` moves when the game has a turn limit.

    ``False`` only when it is proved; when a proof is out of reach the answer is ``True``.
    """
    game = state.game
    if side not in game.sides:
        raise ValueError(f"unknown side {side!r}: the sides are {', '.join(game.sides)}")
    over = state.outcome()
    if over is not None:
        return over.winner == side
    if moves_left is not None and moves_left <= 0:
        return False
    if (
        game.name == "defiance"
        and moves_left is not None
        and not _defiance_in_reach(state, side, moves_left)
    ):
        return False
    if game.name == "general":
        proved = _reachable(state, lambda s: _won_by(s, side), moves_left, budget)
        return proved is not False
    return True


def _won_by(state: State, side: str) -> bool:
    outcome = state.outcome()
    return outcome is not None and outcome.winner == side


def _reachable(
    start: State, goal: Callable[[State], bool], depth: int | None, budget: int
) -> bool | None:
    """Whether some series of legal moves (and chance outcomes) from ``start``, at most
    ``depth`` long, reaches a state where ``goal`` holds: ``True``, ``False`` (every such
    state visited), or ``None`` (more than ``budget`` states to visit). Breadth first, so that
    a state is first met at its least depth and is never visited twice."""
    seen = {start}
    level: deque[tuple[State, int]] = deque([(start, 0)])
    while level:
        state, ply = level.popleft()
        if goal(state):
            return True
        if state.outcome() is not None or (depth is not None and ply >= depth):
            continue
        if len(seen) > budget:
            return None
        if state.to_move == CHANCE:
            children = [state.play(o) for o, p in state.chance_outcomes() if p > 0]
        else:
            children = [state.play(m) for m in state.legal_moves()]
        for child in children:
            if child not in seen:
                seen.add(child)
                level.append((child, ply + 1))
    return False


_DD_TOKEN = re.compile(r"(\d+)|([RI])(NE|NW|SE|SW|N|E|S|W)")


def _defiance_in_reach(state: State, side: str, moves_left: int) -> bool:
    """Lower bounds on the moves a Defiance side needs to win, against the moves it has left
    (the side to move plays first). The Rebels need a key point in each sector with its four
    cells theirs, and place at most one counter a turn; an Imperial Command steps one point
    orthogonally a turn and the Rebel Command at most one diagonal step (two closer) between."""
    cells, _pools, commands, _side_to_move = state.position().split()
    rows = cells.split("/")
    n = len(rows)
    h = n // 2
    rebel: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        j, i = n - 1 - r, 0
        for count, owner, _direction in _DD_TOKEN.findall(row):
            if count:
                i += int(count)
                continue
            if owner == "R":
                rebel.add((i, j))
            i += 1
    rx = ry = 0
    imperial: list[tuple[int, int]] = []
    for command in commands.split(","):
        x, y = (int(v) for v in command[1:].split("."))
        if command[0] == "R":
            rx, ry = x, y
        else:
            imperial.append((x, y))
    my_turns = moves_left // 2 if state.to_move != side else (moves_left + 1) // 2
    if side == "rebels":
        missing: dict[tuple[bool, bool], int] = {}
        for x in range(1, n):
            for y in range(1, n):
                if x == h or y == h:
                    continue
                around = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                need = sum(cell not in rebel for cell in around)
                sector = (x > h, y > h)
                missing[sector] = min(missing.get(sector, 4), need)
        return sum(missing.values()) <= my_turns
    distance = min(abs(x - rx) + abs(y - ry) for x, y in imperial)
    rebel_steps = my_turns if state.to_move != side else my_turns - 1
    return my_turns >= 1 and distance <= my_turns + 2 * max(0, rebel_steps)


def timeout_outcome(state: State, flagged: str, *, moves_left: int | None = None) -> Outcome:
    """The result when ``flagged`` runs out of time in ``state``: the opponent wins, unless
    the game has draws and the opponent cannot possibly win (then a draw). Reason
    ``time-out``."""
    game = state.game
    opponent = game.opponent(flagged)
    if HAS_DRAWS.get(game.name, True) and not can_win(state, opponent, moves_left=moves_left):
        return Outcome(None, TIME_OUT)
    return Outcome(opponent, TIME_OUT)


def flag_outcome(fell: Flag, state: State, *, moves_left: int | None = None) -> Outcome:
    """The result of a flag fall: ``aborted`` (no winner, not rated) when it was the side's
    first move, else as ``timeout_outcome``."""
    if fell.first_move:
        return Outcome(None, ABORTED)
    return timeout_outcome(state, fell.side, moves_left=moves_left)


def claim_outcome(state: State, claimer: str, *, moves_left: int | None = None) -> Outcome:
    """The result when ``claimer`` claims a game the opponent left: ``claimer`` wins, unless
    the game has draws and ``claimer`` cannot possibly win (a draw). Reason ``left``."""
    game = state.game
    game.opponent(claimer)  # checks the side
    if HAS_DRAWS.get(game.name, True) and not can_win(state, claimer, moves_left=moves_left):
        return Outcome(None, LEFT)
    return Outcome(claimer, LEFT)


__all__ = [
    "ABORTED",
    "LEFT",
    "PRESETS",
    "TIME_OUT",
    "Clock",
    "Flag",
    "TimeControl",
    "allowed",
    "can_claim",
    "can_win",
    "claim_at",
    "claim_outcome",
    "control_name",
    "control_names",
    "flag",
    "flag_outcome",
    "grace_seconds",
    "press",
    "stop",
    "timeout_outcome",
]
