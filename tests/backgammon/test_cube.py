"""Backgammon for points: the doubling cube, gammons and backgammons, the Jacoby rule, match play
with the Crawford game, resignations, and the position strings and IDs that carry them."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove, InvalidPosition
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import BackgammonGame, BackgammonState
from ludotheque.games.backgammon.cube import CubeAction
from tests.backgammon.gnubg_session import run_gnubg

MONEY = ludotheque.load("backgammon", "money")
MATCH = ludotheque.load("backgammon", "match")
STANDARD = ludotheque.load("backgammon", "standard")
SEED = ludotheque.load("backgammon")
START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5]"


def moves(state: ludotheque.State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def walk(game: ludotheque.Game, start: BackgammonState, rng: random.Random,
         resign: float = 0.02) -> list[BackgammonState]:  # fmt: skip
    """Every state of one random game (random decisions, sometimes an offer to resign)."""
    state = start
    seen = [state]
    while state.outcome() is None:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.play(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        elif rng.random() < resign and state.stakes and state.stakes.pending == 0:
            state = state.play(f"resign {rng.choice(['single', 'gammon', 'backgammon'])}")
        else:
            state = state.play(rng.choice(state.legal_moves()))
        seen.append(state)
    return seen


# -- the cubeless rulesets do not change ----------------------------------------------------------


@pytest.mark.parametrize("game", [SEED, STANDARD])
def test_cubeless_rulesets_have_no_cube(game: BackgammonGame) -> None:
    state = game.start()
    assert state.position() == f"{START} - -"
    assert state.stakes is None and state.cube_value == 1
    state = state.play("w3b1" if game is STANDARD else "w1b3").play("8/5 6/5")
    assert state.to_move == CHANCE and state.position().endswith(" b -")
    for action in ("double", "take", "resign gammon"):
        with pytest.raises(IllegalMove):
            state.play(action)
    with pytest.raises(InvalidPosition):
        game.parse_position(f"{START} w - cube 1")
    with pytest.raises(InvalidPosition):
        game.start(length=5)


def test_the_registry_lists_the_new_rulesets_after_the_old() -> None:
    assert ludotheque.available_games()["backgammon"] == ("seed", "standard", "money", "match")
    assert ludotheque.load("backgammon").ruleset == "seed"


# -- the cube in money play ----------------------------------------------------------------------


def test_money_game_double_take_redouble() -> None:
    state = MONEY.start()
    assert state.position() == f"{START} - - cube 1 jacoby"
    assert state.to_move == CHANCE  # the opening roll: nobody doubles before it
    state = state.play("w3b1")
    assert moves(state)[0] == "24/23 24/21" or "8/5 6/5" in moves(state)
    state = state.play("8/5 6/5")
    # black may double before its roll: a decision, not a chance node
    assert state.to_move == "black" and moves(state) == ["roll", "double"]
    assert state.chance_outcomes() == []
    doubled = state.play("double")
    assert doubled.position().endswith("b - cube 1 doubled jacoby")
    assert doubled.to_move == "white" and moves(doubled) == ["take", "drop"]
    taken = doubled.play("take")
    # white owns the 2-cube; black, having doubled, just rolls
    assert taken.position().endswith("b - cube 2w jacoby")
    assert taken.cube_value == 2 and taken.cube_owner == "white"
    assert taken.to_move == CHANCE and taken.legal_moves() == []
    with pytest.raises(IllegalMove, match="white owns the cube"):
        taken.play("double")
    after = taken.play("21").play("13/11 6/5")
    # white owns the cube: it may redouble
    assert after.to_move == "white" and moves(after) == ["roll", "double"]
    redoubled = after.play("double").play("take")
    assert redoubled.position().endswith("w - cube 4b jacoby")
    # black, now the owner, may redouble on its turn; white may not
    assert redoubled.to_move == CHANCE


def test_a_dropped_double_ends_the_game_for_the_cube_before_it() -> None:
    state = MONEY.parse_position(f"{START} b - cube 2w jacoby")
    assert state.to_move == CHANCE  # white owns the cube
    state = MONEY.parse_position(f"{START} w - cube 2w jacoby").play("double")
    over = state.play("drop")
    assert over.outcome() == ludotheque.Outcome("white", "dropped")
    assert over.points() == 2
    assert over.position() == f"{START} - - cube 2w dropped b jacoby"
    assert over.to_move is None and over.legal_moves() == []
    assert MONEY.parse_position(over.position()) == over
    assert state.play("pass") == over  # 'pass' answers a double too
    with pytest.raises(IllegalMove, match="over"):
        over.play("double")


def test_roll_is_the_no_double_decision() -> None:
    state = MONEY.parse_position(f"{START} w - cube 1 jacoby")
    rolling = state.play("roll")
    assert rolling.position() == f"{START} w - cube 1 rolling jacoby"
    assert rolling.to_move == CHANCE and len(rolling.chance_outcomes()) == 21
    rolled = rolling.play("64")
    assert rolled.position() == f"{START} w 64 cube 1 jacoby"
    with pytest.raises(IllegalMove, match="chooses 'roll' or 'double'"):
        state.play("64")


@pytest.mark.parametrize(
    ("loser", "jacoby", "cube", "points", "reason"),
    [
        ("B[6]", True, "cube 1", 1, "borne-off"),
        ("B[6x15]", True, "cube 1", 1, "gammon"),  # Jacoby: the cube was never turned
        ("B[6x15]", False, "cube 1", 2, "gammon"),
        ("B[6x15]", True, "cube 2b", 4, "gammon"),  # turned: gammons count
        ("B[6x14,19]", False, "cube 1", 3, "backgammon"),  # in white's home board
        ("B[barx1,6x14]", False, "cube 4w", 12, "backgammon"),
        ("B[bar,6x2]", False, "cube 4w", 4, "borne-off"),  # a checker off: single
    ],
)
def test_gammons_backgammons_and_the_jacoby_rule(
    loser: str, jacoby: bool, cube: str, points: int, reason: str
) -> None:
    text = f"W[1] {loser} w 21 {cube}{' jacoby' if jacoby else ''}"
    state = MONEY.parse_position(text).play("1/off")
    assert state.outcome() == ludotheque.Outcome("white", reason)
    assert state.points() == points


# -- match play -----------------------------------------------------------------------------


def test_match_start_and_score() -> None:
    state = MATCH.start()
    assert state.position() == f"{START} - - cube 1 match 7 0-0"
    five = MATCH.start(length=5, score=(3, 1))
    assert five.position() == f"{START} - - cube 1 match 5 3-1"
    for bad in (
        dict(length=0),
        dict(length=26),
        dict(length=5, score=(5, 0)),
        dict(length=5, score=(3, 1), crawford=True),
        dict(length=5, score=(4, 4), crawford=True),
    ):
        with pytest.raises(InvalidPosition):
            MATCH.start(**bad)
    with pytest.raises(InvalidPosition):
        MATCH.start(jacoby=True)


def test_no_double_in_the_crawford_game_and_the_dead_cube() -> None:
    crawford = MATCH.parse_position(f"{START} w - cube 1 match 5 4-2 crawford")
    assert crawford.to_move == CHANCE and not crawford.may_double()
    with pytest.raises(IllegalMove, match="Crawford"):
        crawford.play("double")
    # after the Crawford game the trailer may double, the leader may not (its cube is dead)
    post = MATCH.parse_position(f"{START} b - cube 1 match 5 4-2")
    assert moves(post) == ["roll", "double"]
    leader = MATCH.parse_position(f"{START} w - cube 1 match 5 4-2")
    assert leader.to_move == CHANCE and not leader.may_double()
    # 3-away with a 4-cube owned: a win at 4 takes the match, so no redouble
    dead = MATCH.parse_position(f"{START} w - cube 4w match 7 4-0")
    assert dead.to_move == CHANCE
    live = MATCH.parse_position(f"{START} w - cube 2w match 7 4-0")
    assert moves(live) == ["roll", "double"]
    with pytest.raises(InvalidPosition, match="Crawford"):
        MATCH.parse_position(f"{START} w - cube 2w match 5 4-2 crawford")


def test_the_crawford_game_comes_once_after_a_side_reaches_match_point() -> None:
    # white needs 1 after winning this game: the next game is the Crawford game
    state = MATCH.parse_position("W[1] B[6x3] w 21 cube 1 match 5 3-2").play("1/off")
    assert state.score_after() == (4, 2)
    nxt = state.next_game()
    assert nxt is not None and nxt.position() == f"{START} - - cube 1 match 5 4-2 crawford"
    # black wins the Crawford game: post-Crawford, no Crawford flag again
    crawford_over = MATCH.parse_position("W[6x3] B[1] b 21 cube 1 match 5 4-2 crawford")
    after = crawford_over.play("1/off").next_game()
    assert after is not None and after.position() == f"{START} - - cube 1 match 5 4-3"
    # both at match point: no Crawford game
    both = MATCH.parse_position("W[6x3] B[1] b 21 cube 1 match 5 4-3").play("1/off")
    dmp = both.next_game()
    assert dmp is not None and dmp.position() == f"{START} - - cube 1 match 5 4-4"
    # a gammon at 2 takes the match: no next game
    won = MATCH.parse_position("W[1] B[6x15] w 21 cube 2b match 5 1-2").play("1/off")
    assert won.points() == 4 and won.score_after() == (5, 2) and won.next_game() is None
    # gammons count in a match whatever the cube (no Jacoby)
    single = MATCH.parse_position("W[1] B[6x15] w 21 cube 1 match 9 0-0").play("1/off")
    assert single.points() == 2


def test_money_next_game_keeps_the_rules() -> None:
    over = MONEY.parse_position("W[1] B[6] w 21 cube 2w").play("1/off")
    nxt = over.next_game()
    assert nxt is not None and nxt.position() == f"{START} - - cube 1"
    assert MONEY.start(jacoby=False).position() == f"{START} - - cube 1"


# -- resignations -----------------------------------------------------------------------------


def test_resignation_offers_are_playable_but_not_listed() -> None:
    state = MONEY.parse_position(f"{START} w 31 cube 2b jacoby")
    assert all(not str(m).startswith("resign") for m in state.legal_moves())
    offer = state.play("resign gammon")
    assert offer.position() == f"{START} w 31 cube 2b resign gammon jacoby"
    assert offer.to_move == "black" and moves(offer) == ["accept", "decline"]
    with pytest.raises(IllegalMove, match="chooses 'accept' or 'decline'"):
        offer.play("8/5 6/5")
    assert offer.play("decline") == state  # the game goes on where it was
    accepted = offer.play("accept")
    assert accepted.outcome() == ludotheque.Outcome("black", "resignation")
    assert accepted.points() == 4  # a gammon at 2, the cube turned
    assert accepted.position() == f"{START} - - cube 2b resigned w gammon jacoby"
    assert MONEY.parse_position(accepted.position()) == accepted
    # before the roll too, at a cube decision or when the side just rolls (the other side
    # owns the cube): declined, the turn goes on; not to answer a double, nor the other's turn
    decision = MONEY.parse_position(f"{START} w - cube 1")
    assert decision.play("resign backgammon").play("accept").points() == 3
    owned = MONEY.parse_position(f"{START} w - cube 2b")
    assert owned.to_move == CHANCE
    offered = owned.play("resign single")
    assert offered.position() == f"{START} w - cube 2b resign single"
    assert offered.to_move == "black" and offered.play("decline") == owned
    assert MONEY.parse_position(offered.position()) == offered
    with pytest.raises(IllegalMove, match="offers to resign"):
        decision.play("double").play("resign single")
    with pytest.raises(IllegalMove, match="offers to resign"):
        MONEY.start().play("resign single")
    with pytest.raises(IllegalMove, match="nobody"):
        decision.play("accept")


def test_a_record_resignation_counts_what_the_side_can_still_lose() -> None:
    state = MONEY.parse_position("W[6x2] B[24,6x14] w 31 cube 2w")
    assert state.resignation_value("black") == 3  # a checker in white's home board
    assert state.points_if_resigned("black") == 6
    assert state.points_if_resigned("white") == 2  # white has borne off: a single game
    gammon = MONEY.parse_position("W[6x2] B[13,6x14] w 31 cube 2w")
    assert gammon.resignation_value("black") == 2
    jacoby = MONEY.parse_position("W[6x2] B[24,6x14] w 31 cube 1 jacoby")
    assert jacoby.points_if_resigned("black") == 1


# -- position strings and IDs ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"{START} w - cube 3",  # not a power of two
        f"{START} w - cube 2",  # turned, nobody owns it
        f"{START} w - cube 1w",  # owned at 1
        f"{START} w - cube 65536w",
        f"{START} w 31 cube 1 rolling",  # rolling comes before the roll
        f"{START} w - cube 2b doubled",  # black owns it: white cannot double
        f"{START} w - cube 1 doubled rolling",
        f"{START} w - cube 1 resign triple",
        f"{START} w - cube 1 doubled resign single",
        f"{START} w - cube 1 dropped",
        f"{START} w - cube 1 dropped b",  # a finished game has '-' for side and dice
        f"{START} - - cube 2w",  # before the opening roll
        f"{START} w - cube 1 match 7 0-0",  # a match in the money ruleset
        f"{START} w - cube 1 crawford",
        f"{START} w -",  # the cube is required
        f"{START} w - cube 1 jacoby jacoby",
        f"{START} w - cube 1 what",
    ],
)
def test_bad_money_positions_are_refused(text: str) -> None:
    with pytest.raises(InvalidPosition):
        MONEY.parse_position(text)


@pytest.mark.parametrize(
    "text",
    [
        f"{START} w - cube 1 jacoby match 7 0-0",
        f"{START} w - cube 1",  # no match
        f"{START} w - cube 1 match 7 7-0",
        f"{START} w - cube 1 match 26 0-0",
        f"{START} w - cube 1 match 7 x-0",
        f"{START} w - cube 1 match 7",
        f"{START} w - cube 1 match 5 4-4 crawford",
    ],
)
def test_bad_match_positions_are_refused(text: str) -> None:
    with pytest.raises(InvalidPosition):
        MATCH.parse_position(text)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["money", "match"]))
def test_every_state_of_a_game_reads_back(seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    game = ludotheque.load("backgammon", ruleset)
    start = game.start()
    if ruleset == "match":
        length = rng.randint(1, 11)
        start = game.start(length=length, score=(rng.randrange(length), rng.randrange(length)))
    for state in walk(game, start, rng):
        assert game.parse_position(state.position()) == state
        if state.side is not None and state.stakes.pending in (0, 2):  # type: ignore[union-attr]
            assert game.parse_position(state.xgid()) == state
            assert game.parse_position(state.gnubg_id()) == state
        if state.stakes.ended:  # type: ignore[union-attr]
            assert game.parse_position(state.gnubg_id()) == state


def test_xgid_carries_cube_and_score() -> None:
    state = MATCH.parse_position(f"{START} b - cube 2b doubled match 7 3-4")
    assert state.xgid() == "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:3:4:0:7:10"
    assert MATCH.parse_position(state.xgid()) == state
    money = MONEY.parse_position(f"{START} w 31 cube 4b jacoby")
    assert money.xgid() == "XGID=-b----E-C---eE---c-e----B-:2:-1:1:31:0:0:1:0:10"
    with pytest.raises(InvalidPosition, match="match"):
        MONEY.parse_position(state.xgid())
    with pytest.raises(InvalidPosition, match="money"):
        MATCH.parse_position(money.xgid())
    # the cubeless rulesets ignore the cube fields, as before
    assert STANDARD.parse_position(state.xgid()).position() == f"{START} b -"


def _mirror(text: str) -> str:
    """A position string with the colours exchanged (GNU Backgammon reads an XGID's bottom
    player as its player 1, where we read white)."""
    import re

    w, b, rest = re.fullmatch(r"W\[(.*?)\] B\[(.*?)\] (.*)", text).groups()  # type: ignore[union-attr]
    swap = {"w": "b", "b": "w"}
    words = rest.split()
    out = []
    for i, word in enumerate(words):
        if word in swap and (i == 0 or words[i - 1] in ("dropped", "resigned")):
            out.append(swap[word])
        elif re.fullmatch(r"\d+[wb]", word):
            out.append(word[:-1] + swap[word[-1]])
        elif re.fullmatch(r"\d+-\d+", word):
            a, c = word.split("-")
            out.append(f"{c}-{a}")
        else:
            out.append(word)
    return f"W[{b}] B[{w}] {' '.join(out)}"


def test_gnubg_reads_our_xgids_with_cube_and_score() -> None:
    """GNU Backgammon (the reference module) turns our XGIDs into its own IDs, which we read
    back as the same position (colours exchanged: its player 1 is XG's bottom player)."""
    rng = random.Random(11)
    cases: list[tuple[BackgammonGame, BackgammonState]] = []
    for game, start in (
        (MONEY, MONEY.start()),
        (MATCH, MATCH.start(length=7, score=(2, 5))),
        (MATCH, MATCH.start(length=5, score=(4, 1), crawford=True)),
    ):
        for state in walk(game, start, rng, resign=0)[1:80:3]:
            if state.side is not None and not state.stakes.pending:  # type: ignore[union-attr]
                cases.append((game, state))  # (its IDs cannot hold a pending double)
    ids = run_gnubg(
        """
        result = []
        for xgid in data:
            gnubg.setgnubgid(xgid)
            result.append(gnubg.gnubgid())
        """,
        [state.xgid() for _, state in cases],
    )
    assert len(ids) == len(cases) > 20
    for (game, state), theirs in zip(cases, ids, strict=True):
        assert game.parse_position(theirs).position() == _mirror(state.position())


def test_cube_actions_have_canonical_notation() -> None:
    state = MONEY.parse_position(f"{START} w - cube 1")
    for text, canonical in (("double", "double"), ("ROLL", "roll"), ("no double", "roll")):
        move = state.parse_move(text)
        assert isinstance(move, CubeAction) and str(move) == canonical
    doubled = state.play("double")
    assert str(doubled.parse_move("pass")) == "drop"
    assert str(doubled.parse_move("Take")) == "take"
    with pytest.raises(IllegalMove, match="take"):
        doubled.parse_move("13/7")
    rolled = MONEY.parse_position(f"{START} w 31 cube 1")
    assert str(rolled.parse_move("resign 2")) == "resign gammon"
    assert str(rolled.parse_move("8/5 6/5")) == "8/5 6/5"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "cube",
                "1",
                "2w",
                "4b",
                "3",
                "rolling",
                "doubled",
                "resign",
                "single",
                "gammon",
                "dropped",
                "resigned",
                "w",
                "b",
                "jacoby",
                "match",
                "7",
                "2-3",
                "0-0",
                "crawford",
                "x",
                "٣",
                "99999999",
            ]
        ),
        max_size=8,
    ),
    st.sampled_from(["money", "match"]),
    st.sampled_from(["w -", "b 31", "- -"]),
)
def test_any_tail_reads_or_is_refused_cleanly(words: list[str], ruleset: str, turn: str) -> None:
    game = ludotheque.load("backgammon", ruleset)
    text = f"{START} {turn} {' '.join(words)}"
    try:
        state = game.parse_position(text)
    except InvalidPosition:
        return
    assert game.parse_position(state.position()) == state


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20), st.integers(0, 10**6))
def test_any_move_text_plays_or_is_refused_cleanly(text: str, seed: int) -> None:
    rng = random.Random(seed)
    states = walk(MONEY, MONEY.start(), rng)
    state = states[rng.randrange(len(states))]
    for candidate in (text, "resign " + text, "double " + text):
        with contextlib.suppress(IllegalMove):
            state.play(candidate)
