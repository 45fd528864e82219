"""The General's puzzles: positions of self-play games where exactly one move keeps a proven
win, proved by the solution's tables the package ships (up to 8 rebels: every position where
the general can win at all, since from 10 rebels on every position is the rebels').

Only the shipped tables are read (``Tables([PACKAGE_FOLDER])``, no user tables, no strategy),
so the test that re-proves every shipped puzzle needs nothing beyond the package.

The solution's line: the only winning move, the best defence (the slowest loss; the first of
the engine's order among equals), and on while the solver again has exactly one winning move.
It ends at the first solver's ply with several winning moves (unless every one of them ends the
game at once: that last ply is kept, the others accepted), or at 15 plies. ``facts["proof"]``
holds the whole proof to the end (the fastest win against the slowest defence).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import ludotheque

from ..ai.agent import Agent
from ..ai.levels import make_agent
from ..games.general.rules import GENERAL, REBELS, GeneralState
from ..solve.tables import OVER, PACKAGE_FOLDER, Tables
from .model import Puzzle

MAX_LINE = 15
"""The longest solution shown as a puzzle (plies)."""
MAX_PLIES = 300
"""A self-play game stops here (repetitions aside, none gets near)."""
PAIRS = (
    ("easy", "easy"),
    ("medium", "easy"),
    ("hard", "easy"),
    ("perfect", "easy"),
    ("medium", "medium"),
    ("hard", "medium"),
)
"""The (general, rebels) levels of the self-play games, taken in turn: stronger rebels never
let the general down to 8 rebels (where the tables, and the general's wins, are)."""


@cache
def tables() -> Tables:
    """The tables the package ships (6 and 8 rebels, both flights), and nothing else."""
    return Tables([PACKAGE_FOLDER])


def wins(code: int) -> bool:
    """Whether a child's code (its mover's view) means the parent's mover wins: the child's
    mover loses (an odd code; 1 is a game already lost by him)."""
    return code != OVER and code % 2 == 1


def child_code(state: GeneralState) -> int:
    """The code of a position the tables cover (its mover's view)."""
    code = tables().state_code(state)
    if code is None:
        raise ValueError(f"the shipped tables do not cover {state.position()}")
    return code


def children(state: GeneralState) -> list[tuple[Any, GeneralState, int]]:
    """Every legal move, the position it leads to and that position's code."""
    out = []
    for move in state.legal_moves():
        child = state.play(move)
        out.append((move, child, child_code(child)))
    return out


def covered(state: GeneralState) -> bool:
    """Whether the shipped tables cover the position and every move from it (8 rebels or
    fewer: moves never add rebels)."""
    return state.rebel_count <= 8 and state.outcome() is None


def winning_moves(state: GeneralState) -> list[tuple[Any, GeneralState, int]]:
    """The moves that keep the mover's proven win, fastest first (engine's order among
    equals)."""
    found = [c for c in children(state) if wins(c[2])]
    return sorted(found, key=lambda c: c[2])


def defence(state: GeneralState) -> tuple[Any, GeneralState, int]:
    """The loser's best reply: the slowest loss (a draw never: the position is proven lost)."""
    options = children(state)
    return max(options, key=lambda c: c[2] if c[2] != OVER else 1)


def proof(state: GeneralState) -> list[str]:
    """The whole proof from a won position: the winner's fastest moves, the slowest defence."""
    line: list[str] = []
    winner = state.side
    while state.outcome() is None and len(line) < 200:
        if state.side == winner:
            move, state, _ = winning_moves(state)[0]
        else:
            move, state, _ = defence(state)
        line.append(str(move))
    return line


@dataclass(frozen=True)
class Solution:
    """A position's puzzle line and what proves it."""

    line: tuple[str, ...]
    accepted: tuple[tuple[str, ...], ...]
    wins_in: int
    legal: int


def solution(state: GeneralState) -> Solution | None:
    """The puzzle of a position, or ``None`` when it is not one (not covered, not won by the
    mover, several winning moves, a single legal move)."""
    if not covered(state) or len(state.legal_moves()) < 2:
        return None
    first = winning_moves(state)
    if len(first) != 1:
        return None
    solver = state.side
    line: list[str] = []
    accepted: list[tuple[str, ...]] = []
    current = state
    while current.outcome() is None and len(line) < MAX_LINE:
        if current.side != solver:
            move, current, _ = defence(current)
            line.append(str(move))
            continue
        options = winning_moves(current)
        legal = len(current.legal_moves())
        if line and (legal == 1 or len(options) == legal):
            break  # nothing left to find
        if len(options) == 1:
            move, current, _ = options[0]
            line.append(str(move))
            accepted.append(())
            continue
        if all(child.outcome() is not None for _, child, _ in options):
            line.append(str(options[0][0]))
            accepted.append(tuple(str(m) for m, _, _ in options[1:]))
        break
    if len(line) % 2 == 0:  # never end on the defender's reply
        line.pop()
    accepted = accepted[: (len(line) + 1) // 2]
    while accepted and not accepted[-1]:
        accepted.pop()
    return Solution(tuple(line), tuple(accepted), first[0][2], len(state.legal_moves()))


def themes(state: GeneralState, sol: Solution, full: list[str]) -> tuple[str, ...]:
    """The puzzle's themes, from the key move and how the proof ends (see the README)."""
    found: list[str] = []
    key = state.parse_move(sol.line[0])
    if key.captured:
        found.append("capture")
    if key.is_flight:
        found.append("flight")
    if not key.captured and not key.is_flight:
        found.append("quiet")
    end = state
    for text in full:
        end = end.play(end.parse_move(text))
    outcome = end.outcome()
    reason = outcome.reason if outcome is not None else ""
    if reason in ("shut-in", "immobilised"):
        found.append("shut-in" if reason == "shut-in" else "immobilise")
    if sol.wins_in <= 3:
        found.append("short")
    elif sol.wins_in >= 15:
        found.append("long")
    if len(sol.line) > 1:
        found.append("only-moves")
    return tuple(dict.fromkeys(found))


def rating(sol: Solution, key_captures: bool) -> float:
    """A starting rating: longer wins, longer forced lines and more moves to choose from are
    harder; a capture is the move people look at first."""
    value = 1050 + 28 * min(sol.wins_in, 40) + 70 * (len(sol.line) // 2) + 12 * min(sol.legal, 20)
    if key_captures:
        value -= 120
    return float(round(min(max(value, 700), 2600)))


def make(state: GeneralState, number: int) -> Puzzle | None:
    """The puzzle of a position (``None`` if it is not one), numbered ``g{number:05d}``."""
    sol = solution(state)
    if sol is None:
        return None
    full = proof(state)
    key = state.parse_move(sol.line[0])
    return Puzzle(
        id=f"g{number:05d}",
        game="general",
        ruleset="default",
        position=state.position(),
        side=state.side,
        line=sol.line,
        themes=themes(state, sol, full),
        rating=rating(sol, bool(key.captured)),
        source="tables",
        accepted=sol.accepted,
        facts={
            "wins_in": sol.wins_in,
            "winner": state.side,
            "rebels": state.rebel_count,
            "legal": sol.legal,
            "proof": full,
        },
    )


def self_play(seed: int) -> Iterator[GeneralState]:
    """The positions of one seeded self-play game (levels from ``PAIRS`` by the seed)."""
    general_level, rebels_level = PAIRS[seed % len(PAIRS)]
    agents: dict[str, Agent] = {
        GENERAL: make_agent("general", general_level, seed),
        REBELS: make_agent("general", rebels_level, seed + 1),
    }
    state = ludotheque.load("general").start()
    assert isinstance(state, GeneralState)
    seen: dict[str, int] = {}
    for _ in range(MAX_PLIES):
        if state.outcome() is not None:
            return
        yield state
        seen[state.position()] = seen.get(state.position(), 0) + 1
        if seen[state.position()] >= 3:
            return
        move = agents[state.side].choose(state)
        nxt = state.play(move)
        assert isinstance(nxt, GeneralState)
        state = nxt


def candidates(seed: int) -> Iterator[GeneralState]:
    """The covered positions of one game and those one or two plies off it (a move the players
    did not choose, and a reply), shuffled by the seed."""
    found: dict[str, GeneralState] = {}
    for state in self_play(seed):
        if not covered(state):
            continue
        found[state.position()] = state
        for move in state.legal_moves():
            child = state.play(move)
            if covered(child):
                found.setdefault(child.position(), child)
                for reply in child.legal_moves():
                    grandchild = child.play(reply)
                    if covered(grandchild):
                        found.setdefault(grandchild.position(), grandchild)
    order = sorted(found)
    random.Random(seed).shuffle(order)
    for position in order:
        yield found[position]


def puzzles(seed: int) -> Iterator[Puzzle]:
    """The puzzles of one seed's game and its near positions (numbered 0: the set numbers
    them)."""
    for state in candidates(seed):
        puzzle = make(state, 0)
        if puzzle is not None:
            yield puzzle


def select(pool: list[Puzzle], count: int, fill: bool = False) -> list[Puzzle]:
    """A set of ``count`` from the pool, not all wins in one: the rebels' puzzles (rarer) up to
    35%, the general's wins in one up to a quarter, the longer wins of the general for the rest
    (with ``fill``, then more of the others if those run short)."""
    unique = list({p.position: p for p in pool}.values())
    rebels = [p for p in unique if p.side == REBELS]
    quick = [p for p in unique if p.side == GENERAL and p.facts["wins_in"] == 1]
    longer = [p for p in unique if p.side == GENERAL and p.facts["wins_in"] > 1]
    chosen = rebels[: count * 35 // 100] + quick[: count // 4]
    chosen += longer[: count - len(chosen)]
    if fill:
        taken = {p.position for p in chosen}
        chosen += [p for p in unique if p.position not in taken][: count - len(chosen)]
    return chosen


def forced_win(state: GeneralState, winner: str, plies: int) -> bool:
    """Whether ``winner`` wins from ``state`` within ``plies`` plies whatever the other side
    plays: a search by the engine's rules alone, no table (for short wins)."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome.winner == winner
    if plies <= 0:
        return False
    results = (forced_win(state.play(m), winner, plies - 1) for m in state.legal_moves())
    return any(results) if state.side == winner else all(results)


def verify(puzzle: Puzzle) -> list[str]:
    """What is wrong with a shipped General puzzle by the package's tables (empty: nothing):
    the solver wins in ``wins_in`` plies, the line's first move is the only move that keeps a
    win, each later solver's move is the only one too (or, last, one of the moves that end the
    game won, all of them accepted), each reply is a slowest loss, the proof is a fastest win
    against a slowest defence ending in the solver's win, the themes and rating are the
    tool's; and a win within 3 plies is found again by a table-free search."""
    problems: list[str] = []
    state = ludotheque.load("general").parse_position(puzzle.position)
    assert isinstance(state, GeneralState)
    if puzzle.game != "general" or puzzle.source != "tables" or state.side != puzzle.side:
        return [f"{puzzle.id}: not the General's, not from the tables, or the wrong side"]
    if not covered(state):
        return [f"{puzzle.id}: beyond the shipped tables"]
    code = child_code(state)
    if wins(code) or code in (0, OVER) or code - 1 != puzzle.facts.get("wins_in"):
        return [f"{puzzle.id}: the tables say code {code}, not a win in {puzzle.facts}"]
    current = state
    for i, text in enumerate(puzzle.line):
        if current.outcome() is not None:
            return [*problems, f"{puzzle.id}: the line goes on after the end"]
        move = current.parse_move(text)
        if current.side == puzzle.side:
            winning = {str(m) for m, _, _ in winning_moves(current)}
            index = i // 2
            extra = set(puzzle.accepted[index]) if index < len(puzzle.accepted) else set()
            if extra:
                ends = all(current.play(current.parse_move(m)).outcome() for m in winning)
                if winning != extra | {text} or not ends:
                    problems.append(f"{puzzle.id}: ply {i}: accepted {extra} != {winning}")
            elif winning != {text}:
                problems.append(f"{puzzle.id}: ply {i}: winning moves {winning}, not {text}")
        else:
            slowest = defence(current)[2]
            if child_code(current.play(move)) != slowest:
                problems.append(f"{puzzle.id}: ply {i}: {text} is not a slowest loss")
        current = current.play(move)
    end = state
    for i, text in enumerate(puzzle.facts.get("proof", [])):
        code_now = child_code(end)
        end = end.play(end.parse_move(text))
        if child_code(end) != code_now - 1:  # a fastest win, a slowest loss: one ply nearer
            problems.append(f"{puzzle.id}: proof ply {i} is not the best play")
    outcome = end.outcome()
    proof_length = len(puzzle.facts.get("proof", []))
    if outcome is None or outcome.winner != puzzle.side or proof_length != code - 1:
        problems.append(f"{puzzle.id}: the proof does not end in the solver's win in time")
    sol = solution(state)
    if sol is None or sol.line != puzzle.line or sol.accepted != puzzle.accepted:
        problems.append(f"{puzzle.id}: the line is not the tool's")
    elif themes(state, sol, proof(state)) != puzzle.themes:
        problems.append(f"{puzzle.id}: themes differ")
    elif rating(sol, bool(state.parse_move(sol.line[0]).captured)) != puzzle.rating:
        problems.append(f"{puzzle.id}: rating differs")
    if code - 1 <= 3 and not forced_win(state.play(state.parse_move(puzzle.line[0])),
                                         puzzle.side, code - 2):  # fmt: skip
        problems.append(f"{puzzle.id}: no forced win in {code - 1} plies by search")
    return problems
