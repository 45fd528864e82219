"""Reading the numbers written in position strings and move notation, for every game.

``int()`` alone is not safe on hostile text: it accepts digits of other scripts (``٣``), and it
raises a bare ``ValueError`` past Python's limit of 4,300 digits. ``read_number`` takes only the
ASCII digits 0–9 and refuses overlong numbers with the game's own error, so that only
``IllegalMove`` (``InvalidMove``) and ``InvalidPosition`` escape a parser.
"""

from __future__ import annotations

from typing import Literal

from ..core import InvalidMove, InvalidPosition

MAX_MOVE = 200
"""How many characters a move's text may have, spaces around it aside: the longest legal move
of any game is a few dozen (a refusal quotes the start of longer text, never all of it)."""

MAX_DIGITS = 9
"""How many digits a number may have, leading zeros aside (the games' numbers have one or two)."""


def short_enough(text: str) -> str:
    """``text`` when it is short enough to be a move (``MAX_MOVE``), else ``InvalidMove``
    quoting its start: a refusal that copied a megabyte of text would be no message at all.

    >>> short_enough("a2-b2")
    'a2-b2'
    >>> short_enough("13/7 " * 1000)
    Traceback (most recent call last):
    ...
    ludotheque.core.InvalidMove: '13/7 13/7 13/7 13/7 13/7 13/7 13/7 13/7 …' is far too long ...
    """
    if len(text) > MAX_MOVE and len(stripped := text.strip()) > MAX_MOVE:
        raise InvalidMove(
            "{start!r} is far too long to be a move ({count} characters)",
            code="move-too-long", start=stripped[:40] + "…", count=len(stripped),
        )  # fmt: skip
    return text


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
