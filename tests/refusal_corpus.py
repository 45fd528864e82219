"""A corpus of real refusals from every game, for the tests of coded errors (``test_messages``).

``refusals(seed)`` plays random games of every game and ruleset and, along the way, feeds each
position bad notation, near-legal moves, wrong objects and mutated position strings, plus
crafted cases that random play seldom reaches (full and blocked points, bearing off, the cube,
GNU Backgammon IDs and XGIDs, records, the environments). It yields each refusal with a label
saying what was tried. It uses only the public API, so that the same corpus can be run against
another version of the package (to compare the English of two versions message by message).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import string
from collections.abc import Callable, Iterator
from typing import Any

import ludotheque
from ludotheque import IllegalMove, InvalidPosition, State, load
from ludotheque.record import Record

Refusal = tuple[str, Exception]
HUGE = "9" * 40

GARBAGE = ["", " ", "zz", "٣", "13/٣", HUGE, "pass", "double", "take", "resign single", "a1>N"]
"""Text that no game reads, or reads only in some states."""


def _catch(label: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Iterator[Refusal]:
    try:
        call(*args, **kwargs)
    except (IllegalMove, InvalidPosition) as exc:
        yield label, exc


def _walk(start: State, rng: random.Random, plies: int) -> list[State]:
    """``start`` and the states of a random game from it (to its end, or ``plies`` plies)."""
    states = [start]
    state = start
    for _ in range(plies):
        if state.to_move is None:
            break
        if state.is_chance:
            state = state.play(rng.choice(state.chance_outcomes())[0])
        else:
            state = state.play(rng.choice(list(state.legal_moves())))
        states.append(state)
    return states


def _mutations(text: str, rng: random.Random, count: int, alphabet: str) -> list[str]:
    """``count`` copies of ``text`` with a character or two deleted, replaced or inserted."""
    out = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(chars) + 1)
            kind = rng.randrange(3)
            if kind == 0 and i < len(chars):
                del chars[i]
            elif kind == 1 and i < len(chars):
                chars[i] = rng.choice(alphabet)
            else:
                chars.insert(i, rng.choice(alphabet))
        out.append("".join(chars))
    return out


def _moves(state: State, texts: list[Any]) -> Iterator[Refusal]:
    for text in texts:
        yield from _catch(f"{state.position()} | {text!r}", _play, state, text)


def _play(state: State, move: Any) -> State:
    return state.play(state.parse_move(move) if isinstance(move, str) else move)


def _positions(game: ludotheque.Game, texts: list[Any]) -> Iterator[Refusal]:
    for text in texts:
        yield from _catch(f"{game!r} position {text!r}", game.parse_position, text)


# -- the General ---------------------------------------------------------------------------------

GENERAL_POINTS = [f"{f}{r}" for f in "abcde" for r in range(1, 6)] + ["s1", "s2", "s3", "s4"]
GENERAL_POSITIONS = [
    "zz", 42, "c3 a1,a1 r 1", "c3 a1,a2,a3,a4,s1 r 1", "c3 c3,a1,a2,a4 r 1", "c3 a1,a2,a3 r 1",
    "c3 a1,a2,a3,a4,a5 r 1", "c3 a1,,a2,a3 r 1", "c3 a1,a2,a3,a4 x 1", "c3 a1,a2,a3,a4 r 2",
    "s4 a1,a2,a3,a4 r 1", "z9 a1,a2,a3,a4 r 1", "c3 zz,a2 r 1",
    "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5,b2,b3 r 1",
]  # fmt: skip


def general_refusals(rng: random.Random) -> Iterator[Refusal]:
    game = load("general")
    states = _walk(game.start(), rng, 60) + _walk(game.start(), rng, 200)
    states += [
        game.parse_position(text)
        for text in [
            "c2 a1,c3,e1,e2,a4,a5 g 1",
            "s3 a1,a2,a3,a4,b5,c5 g 1",
            "s3 a1,a2,a3,a4,b5,c5 g 0",
            "c2 a1,c3,a3,c1,e5,e4 g 1",
            "c2 a1,c3,a3,c1,e1,e3 g 1",
        ]
    ]
    yield from _positions(game, GENERAL_POSITIONS)
    for state in states[::3] + states[-6:]:
        texts: list[Any] = [*GARBAGE, 42, None, "a1-b2*c3", "a1-b2xa3", "a1-b2xa3a3", "-a2"]
        points = [*rng.sample(GENERAL_POINTS, 8), state.position().split()[0]]
        for src, dst in itertools.product(points, GENERAL_POINTS):
            texts.append(f"{src}-{dst}")
        for dst in GENERAL_POINTS[::2]:
            pair = "".join(rng.sample(GENERAL_POINTS[:25], 2))
            texts += [f"{points[-1]}-{dst}x{pair}", f"{points[-1]}-s4*{dst}x{pair}"]
            texts += [f"s3-s4*{dst}", f"{points[-1]}-s4*{dst}"]
        yield from _moves(state, texts)
        yield from _positions(game, _mutations(state.position(), rng, 6, "abcdes0123456789,rg "))
        legal = list(state.legal_moves())
        if legal:  # a move object of another position
            other = rng.choice(states)
            yield from _moves(state, [m for m in list(other.legal_moves())[:5] if m not in legal])


# -- backgammon ---------------------------------------------------------------------------------

BACKGAMMON_POSITIONS = [
    "zz", 42, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -",
    "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - - cube 1",
    "W[24x2,13x9,8x3,6x5] B[24x2,13x5,8x3,6x5] - -", "W[24x2,13x5,8x3,6x6] B[] - -",
    "W[] B[] - -", "W[6] B[] w 31", "W[6] B[6] - 31", "W[6] B[6] x -", "W[6] B[6] w 71",
    "W[26] B[6] w 31", "W[6,6] B[6] w 31", "W[6x0] B[6] w 31", "W[zz] B[6] w 31",
    "W[6x٣] B[6] w 31", "W[6x9] B[6] w 31", "W[6] B[19] w 31", "W[6] B[6] w 31 cube 3",
    "W[6] B[6] w 31 cube 2", "W[6] B[6] w 31 cube 1w", "W[6] B[6] w 31 cube 2w rolling",
    "W[6] B[6] w - cube 1 match 7 2-3", "W[6] B[6] w - cube 1 match 99 2-3",
    "W[6] B[6] w - cube 1 match 9999 2-3", "W[6] B[6] w - cube 1 match 0 0-0",
    "W[6] B[6] w - cube 1 match 7 7-3", "W[6] B[6] w - cube 1 match 7 6-3 crawford",
    "W[6] B[6] w - cube 1 match 7 2-3 crawford", "W[6] B[6] w - cube 2w match 7 6-3 crawford",
    "W[6] B[6] w - cube 1 crawford", "W[6] B[6] w - cube 1 jacoby", "W[6] B[6] w - cube 1 foo",
    "W[6] B[6] w - cube 1 jacoby jacoby", "W[6] B[6] w - cube 1 rolling doubled",
    "W[6] B[6] w - cube 1 match 7 6-6 crawford", "W[6] B[6] w - cube 1 match 7",
    "W[6] B[6] w - cube 1 match x 2-3", "W[6] B[6] w - cube 1 match 7 2-3 jacoby",
    "W[6] B[6] w - cube 1 resign foo", "W[6] B[6] w - cube 1 dropped",
    "W[6] B[6] w - cube 1 resigned w", "W[6] B[6] - - cube 1 dropped w resigned b single",
    "W[6] B[6] - - cube 1 dropped w rolling", "W[6] B[6] - - cube 2w",
    "W[] B[6] - - cube 1 rolling", "W[6] B[6] w - cube 2w doubled", "W[6] B[6] w - cube 1x",
    "W[6] B[6] w - cube 3 doubled", "W[6] B[6] - - cube 2b doubled", "W[6] B[6] w - cube",
    "W[6] B[6] w 31 cube 1 rolling", "W[6] B[6] w - cube 64w match 7 2-3 doubled",
    "W[6] B[6] - 31 cube 1", "W[6] B[6] w - cube 1 dropped b", "XGID=zz",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:3:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:20:0:1:00:0:0:0:0:10",
    "XGID=Zb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:7",
    "XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",
    "XGID=-p----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "XGID=-b:0",
    "4HPwATDgc/ABMA:cIkqAAAAAAAA", "zzzz:zzzz", "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "/////////////w:cIkqAAAAAAAA", "4HPwATDgc/ABMA:MIEFAAAAAAAA",
    "4HPwATDgc/ABMA:cIkqAAAAAAAE", "4HPwATDgc/ABMA:QQAAAAAAAAAA",
]  # fmt: skip
BACKGAMMON_CRAFTED = [
    ("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 21", ["8/6 24/23", "13/11 13/12", "13/٣"]),
    ("W[6x2,5x3,4x3,3x2,2x3] B[24x2,13x5,8x3,6x5] w 42", ["3/off 2/off", "5/1 4/2", "6/off 5/3"]),
    ("W[6x2,5x3,4x3,3x2,2x3] B[24x2,13x5,8x3,6x5] w 65", ["2/off 3/off", "4/off", "6/1 6/off"]),
    ("W[13x2,5x3,4x3,3x2,2x3] B[24x2,13x5,8x3,6x5] w 65", ["5/off 4/off", "13/7 13/8"]),
    ("W[bar,24x5,6x5] B[3x2] w 31", ["bar/22", "24/21 24/23", "pass"]),
    ("W[bar,24x4,6x5] B[3x2] w 31", ["bar/24 6/3", "6/3 6/5", "24/21 bar/24"]),
    ("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 66", ["24/18(4)", "13/7(5)", "8/2(3)"]),
    ("W[8,6] B[3x2] w 11", ["8/7 6/5", "8/4", "6/2", "8/7*"]),
]
MONEY_CRAFTED = [
    ("W[6x2] B[6x2] w - cube 2b", ["double", "roll", "take", "accept", "resign single"]),
    ("W[6x2] B[6x2] w - cube 2w", ["take", "drop", "decline", "31"]),
    ("W[6x2] B[6x2] w - cube 2w doubled", ["31", "6/5", "double", "resign gammon"]),
    ("W[6x2] B[6x2] w - cube 1 resign single", ["31", "take", "double"]),
    ("W[6x2] B[6x2] w - cube 32768w", ["double", "roll"]),
    ("W[6x2] B[6x2] w 31 cube 1", ["double", "roll", "resign 4", "take"]),
]
MATCH_CRAFTED = [
    ("W[6x2] B[6x2] w - cube 1 match 7 6-3 crawford", ["double", "roll"]),
    ("W[6x2] B[6x2] w - cube 2w match 7 5-3", ["double"]),
    ("W[6x2] B[6x2] w - cube 1 match 7 2-3", ["31", "6/5"]),
]
GNUBG_IDS = [
    "!!!!!!!!!!!!!!:cIkqAAAAAAAA", "4HPw:cIkq", "4HPwATDgc/ABMA:!!!!!!!!!!!!",
    "4HPwATDgc/ABMA:cIkq", 42, "//////////8AAA:cIkqAAAAAAAA", "/////////wAAAA:cIkqAAAAAAAA",
    "4HPwATDgc/ABMA:cAkIAAAAAAAA", "4HPwATDgc/ABMA:cAloAAAAAAAA", "4HPwATDgc/ABMA:cAkgAAAAAAAA",
    "4HPwATDgc/ABMA:UIkqAAAAAAAA", "4HPwATDgc/ABMA:cIkqABAAAAAA",
]  # fmt: skip


def backgammon_refusals(rng: random.Random) -> Iterator[Refusal]:
    points = [*map(str, range(1, 25)), "bar", "off"]
    for ruleset in ["seed", "standard", "money", "match"]:
        game = load("backgammon", ruleset)
        yield from _positions(game, BACKGAMMON_POSITIONS)
        for text in GNUBG_IDS:
            yield from _catch(f"{ruleset} gnubg {text!r}", game.from_gnubg_id, text)
        yield from _catch(f"{ruleset} xgid 42", game.from_xgid, 42)
        xgid = "XGID=-b----E-C---eE---c-e----B-:{}:{}:1:00:{}:{}:{}:{}:10"
        for fields in sorted(set(itertools.permutations(["x", "0", "0", "0", "0", "1"]))):
            yield from _positions(game, [xgid.format(*fields)])
        states = _walk(game.start(), rng, 400) + _walk(game.start(), rng, 400)
        for state in states[::4] + states[-3:]:
            texts: list[Any] = [*GARBAGE, 42, None, "w3b3", "w1b9", "77", "31", "8/5 6/5"]
            for _ in range(12):
                a, b = rng.sample(points, 2)
                star = rng.choice(["", "*"])
                times = rng.choice(["", "(2)", "(5)", "(0)"])
                texts += [
                    f"{a}/{b}{star}{times}",
                    f"{a}{star}/{b}",
                    f"{a}/{b}/{rng.choice(points)}",
                ]
            texts += [str(m) for m in list(state.legal_moves())[:3]]
            dice = getattr(state, "dice", None)
            if dice is not None:  # one checker with both dice: a route to choose, or none
                far = dice.high + dice.low
                texts += [f"{a}/{a - far}" for a in range(far + 1, 25)] + [f"bar/{25 - far}"]
            yield from _moves(state, texts)
            yield from _catch(f"{text} parse 42", state.parse_move, 42)
            text = state.position()
            yield from _positions(game, _mutations(text, rng, 4, "WB[]x,0123456789 wb-cube"))
            for ident in [state.xgid(), state.gnubg_id()]:  # type: ignore[attr-defined]
                yield from _positions(game, _mutations(ident, rng, 4, "ABCabc019:/+-"))
            steps: list[list[Any]] = [["zz"], [42], ["13/7"], ["24/23"], ["bar/off"], [(13, 7, 6)]]
            legal = list(state.legal_moves())
            if legal and hasattr(legal[0], "steps") and state.dice is not None:  # type: ignore[attr-defined]
                steps += [[s] for s in legal[0].steps][:2]
                steps += [[f"{a}/{b}"] for a, b in itertools.product(points[:24:3], points[::4])]
            for done in steps:
                yield from _catch(f"{text} partial {done!r}", state.partial_turn, done)  # type: ignore[attr-defined]
        crafted = BACKGAMMON_CRAFTED if ruleset in ("seed", "standard") else []
        crafted += MONEY_CRAFTED if ruleset == "money" else []
        crafted += MATCH_CRAFTED if ruleset == "match" else []
        for position, moves in crafted:
            state = game.parse_position(position)
            yield from _moves(state, moves)
            for other, _ in crafted:  # a move of another position
                for move in list(game.parse_position(other).legal_moves())[:2]:
                    yield from _moves(state, [move])
        money = ruleset in ("money", "match")
        starts: list[dict[str, Any]] = [
            {"length": 7}, {"jacoby": True}, {"score": (1, 2)}, {"crawford": True},
            {"length": 0}, {"length": 7, "score": (7, 0)}, {"length": "7"},
            {"length": 7, "score": (1,)}, {"length": 7, "crawford": True},
            {"length": 7, "score": (6, 6), "crawford": True},
        ]  # fmt: skip
        for options in starts:
            yield from _catch(f"{ruleset} start {options}", game.start, **options)
        if not money:
            stakes = load("backgammon", "money").start().stakes
            yield from _catch(
                f"{ruleset} boards with stakes",
                game.from_boards,
                [0] * 26,
                [0] * 26,
                None,
                None,
                stakes,
            )


# -- Defiance -----------------------------------------------------------------------------------


def defiance_refusals(rng: random.Random) -> Iterator[Refusal]:
    rows = "/".join(["10"] * 10)
    for ruleset in ["10x10", "8x8"]:
        game = load("defiance", ruleset)
        yield from _positions(
            game,
            [
                "zz", 42, "10 r40,i40 R2.2,I7.8,I8.7 r", f"{rows} r40 R2.2,I7.8,I8.7 r",
                f"{rows} r40,i40 R2.2,I7.8 r", f"{rows} r40,i40 R2.2,I7.8,I7.8 r",
                f"{rows} r40,i40 R2.2,I7.8,I8.7 x", f"{rows} r40,i40 R2.2,I7.8,I8.7 -",
                f"/{rows[3:]} r40,i40 R2.2,I7.8,I8.7 r", f"11{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
                f"9{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r", f"RN9{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
                f"R9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r", f"0R9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r",
                f"X9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r", f"{rows} zz R2.2,I7.8,I8.7 r",
                f"{rows} r40,r40 R2.2,I7.8,I8.7 r", f"{rows} r40,i40 Q2.2,I7.8,I8.7 r",
                f"{rows} r40,i40 R2.22,I7.8,I8.7 r", f"{rows} r40,i40 I2.22,I7.8,I8.7 r",
                f"IEIWRN7{rows[2:]} r39,i38 R2.2,I7.8,I8.7 r", f"{rows} r40,i40 R2.2,I2.2,I8.7 -",
                f"{rows} r40,i40 R2.2,I7.8,I7.8 -", f"{rows} r4٣,i40 R2.2,I7.8,I8.7 r",
                f"{rows} r4000000000000,i40 R2.2,I7.8,I8.7 r",
                f"RR8{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
                f"RNIS8{rows[2:]} r39,i39 R2.2,I7.8,I8.7 r",
            ],
        )  # fmt: skip
        states = _walk(game.start(), rng, 80) + _walk(game.start(), rng, 2000)
        geo_n = 10 if ruleset == "10x10" else 8
        for k, state in enumerate(states[::6] + states[-2:]):
            texts: list[Any] = [*GARBAGE, 42, None, "a1>Q", "z99>N", "a01>N", "a1>N;zz"]
            texts += ["a1>N;P99.2-P2.3", "a1>N;P1.1-P1.2;x", "k1>N"]
            files = string.ascii_lowercase[:geo_n]
            for _ in range(10):
                cell = f"{rng.choice(files)}{rng.randint(1, geo_n)}"
                texts += [f"{cell}>{rng.choice(['N', 'SE', 'W'])}", f"{cell}@{rng.choice('NESW')}"]
            commands = state.position().split()[2].split(",")
            points = [tuple(int(v) for v in c[1:].split(".")) for c in commands]
            actions = sorted({str(m).split(";")[0] for m in state.legal_moves()})[:2]
            for action, (x, y) in itertools.product(actions, [*points, (1, 1)]):
                for dx, dy in itertools.product(range(-2, 3), repeat=2):
                    if min(x + dx, y + dy) >= 0:
                        texts.append(f"{action};P{x}.{y}-P{x + dx}.{y + dy}")
            yield from _moves(state, texts)
            if state.to_move is not None:
                yield from _catch("after 42", state.after_action, 42)  # type: ignore[attr-defined]
                yield from _catch("after zz", state.after_action, "zz")  # type: ignore[attr-defined]
                if k % 3 == 0:  # turns of other positions, with their Command moves
                    for other in states[-4:]:
                        yield from _moves(state, list(other.legal_moves())[:3])
            yield from _positions(
                game, _mutations(state.position(), rng, 4, "RI0123456789NESW/.,ri -")
            )
        over = states[-1]
        yield from _moves(over, ["a1>N", "zz"])
        yield from _catch("over after", over.after_action, "a1>N")  # type: ignore[attr-defined]
    state = load("defiance").start()
    for turn in ["a1>N", "c3>E", "a2>N", "e3>W"]:  # d3 is now a dead zone for the rebels
        state = _play(state, turn)
    yield from _moves(state, ["d3>N", "c3>N", "c3@N", "a1@N", "b1>N;P1.1-P1.2", "c3@E"])
    beside = load("defiance").parse_position(f"{rows} r40,i40 R2.2,I3.3,I8.7 r")
    yield from _moves(beside, ["a1>N;P2.2-P3.3", "a1>N;P2.2-P3.2"])


# -- records and environments -------------------------------------------------------------------


def record_refusals(rng: random.Random) -> Iterator[Refusal]:
    record = Record.new("general")
    yield from _catch("undo new", record.undo)
    yield from _catch("roll general", record.roll)
    yield from _catch("resign nobody", record.resign, "nobody")
    record.abandon()
    yield from _catch("abandon twice", record.abandon)
    yield from _catch("resign over", record.resign, "rebels")
    yield from _catch("play over", record.play, "a2-b2")
    won = Record.new("general")
    won.resign("general")
    yield from _catch("play resigned", won.play, "a2-b2")
    dice = Record.new("backgammon", seed=rng.randbytes(16).hex())
    yield from _catch("choose dice", dice.play, "w6b1" if dice.state.to_move else "31")
    yield from _catch("choose dice", dice.play, "w1b6")
    unseeded = Record.new("backgammon")
    yield from _catch("no seed", unseeded.roll)
    for i, text in enumerate(_bad_records()):
        yield from _catch(f"bad record {i}", Record.from_json, text)
    from ludotheque.games.backgammon import mat

    for i, text in enumerate(_bad_mat_files()):
        yield from _catch(f"bad .mat {i}", mat.loads, text)


def _bad_records() -> list[Any]:
    """Record texts and objects, each wrong in one way (a refusal code of its own)."""
    good = Record.new("general")
    good.play("a2-b2")
    base = good.to_dict()
    won = Record.new("general")
    for move in ["a2-b2", "c3-b4"]:
        won.play(move)
    won.resign("general")
    bg = Record.new("backgammon", ruleset="money", seed="ab" * 16)
    bg.roll()
    bg_dict = bg.to_dict()
    bg.play(bg.state.legal_moves()[0])
    played = bg.to_dict()
    ended = Record.new("general")  # a random game to its end (50 moves: the general wins)
    pick = random.Random(0)
    while ended.outcome() is None:
        ended.play(pick.choice(ended.state.legal_moves()))
    over = ended.to_dict()

    def changed(data: dict[str, Any], **fields: Any) -> str:
        return json.dumps({**data, **fields})

    return [
        "{",
        b"\xff",
        None,
        "[" * 50_000 + "]" * 50_000,
        "[1]",
        changed(base, format="pgn"),
        changed(base, version=9),
        changed(base, game="chess"),
        changed(base, players={"rebels": 3}),
        changed(bg_dict, dice={**bg_dict["dice"], "seed": "cd" * 16}),
        changed(bg_dict, dice={**bg_dict["dice"], "draws": [-1]}),
        changed(bg_dict, dice={**bg_dict["dice"], "draws": [0], "drawn": 0}),
        json.dumps({k: v for k, v in base.items() if k != "game"}),
        changed(base, moves="a2-b2"),
        changed(base, moves=[1]),
        changed(base, options={"turn_limit": 0}),
        changed(base, start="zz"),
        changed(bg_dict, dice={**bg_dict["dice"], "draws": [0, 1]}),
        changed(over, moves=[*over["moves"], "a2-b2"]),
        changed(played, chance=[]),
        changed(bg_dict, chance=[*bg_dict["chance"], "31"]),
        changed(base, moves=["a2-b2", "a1-a1"]),
        changed(over, result=None),
        changed(over, result={"winner": "rebels", "reason": "shut-in"}),
        changed(base, result={"winner": 3}),
        changed(won.to_dict(), result={"winner": "rebels", "reason": "shut-in"}),
        changed(base, result={"winner": "rebels", "reason": "shut-in"}),
        changed(won.to_dict(), result={**won.to_dict()["result"], "points": 7}),
    ]


def _bad_mat_files() -> list[Any]:
    """.mat texts, each wrong in one way."""
    head = " 3 point match\n\n"
    game = " Game 1\n White : 0                          Black : 0\n"
    return [
        3,
        "not a match\n",
        head + " 1) 31: 8/5 6/5\n",
        head + game + " 1) 99: 8/5\n",
        head,
        head + game + " 1) 31: 24/1\n",
    ]


def env_refusals(rng: random.Random) -> Iterator[Refusal]:
    from ludotheque.envs import encoding

    yield from _catch("max_turns 0", encoding, "general", None, 0)
    yield from _catch("match_length money", encoding, "backgammon", "money", None, 3)
    for name in ["general", "backgammon", "defiance"]:
        enc = encoding(name)
        node = enc.initial()
        for action in [-1, 10**9, "x", 1.5, True]:
            yield from _catch(f"{name} apply {action!r}", enc.apply, node, action)
        other = load("general" if name != "general" else "defiance").start()
        yield from _catch(f"{name} node_at other", enc.node_at, other)
        if name != "backgammon":
            yield from _catch(f"{name} chance_text", enc.chance_text, node, 0)
        else:
            yield from _catch("backgammon chance 10**6", enc.apply, node, 10**6)
        while node.outcome is None:
            legal = enc.legal_actions(node)
            if legal:
                node = enc.apply(node, rng.choice(legal))
            else:
                outcomes = enc.chance_outcomes(node)
                node = enc.apply(node, outcomes[0][0])
        yield from _catch(f"{name} apply over", enc.apply, node, 0)


def helper_refusals(rng: random.Random) -> Iterator[Refusal]:
    """The helpers beside the state methods, given what is not a side, a state or a depth."""
    for name in ["general", "backgammon", "defiance"]:
        game = load(name)
        state = game.start()
        yield from _catch(f"{name} evaluate White", game.evaluate, state, "White")
        yield from _catch(f"{name} opponent None", game.opponent, None)
        yield from _catch(f"{name} evaluate None", game.evaluate, None, game.sides[0])
    defiance = load("defiance").start()
    yield from _catch("defiance action alone", defiance.play, defiance.legal_actions()[0])
    for name, text in [("general", "a2-b2" * 50), ("defiance", "e5>N" + ";P2.2-P3.2" * 30)]:
        yield from _catch(f"{name} long move", load(name).start().play, text)
    yield from _catch("perft None", ludotheque.perft, None, 1)
    yield from _catch("perft -1", ludotheque.perft, load("general").start(), rng.choice([-1, "x"]))
    from ludotheque.analysis import analyse, best_moves

    start = load("general").start()
    yield from _catch("best_moves None", best_moves, None, 3)
    yield from _catch("best_moves 0", best_moves, start, 0)
    yield from _catch("best_moves superdeep", best_moves, start, 3, "superdeep")
    yield from _catch("analyse None", analyse, None)


def crafted_refusals(rng: random.Random) -> Iterator[Refusal]:
    """Refusals that random play seldom meets, built on purpose (some with the games' own
    value types, as code calling the engines may pass them)."""
    import base64

    from ludotheque.ai.agent import decision_moves
    from ludotheque.analysis.review import best_moves
    from ludotheque.games.backgammon.cube import CubeAction
    from ludotheque.games.backgammon.moves import OpeningRoll
    from ludotheque.games.defiance.geometry import geometry
    from ludotheque.games.defiance.moves import Action, CommandMove, Turn

    yield from _catch("load chess", load, "chess")
    yield from _catch("load general fast", load, "general", "fast")
    from ludotheque.solve import probe

    yield from _catch("probe backgammon", probe, load("backgammon").start())
    general = load("general")
    yield from _moves(general.start(), ["a1-z9", "f1-a1", "a9-a2"])
    yield from _catch("general parse 42", general.start().parse_move, 42)
    rebels = ["a1", "a2", "e1", "e2", "e4", "e5"]
    for label, parts in [
        ("rebels None", ("c3", None)),
        ("rebels 'a1'", ("c3", "a1")),
        ("rebels [None]", ("c3", [None])),
        ("flight 'x'", ("c3", rebels, "general", "x")),
    ]:
        yield from _catch(f"general from_parts {label}", general.from_parts, *parts)
    capture = general.parse_position("c2 a1,c3,a3,c1,e5,e4 g 1")
    yield from _moves(capture, ["c2-b2*a1", "c2-b2*b3xa1a3"])
    # the general flies to a point where two pairs can be taken
    for _ in range(3000):
        rebels = rng.sample([p for p in GENERAL_POINTS[:25] if p != "c3"], 2 * rng.randint(2, 8))
        try:
            flier = general.parse_position(f"s3 {','.join(rebels)} g 1")
        except InvalidPosition:
            continue
        found = list(_moves(flier, [f"s3-s4*{p}" for p in GENERAL_POINTS[:25]]))
        yield from found
        if any(str(exc).startswith("ambiguous capture") for _, exc in found):
            break

    seed = load("backgammon")
    opening = seed.start()
    yield from _moves(opening, [OpeningRoll(7, 1), OpeningRoll(3, 3)])
    roll = seed.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 21")
    yield from _moves(roll, ["8/5(x)", "(", "25/20", "0/3", CubeAction("double")])
    for done in [["zz/7"], ["13/x"], ["25/23"]]:
        yield from _catch(f"partial {done}", roll.partial_turn, done)
    not_lists: list[object] = [None, 3, "13/7", {}]  # no list of single moves at all
    for wrong in not_lists:
        yield from _catch(f"partial {wrong!r}", roll.partial_turn, wrong)
    off = seed.parse_position("W[3,2] B[24x2,13x5,8x3,6x5] w 54")
    yield from _catch("partial 3/off", off.partial_turn, ["3/off"])
    money = load("backgammon", "money")
    cube = money.parse_position("W[6x2] B[6x2] w - cube 1")
    yield from _moves(cube, [CubeAction("resign", 5), CubeAction("foo")])
    yield from _positions(money, ["XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0"])
    chance = seed.start()
    yield from _catch("agent at chance", decision_moves, chance)
    yield from _catch("review at chance", best_moves, chance)
    over = seed.parse_position("W[] B[6] - -")
    yield from _catch("agent over", decision_moves, over)
    yield from _catch("review over", best_moves, over)
    for ruleset in ["money", "match"]:  # every bit of the Match ID flipped
        cubeful = load("backgammon", ruleset)
        for state in _walk(cubeful.start(), rng, 30)[::5]:
            pid, mid = state.gnubg_id().split(":")  # type: ignore[attr-defined]
            raw = int.from_bytes(base64.b64decode(mid), "little")
            on_roll = (raw >> 6) & 1
            resigned = (raw & ~(7 << 8) & ~(3 << 13) & ~(1 << 11)) | 3 << 8 | (1 - on_roll) << 11
            for value in [raw ^ (1 << bit) for bit in range(72)] + [resigned]:
                flipped = value.to_bytes(9, "little")
                text = f"{pid}:{base64.b64encode(flipped).decode()}"
                yield from _catch(f"{ruleset} gnubg {text}", cubeful.from_gnubg_id, text)

    record = Record.new("backgammon")
    record.seed = None
    yield from _catch("record without seed", record.roll)

    for ruleset, n in [("10x10", 10), ("8x8", 8)]:
        game = load("defiance", ruleset)
        geo = geometry(n)
        yield from _catch("parse_action 42", game.start().parse_action, 42)
        yield from _catch("parse 42", game.start().parse_move, 42)
        start = game.start()
        yield from _catch("bad direction", start.after_action, Action(0, 0, 9))
        yield from _catch("bad kind", start.after_action, Action(7, 0, 0))
        states = _walk(start, rng, 3000)
        rows = "/".join([str(n)] * n)
        yield from _positions(game, [f"{rows} r40,i40 R7.8,I7.8,I8.7 r"])
        for state in states[::40] + states[-3:]:
            if state.to_move is None:
                continue
            commands = state.position().split()[2].split(",")
            points = [tuple(int(v) for v in c[1:].split(".")) for c in commands]
            actions = {t.action for t in state.legal_moves()}
            for action in sorted(actions)[:2]:
                for (x, y), (dx, dy) in itertools.product(
                    [*points, (1, 1)], itertools.product(range(-2, 3), repeat=2)
                ):
                    if 0 <= x + dx <= n and 0 <= y + dy <= n:
                        move = CommandMove(geo.point(x, y), geo.point(x + dx, y + dy))
                        yield from _moves(state, [Turn(action, move, n)])
            # a counter written onto empty cells: some stand flanked
            cells, rest = state.position().split(" ", 1)
            grid = _grid(cells)
            empty = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if not v]
            for r, c in rng.sample(empty, min(12, len(empty))):
                for piece in ["RN", "IS", "RE", "IW"]:
                    grid[r][c] = piece
                    yield from _positions(game, [f"{_cells_text(grid)} {rest}"])
                grid[r][c] = ""
        # two Imperial Commands side by side: one steps onto the other
        rows = "/".join([str(n)] * n)
        beside = game.parse_position(f"{rows} r40,i40 R2.2,I7.8,I7.7 i")
        for action in sorted({t.action for t in beside.legal_moves()})[:2]:
            move = CommandMove(geo.point(7, 8), geo.point(7, 7))
            yield from _moves(beside, [Turn(action, move, n)])
        yield from _defiance_built(game, n)


def _defiance_built(game: ludotheque.Game, n: int) -> Iterator[Refusal]:
    """Defiance positions built cell by cell: a counter left flanked; the Rebels one counter
    short of all four sectors (the placement that wins, with a Command move after it); an
    Imperial Command next to a key point the Rebels control."""
    from ludotheque.games.defiance.geometry import geometry
    from ludotheque.games.defiance.position import format_position

    geo = geometry(n)
    north, south = 1, 5  # a Rebel counter facing N, S (an Imperial one adds 8)
    cells = [0] * geo.num_cells
    t = geo.cell_index["c3"]
    cells[geo.neighbours[t][0]], cells[t], cells[geo.neighbours[t][4]] = 8 + south, north, 8 + north
    rebel, imperial = geo.point(0, 0), (geo.point(n, n), geo.point(n, n - 1))
    flanked = format_position(geo, tuple(cells), (39, 38), rebel, imperial, 0)
    yield from _positions(game, [flanked])
    # a key point in each sector, its four cells the Rebels': the last one left empty
    keys = [next(p for p in geo.key_points if geo.point_sector[p] == s) for s in range(4)]
    cells = [0] * geo.num_cells
    for p in keys:
        for c in geo.point_cells[p]:
            cells[c] = north
    gap = geo.point_cells[keys[3]][0]
    cells[gap] = 0
    placed = sum(1 for c in cells if c)
    almost = format_position(geo, tuple(cells), (40 - placed, 40), rebel, imperial, 0)
    state = game.parse_position(almost)
    yield from _moves(state, [f"{geo.cell_names[gap]}>N;P0.0-P0.1"])
    # the Imperium next to the key point the Rebels hold: its Command may not step there
    held = keys[0]
    src = next(p for p in range(len(geo.point_names)) if held in geo.imperial_steps[p])
    other = next(p for p in geo.key_points if p not in (src, held) and p not in keys)
    imperial = (src, other) if geo.point_xy[src] <= geo.point_xy[other] else (other, src)
    free = next(p for p in geo.key_points if p not in (src, other, *keys))
    text = format_position(geo, tuple(cells), (40 - placed, 40), free, imperial, 1)
    state = game.parse_position(text)
    command = f"{geo.point_names[src]}-{geo.point_names[held]}"
    actions = sorted({t.action for t in state.legal_moves()})[:1]
    yield from _moves(state, [f"{a.text(geo)};{command}" for a in actions])
    from ludotheque.games.defiance.moves import CommandMove, Turn

    yield from _moves(state, [Turn(a, CommandMove(src, held), n) for a in actions])


def _grid(cells: str) -> list[list[str]]:
    """A Defiance cells field as rows of cells (``""`` empty, else ``RNE``-like counters)."""
    grid = []
    for row in cells.split("/"):
        out: list[str] = []
        for run, piece in re.findall(r"(\d+)|([RI][NESW]{1,2})", row):
            out += [""] * int(run) if run else [piece]
        grid.append(out)
    return grid


def _cells_text(grid: list[list[str]]) -> str:
    """The cells field of ``grid`` (runs of empty cells as their count)."""
    rows = []
    for row in grid:
        text = "".join(piece or "." for piece in row)
        rows.append(re.sub(r"\.+", lambda m: str(len(m[0])), text))
    return "/".join(rows)


def refusals(seed: int = 0) -> Iterator[Refusal]:
    """Every refusal of the corpus, in a fixed order for a given ``seed``."""
    for make in [
        general_refusals,
        backgammon_refusals,
        defiance_refusals,
        record_refusals,
        env_refusals,
        helper_refusals,
        crafted_refusals,
    ]:
        yield from make(random.Random(f"{make.__name__}:{seed}"))
