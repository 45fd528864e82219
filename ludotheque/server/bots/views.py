"""What the Bot API streams, shaped like lichess's Bot API (pure: built from a game's view and
the lobby's challenges).

A game stream says ``gameFull`` first, then ``gameState`` after every change and ``chatLine``
for every line of the players' chat. The event stream says ``gameStart`` and ``gameFinish``
for the account's games, and ``challenge``, ``challengeCanceled``, ``challengeDeclined`` for
the challenges it sent or received. Where lichess's shapes speak of chess (``fen``,
``wtime``/``btime``, ``white``/``black``), ours speak of the game's own sides and position
string: ``position``, ``times`` by side, ``sides``; ``moves`` is a list (a backgammon move
has spaces in it).
"""

from __future__ import annotations

from typing import Any

from ..clock.controls import ABORTED, LEFT, TIME_OUT

STATUS = {ABORTED: "aborted", TIME_OUT: "outoftime", LEFT: "timeout", "resignation": "resign",
          "agreement": "draw", "abandoned": "aborted"}  # fmt: skip
"""lichess's status of a game that ended this way (others: ``mate`` when someone won by the
rules, ``draw`` when nobody did)."""


def status_of(outcome: dict[str, Any] | None) -> str:
    """lichess's word for how a game stands: ``started``, or how it ended."""
    if outcome is None:
        return "started"
    reason = str(outcome.get("reason"))
    if reason in STATUS:
        return STATUS[reason]
    return "mate" if outcome.get("winner") is not None else "draw"


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else max(0, round(seconds * 1000))


def match_goes_on(view: dict[str, Any]) -> bool:
    """Whether the game is a game of a backgammon match that goes on after it (its next game
    is made once both sides ask for it)."""
    return (view.get("game_extra") or {}).get("next") == "next"


def game_state(view: dict[str, Any], next_game: str | None = None) -> dict[str, Any]:
    """A ``gameState`` of a seat's view (``play.snapshot``): the moves so far, the position
    string, whose turn, the legal moves, the clocks (milliseconds left by side), the dice and
    the cube, the draw offer standing, and how the game stands; once over, whether a match
    goes on, and the id of its next game once made (``next_game``)."""
    outcome = view.get("outcome")
    table = view.get("table") or {}
    clock = table.get("clock")
    extra = view.get("extra") or {}
    offers = view.get("offers") or {}
    state: dict[str, Any] = {
        "type": "gameState",
        "moves": [e["text"] for e in view.get("history", []) if e.get("kind") == "move"],
        "ply": view["ply"],
        "position": view["position"],
        "toMove": view.get("to_move"),
        "legal": list(view.get("legal") or []) if view.get("can_move") else [],
        "times": None
        if clock is None
        else {side: _ms(left) for side, left in clock.get("left", {}).items()},
        "delay": None if clock is None else _ms(clock.get("delay")),
        "dice": extra.get("dice"),
        "cube": extra.get("cube"),
        "match": extra.get("match"),
        "drawOffer": offers.get("draw"),
        "status": status_of(outcome),
    }
    if outcome is not None:
        state["winner"] = outcome.get("winner")
        state["reason"] = outcome.get("reason")
        state["matchGoesOn"] = match_goes_on(view)
        state["nextGame"] = next_game
    return state


def _player(view: dict[str, Any], side: str) -> dict[str, Any]:
    person = ((view.get("table") or {}).get("people") or {}).get(side) or {}
    return {
        "name": person.get("name"),
        "title": "BOT" if person.get("bot") else None,
        "rating": person.get("rating"),
        "provisional": bool(person.get("provisional", True)),
        "level": person.get("level"),
    }


def _control(view: dict[str, Any]) -> dict[str, Any] | None:
    control = (view.get("table") or {}).get("control")
    if control is None:
        return None
    return {"key": control["key"], "kind": control["kind"], "speed": control["speed"]}


def game_full(view: dict[str, Any], side: str) -> dict[str, Any]:
    """The first line of a game stream: the game, its players and its state now."""
    return {
        "type": "gameFull",
        "id": view["id"],
        "game": view["game"],
        "ruleset": view["ruleset"],
        "rated": bool((view.get("table") or {}).get("rated")),
        "clock": _control(view),
        "sides": view["sides"],
        "side": side,
        "players": {s: _player(view, s) for s in view["sides"]},
        "initialPosition": view["start"],
        "state": game_state(view),
    }


def game_event(kind: str, view: dict[str, Any], side: str) -> dict[str, Any]:
    """A ``gameStart`` or ``gameFinish`` event of the event stream, for the bot's ``side``."""
    opponent = next((s for s in view["sides"] if s != side), side)
    state = game_state(view)
    game: dict[str, Any] = {
        "id": view["id"],
        "gameId": view["id"],
        "game": view["game"],
        "ruleset": view["ruleset"],
        "side": side,
        "position": view["position"],
        "isMyTurn": view.get("to_move") == side and state["status"] == "started",
        "lastMove": state["moves"][-1] if state["moves"] else None,
        "opponent": _player(view, opponent),
        "rated": bool((view.get("table") or {}).get("rated")),
        "clock": _control(view),
        "status": state["status"],
        "compat": {"bot": True, "board": False},
    }
    if state["status"] != "started":
        game["winner"] = state.get("winner")
        game["reason"] = state.get("reason")
        game["matchGoesOn"] = state["matchGoesOn"]
    return {"type": kind, "game": game}


def challenge(seek: dict[str, Any], me: str, status: str = "created") -> dict[str, Any]:
    """A challenge (a lobby seek to a named player) as the event stream tells it: to ``me``
    (``direction`` ``in``) or from ``me`` (``out``)."""
    mine = bool(seek.get("mine"))
    return {
        "id": seek["id"],
        "url": f"/lobby#{seek['id']}",
        "status": status,
        "challenger": {"name": seek.get("name") if not mine else me,
                       "rating": seek.get("rating"), "title": "BOT" if seek.get("bot") else None},
        "destUser": {"name": seek.get("opponent")},
        "game": seek.get("game"),
        "ruleset": seek.get("ruleset"),
        "rated": bool(seek.get("rated")),
        "timeControl": {"key": seek.get("control"), "name": seek.get("control_name")},
        "side": seek.get("side"),
        "direction": "out" if mine else "in",
    }  # fmt: skip


def chat_line(message: dict[str, Any], sides: dict[str, str | None]) -> dict[str, Any]:
    """A line of the players' chat as a ``chatLine`` (``room`` ``player``)."""
    side = message.get("side")
    name = message.get("name") or (sides.get(side) if isinstance(side, str) else None) or side
    return {"type": "chatLine", "room": "player", "username": name, "side": side,
            "text": message.get("text")}  # fmt: skip
