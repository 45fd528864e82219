"""Every General position the parser accepts prints a string that reads back as the same state
("every stored game loads"): states reached by play (the flight unused, used, and used with a
capture; games won by either side), random valid positions, and strings built from the
grammar's tokens and junk, which are accepted and read back or refused with ``InvalidPosition``
alone."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque import InvalidPosition
from ludotheque.games.general import GeneralGame, GeneralState
from ludotheque.games.general.board import GATES, INDEX, NAMES, NEIGHBOURS
from tests.general.conftest import START
from tests.general.strategies import positions

FAST = settings(max_examples=60, deadline=None)
GAME = GeneralGame()


def reads_back(state: GeneralState) -> None:
    text = state.position()
    again = GAME.parse_position(text)
    assert again == state, f"{text!r} reads back as {again.position()!r}"
    assert again.position() == text


def accepted_reads_back(text: str) -> GeneralState | None:
    """``text`` is refused with ``InvalidPosition`` only, or accepted and reads back."""
    try:
        state = GAME.parse_position(text)
    except InvalidPosition as refusal:
        assert str(refusal)
        return None
    reads_back(state)
    return state


def closing(state: GeneralState) -> set[int]:
    """The points next to the general and the gates: where the rebels hem him in."""
    return set(NEIGHBOURS[INDEX[state.general]]) | set(GATES)


def played(state: GeneralState, rng: random.Random, plies: int) -> list[GeneralState]:
    """The states of random play from ``state`` (the general flies when he can, half the
    time, and captures when he can as often as the game's greed says; the rebels close in on
    him the more often the less greedy he is: games with the flight used and games won by
    either side come often)."""
    seen = [state]
    greed = rng.choice([0.0, 0.3, 0.9])  # how often he captures when he can, this game
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        flights = [m for m in moves if m.landing >= 0]
        captures = [m for m in moves if m.captured]
        near = [m for m in moves if state.side == "rebels" and m.dst in closing(state)]
        if flights and rng.random() < 0.5:
            moves = flights
        elif captures and rng.random() < greed:
            moves = captures
        elif near and rng.random() < 1 - greed:
            moves = near
        state = state.play(rng.choice(moves))
        seen.append(state)
    return seen


@FAST
@given(st.integers(0, 2**32))
def test_every_state_of_random_play_reads_back(seed: int) -> None:
    rng = random.Random(seed)
    for state in played(GAME.start(), rng, 300):
        reads_back(state)


def test_random_play_reaches_every_kind_of_state() -> None:
    rng = random.Random(3)
    states = [s for _ in range(40) for s in played(GAME.start(), rng, 300)]
    assert {s.flight_available for s in states} == {True, False}
    assert {s.side for s in states} == {"rebels", "general"}
    assert any(s.general.startswith("s") for s in states)  # in the sanctuary
    reasons = {o.reason for s in states if (o := s.outcome()) is not None}
    assert {"twelve-captured", "immobilised", "shut-in"} <= reasons


@FAST
@given(positions(), st.integers(0, 2**32))
def test_play_from_random_positions_reads_back(text: str, seed: int) -> None:
    state = accepted_reads_back(text)
    assert state is not None, text
    for later in played(state, random.Random(seed), 30):
        reads_back(later)


TOKENS = [*NAMES, "S4", "C3", "f1", "a0", "a6", "s5", "s", "", ",", "r", "g", "R", "G", "x",
          "0", "1", "2", "01", "-", " ", "\t", "İ", "ı", "K", "٣", "\x00"]  # fmt: skip


@st.composite
def grammar_strings(draw: st.DrawFn) -> str:
    """Four fields from the grammar's tokens: a point, a list of points (sometimes with junk),
    a side and a flight, now and then with a field missing or one too many."""
    general = draw(st.sampled_from(TOKENS))
    rebels = ",".join(draw(st.lists(st.sampled_from(TOKENS), max_size=18)))
    fields = [general, rebels, draw(st.sampled_from(TOKENS)), draw(st.sampled_from(TOKENS))]
    if draw(st.integers(0, 9)) == 0:
        del fields[draw(st.integers(0, 3))]
    if draw(st.integers(0, 9)) == 0:
        fields.append(draw(st.sampled_from(TOKENS)))
    return draw(st.sampled_from([" ", "  ", "\t"])).join(fields)


@FAST
@given(grammar_strings())
def test_strings_from_the_grammar_read_back_or_are_refused(text: str) -> None:
    accepted_reads_back(text)


@FAST
@given(st.data())
def test_spliced_strings_read_back_or_are_refused(data: st.DataObject) -> None:
    """Valid strings with tokens of the grammar or junk written over parts of them."""
    text = data.draw(st.sampled_from([START, data.draw(positions())]))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 3)))
        text = text[:i] + data.draw(st.sampled_from(TOKENS) | st.text(max_size=2)) + text[j:]
    accepted_reads_back(text)
