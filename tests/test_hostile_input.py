"""Hostile input never crashes a parser: position strings, move notation and the backgammon IDs
raise only ``InvalidPosition`` (positions) or ``IllegalMove`` (moves), as DESIGN.md promises.

First the bugs that fuzzing found, one regression test each; then hypothesis properties that feed
arbitrary text (other scripts' digits, ``İ``, ``ß``, ``ﬁ``, combining marks, NUL, numbers too long
for ``int()``) to every game and ruleset, alone and spliced into valid strings.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove, InvalidPosition, State
from ludotheque.games.backgammon import BackgammonGame, BackgammonState

RULESETS = [
    ("general", "default"),
    ("backgammon", "seed"),
    ("backgammon", "standard"),
    ("defiance", "10x10"),
    ("defiance", "8x8"),
]
IDS = [f"{name}-{ruleset}" for name, ruleset in RULESETS]
HUGE = "9" * 5000  # past Python's 4,300-digit limit of int()
PROPERTY = settings(max_examples=200, deadline=None)


def backgammon(ruleset: str = "seed") -> BackgammonGame:
    """A backgammon game object, typed as one."""
    game = ludotheque.load("backgammon", ruleset=ruleset)
    assert isinstance(game, BackgammonGame)
    return game


def refused_position(game: ludotheque.Game, text: str) -> InvalidPosition:
    """The ``InvalidPosition`` that ``text`` raises (any other exception fails the test)."""
    with pytest.raises(InvalidPosition) as caught:
        game.parse_position(text)
    assert str(caught.value)
    return caught.value


def refused_move(state: State, text: str) -> IllegalMove:
    """The ``IllegalMove`` that ``text`` raises through ``parse_move`` and through ``play``."""
    with pytest.raises(IllegalMove):
        state.play(text)
    with pytest.raises(IllegalMove) as caught:
        state.parse_move(text)
    assert str(caught.value)
    return caught.value


# -- bug 1: Unicode letters that regular expressions fold onto ASCII ones ------------------

DEFIANCE_8 = "3IE1IE2/8/8/8/8/4ISW3/RS6RE/7RNE r37,i37 R5.4,I6.6,I6.7 r"


def test_the_defiance_sample_is_valid() -> None:
    game = ludotheque.load("defiance", ruleset="8x8")
    assert game.parse_position(DEFIANCE_8).position() == DEFIANCE_8


@pytest.mark.parametrize(
    "text",
    [
        DEFIANCE_8.replace("3IE", "3İE"),  # "İ".upper() is "İ", not in "RI": a bare ValueError
        DEFIANCE_8.replace("3IE", "3ıE"),  # dotless i was read as an Imperial counter
        DEFIANCE_8.replace("4ISW", "4IſW"),  # long s was read as S
        DEFIANCE_8.replace("I6.7", "İ6.7"),  # a Command written with İ
        DEFIANCE_8.replace("I6.7", "ı6.7"),
    ],
)
def test_defiance_refuses_letters_outside_ascii(text: str) -> None:
    message = str(refused_position(ludotheque.load("defiance", ruleset="8x8"), text))
    assert "ValueError" not in message and "substring" not in message


def test_an_xgid_prefix_must_be_ascii() -> None:
    game = backgammon()
    xgid = game.start().xgid()
    assert game.parse_position("xgid=" + xgid[5:]) == game.parse_position(xgid)
    refused_position(game, xgid.replace("XGID=", "XGıD=", 1))  # "ı".upper() is "I"


# -- bug 2: numbers too long for int(), and digits of other scripts ------------------------

LONG_POSITIONS = [
    ("backgammon", "seed", f"W[{HUGE}] B[] w -"),
    ("backgammon", "standard", f"W[{HUGE}] B[] w -"),
    ("backgammon", "seed", f"W[6x{HUGE}] B[1] w 31"),
    ("backgammon", "standard", f"W[6x{HUGE}] B[1] w 31"),
    ("defiance", "10x10", f"10/10/10/{HUGE}/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r"),
    ("defiance", "10x10", f"10/10/10/10/10/10/10/10/10/10 r{HUGE},i40 R2.2,I7.8,I8.7 r"),
    ("defiance", "10x10", f"10/10/10/10/10/10/10/10/10/10 r40,i40 R{HUGE}.2,I7.8,I8.7 r"),
    ("defiance", "8x8", DEFIANCE_8.replace("R5.4", f"R5.{HUGE}")),
    ("defiance", "8x8", DEFIANCE_8.replace("/8/8/", f"/8/{HUGE}/")),
    ("defiance", "8x8", DEFIANCE_8.replace("i37", f"i{HUGE}")),
    ("general", "default", f"c3 a1,a2,a3,a{HUGE} r 1"),
    ("general", "default", f"c3 a1,a2,a3,a4 r {HUGE}"),
]


@pytest.mark.parametrize(("name", "ruleset", "text"), LONG_POSITIONS)
def test_a_number_too_long_for_int_in_a_position(name: str, ruleset: str, text: str) -> None:
    refused_position(ludotheque.load(name, ruleset=ruleset), text)


def test_the_message_for_a_long_number_is_short_and_says_what_is_wrong() -> None:
    message = str(refused_position(backgammon(), f"W[{HUGE}] B[] w -"))
    assert "too many digits" in message
    assert len(message) < 100


def _opening_play(ruleset: str) -> State:
    """Backgammon after the opening roll 3–1 (white or black to play 31)."""
    return ludotheque.load("backgammon", ruleset=ruleset).start().play("w3b1")


@pytest.mark.parametrize("ruleset", ["seed", "standard"])
@pytest.mark.parametrize("text", [f"6/{HUGE}", f"{HUGE}/5", f"8/5({HUGE})", f"8/5 6/5 bar/{HUGE}*"])
def test_a_number_too_long_for_int_in_a_backgammon_move(ruleset: str, text: str) -> None:
    # the whole text is too long to be a move, before its number is read
    assert refused_move(_opening_play(ruleset), text).code == "move-too-long"
    shorter = text.replace(HUGE, "9" * 60)  # a move's length, a number far too long
    assert "too many digits" in str(refused_move(_opening_play(ruleset), shorter))


@pytest.mark.parametrize("ruleset", ["10x10", "8x8"])
@pytest.mark.parametrize(
    "text", [f"a{HUGE}>N", f"e5>N;P2.2-P3.{HUGE}", f"e5>N;P{HUGE}.2-P3.2", f"e{HUGE}@W"]
)
def test_a_number_too_long_for_int_in_a_defiance_turn(ruleset: str, text: str) -> None:
    refused_move(ludotheque.load("defiance", ruleset=ruleset).start(), text)


@pytest.mark.parametrize("text", [f"a{HUGE}-b2", f"c3-b{HUGE}xa3c1"])
def test_a_number_too_long_in_a_general_move(text: str) -> None:
    refused_move(ludotheque.load("general").start(), text)


def test_leading_zeros_keep_their_meaning_whatever_their_number() -> None:
    game = backgammon()
    start = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"
    assert game.parse_position(start.replace("W[24x2", "W[024x02")).position() == start
    padded = start.replace("W[24x2", f"W[{'0' * 5000}24x{'0' * 5000}2")
    assert game.parse_position(padded).position() == start


@pytest.mark.parametrize(
    ("name", "ruleset", "text"),
    [
        ("backgammon", "seed", "W[٢٤x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"),  # Arabic-Indic
        ("backgammon", "seed", "W[24x２,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -"),  # full width
        ("defiance", "8x8", DEFIANCE_8.replace("r37", "r٣٧")),
        ("defiance", "8x8", DEFIANCE_8.replace("R5.4", "R५.4")),  # Devanagari
        ("defiance", "8x8", DEFIANCE_8.replace("/8/8/", "/8/৮/")),  # Bengali
    ],
)
def test_digits_of_other_scripts_are_not_numbers_in_a_position(
    name: str, ruleset: str, text: str
) -> None:
    refused_position(ludotheque.load(name, ruleset=ruleset), text)


@pytest.mark.parametrize(
    ("name", "ruleset", "text"),
    [
        ("backgammon", "seed", "٨/5 6/5"),
        ("backgammon", "standard", "8/5 6/５"),
        ("defiance", "10x10", "e٥>N"),
        ("defiance", "10x10", "e5>N;P2.2-P٣.2"),
    ],
)
def test_digits_of_other_scripts_are_not_numbers_in_a_move(
    name: str, ruleset: str, text: str
) -> None:
    state = ludotheque.load(name, ruleset=ruleset).start()
    if state.is_chance:
        state = state.play("w3b1")
    refused_move(state, text)


@pytest.mark.parametrize("value", [None, 31, b"XGID=", ["24/21"]])
def test_the_backgammon_id_readers_take_only_strings(value: object) -> None:
    game = backgammon()
    with pytest.raises(InvalidPosition):
        game.from_xgid(value)  # type: ignore[arg-type]
    with pytest.raises(InvalidPosition):
        game.from_gnubg_id(value)  # type: ignore[arg-type]


# -- properties: arbitrary text, alone and spliced into valid strings -----------------------


def _walk(start: State, rng: random.Random, plies: int) -> list[State]:
    """``start`` and the states of a random game from it, up to ``plies`` plies."""
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


def _sample_states(name: str, ruleset: str) -> list[State]:
    """The start and a few positions after random moves (backgammon: chance nodes among them,
    both the opening roll and a later roll, and a finished game)."""
    game = ludotheque.load(name, ruleset=ruleset)
    rng = random.Random(f"{name}:{ruleset}")
    walk = _walk(game.start(), rng, 30)
    states = [walk[i] for i in (0, 1, 2, 3, 6, 13, 30) if i < len(walk)]
    if name == "backgammon":
        states.append(game.parse_position("W[] B[6] - -"))  # over: white has borne off
        assert sum(s.is_chance for s in states) >= 2
    return list(dict.fromkeys(states))


STATES = {(name, ruleset): _sample_states(name, ruleset) for name, ruleset in RULESETS}

TRICKY = (
    "İıßﬁſKÅ"  # letters whose upper/lower case is not one ASCII letter
    "٣٧५৮２²①⁴"  # digits of other scripts, superscripts, circled and full-width digits
    "\u0307\u0301\u0338"  # combining marks
    "\x00\u00a0\u2028\ufeff\t\n"  # NUL, unusual spaces and line breaks
)
NOTATION = "0123456789/*()-,;.>@[]:=+xXabcdeirgswnWBNESRI ofpOFFbarBARxgidXGID"
FRAGMENTS = st.one_of(
    st.text(alphabet=TRICKY + NOTATION, max_size=4),
    st.sampled_from([HUGE, "0" * 5000, "1" * 4301, "9" * 10, "0", "25", "99", "66", "XGID="]),
    st.text(max_size=3),
)
HOSTILE_CHARS = st.sampled_from(TRICKY + NOTATION) | st.characters()


@st.composite
def spliced(draw: st.DrawFn, bases: list[str]) -> str:
    """A valid string with a few fragments of hostile text written over parts of it."""
    text = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 4)))
        text = text[:i] + draw(FRAGMENTS) + text[j:]
    return text


def hostile(bases: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, text of tricky characters, and valid strings with hostile splices."""
    return st.one_of(st.text(), st.text(alphabet=HOSTILE_CHARS), spliced(bases))


def _position_texts(states: list[State]) -> list[str]:
    """The position strings of ``states`` (backgammon: also their XGIDs and GNU IDs)."""
    texts = [s.position() for s in states]
    for s in states:
        if isinstance(s, BackgammonState):
            texts += [s.xgid(), s.gnubg_position_id(), s.gnubg_id()]
    return texts


def _move_texts(state: State) -> list[str]:
    """Notation valid at ``state``: some legal moves, or the chance outcomes."""
    moves = [str(m) for m in state.legal_moves()][:20]
    outcomes = [str(c) for c, _ in state.chance_outcomes()]
    return moves + outcomes + ["pass", "13/7 8/7", "e5>N;P2.2-P3.2", "c3-b2xa3c1"]


def only(errors: type[Exception], call: Callable[[], object]) -> None:
    """Run ``call``: success is fine, and so is ``errors`` with a message; anything else fails."""
    try:
        call()
    except errors as e:
        assert str(e), f"{type(e).__name__} without a message"


@pytest.mark.parametrize(("name", "ruleset"), RULESETS, ids=IDS)
def test_any_text_as_a_position_raises_only_invalid_position(name: str, ruleset: str) -> None:
    game = ludotheque.load(name, ruleset=ruleset)

    @PROPERTY
    @given(hostile(_position_texts(STATES[name, ruleset])))
    def check(text: str) -> None:
        only(InvalidPosition, lambda: game.parse_position(text))

    check()


@st.composite
def state_and_text(draw: st.DrawFn, states: list[State]) -> tuple[State, str]:
    """One of ``states`` and hostile text built from the notation valid there."""
    state = draw(st.sampled_from(states))
    return state, draw(hostile(_move_texts(state)))


@pytest.mark.parametrize(("name", "ruleset"), RULESETS, ids=IDS)
def test_any_text_as_a_move_raises_only_illegal_move(name: str, ruleset: str) -> None:
    @PROPERTY
    @given(state_and_text(STATES[name, ruleset]))
    def check(case: tuple[State, str]) -> None:
        state, text = case
        only(IllegalMove, lambda: state.parse_move(text))
        only(IllegalMove, lambda: state.play(text))

    check()


XG_BOARD = st.text(alphabet="-----ABCDEFGHIJKLMNOPQabcdefghijklmnopq", min_size=24, max_size=28)
XG_FIELD = st.sampled_from(["0", "1", "-1", "00", "31", "66", "16", "70", "D", "B", "R", "", HUGE])


@PROPERTY
@given(
    XG_BOARD,
    st.lists(XG_FIELD, min_size=0, max_size=10),
    st.sampled_from(["seed", "standard"]),
)
def test_any_xgid_raises_only_invalid_position(board: str, fields: list[str], rules: str) -> None:
    text = ":".join([f"XGID={board}", *fields])
    game = backgammon(rules)
    only(InvalidPosition, lambda: game.parse_position(text))
    only(InvalidPosition, lambda: game.from_xgid(text))


@PROPERTY
@given(
    st.binary(min_size=10, max_size=10),
    st.none() | st.binary(min_size=9, max_size=9),
    st.sampled_from(["seed", "standard"]),
)
def test_any_gnubg_id_raises_only_invalid_position(
    key: bytes, match: bytes | None, rules: str
) -> None:
    text = base64.b64encode(key).decode()[:14]
    if match is not None:
        text += ":" + base64.b64encode(match).decode()
    game = backgammon(rules)
    only(InvalidPosition, lambda: game.parse_position(text))
    only(InvalidPosition, lambda: game.from_gnubg_id(text))


@PROPERTY
@given(hostile(_position_texts(STATES["backgammon", "seed"])))
def test_any_text_through_the_id_readers_raises_only_invalid_position(text: str) -> None:
    game = backgammon()
    only(InvalidPosition, lambda: game.from_xgid(text))
    only(InvalidPosition, lambda: game.from_gnubg_id(text))
