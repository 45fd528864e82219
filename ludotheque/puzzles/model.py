"""The shape of a puzzle and the shipped puzzle sets.

A puzzle is a position, the solver's side, and a line: the solver's moves alternating with the
opponent's replies (written in the game's notation), starting with the solver's move. At each of
the solver's plies any move of ``accepted[i]`` is right (the line's own move always is); the
other sides' plies are played for the solver. Backgammon's line has one entry: the play or the
cube action (``double``, ``no double``, ``take``, ``drop``). In Defiance an accepted answer
``*;MOVE`` stands for every turn with that Command move, whatever its action.

The sets ship as ``data/<game>.jsonl`` (one JSON object a line), written by the puzzle tool and
re-verified by the tests against the source that proved them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import ludotheque
from ludotheque.core import State

DATA = Path(__file__).resolve().parent / "data"
GAMES = ("general", "backgammon", "defiance")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module docstring)."""

    id: str
    """Stable and unique across games: ``g``, ``b`` or ``d`` and a number (``g00042``)."""
    game: str
    ruleset: str
    position: str
    """The game's canonical position string, the solver to move (backgammon: dice rolled)."""
    side: str
    """The solver's side."""
    line: tuple[str, ...]
    """The solution: the solver's move, the reply, the solver's next move, ..."""
    themes: tuple[str, ...]
    rating: float
    """The puzzle's starting Glicko-2 rating (the site keeps the live one)."""
    source: str
    """What proved it: ``tables`` (the General's solution), ``search`` (a deeper search)."""
    accepted: tuple[tuple[str, ...], ...] = ()
    """Other right answers at the solver's plies (index ``i``: the solver's ``i``-th move)."""
    facts: dict[str, Any] = field(default_factory=dict)
    """What the source measured (``{"wins_in": 17}``, ``{"margin": 0.11}``): shown after the
    answer and re-checked by the tests."""

    def state(self) -> State:
        """The puzzle's starting state."""
        return ludotheque.load(self.game, self.ruleset).parse_position(self.position)

    def solver_moves(self) -> tuple[str, ...]:
        """The solver's moves of the line."""
        return self.line[::2]

    def accepts(self, index: int, move: str) -> bool:
        """Whether ``move`` (notation) is a right answer at the solver's ``index``-th ply."""
        if index >= len(self.solver_moves()):
            return False
        if move == self.solver_moves()[index]:
            return True
        if index >= len(self.accepted):
            return False
        others = self.accepted[index]
        return move in others or (";" in move and "*;" + move.split(";", 1)[1] in others)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as one JSON object (lists for tuples)."""
        data = asdict(self)
        data["line"] = list(self.line)
        data["themes"] = list(self.themes)
        data["accepted"] = [list(a) for a in self.accepted]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle a ``to_json`` object describes."""
        return cls(
            id=str(data["id"]),
            game=str(data["game"]),
            ruleset=str(data["ruleset"]),
            position=str(data["position"]),
            side=str(data["side"]),
            line=tuple(str(m) for m in data["line"]),
            themes=tuple(str(t) for t in data["themes"]),
            rating=float(data["rating"]),
            source=str(data["source"]),
            accepted=tuple(tuple(str(m) for m in a) for a in data.get("accepted", ())),
            facts=dict(data.get("facts", {})),
        )


def write(path: Path, puzzles: Iterable[Puzzle]) -> None:
    """Write a set, one puzzle a line, in the given order."""
    with path.open("w", encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle.to_json(), ensure_ascii=False, sort_keys=True) + "\n")


def read(path: Path) -> Iterator[Puzzle]:
    """The puzzles of one set file."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield Puzzle.from_json(json.loads(line))


@cache
def shipped(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``game`` (empty when its set is not built)."""
    path = DATA / f"{game}.jsonl"
    return tuple(read(path)) if path.exists() else ()
