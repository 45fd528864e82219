"""Defiance and Domain position strings: ``<cells> <pools> <commands> <side>``.

``format_position`` writes the canonical string; ``read_position`` reads one (any case, any run
of spaces) into plain values, refusing with ``InvalidPosition`` and the reason anything the
contract rejects — including a capture left pending and a side that does not fit a finished or
unfinished game.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...core import InvalidPosition, described
from .._numbers import read_number
from .board import active_sectors, controlled_by_sector, flanked, owner, pair
from .geometry import DIRECTION_INDEX, DIRECTIONS, Geometry

SIDE_CODES = {"r": 0, "i": 1, "-": -1}
"""The side field: the Rebels, the Imperium, or ``-`` once the game is over."""


class Fields(NamedTuple):
    """The values of a position string: cells (codes), pools, the Rebel Command's point, the
    Imperial Commands' points (canonical order) and the side (0, 1, or -1 once over)."""

    cells: tuple[int, ...]
    pools: tuple[int, int]
    rebel: int
    imperial: tuple[int, int]
    side: int


def xy(geo: Geometry, p: int) -> str:
    """``x.y`` of point ``p``."""
    x, y = geo.point_xy[p]
    return f"{x}.{y}"


def cells_text(geo: Geometry, cells: tuple[int, ...] | list[int]) -> str:
    """The cells field: rows from the top, FEN-style."""
    rows = []
    n = geo.n
    for j in range(n - 1, -1, -1):
        parts: list[str] = []
        run = 0
        for i in range(n):
            code = cells[j * n + i]
            if not code:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append("RI"[owner(code)] + DIRECTIONS[(code - 1) & 7])
        if run:
            parts.append(str(run))
        rows.append("".join(parts))
    return "/".join(rows)


def format_position(
    geo: Geometry,
    cells: tuple[int, ...],
    pools: tuple[int, int],
    rebel: int,
    imperial: tuple[int, int],
    side: int,
) -> str:
    """The canonical position string."""
    return (
        f"{cells_text(geo, cells)} r{pools[0]},i{pools[1]} "
        f"R{xy(geo, rebel)},I{xy(geo, imperial[0])},"
        f"I{xy(geo, imperial[1])} {'-' if side < 0 else 'ri'[side]}"
    )


# re.ASCII: ``\d`` is 0–9 only, and letters match only their ASCII cases (with Unicode rules
# "İ" and "ı" would match "I", and "ſ" would match "S", though "İ".upper() is not "I")
_ASCII_NOCASE = re.IGNORECASE | re.ASCII
_PIECE_RE = re.compile(r"(\d+)|([RI])(NE|NW|SE|SW|N|E|S|W)?", _ASCII_NOCASE)
_POINT_RE = re.compile(r"([RI])(\d+)\.(\d+)", _ASCII_NOCASE)
_POOLS_RE = re.compile(r"([ri])(\d+)", _ASCII_NOCASE)


def _parse_cells(geo: Geometry, token: str) -> list[int]:
    rows = token.split("/")
    n = geo.n
    if len(rows) != n:
        raise InvalidPosition(
            "the board has {n} rows separated by '/', not {count}",
            code="row-count",
            n=n,
            count=len(rows),
        )
    cells = [0] * geo.num_cells
    for r, row in enumerate(rows):
        j = n - 1 - r
        i = 0
        pos = 0
        if not row:
            raise InvalidPosition(
                "row {row} is empty (write {n} for an empty row)", code="empty-row", row=j + 1, n=n
            )
        while pos < len(row):
            match = _PIECE_RE.match(row, pos)
            if match is None:
                raise InvalidPosition(
                    "row {row}: cannot read {rest!r} (a digit run counts empty cells; a counter "
                    "is R or I and a direction, like RNE)",
                    code="unreadable-row",
                    row=j + 1,
                    rest=row[pos:],
                )
            pos = match.end()
            if match[1] is not None:
                run = read_number(match[1], InvalidPosition, "a position")
                if run == 0:
                    raise InvalidPosition(
                        "row {row}: an empty run of 0 cells", code="zero-run", row=j + 1
                    )
                i += run
            else:
                if match[3] is None:
                    raise InvalidPosition(
                        "row {row}: a counter needs a direction (N NE E SE S SW W NW), e.g. "
                        "{piece}NE",
                        code="counter-without-direction",
                        row=j + 1,
                        piece=match[2].upper(),
                    )
                if i < n:
                    side = "RI".index(match[2].upper())
                    cells[j * n + i] = 1 + 8 * side + DIRECTION_INDEX[match[3].upper()]
                i += 1
            if i > n:
                raise InvalidPosition(
                    "row {row} has more than {n} cells", code="row-too-long", row=j + 1, n=n
                )
        if i != n:
            raise InvalidPosition(
                "row {row} has {count} cells, not {n}",
                code="row-length",
                row=j + 1,
                count=i,
                n=n,
            )
    return cells


def _parse_point(geo: Geometry, x: str, y: str, rebel: bool) -> int:
    """The point of a Command (the Rebel one, or an Imperial one) at ``x``, ``y``."""
    px = read_number(x, InvalidPosition, "a position")
    py = read_number(y, InvalidPosition, "a position")
    if not (0 <= px <= geo.n and 0 <= py <= geo.n):
        if rebel:
            raise InvalidPosition(
                "the Rebel Command on P{x}.{y} is off the board (points 0–{n})",
                code="rebel-command-off-board",
                x=px,
                y=py,
                n=geo.n,
            )
        raise InvalidPosition(
            "the Imperial Command on P{x}.{y} is off the board (points 0–{n})",
            code="imperial-command-off-board",
            x=px,
            y=py,
            n=geo.n,
        )
    return geo.point(px, py)


def read_position(geo: Geometry, pool_size: int, text: object) -> Fields:
    """The values of position string ``text`` on board ``geo`` with pools of ``pool_size``;
    raises ``InvalidPosition`` with the reason."""
    if not isinstance(text, str):
        raise InvalidPosition(
            "a position must be a string, not {value} ({type})",
            code="position-not-text",
            **described(text),
        )
    fields = text.split()
    if len(fields) != 4:
        raise InvalidPosition(
            "a position has 4 fields (cells, pools, commands, side): a position reads like "
            "'10/10/10/10/10/10/10/10/10/10 r{pool},i{pool} R2.2,I7.8,I8.7 r'",
            code="defiance-position-fields",
            pool=pool_size,
        )
    cells = _parse_cells(geo, fields[0])
    pools: dict[str, int] = {}
    for part in fields[1].split(","):
        match = _POOLS_RE.fullmatch(part)
        if match is None:
            raise InvalidPosition(
                "cannot read the pools {text!r}: write like 'r40,i40'",
                code="unreadable-pools",
                text=fields[1],
            )
        key = match[1].lower()
        if key in pools:
            raise InvalidPosition("the pools name {key!r} twice", code="pool-twice", key=key)
        pools[key] = read_number(match[2], InvalidPosition, "a position")
    if set(pools) != {"r", "i"}:
        raise InvalidPosition("the pools give both sides, like 'r40,i40'", code="pool-missing")
    rebel: list[int] = []
    imperial: list[int] = []
    for part in fields[2].split(","):
        match = _POINT_RE.fullmatch(part)
        if match is None:
            raise InvalidPosition(
                "cannot read the Command {part!r}: write like 'R2.2' or 'I7.8'",
                code="unreadable-command",
                part=part,
            )
        who = match[1].upper()
        point = _parse_point(geo, match[2], match[3], who == "R")
        (rebel if who == "R" else imperial).append(point)
    if len(rebel) != 1 or len(imperial) != 2:
        raise InvalidPosition(
            "there is one Rebel and two Imperial Commands, not {rebel} and {imperial}",
            code="command-count",
            rebel=len(rebel),
            imperial=len(imperial),
        )
    a, b = pair(geo, imperial[0], imperial[1])
    if a == b and not (geo.n == 8 and a == geo.point(6, 6)):
        raise InvalidPosition(
            "both Imperial Commands on {point}: only the 8×8 start (P6.6) allows it",
            code="imperial-commands-together",
            point=geo.point_names[a],
        )
    sides = ("rebels", "imperium")
    for s, key in ((0, "r"), (1, "i")):
        on_board = sum(1 for code in cells if code and owner(code) == s)
        if on_board + pools[key] != pool_size:
            raise InvalidPosition(
                "the {side} have {board} counters on the board and {pool} in the pool: {total}, "
                "not {size}",
                code="counter-total",
                side=sides[s],
                board=on_board,
                pool=pools[key],
                total=on_board + pools[key],
                size=pool_size,
            )
    side_token = fields[3].lower()
    if side_token not in SIDE_CODES:
        raise InvalidPosition(
            "the side to move is 'r', 'i' or '-', not {token!r}",
            code="defiance-bad-side",
            token=fields[3],
        )
    for c, code in enumerate(cells):
        if code:
            enemy = 1 - owner(code)
            if flanked(geo, cells, c, enemy, active_sectors(geo, enemy, rebel[0], (a, b))):
                raise InvalidPosition(
                    "the counter on {cell} is flanked and should have been captured (play never "
                    "leaves a capture pending)",
                    code="capture-pending",
                    cell=geo.cell_names[c],
                )
    finished = rebel[0] in (a, b) or all(controlled_by_sector(geo, cells))
    if finished and side_token != "-":
        raise InvalidPosition(
            "the game is over in this position, so the side must be '-'", code="over-with-side"
        )
    if not finished and side_token == "-":
        raise InvalidPosition(
            "'-' is only for a finished game: write 'r' or 'i'", code="side-missing"
        )
    return Fields(tuple(cells), (pools["r"], pools["i"]), rebel[0], (a, b), SIDE_CODES[side_token])
