"""Hypothesis properties of the backgammon engine and a differential test of both rulesets
against a second, deliberately simple generator (tests/backgammon/reference.py)."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import CHANCE
from tests.backgammon import reference
from tests.backgammon.strategies import positions

SEED = ludotheque.load("backgammon")
STANDARD = ludotheque.load("backgammon", "standard")
# No health check is suppressed: none fires (checked over many seeds). With deadline=None,
# too_slow allows 30 s of data generation, and the strategies neither filter nor overrun.
SLOW = settings(max_examples=150, deadline=None)


def boards_of(state: ludotheque.State) -> str:
    return state.position().rsplit(" ", 2)[0]


@SLOW
@given(positions(cap=5))
def test_seed_matches_the_simple_generator(text: str) -> None:
    state = SEED.parse_position(text)
    assert {boards_of(state.play(m)) for m in state.legal_moves()} == reference.legal_results(
        text, 5
    )


@SLOW
@given(positions(cap=5, home_only=True))
def test_seed_bear_off_matches_the_simple_generator(text: str) -> None:
    state = SEED.parse_position(text)
    assert {boards_of(state.play(m)) for m in state.legal_moves()} == reference.legal_results(
        text, 5
    )


@SLOW
@given(positions(cap=0))
def test_standard_matches_the_simple_generator(text: str) -> None:
    state = STANDARD.parse_position(text)
    assert {boards_of(state.play(m)) for m in state.legal_moves()} == reference.legal_results(
        text, 0
    )


@SLOW
@given(positions(cap=5))
def test_fifteen_checkers_a_side_always(text: str) -> None:
    state = SEED.parse_position(text)
    for m in state.legal_moves():
        after = state.play(m)
        for side in ("white", "black"):
            assert sum(after.board(side)) == 15
        assert after.board(state.side or "white")[0] >= state.board(state.side or "white")[0]


@SLOW
@given(positions(cap=5))
def test_play_never_mutates(text: str) -> None:
    state = SEED.parse_position(text)
    before = state.position()
    for m in state.legal_moves():
        state.play(m)
    assert state.position() == before
    assert state == SEED.parse_position(text)


@SLOW
@given(positions(cap=5))
def test_round_trips(text: str) -> None:
    state = SEED.parse_position(text)
    assert SEED.parse_position(state.position()) == state
    assert hash(SEED.parse_position(state.position())) == hash(state)
    assert pickle.loads(pickle.dumps(state)) == state
    standard = STANDARD.parse_position(text)
    assert STANDARD.from_xgid(standard.xgid()) == standard
    assert STANDARD.from_gnubg_id(standard.gnubg_id()) == standard
    for m in state.legal_moves():
        assert state.parse_move(str(m)) == m


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_fifteen_and_end(seed: int) -> None:
    import random

    rng = random.Random(seed)
    for game in (SEED, STANDARD):
        state: ludotheque.State = game.start()
        for _ in range(3000):
            if state.outcome() is not None:
                break
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            else:
                moves = state.legal_moves()
                state = state.play(moves[rng.randrange(len(moves))])
            assert sum(state.board("white")) == sum(state.board("black")) == 15  # type: ignore[attr-defined]
        assert state.outcome() is not None
