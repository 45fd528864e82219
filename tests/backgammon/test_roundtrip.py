"""Every backgammon state the parser accepts prints a position string that reads back as the same
state, in all four rulesets ("every stored game loads": the server stores ``position()`` and
parses it later); and its full GNU Backgammon ID (``gnubg_id()``) reads back as the same state
too, dice and side on roll included.

First the holes that fuzzing found, one regression test each; then hypothesis properties over
states reached by random play (cube decisions, resignations, drops, Crawford games, finished
games, matches going on game after game) and over strings built from the grammar's tokens; last,
our full IDs against the ones GNU Backgammon prints for the same positions.
"""

from __future__ import annotations

import base64
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import BackgammonGame, BackgammonState
from ludotheque.games.backgammon.cube import ROLLING
from tests.backgammon.gnubg_session import run_gnubg
from tests.backgammon.strategies import boards
from tests.backgammon.test_cube import _mirror


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
    """The position string and the full GNU Backgammon ID of ``state`` read back as ``state``."""
    text = state.position()
    again = game.parse_position(text)
    assert again == state, f"{text!r} reads back as {again.position()!r}"
    assert again.position() == text
    full_id = state.gnubg_id()
    assert full_id == f"{state.gnubg_position_id()}:{state.gnubg_match_id()}"
    from_id = game.parse_position(full_id)
    stakes = state.stakes
    if stakes is not None and stakes.pending == ROLLING:
        # GNU Backgammon has no moment between "roll" and the roll: the decision before it
        assert from_id == game.parse_position(text.replace(" rolling", ""))
    else:
        assert from_id == state, f"{text!r}: {full_id} reads back as {from_id.position()!r}"


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


# -- GNU Backgammon IDs -------------------------------------------------------------------------


MATCH_ID_BITS = st.lists(st.sampled_from([*range(25), 36, 37, 51, 52, 66, 67, 71]), max_size=3)


@FAST
@given(st.sampled_from(RULESETS), st.integers(0, 2**32), MATCH_ID_BITS)
def test_any_match_id_reads_back_or_is_refused(ruleset: str, seed: int, bits: list[int]) -> None:
    """A real ID with bits of its Match ID flipped: refused with ``InvalidPosition``, or a state
    whose position string and full ID read back."""
    game = GAMES[ruleset]
    rng = random.Random(seed)
    state = rng.choice(played(game, rng, fresh(game, rng), 80))
    raw = int.from_bytes(base64.b64decode(state.gnubg_match_id()), "little")
    for bit in bits:
        raw ^= 1 << bit
    text = f"{state.gnubg_position_id()}:{base64.b64encode(raw.to_bytes(9, 'little')).decode()}"
    accepted_reads_back(game, text)


def test_gnubg_id_is_the_full_id() -> None:
    state = GAMES["standard"].start().play("w3b1")
    assert state.gnubg_id() == "4HPwATDgc/ABMA:MIEFAAAAAAAE"
    assert state.gnubg_position_id() == "4HPwATDgc/ABMA"
    assert state.gnubg_match_id() == "MIEFAAAAAAAE"
    assert GAMES["standard"].parse_position(state.gnubg_id()) == state
    black = GAMES["standard"].parse_position(f"{START} b 52")
    assert GAMES["standard"].parse_position(black.gnubg_id()) == black  # side and dice kept
    assert GAMES["standard"].parse_position(black.gnubg_position_id()).side == "white"


def test_a_dropped_double_keeps_gnu_backgammons_players() -> None:
    """GNU Backgammon's ID of a dropped double has the doubler on roll and the side that
    dropped on turn; an older ID with the doubler answering itself is refused."""
    dropped = MATCH.parse_position(f"{START} b - cube 2b match 7 3-4").play("double").play("drop")
    assert dropped.stakes is not None and dropped.stakes.loser == 0
    raw = int.from_bytes(base64.b64decode(dropped.gnubg_match_id()), "little")
    assert (raw >> 6) & 1 == 1 and (raw >> 11) & 1 == 0  # black doubled, white dropped
    assert (raw >> 8) & 7 == 4  # GNU Backgammon's "game dropped"
    raw ^= 1 << 11
    forged = f"{dropped.gnubg_position_id()}:{base64.b64encode(raw.to_bytes(9, 'little')).decode()}"
    with pytest.raises(InvalidPosition, match="answered by the side not on roll"):
        MATCH.parse_position(forged)


SAME, READ = "same", "read"
BEAR_IN = "W[bar,20,13x4,8x3,6x4,5x2] B[24x2,13x5,8x2,6x4,4,3]"
GNU_CASES = [
    # (ruleset, position, actions played from it in our notation, and in GNU Backgammon's,
    #  SAME: our full ID is the one it prints; READ: the one it prints reads as our state)
    ("standard", f"{START} w 31", [], [], SAME),
    ("standard", f"{BEAR_IN} b 52", [], [], SAME),
    ("standard", "W[6x2,1] B[barx2,22,18,5x3] b -", [], [], SAME),
    ("money", f"{START} b 52 cube 1 jacoby", [], [], SAME),
    ("money", f"{START} b 52 cube 1", [], [], SAME),
    ("money", f"{BEAR_IN} w - cube 4b", [], [], SAME),
    ("money", f"{START} b 52 cube 1 jacoby", ["resign gammon"], ["resign gammon"], SAME),
    ("money", f"{START} b 52 cube 1 jacoby", ["resign gammon", "decline"],
     ["resign gammon", "reject"], SAME),
    ("money", f"{START} b - cube 2b jacoby", ["double", "drop"], ["double", "drop"], SAME),
    ("money", f"{BEAR_IN} w - cube 1", ["double", "drop"], ["double", "drop"], SAME),
    # GNU keeps the resigner's dice in the ID of a finished game; we keep no dice then
    ("money", f"{BEAR_IN} w 52 cube 1", ["resign gammon", "accept"], ["resign gammon", "accept"],
     READ),
    ("match", f"{START} b - cube 2w match 7 3-4", [], [], SAME),
    ("match", f"{START} b - cube 2b match 7 3-4", ["double"], ["double"], SAME),
    ("match", f"{START} b - cube 2b match 7 3-4", ["double", "take"], ["double", "take"], SAME),
    ("match", f"{START} w 52 cube 1 match 5 4-2 crawford", [], [], SAME),
    ("match", f"{BEAR_IN} b 41 cube 2w match 9 1-2", ["resign single"], ["resign single"], SAME),
    ("match", "W[6x2,1] B[barx2,22,18,5x3] w - cube 1 match 5 4-2", [], [], SAME),
]  # fmt: skip


def test_our_full_ids_are_the_ones_gnu_backgammon_prints() -> None:
    """GNU Backgammon (the reference module) is given each position (as the XGID of the
    position with the colours exchanged: it reads XG's bottom player as its player 1), plays
    the same decisions, and prints its ID: ours is the same, character for character."""
    states: list[tuple[BackgammonGame, BackgammonState]] = []
    requests: list[tuple[str, list[str]]] = []
    for ruleset, text, actions, theirs, _ in GNU_CASES:
        game = GAMES[ruleset]
        state = game.parse_position(text)
        requests.append((game.parse_position(_mirror(text)).xgid(), theirs))
        for action in actions:
            state = state.play(action)
        states.append((game, state))
        reads_back(game, state)
    printed = run_gnubg(
        """
        gnubg.command("set automatic game off")
        gnubg.command("set automatic roll off")
        result = []
        for xgid, commands in data:
            gnubg.setgnubgid(xgid)
            for command in commands:
                gnubg.command(command)
            result.append(gnubg.gnubgid())
        """,
        requests,
    )
    for (game, state), gnu, case in zip(states, printed, GNU_CASES, strict=True):
        if case[-1] == SAME:
            assert state.gnubg_id() == gnu, case
        assert game.parse_position(gnu) == state, case
