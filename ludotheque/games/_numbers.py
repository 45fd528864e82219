"""Reading the numbers written in position strings and move notation, for every game.

``int()`` alone is not safe on hostile text: it accepts digits of other scripts (``٣``), and it
raises a bare ``ValueError`` past Python's limit of 4,300 digits. ``read_number`` takes only the
ASCII digits 0–9 and refuses overlong numbers with the game's own error, so that only
``IllegalMove`` (``InvalidMove``) and ``InvalidPosition`` escape a parser.
"""

from __future__ import annotations

from typing import Literal

from ..core import InvalidMove, InvalidPosition

MAX_DIGITS = 9
"""How many digits a number may have, leading zeros aside (the games' numbers have one or two)."""


def read_number(
    digits: str,
    error: type[InvalidMove] | type[InvalidPosition],
    where: Literal["a move", "a position"],
) -> int:
    """The value of ``digits`` (ASCII digits, leading zeros allowed), or ``error`` saying what is
    wrong with it; ``where`` says what it was read from (``"a position"``, ``"a move"``; the
    refusal's ``where`` parameter is ``"position"`` or ``"move"``).

    >>> read_number("013", InvalidPosition, "a position")
    13
    >>> read_number("9" * 5000, InvalidMove, "a move")
    Traceback (most recent call last):
    ...
    ludotheque.core.InvalidMove: a number in a move has too many digits ('999999999…', 5000 digits)
    """
    if not (digits.isascii() and digits.isdigit()):
        shown = digits if len(digits) <= 12 else digits[:9] + "…"
        raise error(
            "{shown!r} in a {where} is not a number: write numbers with the digits 0–9",
            code="not-a-number",
            shown=shown,
            where=where.removeprefix("a "),
        )
    significant = digits.lstrip("0")
    if len(significant) > MAX_DIGITS:
        raise error(
            "a number in a {where} has too many digits ({start!r}, {count} digits)",
            code="too-many-digits",
            where=where.removeprefix("a "),
            start=significant[:MAX_DIGITS] + "…",
            count=len(significant),
        )
    return int(significant or "0")
