"""Hypothesis strategies and helpers for Defiance and Domain positions."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.defiance import reference

FILES = "abcdefghij"
DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def position(
    cells: dict[str, str],
    rebel: str = "2.2",
    imperial: tuple[str, str] = ("7.8", "8.7"),
    side: str = "r",
    n: int = 10,
) -> str:
    """A position string from ``{"e5": "RN", ...}`` (pools follow from the counters)."""
    rows = []
    for j in range(n - 1, -1, -1):
        row, run = "", 0
        for i in range(n):
            code = cells.get(f"{FILES[i]}{j + 1}")
            if code is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += code
        rows.append(row + (str(run) if run else ""))
    r = sum(1 for v in cells.values() if v[0] == "R")
    i = sum(1 for v in cells.values() if v[0] == "I")
    return f"{'/'.join(rows)} r{40 - r},i{40 - i} R{rebel},I{imperial[0]},I{imperial[1]} {side}"


@st.composite
def positions(draw: st.DrawFn, n: int = 10, max_counters: int = 40) -> str:
    """A valid, unfinished position: random counters with no capture pending."""
    count = draw(st.integers(min_value=0, max_value=max_counters))
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
            min_size=count, max_size=count, unique=True,
        )
    )  # fmt: skip
    counters = {}
    for cell in cells:
        owner = draw(st.sampled_from("RI"))
        counters[cell] = (owner, draw(st.sampled_from(DIRECTIONS)))
    points = st.tuples(st.integers(0, n), st.integers(0, n))
    rebel = draw(points)
    imperial = draw(st.lists(points, min_size=2, max_size=2, unique=True))
    if rebel in imperial:
        imperial = [p for p in [(0, n), (n, 0), (n, n), (0, 0)] if p != rebel][:2]
    side = draw(st.sampled_from("ri"))
    # R and I counts must stay within the pools
    for owner in "RI":
        mine = [c for c, v in counters.items() if v[0] == owner]
        for c in mine[40:]:
            del counters[c]
    pos = reference.Pos(n, counters, {"R": 0, "I": 0}, rebel, imperial, side)
    changed = True
    while changed:  # settle pending captures
        changed = False
        for cell, (owner, _) in list(pos.counters.items()):
            if reference.is_captured(pos, cell, owner):
                del pos.counters[cell]
                changed = True
    pos.pools = {w: 40 - sum(1 for v in pos.counters.values() if v[0] == w) for w in "RI"}
    text = reference.fmt(pos)
    over = reference.rebels_win(pos)
    return f"{text} {'-' if over else side}"
