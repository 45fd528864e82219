"""What a client is told about a game: the position, the legal moves, the history, the seat."""

from __future__ import annotations

from typing import Any

from ..clock.table import table_view
from .boards import board
from .offers import offers_view
from .session import BOTH, WATCH, GameSession, next_epoch


def snapshot(session: GameSession, seat: str) -> dict[str, Any]:
    """A JSON-ready view of ``session`` for a client holding ``seat``."""
    record = session.record
    state = record.state
    game = state.game
    outcome = record.outcome()
    adapter = board(session.game)
    states = record.states
    history = _history(session, states)
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
        # what a board needs of the whole game (backgammon: the points won, the match after it)
        "game_extra": adapter.record_extra(record) if hasattr(adapter, "record_extra") else {},
        "outcome": _outcome(session),
        # abort, draw and rematch offers, as this seat may make and answer them (see offers)
        "offers": offers_view(session, seat, session.now()),
        "undo": {
            "free": session.mode != "friend" and seat != WATCH,
            "request": session.undo_request,
            "refused": session.undo_refused,  # the side whose request was refused
            "allowed": not session.rated,
        },
        "rematch": session.rematch_id is not None,
        # who offered the rematch, and who turned it down (in this game, or, in a rematch,
        # the side its decliner would have had: the player who offered it is told)
        "rematch_by": session.rematch_by,
        "rematch_declined": session.rematch_declined,
        "declined": session.declined,
        "watch": seat == WATCH,
        # the clock, the players' names and ratings, who is away (see timing.table_view)
        "table": table_view(session, session.now()),
        # a finished game's clocks as they stood move by move, for its replay
        "clocks": sorted([n, left] for n, left in session.clock_plies.items())
        if outcome is not None and session.clock is not None
        else None,
        "chat": _chat_channel(session, seat),
        "dice": None
        if record.seed_sha256 is None
        else {
            "sha256": record.seed_sha256,
            "seed": record.seed if outcome is not None else None,
            "rolls": list(record.chance),
            "draws": list(record.draws),
        },
    }


def _outcome(session: GameSession) -> dict[str, Any] | None:
    """How the game ended, and who ended it when a player did (aborted it, claimed it)."""
    outcome = session.record.outcome()
    if outcome is None:
        return None
    view: dict[str, Any] = {"winner": outcome.winner, "reason": outcome.reason}
    if session.ended_by is not None:
        view["by"] = session.ended_by
    return view


def _chat_channel(session: GameSession, seat: str) -> str | None:
    """The chat this seat reads and writes: the players' between two players, the
    watchers' for watchers (``None``: no chat, at one screen or against the computer)."""
    if seat == WATCH:
        return "watchers"
    if session.mode == "friend" and seat != BOTH:
        return "players"
    return None


def _history(session: GameSession, states: list[Any]) -> list[dict[str, Any]]:
    """The entries of the move list, kept between snapshots: a game's history only grows at
    its end (an undo cuts it), and writing every position string again for every message was
    a good part of each broadcast's cost. A cut starts a new ``history_epoch``: a client told
    the history of an older epoch is sent the whole of it again, not only what is new."""
    cache: list[tuple[Any, dict[str, Any]]] = session.history_cache
    plies = session.record.plies
    keep = 0
    while keep < len(cache) and keep < len(plies) and cache[keep][0] is states[keep + 1]:
        keep += 1
    if keep < len(cache):
        session.history_epoch = next_epoch()
    del cache[keep:]
    adapter = board(session.game)
    note = getattr(adapter, "note", None)
    note_in = getattr(adapter, "note_in", None)
    for i in range(keep, len(plies)):
        kind, text = plies[i]
        entry = {"kind": kind, "text": text, "side": states[i].to_move,
                 "position": states[i + 1].position()}  # fmt: skip
        if note is not None and kind == "move":
            entry["note"] = note(states[i], text)
            french = note_in(states[i], text, "fr") if note_in is not None else None
            if french:  # a forced pass's reasons, for French pages
                entry["note_fr"] = french
        cache.append((states[i + 1], entry))
    return [entry for _, entry in cache]  # shared by every view: never changed once made


def since(view: dict[str, Any], epoch: int, known: tuple[int, int] | None) -> dict[str, Any]:
    """``view`` for a client that already has ``known`` = (epoch, length) of its history:
    only the new entries, from ``history_from`` on (a move's message then stays small however
    long the game is). The whole view when the client knows nothing of this epoch."""
    if known is None or known[0] != epoch or known[1] > len(view["history"]):
        return view
    start = known[1]
    return {**view, "history": view["history"][start:], "history_from": start}
