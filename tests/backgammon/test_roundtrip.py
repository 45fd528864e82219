"""Every backgammon state the parser accepts prints a position string that reads back as the same
state, in all four rulesets ("every stored game loads": the server stores ``position()`` and
parses it later).

First the holes that fuzzing found, one regression test each; then hypothesis properties over
states reached by random play (cube decisions, resignations, drops, Crawford games, finished
games, matches going on game after game) and over strings built from the grammar's tokens.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import BackgammonGame, BackgammonState
from ludotheque.games.backgammon.cube import ROLLING
from tests.backgammon.strategies import boards


def load(ruleset: str) -> BackgammonGame:
    game = ludotheque.load("backgammon", ruleset)
    assert isinstance(game, BackgammonGame)
    return game


RULESETS = ("seed", "standard", "money", "match")
GAMES = {ruleset: load(ruleset) for ruleset in RULESETS}
MONEY, MATCH = GAMES["money"], GAMES["match"]
START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5]"
FAST = settings(max_examples=40, deadline=None)


def reads_back(game: BackgammonGame, state: BackgammonState) -> None:
    """The position string of ``state`` reads back as ``state``."""
    text = state.position()
    again = game.parse_position(text)
    assert again == state, f"{text!r} reads back as {again.position()!r}"
    assert again.position() == text


def accepted_reads_back(game: BackgammonGame, text: str) -> BackgammonState | None:
    """``text`` is refused with ``InvalidPosition`` only, or accepted and reads back."""
    try:
        state = game.parse_position(text)
    except InvalidPosition as refusal:
        assert str(refusal)
        return None
    reads_back(game, state)
    return state


# -- the holes fuzzing found ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tail",
    [
        "cube 2b match 0 0-0",  # the issue's: "match 0" slipped past the match checks
        "cube 1 match 0 5-3",  # with it any score passed, and the whole match was dropped
        "cube 1 match 0 0-0 crawford",
        "cube 1 match 00 0-0",
    ],
)
def test_a_match_of_no_points_is_refused(tail: str) -> None:
    text = f"W[24x2,13x5,8x3,6x5] B[24x2,13x5,8,6x6,3] w 33 {tail}"
    with pytest.raises(InvalidPosition, match="a match is 1 to 25 points long, not 0"):
        MATCH.parse_position(text)


@pytest.mark.parametrize(
    ("ruleset", "text"),
    [
        # "dropped" after "resigned" kept the resignation's value: 'dropped b' read back without it
        ("money", "W[7] B[10x2] - - cube 1 resigned b backgammon dropped b"),
        ("match", "W[2] B[6] - - cube 4w match 2 0-0 resigned b backgammon dropped b"),
        ("money", "W[7] B[10x2] - - cube 1 dropped b resigned b backgammon"),
    ],
)
def test_a_game_ends_once(ruleset: str, text: str) -> None:
    with pytest.raises(InvalidPosition, match="a game ends one way"):
        GAMES[ruleset].parse_position(text)


def test_the_issue_position_with_a_match_reads_back() -> None:
    state = MATCH.parse_position(
        "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8,6x6,3] w 33 cube 2b match 3 0-0"
    )
    assert state.position().endswith(" w 33 cube 2b match 3 0-0")
    reads_back(MATCH, state)


# -- states reached by play ---------------------------------------------------------------------


def fresh(game: BackgammonGame, rng: random.Random) -> BackgammonState:
    """A new game: in a match of random length at a random score (the Crawford game when it
    may be), in money play with or without the Jacoby rule."""
    if game.ruleset == "match":
        length = rng.choice([1, 2, 3, 5, 7, 11, 25])
        score = (rng.randrange(length), rng.randrange(length))
        crawford = max(score) == length - 1 > min(score) and rng.random() < 0.6
        return game.start(length=length, score=score, crawford=crawford)
    if game.ruleset == "money":
        return game.start(jacoby=rng.random() < 0.5)
    return game.start()


def played(game: BackgammonGame, rng: random.Random, start: BackgammonState,
           plies: int) -> list[BackgammonState]:  # fmt: skip
    """The states of random play from ``start``: rolls, plays, doubles, takes and drops,
    offers to resign accepted or declined, and in a match the games that follow."""
    state, seen = start, [start]
    for _ in range(plies):
        if state.outcome() is not None:
            following = state.next_game()
            if following is None:
                break
            state = following
        elif state.to_move == CHANCE and rng.random() < 0.9:
            state = state.play(rng.choice(state.chance_outcomes())[0])
        elif (
            state.stakes is not None
            and state.stakes.pending in (0, ROLLING)
            and state.side is not None
            and rng.random() < 0.04
        ):
            state = state.play(f"resign {rng.choice(['single', 'gammon', 'backgammon'])}")
        elif state.to_move == CHANCE:
            state = state.play(rng.choice(state.chance_outcomes())[0])
        else:
            state = state.play(rng.choice(state.legal_moves()))
        seen.append(state)
    return seen


@FAST
@given(st.sampled_from(RULESETS), st.integers(0, 2**32))
def test_every_state_of_random_play_reads_back(ruleset: str, seed: int) -> None:
    game = GAMES[ruleset]
    rng = random.Random(seed)
    for state in played(game, rng, fresh(game, rng), 250):
        reads_back(game, state)


def test_random_play_reaches_every_kind_of_state() -> None:
    """The walk above is not idle: it meets each field of the position string."""
    rng = random.Random(7)
    texts: set[str] = set()
    for ruleset in RULESETS:
        game = GAMES[ruleset]
        for _ in range(12):
            texts |= {s.position() for s in played(game, rng, fresh(game, rng), 400)}
    words = " ".join(texts).split()
    for word in ("-", "rolling", "doubled", "resign", "dropped", "resigned", "jacoby", "match",
                 "crawford"):  # fmt: skip
        assert word in words, word
    assert any("[bar," in t for t in texts) and any("[barx" in t for t in texts)
    assert any(t.startswith("W[] ") or "B[] " in t for t in texts)  # games borne off
    assert any(t.split()[2] in "wb" and t.split()[3] == "-" for t in texts)  # rolls pending


# -- strings built from the grammar ------------------------------------------------------------


def checkers() -> st.SearchStrategy[str]:
    return st.lists(
        st.builds(
            "{}{}".format,
            st.sampled_from(["bar", "BAR", "24", "13", "8", "6", "1", "0", "25", "013", "19"]),
            st.sampled_from(["", "", "x1", "x2", "x5", "x6", "x15", "x16", "x0", "X3"]),
        ),
        max_size=6,
    ).map(",".join)


TAIL_GROUPS = st.sampled_from(
    [
        ["rolling"], ["doubled"], ["resign", "single"], ["resign", "gammon"],
        ["resign", "backgammon"], ["resign", "normal"], ["dropped", "w"], ["dropped", "b"],
        ["resigned", "w", "single"], ["resigned", "b", "backgammon"], ["jacoby"], ["crawford"],
        ["match", "0", "0-0"], ["match", "1", "0-0"], ["match", "3", "2-1"],
        ["match", "5", "4-2"], ["match", "7", "6-6"], ["match", "25", "24-0"],
        ["match", "26", "0-0"], ["match", "00", "0-0"], ["what"], ["resign"], ["dropped"],
        ["match", "7"],
    ]
)  # fmt: skip
CUBES = st.sampled_from(
    ["1", "2w", "2b", "4b", "64w", "32768b", "65536w", "3w", "0", "1w", "2", "01"]
)


@st.composite
def tails(draw: st.DrawFn) -> str:
    """``cube N[w|b]`` and then some of the optional fields, in any order (a few repeated)."""
    groups = draw(st.lists(TAIL_GROUPS, max_size=4))
    return " ".join(["cube", draw(CUBES), *(word for group in groups for word in group)])


@st.composite
def position_strings(draw: st.DrawFn, ruleset: str) -> str:
    """A position string from the grammar's tokens: usually two real boards, sometimes lists
    of any tokens; the side, the dice, and for the rulesets with a cube its fields."""
    if draw(st.integers(0, 3)):
        white, black = draw(boards(cap=5 if ruleset == "seed" else 0))
        if draw(st.integers(0, 5)) == 0:
            white = ""  # a game borne off
    else:
        white, black = draw(checkers()), draw(checkers())
    side = draw(st.sampled_from(["w", "b", "-", "-", "W", "x"]))
    dice = draw(st.sampled_from(["-", "-", "31", "13", "66", "70", "3"]))
    text = f"W[{white}] B[{black}] {side} {dice}"
    if ruleset in ("money", "match") or draw(st.integers(0, 9)) == 0:
        text = f"{text} {draw(tails())}"
    return text


@FAST
@given(st.data())
def test_strings_from_the_grammar_read_back_or_are_refused(data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(RULESETS))
    accepted_reads_back(GAMES[ruleset], data.draw(position_strings(ruleset)))


JUNK = st.sampled_from(["", " ", ",", "x", "bar", "[", "]", "-", "0", "7", "w", "cube", "match",
                        "crawford", "İ", "٣", "\x00", "ﬁ", "K"]) | st.text(max_size=3)  # fmt: skip


@FAST
@given(st.data())
def test_spliced_strings_read_back_or_are_refused(data: st.DataObject) -> None:
    """Valid strings with tokens of the grammar and junk written over parts of them."""
    ruleset = data.draw(st.sampled_from(RULESETS))
    game = GAMES[ruleset]
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    base = rng.choice(played(game, rng, fresh(game, rng), 60)).position()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(base)))
        j = data.draw(st.integers(i, min(len(base), i + 6)))
        base = base[:i] + data.draw(JUNK) + base[j:]
    accepted_reads_back(game, base)


@FAST
@given(st.data())
def test_play_from_random_positions_reads_back(data: st.DataObject) -> None:
    """States reached by play from a random valid position (random boards, and the side, dice
    and stakes of a state of some game), not only from the start."""
    ruleset = data.draw(st.sampled_from(RULESETS))
    game = GAMES[ruleset]
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    white, black = data.draw(boards(cap=5 if ruleset == "seed" else 0))
    donor = rng.choice([s for s in played(game, rng, fresh(game, rng), 60) if s.side is not None])
    fields = donor.position().split("] ", 2)[2]  # the side, the dice and the stakes
    state = accepted_reads_back(game, f"W[{white}] B[{black}] {fields}")
    if state is not None:
        for later in played(game, rng, state, 40):
            reads_back(game, later)
