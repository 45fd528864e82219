"""The package's tables (6 and 8 rebels, both flights, both sides to move) against searches
through the engine's own moves and outcomes (``legal_moves``, ``play``, ``outcome``), on sampled
positions of every kind:

- decided within ``EXACT`` plies: a full-width search of that depth proves the tables' winner at
  the tables' distance, and that neither side can end the game sooner;
- decided later, or drawn: neither side can end the game within ``SHALLOW`` plies; the minimax
  over the engine's moves of the tables' values of the results is the position's value and
  distance (for the general to move, each result's too, from its own moves); and along a line
  of best play by the tables, every position is so, and the engine ends the game with the
  tables' winner after exactly their number of plies (a drawn line stays drawn).

The general's positions are not stored (the tables answer for them one ply ahead): the rare
kinds (short distances, draws, the general's wins) are found among the positions from which a
move of his leads to a stored position of that kind, with a capture from 8 rebels to 6.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest

from ludotheque.games.general.board import NUM_POINTS, PAIRS_AT
from ludotheque.games.general.rules import GeneralState
from ludotheque.solve.layout import (
    Position,
    from_state,
    general_at,
    is_valid,
    position_at,
    sublayer_size,
    to_state,
    unrank,
)
from ludotheque.solve.tables import PACKAGE_FOLDER, Tables, Verdict

from .search import BoundedSearch

TABLES = Tables([PACKAGE_FOLDER])
SUBLAYERS = [(6, 0), (6, 1), (8, 0), (8, 1)]
EXACT = 7
"""Positions decided within this many plies are searched to the end of the game."""
SHALLOW = 3
"""Longer and drawn ones: no end within this many plies."""
DRAWN_LINE = 12
"""Plies of a drawn line followed."""
SHORT, LONG, DRAWN = 6, 12, 12
"""Positions per sub-layer and side to move: of each distance up to ``EXACT`` for each winner,
decided later for each winner, drawn (where there are so many)."""


def verdict(state: GeneralState) -> Verdict:
    found = TABLES.verdict(state)
    assert found is not None, state.position()
    return found


def from_moves(state: GeneralState) -> Verdict:
    """The minimax over the engine's moves of the tables' verdicts of their results: the
    fastest win, else a draw, else the slowest loss."""
    me = str(state.to_move)
    results = [verdict(state.play(m)) for m in state.legal_moves()]
    wins = [v.plies for v in results if v.winner == me and v.plies is not None]
    if wins:
        return Verdict(me, min(wins) + 1)
    if any(v.winner is None for v in results):
        return Verdict(None, None)
    return Verdict(results[0].winner, max(v.plies or 0 for v in results) + 1)


def signed(v: Verdict, state: GeneralState) -> int | None:
    """The verdict as the search gives it: +d a win of the side to move, -d a loss."""
    if v.winner is None or v.plies is None:
        return None
    return v.plies if v.winner == state.to_move else -v.plies


def general_parents(q: Position) -> list[GeneralState]:
    """The general-to-move positions of the shipped layers from which an engine move leads to
    ``q`` (rebels to move): his step or flight, capturing a pair around his landing point or
    not (found by trying every point he may come from)."""
    child = to_state(q)
    adds = [0]
    if q.layer + 2 <= 8:
        adds += [pair for pair in PAIRS_AT[q.general] if not pair & q.rebels]
    found = []
    for add in adds:
        for src in range(NUM_POINTS):
            for flight in (1,) if q.flight else (0, 1):
                before = Position(src, q.rebels | add, 1, flight)
                if not is_valid(before):
                    continue
                state = to_state(before)
                if state.outcome() is None and any(
                    state.play(m) == child for m in state.legal_moves()
                ):
                    found.append(state)
    return found


def _stored(
    k: int, flight: int, wanted: npt.NDArray[np.bool_], count: int, rng: random.Random
) -> list[GeneralState]:
    """Up to ``count`` rebels-to-move positions among the stored entries ``wanted``."""
    sub = TABLES.sub(k, flight)
    assert sub is not None
    found = np.flatnonzero(wanted)
    if flight:  # the last slot is s4, unused while the flight is available
        found = found[found // sub.ranks != NUM_POINTS - 1 - k]
    states = []
    for i in rng.sample(range(found.size), min(count, found.size)):
        slot, r = divmod(int(found[i]), sub.ranks)
        rebels = unrank(r, k)
        states.append(to_state(Position(general_at(slot, rebels), rebels, 0, flight)))
    return states


def _pick(
    states: list[GeneralState], rng: random.Random, short: int, long: int, drawn: int
) -> list[GeneralState]:
    """``short`` positions of each distance up to ``EXACT`` for each winner, ``long`` decided
    later, ``drawn`` drawn ones."""
    unique = list(dict.fromkeys(states))
    rng.shuffle(unique)
    taken: Counter[tuple[str | None, int]] = Counter()
    chosen = []
    for state in unique:
        v = verdict(state)
        key: tuple[str | None, int]
        if v.winner is None:
            key, limit = (None, -1), drawn
        elif v.plies is not None and v.plies <= EXACT:
            key, limit = (v.winner, v.plies), short
        else:
            key, limit = (v.winner, -2), long
        if taken[key] < limit:
            taken[key] += 1
            chosen.append(state)
    return chosen


def samples(k: int, flight: int, seed: int) -> tuple[list[GeneralState], list[GeneralState]]:
    """(rebels to move, general to move) positions of sub-layer ``(k, flight)`` of every kind."""
    rng = random.Random(seed)
    sub = TABLES.sub(k, flight)
    assert sub is not None
    codes = np.asarray(sub.codes).astype(np.int64)
    over = codes == sub.over
    rebels: list[GeneralState] = []
    long = (codes > EXACT + 1) & ~over
    for code in range(2, EXACT + 2):  # decided within EXACT plies, each distance
        rebels += _stored(k, flight, codes == code, SHORT, rng)
    for parity in (0, 1):  # decided later: the rebels' wins, the general's
        rebels += _stored(k, flight, long & (codes % 2 == parity), LONG, rng)
    rebels += _stored(k, flight, codes == 0, DRAWN, rng)
    rebels += _stored(k, flight, over, 1, rng)
    # the general's: uniform ones, and those with a move to a stored position of a rarer kind
    # (in this layer or, by a capture, the one below; with the flight, or by it)
    targets: list[GeneralState] = []
    for low_k in sorted({k, 6}):
        for low_flight in sorted({flight, 0}):
            low = TABLES.sub(low_k, low_flight)
            assert low is not None
            low_codes = np.asarray(low.codes).astype(np.int64)
            targets += _stored(low_k, low_flight, low_codes == 0, 100, rng)  # every draw
            for code in range(2, EXACT + 2):
                targets += _stored(low_k, low_flight, low_codes == code, 3, rng)
            late = (low_codes > EXACT + 1) & (low_codes != low.over) & (low_codes % 2 == 1)
            targets += _stored(low_k, low_flight, late, 6, rng)  # the general's late wins
    candidates = [
        s
        for q in targets
        for s in general_parents(from_state(q))
        if s.rebel_count == k and s.flight_available == bool(flight)
    ]
    for _ in range(300):
        position = position_at(k, flight, rng.randrange(sublayer_size(k)))
        if is_valid(position) and position.side == 1:
            candidates.append(to_state(position))
    general = _pick(candidates, rng, SHORT, LONG, DRAWN)
    return rebels, general


def follow(state: GeneralState, rng: random.Random) -> None:
    """Along a line of best play by the tables: every position's verdict is the minimax of its
    moves', and the game ends as the tables say (a drawn line: DRAWN_LINE plies, all drawn)."""
    start = verdict(state)
    plies = 0
    while state.outcome() is None and (start.winner is not None or plies < DRAWN_LINE):
        v = verdict(state)
        assert from_moves(state) == v, state.position()
        best = [
            child
            for child in (state.play(m) for m in state.legal_moves())
            if verdict(child) == Verdict(v.winner, None if v.plies is None else v.plies - 1)
        ]
        assert best, state.position()
        state = rng.choice(best)
        plies += 1
    if start.winner is None:
        assert state.outcome() is None and verdict(state).winner is None
    else:
        outcome = state.outcome()
        assert outcome is not None and outcome.winner == start.winner
        assert plies == start.plies


@pytest.mark.parametrize(("k", "flight"), SUBLAYERS)
def test_the_tables_agree_with_a_search_of_the_engine(k: int, flight: int) -> None:
    rebels, general = samples(k, flight, seed=10 * k + flight)
    rng = random.Random(k + flight)
    kinds: Counter[tuple[str, str]] = Counter()
    for state in rebels + general:
        v = verdict(state)
        side = str(state.to_move)
        if v.plies is not None and v.plies <= EXACT:
            # the search to the tables' distance proves it, and no shorter end
            assert BoundedSearch().distance(state, v.plies) == signed(v, state), state.position()
            kinds[side, f"exact {v.winner}"] += 1
            continue
        assert BoundedSearch().distance(state, SHALLOW) is None, state.position()
        assert from_moves(state) == v, state.position()
        if side == "general":
            for child in (state.play(m) for m in state.legal_moves()):
                if child.outcome() is None:
                    assert from_moves(child) == verdict(child), child.position()
        follow(state, rng)
        kinds[side, f"long {v.winner}"] += 1
    # every kind the sub-layer has (the rebels to move always win from 8 rebels)
    wanted = {"exact rebels", "long rebels"} | ({"exact general", "long None"} if k == 6 else set())
    assert {kind for side, kind in kinds if side == "rebels"} >= wanted
    assert {kind for side, kind in kinds if side == "general"} >= {
        "exact general",
        "exact rebels",
        "long rebels",
        "long None",
    }
    assert kinds.total() >= 80
