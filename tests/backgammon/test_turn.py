"""The one-checker-at-a-time view, checked exhaustively against the full list of legal plays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import ludotheque
from ludotheque import IllegalMove, InvalidMove
from ludotheque.games.backgammon import BackgammonState, Step
from tests.backgammon.strategies import positions

SEED = ludotheque.load("backgammon")
STANDARD = ludotheque.load("backgammon", "standard")


def walk_all(state: BackgammonState) -> set[str]:
    """Follow every offered single move to the end; every path must end in a legal play."""
    reached: set[str] = set()

    def walk(done: list[Step]) -> None:
        turn = state.partial_turn(done)
        if turn.play is not None:
            assert not turn.next_steps, "a finished turn offers no more moves"
            reached.add(str(turn.play))
            return
        assert turn.next_steps, f"dead end after {[str(s) for s in done]}"
        for step in turn.next_steps:
            walk([*done, step])

    walk([])
    return reached


def check_exhaustively(state: BackgammonState) -> None:
    assert walk_all(state) == {str(m) for m in state.legal_moves()}


# No health check is suppressed: none fires (checked over many seeds). With deadline=None,
# too_slow allows 30 s of data generation, and the strategies neither filter nor overrun.
@settings(max_examples=120, deadline=None)
@given(positions(cap=5))
def test_every_path_ends_in_a_legal_play_seed(text: str) -> None:
    check_exhaustively(SEED.parse_position(text))


@settings(max_examples=120, deadline=None)
@given(positions(cap=0))
def test_every_path_ends_in_a_legal_play_standard(text: str) -> None:
    check_exhaustively(STANDARD.parse_position(text))


@settings(max_examples=80, deadline=None)
@given(positions(cap=5, home_only=True))
def test_bear_off_paths(text: str) -> None:
    check_exhaustively(SEED.parse_position(text))


def test_opening_and_table_rows() -> None:
    for game in (SEED, STANDARD):
        for dice in ("31", "66", "54", "21", "55"):
            check_exhaustively(
                game.parse_position(f"W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w {dice}")
            )
        for row in ("W[5,1x5] B[1x2] w 54", "W[12,6x5,3] B[20x2,14x2] w 61",
                    "W[bar,24x5,6x5] B[3x2] w 31", "W[5,2] B[1x2] w 61",
                    "W[5,1x5] B[1x2] w 44", "W[12] B[20x2] w 61"):  # fmt: skip
            check_exhaustively(game.parse_position(row))


def test_smaller_die_alone_is_not_offered_when_the_larger_must_be_played() -> None:
    turn = STANDARD.parse_position("W[12] B[20x2] w 61").partial_turn()
    assert [str(s) for s in turn.next_steps] == ["12/6"]
    done = STANDARD.parse_position("W[12] B[20x2] w 61").partial_turn(["12/6"])
    assert done.can_finish and str(done.play) == "12/6" and done.dice_left == (1,)


def test_pass_turn_can_finish_at_once() -> None:
    turn = SEED.parse_position("W[bar,24x5,6x5] B[3x2] w 31").partial_turn()
    assert turn.next_steps == () and turn.can_finish and str(turn.play) == "pass"


def test_steps_accepted_as_objects_text_or_tuples() -> None:
    s = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    by_text = s.partial_turn(["8/5", "6/5"])
    first = s.partial_turn().next_steps
    step = next(st for st in first if str(st) == "8/5")
    by_object = s.partial_turn([step, (6, 5, 1)])
    assert by_text == by_object
    assert str(by_text.play) == "8/5 6/5"
    assert by_text.white[5] == 2 and by_text.white[8] == 2 and by_text.white[6] == 4
    assert s.play(by_text.play).position().startswith("W[24x2,13x5,8x2,6x4,5x2]")


def test_either_die_must_be_named_when_both_work() -> None:
    s = STANDARD.parse_position("W[5,4] B[1x2] w 65")
    with pytest.raises(IllegalMove, match="say which die"):
        s.partial_turn(["5/off"])
    turn = s.partial_turn([(5, 0, 6)])
    assert turn.dice_left == (5,)


@pytest.mark.parametrize(
    ("done", "reason"),
    [
        (["13/12"], "not allowed"),
        (["8/5", "8/5"], "not allowed"),
        (["8/5 6/5"], "from/to"),
        (["x/5"], "cannot read"),
        ([42], "cannot read"),
        ([(8, 4, 4)], "not allowed"),
    ],
)
def test_bad_steps(done: list[object], reason: str) -> None:
    s = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    with pytest.raises(IllegalMove, match=reason):
        s.partial_turn(done)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "done", [None, 3, 3.5, "x", "13/7", "", b"13/7", {}, {"13/7": 1}, object()]
)
def test_steps_that_are_no_list_are_refused(done: object) -> None:
    s = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    with pytest.raises(InvalidMove, match="must be a list like") as refused:
        s.partial_turn(done)  # type: ignore[arg-type]
    assert refused.value.code == "steps-not-a-list"
    assert refused.value.params["type"] == type(done).__name__


@pytest.mark.parametrize(
    "done", [[None], [3], [{}], [[]], [b"8/5"], [(8, 5)], [(8, 5, 3.0)], [(True, True, True)]]
)
def test_steps_of_the_wrong_type_are_refused(done: list[object]) -> None:
    s = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    with pytest.raises(InvalidMove, match="move 1: cannot read") as refused:
        s.partial_turn(done)  # type: ignore[arg-type]
    assert refused.value.code == "step-not-text"


def test_a_tuple_of_steps_is_a_list_too() -> None:
    s = STANDARD.parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    assert s.partial_turn(("8/5", "6/5")) == s.partial_turn(["8/5", "6/5"])


def test_no_turn_at_chance_nodes() -> None:
    with pytest.raises(IllegalMove, match="no roll"):
        STANDARD.start().partial_turn()
