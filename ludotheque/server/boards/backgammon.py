"""The backgammon board: the dice, pip counts, the IDs other programs read, and the
one-checker-at-a-time view of a turn (asked for step by step by the browser)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import State
from ...games.backgammon import BackgammonState, PartialTurn, Step


def legal(state: State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def extra(state: State) -> dict[str, Any]:
    assert isinstance(state, BackgammonState)
    data: dict[str, Any] = {
        "dice": None if state.dice is None else [state.dice.high, state.dice.low],
        "pips": state.pip_counts(),
        "cap": state.game.cap,
    }
    if state.game.ruleset == "standard":
        data["gnubg"] = f"{state.gnubg_id()}:{state.gnubg_match_id()}"
        data["xgid"] = state.xgid()
    return data


def step_json(step: Step) -> dict[str, Any]:
    return {"src": step.src, "dst": step.dst, "die": step.die, "hit": step.hit, "text": str(step)}


def partial(state: State, request: dict[str, Any]) -> dict[str, Any]:
    """The turn after the single moves ``request["steps"]`` (each ``[src, dst, die]``)."""
    assert isinstance(state, BackgammonState)
    steps: Sequence[Any] = request.get("steps") or []
    if (
        not isinstance(steps, list)
        or len(steps) > 4
        or not all(
            isinstance(s, list) and len(s) == 3 and all(isinstance(v, int) for v in s)
            for s in steps
        )
    ):
        raise ValueError("steps are a list of [from, to, die]")
    done = [(s[0], s[1], s[2]) for s in steps]
    turn: PartialTurn = state.partial_turn(done)
    return {
        "done": [step_json(s) for s in turn.done],
        "next": [step_json(s) for s in turn.next_steps],
        "dice_left": list(turn.dice_left),
        "play": None if turn.play is None else str(turn.play),
        "white": list(turn.white),
        "black": list(turn.black),
    }


def note(before: State, text: str) -> str:
    """Why a pass was forced (shown in the move list)."""
    if text == "pass" and isinstance(before, BackgammonState):
        return before.pass_reason()
    return ""
