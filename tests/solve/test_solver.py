"""The solver on the layer of 6 rebels (both flights), solved here from nothing: every position
agrees with its children, with the package's tables, and with an exhaustive search of the
engine on sampled positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludotheque.solve.layout import Position, index, is_valid, position_at, sublayer_size, to_state
from ludotheque.solve.retrograde import solve_sublayer, verify
from ludotheque.solve.tables import OVER, PACKAGE_FOLDER, file_name, read, side_codes

from .search import BoundedSearch

pytest.importorskip("numba")

BOUND = 4


def _sample(table: np.ndarray, k: int, flight: int, rng: random.Random) -> list[Position]:
    """Positions of every kind: decided within BOUND plies (each distance), decided later, drawn."""
    chosen: list[Position] = []
    codes = table.astype(np.int64)
    for code in range(1, BOUND + 2):
        found = np.flatnonzero(codes == code)
        picks = [int(i) for i in found[rng.sample(range(found.size), min(6, found.size))]]
        chosen += [position_at(k, flight, i) for i in picks]
    for wanted in (codes > BOUND + 1) & (codes != OVER), codes == 0:
        found = np.flatnonzero(wanted)
        for i in rng.sample(range(found.size), min(8, found.size)):
            position = position_at(k, flight, int(found[i]))
            if is_valid(position):
                chosen.append(position)
    return chosen


def test_six_rebels() -> None:
    f0, stats0 = solve_sublayer(6, 0, None, None, None)
    f1, stats1 = solve_sublayer(6, 1, None, None, f0)
    assert f0.shape == f1.shape == (sublayer_size(6),)
    # every position, recomputed from its children, has the value the solver gave it
    assert verify(6, 0, f0, None, None, None) == (0, -1)
    assert verify(6, 1, f1, None, None, f0) == (0, -1)
    # the package ships the same values (its rebels-to-move half)
    for flight, table in ((0, f0), (1, f1)):
        shipped = read(PACKAGE_FOLDER / file_name(6, flight))
        assert np.array_equal(np.asarray(shipped.codes), side_codes(table, 6))
    # the figures in the README
    assert stats0.positions == 177_100 * 23 * 2
    assert stats1.positions == 177_100 * 22 * 2
    assert sum(v for key, v in stats0.counts.items() if key.endswith("draw")) == 260
    assert sum(v for key, v in stats1.counts.items() if key.endswith("draw")) == 184
    # an exhaustive search of the engine finds the same distances within its bound
    rng = random.Random(6)
    search = BoundedSearch()
    checked = 0
    for flight, table in ((0, f0), (1, f1)):
        for position in _sample(table, 6, flight, rng):
            code = int(table[index(position)])
            state = to_state(position)
            found = search.distance(state, BOUND)
            if code == OVER:
                want: int | None = 0
            elif code == 0 or code - 1 > BOUND:
                want = None
            else:
                want = code - 1 if (code - 1) % 2 else -(code - 1)
            assert found == want, state.position()
            checked += 1
    assert checked > 50
