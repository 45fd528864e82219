"""Reading backgammon notation: chance outcomes (``31``, ``w1b3``) and plays in every usual form
(``13/7* 8/7``, ``8/5(2)``, ``24/18/13``, ``24/13``, ``13/7*/1``, ``bar/22``, ``6/off``,
``pass``), each mapped to the unique legal play or refused with the reason."""

from __future__ import annotations

import re
from itertools import pairwise, permutations
from typing import TYPE_CHECKING, NoReturn

from ...core import AmbiguousMove, IllegalMove, InvalidMove, ParamValue
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
            raise InvalidMove(
                "cannot read {text!r}: the opening names each side's die, like 'w1b3'",
                code="unreadable-opening",
                text=text.strip(),
            )
        white, black = int(match[1]), int(match[2])
        if white == black:
            raise IllegalMove(
                "the opening dice are never equal: equal dice are rolled again",
                code="equal-opening-dice",
            )
        return OpeningRoll(white, black)
    match = _ROLL_RE.fullmatch(cleaned)
    if match is None:
        raise InvalidMove(
            "cannot read {text!r}: a roll is two digits 1–6, like '31'",
            code="unreadable-roll",
            text=text.strip(),
        )
    a, b = int(match[1]), int(match[2])
    return Roll(max(a, b), min(a, b))


Segment = tuple[int, int, bool]  # (from, to, hit written at "to")
Single = tuple[int, int, int]  # (src, dst, die)


def _read(text: str) -> list[Segment]:
    segments: list[Segment] = []
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InvalidMove(
            "an empty move: write a play like '13/7 8/7', or 'pass'", code="empty-play"
        )
    for token in tokens:
        match = _TOKEN_RE.fullmatch(token)
        if match is None:
            raise InvalidMove(
                "cannot read {token!r}: write single moves like '13/7' or '8/5(2)'",
                code="unreadable-token",
                token=token,
            )
        body, repeat = match[1], match[2]
        times = 1 if repeat is None else read_number(repeat, InvalidMove, "a move")
        if not 1 <= times <= 4:
            raise InvalidMove(
                "{token!r}: a move can be repeated 1 to 4 times, not {times}",
                code="bad-repeat",
                token=token,
                times=times,
            )
        parts = body.split("/")
        if len(parts) < 2:
            raise InvalidMove(
                "cannot read {token!r}: a move goes from a point to a point, like '13/7'",
                code="move-needs-two-points",
                token=token,
            )
        places: list[tuple[int, bool]] = []
        for i, part in enumerate(parts):
            pm = _PLACE_RE.fullmatch(part)
            if pm is None:
                raise InvalidMove(
                    "cannot read {part!r} in {token!r}: points are 1–24, 'bar' or 'off'",
                    code="unreadable-point",
                    part=part,
                    token=token,
                )
            name, star = pm[1], pm[2] == "*"
            if name == "bar":
                if i != 0:
                    raise InvalidMove(
                        "{token!r}: 'bar' can only be where a move starts",
                        code="bar-not-first",
                        token=token,
                    )
                place = B.BAR
            elif name == "off":
                if i != len(parts) - 1:
                    raise InvalidMove(
                        "{token!r}: 'off' can only be where a move ends",
                        code="off-not-last",
                        token=token,
                    )
                place = B.OFF
            else:
                place = read_number(name, InvalidMove, "a move")
                if not 1 <= place <= 24:
                    raise InvalidMove(
                        "{token!r}: there is no point {place} (points are 1–24)",
                        code="no-such-point",
                        token=token,
                        place=place,
                    )
            if star and i == 0:
                raise InvalidMove(
                    "{token!r}: '*' goes after the point where a blot is hit",
                    code="hit-mark-first",
                    token=token,
                )
            if star and place == B.OFF:
                raise InvalidMove(
                    "{token!r}: nothing can be hit off the board", code="hit-off-board", token=token
                )
            places.append((place, star))
        for (a, _), (b, _) in pairwise(places):
            if b >= a:
                raise InvalidMove(
                    "{token!r}: checkers move from higher points to lower ones "
                    "({start} to {end} goes the wrong way)",
                    code="wrong-way",
                    token=token,
                    start=point_name(a),
                    end=point_name(b),
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


Why = tuple[str, dict[str, ParamValue]]
"""Why a single move cannot be played: a kind (a key of ``WHY``) and its values."""

WHY: dict[str, str] = {
    "bar-first": "a checker on the bar must enter first",
    "no-checker-on-bar": "you have no checker on the bar",
    "no-checker-there": "you have no checker on {point}",
    "bear-off-not-home": "you can bear off only once all your checkers are in your home board",
    "bear-off-higher-checker": "a {die} bears off from {point} only when no checker stands higher",
    "cannot-bear-off": "a {die} cannot bear off from {point}",
    "blocked-point": "{point} is blocked: the opponent has {count} checkers there",
    "full-point": "{point} is full: {count} of your checkers already stand there",
    "wrong-distance": "{src}/{dst} is not a move of {die}",
}
"""The English of each reason a single move cannot be played, by kind (``pass_reason`` says
them; a written play refused for one of them raises the code of the same name, its template
ending with the same words)."""


def why_single(me: int, opp: int, src: int, dst: int, die: int, cap: int) -> Why:
    """Why the single move ``src → dst`` with ``die`` cannot be played (mover's view), as data."""
    name = point_name(src)
    if B.count(me, B.BAR) and src != B.BAR:
        return "bar-first", {}
    if not B.count(me, src):
        return ("no-checker-on-bar", {}) if src == B.BAR else ("no-checker-there", {"point": name})
    if dst == B.OFF:
        if me >> 28:
            return "bear-off-not-home", {}
        if die > src and B.count(me, src) and me >> ((src + 1) << 2):
            return "bear-off-higher-checker", {"die": die, "point": src}
        return "cannot-bear-off", {"die": die, "point": src}
    target = point_name(dst)
    if B.count(opp, 25 - dst) >= 2:
        return "blocked-point", {"point": target, "count": B.count(opp, 25 - dst)}
    if cap and B.count(me, dst) >= cap:
        return "full-point", {"point": target, "count": cap}
    return "wrong-distance", {"src": name, "dst": target, "die": die}


def explain_single(me: int, opp: int, src: int, dst: int, die: int, cap: int) -> str:
    """Why the single move ``src → dst`` with ``die`` cannot be played (mover's view)."""
    kind, values = why_single(me, opp, src, dst, die, cap)
    return WHY[kind].format(**values)


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
        raise IllegalMove(
            "you cannot pass: {roll} can be played (for example {play})",
            code="cannot-pass",
            roll=roll,
            play=str(legal[0]),
        )
    if len(legal) == 1 and legal[0].is_pass:
        raise IllegalMove(
            "no checker can move with {roll}: the only play is 'pass'", code="must-pass", roll=roll
        )
    segments = _read(cleaned)
    me, opp = state.mover_boards()
    cap = state.game.cap
    by_position = {(p.mover_after, p.opponent_after): p for p in legal}
    need = len(legal[0].raw)
    options = _assignments(segments, dice_of(dice.high, dice.low))
    if not options:
        raise IllegalMove(
            "{text!r} cannot be made with the dice {roll}",
            code="not-these-dice",
            text=text.strip(),
            roll=roll,
        )
    found: dict[tuple[int, int], Play] = {}
    false_star: set[int] = set()
    short = False
    failure: Why | None = None
    for moves, stars in options:
        ordered = _order(me, opp, moves, cap)
        if ordered is None:
            if failure is None:
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
            if failure is None:
                failure = "against-the-rules", {}
            continue
        found[(final_me, final_opp)] = play
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        plays = [str(p) for p in found.values()]
        raise AmbiguousMove(
            "ambiguous: {text!r} could be {plays_text}; write the route",
            code="ambiguous-play",
            text=text.strip(),
            plays=plays,
            plays_text=" or ".join(repr(p) for p in plays),
        )
    if false_star:
        points = [point_name(p) for p in sorted(false_star, reverse=True)]
        raise IllegalMove(
            "'*' marks a hit, but nothing is hit on {points_text}",
            code="false-hit",
            points=points,
            points_text=", ".join(points),
        )
    if short:
        raise IllegalMove(
            "incomplete: with {roll} you must play {need} dice (for example {play})",
            code="incomplete-play",
            roll=roll,
            need=need,
            play=str(legal[0]),
        )
    _refuse_play(text.strip(), roll, failure)


def _first_failure(me: int, opp: int, moves: list[Single], cap: int) -> Why:
    """A reason for the first written single move that cannot be played in the written order."""
    for src, dst, die in moves:
        match = next(
            (s for s in singles(me, opp, (die,), cap) if s[0] == src and s[1] == dst), None
        )
        if match is None:
            return why_single(me, opp, src, dst, die, cap)
        me, opp = match[4], match[5]
    return "no-order", {}


def _refuse_play(text: str, roll: str, failure: Why | None) -> NoReturn:
    """Refuse the written play ``text`` with ``roll``, saying why when a reason is known: each
    reason is a message of its own (its code is the reason's kind, see ``WHY``)."""
    kind, values = failure or ("", {})
    if kind == "bar-first":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: a checker on the bar must enter first",
            code="bar-first", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "no-checker-on-bar":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: you have no checker on the bar",
            code="no-checker-on-bar", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "no-checker-there":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: you have no checker on {point}",
            code="no-checker-there", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "bear-off-not-home":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: you can bear off only once all your checkers "
            "are in your home board",
            code="bear-off-not-home", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "bear-off-higher-checker":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: a {die} bears off from {point} only when no "
            "checker stands higher",
            code="bear-off-higher-checker", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "cannot-bear-off":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: a {die} cannot bear off from {point}",
            code="cannot-bear-off", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "blocked-point":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: {point} is blocked: the opponent has {count} "
            "checkers there",
            code="blocked-point", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "full-point":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: {point} is full: {count} of your checkers "
            "already stand there",
            code="full-point", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "wrong-distance":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: {src}/{dst} is not a move of {die}",
            code="wrong-distance", text=text, roll=roll, **values,
        )  # fmt: skip
    if kind == "no-order":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: no order of these moves can be played",
            code="no-order", text=text, roll=roll,
        )  # fmt: skip
    if kind == "against-the-rules":
        raise IllegalMove(
            "{text!r} is not legal with {roll}: it does not use the dice as the rules require",
            code="against-the-rules", text=text, roll=roll,
        )  # fmt: skip
    raise IllegalMove(
        "{text!r} is not legal with {roll}", code="not-legal-with-roll", text=text, roll=roll
    )
