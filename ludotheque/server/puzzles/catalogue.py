"""The puzzles the site serves, and how one is chosen (pure: no database).

The sets are the shipped ones (``ludotheque.puzzles.model.shipped``) unless the settings name a
folder of sets of the same shape (``LUDOTHEQUE_PUZZLES_DIR``). A puzzle is chosen near a
rating (``near``), for the day (``daily``: the same for everyone on a UTC day), or for a
streak (``rising``: each puzzle rated above the last). A move is checked against the puzzle's
line in the engine's own notation, so that any way of writing it counts.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

from ...core import CHANCE, IllegalMove, InvalidPosition, State
from ...puzzles.model import GAMES, Puzzle, read, shipped

NO_DOUBLE = "no double"
CUBE_ACTIONS = ("double", NO_DOUBLE, "take", "drop")
STREAK_STEP = 60.0
"""How much higher, at most, each puzzle of a streak is rated than the one before (roughly)."""
STREAK_START = 900.0
NEAR = 12
"""A player's next puzzle is drawn among this many of the nearest to their rating."""


@dataclass(frozen=True)
class Step:
    """One ply of a puzzle's line, played: who played it, the move, the position after it."""

    side: str
    move: str
    position: str


@cache
def _folder_set(folder: str, game: str) -> tuple[Puzzle, ...]:
    path = Path(folder) / f"{game}.jsonl"
    return tuple(read(path)) if path.exists() else ()


class Catalogue:
    """The puzzle sets of one server, by game and by id."""

    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder
        self._index: dict[str, Puzzle] | None = None

    def of(self, game: str) -> tuple[Puzzle, ...]:
        """The puzzles of ``game`` (empty for a game with no set)."""
        if game not in GAMES:
            return ()
        return _folder_set(self.folder, game) if self.folder else shipped(game)

    def index(self) -> dict[str, Puzzle]:
        """Every puzzle by its id (read once)."""
        if self._index is None:
            self._index = {p.id: p for game in GAMES for p in self.of(game)}
        return self._index

    def get(self, puzzle_id: str) -> Puzzle | None:
        return self.index().get(puzzle_id)

    def themes(self, game: str) -> list[str]:
        """The themes of ``game``'s puzzles, the most common first."""
        counts: dict[str, int] = {}
        for puzzle in self.of(game):
            for theme in puzzle.themes:
                counts[theme] = counts.get(theme, 0) + 1
        return sorted(counts, key=lambda t: (-counts[t], t))

    def counts(self) -> dict[str, int]:
        return {game: len(self.of(game)) for game in GAMES}


def with_theme(puzzles: Iterable[Puzzle], theme: str | None) -> list[Puzzle]:
    return [p for p in puzzles if not theme or theme in p.themes]


def near(
    puzzles: Sequence[Puzzle],
    rating: float,
    rated: Callable[[Puzzle], float],
    done: set[str],
    rng: random.Random,
) -> Puzzle | None:
    """A puzzle not ``done``, drawn among the ``NEAR`` nearest to ``rating`` (by their live
    rating, ``rated``); ``None`` when every puzzle is done."""
    left = [p for p in puzzles if p.id not in done]
    if not left:
        return None
    left.sort(key=lambda p: abs(rated(p) - rating))
    return rng.choice(left[:NEAR])


def daily(puzzles: Sequence[Puzzle], game: str, day: date) -> Puzzle | None:
    """The puzzle of ``day`` for ``game``: the same for everyone, from a hash of the day."""
    if not puzzles:
        return None
    digest = hashlib.sha256(f"{day.isoformat()}:{game}".encode()).digest()
    ordered = sorted(puzzles, key=lambda p: p.id)
    return ordered[int.from_bytes(digest[:8], "big") % len(ordered)]


def rising(
    puzzles: Sequence[Puzzle],
    above: float,
    rated: Callable[[Puzzle], float],
    done: set[str],
    rng: random.Random,
) -> Puzzle | None:
    """A streak's next puzzle: rated above ``above`` (the last one's rating), among the few
    just above it; ``None`` when none is left."""
    left = sorted((p for p in puzzles if p.id not in done and rated(p) > above), key=rated)
    if not left:
        return None
    lowest = rated(left[0])
    close = [p for p in left if rated(p) <= lowest + STREAK_STEP][:NEAR]
    return rng.choice(close)


def engine_text(text: str) -> str:
    """The engine's word for a puzzle's move (a cube's "no double" is a roll)."""
    return "roll" if text == NO_DOUBLE else text


def canonical(state: State, text: str) -> str | None:
    """``text`` as the engine writes the move in ``state`` (``None``: not a legal move)."""
    try:
        return str(state.parse_move(engine_text(text.strip())))
    except (IllegalMove, InvalidPosition, ValueError):
        return None


def play(state: State, text: str) -> State:
    """``state`` after the move ``text`` of a puzzle's line."""
    return state.play(state.parse_move(engine_text(text)))


def state_at(puzzle: Puzzle, plies: int) -> State:
    """The puzzle's state after the first ``plies`` moves of its line."""
    state = puzzle.state()
    for text in puzzle.line[:plies]:
        state = play(state, text)
    return state


def is_right(puzzle: Puzzle, index: int, state: State, move: str) -> bool:
    """Whether ``move`` is a right answer at the solver's ``index``-th ply, played on
    ``state`` (the position of that ply): the puzzle's own test (``Puzzle.accepts``, with
    Defiance's ``*;MOVE``) on the move as the engine writes it, or any listed answer written
    another way."""
    played = canonical(state, move)
    if played is None:
        return False
    if puzzle.accepts(index, played):
        return True
    wanted = [puzzle.solver_moves()[index]]
    if index < len(puzzle.accepted):
        wanted += [m for m in puzzle.accepted[index] if not m.startswith("*;")]
    return any(canonical(state, right) == played for right in wanted)


def line_steps(puzzle: Puzzle) -> list[Step]:
    """The puzzle's line played out."""
    return _steps(puzzle, puzzle.line)


def proof_steps(puzzle: Puzzle) -> list[Step]:
    """The whole proof played out, for the page after the answer: the source's full line
    (``facts["proof"]``: the General's fastest win against the slowest defence) where it
    gives one, else the puzzle's line; a move that does not play ends it."""
    full = puzzle.facts.get("proof")
    if isinstance(full, list) and full and all(isinstance(m, str) for m in full):
        return _steps(puzzle, full, lenient=True)
    return line_steps(puzzle)


def _steps(puzzle: Puzzle, moves: Sequence[str], lenient: bool = False) -> list[Step]:
    state = puzzle.state()
    steps = []
    for text in moves:
        side = state.to_move if state.to_move not in (None, CHANCE) else ""
        try:
            state = play(state, text)
        except (IllegalMove, InvalidPosition, ValueError):
            if not lenient:
                raise
            break
        steps.append(Step(side or "", text, state.position()))
    return steps


def is_cube(puzzle: Puzzle) -> bool:
    """A backgammon cube decision (answered with buttons rather than on the board)."""
    return puzzle.game == "backgammon" and puzzle.line[0] in CUBE_ACTIONS
