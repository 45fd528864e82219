"""GNU Backgammon Position/Match IDs and eXtreme Gammon XGIDs, to paste positions to and from
other backgammon software.

Conventions: GNU Backgammon's player 0 and XG's bottom player are white. A Position ID is
relative to the player on roll: its key (80 bits, little-endian, base64) lists, for each side,
the checkers on points 1–24 of that side's own view and then the bar, each count written as that
many 1 bits and a 0 — first the side *not* on roll, then the side on roll, as GNU Backgammon's
code writes it (checked against the ``gnubg`` package in the tests). With no side on roll
(before the opening or after the end) white counts as on roll.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from ...core import InvalidPosition, describe_value
from . import board as B

if TYPE_CHECKING:
    from .rules import BackgammonGame, BackgammonState


def _sides(state: BackgammonState) -> tuple[list[int], list[int], int]:
    """(not on roll, on roll) as 26 counts each, and the index (0 white, 1 black) on roll."""
    on_roll = 1 if state.side == "black" else 0
    white, black = state.board("white"), state.board("black")
    if on_roll == 0:
        return black, white, 0
    return white, black, 1


def position_key(first: list[int], second: list[int]) -> bytes:
    """The 10-byte key of two sides (counts index 1–24 then 25, the bar)."""
    bits: list[int] = []
    for side in (first, second):
        for place in range(1, 26):
            bits += [1] * side[place] + [0]
    bits += [0] * (80 - len(bits))
    key = bytearray(10)
    for i, bit in enumerate(bits):
        if bit:
            key[i >> 3] |= 1 << (i & 7)
    return bytes(key)


def gnubg_position_id(state: BackgammonState) -> str:
    """The 14-character Position ID."""
    first, second, _ = _sides(state)
    return base64.b64encode(position_key(first, second)).decode()[:14]


def gnubg_match_id(state: BackgammonState) -> str:
    """A 12-character Match ID for a cubeless money game: who is on roll and the dice."""
    _, _, on_roll = _sides(state)
    over = state.outcome() is not None
    started = state.side is not None or over
    fields = [
        (0, 4),  # cube value: 2**0
        (3, 2),  # cube centred
        (on_roll, 1),  # dice owner
        (0, 1),  # not a Crawford game
        (2 if over else 1 if started else 0, 3),  # game state
        (on_roll, 1),  # turn
        (0, 1),  # no double offered
        (0, 2),  # no resignation
        (state.dice.high if state.dice else 0, 3),
        (state.dice.low if state.dice else 0, 3),
        (0, 15),  # money game
        (0, 15),
        (0, 15),
    ]
    value = 0
    shift = 0
    for field, width in fields:
        value |= field << shift
        shift += width
    return base64.b64encode(value.to_bytes(9, "little")).decode()


def _decode(text: str, length: int, what: str) -> bytes:
    if len(text) != length:
        raise InvalidPosition(f"a {what} has {length} characters, not {len(text)}")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPosition(f"{text!r} is not a {what} (base64 expected)") from None
    return raw


def _read_key(key: bytes) -> tuple[list[int], list[int]]:
    bits = [(key[i >> 3] >> (i & 7)) & 1 for i in range(80)]
    sides: list[list[int]] = []
    i = 0
    for _ in range(2):
        counts = [0] * 26
        for place in range(1, 26):
            while i < 80 and bits[i]:
                counts[place] += 1
                i += 1
            i += 1
        sides.append(counts)
    if i > 81:
        raise InvalidPosition("the Position ID has too many checkers")
    return sides[0], sides[1]


def from_gnubg(game: BackgammonGame, text: str) -> BackgammonState:
    """See ``BackgammonGame.from_gnubg_id``."""
    if not isinstance(text, str):
        raise InvalidPosition(f"a GNU Backgammon ID is a string, not {describe_value(text)}")
    pid, _, mid = text.strip().partition(":")
    first, second = _read_key(_decode(pid, 14, "GNU Backgammon Position ID"))
    for counts, who in ((first, "one side"), (second, "the other side")):
        if sum(counts) > B.CHECKERS:
            raise InvalidPosition(f"the Position ID gives {who} {sum(counts)} checkers; max 15")
    on_roll, dice, state_code = 0, None, 1
    if mid:
        raw = int.from_bytes(_decode(mid, 12, "GNU Backgammon Match ID"), "little")
        on_roll = (raw >> 6) & 1
        state_code = (raw >> 8) & 7
        d1, d2 = (raw >> 15) & 7, (raw >> 18) & 7
        if d1 and d2:
            dice = f"{d1}{d2}"
    white, black = (second, first) if on_roll == 0 else (first, second)
    side: str | None = ("white", "black")[on_roll]
    if state_code == 0:
        side, dice = None, None
    finished = sum(white) == 0 or sum(black) == 0
    if finished:
        side, dice = None, None
    return game.from_boards(white, black, side, dice)


_XG_EMPTY = "-"


def to_xgid(state: BackgammonState) -> str:
    """``XGID=…`` for a money game without cube, white at the bottom."""
    white, black = state.board("white"), state.board("black")
    chars = [_XG_EMPTY] * 26
    if black[B.BAR]:
        chars[0] = chr(ord("a") + black[B.BAR] - 1)
    if white[B.BAR]:
        chars[25] = chr(ord("A") + white[B.BAR] - 1)
    for p in range(1, 25):
        if white[p]:
            chars[p] = chr(ord("A") + white[p] - 1)
        elif black[25 - p]:
            chars[p] = chr(ord("a") + black[25 - p] - 1)
    turn = -1 if state.side == "black" else 1
    dice = "00" if state.dice is None else str(state.dice)
    return f"XGID={''.join(chars)}:0:0:{turn}:{dice}:0:0:0:0:10"


def from_xgid(game: BackgammonGame, text: str) -> BackgammonState:
    """See ``BackgammonGame.from_xgid``."""
    if not isinstance(text, str):
        raise InvalidPosition(f"an XGID is a string, not {describe_value(text)}")
    body = text.strip()
    prefix = body[:5]  # ASCII only: "xgıd=".upper() is "XGID=" too
    if prefix.isascii() and prefix.upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) < 5:
        raise InvalidPosition(
            "an XGID reads like 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'"
        )
    board, turn_text, dice_text = fields[0], fields[3], fields[4]
    if len(board) != 26:
        raise InvalidPosition(f"an XGID board has 26 characters, not {len(board)}")
    white = [0] * 26
    black = [0] * 26
    for i, ch in enumerate(board):
        if ch == _XG_EMPTY:
            continue
        if "A" <= ch <= "P":
            n, mine = ord(ch) - ord("A") + 1, True
        elif "a" <= ch <= "p":
            n, mine = ord(ch) - ord("a") + 1, False
        else:
            raise InvalidPosition(f"an XGID board holds '-', A–P or a–p, not {ch!r}")
        if i == 0:
            if mine:
                raise InvalidPosition("XGID: the first character is the top player's bar")
            black[B.BAR] = n
        elif i == 25:
            if not mine:
                raise InvalidPosition("XGID: the last character is the bottom player's bar")
            white[B.BAR] = n
        elif mine:
            white[i] = n
        else:
            black[25 - i] = n
    if turn_text not in ("1", "-1"):
        raise InvalidPosition(f"XGID turn is 1 (bottom) or -1 (top), not {turn_text!r}")
    side: str | None = "white" if turn_text == "1" else "black"
    dice: str | None = None
    if len(dice_text) == 2 and all(c in "123456" for c in dice_text):
        dice = dice_text
    elif dice_text not in ("00", "D", "B", "R"):
        raise InvalidPosition(f"XGID dice are two digits 1–6 or 00, not {dice_text!r}")
    if sum(white) >= B.CHECKERS + 1 or sum(black) >= B.CHECKERS + 1:
        raise InvalidPosition("an XGID side has more than 15 checkers")
    if sum(white) == 0 or sum(black) == 0:
        side, dice = None, None
    return game.from_boards(white, black, side, dice)
