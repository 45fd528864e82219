"""The public helpers beside the six state methods refuse bad arguments as DESIGN.md promises
(``InvalidPosition`` or ``IllegalMove``, with a code), never with a raw ``ValueError``,
``TypeError`` or ``AttributeError``, and never by reading a misspelt side as the other one: an
outsider's review found ``evaluate(state, "White")`` returning black's value, sign flipped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove, InvalidPosition, NotAState, State, UnknownSide, perft
from ludotheque.games.backgammon import BackgammonState
from ludotheque.games.defiance import DefianceState

GAMES = [("general", "default"), ("backgammon", "standard"), ("defiance", "8x8")]
NOT_SIDES: list[object] = ["White", "w", "Rebels", "x", "", None, 0, ["white"], "chance"]


def started(name: str, ruleset: str) -> State:
    """A state of the game where its evaluation has work to do (after the opening roll)."""
    state = ludotheque.load(name, ruleset).start()
    return state.play("w3b1") if name == "backgammon" else state


@pytest.mark.parametrize(("name", "ruleset"), GAMES)
@pytest.mark.parametrize("side", NOT_SIDES, ids=repr)
def test_a_side_not_of_the_game_is_refused(name: str, ruleset: str, side: Any) -> None:
    game = ludotheque.load(name, ruleset)
    state = started(name, ruleset)
    calls: list[Callable[[], object]] = [
        lambda: game.evaluate(state, side),
        lambda: game.evaluate_many([state], side),
        lambda: game.opponent(side),
    ]
    for call in calls:
        with pytest.raises(UnknownSide) as refused:
            call()
        assert refused.value.code == "not-a-side"
        assert isinstance(refused.value, InvalidPosition)
        assert all(s in str(refused.value) for s in game.sides)


@pytest.mark.parametrize(("name", "ruleset"), GAMES)
def test_the_sides_still_read_as_before(name: str, ruleset: str) -> None:
    game = ludotheque.load(name, ruleset)
    state = started(name, ruleset)
    first, second = game.sides
    assert game.opponent(first) == second and game.opponent(second) == first
    a, b = game.evaluate(state, first), game.evaluate(state, second)
    assert a == pytest.approx(-b, abs=1e-9)
    assert game.evaluate_many([state, state], first) == pytest.approx([a, a])


@pytest.mark.parametrize(("name", "ruleset"), GAMES)
def test_what_is_not_a_state_of_the_game_is_refused(name: str, ruleset: str) -> None:
    game = ludotheque.load(name, ruleset)
    others = [n for n, _ in GAMES if n != name]
    for thing in [None, "c3 a1", 3, ludotheque.load(others[0]).start()]:
        with pytest.raises(NotAState) as refused:
            game.evaluate(thing, game.sides[0])  # type: ignore[arg-type]
        assert refused.value.code == "not-a-state"
        with pytest.raises(NotAState):
            game.evaluate_many([thing], game.sides[0])  # type: ignore[list-item]


def test_backgammon_helpers_refuse_a_side_not_of_the_game() -> None:
    state = started("backgammon", "money")
    assert isinstance(state, BackgammonState)
    for call in (
        lambda: state.pip_count("White"),
        lambda: state.board("w"),
        lambda: state.checkers("x"),
        lambda: state.resignation_value("Black"),
        lambda: state.may_double("rebels"),
    ):
        with pytest.raises(UnknownSide):
            call()
    assert state.pip_count("white") == 167 and state.may_double("black") in (True, False)


def test_defiance_dead_zones_refuse_a_side_not_of_the_game() -> None:
    state = ludotheque.load("defiance", "8x8").start()
    assert isinstance(state, DefianceState)
    with pytest.raises(UnknownSide):
        state.dead_zones("white")
    assert state.dead_zones("imperium") == []


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=8), st.floats(), st.booleans(),
                 st.integers(max_value=-1), st.lists(st.integers(), max_size=2)))  # fmt: skip
def test_perft_refuses_what_is_not_a_depth(depth: Any) -> None:
    with pytest.raises(InvalidPosition) as refused:
        perft(ludotheque.load("general").start(), depth)
    assert refused.value.code == "bad-perft-depth"


def test_perft_refuses_what_is_not_a_state() -> None:
    for thing in (None, "c3 a1", 7):
        with pytest.raises(NotAState):
            perft(thing, 1)  # type: ignore[arg-type]
    assert perft(ludotheque.load("general").start(), 1) == 24


def test_the_analysis_refuses_what_is_not_a_state_a_record_a_count_or_a_strength() -> None:
    from ludotheque.analysis import analyse, best_moves

    state = ludotheque.load("general").start()
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: best_moves(None, 3), "not-a-game-state"),  # type: ignore[arg-type]
        (lambda: best_moves(state, 0), "bad-move-count"),
        (lambda: best_moves(state, "3"), "bad-move-count"),  # type: ignore[arg-type]
        (lambda: best_moves(state, 3, "superdeep"), "unknown-strength"),
        (lambda: analyse(None), "not-a-record"),  # type: ignore[arg-type]
        (lambda: analyse('{"game": "general"}'), "not-a-record"),  # type: ignore[arg-type]
    ]
    for call, code in cases:
        with pytest.raises(InvalidPosition) as refused:
            call()
        assert refused.value.code == code
    assert len(best_moves(state, 2, "quick")) == 2


@pytest.mark.parametrize(("name", "ruleset"), GAMES)
def test_a_move_far_too_long_is_refused_quoting_its_start_only(name: str, ruleset: str) -> None:
    """A refusal quoted the whole text: a 1 MB Defiance turn gave a 1 MB message."""
    state = started(name, ruleset)
    legal = str(state.legal_moves()[0])
    for text in (legal + ";P2.2-P3.2" * 100_000, legal + " 13/7" * 100_000, " " * 10_000 + legal):
        if text.strip() == legal:
            assert state.play(text) == state.play(legal)  # spaces around a move are not its text
            continue
        with pytest.raises(IllegalMove) as refused:
            state.play(text)
        assert refused.value.code == "move-too-long" and len(str(refused.value)) < 120


def test_an_action_of_the_factored_view_is_refused_as_half_a_turn() -> None:
    """``play(action)`` said "Action(kind=0, cell=0, direction=0) (Action) is not a turn"."""
    state = ludotheque.load("defiance", "8x8").start()
    assert isinstance(state, DefianceState)
    action = state.legal_actions()[0]
    with pytest.raises(IllegalMove) as refused:
        state.play(action)
    assert refused.value.code == "action-not-turn"
    assert f"the action {action.text(state.game.geo)} alone" in str(refused.value)
