"""Backgammon for the frameworks: one checker at a time; 157 actions, observations of shape (215,).

Why one checker at a time. A whole play does not fit a small fixed range: with a double it is up
to four checker moves, so an encoding of whole plays needs tens of thousands of actions, or a
cut of the double into two pairs of moves (OpenSpiel's own backgammon: 1,352 actions, each two
checker moves). One checker per decision needs only 151 checker actions, each meaning one thing
on every board (this checker, this die), which suits a policy network.

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
- 150: pass, the one legal action when no checker can move;
- the doubling cube (rulesets ``money`` and ``match``): 151 double, 152 roll (no double), 153
  take, 154 drop, 155 accept a resignation, 156 decline it (resigning is never offered).

The numbers are the same in every ruleset (the cube's are never legal without a cube).

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
- 204: the seed's five-checker cap applies;
- 205: the cube's value, log2 over 15 (0 without a cube); 206, 207: the observer, the opponent
  owns the cube; 208: a double waits for an answer; 209: the observer may double now;
- 210, 211: the observer's and the opponent's match scores over the match length; 212: the match
  length over 25; 213: the Crawford game; 214: gammons count (the cube turned, or no Jacoby
  rule).

Games and returns. ``seed`` and ``standard``: one game, 1 to the winner and -1 to the loser.
``money``: one game, the points it is worth (the cube times 1, 2 for a gammon, 3 for a backgammon; a
dropped double the cube). ``match``: a whole match (7 points by default; the option
``match_length``, 1 to 25, sets it), game after game, 1 to the side that wins it. A decision counts
as a turn when it ends a checker play (pass included); cube decisions do not.

Ends: the rules', and the frameworks' turn limit (``max_turns`` turns, 1,000 by default, 5,000
for a match: no result, "unfinished"; the rules have none). A game has at most ``5 * max_turns +
1`` actions without a cube (a roll and at most four checkers a turn), ``8 * max_turns + 1`` with
one (a cube decision, its answer and a new game's opening roll besides).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..core import Game, IllegalMove, State
from ..games.backgammon.moves import Play, Roll
from ..games.backgammon.rules import SIDES
from . import fast
from .base import (
    CHANCE_PLAYER,
    FLOAT32,
    MISSING,
    Encoding,
    Node,
    Observation,
    _as_action,
    _cumulative,
)

PASS = 150
CUBE = 151
CUBE_ACTIONS = ("double", "roll", "take", "drop", "accept", "decline")
"""The cube decisions, from action ``CUBE`` on."""
MAX_CUBE = 2**15
"""The engine's highest cube: money returns are at most three times it."""
NUM_ACTIONS = 157
SHAPE = (215,)
_OPP = 96
_BAR, _OFF, _DICE, _TURN, _CAP = 192, 194, 196, 202, 204
_DOUBLED_PENDING = 2  # Stakes.pending while a double waits for its answer
_CUBE, _OWN, _DOUBLED, _MAY, _SCORE, _LENGTH, _CRAWFORD, _GAMMONS = (
    205,
    206,
    208,
    209,
    210,
    212,
    213,
    214,
)


def step_action(src: int, die: int) -> int:
    """The action moving a checker from place ``src`` (1–24, 25 the bar) with ``die``."""
    return (src - 1) * 6 + (die - 1)


def action_words(action: int) -> str:
    """An action in words, whatever the position: ``13 with a 3``, ``bar with a 5``, ``pass``."""
    if action == PASS:
        return "pass"
    if CUBE <= action < NUM_ACTIONS:
        return CUBE_ACTIONS[action - CUBE]
    if not 0 <= action < PASS:
        return f"no action {action}"
    o, d = divmod(action, 6)
    return f"{'bar' if o == 24 else o + 1} with a {d + 1}"


def chance_number(outcome: Any) -> int:
    """The chance outcome number of an opening roll or a roll."""
    if hasattr(outcome, "white"):
        return int((outcome.white - 1) * 6 + (outcome.black - 1))
    return int((outcome.high - 1) * 6 + (outcome.low - 1))


_UNITS = np.array(
    [[n >= 1, n >= 2, n >= 3, min(1.0, max(0.0, (n - 3) / 12))] for n in range(16)], np.float32
)
"""The four numbers of a point holding 0 … 15 checkers."""


class TurnSoFar(NamedTuple):
    """The part of a turn already chosen: the legal plays that agree with it, and the single
    moves made (``(src, dst, die, hit)``, as ``Play.raw``)."""

    plays: tuple[Any, ...]
    done: tuple[tuple[int, int, int, bool], ...]

    def dice_left(self, state: Any) -> list[int]:
        """The dice not used yet."""
        dice = state.dice
        if dice is None:  # a cube decision, before the roll
            return []
        left = [dice.high] * 4 if dice.is_double else [dice.high, dice.low]
        for step in self.done:
            left.remove(step[2])
        return left


_new_tuple = tuple.__new__


def _turn(parts: tuple[tuple[Any, ...], tuple[Any, ...]]) -> TurnSoFar:
    """``TurnSoFar(plays, done)``, built without the named tuple's argument checks."""
    return _new_tuple(TurnSoFar, parts)


class Choice(NamedTuple):
    """What a checker action plays: the single move (``(src, dst, die, hit)``) and the legal
    plays that go on with it."""

    step: tuple[int, int, int, bool]
    plays: tuple[Any, ...]


class BackgammonEncoding(Encoding):
    """Backgammon, any ruleset (see the module docstring)."""

    name = "backgammon"
    num_actions = NUM_ACTIONS
    observation_shape = SHAPE
    max_chance_outcomes = 36

    def __init__(
        self, game: Game, max_turns: int | None = None, match_length: int | None = None
    ) -> None:
        assert tuple(game.sides) == SIDES  # players are the engine's side numbers
        self.match_length = match_length
        start: Any = self._start_of(game)
        stakes = getattr(start, "stakes", None)
        self.cube = stakes is not None
        self.match = bool(stakes is not None and stakes.length)
        self.default_max_turns = 5000 if self.match else 1000
        self._chances: dict[bool, tuple[list[tuple[int, float]], dict[int, Any]]] = {}
        self._tables: dict[bool, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        if self.cube and not self.match:
            self.max_utility = 3.0 * MAX_CUBE  # a backgammon with the cube at its highest
        super().__init__(game, max_turns)

    @property
    def max_game_length(self) -> int:
        return (8 if self.cube else 5) * self.max_turns + 1

    def _start_of(self, game: Game) -> State:
        """The first game's start: a match of ``match_length`` points when it is given
        (``InvalidPosition``, a ``ValueError``, for a length the rules refuse)."""
        if self.match_length is None:
            return game.start()
        return game.start(length=self.match_length)  # type: ignore[call-arg]  # checks it

    def _start(self) -> State:
        return self._start_of(self.game)

    def _options(self) -> tuple[Any, ...]:
        return () if self.match_length is None else (self.match_length,)

    def in_turn(self, node: Node) -> bool:
        return node.pending is not None and bool(node.pending.done)

    def _begin(self, state: State) -> Any:
        return _turn((tuple(state.legal_moves()), ()))

    def _next_game(self, state: State) -> State | None:
        if not self.match:
            return None
        following: State | None = state.next_game()  # type: ignore[attr-defined]
        return following

    def _legal(self, node: Node) -> tuple[list[int], dict[int, Any]]:
        """The legal actions and, for each, what plays it: a cube decision's move, the pass
        play, or the single move with the legal plays that go on with it (grouped in one pass
        over the plays left)."""
        plays, done = node.pending
        first = plays[0]
        if type(first) is not Play:  # cube decisions
            cube = {CUBE + CUBE_ACTIONS.index(str(m).split()[0]): m for m in plays}
            return sorted(cube), cube
        if not first.raw:
            return [PASS], {PASS: first}
        return fast.group(plays, len(done))  # (src - 1) * 6 + (die - 1) names a single move

    def _what(self, node: Node, action: int) -> Any:
        if node.legal is None:
            self._legal_of(node)
        what = node.cache.get(action, MISSING)
        if type(what) is tuple:  # a single move: its Choice
            return Choice(what[0], what[1])
        return what

    def apply(self, node: Node, action: int) -> Node:
        if type(action) is not int:
            action = _as_action(action)
        player = node.player
        if player >= 0:
            if node.legal is None:
                self._legal_of(node)
            what = node.cache.get(action, MISSING)
            if what is MISSING:
                raise self._illegal(node, action)
            if action < PASS:  # a checker: the plays that go on with it
                step, left = what
                done = node.pending.done
                if len(done) + 1 == len(left[0].raw):  # one play ends with these moves
                    state: Any = node.state  # the engine's checks aside: a listed play
                    return self._turn_done(node, state.after_play(left[0]))
                pending = _turn((left, (*done, step)))
                return Node(node.state, pending, node.turns, (), None, None, False, player)
            return self._apply_decision(node, action, what)
        if player == CHANCE_PLAYER:
            return self._apply_chance(node, action)
        raise self._illegal(node, action)

    def _apply_decision(self, node: Node, action: int, what: Any) -> Node:
        if action >= CUBE:
            return self._after_chance(node, node.state.play(what))  # not a turn
        state: Any = node.state  # the engine's checks aside: a listed play
        if action == PASS:
            return self._turn_done(node, state.after_play(what))
        step, left = what
        done = node.pending.done
        if len(done) + 1 == len(left[0].raw):  # one play ends with these moves
            return self._turn_done(node, state.after_play(left[0]))
        return self._mid_turn(node, _turn((left, (*done, step))))

    def _turn_done(self, node: Node, state: State) -> Node:
        turns = node.turns + 1
        if turns < self.max_turns and state.outcome() is None:
            if not self.cube:  # the roll next
                return Node(state, None, turns, (), None, None, False, CHANCE_PLAYER)
            return self._going_on(state, turns)
        return self._node(state, turns, (), None)

    def _after_chance(self, node: Node, state: State) -> Node:
        if state.outcome() is None:  # (a chance node is never at the turn limit)
            return self._going_on(state, node.turns)
        return self._node(state, node.turns, (), None)

    def _going_on(self, state: State, turns: int) -> Node:
        """The node of ``state``, the game going on (no repetition rule in backgammon)."""
        player = self._players[state.to_move]
        if player < 0:
            return Node(state, None, turns, (), None, None, False, player)
        return Node(
            state, _turn((tuple(state.legal_moves()), ())), turns, (), None, None, False, player
        )

    def returns(self, node: Node) -> list[float]:
        outcome = node.outcome
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        value = 1.0
        if self.cube and not self.match:
            value = float(node.state.points())  # type: ignore[attr-defined]
        return [value if side == outcome.winner else -value for side in self.sides]

    def _chance(self, node: Node) -> tuple[list[tuple[int, float]], dict[int, Any]]:
        """The chance outcomes of ``node`` as numbers (ascending) with their probabilities, and
        each number's engine outcome: two fixed lists, the opening roll's (before either side
        has moved) and a roll's, read from the engine once each."""
        state: Any = node.state
        opening = state.side is None
        known = self._chances.get(opening)
        if known is None:
            outcomes = state.chance_outcomes()
            pairs = sorted((chance_number(o), p) for o, p in outcomes)
            known = self._chances[opening] = (pairs, {chance_number(o): o for o, _ in outcomes})
        return known

    def chance_table(self, node: Node) -> tuple[Sequence[int], Sequence[float]]:
        if node.player != CHANCE_PLAYER:
            return [], []
        state: Any = node.state
        opening = state.side is None
        table = self._tables.get(opening)
        if table is None:
            pairs = self._chance(node)[0]
            table = self._tables[opening] = (
                tuple(o for o, _ in pairs),
                tuple(_cumulative([p for _, p in pairs])),
            )
        return table

    def chance_outcomes(self, node: Node) -> list[tuple[int, float]]:
        if node.player != CHANCE_PLAYER:
            return []
        return self._chance(node)[0][:]

    def _apply_chance(self, node: Node, outcome: int) -> Node:
        chosen = self._chance(node)[1].get(outcome)
        if chosen is None:
            raise IllegalMove(
                "chance outcome {outcome} cannot happen here",
                code="impossible-chance-outcome",
                outcome=repr(outcome),
            )
        state: Any = node.state
        if type(chosen) is not Roll:  # the opening roll: the engine decides who starts
            return self._after_chance(node, state.play(chosen))
        # a roll of the side on turn, as the engine's play(roll) makes it (its checks aside: the
        # roll is one of this node's); the game goes on (a roll ends nothing) with that side to
        # play its roll
        rolled = state.after_roll(chosen)
        pending = _turn((tuple(rolled.legal_moves()), ()))
        return Node(rolled, pending, node.turns, (), None, None, False, rolled.parts[3])

    def chance_text(self, node: Node, outcome: int) -> str:
        chosen = self._chance(node)[1].get(outcome) if node.is_chance else None
        return f"no chance outcome {outcome}" if chosen is None else str(chosen)

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

    def observation(self, node: Node, player: int) -> Observation:
        if fast.CORE is None:
            return super().observation(node, player)
        out = np.empty(SHAPE, FLOAT32)  # every number is written
        self.observe(node, player, out)
        return out

    def observe(self, node: Node, player: int, out: Observation) -> None:
        """The observation (see the module docstring) written by the compiled helper, the
        cube's numbers aside; ``observe_py`` without it (the reference)."""
        core = fast.CORE
        if core is None:
            self.observe_py(node, player, out)
            return
        state: Any = node.state
        # the engine's packed boards (four bits a place, each side in its own view); players
        # are the engine's side numbers
        _, white, black, side, dice, stakes = state.parts
        turn = node.pending
        if turn is None or dice is None:
            done: tuple[Any, ...] = ()
            high = low = 0
        else:
            done = turn.done
            high, low = dice
        to_move = 0 if side < 0 or node.outcome is not None else 1 if side == player else 2
        core.backgammon_observe(
            out,
            white if player == 0 else black,
            black if player == 0 else white,
            done,
            side == player,
            high,
            low,
            to_move,
            self.game.cap,  # type: ignore[attr-defined]
        )
        if stakes is not None:
            out[_CUBE:] = self._cube_numbers(node, player, stakes)

    def observe_py(self, node: Node, player: int, out: Observation) -> None:
        """``observe`` in Python: the reference of the compiled helper's numbers, and the
        fallback without it."""
        state: Any = node.state
        me, other = self.sides[player], self.sides[1 - player]
        boards = self.boards(node)
        own, opp = boards[me], boards[other]
        # the points through the table, the opponent's in the observer's numbering; the rest
        # (the numbers from 192 on) as a list, written at once
        counts = np.frombuffer(bytes(own[1:25] + opp[24:0:-1]), np.uint8)  # (≤ 15 each)
        out[:_BAR] = _UNITS[counts].ravel()
        tail = [0.0] * (SHAPE[0] - _BAR)
        tail[0] = own[25] / 15
        tail[1] = opp[25] / 15
        tail[_OFF - _BAR] = own[0] / 15
        tail[_OFF + 1 - _BAR] = opp[0] / 15
        if node.pending is not None:
            for die in node.pending.dice_left(state):
                tail[_DICE - _BAR + die - 1] += 0.25
        side = state.side
        if side is not None and node.outcome is None:
            tail[(_TURN if side == me else _TURN + 1) - _BAR] = 1.0
        if self.game.cap:  # type: ignore[attr-defined]
            tail[_CAP - _BAR] = 1.0
        stakes = getattr(state, "stakes", None)
        if stakes is not None:
            tail[_CUBE - _BAR :] = self._cube_numbers(node, player, stakes)
        out[_BAR:] = tail

    def _cube_numbers(self, node: Node, player: int, stakes: Any) -> list[float]:
        """The observation's numbers from ``_CUBE`` on (the cube, the match) for ``player``."""
        state: Any = node.state
        numbers = [0.0] * (SHAPE[0] - _CUBE)
        numbers[0] = min(1.0, math.log2(stakes.value) / 15)
        if stakes.owner >= 0:
            numbers[(_OWN if stakes.owner == player else _OWN + 1) - _CUBE] = 1.0
        if stakes.pending == _DOUBLED_PENDING:
            numbers[_DOUBLED - _CUBE] = 1.0
        if node.outcome is None and state.may_double(self.sides[player]):
            numbers[_MAY - _CUBE] = 1.0
        if stakes.length:
            numbers[_SCORE - _CUBE] = min(1.0, stakes.score[player] / stakes.length)
            numbers[_SCORE + 1 - _CUBE] = min(1.0, stakes.score[1 - player] / stakes.length)
            numbers[_LENGTH - _CUBE] = min(1.0, stakes.length / 25)
        if stakes.crawford:
            numbers[_CRAWFORD - _CUBE] = 1.0
        if stakes.gammons_count():
            numbers[_GAMMONS - _CUBE] = 1.0
        return numbers

    def action_text(self, node: Node, action: int) -> str:
        what = self.what(node, action)
        if what is MISSING:
            return action_words(action)
        if action == PASS:
            return "pass"
        if action >= CUBE:
            return str(what)
        src, dst, die, hit = what.step
        text = f"{_place(src)}/{_place(dst)}{'*' if hit else ''}"
        twins = sum(1 for a, c in node.cache.items() if a < PASS and c[0][:2] == (src, dst))
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
        if not hasattr(plays[0], "raw"):
            return {m: [a] for a, m in self.legal(node).items()}
        k = len(done)
        return {
            p: [(s - 1) * 6 + (d - 1) for s, _, d, _ in p.raw[k:]] if p.raw else [PASS]
            for p in plays
        }


def _place(place: int) -> str:
    return "bar" if place == 25 else "off" if place == 0 else str(place)
