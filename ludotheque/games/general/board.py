"""The board of Le Général et les rebelles: 29 points, their lines, adjacency and capture triples.

Points are numbered in alphabetical order of their names (``a1`` = 0 … ``e5`` = 24, ``s1`` = 25 …
``s4`` = 28), so a bitmask's bits read in ascending order give the canonical, sorted point list.
Everything here is computed once at import from the list of lines in the contract.
"""

from __future__ import annotations

import itertools

COLUMNS = "abcde"
SQUARE_NAMES = tuple(f"{c}{r}" for c in COLUMNS for r in range(1, 6))
SANCTUARY_NAMES = ("s1", "s2", "s3", "s4")
NAMES: tuple[str, ...] = SQUARE_NAMES + SANCTUARY_NAMES
NUM_POINTS = len(NAMES)  # 29
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}

S1, S2, S3, S4 = (INDEX[n] for n in SANCTUARY_NAMES)
APEX = S4
GATES = tuple(INDEX[n] for n in ("b5", "c5", "d5"))
GATES_MASK = sum(1 << g for g in GATES)
SANCTUARY_MASK = sum(1 << INDEX[n] for n in SANCTUARY_NAMES)
ALL_MASK = (1 << NUM_POINTS) - 1
BORDER_NAMES = ("a1", "b1", "c1", "d1", "e1", "a2", "e2", "a3", "e3", "a4", "e4",
                "a5", "b5", "c5", "d5", "e5")  # fmt: skip
START_REBELS = sum(1 << INDEX[n] for n in BORDER_NAMES)
START_GENERAL = INDEX["c3"]


def _line(spec: str) -> tuple[int, ...]:
    return tuple(INDEX[n] for n in spec.split())


LINES: tuple[tuple[int, ...], ...] = tuple(
    _line(spec)
    for spec in (
        # rows
        "a1 b1 c1 d1 e1", "a2 b2 c2 d2 e2", "a3 b3 c3 d3 e3", "a4 b4 c4 d4 e4", "a5 b5 c5 d5 e5",
        # columns; the centre column runs on into the triangle
        "a1 a2 a3 a4 a5", "b1 b2 b3 b4 b5", "c1 c2 c3 c4 c5 s2 s4", "d1 d2 d3 d4 d5",
        "e1 e2 e3 e4 e5",
        # the alquerque diagonals
        "a1 b2 c3 d4 e5", "e1 d2 c3 b4 a5", "c1 b2 a3", "a3 b4 c5", "c5 d4 e3", "e3 d2 c1",
        # the triangle
        "b5 s1 s4", "d5 s3 s4", "s1 s2 s3",
    )
)  # fmt: skip


def _edges() -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for line in LINES for pair in itertools.pairwise(line))


EDGES = _edges()
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(q for e in EDGES if p in e for q in e if q != p)) for p in range(NUM_POINTS)
)


def _triples() -> tuple[tuple[int, int, int], ...]:
    """Every (end, middle, end) of three consecutive points on a line with both ends outside the
    sanctuary: the only triples a capture can use (rebels never stand in the sanctuary)."""
    found: set[tuple[int, int, int]] = set()
    for line in LINES:
        for a, m, b in zip(line, line[1:], line[2:], strict=False):
            if (SANCTUARY_MASK >> a) & 1 or (SANCTUARY_MASK >> b) & 1:
                continue
            found.add((min(a, b), m, max(a, b)))
    return tuple(sorted(found, key=lambda t: (t[1], t[0], t[2])))


CAPTURE_TRIPLES = _triples()
# For each landing point: the bitmasks of the rebel pairs that can be taken there.
PAIRS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << a) | (1 << b) for a, m, b in CAPTURE_TRIPLES if m == p) for p in range(NUM_POINTS)
)


# NEIGHBOUR_MASK[p]: the bitmask of the points next to p.
NEIGHBOUR_MASK: tuple[int, ...] = tuple(
    sum(1 << q for q in NEIGHBOURS[p]) for p in range(NUM_POINTS)
)


def name(point: int) -> str:
    """The notation name of a point index."""
    return NAMES[point]


def mask_names(mask: int) -> list[str]:
    """The names of the points of a bitmask, in canonical (alphabetical) order."""
    return [NAMES[i] for i in range(NUM_POINTS) if (mask >> i) & 1]


def bits(mask: int) -> list[int]:
    """The point indices set in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
