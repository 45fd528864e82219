"""The engines' refusals in French, found in the catalogue by their code (``i18n.refusals``).

Every code an engine can raise (``ludotheque.messages``) has its French, and the French of real
refusals (bad positions and illegal moves played through the public API) reads as French. A
French page gets that French on the API and on the WebSocket.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludotheque import CHANCE, IllegalMove, InvalidPosition, load
from ludotheque.games.backgammon.notation import WHY
from ludotheque.messages import catalogue
from ludotheque.record import Record
from ludotheque.server.i18n.catalog import pgettext
from ludotheque.server.i18n.refusals import NNBSP, refused
from ludotheque.server.play.boards.backgammon import note_in
from tests import refusal_corpus
from tests.server.conftest import new_game, token_of

FR = {"accept-language": "fr-FR,fr;q=0.9"}


def test_every_code_an_engine_raises_has_its_french() -> None:
    entries = catalogue()
    assert len(entries) > 200  # about 250 codes; a broken reader would find few
    missing = sorted(
        f"{m.code}: {m.template}"
        for m in entries
        if pgettext("fr", m.code, m.template) == m.template
    )
    assert not missing, "engine refusals without French:\n" + "\n".join(missing)
    for kind, template in WHY.items():
        assert pgettext("fr", f"why:{kind}", template) != template, kind


def made(code: str, **params: Any) -> IllegalMove:
    """The refusal ``code`` with ``params``, its template as the engine has it."""
    template = next(m.template for m in catalogue() if m.code == code)
    return IllegalMove(template, code=code, **params)


# -- the French reads as French ------------------------------------------------------------------

ENGLISH = frozenset(
    """the is are of to not and be can must with has have there no move moves game side sides
    point points checker checkers cannot read write like here it its this that for in at by
    only from which when your you he his turn rebels general white black won over dice roll
    play legal board cell cells counter counters command first double after before one two all
    than should been would was were what who where any every each into onto other already may
    never just these those""".split()  # noqa: SIM905
)


def english_run(text: str) -> str | None:
    """Three English words in a row in ``text`` (quoted text and notation aside), if any."""
    words = []
    for token in re.sub(r"«[^»]*»", " ", text).split():
        word = token.strip(",.;:()?!")
        words.append(word.lower() if re.fullmatch(r"[A-Za-z’']+", word) else None)
    for i in range(len(words) - 2):
        if all(w is not None and w in ENGLISH for w in words[i : i + 3]):
            return " ".join(str(w) for w in words[i : i + 3])
    return None


def assert_french(exc: Exception) -> str:
    refusal = refused(exc)
    said = refusal("fr")
    message = str(exc)
    assert not said.startswith("refusé par les règles"), (
        f"no French for {refusal.code!r}: {message}"
    )
    assert said != message and english_run(said) is None, f"{message!r} -> {said!r}"
    assert "{" not in said.replace("{{", ""), said
    return said


def test_the_french_is_typeset_the_french_way() -> None:
    for m in catalogue():
        fr = pgettext("fr", m.code, m.template)
        assert " :" not in fr and " ;" not in fr and "« " not in fr, fr
        assert "'" not in fr, f"a straight apostrophe or quote in the French of {m.code!r}"
    assert assert_french(made("occupied", place="a2")) == "il y a déjà un pion en a2"
    exc = made("general-unreadable-move", text="zz")
    assert assert_french(exc) == (
        f"impossible de lire «{NNBSP}zz{NNBSP}»{NNBSP}: écrivez un pas «{NNBSP}a1-b2{NNBSP}», "
        f"une prise «{NNBSP}c3-b2xa3c1{NNBSP}», un envol «{NNBSP}s2-s4*c3{NNBSP}»"
    )


def test_sides_reasons_and_values_take_the_pages_french() -> None:
    over = made("game-over", winner="imperium", reason="command-captured")
    assert assert_french(over) == (
        f"la partie est finie (victoire de l’Imperium{NNBSP}: le commandement rebelle est pris)"
    )
    assert assert_french(made("game-over", winner="general", reason="twelve-captured")) == (
        f"la partie est finie (victoire du général{NNBSP}: douze rebelles pris)"
    )
    assert assert_french(made("game-drawn", reason="repetition")) == (
        f"la partie est finie (nulle{NNBSP}: la même position une troisième fois)"
    )
    assert assert_french(made("no-own-counter", side="rebels", cell="a1")) == (
        "il n’y a pas de pion des rebelles en a1"
    )
    assert assert_french(made("position-not-text", value="42", type="int")) == (
        "une position est un texte, pas 42 (nombre entier)"
    )
    assert assert_french(made("point-listed-twice", colour="white", place="bar")) == (
        f"blancs{NNBSP}: la barre est donnée deux fois"
    )
    assert assert_french(made("step-which-die", n=2, step="13/7", dice_text="3 or the 6")) == (
        f"déplacement 2{NNBSP}: 13/7 peut utiliser le 3 ou le 6{NNBSP}: dites quel dé"
    )
    assert assert_french(made("step-not-allowed-with-die", n=1, step="13/7", die=6)) == (
        f"déplacement 1{NNBSP}: 13/7 avec un 6 n’est pas permis ici"
    )


def _refusals(action: Callable[..., Any], *args: Any) -> Iterator[Exception]:
    try:
        action(*args)
    except (IllegalMove, InvalidPosition) as exc:
        yield exc


def _play(state: Any, move: Any) -> Any:
    return state.play(state.parse_move(move) if isinstance(move, str) else move)


def general_refusals() -> Iterator[Exception]:
    game = load("general")
    start = game.start()
    for move in [
        "c3-c5",
        "a1-a2",
        "zz",
        "a1-b3",
        "b5-s1",
        "a1-b2xa3c1",
        "x1-a2",
        "-a2",
        42,
        "a1-b2*c3",
        "a1-b2xa3",
        "a1-b2xa3a3",
    ]:
        yield from _refusals(_play, start, move)
    rebels = "a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5"
    for text in [
        "zz",
        42,
        "c3 a1,a1 r 1",
        "c3 a1,a2,a3,a4,s1 r 1",
        "c3 c3,a1,a2,a4 r 1",
        "c3 a1,a2,a3 r 1",
        "c3 a1,a2,a3,a4,a5 r 1",
        "c3 a1,,a2,a3 r 1",
        "c3 a1,a2,a3,a4 x 1",
        "c3 a1,a2,a3,a4 r 2",
        "s4 a1,a2,a3,a4 r 1",
        "z9 a1,a2,a3,a4 r 1",
        "c3 zz,a2 r 1",
        f"c3 {rebels},b2,b3 r 1",
    ]:
        yield from _refusals(game.parse_position, text)
    for text, moves in [
        ("c2 a1,c3,e1,e2,a4,a5 g 1", ["c2-b2xa1e1", "c2-b2xa1a1", "c2-b2xa1", "a1-a2", "c2-c1*b2"]),
        ("s3 a1,a2,a3,a4,b5,c5 g 1", ["s3-s4", "s3-s4*s4", "s3-s4*a1", "s3-s4*b4xa3c5"]),
        ("s3 a1,a2,a3,a4,b5,c5 g 0", ["s3-s4*c3"]),
        ("c3 a1,a2,a3,a4 r 1", ["a1-b1"]),
        ("c2 a1,c3,a3,c1,e5,e4 g 1", ["c2-b2", "c2-b2xa1a3"]),
    ]:
        state = game.parse_position(text)
        for move in moves:
            yield from _refusals(_play, state, move)
    record = Record.new(game)
    yield from _refusals(record.undo)
    yield from _refusals(record.roll)
    yield from _refusals(record.resign, "nobody")


BACKGAMMON_POSITIONS = [
    "zz",
    42,
    "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -",
    "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - - cube 1",
    "W[24x2,13x9,8x3,6x5] B[24x2,13x5,8x3,6x5] - -",
    "W[24x2,13x5,8x3,6x6] B[] - -",
    "W[] B[] - -",
    "W[6] B[] w 31",
    "W[6] B[6] - 31",
    "W[6] B[6] x -",
    "W[6] B[6] w 71",
    "W[26] B[6] w 31",
    "W[6,6] B[6] w 31",
    "W[6x0] B[6] w 31",
    "W[zz] B[6] w 31",
    "W[6x٣] B[6] w 31",
    "W[6] B[6] w 31 cube 3",
    "W[6] B[6] w 31 cube 2",
    "W[6] B[6] w 31 cube 1w",
    "W[6] B[6] w 31 cube 2w rolling",
    "W[6] B[6] w - cube 1 match 7 2-3",
    "W[6] B[6] w - cube 1 match 99 2-3",
    "W[6] B[6] w - cube 1 match 7 7-3",
    "W[6] B[6] w - cube 1 match 7 6-3 crawford",
    "W[6] B[6] w - cube 1 crawford",
    "W[6] B[6] w - cube 1 jacoby",
    "W[6] B[6] w - cube 1 foo",
    "W[6] B[6] w - cube 1 jacoby jacoby",
    "W[6] B[6] w - cube 1 rolling doubled",
    "W[6] B[6] w - cube 1 match 7 6-6 crawford",
    "W[6] B[6] w - cube 1 match 7",
    "W[6] B[6] w - cube 1 resign foo",
    "W[6] B[6] w - cube 1 dropped",
    "W[6] B[6] w - cube 1 resigned w",
    "W[6] B[6] - - cube 2w",
    "W[] B[6] - - cube 1 rolling",
    "W[6] B[6] w - cube 2w doubled",
    "XGID=zz",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:3:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",
    "XGID=Zb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
    "XGID=-b----E-C---eE---c-e---B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10",
    "4HPwATDgc/ABMA:cIkqAAAAAAAA",
    "zzzz:zzzz",
    "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "/////////////w:cIkqAAAAAAAA",
    "4HPwATDgc/ABMA:MIEFAAAAAAAA",
]


def backgammon_refusals() -> Iterator[Exception]:
    rng = random.Random(16)
    for ruleset in ["seed", "standard", "money", "match"]:
        game = load("backgammon", ruleset)
        for text in BACKGAMMON_POSITIONS:
            yield from _refusals(game.parse_position, text)
        for move in [
            "zz",
            "13/7 8/7",
            "w1b1",
            "w1b3",
            42,
            "double",
            "take",
            "resign gammon",
            "accept",
        ]:
            yield from _refusals(_play, game.start(), move)
        state = game.start()
        for ply in range(160):  # a game of random moves, refusals tried on the way
            if state.outcome() is not None:
                for move in ["13/7", "pass"]:
                    yield from _refusals(_play, state, move)
                break
            if state.to_move == CHANCE:
                state = state.play(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_moves()
            if state.dice is not None and ply % 5 == 0:
                for src, dst in itertools.product(
                    ["bar", "24", "13", "8", "6", "3", "1"], ["22", "18", "7", "2", "off"]
                ):
                    yield from _refusals(_play, state, f"{src}/{dst}")
                    yield from _refusals(_play, state, f"{src}/{dst}*")
                for move in [
                    "pass",
                    "13/7 8/7",
                    "8/5(2)",
                    "8/5(9)",
                    "x/y",
                    "13-7",
                    "25/20",
                    "7/13",
                    "bar/off",
                    "off/3",
                    "",
                ]:
                    yield from _refusals(_play, state, move)
                for steps in [
                    [(13, 7, 6)],
                    [(99, 1, 2)],
                    ["13-7"],
                    ["zz/7"],
                    [42],
                    ["13/7"],
                    ["24/23"],
                ]:
                    yield from _refusals(state.partial_turn, steps)
            # (a forced pass's reasons are checked by the test of every reason a roll
            # cannot be played)
            if state.dice is None:
                for move in [
                    "double",
                    "roll",
                    "take",
                    "drop",
                    "accept",
                    "decline",
                    "resign single",
                    "13/7",
                ]:
                    yield from _refusals(_play, state, move)
            state = state.play(rng.choice(legal))
    cubes = load("backgammon", "money")
    for text, moves in [
        ("W[6x2] B[6x2] w - cube 2b", ["double"]),
        ("W[6x2] B[6x2] w - cube 2w", ["take"]),
    ]:
        state = cubes.parse_position(text)
        for move in moves:
            yield from _refusals(_play, state, move)
    match = load("backgammon", "match")
    for text in [
        "W[6x2] B[6x2] w - cube 1 match 7 6-3 crawford",
        "W[6x2] B[6x2] w - cube 2w match 7 5-3",
    ]:
        yield from _refusals(_play, match.parse_position(text), "double")


def defiance_refusals() -> Iterator[Exception]:
    rows = "/".join(["10"] * 10)
    for ruleset in ["10x10", "8x8"]:
        game = load("defiance", ruleset)
        for text in [
            "zz",
            42,
            "10 r40,i40 R2.2,I7.8,I8.7 r",
            f"{rows} r40 R2.2,I7.8,I8.7 r",
            f"{rows} r40,i40 R2.2,I7.8 r",
            f"{rows} r40,i40 R2.2,I7.8,I7.8 r",
            f"{rows} r40,i40 R2.2,I7.8,I8.7 x",
            f"{rows} r40,i40 R2.2,I7.8,I8.7 -",
            f"/{rows[3:]} r40,i40 R2.2,I7.8,I8.7 r",
            f"11{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
            f"9{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
            f"RN9{rows[2:]} r40,i40 R2.2,I7.8,I8.7 r",
            f"R9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r",
            f"0R9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r",
            f"X9{rows[2:]} r39,i40 R2.2,I7.8,I8.7 r",
            f"{rows} zz R2.2,I7.8,I8.7 r",
            f"{rows} r40,r40 R2.2,I7.8,I8.7 r",
            f"{rows} r40,i40 Q2.2,I7.8,I8.7 r",
            f"{rows} r40,i40 R2.22,I7.8,I8.7 r",
            f"{rows} r40,i40 I2.22,I7.8,I8.7 r",
            f"IEIWRN7{rows[2:]} r39,i38 R2.2,I7.8,I8.7 r",
            f"{rows} r40,i40 R2.2,I2.2,I8.7 -",
            f"{rows} r4٣,i40 R2.2,I7.8,I8.7 r",
            f"{rows} r4000000000000,i40 R2.2,I7.8,I8.7 r",
        ]:
            yield from _refusals(game.parse_position, text)
        rng = random.Random(16)
        state = game.start()
        for ply in range(40):
            if state.outcome() is not None:
                yield from _refusals(_play, state, "a1>N")
                yield from _refusals(state.after_action, "a1>N")
                break
            if ply % 3 == 0:  # both sides' turns
                yield from _defiance_turn_refusals(state)
            state = state.play(rng.choice(state.legal_moves()))
    state = load("defiance").start()
    for turn in ["a1>N", "c3>E", "a2>N", "e3>W"]:  # d3 is now a dead zone for the rebels
        state = _play(state, turn)
    for turn in ["d3>N", "c3>N", "c3@N", "a1@N", "b1>N;P1.1-P1.2"]:
        yield from _refusals(_play, state, turn)


def _defiance_turn_refusals(state: Any) -> Iterator[Exception]:
    """Written turns refused in ``state``: bad text, and every Command step of one or two
    points from where the Commands stand (and from where they do not), after legal actions."""
    for move in ["zz", 42, "a1>N", "a1>Q", "z99>N", "a1@N", "a01>N", "a1>N;zz", "a1>N;P99.2-P2.3"]:
        yield from _refusals(_play, state, move)
    for cell in ["a1", "c3", "e5", "f6", "j10"]:
        for move in [f"{cell}>N", f"{cell}@S", f"{cell}@N"]:
            yield from _refusals(_play, state, move)
    commands = state.position().split()[2].split(",")
    points = [tuple(int(v) for v in c[1:].split(".")) for c in commands]
    actions = sorted({str(m).split(";")[0] for m in state.legal_moves()})[:2]
    for action, (x, y) in itertools.product(actions, [*points, (1, 1)]):
        for dx, dy in itertools.product(range(-2, 3), repeat=2):
            if min(x + dx, y + dy) >= 0:
                yield from _refusals(_play, state, f"{action};P{x}.{y}-P{x + dx}.{y + dy}")


def crafted_refusals() -> Iterator[Exception]:
    """Refusals that random play seldom meets: full and blocked points, bearing off, answers
    owed to the cube, the cube at its top, GNU Backgammon IDs and XGIDs, a failed flight."""
    seed = load("backgammon")
    start = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 21"
    for position, moves in [
        (start, ["8/6 24/23", "13/11 13/12", "13/٣"]),
        (
            "W[6x2,5x3,4x3,3x2,2x3] B[24x2,13x5,8x3,6x5] w 42",
            ["3/off 2/off", "5/1 4/2", "6/off 5/3"],
        ),
    ]:
        for move in moves:
            yield from _refusals(_play, seed.parse_position(position), move)
    money = load("backgammon", "money")
    play = money.parse_position("W[6x2] B[6x2] w 31 cube 1").legal_moves()[0]
    for position in ["W[6x2] B[6x2] w - cube 2w doubled", "W[6x2] B[6x2] w - cube 1 resign single"]:
        yield from _refusals(money.parse_position(position).play, play)
    yield from _refusals(_play, money.parse_position("W[6x2] B[6x2] w - cube 32768w"), "double")
    for text in ["!!!!!!!!!!!!!!:cIkqAAAAAAAA", "4HPw:cIkq", "4HPwATDgc/ABMA:!!!!!!!!!!!!",
                 "4HPwATDgc/ABMA:cIkq", 42, "//////////8AAA:cIkqAAAAAAAA"]:  # fmt: skip
        yield from _refusals(money.from_gnubg_id, text)
    xgid = "XGID=-b----E-C---eE---c-e----B-:{}:{}:1:00:{}:{}:{}:{}:10"
    for fields in itertools.permutations(["x", "0", "0", "0", "0", "0"]):
        yield from _refusals(money.parse_position, xgid.format(*fields))
    rows = "/".join(["10"] * 10)
    beside = load("defiance").parse_position(f"{rows} r40,i40 R2.2,I3.3,I8.7 r")
    yield from _refusals(_play, beside, "a1>N;P2.2-P3.3")
    flight = load("general").parse_position("s3 a1,a2,a3,a4,b5,c5 g 1")
    yield from _refusals(_play, flight, "s3-s4*b2xa1a3")


@pytest.mark.parametrize(
    "refusals", [general_refusals, backgammon_refusals, defiance_refusals, crafted_refusals]
)
def test_bad_positions_and_illegal_moves_read_in_french(
    refusals: Callable[[], Iterator[Exception]],
) -> None:
    refused_here = {(type(e), str(e)): e for e in refusals()}
    assert len(refused_here) > 20  # the list reaches many kinds of refusal, not a few
    for _, exc in sorted(refused_here.items(), key=lambda item: item[0][1]):
        if str(exc):
            assert_french(exc)


def records_and_helpers() -> Iterator[Exception]:
    """The refusals of records, ``.mat`` files, the helpers and the research environments, as
    ``tests.refusal_corpus`` makes them."""
    for make in (refusal_corpus.record_refusals, refusal_corpus.helper_refusals,
                 refusal_corpus.env_refusals):  # fmt: skip
        for _, exc in make(random.Random(make.__name__)):
            yield exc


def test_the_refusals_of_records_and_helpers_read_in_french() -> None:
    """Their French is whole, the refusal a record quotes (``record-illegal-move``'s
    ``reason``: the move the replay refused) included; only a reason from outside the engines
    (the JSON reader's) stays as it was said."""
    quoting = 0
    for exc in records_and_helpers():
        inner = getattr(exc, "inner", None)
        if inner is not None:
            quoting += 1
            said = assert_french(exc)
            assert refused(inner)("fr") in said and str(inner) not in said, said
        elif "reason" in getattr(exc, "params", {}):
            said = refused(exc)("fr")
            assert said != str(exc) and "{" not in said, said
        else:
            assert_french(exc)
    assert quoting > 3


def test_a_record_s_refused_move_reads_in_french() -> None:
    """A record whose third move is illegal: the French names the ply and says why the rules
    refuse the move in French, where it quoted the engine's English."""
    record = Record.new(load("general"))
    record.play("a2-b2")
    record.play("c3-b4")
    data = record.to_dict()
    data["moves"].append("a2-a4")  # no rebel stands on a2 any more
    with pytest.raises(InvalidPosition) as caught:
        Record.from_json(json.dumps(data))
    exc = caught.value
    assert exc.code == "record-illegal-move"
    said = assert_french(exc)
    inner = refused(exc.inner)("fr")  # type: ignore[attr-defined]
    assert said.startswith("demi-coup 3") and said.endswith(inner), said
    assert refused(exc)("en") == str(exc)
    again = pickle.loads(pickle.dumps(exc))  # across a process pool, the quoted refusal too
    assert refused(again)("fr") == said


def test_the_refusals_above_reach_most_codes() -> None:
    """The exercise covers the engines: most codes of the catalogue are met in a real
    refusal (the others are guards a public path seldom reaches; ``tests/test_messages.py``
    raises them directly)."""
    corpora = [general_refusals, backgammon_refusals, defiance_refusals, crafted_refusals,
               records_and_helpers]  # fmt: skip
    met = {getattr(e, "code", "") for refusals in corpora for e in refusals()}
    codes = {m.code for m in catalogue()}
    assert len(met & codes) > 0.6 * len(codes), sorted(codes - met)


def test_every_reason_a_roll_cannot_be_played_reads_in_french() -> None:
    """The forced pass's reasons (``pass_reason``, parts joined by "; ") and the reasons a
    written play fails, over the single moves of many positions."""
    rng = random.Random(4)
    game = load("backgammon")
    reasons: dict[str, Any] = {}
    for _ in range(6):
        state = game.start()
        while state.outcome() is None:
            if state.to_move == CHANCE:
                state = state.play(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_moves()
            if legal[0].is_pass:
                reasons[state.pass_reason()] = state
            state = state.play(rng.choice(legal))
    assert any("; " in r for r in reasons), "no pass with two reasons was met"
    for english, state in reasons.items():
        said = note_in(state, "pass", "fr")
        assert said is not None and english_run(said) is None, (english, said)
        assert said.count(";") == english.count(";")


_NOTATION = st.text(
    alphabet="abcdefgsx0123456789-*,;/>@NESWrgiIRwb[] .:=XGIDQoffbar'٣", max_size=40
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(
        ["general", "backgammon", "backgammon/money", "backgammon/match", "defiance/8x8"]
    ),
    position=_NOTATION,
    move=_NOTATION,
)
def test_any_refusal_of_written_text_reads_in_french(game: str, position: str, move: str) -> None:
    name, _, ruleset = game.partition("/")
    engine = load(name, ruleset or None)
    for exc in _refusals(engine.parse_position, position):
        assert_french(exc)
    for exc in _refusals(_play, engine.start(), move):
        assert_french(exc)


# -- a French page gets them ---------------------------------------------------------------------


def test_a_french_page_gets_the_engines_refusals_in_french(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    url = f"/api/play/{token}/move"
    english = client.post(url, json={"move": "a1-a2", "ply": 0})
    assert english.status_code == 422 and english.json()["detail"] == "a2 is occupied"
    said = client.post(url, json={"move": "a1-a2", "ply": 0}, headers=FR)
    assert said.status_code == 422 and said.json()["detail"] == "il y a déjà un pion en a2"
    said = client.post(url, json={"move": "zz", "ply": 0}, headers=FR)
    assert said.json()["detail"].startswith(f"impossible de lire «{NNBSP}zz{NNBSP}»")
    created = client.post("/api/games", json={"game": "general", "position": "zz"}, headers=FR)
    assert created.status_code == 422
    assert created.json()["detail"] == (
        f"position invalide{NNBSP}: une position a 4 champs (général, rebelles, camp, envol), par "
        f"exemple «{NNBSP}c3 a1,a2,… r 1{NNBSP}»{NNBSP}; «{NNBSP}zz{NNBSP}» en a 1"
    )
    board = client.post(
        "/api/analysis/position", json={"game": "defiance", "move": "a1@N"}, headers=FR
    )
    assert board.status_code == 422
    assert board.json()["detail"] == "il n’y a pas de pion des rebelles en a1"
    bad = client.post(
        "/api/analysis/position",
        json={"game": "backgammon", "position": "W[zz] B[] w 31"},
        headers=FR,
    )
    assert bad.json()["detail"].startswith(
        f"position invalide{NNBSP}: blancs{NNBSP}: impossible de lire"
    )


def test_the_socket_of_a_french_page_gets_them_in_french(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    client.cookies.set("lang", "fr")
    with client.websocket_connect(f"/ws/{token}") as ws:
        message = ws.receive_json()
        while message["type"] != "state":
            message = ws.receive_json()
        ply = message["game"]["ply"]
        for move, said in [
            ("a1-a2", "il y a déjà un pion en a2"),
            ("c3-c4", "le général est en c3, et c’est aux rebelles de jouer"),
        ]:
            ws.send_json({"type": "move", "move": move, "ply": ply})
            message = ws.receive_json()
            while message["type"] != "error":
                message = ws.receive_json()
            assert message["code"] == "illegal" and message["message"] == said
    client.cookies.set("lang", "en")
    with client.websocket_connect(f"/ws/{token}") as ws:
        ws.send_json({"type": "move", "move": "a1-a2", "ply": ply})
        message = ws.receive_json()
        while message["type"] != "error":
            message = ws.receive_json()
        assert message["message"] == "a2 is occupied"


def test_a_forced_pass_says_why_in_french_too(client: TestClient) -> None:
    created = new_game(client, game="backgammon", position="W[bar,24x5,6x5] B[3x2] w 31")
    state = client.get(f"/api/play/{token_of(created['seats']['both'])}").json()
    first = state["history"][0]
    assert first["text"] == "pass" and "22 is blocked" in first["note"]
    assert first["note_fr"] == (
        f"bar/22 avec le 3{NNBSP}: la flèche 22 est bloquée{NNBSP}: l’adversaire y a 2 pions"
        f"{NNBSP}; bar/24 avec le 1{NNBSP}: la flèche 24 est pleine{NNBSP}: 5 de vos pions s’y "
        "trouvent déjà"
    )


def test_an_unknown_refusal_keeps_the_english_behind_a_french_lead_in() -> None:
    from ludotheque.server.play.refusals import engine_error

    unknown = engine_error(IllegalMove("the moon is in the way"))
    assert unknown.in_language("en") == "the moon is in the way"
    assert unknown.in_language("fr") == f"refusé par les règles{NNBSP}: the moon is in the way"
    known = engine_error(made("occupied", place="a2"))
    assert known.message == "a2 is occupied" and known.code == "illegal"
    assert known.in_language("fr") == "il y a déjà un pion en a2"
