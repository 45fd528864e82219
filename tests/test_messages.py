"""Refusals are data: every ``IllegalMove`` and ``InvalidPosition`` of the package carries a code,
its English template and plain parameters, and ``ludotheque.messages.catalogue()`` lists them all.

The sources are read (every raise passes a literal template and a literal code, no code has two
templates), then real refusals are checked: a corpus from every game (``refusal_corpus``: random
play, garbage, near-legal moves, mutated positions, crafted rare cases) and hypothesis over
arbitrary text and random positions. Each refusal's message is its template filled with its
parameters, its code and class are in the catalogue, its parameters are plain JSON, and it
survives pickling (refusals cross process pools).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
import string
import subprocess
import sys
from collections import defaultdict
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import (
    AmbiguousMove,
    IllegalMove,
    InvalidMove,
    InvalidPosition,
    Refusal,
    State,
    load,
)
from ludotheque.games import _numbers
from ludotheque.games.backgammon import notation
from ludotheque.messages import Message, catalogue, raise_sites
from tests import refusal_corpus

CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
PLAIN = (str, int, float, bool)

UNREACHED = {
    # guards in backgammon's reading of a play: the legal plays are checked before them
    "against-the-rules",
    "no-order",
    "not-legal-with-roll",
    "wrong-distance",
    "cannot-bear-off",
    # the parsers' patterns let only ASCII digits through to read_number
    "not-a-number",
    # a record's draw numbers are checked to increase before the replay that guards them
    "record-draw-back",
}
"""Codes that no refusal of the corpus reaches, and why (each is raised directly below)."""


# -- the sources -----------------------------------------------------------------------------


def test_every_raise_site_passes_a_literal_template_and_a_code() -> None:
    sites = raise_sites()
    assert len(sites) > 200  # a broken reader would find few
    bare = [f"{s.path}:{s.line}" for s in sites if s.code is None or s.template is None]
    assert not bare, f"refusals without a literal template and code=: {bare}"
    assert {s.path for s in sites} >= {
        "games/_numbers.py",
        "games/general/rules.py",
        "games/backgammon/rules.py",
        "games/defiance/rules.py",
        "record/history.py",
        "envs/base.py",
        "ai/agent.py",
        "analysis/review.py",
    }
    assert not [s for s in sites if s.path.startswith("server/")]


def test_codes_are_kebab_case_and_name_one_template_each() -> None:
    templates: dict[str, set[str]] = defaultdict(set)
    for site in raise_sites():
        assert site.code is not None and site.template is not None
        assert CODE.fullmatch(site.code), f"{site.path}:{site.line}: code {site.code!r}"
        templates[site.code].add(site.template)
    shared = {code: found for code, found in templates.items() if len(found) > 1}
    assert not shared, f"codes with more than one template: {shared}"


def test_each_site_passes_the_values_its_template_names() -> None:
    formatter = string.Formatter()
    for site in raise_sites():
        assert site.template is not None
        fields = {
            re.split(r"[.\[]", name)[0]
            for _, name, _, _ in formatter.parse(site.template)
            if name is not None
        }
        assert "" not in fields, f"{site.path}:{site.line}: a positional field"
        if site.params is not None:  # else a **mapping, checked by the refusals below
            missing = fields - set(site.params)
            assert not missing, f"{site.path}:{site.line}: no value for {missing}"


def test_the_catalogue_lists_every_code_with_its_template_and_class() -> None:
    entries = catalogue()
    assert all(isinstance(m, Message) for m in entries)
    assert len({m.code for m in entries}) > 200
    assert list(entries) == sorted(entries, key=lambda m: (m.code, m.error.__name__))
    for site in raise_sites():
        for error in site.errors:
            assert Message(site.code, site.template, error) in entries  # type: ignore[arg-type]
    by_code = {m.code: m for m in entries}
    assert by_code["dead-zone"].template == (
        "{cell} is a dead zone for the {side}: a counter there would be captured at once"
    )
    assert by_code["ambiguous-play"].error is AmbiguousMove
    assert by_code["unreadable-roll"].error is InvalidMove
    assert by_code["blocked-point"].error is IllegalMove
    assert by_code["over-cap"].error is InvalidPosition
    # read_number refuses moves and positions: one code, its template, both classes
    assert {m.error for m in entries if m.code == "not-a-number"} == {InvalidMove, InvalidPosition}


def test_the_catalogue_does_not_import_the_server() -> None:
    probe = (
        "import sys, ludotheque.messages as m; m.catalogue(); "
        "print(sorted(n for n in sys.modules if n.startswith('ludotheque.server')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# -- real refusals ---------------------------------------------------------------------------


@cache
def _classes() -> dict[str, set[type[Refusal]]]:
    found: dict[str, set[type[Refusal]]] = defaultdict(set)
    for m in catalogue():
        found[m.code].add(m.error)
    return found


def _plain(value: object) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, PLAIN) for v in value)
    return isinstance(value, PLAIN)


def check(exc: Exception) -> None:
    """The properties every refusal of the package has."""
    assert isinstance(exc, Refusal) and isinstance(exc, ValueError), repr(exc)
    assert str(exc) == exc.template.format(**exc.params), exc.code
    assert type(exc) in _classes().get(exc.code, set()), (exc.code, type(exc).__name__)
    assert all(_plain(v) for v in exc.params.values()), (exc.code, exc.params)
    assert json.loads(json.dumps(exc.params)) == exc.params


@cache
def corpus() -> list[tuple[str, Exception]]:
    return list(refusal_corpus.refusals(0))


def test_every_refusal_of_the_corpus_is_its_template_filled() -> None:
    refusals = corpus()
    assert len(refusals) > 50_000
    for label, exc in refusals:
        try:
            check(exc)
        except AssertionError as failure:
            raise AssertionError(f"{label}: {failure}") from None


def test_the_corpus_reaches_every_code() -> None:
    codes = {m.code for m in catalogue()}
    reached = {exc.code for _, exc in corpus()}  # type: ignore[attr-defined]
    assert codes >= UNREACHED
    assert not reached & UNREACHED, f"reached now: drop from UNREACHED {reached & UNREACHED}"
    assert not codes - reached - UNREACHED, f"never raised: {sorted(codes - reached - UNREACHED)}"


def test_a_refusal_of_each_code_survives_pickling() -> None:
    seen: dict[str, Exception] = {}
    for _, exc in corpus():
        seen.setdefault(exc.code, exc)  # type: ignore[attr-defined]
    for exc in seen.values():
        assert isinstance(exc, Refusal)
        for twin in (pickle.loads(pickle.dumps(exc)), copy.copy(exc)):
            assert type(twin) is type(exc)
            assert (twin.code, twin.template, twin.params) == (exc.code, exc.template, exc.params)
            assert str(twin) == str(exc) and twin.args == exc.args


def test_the_guards_of_a_written_play_say_why_in_their_own_words() -> None:
    """The reasons a written play fails are messages of their own (the play's text and roll,
    then the reason ``WHY`` words for a single move), including those behind the legal-move
    check that the corpus cannot reach."""
    by_code = {m.code: m.template for m in catalogue()}
    head = "{text!r} is not legal with {roll}: "
    for kind, words in notation.WHY.items():
        assert by_code[kind] == head + words
    state = load("backgammon").parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 21")
    me, opp = state.mover_boards()
    kinds = set()
    for src in range(26):
        for dst in range(0, src):
            for die in range(1, 7):
                why = notation.why_single(me, opp, src, dst, die, 0)
                kinds.add(why[0])
                with pytest.raises(IllegalMove) as caught:
                    notation._refuse_play("13/7", "21", why)
                check(caught.value)
                assert caught.value.code == why[0]
                assert str(caught.value).endswith(
                    notation.explain_single(me, opp, src, dst, die, 0)
                )
    assert "wrong-distance" in kinds
    whys: list[notation.Why | None] = [("no-order", {}), ("against-the-rules", {}), None]
    for failure in whys:
        with pytest.raises(IllegalMove) as caught:
            notation._refuse_play("13/7", "21", failure)
        check(caught.value)
    bear = load("backgammon").parse_position("W[6,5] B[13x2] w 21")
    me, opp = bear.mover_boards()
    with pytest.raises(IllegalMove) as caught:
        notation._refuse_play("6/off", "21", notation.why_single(me, opp, 6, 0, 2, 0))
    assert caught.value.code == "cannot-bear-off"
    check(caught.value)


@pytest.mark.parametrize("error", [InvalidMove, InvalidPosition])
def test_a_number_in_another_script_is_refused_by_its_reader(error: type[Refusal]) -> None:
    for text in ["٣", "1٣", "²"]:
        with pytest.raises(error) as caught:
            _numbers.read_number(text, error, "a move" if error is InvalidMove else "a position")  # type: ignore[arg-type]
        assert caught.value.code == "not-a-number"
        check(caught.value)


# -- hypothesis: arbitrary text, random positions ----------------------------------------------

GAMES = [
    ("general", "default"),
    ("backgammon", "seed"),
    ("backgammon", "standard"),
    ("backgammon", "money"),
    ("backgammon", "match"),
    ("defiance", "10x10"),
    ("defiance", "8x8"),
]
NOTATION = "0123456789/*()-,;.>@[]:=+xabcdeirgswnWBNESRI ofpbar٣İ"
TEXT = st.one_of(st.text(alphabet=NOTATION, max_size=30), st.text(max_size=12))
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _states(name: str, ruleset: str) -> list[State]:
    game = load(name, ruleset)
    rng = random.Random(f"{name}:{ruleset}")
    states = refusal_corpus._walk(game.start(), rng, 300)
    return states[::7] + states[-2:]


def _refused(call: object, *args: object) -> None:
    try:
        call(*args)  # type: ignore[operator]
    except (IllegalMove, InvalidPosition) as exc:
        check(exc)


@pytest.mark.parametrize(("name", "ruleset"), GAMES)
def test_any_text_refused_as_a_position_or_a_move_is_a_coded_refusal(
    name: str, ruleset: str
) -> None:
    game = load(name, ruleset)
    states = _states(name, ruleset)

    @PROPERTY
    @given(text=TEXT, index=st.integers(0, len(states) - 1), splice=st.integers(0, 60))
    def run(text: str, index: int, splice: int) -> None:
        state = states[index]
        position = state.position()
        _refused(game.parse_position, text)
        _refused(game.parse_position, position[:splice] + text + position[splice + 3 :])
        _refused(state.parse_move, text)
        _refused(state.play, text)
        legal = [str(m) for m in list(state.legal_moves())[:10]]
        if legal:
            move = legal[splice % len(legal)]
            _refused(state.play, move[: splice % 8] + text[:3] + move[splice % 8 + 1 :])

    run()


@PROPERTY
@given(st.one_of(st.text(alphabet=string.ascii_letters + string.digits + "+/:=-", max_size=30)))
def test_any_backgammon_id_refused_is_a_coded_refusal(text: str) -> None:
    game = load("backgammon", "match")
    _refused(game.from_gnubg_id, text)
    _refused(game.from_xgid, "XGID=" + text)


# -- the errors themselves -------------------------------------------------------------------


def test_a_refusal_keeps_its_english_and_carries_its_data() -> None:
    exc = IllegalMove(
        "{cell} is a dead zone for the {side}: a counter there would be captured at once",
        code="dead-zone",
        cell="d3",
        side="rebels",
    )
    assert str(exc) == "d3 is a dead zone for the rebels: a counter there would be captured at once"
    assert exc.args == (str(exc),)
    assert exc.code == "dead-zone" and exc.params == {"cell": "d3", "side": "rebels"}
    quoted = InvalidPosition("cannot read {text!r}", code="x", text="a'b")
    assert str(quoted) == 'cannot read "a\'b"'
    listed = IllegalMove("{sides[0]}, {sides[1]}", code="y", sides=["rebels", "general"])
    assert str(listed) == "rebels, general"


def test_a_bare_message_keeps_working_with_the_default_codes() -> None:
    for cls, code in [
        (IllegalMove, "illegal"),
        (InvalidMove, "invalid-move"),
        (AmbiguousMove, "ambiguous-move"),
        (InvalidPosition, "invalid-position"),
    ]:
        exc = cls("the moon is in the {way}")
        assert str(exc) == "the moon is in the {way}" and exc.args == (str(exc),)
        assert exc.code == code and exc.params == {}
        assert exc.template == "the moon is in the {{way}}"
        assert exc.template.format(**exc.params) == str(exc)
        assert isinstance(exc, ValueError) and isinstance(exc, Refusal)
    assert str(IllegalMove()) == "" and IllegalMove().code == "illegal"


def test_the_subclasses_are_illegal_moves() -> None:
    assert issubclass(InvalidMove, IllegalMove) and issubclass(AmbiguousMove, IllegalMove)
    assert not issubclass(InvalidPosition, IllegalMove)
    assert ludotheque.IllegalMove is IllegalMove and ludotheque.InvalidPosition is InvalidPosition
    with pytest.raises(AmbiguousMove):
        load("general").parse_position("c2 a1,c3,a3,c1,e5,e4 g 1").play("c2-b2")
    with pytest.raises(InvalidMove):
        load("general").start().play("zz")


@pytest.mark.parametrize(
    "exc",
    [
        IllegalMove("plain {text}"),
        AmbiguousMove("ambiguous: {text!r} could be {plays_text}", code="a", text="x",
                      plays_text="'a' or 'b'"),
        InvalidPosition("{count} rebels", code="b", count=3),
        InvalidMove("{xs[0]}", code="c", xs=[1, 2]),
    ],
)  # fmt: skip
def test_pickling_keeps_the_class_code_template_params_and_message(exc: Refusal) -> None:
    exc.add_note("a note")
    twin = pickle.loads(pickle.dumps(exc))
    assert type(twin) is type(exc) and str(twin) == str(exc) and twin.args == exc.args
    assert (twin.code, twin.template, twin.params) == (exc.code, exc.template, exc.params)
    assert twin.__notes__ == ["a note"]
