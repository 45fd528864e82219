"""The engine's fast paths against the plain ones they replace (issue 21): the move tables give
the same moves in the same order as a loop over the step tables, the outcome decides "no move"
without listing moves as listing them would, and ``play`` on a move from the state's own list
gives what the checked path gives, while still refusing the moves that are not legal here."""

from __future__ import annotations

import pytest
from hypothesis import given

import ludotheque
from ludotheque import IllegalMove
from ludotheque.games.general import GeneralState, movegen
from ludotheque.games.general.board import S4
from ludotheque.games.general.moves import (
    FLIGHTS,
    GENERAL_STEPS,
    REBEL_MOVE,
    REBEL_STEPS,
    GeneralMove,
)
from tests.general.strategies import positions

GAME = ludotheque.load("general")


def plain_moves(rebels: int, general: int, side: int, flight: bool) -> list[GeneralMove]:
    """Move generation as it was before the fast tables: a loop over every step."""
    moves: list[GeneralMove] = []
    if side == 0:
        occupied = rebels | (1 << general)
        for src in range(25):
            if (rebels >> src) & 1:
                moves.extend(m for dst, m in REBEL_STEPS[src] if not (occupied >> dst) & 1)
        return moves
    for dst, plain, captures in GENERAL_STEPS[general]:
        if (rebels >> dst) & 1:
            continue
        landings = FLIGHTS[general] if dst == S4 and flight else ((dst, plain, captures),)
        for land, lplain, lcaptures in landings:
            if (rebels >> land) & 1:
                continue
            taken = [m for pair, m in lcaptures if rebels & pair == pair]
            moves.extend(taken or [lplain])
    return moves


def state(text: str) -> GeneralState:
    s = GAME.parse_position(text)
    assert isinstance(s, GeneralState)
    return s


@given(positions())
def test_same_moves_in_the_same_order(text: str) -> None:
    # the engine's generation (the compiled core's when it was built) and the pure-Python one
    s = state(text)
    expected = plain_moves(s._rebels, s._general, s._side, s._flight)
    if s.outcome() is None:
        assert s.legal_moves() == expected
    if s._side == 0:
        assert movegen.rebel_moves(s._rebels, s._general) == expected
        assert movegen.rebel_moves_py(s._rebels, s._general) == expected
    else:
        assert movegen.general_moves(s._rebels, s._general, s._flight) == expected
        assert movegen.general_moves_py(s._rebels, s._general, s._flight) == expected
    if movegen.CORE is not None:  # the very objects of the tables, in both
        both = zip(movegen.rebel_moves(s._rebels, s._general),
                   movegen.rebel_moves_py(s._rebels, s._general), strict=True)  # fmt: skip
        assert all(a is b for a, b in both)


def test_the_compiled_core_refuses_what_is_not_a_board() -> None:
    core = movegen.CORE
    if core is None:
        pytest.skip("the compiled core was not built (or LUDOTHEQUE_PURE_PYTHON is set)")
    for args in ((1 << 29, 0), (0, 29), (0, -1), (-1, 0)):
        with pytest.raises((ValueError, OverflowError)):
            core.rebel_moves(*args)
    with pytest.raises(TypeError):
        core.general_moves(0, 0)


@given(positions())
def test_no_move_decided_without_the_list(text: str) -> None:
    s = state(text)
    outcome = s.outcome()
    if outcome is None or outcome.reason in ("immobilised", "no-move"):
        has_moves = bool(plain_moves(s._rebels, s._general, s._side, s._flight))
        assert (outcome is None) == has_moves


@given(positions())
def test_listed_moves_play_as_checked_moves(text: str) -> None:
    s = state(text)
    for m in s.legal_moves():
        fast = s.play(m)  # the object from the list: the fast path
        copy = GeneralMove(*m)  # an equal move that is not from the list
        assert copy is not m
        assert s.play(copy) == fast == s._apply(m) == s.play(str(m))


@given(positions())
def test_rebel_steps_are_still_checked(text: str) -> None:
    # every rebel step object (the fast path's kind) is played exactly when it is legal here
    s = state(text)
    legal = set(s.legal_moves())
    for row in REBEL_MOVE:
        for m in row:
            if m is None:
                continue
            if m in legal:
                assert s.play(m) == s._apply(m)
            else:
                with pytest.raises(IllegalMove):
                    s.play(m)


def test_a_listed_move_after_the_end_is_refused() -> None:
    # the rebels' move that shut the general in: the next state is over; its rebels' steps
    # (from another state's list) are refused
    s = state("s1 b5,c5,d4,e4,a1,a2 r 0")
    shut = s.play("d4-d5")
    assert shut.outcome() is not None
    over = state("s1 b5,c5,d5,e4,a1,a2 r 0")
    assert over.outcome() is not None
    with pytest.raises(IllegalMove, match="the game is over"):
        over.play(REBEL_MOVE[0][5])  # a1-b1


def test_a_plain_tuple_is_not_a_move() -> None:
    # equal to a legal move as a tuple, but not a GeneralMove: refused as before
    s = state("c3 a1,a2,e4,e5,a5,b5 g 1")
    move = s.legal_moves()[0]
    for value in (tuple(move), list(move)):
        with pytest.raises(IllegalMove, match="not a legal move"):
            s.play(value)
    rebels = state("c3 a1,a2,e4,e5,a5,b5 r 1")
    with pytest.raises(IllegalMove, match="not a legal move"):
        rebels.play(tuple(rebels.legal_moves()[0]))


def test_a_core_of_another_version_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from ludotheque.games import _compiled

    stale = types.ModuleType("stale")
    monkeypatch.setattr(_compiled, "import_module", lambda name: stale)
    monkeypatch.setattr(_compiled, "PURE_PYTHON", False)
    with pytest.warns(RuntimeWarning, match="another version"):
        assert _compiled.compiled("stale", 1) is None
    stale.VERSION = 1  # type: ignore[attr-defined]
    assert _compiled.compiled("stale", 1) is stale
    monkeypatch.setattr(_compiled, "PURE_PYTHON", True)
    assert _compiled.compiled("stale", 1) is None
