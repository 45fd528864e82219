"""A deliberately simple second move generator for the General, written from the contract's
text with its own geometry (coordinates, not the engine's tables), for differential tests."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

COLS = "abcde"


def _square(c: int, r: int) -> str:
    return f"{COLS[c]}{r + 1}"


def _build() -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    adj: dict[str, set[str]] = {}
    lines: list[list[str]] = []
    for r in range(5):
        lines.append([_square(c, r) for c in range(5)])
    for c in range(5):
        col = [_square(c, r) for r in range(5)]
        if c == 2:
            col += ["s2", "s4"]
        lines.append(col)
    # diagonals: a step (±1, ±1) joins two square points whose coordinate sum is even
    for c in range(5):
        for r in range(5):
            if (c + r) % 2:
                continue
            for dc, dr in ((1, 1), (1, -1)):
                if 0 <= c + dc < 5 and 0 <= r + dr < 5:
                    lines.append([_square(c, r), _square(c + dc, r + dr)])
    lines += [["b5", "s1", "s4"], ["d5", "s3", "s4"], ["s1", "s2", "s3"]]
    for line in lines:
        for a, b in itertools.pairwise(line):
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
    # capture triples: three consecutive points of one straight line; diagonal triples come
    # from chaining two diagonal steps in the same direction
    triples: list[tuple[str, str, str]] = []
    for line in lines:
        for a, m, b in zip(line, line[1:], line[2:], strict=False):
            triples.append((a, m, b))
    for c in range(5):
        for r in range(5):
            if (c + r) % 2:
                continue
            for dc, dr in ((1, 1), (1, -1)):
                pts = [(c + k * dc, r + k * dr) for k in range(3)]
                if all(0 <= x < 5 and 0 <= y < 5 for x, y in pts):
                    triples.append(tuple(_square(x, y) for x, y in pts))  # type: ignore[arg-type]
    return adj, triples


ADJ, TRIPLES = _build()
SANCTUARY = {"s1", "s2", "s3", "s4"}
GATES = {"b5", "c5", "d5"}


@dataclass(frozen=True)
class Pos:
    general: str
    rebels: frozenset[str]
    side: str  # "r" or "g"
    flight: bool


def parse(text: str) -> Pos:
    g, rebels, side, flight = text.split()
    return Pos(g, frozenset(rebels.split(",")), side, flight == "1")


def pairs_at(point: str, rebels: frozenset[str]) -> list[tuple[str, str]]:
    found = set()
    for a, m, b in TRIPLES:
        if m == point and a in rebels and b in rebels:
            found.add(tuple(sorted((a, b))))
    return sorted(found)  # type: ignore[arg-type]


def winner(pos: Pos) -> str | None:
    if len(pos.rebels) <= 4:
        return "general"
    if pos.general in SANCTUARY and pos.rebels >= GATES:
        return "rebels"
    if not raw_moves(pos):
        return "rebels" if pos.side == "g" else "general"
    return None


def raw_moves(pos: Pos) -> dict[str, Pos]:
    out: dict[str, Pos] = {}
    occupied = pos.rebels | {pos.general}
    if pos.side == "r":
        for r in pos.rebels:
            for to in ADJ[r]:
                if to not in occupied and to not in SANCTUARY:
                    out[f"{r}-{to}"] = Pos(pos.general, pos.rebels - {r} | {to}, "g", pos.flight)
        return out
    for to in ADJ[pos.general]:
        if to in occupied:
            continue
        if to == "s4" and pos.flight:
            for land in sorted(ADJ.keys()):
                if land == "s4" or land in pos.rebels:
                    continue
                _with_captures(out, f"{pos.general}-s4*{land}", land, pos, False)
        else:
            _with_captures(out, f"{pos.general}-{to}", to, pos, pos.flight)
    return out


def _with_captures(out: dict[str, Pos], text: str, end: str, pos: Pos, flight: bool) -> None:
    pairs = pairs_at(end, pos.rebels)
    if not pairs:
        out[text] = Pos(end, pos.rebels, "r", flight)
    for a, b in pairs:
        out[f"{text}x{a}{b}"] = Pos(end, pos.rebels - {a, b}, "r", flight)


def moves(pos: Pos) -> dict[str, Pos]:
    """Legal moves (notation -> resulting position), empty once the game is over."""
    if winner(pos) is not None:
        return {}
    return raw_moves(pos)


def fmt(pos: Pos) -> str:
    return f"{pos.general} {','.join(sorted(pos.rebels))} {pos.side} {int(pos.flight)}"
