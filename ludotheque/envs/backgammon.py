"""Backgammon for the frameworks: one checker at a time; 151 actions, observations of shape (205,).

Why one checker at a time. A whole play does not fit a small fixed range: with a double it is up
to four checker moves, so an encoding of whole plays needs tens of thousands of actions, or a
cut of the double into two pairs of moves (OpenSpiel's own backgammon: 1,352 actions, each two
checker moves). One checker per decision needs only 151 actions, each meaning one thing on
every board (this checker, this die), which suits a policy network.

Which orders. The checkers of a play are chosen in the play's canonical order (the order its
notation writes: origins highest first, the bar first, among the orders that can be played), and
at each decision the mask offers exactly the next single moves of the legal plays that agree
with the moves made so far. So every legal play (dice used to the maximum, the larger die when
only one can be used, the seed's five-checker cap) is exactly one path of decisions: no
transpositions, and a turn ends by itself when its play is complete. The engine's
``state.partial_turn`` offers every order instead (a person moving checkers on a board wants
that), but each of its calls searches the rest of the turn again, about ten times the cost of a
whole engine move; the canonical orders need only the legal plays.

Places are in the mover's own view: points 1–24, 25 the bar (0 is off). Actions:

- move a checker from place ``o`` (1–25) with die ``d`` (1–6): ``(o - 1) * 6 + (d - 1)``, 0 … 149;
- 150: pass, the one legal action when no checker can move.

Chance outcomes: the opening roll, white's die ``w`` and black's ``b`` (never equal), is
``(w - 1) * 6 + (b - 1)``; a roll ``hl`` (high ≥ low) is ``(h - 1) * 6 + (l - 1)``; so 36
outcome numbers, of which 30 occur at the opening and 21 at a roll.

Observation (float32, 0–1), from the observer's side, in its own point numbering; the board is
the one after the checkers already moved this turn:

- 0 … 95: the observer's checkers on its points 1–24, four numbers a point (TD-Gammon's): one or
  more, two or more, three or more, (count − 3) / 12;
- 96 … 191: the opponent's checkers on the same points (the opponent's own point 25 − q), alike;
- 192, 193: the observer's and the opponent's checkers on the bar, over 15;
- 194, 195: the observer's and the opponent's checkers borne off, over 15;
- 196 … 201: the dice still to play this turn, for each face 1–6 how many, over 4;
- 202, 203: the observer, the opponent is to move (or to roll next);
- 204: the seed's five-checker cap applies.

Ends: bearing off all 15 checkers, and the frameworks' turn limit (``max_turns`` turns, 1,000 by
default: no result, "unfinished"; the rules have none). A game has at most ``5 * max_turns + 1``
actions (a roll and at most four checkers a turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..core import IllegalMove, State
from .base import Encoding, Node, Observation

PASS = 150
NUM_ACTIONS = 151
SHAPE = (205,)
_OPP = 96
_BAR, _OFF, _DICE, _TURN, _CAP = 192, 194, 196, 202, 204


def step_action(src: int, die: int) -> int:
    """The action moving a checker from place ``src`` (1–24, 25 the bar) with ``die``."""
    return (src - 1) * 6 + (die - 1)


def action_words(action: int) -> str:
    """An action in words, whatever the position: ``13 with a 3``, ``bar with a 5``, ``pass``."""
    if action == PASS:
        return "pass"
    if not 0 <= action < PASS:
        return f"no action {action}"
    o, d = divmod(action, 6)
    return f"{'bar' if o == 24 else o + 1} with a {d + 1}"


def chance_number(outcome: Any) -> int:
    """The chance outcome number of an opening roll or a roll."""
    if hasattr(outcome, "white"):
        return int((outcome.white - 1) * 6 + (outcome.black - 1))
    return int((outcome.high - 1) * 6 + (outcome.low - 1))


def _units(out: Observation, start: int, counts: np.ndarray[Any, np.dtype[np.float32]]) -> None:
    view = out[start : start + 96].reshape(24, 4)
    view[:, 0] = counts >= 1
    view[:, 1] = counts >= 2
    view[:, 2] = counts >= 3
    view[:, 3] = np.clip((counts - 3) / 12, 0, 1)


class TurnSoFar(NamedTuple):
    """The part of a turn already chosen: the legal plays that agree with it, and the single
    moves made (``(src, dst, die, hit)``, as ``Play.raw``)."""

    plays: tuple[Any, ...]
    done: tuple[tuple[int, int, int, bool], ...]

    def dice_left(self, state: Any) -> list[int]:
        """The dice not used yet."""
        dice = state.dice
        left = [dice.high] * 4 if dice.is_double else [dice.high, dice.low]
        for step in self.done:
            left.remove(step[2])
        return left


class BackgammonEncoding(Encoding):
    """Backgammon, either ruleset (see the module docstring)."""

    name = "backgammon"
    num_actions = NUM_ACTIONS
    observation_shape = SHAPE
    max_chance_outcomes = 36
    default_max_turns = 1000

    @property
    def max_game_length(self) -> int:
        return 5 * self.max_turns + 1

    def in_turn(self, node: Node) -> bool:
        return node.pending is not None and bool(node.pending.done)

    def _begin(self, state: State) -> Any:
        return TurnSoFar(tuple(state.legal_moves()), ())

    def _legal(self, node: Node) -> tuple[list[int], Sequence[Any]]:
        plays, done = node.pending
        if not plays[0].raw:
            return [PASS], [None]
        k = len(done)
        out: dict[int, Any] = {}
        for play in plays:
            step = play.raw[k]
            out.setdefault((step[0] - 1) * 6 + (step[2] - 1), step)
        return list(out), list(out.values())

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        plays, done = node.pending
        if action == PASS:
            return self._turn_done(node, node.state.play(plays[0]))
        k = len(done)
        src, die = what[0], what[2]
        left = tuple(p for p in plays if p.raw[k][0] == src and p.raw[k][2] == die)
        if k + 1 == len(left[0].raw):  # one play ends with these moves
            return self._turn_done(node, node.state.play(left[0]))
        return self._mid_turn(node, TurnSoFar(left, (*done, what)))

    def chance_outcomes(self, node: Node) -> list[tuple[int, float]]:
        if not node.is_chance:
            return []
        return sorted((chance_number(o), p) for o, p in node.state.chance_outcomes())

    def _apply_chance(self, node: Node, outcome: int) -> Node:
        for o, _ in node.state.chance_outcomes():
            if chance_number(o) == outcome:
                return self._after_chance(node, node.state.play(o))
        raise IllegalMove(f"chance outcome {outcome!r} cannot happen here")

    def chance_text(self, node: Node, outcome: int) -> str:
        for o, _ in node.state.chance_outcomes():
            if chance_number(o) == outcome:
                return str(o)
        return f"no chance outcome {outcome}"

    def boards(self, node: Node) -> dict[str, list[int]]:
        """Both sides' 26 counts (as ``state.board``) after the single moves made so far."""
        state: Any = node.state
        boards = {side: state.board(side) for side in self.sides}
        turn = node.pending
        if turn is not None and turn.done:
            mover = state.side
            other = self.sides[1 - self.sides.index(mover)]
            me, opp = boards[mover], boards[other]
            for src, dst, _, hit in turn.done:
                me[src] -= 1
                me[dst] += 1
                if hit:
                    opp[25 - dst] -= 1
                    opp[25] += 1
        return boards

    def observe(self, node: Node, player: int, out: Observation) -> None:
        state: Any = node.state
        me, other = self.sides[player], self.sides[1 - player]
        boards = self.boards(node)
        own, opp = boards[me], boards[other]
        own_counts = np.asarray(own, np.float32)
        opp_counts = np.asarray(opp[::-1], np.float32)  # the observer's numbering
        _units(out, 0, own_counts[1:25])
        _units(out, _OPP, opp_counts[1:25])
        out[_BAR] = own[25] / 15
        out[_BAR + 1] = opp[25] / 15
        out[_OFF] = own[0] / 15
        out[_OFF + 1] = opp[0] / 15
        if node.pending is not None:
            for die in node.pending.dice_left(state):
                out[_DICE + die - 1] += 0.25
        side = state.side
        if side is not None and node.outcome is None:
            out[_TURN if side == me else _TURN + 1] = 1.0
        if self.game.cap:  # type: ignore[attr-defined]
            out[_CAP] = 1.0

    def action_text(self, node: Node, action: int) -> str:
        legal = self.legal(node)
        if action not in legal:
            return action_words(action)
        if action == PASS:
            return "pass"
        src, dst, die, hit = legal[action]
        text = f"{_place(src)}/{_place(dst)}{'*' if hit else ''}"
        twins = sum(1 for s in legal.values() if (s[0], s[1]) == (src, dst))
        return f"{text} ({die})" if twins > 1 else text  # 1/off with a 3 or with a 4

    def _pending_text(self, node: Node) -> str:
        turn = node.pending
        if not turn.done:
            return ""
        done = " ".join(f"{_place(s)}/{_place(d)}{'*' if h else ''}" for s, d, _, h in turn.done)
        dice = "".join(str(d) for d in turn.dice_left(node.state)) or "none"
        return f"moved {done}; dice left {dice}"

    def turn_plans(self, node: Node) -> dict[Any, list[int]]:
        if node.player < 0:
            return {}
        plays, done = node.pending
        k = len(done)
        return {
            p: [(s - 1) * 6 + (d - 1) for s, _, d, _ in p.raw[k:]] if p.raw else [PASS]
            for p in plays
        }


def _place(place: int) -> str:
    return "bar" if place == 25 else "off" if place == 0 else str(place)
