"""GNU Backgammon IDs and eXtreme Gammon XGIDs, to paste positions to and from other
backgammon software.

A full GNU Backgammon ID is ``<Position ID>:<Match ID>``, as GNU Backgammon shows it (``show
gnubgid``; ``4HPwATDgc/ABMA:MIEFAAAAAAAE`` is the start with white to play 31): the Position
ID (14 characters) holds the checkers, the Match ID (12) the side on roll and the dice, and in
``money`` and ``match`` the cube (its value, its owner, a pending double), the match length and
score, the Crawford game, the Jacoby rule, a pending or accepted resignation and a dropped
double. The cubeless rulesets write a money game without cube and without the Jacoby rule.
Every state reads back from its full ID as the same state but one: a side that has chosen to
roll and not rolled yet (``rolling``), a moment GNU Backgammon does not have, reads back as the
decision before it. An XGID carries the cube, the score, the Crawford or Jacoby flag and a
pending double, not resignations.

Conventions: GNU Backgammon's player 0 and XG's bottom player are white. A Position ID is
relative to the player on roll: its key (80 bits, little-endian, base64) lists, for each side,
the checkers on points 1–24 of that side's own view and then the bar, each count written as that
many 1 bits and a 0 — first the side *not* on roll, then the side on roll, as GNU Backgammon's
code writes it (checked against the ``gnubg`` package in the tests). Before the opening and
after a game borne off white counts as on roll. A game ended by a drop or an accepted
resignation keeps GNU Backgammon's players: on roll the side that doubled or resigned, on turn
(deciding) the side that dropped or accepted; its Match ID keeps the score before the game and
the game's own Crawford flag (GNU Backgammon's, once a game is over, shows the score after it).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from ...core import InvalidPosition, described
from . import board as B
from .cube import DOUBLED, DROPPED, NONE, RESIGNED, RESIGNING, Stakes, parse_tail, tail

if TYPE_CHECKING:
    from .rules import BackgammonGame, BackgammonState


def _on_roll(state: BackgammonState) -> int:
    """GNU Backgammon's player on roll (0 white, 1 black): the side to move; after a drop the
    side that doubled, after an accepted resignation the side that resigned; else white."""
    stakes = state.stakes
    if stakes is not None and stakes.ended == DROPPED:
        return 1 - stakes.loser
    if stakes is not None and stakes.ended == RESIGNED:
        return stakes.loser
    return 1 if state.side == "black" else 0


def _sides(state: BackgammonState) -> tuple[list[int], list[int], int]:
    """(not on roll, on roll) as 26 counts each, and the index (0 white, 1 black) on roll."""
    on_roll = _on_roll(state)
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


def gnubg_id(state: BackgammonState) -> str:
    """The full GNU Backgammon ID: ``<Position ID>:<Match ID>``."""
    return f"{gnubg_position_id(state)}:{gnubg_match_id(state)}"


def gnubg_position_id(state: BackgammonState) -> str:
    """The 14-character Position ID."""
    first, second, _ = _sides(state)
    return base64.b64encode(position_key(first, second)).decode()[:14]


def gnubg_match_id(state: BackgammonState) -> str:
    """The 12-character Match ID: who is on roll and the dice, and in ``money``/``match`` the
    cube, the decision pending and the match (the cubeless rulesets: a money game, no cube)."""
    on_roll = _on_roll(state)
    over = state.outcome() is not None
    started = state.side is not None or over
    stakes = state.stakes
    game_state = 2 if over else 1 if started else 0
    turn = on_roll
    doubled = resign = 0
    cube_log, owner, crawford, length, scores = 0, 3, 0, 0, (0, 0)
    no_jacoby = 1  # bit 67 set: no Jacoby rule, as GNU Backgammon writes a game without it
    if stakes is not None:
        no_jacoby = int(not stakes.jacoby)  # bit 67, as GNU Backgammon writes it
        cube_log = stakes.value.bit_length() - 1
        owner = 3 if stakes.owner < 0 else stakes.owner
        crawford = int(stakes.crawford)
        length, scores = stakes.length, stakes.score
        if stakes.pending == DOUBLED:
            doubled, turn = 1, 1 - on_roll
        elif stakes.pending == RESIGNING:
            resign, turn = stakes.offer, 1 - on_roll
        # a game ended by a decision: on roll the side that made the offer, on turn the side
        # that answered it (the winner after a resignation, the loser after a drop)
        if stakes.ended == RESIGNED:
            game_state, resign, turn = 3, stakes.offer, 1 - on_roll
        elif stakes.ended == DROPPED:
            game_state, turn = 4, 1 - on_roll
    fields = [
        (cube_log, 4),  # cube value: 2**n
        (owner, 2),  # cube owner (3: centred)
        (on_roll, 1),  # dice owner
        (crawford, 1),  # the Crawford game
        (game_state, 3),
        (turn, 1),  # who decides now
        (doubled, 1),  # a double offered
        (resign, 2),  # a resignation offered
        (state.dice.high if state.dice else 0, 3),
        (state.dice.low if state.dice else 0, 3),
        (length, 15),  # 0: money
        (scores[0], 15),
        (scores[1], 15),
        (no_jacoby, 1),
    ]
    value = 0
    shift = 0
    for field, width in fields:
        value |= field << shift
        shift += width
    return base64.b64encode(value.to_bytes(9, "little")).decode()


def _decode(text: str, length: int, what: str) -> bytes:
    """The bytes of a GNU Backgammon ``what`` (``"Position ID"`` or ``"Match ID"``, the
    refusals' ``what``), ``length`` characters of base64."""
    if len(text) != length:
        raise InvalidPosition(
            "a GNU Backgammon {what} has {length} characters, not {count}",
            code="gnubg-id-length",
            what=what,
            length=length,
            count=len(text),
        )
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPosition(
            "{text!r} is not a GNU Backgammon {what} (base64 expected)",
            code="gnubg-id-not-base64",
            text=text,
            what=what,
        ) from None
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
        raise InvalidPosition(
            "the Position ID has too many checkers", code="position-id-too-many-checkers"
        )
    return sides[0], sides[1]


def from_gnubg(game: BackgammonGame, text: str) -> BackgammonState:
    """See ``BackgammonGame.from_gnubg_id``."""
    if not isinstance(text, str):
        raise InvalidPosition(
            "a GNU Backgammon ID is a string, not {value} ({type})",
            code="gnubg-id-not-text",
            **described(text),
        )
    pid, _, mid = text.strip().partition(":")
    first, second = _read_key(_decode(pid, 14, "Position ID"))
    if sum(first) > B.CHECKERS:
        raise InvalidPosition(
            "the Position ID gives one side {count} checkers; max 15",
            code="position-id-side-over-15",
            count=sum(first),
        )
    if sum(second) > B.CHECKERS:
        raise InvalidPosition(
            "the Position ID gives the other side {count} checkers; max 15",
            code="position-id-other-side-over-15",
            count=sum(second),
        )
    on_roll, dice, state_code = 0, None, 1
    raw = 0
    if mid:
        raw = int.from_bytes(_decode(mid, 12, "Match ID"), "little")
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
    stakes = None
    if game.has_stakes:
        stakes = _match_id_stakes(game, raw, on_roll, state_code, bool(mid))
        if stakes.ended:
            side, dice = None, None
    return game.from_boards(white, black, side, dice, stakes)


def _match_id_stakes(
    game: BackgammonGame, raw: int, on_roll: int, state_code: int, given: bool
) -> Stakes:
    """The stakes a Match ID gives (a fresh game's without one)."""
    fresh = game.start().stakes
    assert fresh is not None
    if not given:
        return fresh
    cube = 1 << (raw & 15)
    owner_code = (raw >> 4) & 3
    if owner_code == 2:
        raise InvalidPosition(
            "the Match ID's cube owner is 0, 1 or 3 (centred), not 2", code="match-id-cube-owner"
        )
    owner = -1 if owner_code == 3 else owner_code
    crawford = bool((raw >> 7) & 1)
    turn = (raw >> 11) & 1
    doubled = (raw >> 12) & 1
    resign = (raw >> 13) & 3
    length = (raw >> 21) & 0x7FFF
    scores = ((raw >> 36) & 0x7FFF, (raw >> 51) & 0x7FFF)
    if game.stakes_kind == "money" and length:
        raise InvalidPosition(
            "this Match ID is a {length}-point match: load the 'match' ruleset",
            code="match-id-is-match",
            length=length,
        )
    if game.stakes_kind == "match" and not length:
        raise InvalidPosition(
            "this Match ID is a money game: load the 'money' ruleset", code="match-id-is-money"
        )
    pending, offer, ended, loser = NONE, 0, 0, -1
    # a game ended by a drop or a resignation: the side on roll doubled or resigned, the side
    # on turn answered (as for a pending double or offer below)
    if state_code == 4 and turn == on_roll:
        raise InvalidPosition(
            "in the Match ID a double is answered by the side not on roll",
            code="match-id-double-answer",
        )
    if state_code == 3 and turn == on_roll:
        raise InvalidPosition(
            "this Match ID has the side not on roll resigning: only the side on roll offers to "
            "resign here",
            code="match-id-resigner",
        )
    if state_code == 3:
        ended, offer, loser = RESIGNED, resign, on_roll
        if not resign:
            raise InvalidPosition(
                "the Match ID says the game was resigned, but not what",
                code="match-id-resignation-value",
            )
    elif state_code == 4:
        ended, loser = DROPPED, turn
    elif doubled:
        if turn == on_roll:
            raise InvalidPosition(
                "in the Match ID a double is answered by the side not on roll",
                code="match-id-double-answer",
            )
        pending = DOUBLED
    elif resign:
        if turn == on_roll:
            raise InvalidPosition(
                "this Match ID has the side not on roll resigning: only the side on roll offers "
                "to resign here",
                code="match-id-resigner",
            )
        pending, offer = RESIGNING, resign
    text = Stakes(
        value=cube, owner=owner, pending=pending, offer=offer, ended=ended, loser=loser,
        jacoby=not length and not (raw >> 66) & 1, length=length, score=scores,
        crawford=crawford,
    )  # fmt: skip
    return _checked(game, text)


def _checked(game: BackgammonGame, stakes: Stakes) -> Stakes:
    """``stakes`` read back through the position string's rules (so that every check of those
    applies to IDs too)."""
    return parse_tail(tail(stakes), str(game.stakes_kind))


_XG_EMPTY = "-"


def to_xgid(state: BackgammonState) -> str:
    """``XGID=…``, white at the bottom: in ``money``/``match`` with the cube, the score, the
    match length and the Crawford or Jacoby flag; else a money game without cube."""
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
    stakes = state.stakes
    if stakes is None:
        return f"XGID={''.join(chars)}:0:0:{turn}:{dice}:0:0:0:0:10"
    if stakes.pending == DOUBLED:
        dice = "D"
    cube_log = stakes.value.bit_length() - 1
    position = 0 if stakes.owner < 0 else (1 if stakes.owner == 0 else -1)
    flags = int(stakes.crawford) if stakes.length else int(stakes.jacoby)
    w, b = stakes.score
    return (
        f"XGID={''.join(chars)}:{cube_log}:{position}:{turn}:{dice}:{w}:{b}:{flags}:"
        f"{stakes.length}:10"
    )


def from_xgid(game: BackgammonGame, text: str) -> BackgammonState:
    """See ``BackgammonGame.from_xgid``."""
    if not isinstance(text, str):
        raise InvalidPosition(
            "an XGID is a string, not {value} ({type})", code="xgid-not-text", **described(text)
        )
    body = text.strip()
    prefix = body[:5]  # ASCII only: "xgıd=".upper() is "XGID=" too
    if prefix.isascii() and prefix.upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) < 5:
        raise InvalidPosition(
            "an XGID reads like 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'",
            code="unreadable-xgid",
        )
    board, turn_text, dice_text = fields[0], fields[3], fields[4]
    if len(board) != 26:
        raise InvalidPosition(
            "an XGID board has 26 characters, not {count}",
            code="xgid-board-length",
            count=len(board),
        )
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
            raise InvalidPosition(
                "an XGID board holds '-', A–P or a–p, not {char!r}",
                code="xgid-board-character",
                char=ch,
            )
        if i == 0:
            if mine:
                raise InvalidPosition(
                    "XGID: the first character is the top player's bar", code="xgid-top-bar"
                )
            black[B.BAR] = n
        elif i == 25:
            if not mine:
                raise InvalidPosition(
                    "XGID: the last character is the bottom player's bar",
                    code="xgid-bottom-bar",
                )
            white[B.BAR] = n
        elif mine:
            white[i] = n
        else:
            black[25 - i] = n
    if turn_text not in ("1", "-1"):
        raise InvalidPosition(
            "XGID turn is 1 (bottom) or -1 (top), not {turn!r}", code="xgid-turn", turn=turn_text
        )
    side: str | None = "white" if turn_text == "1" else "black"
    dice: str | None = None
    if len(dice_text) == 2 and all(c in "123456" for c in dice_text):
        dice = dice_text
    elif dice_text not in ("00", "D", "B", "R"):
        raise InvalidPosition(
            "XGID dice are two digits 1–6 or 00, not {dice!r}", code="xgid-dice", dice=dice_text
        )
    if sum(white) >= B.CHECKERS + 1 or sum(black) >= B.CHECKERS + 1:
        raise InvalidPosition(
            "an XGID side has more than 15 checkers", code="xgid-too-many-checkers"
        )
    stakes = _xgid_stakes(game, fields, dice_text) if game.has_stakes else None
    if sum(white) == 0 or sum(black) == 0:
        side, dice = None, None
        if stakes is not None:
            stakes = stakes._replace(pending=NONE)
    return game.from_boards(white, black, side, dice, stakes)


def _xgid_number(text: str, what: str) -> int:
    """The whole number of an XGID field; ``what`` names the field (the refusal's ``what``:
    ``cube``, ``cube position``, ``score``, ``Crawford/Jacoby field`` or ``match length``)."""
    body = text[1:] if text.startswith("-") else text
    if not body.isascii() or not body.isdigit() or len(body) > 6:
        raise InvalidPosition(
            "the XGID's {what} is a whole number, not {text!r}",
            code="xgid-not-a-number",
            what=what,
            text=text,
        )
    return int(text)


def _xgid_stakes(game: BackgammonGame, fields: list[str], dice_text: str) -> Stakes:
    """The cube, score and flags of an XGID (for ``money`` and ``match``)."""
    if len(fields) < 9:
        raise InvalidPosition(
            "an XGID for a game with the cube has ten fields: board, cube, cube position, turn, "
            "dice, scores, Crawford/Jacoby, length, cube limit",
            code="xgid-fields",
        )
    cube_log = _xgid_number(fields[1], "cube")
    position = _xgid_number(fields[2], "cube position")
    score = (_xgid_number(fields[5], "score"), _xgid_number(fields[6], "score"))
    flags = _xgid_number(fields[7], "Crawford/Jacoby field")
    length = _xgid_number(fields[8], "match length")
    if not 0 <= cube_log <= 15 or position not in (-1, 0, 1):
        raise InvalidPosition(
            "the XGID's cube is 0–15 (its logarithm) and its position -1, 0 or 1",
            code="xgid-cube",
        )
    if dice_text in ("B", "R"):
        raise InvalidPosition("beavers and raccoons are not played here", code="xgid-beaver")
    if game.stakes_kind == "money":
        if length:
            raise InvalidPosition(
                "this XGID is a {length}-point match: load the 'match' ruleset",
                code="xgid-is-match",
                length=length,
            )
        stakes = Stakes(value=1 << cube_log, owner=_owner(position), jacoby=bool(flags & 1))
    else:
        if not length:
            raise InvalidPosition(
                "this XGID is a money game: load the 'money' ruleset", code="xgid-is-money"
            )
        stakes = Stakes(
            value=1 << cube_log, owner=_owner(position), length=length, score=score,
            crawford=bool(flags & 1),
        )  # fmt: skip
    if dice_text == "D":
        stakes = stakes._replace(pending=DOUBLED)
    return _checked(game, stakes)


def _owner(position: int) -> int:
    return {0: -1, 1: 0, -1: 1}[position]
