"""Defiance and Domain move values: actions, Command moves and whole turns, with notation.

Names are resolved against the board (cells ``a1``…, points ``P2.2``) when a move is formatted,
so the values themselves are small tuples of integers.
"""

from __future__ import annotations

from typing import NamedTuple

from .geometry import DIRECTIONS, Geometry, geometry

PLACE = 0
ROTATE = 1


class Action(NamedTuple):
    """The first part of a turn: place a counter (``kind`` 0) in ``cell`` facing ``direction``,
    or rotate (``kind`` 1) the counter in ``cell`` to ``direction`` (index into DIRECTIONS)."""

    kind: int
    cell: int
    direction: int

    def text(self, geo: Geometry) -> str:
        """``e5>N`` (place) or ``c4@W`` (rotate)."""
        return f"{geo.cell_names[self.cell]}{'>@'[self.kind]}{DIRECTIONS[self.direction]}"


class CommandMove(NamedTuple):
    """The optional second part: a Command steps from point ``src`` to point ``dst``."""

    src: int
    dst: int

    def text(self, geo: Geometry) -> str:
        """``P2.2-P3.3``."""
        return f"{geo.point_names[self.src]}-{geo.point_names[self.dst]}"


class Turn(NamedTuple):
    """A whole turn on an ``n``×``n`` board: an action and, optionally, a Command move.

    ``str(turn)`` is the canonical notation, ``e5>N;P2.2-P3.2``.
    """

    action: Action
    command: CommandMove | None
    n: int

    def __str__(self) -> str:
        geo = geometry(self.n)
        text = self.action.text(geo)
        if self.command is not None:
            text += ";" + self.command.text(geo)
        return text
