"""The General's board: legal moves as notation (the browser reads from/to/landing/pair out of
it, it never decides what is legal) and the counts shown beside the board."""

from __future__ import annotations

from typing import Any

from ....core import State
from ....games.general import GeneralState


def legal(state: State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def extra(state: State) -> dict[str, Any]:
    assert isinstance(state, GeneralState)
    return {"captured": 16 - state.rebel_count, "flight": state.flight_available}
