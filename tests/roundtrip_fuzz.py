"""A long fuzz of the position parsers, run by hand outside the test suite:

    python -m tests.roundtrip_fuzz --seconds 300 --seed 2026

Feeds every game and ruleset strings built from its grammar's tokens (backgammon boards, sides,
dice and every field of the cube's tail in any order; GNU Backgammon IDs with bits of their
Match ID flipped; XGIDs with fields replaced; General and Defiance positions, valid and not)
and real positions of random games with tokens written over them. Whenever a parser accepts a
string, the state's ``position()`` must read back as the same state and print the same string,
and a backgammon state's full GNU Backgammon ID must read back as it too (but for ``rolling``,
which GNU Backgammon cannot say); whenever it refuses one, it must raise ``InvalidPosition``.
Prints each kind of failure once with the string that showed it, then the counts. The test
suite's round-trip properties (``tests/*/test_roundtrip.py``) are the short version of this.
"""

from __future__ import annotations

import argparse
import base64
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from functools import partial

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.core import Game, State
from ludotheque.games.backgammon import BackgammonState
from ludotheque.games.backgammon.cube import ROLLING

PLACES = ["bar", "BAR", *map(str, range(1, 25)), "0", "25", "26", "013"]
COUNTS = ["", "", "", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x15", "x16", "x0", "X2"]
CUBES = ["1", "2", "4", "2w", "2b", "4w", "64b", "32768w", "65536w", "0", "3w", "1w", "01", "002w"]
WORDS = ["rolling", "doubled", "resign", "single", "gammon", "backgammon", "normal", "dropped",
         "resigned", "w", "b", "jacoby", "match", "crawford", "0", "1", "3", "7", "25", "26",
         "0-0", "1-0", "4-3", "6-6", "6-0", "4-4", "00-0", "007", "cube", "2w"]  # fmt: skip
SIDES = ["w", "b", "-", "W", "x"]
DICE = ["-", "-", "-", "31", "13", "66", "11", "65", "70"]
GENERAL_POINTS = [f"{c}{r}" for c in "abcde" for r in range(1, 6)] + ["s1", "s2", "s3", "s4"]
DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
VOCABULARY = {
    "backgammon": PLACES + CUBES + WORDS + SIDES + DICE + ["W[", "B[", "]", "XGID=", "-1", "D"],
    "general": [*GENERAL_POINTS, "r", "g", "0", "1", "2", "", "f1", "A1"],
    "defiance": ["RN", "INE", "ISW", "RE", "1", "2", "3", "5", "8", "10", "r40", "i40", "r39",
                 "i0", "R2.2", "I6.6", "I7.8", "r", "i", "-", "R0.0", "I8.8", "I10.10"],
}  # fmt: skip
JUNK = ["", " ", ",", "İ", "ı", "K", "٣", "\x00", "ﬁ", "9" * 12]


# -- strings from the grammars ----------------------------------------------------------------


def backgammon_boards(rng: random.Random) -> tuple[str, str]:
    """Two checker listings: mostly real boards (up to 15 checkers, rarely a point held by
    both), sometimes lists of any tokens."""
    if rng.random() < 0.3:
        return tuple(  # type: ignore[return-value]
            ",".join(rng.choice(PLACES) + rng.choice(COUNTS) for _ in range(rng.randint(0, 8)))
            for _ in range(2)
        )
    sides: list[dict[int, int]] = [{}, {}]
    for counts in sides:
        left = rng.randint(0, 15)
        while left > 0:
            place = rng.randint(1, 25)
            n = min(left, rng.randint(1, 5))
            counts[place] = counts.get(place, 0) + n
            left -= n
    white, black = sides
    for place in list(black):
        if place != 25 and white.get(25 - place) and rng.random() < 0.9:
            del black[place]

    def listing(counts: dict[int, int]) -> str:
        return ",".join(
            ("bar" if p == 25 else str(p)) + ("" if n == 1 else f"x{n}")
            for p, n in sorted(counts.items(), reverse=True)
        )

    return listing(white), listing(black)


def cube_tail(rng: random.Random) -> str:
    """``cube N`` and then some of the tail's fields, in any order, now and then one twice."""
    options = [
        ["rolling"], ["doubled"],
        ["resign", rng.choice(["single", "gammon", "backgammon", "normal", "x"])],
        ["dropped", rng.choice("wb")],
        ["resigned", rng.choice("wb"), rng.choice(["single", "gammon", "backgammon"])],
        ["jacoby"], ["crawford"],
        ["match", rng.choice(["0", "1", "2", "3", "5", "7", "25", "26", "00"]),
         f"{rng.choice([0, 0, 1, 2, 4, 6, 7])}-{rng.choice([0, 0, 1, 2, 4, 6, 7])}"],
    ]  # fmt: skip
    groups = [o for o in options if rng.random() < 0.3]
    rng.shuffle(groups)
    if groups and rng.random() < 0.05:
        groups.append(rng.choice(groups))
    return " ".join(["cube", rng.choice(CUBES), *(w for g in groups for w in g)])


def backgammon_string(rng: random.Random, ruleset: str) -> str:
    white, black = backgammon_boards(rng)
    text = f"W[{white}] B[{black}] {rng.choice(SIDES)} {rng.choice(DICE)}"
    if ruleset in ("money", "match") and rng.random() < 0.5:
        return f"{text} {cube_tail(rng)}"
    if ruleset in ("money", "match") or rng.random() < 0.1:
        words = ["cube", rng.choice(CUBES), *rng.choices(WORDS, k=rng.choice([0, 1, 2, 4, 6]))]
        return f"{text} {' '.join(words)}"
    return text


def flipped_match_id(rng: random.Random, state: BackgammonState) -> str:
    raw = int.from_bytes(base64.b64decode(state.gnubg_match_id()), "little")
    for _ in range(rng.randint(0, 3)):
        raw ^= 1 << rng.choice([*range(25), 36, 37, 38, 51, 52, 53, 66, 67, 70])
    return f"{state.gnubg_position_id()}:{base64.b64encode(raw.to_bytes(9, 'little')).decode()}"


def changed_xgid(rng: random.Random, state: BackgammonState) -> str:
    fields = state.xgid().split(":")
    for _ in range(rng.randint(0, 3)):
        fields[rng.randrange(1, len(fields))] = rng.choice(
            ["0", "1", "-1", "2", "3", "00", "31", "66", "D", "7", "5", "25", "26", "10"]
        )
    return ":".join(fields)


def general_string(rng: random.Random) -> str:
    general = rng.choice([*GENERAL_POINTS, "f1", "A1", ""])
    rebels = rng.sample(GENERAL_POINTS, rng.randint(2, 18))
    if rng.random() < 0.8:
        rebels = [p for p in rebels if not p.startswith("s") and p != general]
        rebels = rebels[: len(rebels) // 2 * 2]
    side, flight = rng.choice(["r", "g", "R", "x"]), rng.choice(["0", "1", "2"])
    return f"{general} {','.join(rebels)} {side} {flight}"


def defiance_string(rng: random.Random, n: int) -> str:
    density = rng.choice([0.05, 0.2, 0.5])
    cells = [
        "RI"[rng.randint(0, 1)] + rng.choice(DIRECTIONS) if rng.random() < density else ""
        for _ in range(n * n)
    ]
    rows = []
    for j in range(n - 1, -1, -1):
        row, run = "", 0
        for cell in cells[j * n : j * n + n]:
            if cell:
                row, run = row + (str(run) if run else "") + cell, 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    pools = [max(0, 40 - sum(c.startswith(s) for c in cells)) for s in "RI"]
    if rng.random() < 0.1:
        pools[0] += rng.choice([-1, 1])
    points = [f"{rng.randint(0, n)}.{rng.randint(0, n)}" for _ in range(3)]
    if rng.random() < 0.3:
        points[1] = points[2] = "6.6"
    commands = [f"R{points[0]}", f"I{points[1]}", f"I{points[2]}"]
    rng.shuffle(commands)
    side = rng.choice(["r", "i", "-"])
    return f"{'/'.join(rows)} r{pools[0]},i{pools[1]} {','.join(commands)} {side}"


def mutated(rng: random.Random, text: str, vocabulary: list[str]) -> str:
    """``text`` with one to three of its tokens replaced, removed, doubled or swapped."""
    tokens = re.split(r"(\s+|,|\[|\]|/|:)", text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        roll = rng.random()
        if roll < 0.5:
            tokens[i] = rng.choice(vocabulary + JUNK)
        elif roll < 0.7 and len(tokens) > 1:
            del tokens[i]
        elif roll < 0.9:
            tokens.insert(i, rng.choice(vocabulary) + rng.choice([" ", ",", ""]))
        else:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


# -- states of random games ---------------------------------------------------------------------


def random_states(game: Game, rng: random.Random, plies: int) -> list[State]:
    state = game.start()
    seen = [state]
    for _ in range(plies):
        if state.outcome() is not None:
            state = game.start()
        elif state.chance_outcomes():
            state = state.play(rng.choice(state.chance_outcomes())[0])
        elif (
            isinstance(state, BackgammonState)
            and state.game.has_stakes
            and state.side
            and rng.random() < 0.05
        ):
            try:
                state = state.play(rng.choice(["resign single", "resign gammon"]))
            except ValueError:
                continue
        else:
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        seen.append(state)
    return seen


# -- the check ----------------------------------------------------------------------------------


def check(game: Game, text: str) -> str:
    """``refused``, ``ok``, or what went wrong (a crash, a string that does not read back)."""
    try:
        state = game.parse_position(text)
    except InvalidPosition:
        return "refused"
    except Exception as e:  # the bug this looks for
        return f"CRASH {type(e).__name__}: {e}"
    printed = state.position()
    try:
        again = game.parse_position(printed)
    except Exception as e:
        return f"HOLE {printed!r} does not parse: {type(e).__name__}: {e}"
    if again != state or again.position() != printed:
        return f"HOLE {printed!r} reads back as {again.position()!r}"
    if isinstance(state, BackgammonState):
        stakes = state.stakes
        if stakes is None or stakes.pending != ROLLING:
            full_id = state.gnubg_id()
            try:
                from_id = game.parse_position(full_id)
            except Exception as e:
                return f"IDHOLE {printed!r}: {full_id} does not parse: {e}"
            if from_id != state:
                return f"IDHOLE {printed!r}: {full_id} reads as {from_id.position()!r}"
    return "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = {
        f"{name}-{ruleset}": ludotheque.load(name, ruleset)
        for name, rulesets in ludotheque.available_games().items()
        for ruleset in rulesets
    }
    bases = {key: random_states(game, rng, 3000) for key, game in games.items()}
    makers: list[tuple[str, Callable[[], str]]] = []
    for key, game in games.items():
        name = game.name
        pool = bases[key]

        def from_state(pool: list[State] = pool, name: str = name) -> str:
            return mutated(rng, rng.choice(pool).position(), VOCABULARY[name])

        makers.append((f"{key} mutated", from_state))
        if name == "backgammon":
            states = [s for s in pool if isinstance(s, BackgammonState)]

            def gnu(s: list[BackgammonState] = states) -> str:
                return flipped_match_id(rng, rng.choice(s))

            def xg(s: list[BackgammonState] = states) -> str:
                return changed_xgid(rng, rng.choice(s))

            makers.append((key, partial(backgammon_string, rng, game.ruleset)))
            makers.append((f"{key} gnu", gnu))
            makers.append((f"{key} xg", xg))
        elif name == "general":
            makers.append((key, lambda: general_string(rng)))
        else:
            n = 8 if key.endswith("8x8") else 10
            makers.append((key, partial(defiance_string, rng, n)))
    counts: dict[str, Counter[str]] = {}
    found: dict[str, str] = {}
    end = time.monotonic() + args.seconds
    total = 0
    while time.monotonic() < end:
        label, make = rng.choice(makers)
        game = games[" ".join(label.split()[:1])]
        text = make()
        result = check(game, text)
        total += 1
        counts.setdefault(label, Counter())[result.split()[0]] += 1
        if result.split()[0] not in ("ok", "refused"):
            kind = re.sub(r"'[^']*'|\d+", "", result)[:80]
            if kind not in found:
                found[kind] = text
                print(f"{label}: {text!r} -> {result}", flush=True)
    print(f"{total} inputs in {args.seconds:.0f} s, {len(found)} kinds of failure")
    for label in sorted(counts):
        print(f"  {label}: {dict(counts[label])}")


if __name__ == "__main__":
    main()
