"""The result of an analysis as plain values, and its JSON form (``to_dict`` / ``from_dict``).

Every number is from the point of view of the side that chose: ``win`` is its winning chance
(its expected score: a win counts 1, a draw 1/2) and ``equity`` (backgammon) its equity:
cubeless in ``seed`` and ``standard``; in ``money`` and ``match`` normalised equity (points per
unit of the cube; match winning chances turned into equity, see ``stakes``), where ``win`` is
the chance to win the match in match play and (equity + 1) / 2, clipped to [0, 1], in money
play. ``loss`` is in the game's *measure*: equity for backgammon, winning chance for the
others (see ``labels``). A ``ply`` is an index into the record's plies (chance outcomes
included), so ``record.states[ply]`` is the position the decision was taken in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .labels import EQUITY, LABELS, LUCK_LABELS, symbol
from .proof import Proof

FORMAT = "ludotheque-analysis"
VERSION = 4
"""4: the General's values from its solution (every position's proven result, the timeline's
points with theirs; a move that keeps a proven win is no error); 3: draws weighed on the
calibrated scale, a draw given for a winning position named (``Decision.draw``); 2: backgammon
for points in normalised equity, cube decisions one roll ahead (1: the evaluation's [-1, 1]
scale; stored analyses of an older version are made again)."""
READS = frozenset({1, 2, 3, 4})

DRAWS = ("makes-repetition", "allows-repetition", "makes-turn-limit", "allows-turn-limit")
"""How a move gives a winning position away for a draw (``Decision.draw``): it repeats the
position a third time, lets the other side do it, reaches the turn limit, or leaves the game to
run out of turns."""

MOVE = "move"
CUBE = "cube"
RESIGN = "resign"
"""A decision that offers to resign or answers an offer: judged, but not a move of the game
(summaries count neither among a side's moves)."""

CUBE_ERRORS = {
    ("roll", "double"): "missed double",
    ("double", "roll"): "wrong double",
    ("take", "drop"): "wrong take",
    ("drop", "take"): "wrong pass",
}
"""The names backgammon players give a cube error: (the move played, the best move)."""


class InvalidAnalysis(ValueError):
    """Data that is not an analysis this version can read."""


@dataclass(frozen=True)
class MoveValue:
    """One move and what it is worth to the side that plays it.

    ``plies`` is how far the engine looked (1: the evaluation of the position right after the
    move; in backgammon 1 is GNU Backgammon's 0-ply). ``exact`` is false for a move cut off by
    the search as not among the best: its value is then an upper bound. ``proof`` is set when
    the value is a proven result.
    """

    move: str
    win: float
    equity: float | None = None
    plies: int = 1
    exact: bool = True
    proof: Proof | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "win": _round(self.win),
            "equity": None if self.equity is None else _round(self.equity),
            "plies": self.plies,
            "exact": self.exact,
            "proof": None if self.proof is None else self.proof.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveValue:
        proof = data.get("proof")
        return cls(
            move=str(data["move"]),
            win=float(data["win"]),
            equity=None if data.get("equity") is None else float(data["equity"]),
            plies=int(data.get("plies", 1)),
            exact=bool(data.get("exact", True)),
            proof=None if proof is None else Proof.from_dict(proof),
        )


@dataclass(frozen=True)
class Decision:
    """A move of the game, judged: the move ``played`` and the ``best`` moves (best first, the
    played one among them when it is one of the best), with the ``loss`` and its ``label``
    (``None``: no error). ``proof`` is what best play from this position is proven to give.
    ``draw`` says how the move gave a winning position away for a draw (one of ``DRAWS``), an
    error at least a mistake."""

    ply: int
    move_index: int
    side: str
    position: str
    played: MoveValue
    best: tuple[MoveValue, ...]
    legal: int
    loss: float
    label: str | None
    kind: str = MOVE
    proof: Proof | None = None
    draw: str | None = None

    @property
    def forced(self) -> bool:
        """Only one legal move: nothing to judge."""
        return self.legal <= 1

    @property
    def symbol(self) -> str:
        """``?!``, ``?``, ``??``, or empty."""
        return symbol(self.label)

    @property
    def value(self) -> MoveValue:
        """The value of the position for the side to move: that of its best move."""
        return self.best[0] if self.best else self.played

    @property
    def cube_error(self) -> str | None:
        """For a cube decision judged an error, its name: ``missed double``, ``wrong
        double``, ``wrong take`` or ``wrong pass``."""
        if self.kind != CUBE or self.label is None or not self.best:
            return None
        return CUBE_ERRORS.get((self.played.move, self.best[0].move))

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move_index": self.move_index,
            "side": self.side,
            "position": self.position,
            "kind": self.kind,
            "played": self.played.to_dict(),
            "best": [m.to_dict() for m in self.best],
            "legal": self.legal,
            "forced": self.forced,
            "loss": _round(self.loss),
            "label": self.label,
            "symbol": self.symbol,
            "cube_error": self.cube_error,
            "proof": None if self.proof is None else self.proof.to_dict(),
            "draw": self.draw,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        proof = data.get("proof")
        return cls(
            ply=int(data["ply"]),
            move_index=int(data["move_index"]),
            side=str(data["side"]),
            position=str(data["position"]),
            played=MoveValue.from_dict(data["played"]),
            best=tuple(MoveValue.from_dict(m) for m in data["best"]),
            legal=int(data["legal"]),
            loss=float(data["loss"]),
            label=data.get("label"),
            kind=str(data.get("kind", MOVE)),
            proof=None if proof is None else Proof.from_dict(proof),
            draw=_draw(data.get("draw")),
        )


@dataclass(frozen=True)
class RollLuck:
    """A roll of the dice and its luck for the side that plays it: the equity after the best
    play with this roll, less the average of that over every roll (GNU Backgammon's luck)."""

    ply: int
    side: str
    roll: str
    luck: float
    label: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "side": self.side,
            "roll": self.roll,
            "luck": _round(self.luck),
            "label": self.label,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollLuck:
        return cls(
            int(data["ply"]), str(data["side"]), str(data["roll"]), float(data["luck"]),
            data.get("label"),
        )  # fmt: skip


@dataclass(frozen=True)
class Point:
    """The value of the game after ``ply`` plies (0: the start) for the analysis's
    ``perspective`` side (the game's first side): a point of the chart. ``proof`` is the
    position's proven result, when it has one (from version 3)."""

    ply: int
    win: float
    equity: float | None = None
    proof: Proof | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "win": _round(self.win),
            "equity": None if self.equity is None else _round(self.equity),
            "proof": None if self.proof is None else self.proof.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Point:
        equity = data.get("equity")
        proof = data.get("proof")
        return cls(
            int(data["ply"]),
            float(data["win"]),
            None if equity is None else float(equity),
            None if proof is None else Proof.from_dict(proof),
        )


@dataclass(frozen=True)
class SideSummary:
    """One side's figures: its moves, the unforced ones, the loss (total and per unforced
    move, in the game's measure), the count of each label; for backgammon the error rate
    (GNU Backgammon's, in thousandths of equity per unforced move) and the luck of its rolls
    (total equity, and per roll in thousandths)."""

    side: str
    moves: int
    unforced: int
    total_loss: float
    average_loss: float
    labels: dict[str, int]
    error_rate: float | None = None
    rolls: int = 0
    luck: float | None = None
    luck_rate: float | None = None
    luck_labels: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "moves": self.moves,
            "unforced": self.unforced,
            "total_loss": _round(self.total_loss),
            "average_loss": _round(self.average_loss),
            "labels": dict(self.labels),
            "error_rate": None if self.error_rate is None else _round(self.error_rate, 2),
            "rolls": self.rolls,
            "luck": None if self.luck is None else _round(self.luck),
            "luck_rate": None if self.luck_rate is None else _round(self.luck_rate, 2),
            "luck_labels": dict(self.luck_labels),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SideSummary:
        return cls(
            side=str(data["side"]),
            moves=int(data["moves"]),
            unforced=int(data["unforced"]),
            total_loss=float(data["total_loss"]),
            average_loss=float(data["average_loss"]),
            labels={str(k): int(v) for k, v in data["labels"].items()},
            error_rate=_optional_float(data.get("error_rate")),
            rolls=int(data.get("rolls", 0)),
            luck=_optional_float(data.get("luck")),
            luck_rate=_optional_float(data.get("luck_rate")),
            luck_labels={str(k): int(v) for k, v in data.get("luck_labels", {}).items()},
        )


@dataclass(frozen=True)
class Analysis:
    """The analysis of a game: every decision judged, every roll's luck, the value across the
    game (``timeline``, for ``perspective``) and a summary per side.

    ``to_dict`` / ``from_dict`` give its JSON form, for storage; the format is versioned.
    """

    game: str
    ruleset: str
    strength: str
    measure: str
    sides: tuple[str, ...]
    decisions: tuple[Decision, ...]
    rolls: tuple[RollLuck, ...]
    timeline: tuple[Point, ...]
    summary: dict[str, SideSummary]
    result: dict[str, Any] | None = None

    @property
    def perspective(self) -> str:
        """The side whose winning chance the timeline gives: the game's first side."""
        return self.sides[0]

    def errors(self) -> list[Decision]:
        """The decisions that got a label, in the order of the game."""
        return [d for d in self.decisions if d.label is not None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "ruleset": self.ruleset,
            "strength": self.strength,
            "measure": self.measure,
            "labels": list(LABELS[self.measure]),
            "sides": list(self.sides),
            "perspective": self.perspective,
            "result": self.result,
            "decisions": [d.to_dict() for d in self.decisions],
            "rolls": [r.to_dict() for r in self.rolls],
            "timeline": [p.to_dict() for p in self.timeline],
            "summary": {side: s.to_dict() for side, s in self.summary.items()},
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Analysis:
        """Read the JSON form back; raises ``InvalidAnalysis`` when it is not one."""
        if not isinstance(data, dict):
            raise InvalidAnalysis("an analysis is a JSON object")
        if data.get("format") != FORMAT:
            raise InvalidAnalysis(f"not a Ludothèque analysis (format {data.get('format')!r})")
        version = data.get("version")
        if not isinstance(version, int) or version not in READS:
            raise InvalidAnalysis(f"unsupported analysis version {data.get('version')!r}")
        try:
            measure = str(data["measure"])
            if measure not in LABELS:
                raise InvalidAnalysis(f"unknown measure {measure!r}")
            return cls(
                game=str(data["game"]),
                ruleset=str(data["ruleset"]),
                strength=str(data["strength"]),
                measure=measure,
                sides=tuple(str(s) for s in data["sides"]),
                decisions=_many(data["decisions"], Decision.from_dict),
                rolls=_many(data.get("rolls", []), RollLuck.from_dict),
                timeline=_many(data.get("timeline", []), Point.from_dict),
                summary={
                    str(side): SideSummary.from_dict(s) for side, s in data["summary"].items()
                },
                result=data.get("result"),
            )
        except InvalidAnalysis:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidAnalysis(f"malformed analysis: {exc!r}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Analysis:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as exc:
            raise InvalidAnalysis(f"not JSON: {exc}") from None
        return cls.from_dict(data)


def empty_labels(measure: str) -> dict[str, int]:
    """A count of zero for each label of ``measure``."""
    return dict.fromkeys(LABELS[measure], 0)


def empty_luck_labels(measure: str) -> dict[str, int]:
    """A count of zero for each luck label (backgammon only)."""
    return dict.fromkeys(LUCK_LABELS, 0) if measure == EQUITY else {}


T = TypeVar("T")


def _many(items: Any, read: Callable[[dict[str, Any]], T]) -> tuple[T, ...]:
    if not isinstance(items, list):
        raise InvalidAnalysis("expected a list")
    return tuple(read(item) for item in items)


def _draw(value: Any) -> str | None:
    if value is None:
        return None
    if value not in DRAWS:
        raise InvalidAnalysis(f"unknown draw {value!r}")
    return str(value)


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _round(value: float, digits: int = 4) -> float:
    return round(float(value), digits)


__all__ = [
    "CUBE",
    "CUBE_ERRORS",
    "DRAWS",
    "MOVE",
    "Analysis",
    "Decision",
    "InvalidAnalysis",
    "MoveValue",
    "Point",
    "RollLuck",
    "SideSummary",
]
