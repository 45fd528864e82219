"""Small puzzle sets for the site's tests, written where ``LUDOTHEQUE_PUZZLES_DIR`` points.

Each puzzle is a real position of its game (reached by legal moves from the start, from a
fixed seed) whose line is legal there; its answer is the line's own move. They test the site's
mechanics (checking, replies, ratings, streaks), not a source's proof: the shipped sets'
proofs are checked by the puzzle tool's own tests.
"""

from __future__ import annotations

import random
from pathlib import Path

import ludotheque
from ludotheque.core import CHANCE, State
from ludotheque.puzzles.model import Puzzle, write

PER_GAME = 8


def _advance(state: State, rng: random.Random, plies: int) -> State:
    for _ in range(plies):
        if state.outcome() is not None:
            break
        if state.to_move == CHANCE:
            outcomes = [o for o, _ in state.chance_outcomes()]
            state = state.play(rng.choice(outcomes))
        else:
            state = state.play(rng.choice(list(state.legal_moves())))
    while state.to_move == CHANCE:
        state = state.play(rng.choice([o for o, _ in state.chance_outcomes()]))
    return state


def _line(state: State, rng: random.Random, plies: int) -> tuple[str, ...] | None:
    """``plies`` legal moves from ``state`` (the solver's, the reply, ...), none a roll."""
    line: list[str] = []
    for _ in range(plies):
        if state.outcome() is not None or state.to_move in (None, CHANCE):
            return None
        move = (
            sorted(state.legal_moves(), key=str)[0]
            if not line
            else rng.choice(list(state.legal_moves()))
        )
        line.append(str(move))
        state = state.play(move)
    return tuple(line)


def puzzles(game: str, ruleset: str, letter: str, plies: int, rng: random.Random) -> list[Puzzle]:
    engine = ludotheque.load(game, ruleset)
    found: list[Puzzle] = []
    tries = 0
    while len(found) < PER_GAME and tries < 200:
        tries += 1
        state = _advance(engine.start(), rng, rng.randrange(2, 12))
        line = _line(state, rng, plies)
        if line is None:
            continue
        number = len(found)
        found.append(Puzzle(
            id=f"{letter}{number:05d}", game=game, ruleset=engine.ruleset,
            position=state.position(), side=str(state.to_move), line=line,
            themes=("test", "even" if number % 2 == 0 else "odd"),
            rating=1000.0 + 100.0 * number, source="search",
            facts={"wins_in": 9} if game == "general" else {"margin": 0.11, "plies": 2},
        ))  # fmt: skip
    return found


def cube_puzzle() -> Puzzle:
    """A money game's cube decision: the side to roll may double (its answer: no double)."""
    engine = ludotheque.load("backgammon", "money")
    state = engine.start()
    state = state.play(state.chance_outcomes()[0][0])
    state = state.play(next(iter(state.legal_moves())))
    return Puzzle(
        id="b09000", game="backgammon", ruleset="money", position=state.position(),
        side=str(state.to_move), line=("no double",), themes=("cube",), rating=1500.0,
        source="search", facts={"margin": 0.2, "plies": 2},
    )  # fmt: skip


def write_sets(folder: Path) -> Path:
    """The test sets in ``folder`` (``<game>.jsonl``); the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(41)
    write(folder / "general.jsonl", puzzles("general", "default", "g", 3, rng))
    write(folder / "backgammon.jsonl",
          [*puzzles("backgammon", "seed", "b", 1, rng), cube_puzzle()])  # fmt: skip
    write(folder / "defiance.jsonl", puzzles("defiance", "10x10", "d", 1, rng))
    return folder
