"""``best_moves(state, n)`` gives ``n`` moves (every legal move when there are fewer), distinct,
best first, each valued at the strength's full depth: in every game, at every strength, however
narrow the strength's beam (Defiance's ``normal`` takes one move alone two plies deep), sifting
(the General's ``deep``) or move filter (backgammon's)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import MoveValue, best_moves, register_oracle, strengths
from ludotheque.analysis.search import TreeSearch
from ludotheque.core import CHANCE, State
from ludotheque.record import Record

from .test_search import reference
from .toy import TreeGame

STRENGTHS = ("quick", "normal", "deep")
GAMES = [(name, ruleset) for name, rulesets in ludotheque.available_games().items()
         for ruleset in rulesets]  # fmt: skip


@cache
def position(game: str, ruleset: str, moves: int) -> State:
    """A decision node ``moves`` moves into a seeded game between easy computer players (the
    dice rolled when they are due)."""
    record = Record.new(game, ruleset, seed="best-moves")
    agents = {side: make_agent(game, "easy", 5 + i)
              for i, side in enumerate(record.game_object.sides)}  # fmt: skip
    while True:
        state = record.state
        assert state.outcome() is None
        if state.to_move == CHANCE:
            record.roll()
        elif len(record.moves) >= moves:
            return state
        else:
            record.play(agents[str(state.to_move)].choose(state))


def check(state: State, moves: list[MoveValue], n: int, strength: str) -> None:
    """``moves`` are the ``n`` best of ``state`` as ``best_moves`` must give them."""
    legal = {str(m) for m in state.legal_moves()}
    assert len(moves) == min(n, len(legal))
    names = [m.move for m in moves]
    assert len(set(names)) == len(names) and set(names) <= legal
    depth = strengths(state.game.name)[strength].depth
    if len(legal) > 1:  # (a forced move is looked at one ply)
        assert all(m.exact and m.plies == depth for m in moves), moves
    if getattr(state.game, "has_chance", False):  # best first, by the game's measure
        equities = [m.equity for m in moves]
        assert None not in equities
        assert equities == sorted(equities, reverse=True)  # type: ignore[type-var]
    else:
        assert [m.win for m in moves] == sorted((m.win for m in moves), reverse=True)


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize(("game", "ruleset"), GAMES)
@pytest.mark.parametrize("moves", [0, 6])
def test_three_best_moves_in_every_game_at_every_strength(
    game: str, ruleset: str, strength: str, moves: int
) -> None:
    state = position(game, ruleset, moves)
    check(state, best_moves(state, 3, strength), 3, strength)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_the_general_by_the_search_alone(strength: str) -> None:
    # without the solution, which knows every position, the search ranks the moves itself
    register_oracle("general", None)
    state = position("general", "default", 6)
    check(state, best_moves(state, 3, strength), 3, strength)


@pytest.mark.parametrize("ruleset", ["8x8", "10x10"])
def test_more_moves_than_the_beam_and_more_than_there_are(ruleset: str) -> None:
    state = ludotheque.load("defiance", ruleset).start()
    check(state, best_moves(state, 5, "normal"), 5, "normal")
    # every legal move when fewer than asked for
    few = ludotheque.load("general").parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    assert len(few.legal_moves()) < 50
    check(few, best_moves(few, 50, "normal"), 50, "normal")


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    wide=st.integers(1, 4),
    root_beam=st.sampled_from([None, 1, 2]),
    sift=st.sampled_from([None, (1, 1), (2, 1)]),
)
def test_wide_values_that_many_moves_at_full_depth(
    seed: int, wide: int, root_beam: int | None, sift: tuple[int, int] | None
) -> None:
    game = TreeGame(seed, branching=4)
    state = game.start()
    if state.outcome() is not None:
        return
    mover = str(state.to_move)
    count = len(state.legal_moves())
    search = TreeSearch(game, 3, root_beam=root_beam, sift=sift)
    lines = search.lines(state, top=wide, wide=wide)
    full = [line for line in lines if line.exact and line.depth == 3]
    assert len(full) >= min(wide, count)
    assert [x.score for x in full] == sorted((x.score for x in full), reverse=True)
    for line in full:  # the minimax values of three plies
        assert abs(line.score - reference(game, state.play(line.move), mover, 2, 0)) < 1e-12
