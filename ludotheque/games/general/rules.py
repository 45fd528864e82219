"""The rules of Le Général et les rebelles (contract: the project's rules page for the game).

A state is four values: the general's point, the rebels as a bitmask, the side to move and
whether the flight is still available. Legal moves and the outcome are computed on demand and
cached on the (otherwise immutable) state; the outcome never needs the list of moves (whether a
side can move at all is a few mask operations), and a move taken from the state's own list is
played without being searched for in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NoReturn

from ...core import (
    AmbiguousMove,
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
from .._numbers import short_enough
from .board import (
    ALL_MASK,
    APEX,
    GATES_MASK,
    INDEX,
    NAMES,
    NEIGHBOUR_MASK,
    NEIGHBOURS,
    NUM_POINTS,
    PAIRS_AT,
    S4,
    SANCTUARY_MASK,
    START_GENERAL,
    START_REBELS,
    mask_names,
)
from .movegen import general_moves, rebel_moves
from .moves import REBEL_MOVE_IDS, REBEL_REACH, GeneralMove

REBELS = "rebels"
GENERAL = "general"
SIDES = (REBELS, GENERAL)
_SIDE_CODE = {"r": 0, "g": 1}

# Outcome reasons (stable codes of the contract).
TWELVE_CAPTURED = "twelve-captured"
SHUT_IN = "shut-in"
IMMOBILISED = "immobilised"
NO_MOVE = "no-move"
REPETITION = "repetition"

_UNSET: Any = object()
_TWELVE_CAPTURED = Outcome(GENERAL, TWELVE_CAPTURED)
_SHUT_IN = Outcome(REBELS, SHUT_IN)
_IMMOBILISED = Outcome(REBELS, IMMOBILISED)
_NO_MOVE = Outcome(GENERAL, NO_MOVE)


class _Fields:
    """The storage of a state. States are built as ``_Fields`` (plain, fast attribute stores),
    then become ``GeneralState``s, which refuse every change."""

    __slots__ = ("_flight", "_general", "_moves", "_outcome", "_rebels", "_side")

    _general: int
    _rebels: int
    _side: int
    _flight: bool
    _moves: list[GeneralMove]
    _outcome: Outcome | None


class GeneralState(_Fields, State):
    """A position of Le Général et les rebelles.

    >>> s = GeneralGame().start()
    >>> s.to_move
    'rebels'
    >>> s.play("a2-b2").to_move
    'general'
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("states are immutable: play() returns a new state")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("states are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make, (self._general, self._rebels, self._side, self._flight))

    # -- the public protocol -------------------------------------------------------------

    @property
    def game(self) -> GeneralGame:
        return GAME

    @property
    def general(self) -> str:
        """The general's point."""
        return NAMES[self._general]

    @property
    def rebels(self) -> list[str]:
        """The rebels' points, sorted."""
        return mask_names(self._rebels)

    @property
    def rebel_count(self) -> int:
        """How many rebels remain."""
        return self._rebels.bit_count()

    @property
    def flight_available(self) -> bool:
        """True while the general has not flown."""
        return self._flight

    @property
    def side(self) -> str:
        """Whose turn it is by the position string (even when the game is over)."""
        return SIDES[self._side]

    @property
    def to_move(self) -> str | None:
        result = self._outcome
        if result is _UNSET:
            result = self.outcome()
        return None if result is not None else SIDES[self._side]

    def position(self) -> str:
        return (
            f"{NAMES[self._general]} {','.join(mask_names(self._rebels))} "
            f"{'rg'[self._side]} {int(self._flight)}"
        )

    def legal_moves(self) -> list[GeneralMove]:
        moves = self._moves
        if moves is _UNSET:
            result = self._outcome
            if result is _UNSET:
                result = self.outcome()
            return [] if result is not None else self._generate()
        return moves

    def outcome(self) -> Outcome | None:
        result = self._outcome
        if result is _UNSET:
            rebels = self._rebels
            g = self._general
            if rebels.bit_count() <= 4:
                result = _TWELVE_CAPTURED
            elif (SANCTUARY_MASK >> g) & 1 and rebels & GATES_MASK == GATES_MASK:
                result = _SHUT_IN
            elif self._side:  # the general: a point next to him is empty
                result = None if NEIGHBOUR_MASK[g] & ~rebels else _IMMOBILISED
            else:  # the rebels: a point one of them may step to is empty
                reach = (
                    REBEL_REACH[0][rebels & 255]
                    | REBEL_REACH[1][(rebels >> 8) & 255]
                    | REBEL_REACH[2][(rebels >> 16) & 255]
                    | REBEL_REACH[3][rebels >> 24]
                )
                result = None if reach & ~(rebels | (1 << g)) else _NO_MOVE
            object.__setattr__(self, "_outcome", result)
        return result

    def play(self, move: Any) -> GeneralState:
        if id(move) in REBEL_MOVE_IDS:
            # one of the rebels' steps: legal when it is their turn, its rebel is there, its
            # point is empty and the game goes on (a few operations, no search of the list)
            src, dst, _, _ = move
            rebels = self._rebels
            if (
                (rebels >> src) & 1
                and not ((rebels | (1 << self._general)) >> dst) & 1
                and not self._side
                and (self._outcome is None or self.to_move is not None)
            ):
                return _make(self._general, rebels ^ ((1 << src) | (1 << dst)), 1, self._flight)
        elif self._side and type(move) is GeneralMove and move in self.legal_moves():
            _src, dst, landing, captured = move  # the general's (a short list)
            if landing < 0:
                return _make(dst, self._rebels & ~captured, 0, self._flight)
            return _make(landing, self._rebels & ~captured, 0, False)
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, GeneralMove) or move not in self.legal_moves():
            if self.outcome() is not None:
                raise self._game_over()
            raise IllegalMove(
                "{move} is not a legal move here", code="not-a-legal-move", move=_move_text(move)
            )
        return self._apply(move)

    def parse_move(self, text: str) -> GeneralMove:
        return _parse_move(self, text)

    # -- the parts, for search and learning loops ------------------------------------------

    @property
    def parts(self) -> tuple[int, int, int, bool]:
        """What the state holds, as ``from_parts`` takes it: ``(general, rebels, side,
        flight)``: the general's point number (an index of ``board.NAMES``), the rebels as a
        bitmask of point numbers, the side to move (0 the rebels, 1 the general) and whether
        the flight is still available.

        >>> s = GeneralGame().start()
        >>> general, rebels, side, flight = s.parts
        >>> rebels.bit_count(), side, flight, GeneralState.from_parts(*s.parts) == s
        (16, 0, True, True)
        """
        return (self._general, self._rebels, self._side, self._flight)

    @staticmethod
    def from_parts(general: int, rebels: int, side: int, flight: bool) -> GeneralState:
        """The state of these parts (see ``parts``), unchecked: for a search or a learning
        loop that makes states from the parts of the engine's own states (a position string
        is checked). Its moves and outcome are found on demand, as any state's."""
        return _make(general, rebels, side, flight)

    # -- values ----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GeneralState):
            return NotImplemented
        return (
            self._general == other._general
            and self._rebels == other._rebels
            and self._side == other._side
            and self._flight == other._flight
        )

    def __hash__(self) -> int:
        return hash((self._general, self._rebels, self._side, self._flight))

    # -- internals -------------------------------------------------------------------------

    def _generate(self) -> list[GeneralMove]:
        """The legal moves (the game not being over), cached."""
        moves = self._moves
        if moves is _UNSET:
            if self._side:
                moves = general_moves(self._rebels, self._general, self._flight)
            else:
                moves = rebel_moves(self._rebels, self._general)
            object.__setattr__(self, "_moves", moves)
        return moves

    def _apply(self, move: GeneralMove) -> GeneralState:
        if move.src == self._general:
            end = move.landing if move.landing >= 0 else move.dst
            return _make(end, self._rebels & ~move.captured, 0, self._flight and move.landing < 0)
        return _make(self._general, self._rebels ^ ((1 << move.src) | (1 << move.dst)), 1,
                     self._flight)  # fmt: skip

    def _game_over(self) -> IllegalMove:
        """The refusal of any move once the game is over."""
        outcome = self.outcome()
        assert outcome is not None
        return IllegalMove(
            "the game is over ({winner} won: {reason})",
            code="game-over",
            winner=str(outcome.winner),
            reason=outcome.reason,
        )


def _make(general: int, rebels: int, side: int, flight: bool) -> GeneralState:
    state = _new(_Fields)
    state._general = general
    state._rebels = rebels
    state._side = side
    state._flight = flight
    state._moves = _UNSET
    state._outcome = _UNSET
    state.__class__ = GeneralState  # from now on it refuses every change
    return state  # type: ignore[return-value]


_new = object.__new__


def _move_text(move: object) -> str:
    if isinstance(move, GeneralMove):
        return str(move)
    return describe_value(move)


# -- the game ------------------------------------------------------------------------------


class GeneralGame(Game):
    """Le Général et les rebelles: rebels (16, moving first) hunt the general."""

    name = "general"
    ruleset = "default"
    rulesets = ("default",)
    sides = SIDES
    repetition_limit = 3
    """A position seen this many times in a game's record is a draw (``repetition``)."""

    def start(self) -> GeneralState:
        return _make(START_GENERAL, START_REBELS, 0, True)

    heuristic: ClassVar[Callable[[GeneralState, str], float] | None] = None
    """The knowledge behind ``evaluate``: ``evaluation.evaluate``, which the package sets (the
    rules do not import the evaluation, which reads them)."""

    def evaluate(self, state: State, side: str) -> float:
        """Heuristic value for ``side`` (see ``games.general.evaluation``)."""
        heuristic = GeneralGame.heuristic
        if heuristic is None or not isinstance(state, GeneralState) or state.outcome() is not None:
            return super().evaluate(state, side)  # (which refuses a side or state not of this game)
        return heuristic(state, self.check_side(side))

    def parse_position(self, text: str) -> GeneralState:
        return _parse_position(text)

    def from_parts(
        self, general: str, rebels: Sequence[str], side: str = REBELS, flight: bool = True
    ) -> GeneralState:
        """Build a position from point names (validated like a position string; parts of the
        wrong type are refused as ``InvalidPosition`` too, not a ``TypeError``)."""
        if not isinstance(rebels, Sequence) or isinstance(rebels, (str, bytes, bytearray)):
            # a string is a sequence of characters: "a1" would be read as the points a and 1
            raise InvalidPosition(
                "the rebels are a list of points like ['a1', 'a2'], not {value} ({type})",
                code="rebels-not-a-list",
                **described(rebels),
            )
        for point in rebels:
            if not isinstance(point, str):
                raise InvalidPosition(
                    "a rebel's point is text like 'a1', not {value} ({type})",
                    code="rebel-point-not-text",
                    **described(point),
                )
        if not isinstance(flight, int) or flight not in (0, 1):  # a bool is an int
            raise InvalidPosition(
                "the flight is True or False, not {value} ({type})",
                code="flight-not-bool",
                **described(flight),
            )
        side_code = "r" if side == REBELS else "g" if side == GENERAL else side
        return _parse_position(f"{general} {','.join(rebels)} {side_code} {int(flight)}")


GAME = GeneralGame()


def get_game(ruleset: str = "default") -> GeneralGame:
    """The game object (the General has one ruleset, ``default``)."""
    if ruleset != "default":
        raise ValueError(f"the General has no ruleset {ruleset!r}")
    return GAME


# -- position strings ----------------------------------------------------------------------


def _general_point(token: str) -> int:
    index = INDEX.get(token)
    if index is None:
        raise InvalidPosition(
            "the general: {token!r} is not a point of the board (points are a1…e5 and s1…s4)",
            code="general-off-board",
            token=token,
        )
    return index


def _rebel_point(token: str) -> int:
    index = INDEX.get(token)
    if index is None:
        raise InvalidPosition(
            "a rebel: {token!r} is not a point of the board (points are a1…e5 and s1…s4)",
            code="rebel-off-board",
            token=token,
        )
    return index


def _parse_position(text: object) -> GeneralState:
    if not isinstance(text, str):
        raise InvalidPosition(
            "a position must be a string, not {value} ({type})",
            code="position-not-text",
            **described(text),
        )
    fields = text.lower().split()
    if len(fields) != 4:
        raise InvalidPosition(
            "a position has 4 fields (general, rebels, side, flight), e.g. "
            "'c3 a1,a2,… r 1'; got {count} in {text!r}",
            code="general-position-fields",
            count=len(fields),
            text=text,
        )
    general_token, rebels_token, side_token, flight_token = fields
    general = _general_point(general_token)
    rebels = 0
    for token in rebels_token.split(","):
        if not token:
            raise InvalidPosition(
                "empty rebel point in {text!r} (stray comma?)",
                code="empty-rebel-point",
                text=rebels_token,
            )
        point = _rebel_point(token)
        if (rebels >> point) & 1:
            raise InvalidPosition("two rebels on {point}", code="two-rebels", point=token)
        if (SANCTUARY_MASK >> point) & 1:
            raise InvalidPosition(
                "a rebel on {point}: rebels may never stand in the sanctuary",
                code="rebel-in-sanctuary",
                point=token,
            )
        if point == general:
            raise InvalidPosition(
                "the general and a rebel both on {point}", code="general-on-rebel", point=token
            )
        rebels |= 1 << point
    count = rebels.bit_count()
    if count > 16:
        raise InvalidPosition(
            "{count} rebels: there are at most 16", code="too-many-rebels", count=count
        )
    if count < 4:
        raise InvalidPosition(
            "{count} rebels: the game ends when 4 remain, so never fewer",
            code="too-few-rebels",
            count=count,
        )
    if count % 2:
        raise InvalidPosition(
            "{count} rebels: captures remove two at a time, so it must be even",
            code="odd-rebels",
            count=count,
        )
    if side_token not in _SIDE_CODE:
        raise InvalidPosition(
            "side to move must be 'r' (rebels) or 'g' (general), not {token!r}",
            code="general-bad-side",
            token=side_token,
        )
    if flight_token not in ("0", "1"):
        raise InvalidPosition(
            "flight must be '1' (still available) or '0' (used), not {token!r}",
            code="bad-flight",
            token=flight_token,
        )
    flight = flight_token == "1"
    if general == APEX and flight:
        raise InvalidPosition(
            "the general is on s4 with his flight unused: reaching s4 uses the flight",
            code="apex-with-flight",
        )
    assert rebels & ~ALL_MASK == 0
    return _make(general, rebels, _SIDE_CODE[side_token], flight)


# -- move notation -------------------------------------------------------------------------

_P = r"([a-wyz]?[0-9]*)"  # a point-like token (no point name starts with the 'x' of captures)
_MOVE_RE = re.compile(rf"{_P}-{_P}(?:\*{_P})?(?:x([a-z0-9]*))?")


def _move_point(token: str) -> int:
    index = INDEX.get(token)
    if index is None:
        if not token:
            raise InvalidMove(
                "a point is missing: write a step as 'a1-b2', a capture as 'c3-b2xa3c1', a "
                "flight as 's2-s4*c3'",
                code="missing-point",
            )
        raise InvalidMove(
            "{token!r} is not a point of the board (a1…e5, s1…s4)",
            code="not-a-point",
            token=token,
        )
    return index


def _pair_names(pairs: list[int]) -> list[str]:
    """Pairs of rebels as the notation writes them (``a3+c1``)."""
    return ["+".join(mask_names(p)) for p in pairs]


def _parse_move(state: GeneralState, text: object) -> GeneralMove:
    if not isinstance(text, str):
        raise InvalidMove(
            "a move must be text like 'a1-b2', not {value} ({type})",
            code="general-move-not-text",
            **described(text),
        )
    if state.outcome() is not None:
        raise state._game_over()
    cleaned = short_enough(text).strip().lower()
    match = _MOVE_RE.fullmatch(cleaned)
    if match is None:
        raise InvalidMove(
            "cannot read {text!r}: write a step as 'a1-b2', a capture as 'c3-b2xa3c1', a "
            "flight as 's2-s4*c3'",
            code="general-unreadable-move",
            text=text.strip(),
        )
    src_t, dst_t, land_t, cap_t = match.groups()
    src, dst = _move_point(src_t), _move_point(dst_t)
    landing = _move_point(land_t) if land_t is not None else -1
    pair = 0
    if cap_t is not None:
        if len(cap_t) != 4:
            raise InvalidMove(
                "a capture names exactly two rebels' points, like 'xa3c1', not 'x{points}'",
                code="capture-not-two-points",
                points=cap_t,
            )
        a, b = _move_point(cap_t[:2]), _move_point(cap_t[2:])
        if a == b:
            raise InvalidMove(
                "a capture takes two different rebels, not {point} twice",
                code="capture-same-point",
                point=cap_t[:2],
            )
        pair = (1 << a) | (1 << b)

    rebels, general = state._rebels, state._general
    if state._side == 0:
        if src == general:
            raise IllegalMove(
                "{src} holds the general, and it is the rebels' turn",
                code="rebels-turn",
                src=NAMES[src],
            )
        if not (rebels >> src) & 1:
            raise IllegalMove("there is no rebel on {src}", code="no-rebel", src=NAMES[src])
    elif src != general:
        raise IllegalMove(
            "it is the general's turn and he is on {general}, not {src}",
            code="generals-turn",
            general=NAMES[general],
            src=src_t,
        )
    if dst not in NEIGHBOURS[src]:
        raise IllegalMove(
            "{src} and {dst} are not next to each other on a line",
            code="not-neighbours",
            src=NAMES[src],
            dst=NAMES[dst],
        )
    if dst == general or (rebels >> dst) & 1:
        raise IllegalMove("{place} is occupied", code="occupied", place=NAMES[dst])
    if state._side == 0:
        if (SANCTUARY_MASK >> dst) & 1:
            raise IllegalMove(
                "rebels may never enter the sanctuary ({dst})",
                code="sanctuary-forbidden",
                dst=NAMES[dst],
            )
        if landing >= 0 or pair:
            raise IllegalMove(
                "only the general flies and captures; a rebel just steps", code="rebel-just-steps"
            )
        return GeneralMove(src, dst, -1, 0)

    flying = dst == S4 and state._flight
    if landing >= 0 and not flying:
        if dst != S4:
            raise IllegalMove(
                "'*' marks the flight, which starts with a step onto s4", code="flight-not-s4"
            )
        raise IllegalMove("the general has already used his flight", code="flight-used")
    if flying and landing < 0:
        raise IllegalMove(
            "stepping onto s4 is the flight: say where he lands, e.g. {src}-s4*c3",
            code="flight-needs-landing",
            src=NAMES[src],
        )
    end = dst
    if flying:
        if landing == S4:
            raise IllegalMove(
                "the flight must land somewhere other than s4", code="flight-lands-on-s4"
            )
        if (rebels >> landing) & 1:
            raise IllegalMove(
                "the flight cannot land on {point}: a rebel is there",
                code="flight-lands-on-rebel",
                point=NAMES[landing],
            )
        end = landing
    available = [p for p in PAIRS_AT[end] if rebels & p == p]
    if pair:
        if pair not in available:
            _refuse_pair(NAMES[end], "+".join(mask_names(pair)), _pair_names(available), flying)
    elif len(available) == 1:
        pair = available[0]
    elif len(available) > 1:
        pairs = _pair_names(available)
        values: dict[str, ParamValue] = {
            "end": NAMES[end],
            "pairs": pairs,
            "pairs_text": " or ".join(pairs),
            "src": NAMES[src],
            "dst": NAMES[dst],
            "pair": "".join(mask_names(available[0])),
        }
        if flying:
            raise AmbiguousMove(
                "ambiguous capture on {end}: write which pair he takes ({pairs_text}), e.g. "
                "{src}-{dst}*{end}x{pair}",
                code="ambiguous-capture-flight",
                **values,
            )
        raise AmbiguousMove(
            "ambiguous capture on {end}: write which pair he takes ({pairs_text}), e.g. "
            "{src}-{dst}x{pair}",
            code="ambiguous-capture",
            **values,
        )
    move = GeneralMove(src, dst, landing, pair)
    if move not in state.legal_moves():  # a guard: the checks above should have said why
        raise IllegalMove(
            "{move} is not a legal move here", code="not-a-legal-move", move=str(move)
        )
    return move


def _refuse_pair(end: str, pair: str, available: list[str], flying: bool) -> NoReturn:
    """Refuse a capture of ``pair`` by the general arriving on ``end`` (flying or stepping),
    naming the pairs he can take there when there are some (``pairs``; ``pairs_text`` as the
    English joins them)."""
    if available and flying:
        raise IllegalMove(
            "the general cannot take {pair} landing on {point} (he can take {pairs_text})",
            code="cannot-take-pair-landing",
            pair=pair,
            point=end,
            pairs=available,
            pairs_text=" or ".join(available),
        )
    if available:
        raise IllegalMove(
            "the general cannot take {pair} on {point} (he can take {pairs_text})",
            code="cannot-take-pair",
            pair=pair,
            point=end,
            pairs=available,
            pairs_text=" or ".join(available),
        )
    if flying:
        raise IllegalMove(
            "the general cannot take {pair} landing on {point}",
            code="cannot-take-any-pair-landing",
            pair=pair,
            point=end,
        )
    raise IllegalMove(
        "the general cannot take {pair} on {point}",
        code="cannot-take-any-pair",
        pair=pair,
        point=end,
    )


__all__ = [
    "GENERAL",
    "IMMOBILISED",
    "NO_MOVE",
    "NUM_POINTS",
    "REBELS",
    "REPETITION",
    "SHUT_IN",
    "SIDES",
    "TWELVE_CAPTURED",
    "GeneralGame",
    "GeneralMove",
    "GeneralState",
    "get_game",
]
