"""The stakes of a backgammon game played for points: the doubling cube, gammons and
backgammons, resignations, money play (with the Jacoby rule) and match play to N points (with
the Crawford game).

These rules exist only in the ``money`` and ``match`` rulesets; ``seed`` and ``standard`` play
single cubeless games and never see this module's decisions.

Decisions that are not checker plays are moves like any other, with their notation:

- before rolling, a side that may double chooses ``double`` or ``roll``; a side that may not
  double (the other side owns the cube, the Crawford game, a dead cube) just rolls;
- after a double the other side answers ``take`` (it owns the cube, doubled) or ``drop``
  (``pass`` is read too): the doubler then wins the cube's value before the double;
- a side may offer to resign on its own turn, before its roll or when it plays it: ``resign
  single``, ``resign gammon`` or ``resign backgammon`` (not listed among the legal moves, so
  that searches never resign); the other side answers ``accept`` (it wins that many times the
  cube) or ``decline`` (the turn goes on where it was).

A game borne off is worth the cube's value times 1, 2 for a gammon (the loser has borne off no
checker) or 3 for a backgammon (a gammon with a losing checker still on the bar or in the
winner's home board). With the Jacoby rule (money play; on by default) gammons and backgammons
count single while the cube has not been turned. In match play, the side whose score plus the
cube's value reaches the match length may not double (the cube is dead for it, as GNU
Backgammon has it), nor may anyone in the Crawford game: the first game after a side first
comes within one point of the match, when the other side is not.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...core import InvalidPosition

MONEY = "money"
MATCH = "match"
MAX_CUBE = 2**15
MAX_LENGTH = 25
DEFAULT_LENGTH = 7

# pending decisions (``Stakes.pending``)
NONE, ROLLING, DOUBLED, RESIGNING = range(4)
# how a game ended other than by bearing off (``Stakes.ended``)
NOT_ENDED, DROPPED, RESIGNED = range(3)

RESIGN_NAMES = ("", "single", "gammon", "backgammon")
DROPPED_REASON = "dropped"
RESIGNATION_REASON = "resignation"
GAMMON = "gammon"
BACKGAMMON = "backgammon"


class CubeAction(NamedTuple):
    """A decision that is not a checker play. ``kind`` is ``double``, ``roll``, ``take``,
    ``drop``, ``resign``, ``accept`` or ``decline``; ``value`` is the resignation's value (1
    single, 2 gammon, 3 backgammon). ``str``: ``double``, ``resign gammon``, …"""

    kind: str
    value: int = 0

    def __str__(self) -> str:
        if self.kind == "resign":
            return f"resign {RESIGN_NAMES[self.value]}"
        return self.kind

    @property
    def is_pass(self) -> bool:
        """Never a checker pass (so that code written for plays reads cube actions too)."""
        return False


DOUBLE = CubeAction("double")
ROLL = CubeAction("roll")
TAKE = CubeAction("take")
DROP = CubeAction("drop")
ACCEPT = CubeAction("accept")
DECLINE = CubeAction("decline")
RESIGNS = {v: CubeAction("resign", v) for v in (1, 2, 3)}

_WORDS = {
    "double": DOUBLE,
    "roll": ROLL,
    "no double": ROLL,
    "take": TAKE,
    "drop": DROP,
    "pass": DROP,
    "accept": ACCEPT,
    "decline": DECLINE,
    "reject": DECLINE,
}
_RESIGN_RE = re.compile(r"resign\s+(single|normal|gammon|backgammon|1|2|3)")


def read_action(text: str) -> CubeAction | None:
    """The cube or resignation action ``text`` names, or ``None`` when it names none."""
    cleaned = " ".join(text.strip().lower().split())
    if cleaned in _WORDS:
        return _WORDS[cleaned]
    match = _RESIGN_RE.fullmatch(cleaned)
    if match is None:
        return None
    word = match[1]
    value = {"single": 1, "normal": 1, "gammon": 2, "backgammon": 3}.get(word)
    return RESIGNS[value if value is not None else int(word)]


class Stakes(NamedTuple):
    """What a game is played for, and the cube and resignation decisions in progress.

    ``value``: the cube (1, 2, 4, …); ``owner``: 0 white, 1 black, -1 centred; ``pending``:
    NONE, ROLLING (the side on turn chose to roll), DOUBLED (it doubled: the other answers) or
    RESIGNING (it offers to resign ``offer`` = 1, 2 or 3); ``ended``: NOT_ENDED, DROPPED or
    RESIGNED, with ``loser`` the side that dropped or resigned (and ``offer`` the value it
    resigned); ``jacoby`` (money play); ``length`` (0 money, else the match length);
    ``score`` (white's, black's points before this game); ``crawford`` (this game is the
    Crawford game).
    """

    value: int = 1
    owner: int = -1
    pending: int = NONE
    offer: int = 0
    ended: int = NOT_ENDED
    loser: int = -1
    jacoby: bool = False
    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False

    def may_double(self, side: int) -> bool:
        """Whether ``side`` (0 white, 1 black) may double now, the cube allowing."""
        if self.owner not in (-1, side) or self.value >= MAX_CUBE:
            return False
        return not self.length or not (
            self.crawford or self.score[side] + self.value >= self.length
        )

    @property
    def is_match(self) -> bool:
        return self.length > 0

    def gammons_count(self) -> bool:
        """Whether gammons and backgammons score more than a single game now."""
        return not (self.jacoby and not self.length and self.owner == -1)


def money(jacoby: bool = True) -> Stakes:
    """A new money game."""
    return Stakes(jacoby=jacoby)


def match(length: int, score: tuple[int, int] = (0, 0), crawford: bool = False) -> Stakes:
    """A new game of a match to ``length`` points at ``score`` (white's, black's)."""
    check_match(length, score, crawford)
    return Stakes(length=length, score=(score[0], score[1]), crawford=crawford)


def check_match(length: int, score: tuple[int, int], crawford: bool) -> None:
    """Raise ``InvalidPosition`` unless a game can be played at this match score."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise InvalidPosition(
            "a match is 1 to {most} points long, not {length}",
            code="bad-match-length",
            most=MAX_LENGTH,
            length=repr(length),
        )
    if (
        not isinstance(score, tuple | list)
        or len(score) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in score)
    ):
        raise InvalidPosition(
            "a match score is two whole numbers, not {score}",
            code="bad-match-score",
            score=repr(score),
        )
    if not all(0 <= s < length for s in score):
        raise InvalidPosition(
            "at {white}-{black} a match to {length} is over (or the score is negative)",
            code="match-over",
            white=score[0],
            black=score[1],
            length=length,
        )
    if crawford and max(score) != length - 1:
        raise InvalidPosition(
            "the Crawford game is played when a side needs one point to win the match",
            code="crawford-not-due",
        )
    if crawford and min(score) == length - 1:
        raise InvalidPosition(
            "at double match point there is no Crawford game", code="crawford-at-double-match-point"
        )


def next_crawford(stakes: Stakes, score: tuple[int, int]) -> bool:
    """Whether the game after this one, at the new ``score``, is the Crawford game: a side has
    just come within one point of the match and the other is not."""
    n = stakes.length
    if stakes.crawford or max(stakes.score) >= n - 1:
        return False
    return (score[0] == n - 1) != (score[1] == n - 1)


def multiplier(loser: list[int]) -> int:
    """1, 2 (gammon) or 3 (backgammon) for a game borne off; ``loser`` is the loser's 26
    counts in its own view (its checkers on its 19–24 are in the winner's home board)."""
    if loser[0]:
        return 1
    if loser[25] or any(loser[19:25]):
        return 3
    return 2


# -- text ----------------------------------------------------------------------------------------

_LETTERS = "wb"


def tail(stakes: Stakes) -> str:
    """The position string's fields after the dice: ``cube 2w doubled jacoby``, …"""
    parts = [f"cube {stakes.value}{'' if stakes.owner < 0 else _LETTERS[stakes.owner]}"]
    if stakes.pending == ROLLING:
        parts.append("rolling")
    elif stakes.pending == DOUBLED:
        parts.append("doubled")
    elif stakes.pending == RESIGNING:
        parts.append(f"resign {RESIGN_NAMES[stakes.offer]}")
    if stakes.ended == DROPPED:
        parts.append(f"dropped {_LETTERS[stakes.loser]}")
    elif stakes.ended == RESIGNED:
        parts.append(f"resigned {_LETTERS[stakes.loser]} {RESIGN_NAMES[stakes.offer]}")
    if stakes.jacoby:
        parts.append("jacoby")
    if stakes.length:
        parts.append(f"match {stakes.length} {stakes.score[0]}-{stakes.score[1]}")
        if stakes.crawford:
            parts.append("crawford")
    return " ".join(parts)


_CUBE_RE = re.compile(r"(\d+)([wb]?)", re.ASCII)
_SCORE_RE = re.compile(r"(\d+)-(\d+)", re.ASCII)


def parse_tail(text: str, kind: str) -> Stakes:
    """Read the fields after the dice for a ``money`` or ``match`` game (see ``tail``)."""
    tokens = text.lower().split()
    if len(tokens) < 2 or tokens[0] != "cube":
        raise InvalidPosition(
            "this ruleset plays with the doubling cube: after the dice come 'cube N' (with 'w' "
            "or 'b' when a side owns it), then as they apply 'rolling', 'doubled', 'resign "
            "single|gammon|backgammon', 'dropped w|b', 'resigned w|b "
            "single|gammon|backgammon', 'jacoby', 'match N W-B' and 'crawford'",
            code="cube-missing",
        )
    found = _CUBE_RE.fullmatch(tokens[1])
    if found is None or len(found[1]) > 6:
        raise InvalidPosition(
            "the cube reads like 'cube 1', 'cube 2w' or 'cube 4b', not 'cube {token}'",
            code="unreadable-cube",
            token=tokens[1],
        )
    value = int(found[1])
    if value < 1 or value > MAX_CUBE or value & (value - 1):
        raise InvalidPosition(
            "the cube's value is a power of two up to {most}, not {value}",
            code="bad-cube-value",
            most=MAX_CUBE,
            value=value,
        )
    owner = _LETTERS.index(found[2]) if found[2] else -1
    if owner < 0 and value != 1:
        raise InvalidPosition(
            "a cube at {value} has been turned: write who owns it (w or b)",
            code="cube-owner-missing",
            value=value,
        )
    if owner >= 0 and value == 1:
        raise InvalidPosition(
            "a cube at 1 is in the middle: nobody owns it before a double",
            code="centred-cube-owned",
        )
    fields: dict[str, object] = {"value": value, "owner": owner}
    i = 2
    seen: set[str] = set()
    while i < len(tokens):
        word = tokens[i]
        if word in seen:
            raise InvalidPosition("{word!r} is written twice", code="written-twice", word=word)
        seen.add(word)
        if word in ("dropped", "resigned") and "ended" in fields:
            raise InvalidPosition(
                "a game ends one way: write 'dropped' or 'resigned', not both",
                code="dropped-and-resigned",
            )
        if word in ("rolling", "doubled"):
            if "pending" in fields:
                raise InvalidPosition("only one decision can be pending", code="two-decisions")
            fields["pending"] = ROLLING if word == "rolling" else DOUBLED
            i += 1
        elif word == "resign":
            names = RESIGN_NAMES[1:]
            if "pending" in fields or i + 1 >= len(tokens) or tokens[i + 1] not in names:
                raise InvalidPosition(
                    "a resignation reads 'resign single', 'resign gammon' or 'resign "
                    "backgammon', alone as the pending decision",
                    code="unreadable-resignation",
                )
            fields["pending"] = RESIGNING
            fields["offer"] = RESIGN_NAMES.index(tokens[i + 1])
            i += 2
        elif word == "dropped":
            if i + 1 >= len(tokens) or tokens[i + 1] not in ("w", "b"):
                raise InvalidPosition(
                    "a dropped double reads 'dropped w' or 'dropped b' (who dropped)",
                    code="unreadable-drop",
                )
            fields["ended"] = DROPPED
            fields["loser"] = _LETTERS.index(tokens[i + 1])
            i += 2
        elif word == "resigned":
            if (
                i + 2 >= len(tokens)
                or tokens[i + 1] not in ("w", "b")
                or tokens[i + 2] not in RESIGN_NAMES[1:]
            ):
                raise InvalidPosition(
                    "an accepted resignation reads 'resigned w gammon' (who resigned, and what)",
                    code="unreadable-accepted-resignation",
                )
            fields["ended"] = RESIGNED
            fields["loser"] = _LETTERS.index(tokens[i + 1])
            fields["offer"] = RESIGN_NAMES.index(tokens[i + 2])
            i += 3
        elif word == "jacoby":
            if kind != MONEY:
                raise InvalidPosition(
                    "the Jacoby rule is for money play, not matches", code="jacoby-in-match"
                )
            fields["jacoby"] = True
            i += 1
        elif word == "match":
            if kind != MATCH:
                raise InvalidPosition(
                    "this is a money game: load the 'match' ruleset for a match",
                    code="match-in-money-game",
                )
            if i + 2 >= len(tokens):
                raise InvalidPosition(
                    "a match reads 'match 7 2-3' (its length, white's score and black's)",
                    code="unreadable-match",
                )
            length_text, score_text = tokens[i + 1], tokens[i + 2]
            score_match = _SCORE_RE.fullmatch(score_text)
            if not length_text.isascii() or not length_text.isdigit() or score_match is None:
                raise InvalidPosition(
                    "a match reads 'match 7 2-3' (its length, white's score and black's)",
                    code="unreadable-match",
                )
            if len(length_text) > 3 or len(score_match[1]) > 3 or len(score_match[2]) > 3:
                raise InvalidPosition(
                    "a match is 1 to {most} points long", code="match-too-long", most=MAX_LENGTH
                )
            fields["length"] = int(length_text)
            fields["score"] = (int(score_match[1]), int(score_match[2]))
            i += 3
        elif word == "crawford":
            fields["crawford"] = True
            i += 1
        else:
            raise InvalidPosition(
                "cannot read {text!r}: after the dice come 'cube N' (with 'w' or 'b' when a "
                "side owns it), then as they apply 'rolling', 'doubled', 'resign "
                "single|gammon|backgammon', 'dropped w|b', 'resigned w|b "
                "single|gammon|backgammon', 'jacoby', 'match N W-B' and 'crawford'",
                code="unreadable-cube-field",
                text=word,
            )
    if kind == MATCH and "length" not in fields:
        raise InvalidPosition(
            "a match position gives the match: 'match 7 2-3'", code="match-missing"
        )
    if "crawford" in fields and "length" not in fields:
        raise InvalidPosition("the Crawford game belongs to a match", code="crawford-without-match")
    stakes = Stakes(**fields)  # type: ignore[arg-type]
    if "length" in fields:  # "match 0 0-0" too: a match of 0 points is no match
        check_match(stakes.length, stakes.score, stakes.crawford)
        if stakes.crawford and stakes.value != 1:
            raise InvalidPosition(
                "nobody doubles in the Crawford game: its cube stays at 1",
                code="crawford-cube-turned",
            )
    if stakes.ended and stakes.pending:
        raise InvalidPosition(
            "a finished game has no pending decision", code="finished-with-decision"
        )
    return stakes
