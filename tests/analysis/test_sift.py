"""Sifting (the General's deep analysis): every move searched to a lesser depth first, only the
best there and the move played to the full depth; against plain minimax on random game trees."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.analysis.search import TreeSearch

from .test_search import reference
from .toy import TreeGame


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), keep=st.integers(1, 3), top=st.integers(1, 3))
def test_the_kept_moves_are_searched_to_the_full_depth_the_others_keep_their_lines(
    seed: int, keep: int, top: int
) -> None:
    game = TreeGame(seed)
    state = game.start()
    if state.outcome() is not None:
        return
    mover = str(state.to_move)
    moves = list(state.legal_moves())
    deep = {m: reference(game, state.play(m), mover, 3, 0) for m in moves}
    rough = {m: reference(game, state.play(m), mover, 1, 0) for m in moves}
    played = moves[-1]
    lines = TreeSearch(game, 4, sift=(2, keep)).lines(state, played=played, top=top)
    assert sorted(line.move for line in lines) == sorted(moves)  # every move, once
    full = [line for line in lines if line.depth == 4]
    sifted = [line for line in lines if line.depth == 2]
    assert len(full) + len(sifted) == len(moves)
    assert any(line.move == played and line.exact for line in full)
    # the moves kept: the move played and at least the ``keep`` best at two plies
    kept = {line.move for line in full}
    best_rough = sorted(rough.values(), reverse=True)[: min(keep, len(moves))]
    assert sorted((rough[m] for m in kept), reverse=True)[: len(best_rough)] == best_rough
    for line in full:  # exact values (or bounds) of the full depth
        if line.exact:
            assert abs(line.score - deep[line.move]) < 1e-12
        else:
            assert deep[line.move] <= line.score + 1e-12
    for line in sifted:  # the two-ply search's, exact or bounds
        assert line.move not in kept
        if line.exact:
            assert abs(line.score - rough[line.move]) < 1e-12
        else:
            assert rough[line.move] <= line.score + 1e-12
    # listed: the full depth's lines first
    assert [line.depth for line in lines] == sorted((line.depth for line in lines), reverse=True)
