"""A deliberately simple second implementation of Defiance and Domain, written from the
contract's text with coordinates and full scans (no shortcuts), for differential tests.

It re-checks every counter of the opponent after each part of a turn, recomputes control by
scanning every key point, and tests each Command step against the contract's wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DIRS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
        "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}  # fmt: skip
FILES = "abcdefghij"


@dataclass
class Pos:
    n: int
    counters: dict[tuple[int, int], tuple[str, str]]  # (i, j) -> ("R"|"I", direction)
    pools: dict[str, int]
    rebel: tuple[int, int]
    imperial: list[tuple[int, int]]
    side: str  # "r" | "i"
    captured: list[tuple[int, int]] = field(default_factory=list)

    def copy(self) -> Pos:
        return Pos(self.n, dict(self.counters), dict(self.pools), self.rebel,
                   list(self.imperial), self.side)  # fmt: skip


def parse(text: str, n: int) -> Pos:
    cells, pools, commands, side = text.split()
    counters: dict[tuple[int, int], tuple[str, str]] = {}
    for r, row in enumerate(cells.split("/")):
        j = n - 1 - r
        i = 0
        for num, who, d in re.findall(r"(\d+)|([RI])(NE|NW|SE|SW|N|E|S|W)", row):
            if num:
                i += int(num)
            else:
                counters[(i, j)] = (who, d)
                i += 1
    p = dict(re.findall(r"([ri])(\d+)", pools))
    pts = re.findall(r"([RI])(\d+)\.(\d+)", commands)
    rebel = next((int(x), int(y)) for w, x, y in pts if w == "R")
    imperial = [(int(x), int(y)) for w, x, y in pts if w == "I"]
    return Pos(n, counters, {"R": int(p["r"]), "I": int(p["i"])}, rebel, imperial, side)


def fmt(pos: Pos) -> str:
    rows = []
    for j in range(pos.n - 1, -1, -1):
        row, run = "", 0
        for i in range(pos.n):
            c = pos.counters.get((i, j))
            if c is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += c[0] + c[1]
        rows.append(row + (str(run) if run else ""))
    imp = sorted(pos.imperial)
    cmds = f"R{pos.rebel[0]}.{pos.rebel[1]},I{imp[0][0]}.{imp[0][1]},I{imp[1][0]}.{imp[1][1]}"
    return f"{'/'.join(rows)} r{pos.pools['R']},i{pos.pools['I']} {cmds}"


def sector_of_cell(n: int, i: int, j: int) -> tuple[int, int]:
    return (int(i >= n // 2), int(j >= n // 2))


def sector_of_point(n: int, x: int, y: int) -> tuple[int, int] | None:
    h = n // 2
    if x == h or y == h:
        return None
    return (int(x > h), int(y > h))


def command_sectors(pos: Pos, who: str) -> set[tuple[int, int]]:
    points = [pos.rebel] if who == "R" else pos.imperial
    return {s for p in points if (s := sector_of_point(pos.n, *p)) is not None}


def is_captured(pos: Pos, cell: tuple[int, int], owner: str) -> bool:
    """Would a counter of ``owner`` on ``cell`` be captured right now?"""
    enemy = "I" if owner == "R" else "R"
    i, j = cell
    for name, (dx, dy) in DIRS.items():
        a = (i + dx, j + dy)
        b = (i - dx, j - dy)
        ca, cb = pos.counters.get(a), pos.counters.get(b)
        if ca is None or cb is None or ca[0] != enemy or cb[0] != enemy:
            continue
        # a points at cell: its direction is the vector from a to cell, i.e. -(dx, dy)
        if DIRS[ca[1]] != (-dx, -dy) or DIRS[cb[1]] != (dx, dy):
            continue
        if dx and dy:
            s = sector_of_cell(pos.n, i, j)
            if sector_of_cell(pos.n, *a) != s or sector_of_cell(pos.n, *b) != s:
                continue
            if s not in command_sectors(pos, enemy):
                continue
        del name
        return True
    return False


def resolve(pos: Pos, mover: str) -> None:
    """Remove every counter of the opponent flanked in a way that captures."""
    enemy = "I" if mover == "R" else "R"
    doomed = [c for c, (w, _) in pos.counters.items() if w == enemy and is_captured(pos, c, w)]
    for c in doomed:
        del pos.counters[c]
        pos.pools[enemy] += 1
        pos.captured.append(c)


def controlled(pos: Pos, x: int, y: int) -> bool:
    h = pos.n // 2
    if not (1 <= x <= pos.n - 1 and 1 <= y <= pos.n - 1) or x == h or y == h:
        return False
    return all(
        pos.counters.get((x + dx, y + dy), ("", ""))[0] == "R"
        for dx, dy in ((-1, -1), (0, -1), (-1, 0), (0, 0))
    )


def rebels_win(pos: Pos) -> bool:
    found = set()
    for x in range(1, pos.n):
        for y in range(1, pos.n):
            if controlled(pos, x, y):
                found.add(sector_of_point(pos.n, x, y))
    return len(found) == 4


def imperial_cell(pos: Pos, i: int, j: int) -> bool:
    c = pos.counters.get((i, j))
    return c is not None and c[0] == "I"


def on_board(pos: Pos, i: int, j: int) -> bool:
    return 0 <= i < pos.n and 0 <= j < pos.n


def rebel_steps(pos: Pos) -> list[tuple[int, int]]:
    x, y = pos.rebel
    out = []
    for dx, dy in DIRS.values():
        tx, ty = x + dx, y + dy
        if not (0 <= tx <= pos.n and 0 <= ty <= pos.n) or (tx, ty) in pos.imperial:
            continue
        if dx and dy:
            if imperial_cell(pos, min(x, tx), min(y, ty)):
                continue
        else:
            if dx:
                beside = [(min(x, tx), y - 1), (min(x, tx), y)]
            else:
                beside = [(x - 1, min(y, ty)), (x, min(y, ty))]
            beside = [c for c in beside if on_board(pos, *c)]
            if all(imperial_cell(pos, *c) for c in beside):
                continue
        out.append((tx, ty))
    return out


def imperial_steps(pos: Pos) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    out = []
    for src in sorted(set(pos.imperial)):
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            dst = (src[0] + dx, src[1] + dy)
            if not (0 <= dst[0] <= pos.n and 0 <= dst[1] <= pos.n) or dst in pos.imperial:
                continue
            if controlled(pos, *dst) and dst != pos.rebel:
                continue
            out.append((src, dst))
    return out


def _candidates(pos: Pos, mover: str) -> list[tuple[str, tuple[int, int], str]]:
    n = pos.n
    candidates = []
    if pos.pools[mover] > 0:
        for i in range(n):
            for j in range(n):
                if (i, j) not in pos.counters and not is_captured(pos, (i, j), mover):
                    candidates += [(f"{FILES[i]}{j + 1}>{d}", (i, j), d) for d in DIRS]
    for (i, j), (w, facing) in pos.counters.items():
        if w == mover:
            candidates += [(f"{FILES[i]}{j + 1}@{d}", (i, j), d) for d in DIRS if d != facing]
    return candidates


def action_names(text: str, n: int) -> set[str]:
    """The legal actions (first parts of turns)."""
    pos = parse(text, n)
    return {name for name, _, _ in _candidates(pos, "R" if pos.side == "r" else "I")}


def turns(text: str, n: int, actions: list[str] | None = None) -> dict[str, str]:
    """Every legal whole turn (notation -> resulting position string with side), or only those
    starting with the given actions."""
    pos = parse(text, n)
    mover = "R" if pos.side == "r" else "I"
    out: dict[str, str] = {}
    candidates = _candidates(pos, mover)
    nxt = "i" if mover == "R" else "r"
    for name, cell, d in candidates:
        if actions is not None and name not in actions:
            continue
        after = pos.copy()
        if ">" in name:
            after.pools[mover] -= 1
        after.counters[cell] = (mover, d)
        resolve(after, mover)
        if mover == "R" and rebels_win(after):
            out[name] = fmt(after) + " -"
            continue
        out[name] = fmt(after) + f" {nxt}"
        if mover == "R":
            for dst in rebel_steps(after):
                moved = after.copy()
                moved.rebel = dst
                resolve(moved, mover)
                label = f"{name};P{after.rebel[0]}.{after.rebel[1]}-P{dst[0]}.{dst[1]}"
                out[label] = fmt(moved) + f" {nxt}"
        else:
            for src, dst in imperial_steps(after):
                moved = after.copy()
                k = moved.imperial.index(src)
                moved.imperial[k] = dst
                resolve(moved, mover)
                over = dst == moved.rebel
                label = f"{name};P{src[0]}.{src[1]}-P{dst[0]}.{dst[1]}"
                out[label] = fmt(moved) + (" -" if over else f" {nxt}")
    return out
