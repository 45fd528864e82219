"""Hypothesis strategies for backgammon positions, with tall stacks so that the cap matters."""

from __future__ import annotations

from hypothesis import strategies as st


def _listing(counts: dict[int, int]) -> str:
    parts = []
    for p in sorted(counts, reverse=True):
        name = "bar" if p == 25 else str(p)
        parts.append(name if counts[p] == 1 else f"{name}x{counts[p]}")
    return ",".join(parts)


@st.composite
def boards(draw: st.DrawFn, cap: int = 5, home_only: bool = False) -> tuple[str, str]:
    """``(white listing, black listing)``: each side 1–15 checkers, stacks up to ``cap`` (or 7
    with no cap), often 4 or 5 high; ``home_only`` keeps both sides in their home boards."""
    tallest = cap or 7
    stack = st.sampled_from([1, 1, 2, 2, 3, 4, 4, 5, 5, tallest][: 9 if cap else 10])
    counts: list[dict[int, int]] = [{}, {}]
    for side in (0, 1):
        total = draw(st.integers(min_value=1, max_value=15))
        places = list(range(1, 7)) if home_only else list(range(1, 26))
        while total > 0:
            place = draw(st.sampled_from(places))
            other = counts[1 - side]
            if place != 25 and other.get(25 - place):
                places.remove(place)
                if not places:
                    break
                continue
            n = min(draw(stack), total)
            if place != 25:
                n = min(n, tallest - counts[side].get(place, 0))
            if n <= 0:
                places.remove(place)
                if not places:
                    break
                continue
            counts[side][place] = counts[side].get(place, 0) + n
            total -= n
        if not counts[side]:
            counts[side][6 if home_only else 13] = 1
    return _listing(counts[0]), _listing(counts[1])


@st.composite
def positions(draw: st.DrawFn, cap: int = 5, home_only: bool = False) -> str:
    """A decision position (a side to move and its roll)."""
    white, black = draw(boards(cap=cap, home_only=home_only))
    side = draw(st.sampled_from("wb"))
    a = draw(st.integers(1, 6))
    b = draw(st.integers(1, 6))
    return f"W[{white}] B[{black}] {side} {max(a, b)}{min(a, b)}"
