"""Hypothesis properties of the General's engine, and a differential test against a second,
deliberately simple generator (tests/general/reference.py)."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.games.general import GeneralState
from tests.general import reference
from tests.general.strategies import playout_choices, positions

GAME = ludotheque.load("general")


@given(positions())
def test_position_round_trip(text: str) -> None:
    s = GAME.parse_position(text)
    assert GAME.parse_position(s.position()) == s
    assert GAME.parse_position(s.position()).position() == s.position()
    assert hash(GAME.parse_position(text.upper())) == hash(s)


@given(positions())
def test_same_moves_as_the_reference_generator(text: str) -> None:
    s = GAME.parse_position(text)
    ref = reference.parse(text)
    expected = reference.moves(ref)
    assert {str(m) for m in s.legal_moves()} == set(expected)
    for m in s.legal_moves():
        assert s.play(m).position() == reference.fmt(expected[str(m)])
    w = reference.winner(ref)
    assert (s.outcome() is None) == (w is None)
    if w is not None:
        outcome = s.outcome()
        assert outcome is not None and outcome.winner == w


@given(positions())
def test_notation_round_trip(text: str) -> None:
    s = GAME.parse_position(text)
    for m in s.legal_moves():
        assert s.parse_move(str(m)) == m
        assert str(s.parse_move(f"  {str(m).upper()} ")) == str(m)


@given(positions())
def test_play_never_mutates(text: str) -> None:
    s = GAME.parse_position(text)
    before = s.position()
    copy = GAME.parse_position(text)
    for m in s.legal_moves():
        s.play(m)
        assert s.position() == before
        assert s == copy


@given(positions())
def test_piece_counts_change_only_by_captures_of_two(text: str) -> None:
    s = GAME.parse_position(text)
    for m in s.legal_moves():
        after = s.play(m)
        assert isinstance(after, GeneralState)
        if m.captured:
            assert after.rebel_count == s.rebel_count - 2
            assert s.to_move == "general"
        else:
            assert after.rebel_count == s.rebel_count
        assert set(after.rebels) - set(s.rebels) <= {str(m).split("-")[1][:2]}


@given(playout_choices())
def test_random_games_keep_invariants(choices: list[int]) -> None:
    s = GAME.start()
    for c in choices:
        moves = s.legal_moves()
        if not moves:
            assert s.outcome() is not None
            break
        s2 = s.play(moves[c % len(moves)])
        assert 4 <= s2.rebel_count <= 16
        assert s2.rebel_count % 2 == 0
        assert GAME.parse_position(s2.position()) == s2
        s = s2


@given(positions(general_in=["b5", "c5", "d5", "s1", "s2", "s3", "s4"]))
def test_fact_never_immobilised_on_a_gate_or_in_the_sanctuary(text: str) -> None:
    s = GAME.parse_position(text.rsplit(" ", 2)[0] + " g " + text.rsplit(" ", 1)[1])
    outcome = s.outcome()
    assert outcome is None or outcome.reason != "immobilised"
    if outcome is None:
        assert s.legal_moves()


@given(positions())
def test_rebels_always_have_a_move(text: str) -> None:
    # the contract's "no-move" ending cannot happen on this board
    s = GAME.parse_position(text.rsplit(" ", 2)[0] + " r " + text.rsplit(" ", 1)[1])
    outcome = s.outcome()
    assert outcome is None or outcome.reason != "no-move"


@given(positions())
def test_equality_and_hash(text: str) -> None:
    a = GAME.parse_position(text)
    b = GAME.parse_position(text)
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a


def test_states_are_immutable() -> None:
    s = GAME.start()
    for name in ("_general", "_rebels", "general", "foo"):
        try:
            setattr(s, name, 1)
        except AttributeError:
            continue
        raise AssertionError(f"could set {name}")


@settings(max_examples=30)
@given(st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=60))
def test_played_states_equal_parsed_ones(choices: list[int]) -> None:
    s = GAME.start()
    for c in choices:
        moves = s.legal_moves()
        if not moves:
            break
        s = s.play(moves[c % len(moves)])
        assert GAME.parse_position(s.position()) == s
