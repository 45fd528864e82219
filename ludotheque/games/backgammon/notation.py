"""Reading backgammon notation: chance outcomes (``31``, ``w1b3``) and plays in every usual form
(``13/7* 8/7``, ``8/5(2)``, ``24/18/13``, ``24/13``, ``13/7*/1``, ``bar/22``, ``6/off``,
``pass``), each mapped to the unique legal play or refused with the reason."""

from __future__ import annotations

import re
from itertools import pairwise, permutations
from typing import TYPE_CHECKING

from ...core import IllegalMove
from .._numbers import read_number
from . import board as B
from .movegen import dice_of, singles
from .moves import OpeningRoll, Play, Roll, point_name

if TYPE_CHECKING:
    from .rules import BackgammonState

_OPENING_RE = re.compile(r"w([1-6])b([1-6])")
_ROLL_RE = re.compile(r"([1-6])([1-6])")
# re.ASCII: ``\d`` is 0–9 only, not the digits of other scripts
_TOKEN_RE = re.compile(r"([^()]+)(?:\((\d+)\))?", re.ASCII)
_PLACE_RE = re.compile(r"(bar|off|\d+)(\*?)", re.ASCII)


def parse_chance(state: BackgammonState, text: str) -> OpeningRoll | Roll:
    """The chance outcome ``text`` names at this chance node."""
    cleaned = "".join(text.split()).lower()
    if state.side is None:
        match = _OPENING_RE.fullmatch(cleaned)
        if match is None:
            raise IllegalMove(
                f"cannot read {text.strip()!r}: the opening names each side's die, like 'w1b3'"
            )
        white, black = int(match[1]), int(match[2])
        if white == black:
            raise IllegalMove("the opening dice are never equal: equal dice are rolled again")
        return OpeningRoll(white, black)
    match = _ROLL_RE.fullmatch(cleaned)
    if match is None:
        raise IllegalMove(f"cannot read {text.strip()!r}: a roll is two digits 1–6, like '31'")
    a, b = int(match[1]), int(match[2])
    return Roll(max(a, b), min(a, b))


Segment = tuple[int, int, bool]  # (from, to, hit written at "to")
Single = tuple[int, int, int]  # (src, dst, die)


def _read(text: str) -> list[Segment]:
    segments: list[Segment] = []
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise IllegalMove("an empty move: write a play like '13/7 8/7', or 'pass'")
    for token in tokens:
        match = _TOKEN_RE.fullmatch(token)
        if match is None:
            raise IllegalMove(f"cannot read {token!r}: write single moves like '13/7' or '8/5(2)'")
        body, repeat = match[1], match[2]
        times = 1 if repeat is None else read_number(repeat, IllegalMove, "a move")
        if not 1 <= times <= 4:
            raise IllegalMove(f"{token!r}: a move can be repeated 1 to 4 times, not {times}")
        parts = body.split("/")
        if len(parts) < 2:
            raise IllegalMove(
                f"cannot read {token!r}: a move goes from a point to a point, like '13/7'"
            )
        places: list[tuple[int, bool]] = []
        for i, part in enumerate(parts):
            pm = _PLACE_RE.fullmatch(part)
            if pm is None:
                raise IllegalMove(
                    f"cannot read {part!r} in {token!r}: points are 1–24, 'bar' or 'off'"
                )
            name, star = pm[1], pm[2] == "*"
            if name == "bar":
                if i != 0:
                    raise IllegalMove(f"{token!r}: 'bar' can only be where a move starts")
                place = B.BAR
            elif name == "off":
                if i != len(parts) - 1:
                    raise IllegalMove(f"{token!r}: 'off' can only be where a move ends")
                place = B.OFF
            else:
                place = read_number(name, IllegalMove, "a move")
                if not 1 <= place <= 24:
                    raise IllegalMove(f"{token!r}: there is no point {place} (points are 1–24)")
            if star and i == 0:
                raise IllegalMove(f"{token!r}: '*' goes after the point where a blot is hit")
            if star and place == B.OFF:
                raise IllegalMove(f"{token!r}: nothing can be hit off the board")
            places.append((place, star))
        for (a, _), (b, _) in pairwise(places):
            if b >= a:
                raise IllegalMove(
                    f"{token!r}: checkers move from higher points to lower ones "
                    f"({point_name(a)} to {point_name(b)} goes the wrong way)"
                )
        chain = [(a, b, star) for (a, _), (b, star) in pairwise(places)]
        segments.extend(chain * times)
    return segments


def _die_options(x: int, y: int, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """How the dice left can carry one checker from ``x`` to ``y``: one die if one covers it
    (exactly, or bearing off with a larger die), otherwise several."""
    values = sorted(set(dice))
    if y != B.OFF:
        if x - y in values:
            return [(x - y,)]
        target = x - y
        return [
            seq
            for k in range(2, len(dice) + 1)
            for seq in set(permutations(dice, k))
            if sum(seq) == target
        ]
    singles_off: list[tuple[int, ...]] = [(d,) for d in values if d >= x]
    if singles_off:
        return singles_off
    found = []
    for k in range(2, len(dice) + 1):
        for seq in set(permutations(dice, k)):
            partial = 0
            ok = True
            for d in seq[:-1]:
                partial += d
                if partial >= x:
                    ok = False
                    break
            if ok and partial + seq[-1] >= x:
                found.append(seq)
    return found


def _assignments(
    segments: list[Segment], dice: tuple[int, ...]
) -> list[tuple[list[Single], set[int]]]:
    """Every way to give the written segments dice: (single moves, points marked hit)."""
    results: list[tuple[list[Single], set[int]]] = []

    def walk(i: int, left: tuple[int, ...], done: list[Single], stars: set[int]) -> None:
        if i == len(segments):
            results.append((list(done), set(stars)))
            return
        x, y, star = segments[i]
        for seq in _die_options(x, y, left):
            rest = list(left)
            for d in seq:
                rest.remove(d)
            moves = []
            at = x
            for d in seq:
                to = at - d
                moves.append((at, max(to, 0), d))
                at = to
            walk(i + 1, tuple(rest), done + moves, stars | ({y} if star else set()))

    walk(0, dice, [], set())
    return results


def _order(me: int, opp: int, moves: list[Single], cap: int) -> tuple[int, int, set[int]] | None:
    """Play ``moves`` in some legal order; the final boards and the points hit, or ``None``."""
    if not moves:
        return me, opp, set()
    tried: set[Single] = set()
    for i, (src, dst, die) in enumerate(moves):
        if (src, dst, die) in tried:
            continue
        tried.add((src, dst, die))
        for s in singles(me, opp, (die,), cap):
            if s[0] == src and s[1] == dst:
                rest = _order(s[4], s[5], moves[:i] + moves[i + 1 :], cap)
                if rest is not None:
                    hits = rest[2] | ({dst} if s[3] else set())
                    return rest[0], rest[1], hits
    return None


def explain_single(me: int, opp: int, src: int, dst: int, die: int, cap: int) -> str:
    """Why the single move ``src → dst`` with ``die`` cannot be played (mover's view)."""
    name = point_name(src)
    if B.count(me, B.BAR) and src != B.BAR:
        return "a checker on the bar must enter first"
    if not B.count(me, src):
        return (
            "you have no checker on the bar" if src == B.BAR else f"you have no checker on {name}"
        )
    if dst == B.OFF:
        if me >> 28:
            return "you can bear off only once all your checkers are in your home board"
        if die > src and B.count(me, src) and me >> ((src + 1) << 2):
            return f"a {die} bears off from {src} only when no checker stands higher"
        return f"a {die} cannot bear off from {src}"
    target = point_name(dst)
    if B.count(opp, 25 - dst) >= 2:
        return f"{target} is blocked: the opponent has {B.count(opp, 25 - dst)} checkers there"
    if cap and B.count(me, dst) >= cap:
        return f"{target} is full: {cap} of your checkers already stand there"
    return f"{name}/{target} is not a move of {die}"


def parse_play(state: BackgammonState, text: str) -> Play:
    """The unique legal play that ``text`` writes, or ``IllegalMove`` with the reason."""
    legal = state.legal_plays()
    dice = state.dice
    assert dice is not None
    roll = str(dice)
    cleaned = text.strip().lower()
    if cleaned == "pass":
        if len(legal) == 1 and legal[0].is_pass:
            return legal[0]
        raise IllegalMove(f"you cannot pass: {roll} can be played (for example {legal[0]})")
    if len(legal) == 1 and legal[0].is_pass:
        raise IllegalMove(f"no checker can move with {roll}: the only play is 'pass'")
    segments = _read(cleaned)
    me, opp = state._mover_boards()
    cap = state.game.cap
    by_position = {(p.mover_after, p.opponent_after): p for p in legal}
    need = len(legal[0].raw)
    options = _assignments(segments, dice_of(dice.high, dice.low))
    if not options:
        raise IllegalMove(f"{text.strip()!r} cannot be made with the dice {roll}")
    found: dict[tuple[int, int], Play] = {}
    false_star: set[int] = set()
    short = False
    failure = ""
    for moves, stars in options:
        ordered = _order(me, opp, moves, cap)
        if ordered is None:
            if not failure:
                failure = _first_failure(me, opp, moves, cap)
            continue
        final_me, final_opp, hits = ordered
        missing = stars - hits
        if missing:
            false_star |= missing
            continue
        if len(moves) < need:  # a legal start, but the roll has more dice to play
            short = True
            continue
        play = by_position.get((final_me, final_opp))
        if play is None:
            if not failure:
                failure = "it does not use the dice as the rules require"
            continue
        found[(final_me, final_opp)] = play
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        plays = " or ".join(repr(str(p)) for p in found.values())
        raise IllegalMove(f"ambiguous: {text.strip()!r} could be {plays}; write the route")
    if false_star:
        points = ", ".join(point_name(p) for p in sorted(false_star, reverse=True))
        raise IllegalMove(f"'*' marks a hit, but nothing is hit on {points}")
    if short:
        raise IllegalMove(
            f"incomplete: with {roll} you must play {need} dice (for example {legal[0]})"
        )
    raise IllegalMove(
        f"{text.strip()!r} is not legal with {roll}" + (f": {failure}" if failure else "")
    )


def _first_failure(me: int, opp: int, moves: list[Single], cap: int) -> str:
    """A reason for the first written single move that cannot be played in the written order."""
    for src, dst, die in moves:
        match = next(
            (s for s in singles(me, opp, (die,), cap) if s[0] == src and s[1] == dst), None
        )
        if match is None:
            return explain_single(me, opp, src, dst, die, cap)
        me, opp = match[4], match[5]
    return "no order of these moves can be played"
