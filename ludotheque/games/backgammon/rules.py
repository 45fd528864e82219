"""Backgammon as the seed tells it (``seed``) and international backgammon without cube
(``standard``): states, chance nodes, legal plays and position strings.

A state holds both sides' checkers (packed, each in its own view), the side to move and the roll
to play. Chance nodes: the opening (``to_move == "chance"`` with no side yet) and each roll.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ...core import CHANCE, Game, IllegalMove, InvalidPosition, Outcome, State, describe_value
from .._numbers import read_number
from . import board as B
from .movegen import generate
from .moves import OPENINGS, ROLLS, OpeningRoll, Play, Roll, Step, point_name

WHITE = "white"
BLACK = "black"
SIDES = (WHITE, BLACK)
BORNE_OFF = "borne-off"
_LETTER = ("w", "b")
_UNSET: Any = object()


@dataclass(frozen=True)
class Ruleset:
    """What distinguishes the rulesets: the cap on own checkers per point (0: none) and whether
    the lower opening die starts."""

    name: str
    cap: int
    lower_starts: bool


RULESETS = {
    "seed": Ruleset("seed", 5, True),
    "standard": Ruleset("standard", 0, False),
}


class BackgammonState(State):
    """A backgammon position (see the module docstring).

    >>> game = BackgammonGame("standard")
    >>> s = game.start().play("w3b1")     # white rolled 3, black 1: the higher die starts
    >>> s.to_move, str(s.dice)
    ('white', '31')
    >>> str(s.play("8/5 6/5").play("66").legal_moves()[0])
    '24/18 24/18 13/7 13/7'
    """

    __slots__ = ("_black", "_dice", "_game", "_moves", "_outcome", "_side", "_white")

    _game: BackgammonGame
    _white: int
    _black: int
    _side: int  # 0 white, 1 black, -1 no side (before the opening, or over)
    _dice: Roll | None
    _moves: list[Play]
    _outcome: Outcome | None

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("states are immutable: play() returns a new state")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("states are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self._game.ruleset, self._white, self._black, self._side, self._dice))

    # -- the protocol ----------------------------------------------------------------------

    @property
    def game(self) -> BackgammonGame:
        return self._game

    @property
    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
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
        return f"W[{_checkers_text(self._white)}] B[{_checkers_text(self._black)}] {side} {dice}"

    def legal_moves(self) -> list[Play]:
        moves = self._moves
        if moves is _UNSET:
            if self._dice is None or self._side < 0 or self.outcome() is not None:
                moves = []
            else:
                me, opp = self._mover_boards()
                dice = self._dice
                leaves, _ = generate(me, opp, dice.high, dice.low, self._game.cap)
                moves = [Play(raw, m, o) for (m, o), raw in leaves.items()]
            object.__setattr__(self, "_moves", moves)
        return moves

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.outcome() is not None:
            return []
        if self._side < 0:
            return list(OPENINGS)
        if self._dice is None:
            return list(ROLLS)
        return []

    def outcome(self) -> Outcome | None:
        result = self._outcome
        if result is _UNSET:
            if self._white & 15 == B.CHECKERS:
                result = Outcome(WHITE, BORNE_OFF)
            elif self._black & 15 == B.CHECKERS:
                result = Outcome(BLACK, BORNE_OFF)
            else:
                result = None
            object.__setattr__(self, "_outcome", result)
        return result

    def parse_move(self, text: str) -> Any:
        from .notation import parse_chance, parse_play

        if not isinstance(text, str):
            raise IllegalMove(f"a move must be text like '13/7 8/7', not {describe_value(text)}")
        over = self.outcome()
        if over is not None:
            raise IllegalMove(f"the game is over ({over.winner} won: {over.reason})")
        if self.to_move == CHANCE:
            return parse_chance(self, text)
        return parse_play(self, text)

    def play(self, move: Any) -> BackgammonState:
        if isinstance(move, str):
            move = self.parse_move(move)
        over = self.outcome()
        if over is not None:
            raise IllegalMove(f"the game is over ({over.winner} won: {over.reason})")
        if self._side < 0:
            if not isinstance(move, OpeningRoll) or move.white == move.black:
                raise IllegalMove(f"the game starts with the opening roll, not {_text(move)}")
            if not (1 <= move.white <= 6 and 1 <= move.black <= 6):
                raise IllegalMove(f"{_text(move)} is not a roll of two dice")
            white_starts = (move.white < move.black) == self._game.lower_starts
            return _make(self._game, self._white, self._black, 0 if white_starts else 1, move.roll)
        if self._dice is None:
            if not isinstance(move, Roll) or not (1 <= move.low <= move.high <= 6):
                raise IllegalMove(f"{SIDES[self._side]} must roll the dice, not {_text(move)}")
            return _make(self._game, self._white, self._black, self._side, move)
        if not isinstance(move, Play) or move not in self.legal_moves():
            raise IllegalMove(f"{_text(move)} is not a legal play here")
        return self._after(move.mover_after, move.opponent_after)

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
        )

    def __hash__(self) -> int:
        return hash((self._white, self._black, self._side, self._dice))

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
        can end now. Raises ``IllegalMove`` if a step of ``done`` was not allowed.
        """
        from .turn import partial_turn

        return partial_turn(self, done)

    def pass_reason(self) -> str:
        """Why the side to move cannot move with its roll (empty when it can)."""
        from .notation import explain_single

        moves = self.legal_moves()
        if not moves or not moves[0].is_pass or self._dice is None:
            return ""
        me, opp = self._mover_boards()
        cap = self._game.cap
        reasons: list[str] = []
        for die in sorted({self._dice.high, self._dice.low}, reverse=True):
            if B.count(me, B.BAR):
                reason = explain_single(me, opp, B.BAR, 25 - die, die, cap)
                reasons.append(f"the bar/{25 - die} with the {die}: {reason}")
                continue
            sources = [p for p in range(24, 0, -1) if B.count(me, p)]
            for src in sources[:2]:
                dst = max(src - die, 0)
                reasons.append(f"{point_name(src)}/{point_name(dst)}: "
                               f"{explain_single(me, opp, src, dst, die, cap)}")  # fmt: skip
        return "; ".join(dict.fromkeys(reasons))

    def gnubg_id(self) -> str:
        """The GNU Backgammon Position ID (the side to move, or white, as the player on roll)."""
        from .ids import gnubg_position_id

        return gnubg_position_id(self)

    def gnubg_match_id(self) -> str:
        """A GNU Backgammon Match ID for this position (money game, no cube): who is on roll
        and the dice. ``f"{s.gnubg_id()}:{s.gnubg_match_id()}"`` is a full GNU Backgammon ID."""
        from .ids import gnubg_match_id

        return gnubg_match_id(self)

    def xgid(self) -> str:
        """The position as an eXtreme Gammon XGID (white at the bottom; money game, no cube)."""
        from .ids import to_xgid

        return to_xgid(self)

    # -- internals -------------------------------------------------------------------------

    def _packed(self, side: str) -> int:
        if side == WHITE:
            return self._white
        if side == BLACK:
            return self._black
        raise ValueError(f"unknown side {side!r}: the sides are white and black")

    def _mover_boards(self) -> tuple[int, int]:
        if self._side == 0:
            return self._white, self._black
        return self._black, self._white

    def _after(self, mover: int, opponent: int) -> BackgammonState:
        white, black = (mover, opponent) if self._side == 0 else (opponent, mover)
        over = mover & 15 == B.CHECKERS
        return _make(self._game, white, black, -1 if over else 1 - self._side, None)


@dataclass(frozen=True)
class PartialTurn:
    """A turn being played one checker at a time.

    ``done``: the single moves made; ``dice_left``: the dice not used yet; ``next_steps``: the
    single moves that may come next (each can still end in a legal play); ``play``: the legal
    play these moves make when the turn can end now, else ``None``; ``white``/``black``: the
    boards now (26 counts each, as ``BackgammonState.board``).
    """

    done: tuple[Step, ...]
    dice_left: tuple[int, ...]
    next_steps: tuple[Step, ...]
    play: Play | None
    white: tuple[int, ...]
    black: tuple[int, ...]

    @property
    def can_finish(self) -> bool:
        """True when the moves made so far are a whole legal play."""
        return self.play is not None


def _make(
    game: BackgammonGame, white: int, black: int, side: int, dice: Roll | None
) -> BackgammonState:
    state = object.__new__(BackgammonState)
    setter = object.__setattr__
    setter(state, "_game", game)
    setter(state, "_white", white)
    setter(state, "_black", black)
    setter(state, "_side", side)
    setter(state, "_dice", dice)
    setter(state, "_moves", _UNSET)
    setter(state, "_outcome", _UNSET)
    return state


def _restore(ruleset: str, white: int, black: int, side: int, dice: Roll | None) -> BackgammonState:
    return _make(get_game(ruleset), white, black, side, dice)


def _text(move: object) -> str:
    if isinstance(move, (Play, Roll, OpeningRoll)):
        return repr(str(move))
    return describe_value(move)


# -- the game ------------------------------------------------------------------------------


class BackgammonGame(Game):
    """Backgammon: ``seed`` (five checkers at most on a point, the lower opening die starts) or
    ``standard`` (no cap, the higher die starts). No cube, no gammons."""

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

    def start(self) -> BackgammonState:
        return _make(self, _START, _START, -1, None)

    def evaluate(self, state: State, side: str) -> float:
        """The network's value for ``side`` (see ``games.backgammon.evaluation``)."""
        return self.evaluate_many([state], side)[0]

    def evaluate_many(self, states: Sequence[State], side: str) -> list[float]:
        """The values of many states for ``side``, the unfinished ones in one batch."""
        from .evaluation import evaluate_many

        finished = super().evaluate  # exact for finished games
        out = [0.0] * len(states)
        unfinished: list[int] = []
        batch: list[BackgammonState] = []
        for i, s in enumerate(states):
            if s.outcome() is None:
                assert isinstance(s, BackgammonState)
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
        """A state from an XGID (white is the bottom player; cube and score are ignored)."""
        from .ids import from_xgid

        return from_xgid(self, text)

    def from_gnubg_id(self, text: str) -> BackgammonState:
        """A state from a GNU Backgammon Position ID, optionally followed by ``:`` and a Match
        ID (which gives the side on roll and the dice; without it white is on roll, dice not
        rolled). GNU Backgammon's player 0 is white."""
        from .ids import from_gnubg

        return from_gnubg(self, text)

    def from_boards(
        self, white: Sequence[int], black: Sequence[int], side: str | None, dice: str | None
    ) -> BackgammonState:
        """A state from 26 counts per side (index 0 off … 25 bar), validated like a position
        string. ``side`` is ``"white"``/``"black"``/``None``; ``dice`` like ``"31"`` or ``None``.
        """
        w = {p: n for p, n in enumerate(white) if p and n}
        b = {p: n for p, n in enumerate(black) if p and n}
        side_letter = "-" if side is None else {"white": "w", "black": "b"}.get(side, side)
        text = f"W[{_listing(w)}] B[{_listing(b)}] {side_letter} {'-' if dice is None else dice}"
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
# re.ASCII: ``\d`` is 0–9 only, and letters match only their ASCII cases
_ENTRY_RE = re.compile(r"(?P<place>bar|\d+)(?:x(?P<n>\d+))?", re.IGNORECASE | re.ASCII)
_FORMAT_HELP = "a position reads like 'W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - -'"


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
                f"{colour}: cannot read {entry!r} (write a point 1–24 or 'bar', and 'xN' for "
                "N checkers, e.g. 13x5)"
            )
        name = match["place"].lower()
        place = B.BAR if name == "bar" else read_number(name, InvalidPosition, "a position")
        if not 1 <= place <= 25 or (place == 25 and name != "bar"):
            raise InvalidPosition(f"{colour}: there is no point {place} (points are 1–24)")
        n = 1 if match["n"] is None else read_number(match["n"], InvalidPosition, "a position")
        if n < 1:
            raise InvalidPosition(f"{colour}: {entry!r} has {n} checkers; a count is 1 or more")
        if place in places:
            raise InvalidPosition(f"{colour}: {point_name(place)} is listed twice")
        if cap and place != B.BAR and n > cap:
            raise InvalidPosition(
                f"{colour}: {n} checkers on {place}; this ruleset allows at most {cap} of "
                "your own on a point"
            )
        places[place] = n
    total = sum(places.values())
    if total > B.CHECKERS:
        raise InvalidPosition(f"{colour} has {total} checkers on the board; a side has 15")
    return places


def _parse_position(game: BackgammonGame, text: object) -> BackgammonState:
    if not isinstance(text, str):
        raise InvalidPosition(f"a position must be a string, not {describe_value(text)}")
    match = _POSITION_RE.fullmatch(text)
    if match is None:
        raise InvalidPosition(f"cannot read {text.strip()[:80]!r}: {_FORMAT_HELP}")
    white = _parse_checkers(match["w"], "white", game.cap)
    black = _parse_checkers(match["b"], "black", game.cap)
    for p, n in white.items():
        if p != B.BAR and black.get(25 - p):
            raise InvalidPosition(
                f"white's {p} (black's {25 - p}) holds checkers of both sides "
                f"({n} white, {black[25 - p]} black)"
            )
    side_token = match["side"].lower()
    if side_token not in ("w", "b", "-"):
        raise InvalidPosition(f"the side to move is 'w', 'b' or '-', not {side_token!r}")
    dice_token = match["dice"]
    dice: Roll | None = None
    if dice_token != "-":
        if not re.fullmatch(r"[1-6][1-6]", dice_token):
            raise InvalidPosition(
                f"the dice are two digits 1–6 like '31', or '-', not {dice_token!r}"
            )
        a, b = int(dice_token[0]), int(dice_token[1])
        dice = Roll(max(a, b), min(a, b))
    w_board = B.pack(white) + (B.CHECKERS - sum(white.values()))
    b_board = B.pack(black) + (B.CHECKERS - sum(black.values()))
    w_done, b_done = not white, not black
    if w_done and b_done:
        raise InvalidPosition("both sides have borne off everything: only one can win")
    if w_done or b_done:
        if side_token != "-" or dice is not None:
            raise InvalidPosition(
                f"{'white' if w_done else 'black'} has borne off all 15: the game is over, so "
                "side and dice must both be '-'"
            )
    elif side_token == "-" and dice is not None:
        raise InvalidPosition("dice to play need a side to play them: write 'w' or 'b'")
    side = {"w": 0, "b": 1, "-": -1}[side_token]
    return _make(game, w_board, b_board, side, dice)


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
