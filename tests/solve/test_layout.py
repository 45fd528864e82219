"""The index of the tables: colex ranks of rebel sets, general's slots, sub-layer sizes."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.solve.layout import (
    LAYERS,
    START,
    Position,
    from_state,
    general_at,
    general_slot,
    index,
    is_valid,
    position_at,
    rank,
    sublayer_size,
    to_state,
    unrank,
)

SQUARE = list(range(25))


@st.composite
def rebel_sets(draw: st.DrawFn) -> int:
    k = draw(st.sampled_from(LAYERS))
    points = draw(st.permutations(SQUARE))[:k]
    return sum(1 << p for p in points)


@settings(deadline=None)  # the first example builds the rank tables
@given(rebel_sets())
def test_rank_and_unrank_are_inverse(rebels: int) -> None:
    k = rebels.bit_count()
    r = rank(rebels)
    assert 0 <= r < math.comb(25, k)
    assert unrank(r, k) == rebels


def test_ranks_follow_the_numeric_order_of_the_sets() -> None:
    sets = sorted(m for m in range(1 << 10) if m.bit_count() == 4)
    assert [rank(m) for m in sets] == list(range(len(sets)))


@settings(deadline=None)
@given(rebel_sets(), st.data())
def test_index_and_position_are_inverse(rebels: int, data: st.DataObject) -> None:
    free = [p for p in range(29) if not (rebels >> p) & 1]
    general = data.draw(st.sampled_from(free))
    flight = 0 if general == 28 else data.draw(st.sampled_from((0, 1)))
    position = Position(general, rebels, data.draw(st.sampled_from((0, 1))), flight)
    assert is_valid(position)
    assert general_at(general_slot(general, rebels), rebels) == general
    i = index(position)
    assert 0 <= i < sublayer_size(position.layer)
    assert position_at(position.layer, flight, i) == position
    assert from_state(to_state(position)) == position


def test_layer_sizes_are_the_issues_counts() -> None:
    # general's point, rebels' points, side to move and flight: 106, 267, 354, 248, 91 and 16
    # million positions for 16 … 6 rebels (with the unused slot: general on s4, flight unused)
    millions = [round(2 * sublayer_size(k) / 1e6) for k in (16, 14, 12, 10, 8, 6)]
    assert millions == [106, 267, 354, 248, 91, 16]


def test_the_start() -> None:
    state = ludotheque.load("general").start()
    assert from_state(state) == START
    assert to_state(START) == state
