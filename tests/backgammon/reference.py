"""A deliberately simple second backgammon move generator, written from the contract's text with
plain lists and no pruning, for differential tests (above all of the seed's five-checker cap).

A side is a list of 26 counts in its own view: 0 borne off, 1–24 points, 25 bar.
"""

from __future__ import annotations

import itertools
import re

Side = list[int]


def parse(text: str) -> tuple[Side, Side, str, tuple[int, int] | None]:
    match = re.fullmatch(r"W\[(.*)\] B\[(.*)\] (\S) (\S+)", text.strip())
    assert match, text
    sides = []
    for listing in (match[1], match[2]):
        counts = [0] * 26
        for entry in filter(None, listing.split(",")):
            place, _, n = entry.partition("x")
            counts[25 if place == "bar" else int(place)] = int(n or 1)
        counts[0] = 15 - sum(counts[1:])
        sides.append(counts)
    dice = None if match[4] == "-" else (int(match[4][0]), int(match[4][1]))
    return sides[0], sides[1], match[3], dice


def fmt_sides(white: Side, black: Side) -> str:
    def listing(counts: Side) -> str:
        out = []
        for p in range(25, 0, -1):
            if counts[p]:
                name = "bar" if p == 25 else str(p)
                out.append(name if counts[p] == 1 else f"{name}x{counts[p]}")
        return ",".join(out)

    return f"W[{listing(white)}] B[{listing(black)}]"


def one_move(me: Side, opp: Side, src: int, die: int, cap: int) -> tuple[Side, Side] | None:
    """The boards after moving a checker from ``src`` by ``die``, or None if not allowed."""
    if me[src] == 0:
        return None
    if me[25] > 0 and src != 25:
        return None  # the bar first
    dst = src - die
    me2, opp2 = me[:], opp[:]
    me2[src] -= 1
    if dst >= 1:
        if opp[25 - dst] >= 2:
            return None  # blocked
        if cap and me[dst] >= cap:
            return None  # the cap counts own checkers on every landing
        if opp[25 - dst] == 1:
            opp2[25 - dst] = 0
            opp2[25] += 1
        me2[dst] += 1
        return me2, opp2
    if any(me[p] for p in range(7, 26)):
        return None  # bearing off only with everything home
    if dst < 0 and any(me[p] for p in range(src + 1, 7)):
        return None  # a larger die only from the highest checker
    me2[0] += 1
    return me2, opp2


def sequences(
    me: Side, opp: Side, dice: list[int], cap: int
) -> list[tuple[tuple[int, ...], Side, Side]]:
    """Every (dice used, boards) reachable by legal sequences, trying every order of the dice."""
    found: list[tuple[tuple[int, ...], Side, Side]] = []
    orders = {tuple(p) for p in itertools.permutations(dice)}

    def walk(me: Side, opp: Side, left: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if left:
            for src in range(25, 0, -1):
                nxt = one_move(me, opp, src, left[0], cap)
                if nxt is not None:
                    moved = True
                    walk(nxt[0], nxt[1], left[1:], (*used, left[0]))
        if not moved:
            found.append((used, me, opp))

    for order in orders:
        walk(me, opp, order, ())
    return found


def legal_results(text: str, cap: int) -> set[str]:
    """The ``W[...] B[...]`` of every legal play of the position's roll."""
    white, black, side, dice = parse(text)
    assert dice is not None
    me, opp = (white, black) if side == "w" else (black, white)
    roll = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    plays = sequences(me, opp, roll, cap)
    most = max(len(used) for used, _, _ in plays)
    plays = [p for p in plays if len(p[0]) == most]
    if most == 1 and dice[0] != dice[1]:
        high = max(dice)
        if any(used == (high,) for used, _, _ in plays):
            plays = [p for p in plays if p[0] == (high,)]
    out = set()
    for _, m, o in plays:
        w, b = (m, o) if side == "w" else (o, m)
        out.add(fmt_sides(w, b))
    return out
