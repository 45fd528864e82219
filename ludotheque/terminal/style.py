"""What the terminal games share: colour (ANSI, only on a terminal, never with ``NO_COLOR``),
the names of the sides in sentences, and lists laid out in columns."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

RESET = "\x1b[0m"
RED = "1;31"
CYAN = "1;36"


def wants_colour(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is a terminal, ``NO_COLOR`` is unset or empty (no-color.org) and
    the terminal is not ``dumb``."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def paint(text: str, style: str, colour: bool) -> str:
    """``text`` in the ANSI ``style`` (e.g. ``RED``) when ``colour`` is on, else unchanged."""
    if not colour or not style or not text:
        return text
    return f"\x1b[{style}m{text}{RESET}"


@dataclass(frozen=True)
class Side:
    """How a side is named in a sentence: ``the rebels`` (plural), ``White``; its colour."""

    name: str
    plural: bool = False
    style: str = ""

    def does(self, verb: str) -> str:
        """The name with the verb agreeing: ``the rebels play``, ``the general plays``."""
        if self.plural:
            return f"{self.name} {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s"
        return f"{self.name} {verb}{ending}"


def side(sides: Mapping[str, Side], key: str) -> Side:
    """The ``Side`` of ``key``, or a plain singular one for a side a game does not describe."""
    return sides.get(key) or Side(key)


def terminal_width(default: int = 80) -> int:
    """The terminal's width in characters (``COLUMNS`` first, ``default`` when unknown)."""
    return shutil.get_terminal_size((default, 24)).columns


def columns(items: Sequence[str], width: int, *, indent: int = 2, gap: int = 2) -> list[str]:
    """``items`` in columns that fit ``width``, read down then across, as ``ls`` lays them out.

    >>> columns(["a", "bb", "c", "d", "e"], 12)
    ['  a   c   e', '  bb  d']
    """
    if not items:
        return []
    cell = max(len(item) for item in items) + gap
    count = max(1, (width - indent + gap) // cell)
    rows = -(-len(items) // count)
    count = -(-len(items) // rows)  # no empty column on the right
    lines = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(count) if c * rows + r < len(items)]
        text = "".join(f"{item:<{cell}}" for item in row[:-1]) + row[-1]
        lines.append(" " * indent + text)
    return lines
