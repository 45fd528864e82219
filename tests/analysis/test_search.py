"""The analysis search against plain minimax on random game trees, and its proofs."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.analysis.search import HEURISTIC, NUDGE, STEP, WIN, TreeSearch, plies_to_end
from ludotheque.core import State

from .toy import GraphGame, TreeGame, TreeState


def reference(game: TreeGame, child: State, mover: str, depth: int, ply: int) -> float:
    """The value for ``mover`` of the position ``child`` it moves into from a node ``ply``
    plies below the root, searched ``depth`` more plies: plain minimax, every move."""
    outcome = child.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        score = WIN - (ply + 1) * STEP
        return score if outcome.winner == mover else -score
    if depth == 0:
        # the search judges from the first side (a value of exactly 0 is nudged to its
        # side, the same at every ply) and turns it round for the other
        first = game.sides[0]
        v = game.evaluate(child, first)
        v = NUDGE if v == 0.0 else max(-HEURISTIC, min(HEURISTIC, v))
        return v if mover == first else -v
    other = str(child.to_move)
    return -max(
        reference(game, child.play(m), other, depth - 1, ply + 1) for m in child.legal_moves()
    )


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    depth=st.integers(1, 4),
    top=st.integers(1, 3),
    start=st.lists(st.integers(0, 2), max_size=2),
)
def test_exact_lines_are_minimax_values(seed: int, depth: int, top: int, start: list[int]) -> None:
    game = TreeGame(seed)
    state = game.start()
    for m in start:
        moves = state.legal_moves()
        if state.outcome() is not None:
            break
        state = state.play(moves[m % len(moves)])
    if state.outcome() is not None:
        return
    mover = str(state.to_move)
    moves = list(state.legal_moves())
    truth = {m: reference(game, state.play(m), mover, depth - 1, 0) for m in moves}
    played = moves[-1]
    lines = TreeSearch(game, depth).lines(state, played=played, top=top)
    assert sorted(line.move for line in lines) == sorted(moves)
    exact = [line for line in lines if line.exact]
    for line in lines:
        if line.exact:
            assert abs(line.score - truth[line.move]) < 1e-12
        else:
            assert truth[line.move] <= line.score + 1e-12  # an upper bound
    assert any(line.move == played and line.exact for line in lines)
    best = max(truth.values())
    assert abs(exact[0].score - best) < 1e-12
    ranked = sorted(truth.values(), reverse=True)
    assert len(exact) >= min(top, len(moves))
    # every move left out of the exact ones is no better than the top-th best
    for line in lines:
        if not line.exact:
            assert truth[line.move] <= ranked[min(top, len(ranked)) - 1] + 1e-12


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_search_is_deterministic_and_cache_free(seed: int) -> None:
    game = TreeGame(seed, loops=True)
    state = game.start()
    shared = TreeSearch(game, 3)
    first = shared.lines(state, repetition=3)
    again = shared.lines(state, repetition=3)  # its caches are warm now
    fresh = TreeSearch(game, 3).lines(state, repetition=3)
    assert first == again == fresh


def test_a_repetition_is_a_draw_and_a_win_is_counted_in_plies() -> None:
    game = TreeGame(7, loops=True)
    # find a node with a loop move and play it twice in the history
    state = game.start()
    path: list[TreeState] = [state]
    while "loop" not in state.legal_moves():
        moves = [m for m in state.legal_moves() if not state.play(m).is_terminal]
        state = state.play(moves[0])
        path.append(state)
    back = state.play("loop")
    history: Counter[State] = Counter(path)
    history[back] += 1  # seen twice before: going back is the third time
    lines = TreeSearch(game, 2).lines(state, history=history, repetition=3)
    loop = next(line for line in lines if line.move == "loop")
    assert loop.score == 0.0 and loop.proven and loop.exact
    assert plies_to_end(WIN - 3 * STEP) == 3


def test_a_forced_repetition_is_a_proven_draw() -> None:
    # a to move at "start": "back" leads where b's only move returns to start (a third time: a
    # draw whatever the evaluation says); "on" leads to a position the evaluation likes, where
    # b may also win.
    game = GraphGame(
        nodes={
            "start": ("a", {"back": "cycle", "on": "open"}),
            "cycle": ("b", {"return": "start"}),
            "open": ("b", {"win": "won", "wait": "quiet"}),
            "quiet": ("a", {"pass": "open"}),
        },
        ends={"won": "b"},
        values={"cycle": 0.9, "open": 0.5, "quiet": 0.5},
    )
    start = game.start()
    lines = TreeSearch(game, 3).lines(start, history={start: 2}, repetition=3)
    back = next(line for line in lines if line.move == "back")
    on = next(line for line in lines if line.move == "on")
    assert back.score == 0.0 and back.proven
    assert on.score == pytest.approx(-(WIN - 2 * STEP)) and on.proven  # b wins at once
    assert plies_to_end(on.score) == 2
    assert lines[0].move == "back"


def test_an_endgame_table_registered_for_a_game_gives_proven_distances() -> None:
    from ludotheque.analysis import Analyst, register_oracle

    game = GraphGame(
        nodes={
            "start": ("a", {"left": "known", "right": "unknown"}),
            "known": ("b", {"x": "start"}),
            "unknown": ("b", {"y": "start"}),
        },
        ends={},
        values={"known": -0.2, "unknown": 0.3},
    )
    register_oracle("toy-graph", lambda state: ("a", 6) if state.position() == "known" else None)
    try:
        values = Analyst(game, "quick").moves(game.start())
    finally:
        register_oracle("toy-graph", None)
    left = next(v for v in values if v.move == "left")
    assert values[0] is left and left.win == 1.0
    assert left.proof is not None and left.proof.plies == 7 and left.proof.moves == 4
    assert left.proof.text() == "a wins in 4"
    assert Analyst(game, "quick").moves(game.start())[0].move == "right"  # unregistered
