"""Hypothesis strategies for General positions and games."""

from __future__ import annotations

from hypothesis import strategies as st

from ludotheque.games.general.board import NAMES, SANCTUARY_NAMES

SQUARE = [n for n in NAMES if n not in SANCTUARY_NAMES]


@st.composite
def positions(draw: st.DrawFn, general_in: list[str] | None = None) -> str:
    """A valid position string (rebels even, 4..16, never in the sanctuary)."""
    general = draw(st.sampled_from(general_in or list(NAMES)))
    free = [p for p in SQUARE if p != general]
    count = draw(st.sampled_from([4, 6, 8, 10, 12, 14, 16]))
    rebels = draw(st.permutations(free))[:count]
    side = draw(st.sampled_from("rg"))
    flight = draw(st.booleans()) if general != "s4" else False
    return f"{general} {','.join(rebels)} {side} {int(flight)}"


def playout_choices() -> st.SearchStrategy[list[int]]:
    """Indices used to pick moves along a game (each taken modulo the number of moves)."""
    return st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=120)
