"""Every Defiance and Domain position the parser accepts, in both rulesets, prints a string that
reads back as the same state ("every stored game loads"): states reached by play (finished games
included), random valid positions and the play from them, and strings built from the grammar's
tokens and junk, which are accepted and read back or refused with ``InvalidPosition`` alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.games.defiance import DefianceGame, DefianceState
from tests.defiance.strategies import position, positions

FAST = settings(max_examples=25, deadline=None)
SIZES = {"10x10": 10, "8x8": 8}


def load(ruleset: str) -> DefianceGame:
    game = ludotheque.load("defiance", ruleset)
    assert isinstance(game, DefianceGame)
    return game


GAMES = {ruleset: load(ruleset) for ruleset in SIZES}


def reads_back(game: DefianceGame, state: DefianceState) -> None:
    text = state.position()
    again = game.parse_position(text)
    assert again == state, f"{text!r} reads back as {again.position()!r}"
    assert again.position() == text


def accepted_reads_back(game: DefianceGame, text: str) -> DefianceState | None:
    """``text`` is refused with ``InvalidPosition`` only, or accepted and reads back."""
    try:
        state = game.parse_position(text)
    except InvalidPosition as refusal:
        assert str(refusal)
        return None
    reads_back(game, state)
    return state


def played(state: DefianceState, rng: random.Random, plies: int) -> list[DefianceState]:
    """The states of random play from ``state`` (whole turns, with or without a Command move)."""
    seen = [state]
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[rng.randrange(len(moves))])
        seen.append(state)
    return seen


@FAST
@given(st.sampled_from(list(SIZES)), st.integers(0, 2**32))
def test_every_state_of_random_play_reads_back(ruleset: str, seed: int) -> None:
    game = GAMES[ruleset]
    for state in played(game.start(), random.Random(seed), 400):
        reads_back(game, state)


def test_random_play_reaches_every_kind_of_state() -> None:
    rng = random.Random(5)
    for ruleset in SIZES:
        game = GAMES[ruleset]
        states = [s for _ in range(10) for s in played(game.start(), rng, 400)]
        assert any(s.position().endswith(" -") for s in states)  # finished games
        assert any(s.position().endswith(" r") for s in states)
        assert any(s.position().endswith(" i") for s in states)
        assert any(s.position() != game.start().position() for s in states)


def test_both_imperial_commands_on_the_8x8_start_point_read_back() -> None:
    game = GAMES["8x8"]
    start = game.start()
    assert "I6.6,I6.6" in start.position()
    reads_back(game, start)
    reads_back(game, start.play("a1>N"))


def test_a_game_won_in_four_sectors_reads_back() -> None:
    # the four cells around P1.1, P6.1, P1.6 and P6.6: a key point in each sector
    blocks = ["a1", "b1", "a2", "b2", "f1", "g1", "f2", "g2", "a6", "b6", "a7", "b7", "f6", "g6",
              "f7", "g7"]  # fmt: skip
    cells = dict.fromkeys(blocks, "RN")
    game = GAMES["10x10"]
    state = game.parse_position(position(cells, side="-"))
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "four-sectors"
    reads_back(game, state)
    with pytest.raises(InvalidPosition, match="over"):
        game.parse_position(position(cells, side="r"))


@FAST
@given(st.data())
def test_play_from_random_positions_reads_back(data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(list(SIZES)))
    game = GAMES[ruleset]
    text = data.draw(positions(n=SIZES[ruleset]))
    state = accepted_reads_back(game, text)
    assert state is not None, text
    for later in played(state, random.Random(data.draw(st.integers(0, 2**32))), 20):
        reads_back(game, later)


ROW_TOKENS = ["RN", "RNE", "ISW", "IE", "rs", "iNw", "R", "I", "X", "1", "2", "3", "4", "5", "8",
              "10", "0", "01", "11", "٣"]  # fmt: skip
POOLS = ["r40,i40", "r39,i40", "r40,i39", "r0,i0", "R40,I40", "i40,r40", "r40", "r40,r40",
         "r41,i40", "r040,i40", "r-1,i40", "r40,i40,"]  # fmt: skip
COMMANDS = ["R2.2", "I7.8", "I8.7", "I6.6", "R0.0", "I10.10", "I8.8", "R11.0", "r2.2", "i6.6",
            "I7.08", "P2.2", "R2", "I"]  # fmt: skip
SIDES = ["r", "i", "-", "R", "I", "x", ""]


@st.composite
def grammar_strings(draw: st.DrawFn, n: int) -> str:
    """Four fields from the grammar's tokens: rows (mostly of the right width), pools,
    Commands and a side."""
    rows = []
    for _ in range(draw(st.sampled_from([n, n, n, n - 1, n + 1]))):
        if draw(st.integers(0, 2)):
            rows.append(str(n))
        else:
            rows.append(
                "".join(draw(st.lists(st.sampled_from(ROW_TOKENS), min_size=1, max_size=9)))
            )
    commands = draw(st.lists(st.sampled_from(COMMANDS), min_size=2, max_size=4))
    return " ".join(
        [
            "/".join(rows),
            draw(st.sampled_from(POOLS)),
            ",".join(commands),
            draw(st.sampled_from(SIDES)),
        ]
    )


@FAST
@given(st.data())
def test_strings_from_the_grammar_read_back_or_are_refused(data: st.DataObject) -> None:
    ruleset = data.draw(st.sampled_from(list(SIZES)))
    accepted_reads_back(GAMES[ruleset], data.draw(grammar_strings(SIZES[ruleset])))


@FAST
@given(st.data())
def test_spliced_strings_read_back_or_are_refused(data: st.DataObject) -> None:
    """Valid strings with tokens of the grammar or junk written over parts of them."""
    ruleset = data.draw(st.sampled_from(list(SIZES)))
    game = GAMES[ruleset]
    text = data.draw(positions(n=SIZES[ruleset]))
    junk = st.sampled_from(ROW_TOKENS + POOLS + COMMANDS + SIDES + ["/", ",", " "])
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 4)))
        text = text[:i] + data.draw(junk | st.text(max_size=2)) + text[j:]
    accepted_reads_back(game, text)
