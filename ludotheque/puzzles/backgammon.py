"""Backgammon's puzzles: checker plays and cube decisions of seeded money-game self-play where
the best choice beats the second by at least ``MARGIN`` (equity per cube, money play with the
Jacoby rule), found by a shallow search and confirmed by a deeper one.

- A play: found at one ply (the network on every play, GNU Backgammon's 0-ply), confirmed at
  two plies (each of the other side's 21 rolls and its best reply, its cube access counted:
  ``BackgammonAgent.two_ply``) on every legal play: the same play is best there too, by at
  least ``MARGIN``.
- A cube decision (``double`` / ``no double`` for the side on roll, ``take`` / ``drop`` for
  the side doubled): found one roll ahead (``BackgammonAgent.cube_equities``: each roll's best
  play by the network), confirmed two rolls ahead (each roll's best play chosen among the
  five best at one ply by the two-ply search, valued by it, with the cube as it would be).

Themes by simple features of the position (the mover's view; see ``features``): ``bear-off``
(all the mover's checkers home), ``race`` (no contact), ``hit`` (the answer hits), ``blitz``
(the answer hits or closes a point in the home board while the other side has a checker on the
bar or in the mover's home), ``prime`` (the answer leaves four or more points in a row made),
``anchor`` (the answer makes a point in the other side's home board), ``back game`` (the mover
holds two points or more in the other side's home board and trails by 60 pips or more),
``cube`` (a cube decision).

The puzzles are found and checked with the network that found them (``data/backgammon-network.npz``,
see ``pinned``), not whichever network the engine ships: a stronger network would move their
recorded margins, and the set is a fixed thing that players solve against stored answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import ludotheque

from ..ai.agent import Agent, Budget
from ..ai.backgammon import BackgammonAgent
from ..ai.levels import make_agent
from ..core import CHANCE
from ..games.backgammon import board as B
from ..games.backgammon import equity, network
from ..games.backgammon.cube import DOUBLE, DOUBLED, ROLL, TAKE
from ..games.backgammon.rules import SIDES, BackgammonState
from .model import Puzzle

RULESET = "money"
MARGIN = 0.08
"""The least lead of the best choice over the second, in equity per cube, at both depths."""
OBVIOUS = 0.5
"""A cube decision won by more than this is left out (no one would get it wrong)."""
TEMPTING = 0.3
"""A ``no double`` puzzle needs the side on roll this far ahead (equity per cube)."""
CLOSE = 0.15
"""A ``take`` or ``drop`` puzzle needs the double within this of a right one."""
DEEP_PLAYS = 5
"""Two rolls ahead, each roll's best play is chosen among this many of the one-ply best."""
MAX_PLIES = 400
CUBE_WORDS = {"roll": "no double", "double": "double", "take": "take", "drop": "drop"}


@cache
def puzzles_network() -> network.Network:
    """The network the shipped puzzles were found and checked with."""
    with files(__package__).joinpath("data", "backgammon-network.npz").open("rb") as handle:
        return network.Network.load(handle)


def pinned() -> AbstractContextManager[None]:
    """Evaluate with the puzzles' network inside the block (the rest of the process keeps its
    own)."""
    return network.using(puzzles_network())


@cache
def searcher() -> BackgammonAgent:
    """The searches the puzzles are found and checked with (no noise, no clock)."""
    return BackgammonAgent(0, Budget(iterations=2), beam=None)


def context(state: BackgammonState) -> equity.Context:
    """The stakes from the view of the side whose checkers or cube are in question."""
    return equity.Context.of(state.stakes, SIDES.index(str(state.side)))


def play_values(state: BackgammonState, plays: Sequence[Any], deep: bool) -> list[float]:
    """Each play's value for the mover per cube: one ply, or two (``deep``)."""
    agent = searcher()
    shallow = not deep
    values = agent.one_ply(state, plays) if shallow else agent.two_ply(state, plays, context(state))
    return [v / state.cube_value for v in values]


def lead(values: Sequence[float]) -> tuple[int, float]:
    """The best index and its lead over the second."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    return order[0], values[order[0]] - values[order[1]]


def roll_values(state: BackgammonState, deep: bool) -> float:
    """The value for the side on roll (per the cube's value *before* any double here) of
    rolling from a cube decision ``state`` that has been answered (``roll`` played, or a double
    taken), averaged over the 21 rolls, each roll's best play: one ply (``deep`` False), or
    the two-ply value of the best of the ``DEEP_PLAYS`` one-ply best."""
    total = 0.0
    for roll, chance in state.chance_outcomes():
        rolled = state.play(roll)
        assert isinstance(rolled, BackgammonState)
        plays = rolled.legal_moves()
        if not plays:
            continue
        shallow = searcher().one_ply(rolled, plays)
        if deep:
            order = sorted(range(len(plays)), key=lambda i: -shallow[i])[:DEEP_PLAYS]
            best = max(searcher().two_ply(rolled, [plays[i] for i in order], context(rolled)))
        else:
            best = max(shallow)
        total += chance * best
    return total


def cube_equities(state: BackgammonState, deep: bool) -> tuple[float, float, float]:
    """``(no double, double take, double drop)`` for the doubler (the side on turn, no dice;
    or the side whose double is pending), per the cube's value before the double: one roll
    ahead, or two (``deep``)."""
    cube = state.cube_value
    if not deep:
        nd, dt, dp = searcher().cube_equities(state)
        return nd / cube, dt / cube, dp / cube
    pending = state.stakes is not None and state.stakes.pending == DOUBLED
    nd = 0.0 if pending else roll_values(state.play(ROLL), True)
    taken = (state if pending else state.play(DOUBLE)).play(TAKE)
    return nd / cube, roll_values(taken, True) / cube, 1.0


def cube_answer(state: BackgammonState, deep: bool) -> tuple[str, float] | None:
    """The right cube action at a cube decision (in the puzzles' words) and its margin per
    cube; ``None`` where there is no cube decision."""
    if state.stakes is None or state.dice is not None or state.outcome() is not None:
        return None
    kinds = {str(m) for m in state.legal_moves()}
    if kinds == {"take", "drop"}:
        _, dt, dp = cube_equities(state, deep)  # the doubler's: the taker wants them low
        return ("take", dp - dt) if dp >= dt else ("drop", dt - dp)
    if kinds == {"roll", "double"}:
        nd, dt, dp = cube_equities(state, deep)
        doubled = min(dt, dp)
        return ("double", doubled - nd) if doubled > nd else ("no double", nd - doubled)
    return None


def _rear(board: list[int]) -> int:
    """The farthest place a side has a checker on (25: the bar; 0: all off)."""
    return max((p for p in range(1, 26) if board[p]), default=0)


def _made(board: list[int]) -> set[int]:
    return {p for p in range(1, 25) if board[p] >= 2}


def _run(points: set[int]) -> int:
    """The longest run of consecutive made points."""
    best = run = 0
    for p in range(1, 25):
        run = run + 1 if p in points else 0
        best = max(best, run)
    return best


def features(me: int, opp: int, play: Any | None) -> tuple[str, ...]:
    """The themes of a position (``me`` on turn; both boards packed, each in its own view)
    and of the answer ``play`` (``None`` for a cube decision): see the module docstring."""
    mine, theirs = B.unpack(me), B.unpack(opp)
    found: list[str] = []
    contact = _rear(mine) + _rear(theirs) >= 25
    if _rear(mine) <= 6:
        found.append("bear-off")
    elif not contact:
        found.append("race")
    held = {p for p in _made(mine) if p >= 19}
    if len(held) >= 2 and B.pips(me) - B.pips(opp) >= 60:
        found.append("back game")
    if play is not None:
        after, other = B.unpack(play.mover_after), B.unpack(play.opponent_after)
        hits = any(step[3] for step in play.raw)
        new = _made(after) - _made(mine)
        if hits:
            found.append("hit")
        home_made = {p for p in new if p <= 6}
        caught = other[25] or any(theirs[25 - p] for p in range(1, 7))
        if (hits or home_made) and caught and len({p for p in _made(after) if p <= 6}) >= 3:
            found.append("blitz")
        run = _run(_made(after))
        if run >= 5 or (run >= 4 and run > _run(_made(mine))):
            found.append("prime")
        if any(p >= 19 for p in new):
            found.append("anchor")
    return tuple(found) or ("positional",)


@dataclass(frozen=True)
class Found:
    """A checked choice: the answer (notation), its margin at each depth, the choices."""

    answer: str
    shallow: float
    deep: float
    choices: int
    cube: bool


def check_play(state: BackgammonState, deep: bool = True) -> Found | None:
    """A play puzzle when the one-ply best leads by ``MARGIN`` and (``deep``) the two-ply
    search over every play agrees, by ``MARGIN`` too."""
    plays = state.legal_moves()
    if state.dice is None or len(plays) < 2:
        return None
    best, shallow = lead(play_values(state, plays, False))
    if shallow < MARGIN:
        return None
    margin = shallow
    if deep:
        again, margin = lead(play_values(state, plays, True))
        if again != best or margin < MARGIN:
            return None
    return Found(str(plays[best]), shallow, margin, len(plays), False)


def plausible(state: BackgammonState) -> bool:
    """Whether a cube decision is one people could get wrong, one roll ahead: a double is
    right, or the side on roll is ahead by ``TEMPTING`` (no double, yet tempting); a double to
    answer comes within ``CLOSE`` of a right one."""
    nd, dt, dp = cube_equities(state, False)
    if state.stakes is not None and state.stakes.pending == DOUBLED:
        return min(dt, dp) - nd >= -CLOSE
    return min(dt, dp) > nd or nd >= TEMPTING


def check_cube(state: BackgammonState, deep: bool = True) -> Found | None:
    """A cube puzzle when one roll ahead the right action leads by ``MARGIN`` (and not by so
    much that it is obvious: at most ``OBVIOUS``), and (``deep``) two rolls ahead agree."""
    shallow = cube_answer(state, False)
    if shallow is None or not MARGIN <= shallow[1] <= OBVIOUS or not plausible(state):
        return None
    margin = shallow[1]
    if deep:
        again = cube_answer(state, True)
        if again is None or again[0] != shallow[0] or again[1] < MARGIN:
            return None
        margin = again[1]
    return Found(shallow[0], shallow[1], margin, 2, True)


def rating(found: Found) -> float:
    """A starting rating: a smaller margin, more choices and a cube decision are harder."""
    value = 1300 + 1200 * max(0.0, 0.3 - found.deep) + 5 * min(found.choices, 60)
    if found.cube:
        value += 150
    return float(round(min(max(value, 800), 2400)))


def solver(state: BackgammonState) -> str:
    """The side whose decision it is (the taker when a double is pending)."""
    return str(state.to_move)


def make(state: BackgammonState, found: Found, number: int) -> Puzzle:
    """The puzzle of a checked choice."""
    me, opp = state.mover_boards()
    if found.cube:
        if solver(state) != state.side:  # the taker: his view
            me, opp = opp, me
        themes = ("cube", *(t for t in features(me, opp, None) if t != "positional"))
    else:
        play = next(p for p in state.legal_moves() if str(p) == found.answer)
        themes = features(me, opp, play)
    return Puzzle(
        id=f"b{number:05d}",
        game="backgammon",
        ruleset=RULESET,
        position=state.position(),
        side=solver(state),
        line=(found.answer,),
        themes=themes,
        rating=rating(found),
        source="search",
        facts={
            "margin": round(found.deep, 4),
            "shallow_margin": round(found.shallow, 4),
            "choices": found.choices,
            "found": "cube one roll ahead" if found.cube else "one ply",
            "checked": "cube two rolls ahead" if found.cube else "two plies, every play",
        },
    )


PAIRS = (("medium", "medium"), ("easy", "medium"), ("medium", "easy"), ("easy", "easy"))
"""The levels (white, black) of the self-play games, by the seed."""


def self_play(seed: int) -> Iterator[BackgammonState]:
    """The decisions of one seeded money game (dice drawn from the seed)."""
    white, black = PAIRS[seed % len(PAIRS)]
    agents: dict[str, Agent] = {
        SIDES[0]: make_agent("backgammon", white, seed),
        SIDES[1]: make_agent("backgammon", black, seed + 7919),
    }
    dice = random.Random(seed)
    state = ludotheque.load("backgammon", RULESET).start()
    assert isinstance(state, BackgammonState)
    for _ in range(MAX_PLIES):
        if state.outcome() is not None:
            return
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            nxt = state.play(dice.choices(outcomes, [p for _, p in outcomes])[0][0])
        else:
            yield state
            nxt = state.play(agents[str(state.to_move)].choose(state))
        assert isinstance(nxt, BackgammonState)
        state = nxt


def candidates(seed: int) -> Iterator[BackgammonState]:
    """The decisions of a game, and after each cube decision the double it could have been
    offered (a take or drop decision)."""
    for state in self_play(seed):
        yield state
        if state.dice is None and {str(m) for m in state.legal_moves()} == {"roll", "double"}:
            doubled = state.play(DOUBLE)
            assert isinstance(doubled, BackgammonState)
            yield doubled


def puzzles(seed: int) -> Iterator[Puzzle]:
    """The checked puzzles of one seed's game (numbered 0: the set numbers them), with the
    puzzles' network throughout (the self-play games too)."""
    seen: set[str] = set()
    with pinned():
        for state in candidates(seed):
            if state.position() in seen:
                continue
            seen.add(state.position())
            found = check_play(state) if state.dice is not None else check_cube(state)
            if found is not None:
                yield make(state, found, 0)


def select(pool: list[Puzzle], count: int, fill: bool = False) -> list[Puzzle]:
    """A set of ``count``: cube decisions up to a quarter, plays with a theme other than
    ``positional`` for most of the rest, ``positional`` ones up to a fifth (with ``fill``, any
    to make up the count)."""
    unique = list({p.position: p for p in pool}.values())
    cube = [p for p in unique if "cube" in p.themes]
    themed = [p for p in unique if "cube" not in p.themes and p.themes != ("positional",)]
    plain = [p for p in unique if p.themes == ("positional",)]
    chosen = cube[: count // 4]
    chosen += themed[: count - len(chosen) - count // 5]
    chosen += plain[: count // 5]
    if fill:
        taken = {p.position for p in chosen}
        chosen += [p for p in unique if p.position not in taken][: count - len(chosen)]
    return chosen[:count]


def verify(puzzle: Puzzle, deep: bool) -> list[str]:
    """What is wrong with a shipped backgammon puzzle by search (empty: nothing): the answer
    is the right choice at one ply (one roll ahead for the cube) by ``MARGIN``, with the margin
    recorded; with ``deep``, the deeper search agrees by ``MARGIN``, with the recorded margin,
    and the themes are the tool's."""
    state = ludotheque.load("backgammon", puzzle.ruleset).parse_position(puzzle.position)
    assert isinstance(state, BackgammonState)
    if puzzle.source != "search" or solver(state) != puzzle.side or len(puzzle.line) != 1:
        return [f"{puzzle.id}: not a search puzzle of the side on turn"]
    check = check_cube if state.dice is None else check_play
    with pinned():
        found = check(state, deep)
    if found is None or found.answer != puzzle.line[0]:
        return [f"{puzzle.id}: the answer is not {puzzle.line}"]
    problems = []
    if abs(found.shallow - puzzle.facts["shallow_margin"]) > 1e-3:
        problems.append(f"{puzzle.id}: shallow margin {found.shallow}")
    if deep and abs(found.deep - puzzle.facts["margin"]) > 1e-3:
        problems.append(f"{puzzle.id}: deep margin {found.deep}")
    if deep and make(state, found, 0).themes != puzzle.themes:
        problems.append(f"{puzzle.id}: themes differ")
    return problems
