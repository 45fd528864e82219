"""The Defiance and Domain board: the legal actions (the first parts of turns; a whole list of
turns is thousands long), pools, Commands, control and dead zones, and — asked for one action
at a time — what that action captures and which Command moves may follow it."""

from __future__ import annotations

from typing import Any

from ....core import State
from ....games.defiance import DefianceState


def legal(state: State) -> list[str]:
    assert isinstance(state, DefianceState)
    geo = state.game.geo
    return [a.text(geo) for a in state.legal_actions()]


def extra(state: State) -> dict[str, Any]:
    assert isinstance(state, DefianceState)
    return {
        "n": state.game.geo.n,
        "pools": state.pools,
        "rebel_command": state.rebel_command,
        "imperial_commands": list(state.imperial_commands),
        "controlled": state.controlled(),
        "dead_zones": state.dead_zones() if state.side else [],
    }


def partial(state: State, request: dict[str, Any]) -> dict[str, Any]:
    """What ``request["action"]`` (``e5>N`` or ``c4@W``) does."""
    assert isinstance(state, DefianceState)
    action = request.get("action")
    if not isinstance(action, str):
        raise ValueError("say which action, like 'e5>N'")
    geo = state.game.geo
    view = state.after_action(action)
    return {
        "action": view.action.text(geo),
        "captured": list(view.captured),
        "outcome": None
        if view.outcome is None
        else {"winner": view.outcome.winner, "reason": view.outcome.reason},
        "command_moves": [
            {
                "move": cm.text(geo),
                "src": geo.point_names[cm.src],
                "dst": geo.point_names[cm.dst],
                "captures": list(caps),
            }
            for cm, caps in view.command_moves
        ],
    }
