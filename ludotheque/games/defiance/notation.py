"""Defiance and Domain turn notation: actions (``e5>N`` place, ``c4@W`` rotate) and Command
moves (``P2.2-P3.3``), read into values with the reason when they cannot be; whether a value
is legal in a position is for the rules (``rules.py``) to say."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...core import InvalidMove, described
from .._numbers import read_number, short_enough
from .geometry import ARROWS, DIRECTION_INDEX, Geometry
from .moves import PLACE, ROTATE, Action, CommandMove

# re.ASCII: ``\d`` is 0–9 only, not the digits of other scripts
_ACTION_RE = re.compile(r"([a-z])(\d+)([>@])([a-z]+)", re.ASCII)
_COMMAND_RE = re.compile(r"p(\d+)\.(\d+)-p(\d+)\.(\d+)", re.ASCII)


def parse_action(geo: Geometry, text: object) -> Action:
    """The action that ``text`` names on board ``geo`` (any case, spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidMove(
            "an action must be text like 'e5>N', not {value} ({type})",
            code="action-not-text",
            **described(text),
        )
    cleaned = "".join(short_enough(text).split()).lower()
    match = _ACTION_RE.fullmatch(cleaned)
    if match is None:
        raise InvalidMove(
            "cannot read the action {text!r}: write a turn like 'e5>N' (place), 'c4@W' "
            "(rotate), or 'e5>N;P2.2-P3.2'",
            code="unreadable-action",
            text=text.strip(),
        )
    number = read_number(match[2], InvalidMove, "a move")
    cell = None if match[2].startswith("0") else geo.cell_index.get(f"{match[1]}{number}")
    if cell is None:
        raise InvalidMove(
            "{cell} is not a cell of this board (a1…{last})",
            code="not-a-cell",
            cell=f"{match[1]}{match[2]}",
            last=geo.cell_names[-1],
        )
    direction = DIRECTION_INDEX.get(match[4].upper())
    if direction is None:
        raise InvalidMove(
            "{direction!r} is not a direction (N NE E SE S SW W NW)",
            code="not-a-direction",
            direction=match[4].upper(),
        )
    return Action(PLACE if match[3] == ">" else ROTATE, cell, direction)


def parse_command(geo: Geometry, text: str) -> CommandMove:
    """The Command move that ``text`` (the part after ``;``) names on board ``geo``."""
    cleaned = "".join(text.split()).lower()
    match = _COMMAND_RE.fullmatch(cleaned)
    if match is None:
        raise InvalidMove(
            "cannot read the Command move {text!r}: write like P2.2-P3.3",
            code="unreadable-command-move",
            text=text.strip(),
        )
    coords = [read_number(v, InvalidMove, "a move") for v in match.groups()]
    if any(v > geo.n for v in coords):
        raise InvalidMove(
            "{move} leaves the board (points are 0–{n})",
            code="command-move-off-board",
            move=text.strip(),
            n=geo.n,
        )
    return CommandMove(geo.point(coords[0], coords[1]), geo.point(coords[2], coords[3]))


def arrow(direction: str) -> str:
    """The arrow of a direction name (``NE`` → ``↗``)."""
    return ARROWS[DIRECTION_INDEX[direction]]


def names(geo: Geometry, cells: Iterable[int]) -> list[str]:
    """Cell names of cell indices."""
    return [geo.cell_names[c] for c in cells]
