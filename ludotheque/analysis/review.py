"""Analysing a whole game (``analyse``) or one position (``best_moves``).

``analyse`` walks a record: at every decision it asks the engine for the value of every move,
keeps the best ones and the one played, and labels the difference; at every roll of the dice it
measures the luck. ``Analyst`` is the engine for one game at one strength; it keeps its caches
between positions, so an application that asks about many positions of one game (an analysis
board) should keep one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import CHANCE, Game, IllegalMove, InvalidPosition, NotAState, State, described
from ..record import Record
from .dice import DiceSearch
from .labels import (
    BLUNDER,
    EQUITY,
    INACCURACY,
    LUCK_LABELS,
    MISTAKE,
    SLOWER_PLIES,
    WIN,
    WIN_BANDS,
    label,
    luck_label,
)
from .model import (
    CUBE,
    MOVE,
    RESIGN,
    Analysis,
    Decision,
    MoveValue,
    Point,
    RollLuck,
    SideSummary,
    empty_labels,
    empty_luck_labels,
)
from .proof import Proof, make_proof, oracle_for
from .search import PROVEN, UNKNOWN_PLIES, Line, TreeSearch, plies_to_end
from .stakes import StakeMeasure, stake_measure
from .strength import DEFAULT, Strength, strength_for

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each ply of the record is analysed."""

CUBE_MOVES = frozenset({"double", "take"})
RESIGN_ANSWERS = {"accept", "decline"}
"""A decision that offers one of these moves is a cube decision."""

TOP = 3
DRAWN = 0.5
"""The value of a move whose line ends in a draw (an evaluated line is never exactly that)."""
MISTAKE_BAND = next(threshold for threshold, name in WIN_BANDS if name == MISTAKE)


class Analyst:
    """The analysis engine of one game (a ruleset) at one strength.

    A dice game's values are its equity for the side that plays: in backgammon's cubeless
    rulesets the cubeless equity (2p - 1, the game's own evaluation); in the rulesets played
    for points (``stakes``) normalised equity (GNU Backgammon's EMG), the points per unit of the
    cube in money play and the match winning chance turned into equity in match play, for
    checker plays and cube decisions alike.
    """

    def __init__(self, game: Game, strength: str | Strength = DEFAULT) -> None:
        self.game = game
        self.strength = strength_for(game.name, strength)
        self.chance = bool(getattr(game, "has_chance", False))
        self.measure = EQUITY if self.chance else WIN
        self.stakes: StakeMeasure | None = stake_measure(game) if self.chance else None
        s = self.strength
        self.dice: DiceSearch | None = None
        self.tree: TreeSearch | None = None
        if self.chance:
            st = self.stakes
            self.dice = DiceSearch(
                game, s.depth, candidates=s.candidates, threshold=s.threshold,
                values=None if st is None else st.values,
                terminal=None if st is None else st.terminal,
                free=None if st is None else st.cube_node,
                unit=None if st is None else st.unit,
            )  # fmt: skip
        else:
            self.tree = TreeSearch(
                game, s.depth, beam=s.beam, root_beam=s.root_beam, oracle=oracle_for(game.name),
                cache_children=s.cache, sift=s.sift,
            )  # fmt: skip

    def moves(
        self,
        state: State,
        *,
        played: Any = None,
        top: int = TOP,
        history: Mapping[State, int] | None = None,
        moves_so_far: int = 0,
        repetition: int | None = None,
        turn_limit: int | None = None,
        wide: int = 0,
    ) -> list[MoveValue]:
        """Every legal move of decision node ``state`` with its value for the side to move:
        first the moves valued exactly at full depth (best first), then the others.

        ``played`` (a move or its notation) is always valued exactly; ``top`` is how many of
        the best get an exact value. ``history`` counts the positions of the game so far,
        ``moves_so_far`` the moves, for the draws of ``repetition`` and ``turn_limit``.
        ``wide``: at least that many of the best-looking moves are searched to full depth,
        beyond the strength's beam or move filter (the strength alone when 0).
        """
        mover = _decision_side(state)
        if isinstance(played, str):
            played = state.parse_move(played)
        if self.dice is not None:
            lines = self.dice.lines(state, played=played, top=top, wide=wide)
        else:
            assert self.tree is not None
            lines = self.tree.lines(
                state, played=played, top=top, history=history, moves_so_far=moves_so_far,
                repetition=repetition, turn_limit=turn_limit, wide=wide,
            )  # fmt: skip
        return [self._move_value(line, mover, state) for line in lines]

    def _dice_value(self, state: State, side: str, value: float) -> tuple[float, float]:
        """A dice search's ``value`` for ``side`` at ``state`` as (win, equity): cubeless, the
        chance to win and 2p - 1; for points, normalised equity (see ``stakes``) and, for the
        chart, the chance to win the match in match play, (equity + 1) / 2 (clipped to [0, 1])
        in money play."""
        st = self.stakes
        equity = value if st is None else st.normalise(state, side, value)
        chance = equity if st is not None and not st.match else value
        return _r(min(1.0, max(0.0, (chance + 1) / 2))), _r(equity)

    def luck(self, state: State, outcome: Any) -> tuple[str, float]:
        """The side that plays after chance node ``state`` gives ``outcome``, and the luck of
        that outcome for it in equity (normalised at ``state``'s cube, for points)."""
        assert self.dice is not None
        side, luck = self.dice.luck(state, outcome)
        if self.stakes is not None:
            luck /= self.stakes.unit(state)
        return side, _r(luck)

    def point(self, ply: int, side: str, value: MoveValue, state: State, start: State) -> Point:
        """A point of the timeline, for the game's first side, from ``value`` for ``side`` at
        ``state``. For points, equity is normalised at the cube and score of ``start`` (the
        game's first position) rather than at each position's, so that the line goes on
        across a double: points per unit of the starting cube in money play (the chance to
        win the match, for a match, as everywhere)."""
        first = self.game.sides[0]
        win, equity = value.win, value.equity
        if side != first:
            win, equity = 1 - win, None if equity is None else -equity
        st = self.stakes
        if st is not None and equity is not None:
            raw = st.value_of(state, first, equity)
            win, equity = self._dice_value(start, first, raw)
        return Point(ply, _r(win), None if equity is None else _r(equity), value.proof)

    def _move_value(self, line: Line, mover: str, state: State) -> MoveValue:
        score = line.score
        proof: Proof | None = None
        if self.chance:
            win, equity = self._dice_value(state, mover, score)
            if line.proven:  # the move ends the game (a last checker borne off, a drop)
                over = state.play(line.move).outcome()
                proof = make_proof(None if over is None else over.winner, 1, mover)
            return MoveValue(str(line.move), win, equity, line.depth, line.exact, proof)
        if score >= PROVEN:
            win = 1.0
            if line.proven:
                proof = make_proof(mover, _distance(score), mover)
        elif score <= -PROVEN:
            win = 0.0
            if line.proven:
                proof = make_proof(self.game.opponent(mover), _distance(score), mover)
        elif score == 0.0:  # the line ends in a draw (evaluations are never exactly 0)
            win = 0.5
            if line.proven:
                proof = make_proof(None, None, mover)
        else:  # the game's evaluation as an expected score (its calibration), 2p - 1
            win = _r((1 + score) / 2)
            if win == DRAWN:  # exactly one half is a draw: an evaluation is never one
                win = DRAWN + (1e-4 if score > 0 else -1e-4)
        return MoveValue(str(line.move), _r(win), None, line.depth, line.exact, proof)

    def position_value(self, state: State, side: str, **context: Any) -> MoveValue:
        """The value of ``state`` for ``side`` (a ``MoveValue`` named after the best move at
        a decision node; empty at a chance node or a finished game)."""
        outcome = state.outcome()
        if outcome is not None:
            if self.stakes is not None:  # what the game scored (in a match: the MWC after it)
                result = self.stakes.terminal(state, side)
                return MoveValue("", *self._dice_value(state, side, result))
            win = 0.5 if outcome.winner is None else 1.0 if outcome.winner == side else 0.0
            return MoveValue("", win, (2 * win - 1) if self.chance else None)
        if state.to_move == CHANCE:
            assert self.dice is not None
            return MoveValue("", *self._dice_value(state, side, self.dice.value(state, side, 1)))
        best = self.moves(state, top=1, **context)[0]
        if state.to_move == side:
            return best
        equity = None if best.equity is None else -best.equity
        return MoveValue(best.move, _r(1 - best.win), equity, best.plies, best.exact, best.proof)


def best_moves(
    state: State,
    n: int = TOP,
    strength: str | Strength = DEFAULT,
    *,
    history: Sequence[State] = (),
    analyst: Analyst | None = None,
    moves_so_far: int = 0,
    repetition: int | bool | None = True,
    turn_limit: int | None = None,
) -> list[MoveValue]:
    """The ``n`` best moves of decision node ``state`` with their values, best first (all the
    legal moves when there are fewer): the hints of a game and the lines of an analysis board.

    The ``n`` best are valued at the strength's full depth, comparable with one another: the
    search looks at least at the ``n`` best-looking moves that deep, however narrow the
    strength's beam (Defiance's ``normal`` alone takes one move to two plies) or move filter
    (backgammon's). Should the search still value fewer at full depth, the next ones follow
    with the depth they have (``plies``, ``exact``).

    ``history`` lists the earlier positions of the game, ``moves_so_far`` the moves played, for
    the draws of ``repetition`` (``True``: the game's own rule) and ``turn_limit`` (a game's
    record knows both; an analysis board has neither move count nor limit); an ``analyst``
    kept between calls reuses its caches. Raises ``IllegalMove`` at a chance node (roll the
    dice first) or once the game is over.
    """
    _decision_side(state)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidPosition("ask for one move or more, not {value} ({type})",
                              code="bad-move-count", **described(n))  # fmt: skip
    analyst = analyst or Analyst(state.game, strength)
    counts = Counter(history)
    counts[state] += 1
    if repetition is True:
        repetition = getattr(state.game, "repetition_limit", None)
    values = analyst.moves(
        state, top=n, history=counts, moves_so_far=moves_so_far,
        repetition=repetition or None, turn_limit=turn_limit, wide=n,
    )  # fmt: skip
    best = _best(values, n)
    chosen = {v.move for v in best}
    return best + [v for v in values if v.move not in chosen][: n - len(best)]


def analyse(
    record: Record,
    strength: str | Strength = DEFAULT,
    *,
    top: int = TOP,
    progress: Progress | None = None,
    analyst: Analyst | None = None,
) -> Analysis:
    """Judge every decision of ``record`` and measure the luck of every roll.

    ``strength`` is ``quick``, ``normal`` or ``deep`` (see ``strength``); ``top`` how many best
    moves to keep per decision; ``progress(done, total)`` is called after each ply. The result
    is the same every time for the same record and strength.
    """
    if not isinstance(record, Record):
        raise InvalidPosition("{value} ({type}) is not a game record (ludotheque.record.Record)",
                              code="not-a-record", **described(record))  # fmt: skip
    game = record.game_object
    analyst = analyst or Analyst(game, strength)
    states = record.states
    plies = record.plies
    first = game.sides[0]
    decisions: list[Decision] = []
    rolls: list[RollLuck] = []
    points: list[Point] = []
    seen: Counter[State] = Counter()
    moves_so_far = 0
    total = len(plies)
    for i, (kind, text) in enumerate(plies):
        state = states[i]
        seen[state] += 1
        if kind == "chance":
            point = _chance_point(analyst, state, i, first, states[0])
            if point is not None:
                points.append(point)
            if analyst.dice is not None:
                side, luck = analyst.luck(state, state.parse_move(text))
                rolls.append(RollLuck(i, side, text, luck, luck_label(luck)))
        else:
            decision = _decide(analyst, record, state, i, text, moves_so_far, seen, top)
            decisions.append(decision)
            points.append(analyst.point(i, decision.side, decision.value, state, states[0]))
            moves_so_far += 1
        if progress is not None:
            progress(i + 1, total)
    points.append(_final_point(analyst, record, seen, moves_so_far, first))
    outcome = record.outcome()
    return Analysis(
        game=game.name,
        ruleset=game.ruleset,
        strength=analyst.strength.name,
        measure=analyst.measure,
        sides=tuple(game.sides),
        decisions=tuple(decisions),
        rolls=tuple(rolls),
        timeline=tuple(points),
        summary={side: _summary(side, decisions, rolls, analyst.measure) for side in game.sides},
        result=None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason},
    )


# -- one decision -----------------------------------------------------------------------------


def _decide(
    analyst: Analyst,
    record: Record,
    state: State,
    ply: int,
    text: str,
    moves_so_far: int,
    seen: Counter[State],
    top: int,
) -> Decision:
    side = str(state.to_move)
    played = state.parse_move(text)
    legal = state.legal_moves()
    values = analyst.moves(
        state, played=played, top=top, history=seen, moves_so_far=moves_so_far,
        repetition=record.repetition, turn_limit=record.turn_limit,
    )  # fmt: skip
    notation = str(played)
    mine = next(v for v in values if v.move == notation)
    listed = {str(m) for m in legal}  # a resignation offered is valued, never a best move
    best = _best([v for v in values if v.move in listed], top)
    measure = analyst.measure
    loss = 0.0
    name: str | None = None
    draw: str | None = None
    if len(legal) > 1 and best:
        top_value = best[0]
        if measure == EQUITY:
            assert top_value.equity is not None and mine.equity is not None
            loss = max(0.0, top_value.equity - mine.equity)
        else:
            loss = max(0.0, top_value.win - mine.win)
        loss = _r(loss)
        name = label(loss, measure)
        if measure == WIN:
            name = _proven_label(top_value, mine, side, name)
            draw = _gives_draw(analyst, record, state, played, mine, top_value, seen,
                               moves_so_far)  # fmt: skip
            if draw is not None:
                name = _worse(name, MISTAKE)
    kind = MOVE
    if notation.startswith("resign") or listed == RESIGN_ANSWERS:
        kind = RESIGN
    elif analyst.chance and any(str(m) in CUBE_MOVES for m in legal):
        kind = CUBE
    return Decision(
        ply=ply,
        move_index=moves_so_far,
        side=side,
        position=state.position(),
        played=mine,
        best=tuple(best),
        legal=len(legal),
        loss=loss,
        label=name,
        kind=kind,
        proof=best[0].proof if best else None,
        draw=draw,
    )


def _gives_draw(
    analyst: Analyst,
    record: Record,
    state: State,
    played: Any,
    mine: MoveValue,
    best: MoveValue,
    seen: Counter[State],
    moves_so_far: int,
) -> str | None:
    """How the move played gives a winning position away for a draw (one of ``DRAWS``), or
    ``None``: its line ends in a draw (valued one half exactly) while the best move is worth at
    least a mistake more (a winning position). It *makes* the draw when the position it leads
    to repeats a third time or reaches the turn limit, else it *allows* it: the turn limit when
    the search reached it, else a repetition along the line."""
    if mine.win != DRAWN or best.win < DRAWN + MISTAKE_BAND:
        return None
    child = state.play(played)
    if child.outcome() is not None:
        return None  # the game's own ending, not the record's draw rules
    repetition, limit = record.repetition, record.turn_limit
    if repetition is not None and seen[child] + 1 >= repetition:
        return "makes-repetition"
    if limit is not None and moves_so_far + 1 >= limit:
        return "makes-turn-limit"
    if limit is not None and moves_so_far + analyst.strength.depth >= limit:
        return "allows-turn-limit"
    return "allows-repetition"


def _best(values: list[MoveValue], n: int) -> list[MoveValue]:
    """The ``n`` best moves among those valued exactly at full depth."""
    if not values:
        return []
    depth = max(v.plies for v in values)
    return [v for v in values if v.exact and v.plies == depth][:n]


def _proven_label(best: MoveValue, played: MoveValue, side: str, name: str | None) -> str | None:
    """The label where the best move wins by force (proven): none for a move that keeps the
    win, an inaccuracy for one that keeps it ``SLOWER_PLIES`` plies or more later than the
    fastest (both distances known), a blunder for one that gives it away. Elsewhere, ``name``
    (the winning chance lost)."""
    if best.proof is None or best.proof.winner != side:
        return name
    if played.proof is None or played.proof.winner != side:
        return BLUNDER
    fastest, mine = best.proof.plies, played.proof.plies
    if fastest is not None and mine is not None and mine - fastest >= SLOWER_PLIES:
        return INACCURACY
    return None


def _distance(score: float) -> int | None:
    """The plies to the end of a proven score, ``None`` for a win proven without them."""
    plies = plies_to_end(score)
    return None if plies >= UNKNOWN_PLIES else plies


_ORDER = [name for _, name in reversed(WIN_BANDS)]


def _worse(a: str | None, b: str) -> str:
    """The worse of two labels (``None``: no label)."""
    if a is None:
        return b
    return a if _ORDER.index(a) >= _ORDER.index(b) else b


# -- the timeline and the summary ---------------------------------------------------------


def _chance_point(
    analyst: Analyst, state: State, ply: int, first: str, start: State
) -> Point | None:
    if analyst.dice is None:
        return None
    return analyst.point(ply, first, analyst.position_value(state, first), state, start)


def _final_point(
    analyst: Analyst, record: Record, seen: Counter[State], moves_so_far: int, first: str
) -> Point:
    """The last point: the result when the game ended by its rules or a record draw, else the
    value of the last position (an unfinished or resigned game)."""
    state = record.state
    ply = len(record.plies)
    outcome = record.outcome()
    start = record.states[0]
    if state.outcome() is not None:
        return analyst.point(ply, first, analyst.position_value(state, first), state, start)
    if outcome is not None and outcome.winner is None:
        return Point(ply, 0.5, 0.0 if analyst.chance else None)
    seen = Counter(seen)
    seen[state] += 1
    value = analyst.position_value(
        state, first, history=seen, moves_so_far=moves_so_far, repetition=record.repetition,
        turn_limit=record.turn_limit,
    ) if state.to_move != CHANCE else analyst.position_value(state, first)  # fmt: skip
    return analyst.point(ply, first, value, state, start)


def _summary(
    side: str, decisions: list[Decision], rolls: list[RollLuck], measure: str
) -> SideSummary:
    mine = [d for d in decisions if d.side == side]
    # offers to resign and their answers are judged (a bad one is a loss), not moves
    moves = [d for d in mine if d.kind != RESIGN]
    unforced = [d for d in moves if not d.forced]
    total = sum(d.loss for d in mine if not d.forced)
    average = total / len(unforced) if unforced else 0.0
    labels = empty_labels(measure)
    for d in mine:
        if d.label is not None:
            labels[d.label] += 1
    error_rate = None
    luck = luck_rate = None
    luck_labels = empty_luck_labels(measure)
    my_rolls = [r for r in rolls if r.side == side]
    if measure == EQUITY:
        error_rate = round(1000 * average, 2)
        luck = _r(sum(r.luck for r in my_rolls))
        luck_rate = round(1000 * luck / len(my_rolls), 2) if my_rolls else 0.0
        for r in my_rolls:
            if r.label in LUCK_LABELS:
                luck_labels[r.label] += 1
    return SideSummary(
        side=side,
        moves=len(moves),
        unforced=len(unforced),
        total_loss=_r(total),
        average_loss=_r(average),
        labels=labels,
        error_rate=error_rate,
        rolls=len(my_rolls),
        luck=luck,
        luck_rate=luck_rate,
        luck_labels=luck_labels,
    )


# -- helpers ------------------------------------------------------------------------------


def _decision_side(state: State) -> str:
    """The side to move of a decision node, or ``IllegalMove`` (``NotAState``: not a state)."""
    if not isinstance(state, State):
        raise NotAState("{value} ({type}) is not a game state", code="not-a-game-state",
                        **described(state))  # fmt: skip
    mover = state.to_move
    if mover is None:
        raise IllegalMove("the game is over: there is no move to judge", code="no-move-to-judge")
    if mover == CHANCE:
        raise IllegalMove(
            "the dice must be rolled first: give the position with its roll",
            code="roll-before-review",
        )
    return str(mover)


def _r(value: float) -> float:
    """Values are kept to four decimals, as they are stored."""
    return round(float(value), 4)


__all__ = ["Analyst", "Progress", "analyse", "best_moves"]
