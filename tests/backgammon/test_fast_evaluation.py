"""The compiled evaluation (``_cbackgammon.c``: the network's inputs and forward pass, the bear-off
databases, every roll's plays with their chances) against the numpy code it replaces, which
stays the reference and the fallback: the same inputs, the same chances to 1e-6, the same
children in the same order (skipped where the core was not built or ``LUDOTHEQUE_PURE_PYTHON``
is set); and the expansion's group helpers the search uses."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

import ludotheque
from ludotheque.games.backgammon import expansion, network
from ludotheque.puzzles.backgammon import puzzles_network
from tests.backgammon.strategies import positions

GAME = ludotheque.load("backgammon", "standard")
SEED = ludotheque.load("backgammon", "seed")
needs_core = pytest.mark.skipif(
    network.core() is None,
    reason="the compiled core was not built (or LUDOTHEQUE_PURE_PYTHON is set)",
)


def rows_of(texts: list[str], game: ludotheque.Game = GAME) -> np.ndarray:
    """The positions (side to move first) as the evaluation reads them: n x 2 x 26 counts."""
    boards = [b for t in texts for b in game.parse_position(t).mover_boards()]  # type: ignore[attr-defined]
    return network.unpack_many(boards).reshape(len(texts), 2, 26)


@needs_core
@settings(max_examples=150, deadline=None)
@given(positions(cap=0), positions(cap=0, home_only=True))
def test_compiled_inputs_and_chances_are_numpys(anywhere: str, home: str) -> None:
    rows = rows_of([anywhere, home])
    core = network.core()
    assert core is not None
    flat = network.counts_rows(rows[:, 0], rows[:, 1])
    compiled = np.frombuffer(core.encode(flat), dtype=np.float64).reshape(2, -1)
    assert np.array_equal(compiled, network.encode_counts(rows[:, 0], rows[:, 1], network.INPUTS2))
    fast = network.chances_of_counts(rows[:, 0], rows[:, 1])
    assert fast == pytest.approx(network.chances_numpy(rows[:, 0], rows[:, 1]), abs=1e-6)


@needs_core
@settings(max_examples=25, deadline=None)
@given(positions(cap=5))
def test_compiled_expansions_are_numpys(text: str) -> None:
    """Every roll's children, in movegen's order, with the same chances and ends, with and
    without the seed's cap."""
    for game, cap in ((GAME, 0), (SEED, 5)):
        rows = rows_of([text, text], game)
        fast, slow = expansion.expand(rows, cap), expansion.expand_numpy(rows, cap)
        assert np.array_equal(fast.offsets, slow.offsets)
        assert np.array_equal(fast.counts, slow.counts)
        assert np.array_equal(fast.ends, slow.ends)
        assert fast.chances == pytest.approx(slow.chances, abs=1e-6)


def test_an_expansion_lists_every_roll_and_the_games_it_ends() -> None:
    rows = rows_of(["W[1x1,3x1] B[19x2,6x5,5x5,4x3] w 11"])
    found = expansion.expand(rows)
    assert len(found.offsets) == 22 and (found.sizes >= 1).all()
    # white bears off both checkers with any roll but 2-1 (which leaves one on its 1 point):
    # black, with two checkers in white's home board and none off, is backgammoned
    two_one = expansion.ROLLS.index((2, 1))
    for r in range(21):
        ends = found.ends[found.offsets[r] : found.offsets[r + 1]]
        assert (ends == 0).all() if r == two_one else (ends == 3).any()
    going = found.ends == 0
    assert (found.chances[~going] == 0).all() and (found.chances[going, 0] > 0).all()
    # the children are turned round: black, now on roll, first
    assert (found.counts[:, 0, 19] == 2).all()


def test_group_helpers() -> None:
    rows = rows_of(["W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"])
    found = expansion.expand(rows)
    values = np.random.default_rng(1).random(len(found.ends))
    values[found.offsets[3]] = -1.0  # a tie for the least of group 3
    values[found.offsets[3] + 1] = -1.0
    least = found.group_argmin(values)
    assert least[3] == found.offsets[3]  # the first of equals
    for g in range(21):
        group = values[found.offsets[g] : found.offsets[g + 1]]
        assert values[least[g]] == group.min() == found.group_min(values)[g]
        assert found.group_max(values)[g] == group.max()
    assert expansion.WEIGHTS.sum() == pytest.approx(1.0)


def _deeper(middles: int) -> network.Network:
    """The shipped network with ``middles`` hidden layers of 16 random units put before a fresh
    output layer: a network no file holds, so nothing is tuned to it."""
    rng = np.random.default_rng(middles)
    shipped = network.shipped()
    sizes = [shipped.hidden_units] + [16] * middles
    middle = [(rng.normal(0, 0.3, (a, b)), rng.normal(0, 0.1, b)) for a, b in pairwise(sizes)]
    out = rng.normal(0, 0.3, (sizes[-1], network.OUTPUTS)), rng.normal(0, 0.1, network.OUTPUTS)
    return network.Network(shipped.w1, shipped.b1, *out, middle)


@needs_core
@settings(max_examples=40, deadline=None)
@given(positions(cap=0))
def test_a_middle_layer_is_computed_alike_by_the_core_and_numpy(anywhere: str) -> None:
    """A network with a second hidden layer (``middle``) runs in the compiled core, with the
    numbers numpy gives; with two middle layers (more than the core reads) numpy evaluates."""
    rows = rows_of([anywhere, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"])
    for middles, compiled in ((1, True), (2, False)):
        network.use(_deeper(middles))
        try:
            assert (network.core() is not None) is compiled
            fast = network.chances_of_counts(rows[:, 0], rows[:, 1])
            slow = network.chances_numpy(rows[:, 0], rows[:, 1])
        finally:
            network.use(None)
        assert fast == pytest.approx(slow, abs=1e-6)
        shipped = network.chances_numpy(rows[:, 0], rows[:, 1])
        assert not np.allclose(slow[1], shipped[1], atol=1e-3)  # the middle layer is read


def test_a_deeper_network_is_saved_and_loaded(tmp_path: Path) -> None:
    """``save`` keeps the middle layers (``wm0``, ``bm0``, ...) and ``load`` reads them back in
    order; a file without them is the one-layer network it always was."""
    net = _deeper(2)
    net.save(tmp_path / "deep.npz")
    back = network.Network.load(tmp_path / "deep.npz")
    assert [w.shape for w, _ in back.middle] == [(128, 16), (16, 16)]
    rows = rows_of(["W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"])
    x = network.encode_counts(rows[:, 0], rows[:, 1], network.INPUTS2)
    assert back.probabilities(x) == pytest.approx(net.probabilities(x), abs=1e-5)
    assert len(back.layers()) == 4
    assert [w.shape for w, _ in network.shipped().middle] == [(128, 64)]
    assert puzzles_network().middle == []  # the puzzles' older file: one hidden layer
