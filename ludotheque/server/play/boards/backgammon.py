"""The backgammon board: the dice, pip counts, the IDs other programs read, the doubling cube
and the match score (``money`` and ``match``), and the one-checker-at-a-time view of a turn
(asked for step by step by the browser)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ....core import State
from ....games.backgammon import BackgammonState, PartialTurn, Step
from ....games.backgammon.cube import DOUBLED, RESIGN_NAMES, RESIGNED, RESIGNING
from ....games.backgammon.notation import WHY
from ....record import Record
from ...i18n.refusals import NNBSP, reason_in, typeset
from ..points import summary


def legal(state: State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def extra(state: State) -> dict[str, Any]:
    assert isinstance(state, BackgammonState)
    data: dict[str, Any] = {
        "dice": None if state.dice is None else [state.dice.high, state.dice.low],
        "pips": state.pip_counts(),
        "cap": state.game.cap,
    }
    if not state.game.cap:  # the IDs know no five-checker cap
        data["gnubg"] = state.gnubg_id()
        data["xgid"] = state.xgid()
    stakes = state.stakes
    if stakes is not None:
        data["cube"] = {
            "value": stakes.value,
            "owner": state.cube_owner,
            "pending": "double" if stakes.pending == DOUBLED
            else "resign" if stakes.pending == RESIGNING else None,
            "offer": RESIGN_NAMES[stakes.offer] if stakes.pending == RESIGNING else None,
            "jacoby": stakes.jacoby,
            "may_double": state.may_double(),  # the side on turn, the cube allowing
            # what each side would lose by giving the game up now (1, 2 or 3 times the cube)
            "at_stake": {side: state.points_if_resigned(side) for side in ("white", "black")}
            if state.outcome() is None
            else None,
        }  # fmt: skip
        if stakes.length:
            data["match"] = {
                "length": stakes.length,
                "score": {"white": stakes.score[0], "black": stakes.score[1]},
                "crawford": stakes.crawford,
                "post_crawford": not stakes.crawford and max(stakes.score) == stakes.length - 1,
            }
    return data


def record_extra(record: Record) -> dict[str, Any]:
    """What the page needs of the whole game (not only its position): for games played for
    points, the points won, the match score after the game and what follows it; for every
    finished game, how it was won (``win_kind``) and whether that counts (``kind_scores``)."""
    return {**summary(record), **win_kind(record)}


def win_kind(record: Record) -> dict[str, Any]:
    """How a finished game was won, as players say it: ``single``, ``gammon`` or
    ``backgammon`` for a game borne off (in every ruleset: whether a gammon scores is the
    ruleset's, ``kind_scores``), or what a resignation gave up; nothing for a drop, a time-out
    or an unfinished game."""
    over = record.outcome()
    state = record.state
    if over is None or over.winner is None or not isinstance(state, BackgammonState):
        return {}
    loser = state.game.opponent(over.winner)
    stakes = state.stakes
    scores = stakes is not None and stakes.gammons_count()
    if over.reason in ("borne-off", "gammon", "backgammon"):
        kind = state.resignation_value(loser)  # what the loser's checkers lose: 1, 2 or 3
    elif over.reason == "resignation":
        resigned = stakes is not None and stakes.ended == RESIGNED
        kind = stakes.offer if resigned else state.resignation_value(loser)  # type: ignore[union-attr]
    else:
        return {}
    return {"win_kind": RESIGN_NAMES[kind], "kind_scores": bool(scores)}


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
    """Why a pass was forced, or the cube's value after a double (shown in the move list)."""
    if text == "pass" and isinstance(before, BackgammonState):
        return before.pass_reason()
    if text == "double" and isinstance(before, BackgammonState):
        return str(before.cube_value * 2)
    return ""


def note_in(before: State, text: str, lang: str) -> str | None:
    """``note`` in ``lang``, where it has words (a forced pass's reasons), else ``None``."""
    if text != "pass" or not isinstance(before, BackgammonState) or lang == "en":
        return None
    reasons = before.pass_reasons()
    if not reasons:
        return None
    said = []
    for reason in reasons:
        why = reason_in(lang, reason.kind, WHY[reason.kind], reason.values)
        place = f"{reason.move} avec le {reason.die}" if reason.entering else reason.move
        said.append(typeset(f"{place} : {why}"))
    return f"{NNBSP}; ".join(dict.fromkeys(said))
