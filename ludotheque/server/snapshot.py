"""What a client is told about a game: the position, the legal moves, the history, the seat."""

from __future__ import annotations

from typing import Any

from .boards import board
from .service import BOTH, WATCH, GameSession


def snapshot(session: GameSession, seat: str) -> dict[str, Any]:
    """A JSON-ready view of ``session`` for a client holding ``seat``."""
    record = session.record
    state = record.state
    game = state.game
    outcome = record.outcome()
    adapter = board(session.game)
    states = record.states
    history = []
    note = getattr(adapter, "note", None)
    for i, (kind, text) in enumerate(record.plies):
        mover = states[i].to_move
        entry = {"kind": kind, "text": text, "side": mover, "position": states[i + 1].position()}
        if note is not None and kind == "move":
            entry["note"] = note(states[i], text)
        history.append(entry)
    to_move = None if outcome is not None else state.to_move
    my_sides = set(game.sides) if seat == BOTH else ({seat} if seat in game.sides else set())
    if session.computer_side:
        my_sides.discard(session.computer_side)
    can_move = to_move in my_sides
    return {
        "id": session.id,
        "game": session.game,
        "ruleset": session.ruleset,
        "mode": session.mode,
        "sides": list(game.sides),
        "players": session.players,
        "computer": (
            {"side": session.computer_side, "level": session.level, "thinking": session.thinking}
            if session.computer_side
            else None
        ),
        "seat": seat,
        "my_sides": sorted(my_sides),
        "start": states[0].position(),
        "position": state.position(),
        "to_move": to_move,
        "can_move": can_move,
        "ply": session.ply,
        "history": history,
        "legal": adapter.legal(state) if to_move not in (None, "chance") else [],
        "extra": adapter.extra(state),
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason},
        "undo": {
            "free": session.mode != "friend" and seat != WATCH,
            "request": session.undo_request,
        },
        "rematch": session.rematch_id is not None,
        "watch": seat == WATCH,
        "dice": None
        if record.seed_sha256 is None
        else {
            "sha256": record.seed_sha256,
            "seed": record.seed if outcome is not None else None,
            "rolls": list(record.chance),
        },
    }
