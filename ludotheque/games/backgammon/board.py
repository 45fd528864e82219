"""One side's checkers packed in one integer, four bits per place.

Nibble ``p`` (bits ``4p … 4p+3``) holds the side's checkers on its own point ``p`` (1–24), nibble
25 its checkers on the bar and nibble 0 those borne off. Each side is kept in its own view, so the
mover's point ``t`` is the opponent's point ``25 − t``. A move is then two additions, "all home"
is ``board >> 28 == 0`` and the highest occupied place is ``(board.bit_length() - 1) >> 2``.
"""

from __future__ import annotations

BAR = 25
OFF = 0
CHECKERS = 15
_NIBBLES = 26
_ONES = sum(1 << (4 * i) for i in range(_NIBBLES))  # 0x1111…: one bit per nibble


def count(board: int, place: int) -> int:
    """Checkers of this side on ``place`` (0 off, 1–24, 25 bar)."""
    return (board >> (place << 2)) & 15


def pack(places: dict[int, int]) -> int:
    """A board from ``{place: count}`` (missing places are empty)."""
    board = 0
    for place, n in places.items():
        board += n << (place << 2)
    return board


def unpack(board: int) -> list[int]:
    """The 26 counts, index 0 (off) to 25 (bar)."""
    return [(board >> (4 * i)) & 15 for i in range(_NIBBLES)]


def on_board(board: int) -> int:
    """Checkers not borne off (points and bar)."""
    return sum(unpack(board)[1:])


def occupied(board: int) -> int:
    """A mask with bit ``4p`` set for every place ``p ≥ 1`` that holds a checker."""
    m = board | (board >> 1) | (board >> 2) | (board >> 3)
    return m & _ONES & ~1


def pips(board: int) -> int:
    """The pip count: each checker's distance to bearing off (the bar counts 25)."""
    return sum(p * n for p, n in enumerate(unpack(board)))
