"""Hypothesis properties of Defiance and Domain, and a differential test against a second,
deliberately simple implementation (tests/defiance/reference.py)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.games.defiance import DefianceState
from tests.defiance import reference
from tests.defiance.strategies import positions

GAMES = {10: ludotheque.load("defiance"), 8: ludotheque.load("defiance", "8x8")}
# No health check is suppressed: none fires (checked over many seeds). With deadline=None,
# too_slow allows 30 s of data generation, and the strategies neither filter nor overrun.
SETTINGS = settings(max_examples=40, deadline=None)
SIZES = st.sampled_from([10, 8])


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, str]:
    n = draw(SIZES)
    return n, draw(positions(n=n))


def parse(n: int, text: str) -> DefianceState:
    s = GAMES[n].parse_position(text)
    assert isinstance(s, DefianceState)
    return s


@SETTINGS
@given(boards(), st.randoms(use_true_random=False))
def test_same_turns_as_the_reference(board: tuple[int, str], rnd: random.Random) -> None:
    n, text = board
    s = parse(n, text)
    if s.outcome() is not None:
        return
    actions = {str(t).split(";")[0] for t in s.legal_moves()}
    assert actions == reference.action_names(text, n)
    sample = rnd.sample(sorted(actions), min(12, len(actions)))
    mine = {str(t): s.play(t).position() for t in s.legal_moves() if str(t).split(";")[0] in sample}
    assert mine == reference.turns(text, n, actions=sample)


@SETTINGS
@given(boards(), st.randoms(use_true_random=False))
def test_counters_on_board_plus_pool_is_forty(board: tuple[int, str], rnd: random.Random) -> None:
    n, text = board
    s = parse(n, text)
    moves = s.legal_moves()
    for turn in rnd.sample(moves, min(30, len(moves))):
        after = (
            parse(n, s.play(turn).position()) if s.play(turn).outcome() is None else s.play(turn)
        )
        counters = after.counters()
        for side in ("rebels", "imperium"):
            on_board = sum(1 for who, _ in counters.values() if who == side)
            assert on_board + after.pools[side] == 40


@SETTINGS
@given(boards(), st.randoms(use_true_random=False))
def test_no_turn_removes_the_movers_own_counters(
    board: tuple[int, str], rnd: random.Random
) -> None:
    n, text = board
    s = parse(n, text)
    if s.outcome() is not None:
        return
    mover = s.to_move
    mine = {c for c, (who, _) in s.counters().items() if who == mover}
    moves = s.legal_moves()
    for turn in rnd.sample(moves, min(40, len(moves))):
        after = {c for c, (who, _) in s.play(turn).counters().items() if who == mover}
        assert mine <= after


@SETTINGS
@given(boards(), st.randoms(use_true_random=False))
def test_play_never_mutates_and_round_trips(board: tuple[int, str], rnd: random.Random) -> None:
    n, text = board
    s = parse(n, text)
    before = s.position()
    assert parse(n, before) == s and hash(parse(n, before)) == hash(s)
    assert pickle.loads(pickle.dumps(s)) == s
    moves = s.legal_moves()
    for turn in rnd.sample(moves, min(20, len(moves))):
        after = s.play(turn)
        assert s.position() == before
        assert s.parse_move(str(turn)) == turn
        if after.outcome() is None:
            assert parse(n, after.position()) == after


@SETTINGS
@given(boards())
def test_counting_matches_listing(board: tuple[int, str]) -> None:
    n, text = board
    s = parse(n, text)
    assert s.count_legal_moves() == len(s.legal_moves())
    views = [s.after_action(a) for a in s.legal_actions()] if s.outcome() is None else []
    assert sum(1 + len(v.command_moves) for v in views) == len(s.legal_moves())


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), SIZES)
def test_random_games_stay_valid(seed: int, n: int) -> None:
    rng = random.Random(seed)
    s: ludotheque.State = GAMES[n].start()
    for _ in range(30):
        if s.outcome() is not None:
            break
        moves = s.legal_moves()
        s = s.play(moves[rng.randrange(len(moves))])
        assert GAMES[n].parse_position(s.position()) == s
