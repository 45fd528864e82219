"""Reading OpenSpiel backgammon states as our position strings (X is white, O is black)."""

from __future__ import annotations

import re
from typing import Any

import pyspiel

GAME = pyspiel.load_game("backgammon")


def _listing(counts: dict[int, int]) -> str:
    parts = []
    for p in sorted(counts, reverse=True):
        name = "bar" if p == 25 else str(p)
        parts.append(name if counts[p] == 1 else f"{name}x{counts[p]}")
    return ",".join(parts)


def boards(state: Any) -> str:
    """``W[...] B[...]`` for an OpenSpiel state."""
    text = str(state)
    bar_line = re.search(r"^Bar:(.*)$", text, re.M)
    bar = bar_line.group(1) if bar_line else ""
    white: dict[int, int] = {}
    black: dict[int, int] = {}
    for pos in range(24):
        x = state.board(0, pos)
        o = state.board(1, pos)
        if x:
            white[24 - pos] = x
        if o:
            black[pos + 1] = o
    if bar.count("x"):
        white[25] = bar.count("x")
    if bar.count("o"):
        black[25] = bar.count("o")
    return f"W[{_listing(white)}] B[{_listing(black)}]"


def dice(state: Any) -> str:
    match = re.search(r"^Dice: (\d)(\d)$", str(state), re.M)
    assert match, str(state)
    a, b = int(match[1]), int(match[2])
    return f"{max(a, b)}{min(a, b)}"


def turn_results(state: Any) -> set[str]:
    """Every ``W[...] B[...]`` the player to move can reach by the end of the turn (a double is
    two OpenSpiel decisions: they are chained)."""
    player = state.current_player()
    found: set[str] = set()

    def walk(s: Any) -> None:
        if s.is_terminal() or s.is_chance_node() or s.current_player() != player:
            found.add(boards(s))
            return
        for action in s.legal_actions():
            walk(s.child(action))

    walk(state)
    return found
