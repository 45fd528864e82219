"""Defiance's puzzles: positions of seeded self-play (8×8 and 10×10) and one turn off it where
one idea does it, proved by searching every legal turn (exact, no evaluation):

- ``Command hunt``: the Imperium to play a turn that captures the Rebel Command (wins);
- ``sector``: the Rebels to play the turn that holds the fourth sector (wins: kind
  ``four-sectors``), or, on a game's path, that holds one sector more without letting the
  Imperium capture their Command at once (kind ``sector``);
- ``escape``: the Rebels, their Command attacked (the Imperium, were it to move, would capture
  it), to play a turn after which no Imperium turn captures it (two plies, every reply).

A turn is an action and an optional Command move; where every action works with one Command
move, the answer is that move (``*;MOVE`` in ``accepted``, see ``model.Puzzle.accepts``). A
position is a puzzle when its right turns come to at most ``IDEAS`` such answers and are at most
``SHARE`` of the legal turns (a search over every turn proves both).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import ludotheque

from ..ai.agent import Agent
from ..ai.levels import make_agent
from ..games.defiance.rules import IMPERIUM, REBELS, DefianceState
from .model import Puzzle

IDEAS = 3
"""At most this many answers (a turn, or a Command move with any action)."""
SHARE = 0.2
"""The right turns are at most this share of the legal turns."""
LEAST_TURNS = 30
"""A position with fewer legal turns is too easy to search by eye."""
MAX_ESCAPES = 40
"""Counting escapes stops here (more: not a puzzle)."""
OFF_PATH = 8
SPACING = 6
"""An answer is used again only this many plies later in a game."""
"""Turns drawn, from each position of a game, to look one ply off it."""
HINTS = 24
"""Capturing turns kept to try first."""
MAX_PLIES = 300
RULESETS = ("8x8", "10x10")
PAIRS = (("easy", "medium"), ("medium", "medium"))
"""The (Rebels, Imperium) levels of the self-play games, by the seed (an easy Imperium rarely
gets near the Rebel Command: few puzzles)."""
THEMES = {
    "capture": "Command hunt",
    "four-sectors": "sector",
    "sector": "sector",
    "escape": "escape",
}


def command_part(text: str) -> str | None:
    """The Command move of a turn's notation (``None`` without one)."""
    return text.split(";", 1)[1] if ";" in text else None


def answers(right: Sequence[str], legal: Sequence[str]) -> list[str]:
    """The right turns described shortly: ``*;MOVE`` for a Command move that is right with
    every action it is legal with, the turn itself otherwise (in the engine's order)."""
    by_command: dict[str, list[str]] = {}
    for text in legal:
        part = command_part(text)
        if part is not None:
            by_command.setdefault(part, []).append(text)
    chosen = set(right)
    out: list[str] = []
    covered: set[str] = set()
    for text in right:
        if text in covered:
            continue
        part = command_part(text)
        group = by_command.get(part, []) if part is not None else []
        if len(group) > 1 and all(t in chosen for t in group):
            out.append(f"*;{part}")
            covered.update(group)
        else:
            out.append(text)
            covered.add(text)
    return out


def wins_now(state: DefianceState) -> list[str]:
    """The turns that win the game at once for the side to move."""
    side = state.to_move
    found = []
    for move in state.legal_moves():
        over = state.play(move).outcome()
        if over is not None and over.winner == side:
            found.append(str(move))
    return found


def captures(state: DefianceState, hints: list[str] | None = None) -> bool:
    """Whether the Imperium, to move, has a turn that captures the Rebel Command. ``hints``:
    turns that captured in positions like this one, tried first (a found one joins them)."""
    for text in hints or ():
        try:
            move = state.parse_move(text)
        except ValueError:
            continue
        over = state.play(move).outcome()
        if over is not None and over.winner == IMPERIUM:
            return True
    for move in state.legal_moves():
        over = state.play(move).outcome()
        if over is not None and over.winner == IMPERIUM:
            if hints is not None:
                hints.insert(0, str(move))
                del hints[HINTS:]
            return True
    return False


def sectors(state: DefianceState) -> int:
    """How many sectors the Rebels hold a key point in."""
    return sum(1 for points in state.controlled() if points)


def gains(state: DefianceState) -> list[str]:
    """The Rebels' turns after which they hold a sector more, and the Imperium, to move, cannot
    capture their Command at once."""
    held = sectors(state)
    found = []
    for move in state.legal_moves():
        child = state.play(move)
        if child.outcome() is None and sectors(child) > held and not captures(child):
            found.append(str(move))
    return found


def flipped(state: DefianceState) -> DefianceState:
    """The same board with the other side to move (to ask what it threatens)."""
    head, side = state.position().rsplit(" ", 1)
    other = state.game.parse_position(f"{head} {'i' if side == 'r' else 'r'}")
    assert isinstance(other, DefianceState)
    return other


def escapes(state: DefianceState, threats: list[str]) -> list[str] | None:
    """The Rebels' turns after which the Imperium cannot capture their Command (``None`` when
    there are more than ``MAX_ESCAPES``); ``threats``: the Imperium's capturing turns were it
    to move now (tried first in each reply's search: a proof needs only one that works)."""
    found = []
    hints = threats[:HINTS]
    for move in state.legal_moves():
        child = state.play(move)
        if child.outcome() is not None:
            continue
        if not captures(child, hints):
            found.append(str(move))
            if len(found) > MAX_ESCAPES:
                return None
    return found


def _spread(turns: list[str]) -> list[str]:
    """Turns with different Command moves first (the likeliest to differ in what they do)."""
    seen: set[str | None] = set()
    first: list[str] = []
    rest: list[str] = []
    for text in turns:
        part = command_part(text)
        (rest if part in seen else first).append(text)
        seen.add(part)
    return first + rest


@dataclass(frozen=True)
class Found:
    """A position's puzzle: its kind, the right turns, their short description, the number
    of legal turns."""

    kind: str
    right: tuple[str, ...]
    short: tuple[str, ...]
    legal: int


def examine(state: DefianceState, escape: bool = True) -> Found | None:
    """The puzzle of a position, or ``None`` (sectors gained and escapes looked for only with
    ``escape``)."""
    if state.outcome() is not None:
        return None
    legal = [str(m) for m in state.legal_moves()]
    if len(legal) < LEAST_TURNS:
        return None
    right = wins_now(state)
    kind = "capture" if state.to_move == IMPERIUM else "four-sectors"
    if not right and state.to_move == REBELS and escape:
        right, kind = gains(state), "sector"
    if not right and state.to_move == REBELS and escape:
        threat = flipped(state)
        threats = [] if threat.outcome() is not None else wins_now(threat)
        if not threats:
            return None
        found = escapes(state, _spread(threats))
        if not found:
            return None
        right, kind = found, "escape"
    if not right or len(right) > SHARE * len(legal):
        return None
    short = answers(right, legal)
    if len(short) > IDEAS:
        return None
    return Found(kind, tuple(right), tuple(short), len(legal))


def rating(found: Found) -> float:
    """A starting rating: more legal turns, fewer right ones, and an escape (two plies) are
    harder."""
    base = {"capture": 1250.0, "four-sectors": 1400.0, "sector": 1450.0, "escape": 1550.0}[
        found.kind
    ]
    share = len(found.right) / found.legal
    value = base + 150 * math.log10(found.legal / 30) - 1500 * share + 60 * (len(found.short) == 1)
    return float(round(min(max(value, 800), 2400)))


def make(state: DefianceState, found: Found, number: int) -> Puzzle:
    """The puzzle of an examined position."""
    first = found.short[0]
    line = (
        first
        if not first.startswith("*;")
        else next(t for t in found.right if command_part(t) == first[2:])
    )
    accepted = tuple(a for a in found.short if a != line)
    themes = [THEMES[found.kind]]
    if any(s.startswith("*;") for s in found.short):
        themes.append("Command move")
    return Puzzle(
        id=f"d{number:05d}",
        game="defiance",
        ruleset=state.game.ruleset,
        position=state.position(),
        side=str(state.to_move),
        line=(line,),
        themes=tuple(themes),
        rating=rating(found),
        source="search",
        accepted=(accepted,) if accepted else (),
        facts={"kind": found.kind, "right": len(found.right), "legal": found.legal},
    )


def self_play(seed: int) -> Iterator[DefianceState]:
    """The positions of one seeded game (8×8 for even seeds, 10×10 for odd)."""
    rebels, imperium = PAIRS[(seed // 2) % len(PAIRS)]
    agents: dict[str, Agent] = {
        REBELS: make_agent("defiance", rebels, seed),
        IMPERIUM: make_agent("defiance", imperium, seed + 7919),
    }
    state = ludotheque.load("defiance", RULESETS[seed % 2]).start()
    assert isinstance(state, DefianceState)
    for _ in range(MAX_PLIES):
        if state.outcome() is not None:
            return
        yield state
        nxt = state.play(agents[str(state.to_move)].choose(state))
        assert isinstance(nxt, DefianceState)
        state = nxt


def candidates(seed: int) -> Iterator[tuple[int, DefianceState, bool]]:
    """A game's positions (with their ply; ``True``: on the game's path) and, from each,
    ``OFF_PATH`` positions one turn off it (``False``): turns the players did not choose, drawn
    by the seed (a quarter as many on 10×10, where each costs four times as much)."""
    draw = random.Random(seed)
    for ply, state in enumerate(self_play(seed)):
        yield ply, state, True
        moves = state.legal_moves()
        wanted = OFF_PATH if state.game.ruleset == "8x8" else OFF_PATH // 4
        for i in draw.sample(range(len(moves)), min(wanted, len(moves))):
            child = state.play(moves[i])
            if child.outcome() is None:
                yield ply, child, False


def puzzles(seed: int) -> Iterator[Puzzle]:
    """The proved puzzles of one seed (numbered 0: the set numbers them): an answer once in
    ``SPACING`` plies of a game (positions next to each other often share theirs); escapes and
    sectors gained are looked for on the game's path only (each costs a search of every reply
    to every turn)."""
    last: dict[tuple[str, ...], int] = {}
    for ply, state, on_path in candidates(seed):
        found = examine(state, escape=on_path)
        if found is not None and ply - last.get(found.short, -SPACING) >= SPACING:
            last[found.short] = ply
            yield make(state, found, 0)


def select(pool: list[Puzzle], count: int, fill: bool = False) -> list[Puzzle]:
    """A set of ``count``: every escape and sector found, Command hunts up to 80% (with
    ``fill``, any to make up the count)."""
    unique = list({p.position: p for p in pool}.values())
    chosen = [p for p in unique if p.facts["kind"] != "capture"]
    chosen += [p for p in unique if p.facts["kind"] == "capture"][: count * 4 // 5]
    if fill:
        taken = {p.position for p in chosen}
        chosen += [p for p in unique if p.position not in taken]
    return chosen[:count]


def verify(puzzle: Puzzle) -> list[str]:
    """What is wrong with a shipped Defiance puzzle by search over every legal turn (empty:
    nothing): the position is what the tool found, with the same right turns (the line's turn
    among them, the accepted answers covering exactly the rest), kind, themes and rating."""
    state = ludotheque.load("defiance", puzzle.ruleset).parse_position(puzzle.position)
    assert isinstance(state, DefianceState)
    if puzzle.source != "search" or state.to_move != puzzle.side or len(puzzle.line) != 1:
        return [f"{puzzle.id}: not a search puzzle of the side to move"]
    found = examine(state)
    if found is None:
        return [f"{puzzle.id}: the search finds no puzzle here"]
    expected = make(state, found, 0)
    problems = []
    if puzzle.line[0] not in found.right:
        problems.append(f"{puzzle.id}: {puzzle.line[0]} is not right")
    legal = [str(m) for m in state.legal_moves()]
    accepted = {t for t in legal if puzzle.accepts(0, t)}
    if accepted != set(found.right):
        problems.append(f"{puzzle.id}: the accepted turns are not the right ones")
    if (expected.themes, expected.rating, expected.facts) != (
        puzzle.themes,
        puzzle.rating,
        puzzle.facts,
    ):
        problems.append(f"{puzzle.id}: themes, rating or facts differ")
    return problems


def kinds(puzzles: Sequence[Puzzle]) -> dict[str, Any]:
    """The count of each kind (for the report)."""
    out: dict[str, Any] = {}
    for p in puzzles:
        out[p.facts["kind"]] = out.get(p.facts["kind"], 0) + 1
    return out
