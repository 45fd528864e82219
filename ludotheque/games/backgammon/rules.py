"""Backgammon as the seed tells it (``seed``), international backgammon without cube
(``standard``), and backgammon for points with the doubling cube (``money`` and ``match``):
states, chance nodes, legal plays and position strings.

A state holds both sides' checkers (packed, each in its own view), the side to move and the roll
to play, and in ``money`` and ``match`` the stakes (``cube.Stakes``: the cube, the decision in
progress, the match score). Chance nodes: the opening (``to_move == "chance"`` with no side yet)
and each roll.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, NoReturn

from ...core import (
    CHANCE,
    Game,
    IllegalMove,
    InvalidMove,
    InvalidPosition,
    Outcome,
    ParamValue,
    State,
    describe_value,
    described,
)
from .._numbers import read_number, short_enough
from . import board as B
from . import cube as cube_rules
from . import ids, notation
from .cube import (
    ACCEPT,
    BACKGAMMON,
    DECLINE,
    DOUBLE,
    DOUBLED,
    DROP,
    DROPPED,
    DROPPED_REASON,
    GAMMON,
    MATCH,
    MONEY,
    NONE,
    RESIGNATION_REASON,
    RESIGNED,
    RESIGNING,
    ROLL,
    ROLLING,
    TAKE,
    CubeAction,
    Stakes,
    multiplier,
    next_crawford,
    parse_tail,
    read_action,
    tail,
)
from .movegen import CORE
from .moves import (
    OPENINGS,
    ROLLS,
    OpeningRoll,
    Play,
    Roll,
    Step,
    listed,
    plays,
    point_name,
)
from .turn import PartialTurn, partial_turn

WHITE = "white"
BLACK = "black"
SIDES = (WHITE, BLACK)
BORNE_OFF = "borne-off"
_LETTER = ("w", "b")
_UNSET: Any = object()


@dataclass(frozen=True)
class Ruleset:
    """What distinguishes the rulesets: the cap on own checkers per point (0: none), whether
    the lower opening die starts, and what games are played for (``None``: single cubeless
    games; ``"money"`` or ``"match"``: points, with the doubling cube)."""

    name: str
    cap: int
    lower_starts: bool
    stakes: str | None = None


RULESETS = {
    "seed": Ruleset("seed", 5, True),
    "standard": Ruleset("standard", 0, False),
    MONEY: Ruleset(MONEY, 0, False, MONEY),
    MATCH: Ruleset(MATCH, 0, False, MATCH),
}


class PassReason(NamedTuple):
    """One reason a forced pass: the single move tried, its die, whether it enters from the
    bar, and why it cannot be played (``kind``, a key of ``notation.WHY``, with its values)."""

    move: str
    die: int
    entering: bool
    kind: str
    values: dict[str, ParamValue]


class BackgammonState(State):
    """A backgammon position (see the module docstring).

    >>> game = BackgammonGame("standard")
    >>> s = game.start().play("w3b1")     # white rolled 3, black 1: the higher die starts
    >>> s.to_move, str(s.dice)
    ('white', '31')
    >>> str(s.play("8/5 6/5").play("66").legal_moves()[0])
    '24/18 24/18 13/7 13/7'
    """

    __slots__ = ("_black", "_dice", "_game", "_moves", "_outcome", "_side", "_stakes", "_white")

    _game: BackgammonGame
    _white: int
    _black: int
    _side: int  # 0 white, 1 black, -1 no side (before the opening, or over)
    _dice: Roll | None
    _moves: list[Any]
    _outcome: Outcome | None
    _stakes: Stakes | None

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("states are immutable: play() returns a new state")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("states are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _restore,
            (self._game.ruleset, self._white, self._black, self._side, self._dice, self._stakes),
        )

    # -- the protocol ----------------------------------------------------------------------

    @property
    def game(self) -> BackgammonGame:
        return self._game

    @property
    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
        stakes = self._stakes
        if stakes is not None and self._side >= 0:
            if stakes.pending == DOUBLED or stakes.pending == RESIGNING:
                return SIDES[1 - self._side]
            if self._dice is None and stakes.pending == NONE and stakes.may_double(self._side):
                return SIDES[self._side]
        if self._side < 0 or self._dice is None:
            return CHANCE
        return SIDES[self._side]

    @property
    def side(self) -> str | None:
        """The side whose turn it is (also while its roll is pending); ``None`` before the
        opening and once the game is over."""
        return None if self._side < 0 else SIDES[self._side]

    @property
    def dice(self) -> Roll | None:
        """The roll to play, or ``None`` while no roll is pending play."""
        return self._dice

    def position(self) -> str:
        side = "-" if self._side < 0 else _LETTER[self._side]
        dice = "-" if self._dice is None else str(self._dice)
        text = f"W[{_checkers_text(self._white)}] B[{_checkers_text(self._black)}] {side} {dice}"
        if self._stakes is not None:
            return f"{text} {tail(self._stakes)}"
        return text

    def legal_moves(self) -> list[Any]:
        """The checker plays (``Play``) once the dice are rolled; at a cube decision ``roll``
        and ``double``, after a double ``take`` and ``drop``, after an offer to resign
        ``accept`` and ``decline`` (``CubeAction``)."""
        moves = self._moves
        if moves is _UNSET:
            stakes = self._stakes
            if self._side < 0 or self.outcome() is not None:
                moves = []
            elif stakes is not None and stakes.pending == DOUBLED:
                moves = [TAKE, DROP]
            elif stakes is not None and stakes.pending == RESIGNING:
                moves = [ACCEPT, DECLINE]
            elif self._dice is None:
                moves = [ROLL, DOUBLE] if self.to_move == SIDES[self._side] else []
            else:
                me, opp = self.mover_boards()
                dice = self._dice
                moves = plays(me, opp, dice.high, dice.low, self._game.cap)
            object.__setattr__(self, "_moves", moves)
        return moves

    def legal_plays(self) -> list[Play]:
        """The legal checker plays of the roll to play (empty when no roll is to be played)."""
        if self._dice is None or self.to_move != self.side:
            return []
        return self.legal_moves()

    def random_playout(
        self, rng: random.Random, plies: int | None = None
    ) -> tuple[BackgammonState, int]:
        """Uniformly random legal moves, and chance outcomes by their probabilities, until the
        game ends or ``plies`` moves were played: (the state reached, the moves played).

        The roll-outs of a search (``ai.mcts``): the compiled core plays a whole cubeless
        roll-out at once, from a random seed drawn from ``rng``; otherwise (and in the cube
        rulesets) the moves are drawn from ``rng`` one by one, as a search's own loop would
        draw them.
        """
        side = self._side
        if CORE is not None and self._stakes is None and side >= 0:
            dice = self._dice
            high, low = (dice.high, dice.low) if dice is not None else (0, 0)
            game = self._game
            white, black, side, high, low, played = CORE.playout(
                self._white, self._black, side, high, low, game.cap,
                rng.getrandbits(64), -1 if plies is None else plies,
            )  # fmt: skip
            roll = Roll(high, low) if high else None
            return _make(game, white, black, side, roll, None), played
        state = self
        played = 0
        while state.to_move is not None:
            if plies is not None and played >= plies:
                break
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            played += 1
        return state, played

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.to_move != CHANCE:
            return []
        if self._side < 0:
            return list(OPENINGS)
        return list(ROLLS)

    def outcome(self) -> Outcome | None:
        result = self._outcome
        if result is _UNSET:
            stakes = self._stakes
            if stakes is not None and stakes.ended:
                reason = DROPPED_REASON if stakes.ended == DROPPED else RESIGNATION_REASON
                result = Outcome(SIDES[1 - stakes.loser], reason)
            elif self._white & 15 == B.CHECKERS:
                result = Outcome(WHITE, self._borne_off_reason(self._black))
            elif self._black & 15 == B.CHECKERS:
                result = Outcome(BLACK, self._borne_off_reason(self._white))
            else:
                result = None
            object.__setattr__(self, "_outcome", result)
        return result

    def _borne_off_reason(self, loser: int) -> str:
        if self._stakes is None:
            return BORNE_OFF
        return (BORNE_OFF, GAMMON, BACKGAMMON)[multiplier(B.unpack(loser)) - 1]

    def parse_move(self, text: str) -> Any:
        if not isinstance(text, str):
            raise InvalidMove(
                "a move must be text like '13/7 8/7', not {value} ({type})",
                code="backgammon-move-not-text",
                **described(text),
            )
        short_enough(text)
        over = self.outcome()
        if over is not None:
            raise _game_over(over)
        stakes = self._stakes
        if stakes is not None:
            checker_play = self._dice is not None and stakes.pending == NONE
            if not (checker_play and text.strip().lower() == "pass"):
                action = read_action(text)
                if action is not None:
                    return action
        if self.to_move == CHANCE:
            return notation.parse_chance(self, text)
        if self._dice is None or (stakes is not None and stakes.pending != NONE):
            options = [str(m) for m in self.legal_moves()]
            raise IllegalMove(
                "cannot read {text!r} here: {side} chooses {options_text}",
                code="decision-expected",
                text=text.strip()[:40],
                side=str(self.to_move),
                options=options,
                options_text=" or ".join(repr(o) for o in options),
            )
        return notation.parse_play(self, text)

    def play(self, move: Any) -> BackgammonState:
        if isinstance(move, str):
            move = self.parse_move(move)
        over = self.outcome()
        if over is not None:
            raise _game_over(over)
        stakes = self._stakes
        if isinstance(move, CubeAction):
            return self._cube_action(move)
        if stakes is not None and stakes.pending == DOUBLED:
            raise IllegalMove(
                "{side} must first answer the double: take or drop, not {move}",
                code="answer-double-first",
                side=str(self.to_move),
                move=_text(move),
            )
        if stakes is not None and stakes.pending == RESIGNING:
            raise IllegalMove(
                "{side} must first answer the offer to resign: accept or decline, not {move}",
                code="answer-resignation-first",
                side=str(self.to_move),
                move=_text(move),
            )
        if self._side < 0:
            if not isinstance(move, OpeningRoll) or move.white == move.black:
                raise IllegalMove(
                    "the game starts with the opening roll, not {move}",
                    code="opening-roll-expected",
                    move=_text(move),
                )
            if not (1 <= move.white <= 6 and 1 <= move.black <= 6):
                raise InvalidMove(
                    "{move} is not a roll of two dice", code="not-two-dice", move=_text(move)
                )
            white_starts = (move.white < move.black) == self._game.lower_starts
            return _make(self._game, self._white, self._black, 0 if white_starts else 1,
                         move.roll, stakes)  # fmt: skip
        if self._dice is None:
            if self.to_move != CHANCE:
                raise IllegalMove(
                    "{side} decides first: 'double' or 'roll', not {move}",
                    code="cube-decision-first",
                    side=SIDES[self._side],
                    move=_text(move),
                )
            if not isinstance(move, Roll) or not (1 <= move.low <= move.high <= 6):
                raise IllegalMove(
                    "{side} must roll the dice, not {move}",
                    code="roll-expected",
                    side=SIDES[self._side],
                    move=_text(move),
                )
            return self.after_roll(move)
        if not isinstance(move, Play) or not listed(move, self.legal_moves()):
            raise IllegalMove(
                "{move} is not a legal play here", code="not-a-legal-play", move=_text(move)
            )
        return self.after_play(move)

    def _cube_action(self, action: CubeAction) -> BackgammonState:
        """The state after a cube or resignation decision (see ``cube``)."""
        stakes = self._stakes
        if stakes is None:
            raise IllegalMove(
                "{action!r}: the {ruleset} ruleset plays single games without the doubling cube "
                "(load 'money' or 'match' to play for points)",
                code="no-cube-in-ruleset",
                action=str(action),
                ruleset=self._game.ruleset,
            )
        side = self._side
        game, white, black, dice = self._game, self._white, self._black, self._dice
        kind = action.kind
        if kind == "resign":
            on_turn = self.to_move == SIDES[side] if side >= 0 else False
            before_roll = side >= 0 and dice is None and stakes.pending in (NONE, ROLLING)
            if not (on_turn or before_roll) or stakes.pending not in (NONE, ROLLING):
                raise IllegalMove(
                    "a side offers to resign on its own turn (before its roll, or when it plays "
                    "its roll), not while a double or another offer is answered",
                    code="resign-on-own-turn",
                )
            if action.value not in (1, 2, 3):
                raise IllegalMove(
                    "a resignation is of a single game, a gammon or a backgammon",
                    code="bad-resignation-value",
                )
            offer = stakes._replace(pending=RESIGNING, offer=action.value)
            return _make(game, white, black, side, dice, offer)
        if kind in ("accept", "decline"):
            if stakes.pending != RESIGNING:
                raise IllegalMove(
                    "{kind!r}: nobody has offered to resign", code="no-resignation-offer", kind=kind
                )
            if kind == "decline":
                return _make(game, white, black, side, dice, stakes._replace(pending=NONE, offer=0))
            ended = stakes._replace(pending=NONE, ended=RESIGNED, loser=side)
            return _make(game, white, black, -1, None, ended)
        if kind in ("take", "drop"):
            if stakes.pending != DOUBLED:
                raise IllegalMove("{kind!r}: nobody has doubled", code="no-double", kind=kind)
            if kind == "drop":
                ended = stakes._replace(pending=NONE, ended=DROPPED, loser=1 - side)
                return _make(game, white, black, -1, None, ended)
            taken = stakes._replace(pending=NONE, value=stakes.value * 2, owner=1 - side)
            return _make(game, white, black, side, None, taken)
        if kind in ("double", "roll"):
            if side < 0 or dice is not None or stakes.pending != NONE:
                raise IllegalMove(
                    "{kind!r}: a side doubles or rolls before its roll",
                    code="cube-decision-before-roll",
                    kind=kind,
                )
            if not stakes.may_double(side):
                self._refuse_double()
            pending = DOUBLED if kind == "double" else ROLLING
            return _make(game, white, black, side, None, stakes._replace(pending=pending))
        raise InvalidMove(
            "{action!r} is not a backgammon decision", code="not-a-decision", action=str(action)
        )

    def _refuse_double(self) -> NoReturn:
        """Refuse a double (or a roll decision) of the side on turn, saying why it may not."""
        stakes = self._stakes
        assert stakes is not None and self._side >= 0
        side = SIDES[self._side]
        if stakes.owner == 1 - self._side:
            raise IllegalMove(
                "{side} may not double: {owner} owns the cube",
                code="cube-owned-by-opponent",
                side=side,
                owner=SIDES[stakes.owner],
            )
        if stakes.length and stakes.crawford:
            raise IllegalMove(
                "{side} may not double: nobody doubles in the Crawford game",
                code="no-double-in-crawford",
                side=side,
            )
        if stakes.length:
            raise IllegalMove(
                "{side} may not double: the cube is dead: {points} more points win {side} the "
                "match",
                code="dead-cube",
                side=side,
                points=stakes.value,
            )
        raise IllegalMove(
            "{side} may not double: the cube is at its highest value",
            code="cube-at-highest-value",
            side=side,
        )

    # -- values ----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BackgammonState):
            return NotImplemented
        return (
            self._white == other._white
            and self._black == other._black
            and self._side == other._side
            and self._dice == other._dice
            and self._game is other._game
            and self._stakes == other._stakes
        )

    def __hash__(self) -> int:
        if self._stakes is None:
            return hash((self._white, self._black, self._side, self._dice))
        return hash((self._white, self._black, self._side, self._dice, self._stakes))

    # -- the parts, for search and learning loops -------------------------------------------

    @property
    def parts(self) -> StateParts:
        """What the state holds, as ``from_parts`` takes it: ``(game, white, black, side, dice,
        stakes)``. ``white`` and ``black`` are the packed boards (see ``board.pack``: four bits
        a place, each side in its own view); ``side`` is 0 for white, 1 for black, -1 for
        nobody (before the opening roll, and once the game is over); ``dice`` and ``stakes`` are
        the properties of those names. The values themselves, not copies.

        >>> s = get_game("standard").start().play("w3b1")
        >>> game, white, black, side, dice, stakes = s.parts
        >>> side, str(dice), BackgammonState.from_parts(*s.parts) == s
        (0, '31', True)
        """
        return (self._game, self._white, self._black, self._side, self._dice, self._stakes)

    @staticmethod
    def from_parts(
        game: BackgammonGame,
        white: int,
        black: int,
        side: int,
        dice: Roll | None,
        stakes: Stakes | None = None,
    ) -> BackgammonState:
        """The state of these parts (see ``parts``), unchecked: for a search or a learning
        loop that makes states from the parts of the engine's own states (``game.from_boards``
        and position strings check what they are given). Its moves and outcome are found on
        demand, as any state's; the compiled core makes it when it was built."""
        return _make(game, white, black, side, dice, stakes)

    def after_play(self, play: Play) -> BackgammonState:
        """The state after ``play``, one of this state's ``legal_moves()``, unchecked (``play()``
        checks a move first): the other side to roll next, or nobody once the mover has borne
        off its last checker. For a search or a learning loop that plays listed plays only."""
        side = self._side
        mover, opponent = play.mover_after, play.opponent_after
        white, black = (mover, opponent) if side == 0 else (opponent, mover)
        over = mover & 15 == B.CHECKERS
        return _make(self._game, white, black, -1 if over else 1 - side, None, self._stakes)

    def after_roll(self, roll: Roll) -> BackgammonState:
        """The state after ``roll``, one of this state's ``chance_outcomes()`` when its side on
        turn rolls (not the opening roll), unchecked (``play()`` checks it first): that side to
        play the roll, a decision to roll settled."""
        stakes = self._stakes
        if stakes is not None and stakes.pending != NONE:
            stakes = stakes._replace(pending=NONE)
        return _make(self._game, self._white, self._black, self._side, roll, stakes)

    def mover_boards(self) -> tuple[int, int]:
        """The packed boards (see ``parts``) of the side whose turn it is and of the other
        (black's first when no side is to move)."""
        if self._side == 0:
            return self._white, self._black
        return self._black, self._white

    # -- stakes ----------------------------------------------------------------------------

    @property
    def stakes(self) -> Stakes | None:
        """The cube, the decision in progress and the match score (``money`` and ``match``);
        ``None`` in the cubeless rulesets."""
        return self._stakes

    @property
    def cube_value(self) -> int:
        """The doubling cube's value (1 in the cubeless rulesets)."""
        return 1 if self._stakes is None else self._stakes.value

    @property
    def cube_owner(self) -> str | None:
        """The side that owns the cube, ``None`` while it is in the middle."""
        if self._stakes is None or self._stakes.owner < 0:
            return None
        return SIDES[self._stakes.owner]

    def may_double(self, side: str | None = None) -> bool:
        """Whether ``side`` (the side on turn by default) could double before its roll now:
        the cube allows it, whatever the moment of the turn."""
        stakes = self._stakes
        who = self.side if side is None else self._game.check_side(side)
        if stakes is None or who is None or self.outcome() is not None:
            return False
        return stakes.may_double(SIDES.index(who))

    def points(self) -> int | None:
        """The points the winner scores, once the game is over (``None`` before): the cube
        times 1, 2 for a gammon, 3 for a backgammon (single with the Jacoby rule while the cube
        is in the middle), or what was resigned times the cube, or the cube for a dropped
        double. A cubeless game is worth 1."""
        over = self.outcome()
        if over is None:
            return None
        stakes = self._stakes
        if stakes is None:
            return 1
        if stakes.ended == DROPPED:
            return stakes.value
        if stakes.ended == RESIGNED:
            return stakes.value * (stakes.offer if stakes.gammons_count() else 1)
        loser = self._black if over.winner == WHITE else self._white
        kind = multiplier(B.unpack(loser))
        return stakes.value * (kind if stakes.gammons_count() else 1)

    def resignation_value(self, side: str) -> int:
        """What ``side`` can still lose in this game, in the resignation's terms: 3 while a
        backgammon is possible, 2 while a gammon is, else 1 (a side that has borne off a checker
        can lose only a single game)."""
        counts = self.board(side)
        return multiplier(counts)

    def points_if_resigned(self, side: str) -> int:
        """The points the other side scores if ``side`` gives up the game now (a resignation of
        everything it can still lose, as a record's resignation counts it)."""
        stakes = self._stakes
        if stakes is None:
            return 1
        value = self.resignation_value(side)
        return stakes.value * (value if stakes.gammons_count() else 1)

    def score_after(
        self, winner: str | None = None, points: int | None = None
    ) -> tuple[int, int] | None:
        """White's and black's match scores after this game (``None`` before its end, and in
        money play): the score before it plus the points won. ``winner`` and ``points`` stand
        for a game ended outside the rules (a record's resignation)."""
        stakes = self._stakes
        if winner is None or points is None:
            over = self.outcome()
            winner, points = (None, None) if over is None else (over.winner, self.points())
        if stakes is None or not stakes.length or points is None or winner is None:
            return None
        w, b = stakes.score
        return (w + points, b) if winner == WHITE else (w, b + points)

    def next_game(
        self, winner: str | None = None, points: int | None = None
    ) -> BackgammonState | None:
        """The start of the next game once this one is over: in a match at the new score (the
        Crawford game when it is due), ``None`` when the match is won; in money play a new
        game with the same rules. ``None`` in the cubeless rulesets and before the end.
        ``winner`` and ``points`` stand for a game ended outside the rules (a record's
        resignation)."""
        stakes = self._stakes
        if stakes is None or (self.outcome() is None and winner is None):
            return None
        if not stakes.length:
            return _make(self._game, _START, _START, -1, None, Stakes(jacoby=stakes.jacoby))
        score = self.score_after(winner, points)
        if score is None or max(score) >= stakes.length:
            return None
        crawford = next_crawford(stakes, score)
        fresh = Stakes(length=stakes.length, score=score, crawford=crawford)
        return _make(self._game, _START, _START, -1, None, fresh)

    # -- backgammon ------------------------------------------------------------------------

    def board(self, side: str) -> list[int]:
        """The 26 counts of a side in its own view: index 0 borne off, 1–24 points, 25 bar."""
        return B.unpack(self._packed(side))

    def checkers(self, side: str) -> dict[str, int]:
        """``{"bar": n, "24": n, …, "off": n}`` for the places that hold checkers of ``side``."""
        counts = self.board(side)
        return {point_name(p): counts[p] for p in range(25, -1, -1) if counts[p]}

    def pip_count(self, side: str) -> int:
        """The pip count of ``side``: the pips it must still move to bear everything off."""
        return B.pips(self._packed(side))

    def pip_counts(self) -> dict[str, int]:
        """Both pip counts."""
        return {side: self.pip_count(side) for side in SIDES}

    def partial_turn(self, done: Sequence[Step | str | tuple[int, int, int]] = ()) -> PartialTurn:
        """The one-checker-at-a-time view of this turn after the single moves ``done``.

        Offers only single moves that can still end in a legal play, and the play when the turn
        can end now. Raises ``IllegalMove`` if a step of ``done`` was not allowed, and
        ``InvalidMove`` if ``done`` is not a list (or tuple) of single moves or one of them is
        no single move at all.
        """
        if self._stakes is not None and self._stakes.pending != NONE:
            raise IllegalMove(
                "there is no roll to play now: {side} decides first",
                code="decision-before-roll",
                side=str(self.to_move),
            )
        return partial_turn(self, done)

    def pass_reason(self) -> str:
        """Why the side to move cannot move with its roll (empty when it can)."""
        reasons = [
            (f"the bar/{move.split('/')[1]} with the {die}" if entering else move)
            + ": " + notation.WHY[kind].format(**values)
            for move, die, entering, kind, values in self.pass_reasons()
        ]  # fmt: skip
        return "; ".join(dict.fromkeys(reasons))

    def pass_reasons(self) -> list[PassReason]:
        """``pass_reason``'s reasons as data: for each single move tried, the move (``13/7``,
        ``bar/22``), its die, whether it enters from the bar, and why it cannot be played
        (a kind of ``notation.WHY`` and its values), so that each can be said in any
        language. Empty when the side can move."""
        why_single = notation.why_single
        moves = self.legal_moves()
        if not moves or not moves[0].is_pass or self._dice is None:
            return []
        me, opp = self.mover_boards()
        cap = self._game.cap
        reasons: list[PassReason] = []
        for die in sorted({self._dice.high, self._dice.low}, reverse=True):
            if B.count(me, B.BAR):
                kind, values = why_single(me, opp, B.BAR, 25 - die, die, cap)
                reasons.append(PassReason(f"bar/{25 - die}", die, True, kind, values))
                continue
            sources = [p for p in range(24, 0, -1) if B.count(me, p)]
            for src in sources[:2]:
                dst = max(src - die, 0)
                kind, values = why_single(me, opp, src, dst, die, cap)
                move = f"{point_name(src)}/{point_name(dst)}"
                reasons.append(PassReason(move, die, False, kind, values))
        return reasons

    def gnubg_id(self) -> str:
        """The full GNU Backgammon ID, ``"<Position ID>:<Match ID>"`` as GNU Backgammon shows it
        (``4HPwATDgc/ABMA:MIEFAAAAAAAE``): the checkers, the side on roll and the dice, and in
        ``money`` and ``match`` the cube, the match and the decision pending or taken (see
        ``ids``). ``game.parse_position`` reads it back as this state (a side that chose to roll
        and has not rolled yet reads back as the decision before it: GNU has no such moment)."""
        return ids.gnubg_id(self)

    def gnubg_position_id(self) -> str:
        """The GNU Backgammon Position ID alone (14 characters: the checkers, seen from the side
        on roll, or white when no side is)."""
        return ids.gnubg_position_id(self)

    def gnubg_match_id(self) -> str:
        """The GNU Backgammon Match ID alone (12 characters: the side on roll, the dice, and in
        ``money``/``match`` the cube, the match and the decisions; a money game without cube in
        the cubeless rulesets). ``gnubg_id()`` is the two joined by ``:``."""
        return ids.gnubg_match_id(self)

    def xgid(self) -> str:
        """The position as an eXtreme Gammon XGID (white at the bottom; in ``money``/``match``
        with the cube, the score and the Crawford or Jacoby flag; else a money game, no cube).
        An XGID has no moment before the opening roll and no finished game: those two are
        written as the same checkers with white to roll, and read back as that (the GNU
        Backgammon ID, ``gnubg_id``, keeps them)."""
        return ids.to_xgid(self)

    # -- internals -------------------------------------------------------------------------

    def _packed(self, side: str) -> int:
        return self._white if self._game.check_side(side) == WHITE else self._black


StateParts = tuple["BackgammonGame", int, int, int, Roll | None, Stakes | None]
"""A state's parts (``BackgammonState.parts``): game, white, black, side, dice, stakes."""


def _make_py(
    game: BackgammonGame,
    white: int,
    black: int,
    side: int,
    dice: Roll | None,
    stakes: Stakes | None = None,
) -> BackgammonState:
    """A state of these parts, its moves and outcome not computed yet (the reference of the
    compiled core's ``state``)."""
    state = object.__new__(BackgammonState)
    setter = object.__setattr__
    setter(state, "_game", game)
    setter(state, "_white", white)
    setter(state, "_black", black)
    setter(state, "_side", side)
    setter(state, "_dice", dice)
    setter(state, "_moves", _UNSET)
    setter(state, "_outcome", _UNSET)
    setter(state, "_stakes", stakes)
    return state


_FIELDS = ("_game", "_white", "_black", "_side", "_dice", "_moves", "_outcome", "_stakes")
"""The state's slots in the order of the compiled core's ``state_setup``: ``_make``'s fields,
then the moves and the outcome (not computed yet)."""

_make = _make_py
"""``_make_py``, or the compiled core's ``state`` (one allocation, eight stores) when it was
built."""
if CORE is not None:
    CORE.state_setup(BackgammonState, tuple(BackgammonState.__dict__[n] for n in _FIELDS), _UNSET)
    _make = CORE.state


def _restore(
    ruleset: str,
    white: int,
    black: int,
    side: int,
    dice: Roll | None,
    stakes: Stakes | None = None,
) -> BackgammonState:
    return _make(get_game(ruleset), white, black, side, dice, stakes)


def _text(move: object) -> str:
    """A move as the refusals name it (their ``move``): its notation quoted, or any other value
    described (``42 (int)``)."""
    if isinstance(move, (Play, Roll, OpeningRoll, CubeAction)):
        return repr(str(move))
    return describe_value(move)


def _game_over(over: Outcome) -> IllegalMove:
    """The refusal of any move once the game is over."""
    return IllegalMove(
        "the game is over ({winner} won: {reason})",
        code="game-over",
        winner=str(over.winner),
        reason=over.reason,
    )


# -- the game ------------------------------------------------------------------------------


class BackgammonGame(Game):
    """Backgammon: ``seed`` (five checkers at most on a point, the lower opening die starts),
    ``standard`` (no cap, the higher die starts; single games, no cube, no gammons), ``money``
    (standard checker play for points: the doubling cube, gammons, backgammons, the Jacoby
    rule by default) or ``match`` (the same, in a match to N points with the Crawford game)."""

    name = "backgammon"
    rulesets = tuple(RULESETS)
    sides = SIDES
    has_chance = True

    def __init__(self, ruleset: str = "seed") -> None:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}: {', '.join(RULESETS)}")
        rules = RULESETS[ruleset]
        assert rules.cap in (0, 5), "the move generator's cap test is written for five"
        self.ruleset = ruleset
        self.cap = rules.cap
        self.lower_starts = rules.lower_starts
        self.stakes_kind = rules.stakes

    @property
    def has_stakes(self) -> bool:
        """True for the rulesets played for points with the doubling cube."""
        return self.stakes_kind is not None

    def start(
        self,
        *,
        length: int | None = None,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        jacoby: bool | None = None,
    ) -> BackgammonState:
        """A new game. ``match``: a match of ``length`` points (7 by default) at ``score``
        (white's, black's; ``crawford`` when this is the Crawford game); ``money``: with the
        Jacoby rule unless ``jacoby=False``. The cubeless rulesets take no options."""
        kind = self.stakes_kind
        if kind is None:
            if length is not None or jacoby is not None or score != (0, 0) or crawford:
                raise InvalidPosition(
                    "the {ruleset} ruleset plays single cubeless games: it has no match or money "
                    "options",
                    code="cubeless-ruleset-options",
                    ruleset=self.ruleset,
                )
            return _make(self, _START, _START, -1, None)
        if kind == MONEY:
            if length is not None or score != (0, 0) or crawford:
                raise InvalidPosition(
                    "a money game has no match score: load the 'match' ruleset",
                    code="money-game-score",
                )
            return _make(self, _START, _START, -1, None, cube_rules.money(jacoby is not False))
        if jacoby is not None:
            raise InvalidPosition(
                "the Jacoby rule is for money play, not matches", code="jacoby-in-match"
            )
        stakes = cube_rules.match(cube_rules.DEFAULT_LENGTH if length is None else length,
                                  score, crawford)  # fmt: skip
        return _make(self, _START, _START, -1, None, stakes)

    def evaluate(self, state: State, side: str) -> float:
        """The network's value for ``side`` (see ``games.backgammon.evaluation``)."""
        return self.evaluate_many([state], side)[0]

    heuristic_many: ClassVar[Callable[[Sequence[BackgammonState], str], list[float]] | None] = None
    """The knowledge behind ``evaluate_many``: ``evaluation.evaluate_many``, which the package
    sets (the rules do not import the evaluation, which reads them)."""

    def evaluate_many(self, states: Sequence[State], side: str) -> list[float]:
        """The values of many states for ``side``, the unfinished ones in one batch."""
        evaluate_many = BackgammonGame.heuristic_many
        if evaluate_many is None:
            return super().evaluate_many(states, side)
        self.check_side(side)
        finished = super().evaluate  # exact for finished games
        out = [0.0] * len(states)
        unfinished: list[int] = []
        batch: list[BackgammonState] = []
        for i, s in enumerate(states):
            self.check_state(s, BackgammonState)
            assert isinstance(s, BackgammonState)
            if s.outcome() is None:
                unfinished.append(i)
                batch.append(s)
            else:
                out[i] = finished(s, side)
        for i, v in zip(unfinished, evaluate_many(batch, side), strict=True):
            out[i] = v
        return out

    def parse_position(self, text: str) -> BackgammonState:
        if isinstance(text, str):
            stripped = text.strip()
            prefix = stripped[:5]  # ASCII only: "xgıd=".upper() is "XGID=" too
            if prefix.isascii() and prefix.upper() == "XGID=":
                return self.from_xgid(stripped)
            if _GNUBG_RE.fullmatch(stripped):
                return self.from_gnubg_id(stripped)
        return _parse_position(self, text)

    def from_xgid(self, text: str) -> BackgammonState:
        """A state from an XGID (white is the bottom player). The cube, the match score and
        the Crawford or Jacoby flag are read in ``money`` and ``match``, ignored elsewhere."""
        return ids.from_xgid(self, text)

    def from_gnubg_id(self, text: str) -> BackgammonState:
        """A state from a full GNU Backgammon ID (``state.gnubg_id()``: a Position ID, ``:``
        and a Match ID, which gives the side on roll and the dice, and in ``money`` and
        ``match`` the cube, the match and the decisions), or from a Position ID alone (white
        on roll, dice not rolled, a fresh game's cube). GNU Backgammon's player 0 is white."""
        return ids.from_gnubg(self, text)

    def from_boards(
        self,
        white: Sequence[int],
        black: Sequence[int],
        side: str | None,
        dice: str | None,
        stakes: Stakes | None = None,
    ) -> BackgammonState:
        """A state from 26 counts per side (index 0 off … 25 bar), validated like a position
        string. ``side`` is ``"white"``/``"black"``/``None``; ``dice`` like ``"31"`` or ``None``;
        ``stakes`` for the rulesets with a cube (a fresh game's when not given).
        """
        w = {p: n for p, n in enumerate(white) if p and n}
        b = {p: n for p, n in enumerate(black) if p and n}
        side_letter = "-" if side is None else {"white": "w", "black": "b"}.get(side, side)
        text = f"W[{_listing(w)}] B[{_listing(b)}] {side_letter} {'-' if dice is None else dice}"
        if self.stakes_kind is not None:
            if stakes is None:
                fresh = self.start().stakes
                assert fresh is not None
                stakes = fresh
            text = f"{text} {tail(stakes)}"
        elif stakes is not None:
            raise InvalidPosition(
                "the {ruleset} ruleset has no doubling cube",
                code="ruleset-without-cube",
                ruleset=self.ruleset,
            )
        return _parse_position(self, text)


_START = B.pack({24: 2, 13: 5, 8: 3, 6: 5})
_GAMES: dict[str, BackgammonGame] = {}
_GNUBG_RE = re.compile(r"[A-Za-z0-9+/]{14}(:[A-Za-z0-9+/]{12})?")


def get_game(ruleset: str = "seed") -> BackgammonGame:
    """The one game object of a ruleset."""
    game = _GAMES.get(ruleset)
    if game is None:
        game = _GAMES[ruleset] = BackgammonGame(ruleset)
    return game


# -- position strings ----------------------------------------------------------------------


def _listing(places: dict[int, int]) -> str:
    parts = []
    for p in sorted(places, reverse=True):
        n = places[p]
        name = point_name(p)
        parts.append(name if n == 1 else f"{name}x{n}")
    return ",".join(parts)


def _checkers_text(board: int) -> str:
    counts = B.unpack(board)
    return _listing({p: counts[p] for p in range(1, 26) if counts[p]})


_POSITION_RE = re.compile(
    r"\s*W\[(?P<w>[^\]]*)\]\s+B\[(?P<b>[^\]]*)\]\s+(?P<side>\S+)\s+(?P<dice>\S+)\s*",
    re.IGNORECASE,
)
_TAIL_RE = re.compile(
    r"\s*(?P<head>W\[[^\]]*\]\s+B\[[^\]]*\]\s+\S+\s+\S+)\s+(?P<tail>\S.*?)\s*",
    re.IGNORECASE | re.DOTALL,
)
# re.ASCII: ``\d`` is 0–9 only, and letters match only their ASCII cases
_ENTRY_RE = re.compile(r"(?P<place>bar|\d+)(?:x(?P<n>\d+))?", re.IGNORECASE | re.ASCII)


def _parse_checkers(text: str, colour: str, cap: int) -> dict[int, int]:
    places: dict[int, int] = {}
    entries = text.strip()
    if not entries:
        return places
    for raw in entries.split(","):
        entry = raw.strip()
        match = _ENTRY_RE.fullmatch(entry)
        if match is None:
            raise InvalidPosition(
                "{colour}: cannot read {entry!r} (write a point 1–24 or 'bar', and 'xN' for N "
                "checkers, e.g. 13x5)",
                code="unreadable-checkers",
                colour=colour,
                entry=entry,
            )
        name = match["place"].lower()
        place = B.BAR if name == "bar" else read_number(name, InvalidPosition, "a position")
        if not 1 <= place <= 25 or (place == 25 and name != "bar"):
            raise InvalidPosition(
                "{colour}: there is no point {place} (points are 1–24)",
                code="checkers-off-board",
                colour=colour,
                place=place,
            )
        n = 1 if match["n"] is None else read_number(match["n"], InvalidPosition, "a position")
        if n < 1:
            raise InvalidPosition(
                "{colour}: {entry!r} has {count} checkers; a count is 1 or more",
                code="no-checkers-counted",
                colour=colour,
                entry=entry,
                count=n,
            )
        if place in places:
            raise InvalidPosition(
                "{colour}: {place} is listed twice",
                code="point-listed-twice",
                colour=colour,
                place=point_name(place),
            )
        if cap and place != B.BAR and n > cap:
            raise InvalidPosition(
                "{colour}: {count} checkers on {place}; this ruleset allows at most {cap} of "
                "your own on a point",
                code="over-cap",
                colour=colour,
                count=n,
                place=place,
                cap=cap,
            )
        places[place] = n
    total = sum(places.values())
    if total > B.CHECKERS:
        raise InvalidPosition(
            "{colour} has {total} checkers on the board; a side has 15",
            code="too-many-checkers",
            colour=colour,
            total=total,
        )
    return places


def _parse_position(game: BackgammonGame, text: object) -> BackgammonState:
    if not isinstance(text, str):
        raise InvalidPosition(
            "a position must be a string, not {value} ({type})",
            code="position-not-text",
            **described(text),
        )
    stakes: Stakes | None = None
    head = text
    if game.stakes_kind is not None:
        with_tail = _TAIL_RE.fullmatch(text)
        if with_tail is None:
            if _POSITION_RE.fullmatch(text) is not None:
                raise InvalidPosition(
                    "the {ruleset} ruleset plays with the doubling cube: after the dice come "
                    "'cube N' (with 'w' or 'b' when a side owns it), then as they apply "
                    "'rolling', 'doubled', 'resign single|gammon|backgammon', 'dropped w|b', "
                    "'resigned w|b single|gammon|backgammon', 'jacoby', 'match N W-B' and "
                    "'crawford'",
                    code="ruleset-needs-cube",
                    ruleset=game.ruleset,
                )
            raise InvalidPosition(
                "cannot read {text!r}: a position reads like 'W[24x2,13x5,8x3,6x5] "
                "B[24x2,13x5,8x3,6x5] - -' followed by the cube ('cube 1')",
                code="unreadable-position-with-cube",
                text=text.strip()[:80],
            )
        head = with_tail["head"]
        stakes = parse_tail(with_tail["tail"], game.stakes_kind)
    match = _POSITION_RE.fullmatch(head)
    if match is None:
        raise InvalidPosition(
            "cannot read {text!r}: a position reads like 'W[24x2,13x5,8x3,6x5] "
            "B[24x2,13x5,8x3,6x5] - -'",
            code="unreadable-backgammon-position",
            text=text.strip()[:80],
        )
    white = _parse_checkers(match["w"], "white", game.cap)
    black = _parse_checkers(match["b"], "black", game.cap)
    for p, n in white.items():
        if p != B.BAR and black.get(25 - p):
            raise InvalidPosition(
                "white's {point} (black's {mirror}) holds checkers of both sides ({white} white, "
                "{black} black)",
                code="shared-point",
                point=p,
                mirror=25 - p,
                white=n,
                black=black[25 - p],
            )
    side_token = match["side"].lower()
    if side_token not in ("w", "b", "-"):
        raise InvalidPosition(
            "the side to move is 'w', 'b' or '-', not {token!r}",
            code="backgammon-bad-side",
            token=side_token,
        )
    dice_token = match["dice"]
    dice: Roll | None = None
    if dice_token != "-":
        if not re.fullmatch(r"[1-6][1-6]", dice_token):
            raise InvalidPosition(
                "the dice are two digits 1–6 like '31', or '-', not {token!r}",
                code="bad-dice",
                token=dice_token,
            )
        a, b = int(dice_token[0]), int(dice_token[1])
        dice = Roll(max(a, b), min(a, b))
    w_board = B.pack(white) + (B.CHECKERS - sum(white.values()))
    b_board = B.pack(black) + (B.CHECKERS - sum(black.values()))
    w_done, b_done = not white, not black
    if w_done and b_done:
        raise InvalidPosition(
            "both sides have borne off everything: only one can win", code="both-borne-off"
        )
    if w_done or b_done:
        if side_token != "-" or dice is not None:
            raise InvalidPosition(
                "{colour} has borne off all 15: the game is over, so side and dice must both be "
                "'-'",
                code="borne-off-with-turn",
                colour="white" if w_done else "black",
            )
    elif side_token == "-" and dice is not None:
        raise InvalidPosition(
            "dice to play need a side to play them: write 'w' or 'b'", code="dice-without-side"
        )
    side = {"w": 0, "b": 1, "-": -1}[side_token]
    if stakes is not None:
        _check_stakes(stakes, side, dice, w_done or b_done)
    return _make(game, w_board, b_board, side, dice, stakes)


def _check_stakes(stakes: Stakes, side: int, dice: Roll | None, borne_off: bool) -> None:
    """Refuse stakes that no game reaches with this side to move and these dice."""
    if borne_off:
        if stakes.pending or stakes.ended:
            raise InvalidPosition(
                "a game borne off has no pending decision and no other ending",
                code="borne-off-with-stakes",
            )
        return
    if stakes.ended:
        if side >= 0 or dice is not None:
            raise InvalidPosition(
                "a game ended by a drop or a resignation has '-' for side and dice",
                code="ended-with-turn",
            )
        return
    if side < 0:
        if dice is not None:
            return  # refused by the caller
        if stakes.value != 1 or stakes.pending:
            raise InvalidPosition(
                "before the opening roll the cube is in the middle at 1, with no decision pending",
                code="cube-before-opening",
            )
        return
    if stakes.pending in (ROLLING, DOUBLED):
        word = "rolling" if stakes.pending == ROLLING else "doubled"
        if dice is not None:
            raise InvalidPosition(
                "'{word}' comes before the roll: the dice must be '-'",
                code="decision-with-dice",
                word=word,
            )
        if not stakes.may_double(side):
            raise InvalidPosition(
                "'{word}': {side} may not double here",
                code="decision-without-double",
                word=word,
                side=SIDES[side],
            )


__all__ = [
    "BLACK",
    "BORNE_OFF",
    "RULESETS",
    "SIDES",
    "WHITE",
    "BackgammonGame",
    "BackgammonState",
    "OpeningRoll",
    "PartialTurn",
    "Play",
    "Roll",
    "Step",
    "get_game",
]
