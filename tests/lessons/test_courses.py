"""The lessons' courses, checked by the engines: every step's answer is legal and meets its
goal, its typical wrong move does not, and each goal is a rule decided on the engine's states
(other moves meet it too, or none but one can), never the answer's text."""

from __future__ import annotations

import pytest

from ludotheque import load
from ludotheque.core import CHANCE
from ludotheque.lessons import COURSES, Course, Step, check, start_state

STEPS = [(course.game, step) for course in COURSES.values() for step in course.steps]


def ids(value: object) -> str:
    return value.id if isinstance(value, Step) else str(value)


@pytest.mark.parametrize("course", COURSES.values(), ids=list(COURSES))
def test_each_game_has_a_short_course(course: Course) -> None:
    assert 5 <= len(course.steps) <= 8
    assert len(set(course.ids)) == len(course.steps)


@pytest.mark.parametrize(("game", "step"), STEPS, ids=ids)
def test_the_answer_is_legal_and_meets_the_goal(game: str, step: Step) -> None:
    state = start_state(game, step)
    assert state.outcome() is None, "a step starts from a game still going"
    verdict = check(game, step, step.answer)
    assert verdict.result == "solved", verdict
    # the engine's own list has it: a legal move (or roll), not just a readable one
    if state.to_move == CHANCE:
        assert verdict.played in {str(o) for o, _ in state.chance_outcomes()}
    else:
        assert state.parse_move(step.answer) in list(state.legal_moves())
    assert verdict.position == state.play(state.parse_move(step.answer)).position()


@pytest.mark.parametrize(("game", "step"), STEPS, ids=ids)
def test_the_typical_wrong_move_does_not(game: str, step: Step) -> None:
    verdict = check(game, step, step.wrong)
    assert verdict.result in ("missed", "illegal")
    if verdict.result == "illegal":
        assert verdict.refusal is not None and str(verdict.refusal)
        assert verdict.position == start_state(game, step).position()  # the position kept
    else:
        assert verdict.position != start_state(game, step).position()


@pytest.mark.parametrize(("game", "step"), STEPS, ids=ids)
def test_every_legal_move_is_judged_by_the_goal_alone(game: str, step: Step) -> None:
    """Every legal move gets a verdict of the goal (no move is refused that the engine plays),
    at least one move solves the step, and at least one legal move misses it or the wrong move
    is refused: the step teaches a choice or a refusal."""
    state = start_state(game, step)
    moves = (
        [o for o, _ in state.chance_outcomes()] if state.to_move == CHANCE else state.legal_moves()
    )
    results = {check(game, step, str(m)).result for m in moves}
    assert "illegal" not in results
    assert "solved" in results
    assert "missed" in results or check(game, step, step.wrong).result == "illegal"


def test_a_goal_accepts_any_move_that_shows_the_rule() -> None:
    """Goals are predicates on the engine's states: another move that meets them is accepted."""
    general = COURSES["general"]
    capture = general.step("capture")
    assert capture is not None
    assert check("general", capture, "c2-d2xc3e1").result == "solved"  # the other pair
    opening = COURSES["backgammon"].step("opening")
    assert opening is not None
    assert check("backgammon", opening, "w6b1").result == "solved"
    assert check("backgammon", opening, "w3b3").result == "illegal"  # equal dice: rolled again
    place = COURSES["defiance"].step("place")
    assert place is not None
    assert check("defiance", place, "b2>SW;P2.2-P2.3").result == "solved"


def test_the_engine_refuses_what_the_rules_refuse() -> None:
    cap = COURSES["backgammon"].step("cap")
    assert cap is not None
    verdict = check("backgammon", cap, "7/6 13/11")
    assert verdict.result == "illegal" and verdict.refusal is not None
    assert verdict.refusal.code == "full-point"
    command = COURSES["defiance"].step("command")
    assert command is not None
    walled = check("defiance", command, "h8>S;P3.2-P3.3")
    assert walled.refusal is not None and walled.refusal.code == "walled-step"
    rulesets = {(c.game, s.ruleset) for c in COURSES.values() for s in c.steps}
    for game, ruleset in rulesets:
        assert load(game, ruleset).ruleset == ruleset
