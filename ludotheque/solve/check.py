"""Checks of the solver against the engine, on sampled positions of any sub-layer.

- ``check_moves``: the solver's moves of a position are exactly the engine's legal moves (as
  the positions they lead to), and its un-moves are exactly the positions of the same
  sub-layer that have a move to it.
- ``check_values``: each sampled position's stored value is the one its engine moves give with
  the stored values of their results (win: the fastest child lost by the opponent; loss: every
  child won by the opponent, the slowest; draw otherwise). Checked on every position, this
  property with the engine's terminal positions proves a table right (by induction on the
  distance); on a sample it catches any systematic error.

Both return a list of problems (empty when all is well).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..games.general.rules import GeneralState
from . import kernels
from .layout import (
    WON,
    Position,
    from_state,
    index,
    is_shut_in,
    is_valid,
    position_at,
    sublayer_size,
    to_state,
)

Lookup = Callable[[Position], int]
"""The stored code of a position (see ``kernels``)."""


def solver_children(position: Position) -> list[Position]:
    """The positions the solver's move generator leads to (it does not look at the outcome)."""
    g, rebels, side, flight = position
    out = np.empty((kernels.MAX_CHILDREN, 4), dtype=np.int64)
    geo = kernels.geometry()
    if side == 0:
        n = kernels.rebel_children(g, rebels, flight, geo, out)
    else:
        n = kernels.general_children(g, rebels, flight, geo, out)
    return sorted(
        Position(int(out[i, 0]), int(out[i, 1]), 1 - side, int(out[i, 2])) for i in range(n)
    )


def solver_predecessors(position: Position) -> list[Position]:
    """The positions of the same sub-layer the solver's un-move generator gives."""
    g, rebels, side, flight = position
    out = np.empty((kernels.MAX_CHILDREN, 4), dtype=np.int64)
    n = kernels.predecessors(g, rebels, side, flight, kernels.geometry(), out)
    return sorted(Position(int(out[i, 0]), int(out[i, 1]), 1 - side, flight) for i in range(n))


def engine_children(state: GeneralState) -> list[Position]:
    """The positions the engine's legal moves lead to."""
    return sorted(from_state(state.play(m)) for m in state.legal_moves())


def sample_positions(k: int, flight: int, count: int, rng: random.Random) -> list[Position]:
    """``count`` valid positions of sub-layer ``(k, flight)`` drawn uniformly."""
    found: list[Position] = []
    size = sublayer_size(k)
    while len(found) < count:
        position = position_at(k, flight, rng.randrange(size))
        if is_valid(position):
            found.append(position)
    return found


def check_moves(k: int, flight: int, count: int, seed: int = 0) -> list[str]:
    """Compare the solver's moves and un-moves with the engine on ``count`` sampled positions."""
    rng = random.Random(seed)
    problems: list[str] = []
    for position in sample_positions(k, flight, count, rng):
        state = to_state(position)
        text = state.position()
        over = state.outcome() is not None
        mine = solver_children(position)
        if over:
            if mine and not is_shut_in(position.general, position.rebels):
                problems.append(f"{text}: over ({state.outcome()}), the solver has moves")
        elif mine != engine_children(state):
            problems.append(f"{text}: solver moves {len(mine)} differ from the engine's")
        same = [c for c in (engine_children(state) if not over else [])
                if c.layer == k and c.flight == flight]  # fmt: skip
        for child in same:
            if position not in solver_predecessors(child):
                problems.append(f"{text}: missing among the un-moves of {to_state(child)}")
        for before in solver_predecessors(position):
            previous = to_state(before)
            if previous.outcome() is not None:
                problems.append(f"{text}: un-move to {previous.position()}, which is over")
            elif position not in engine_children(previous):
                problems.append(f"{text}: un-move to {previous.position()}, no move back")
    return problems


def expected_code(state: GeneralState, lookup: Lookup) -> int:
    """The code a position must have, from its engine moves and the stored codes of their
    results."""
    outcome = state.outcome()
    if outcome is not None:
        return kernels.OVER if outcome.winner == state.side else 1
    wins: list[int] = []
    losses: list[int] = []
    draw = False
    for move in state.legal_moves():
        child = state.play(move)
        code = 1 if child.outcome() is not None else lookup(from_state(child))
        if code == 0:
            draw = True
        elif code % 2:
            wins.append(code)
        else:
            losses.append(code)
    if wins:
        return min(wins) + 1
    if draw:
        return 0
    return max(losses) + 1


def check_values(lookup: Lookup, k: int, flight: int, count: int, seed: int = 0) -> list[str]:
    """Compare stored codes with the codes the engine's moves give, on sampled positions."""
    rng = random.Random(seed)
    problems = []
    for position in sample_positions(k, flight, count, rng):
        state = to_state(position)
        want = expected_code(state, lookup)
        have = lookup(position)
        if want != have:
            problems.append(f"{state.position()}: stored {have}, its moves give {want}")
    return problems


def raw_lookup(tables: dict[tuple[int, int], npt.NDArray[np.uint16]]) -> Lookup:
    """A lookup into solved sub-layers held in memory (or memory-mapped)."""

    def lookup(position: Position) -> int:
        if position.layer == WON:
            return 1
        return int(tables[position.layer, position.flight][index(position)])

    return lookup
