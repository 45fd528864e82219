"""Matches and money sessions as ``.mat`` text, the Jellyfish match format that GNU Backgammon,
eXtreme Gammon, Snowie and BGBlitz import and export.

A file is a header of ``; [Key "value"]`` lines, then `` N point match`` (``0`` for a money
session), then each game: `` Game k``, a line with both players' names and scores, and numbered
lines of moves in two columns — the first player (white here) on the left, the second (black)
on the right, laid out as GNU Backgammon exports them (``%3d) %-27s``). A move is its roll and
its checker moves in the mover's own numbering, one per die, ``25`` for the bar and ``0`` for
off, ``*`` on a hit (``52: 13/8 13/11``, ``64: 25/15*``); a roll with no move is the roll
alone. Cube actions are `` Doubles => 4``, `` Takes`` and `` Drops``; a game ends with
``Wins 2 points`` in the winner's column (black's on white's last line when that line has no
right-hand entry, as GNU Backgammon writes it) — after no finishing move or dropped double, that
line is a resignation of what it says.

``dumps``/``write`` take the records of one match (or money session), in order; ``loads``/
``read`` give back a ``MatFile`` whose games are records replayed and checked by the rules
(``InvalidRecord`` names the game and the reason). Files written by other programs read the
same way: spacing is free, ``bar``/``off`` are read for ``25``/``0``, and the first game at a
score one point from the match is taken for the Crawford game (unless the header says
``[Crawford "Off"]``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core import CHANCE, IllegalMove, InvalidPosition
from ...record import InvalidRecord, Record
from .cube import RESIGN_NAMES
from .moves import OpeningRoll, Play, Roll
from .rules import SIDES, BackgammonState, get_game

_LEFT = 27  # the width of the first player's column in GNU Backgammon's export


@dataclass
class MatFile:
    """A match (``length`` points; 0 for a money session) between two named players, its
    header fields and its games as records."""

    length: int
    players: tuple[str, str]
    games: list[Record] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)


# -- writing -----------------------------------------------------------------------------------


def _name(text: str, fallback: str) -> str:
    """A player's name as one word (the format separates fields with spaces)."""
    cleaned = "_".join(text.replace(":", " ").split())[:30]
    return cleaned or fallback


def _steps(play: Play) -> str:
    return " ".join(f"{src}/{dst}{'*' if hit else ''}" for src, dst, _, hit in play.raw)


def _entries(record: Record) -> list[tuple[int, str]]:
    """The record's written entries as ``(player, text)`` (0 white, 1 black): rolls with their
    plays, doubles, takes and drops (decisions to roll and resignation offers are not
    written; an accepted resignation shows in the closing line)."""
    entries: list[tuple[int, str]] = []
    rolled: tuple[int, str] | None = None
    cube = record.states[0].cube_value  # type: ignore[attr-defined]
    states = record.states
    for (kind, text), before, after in zip(record.plies, states[:-1], states[1:], strict=True):
        assert isinstance(before, BackgammonState) and isinstance(after, BackgammonState)
        if kind == "chance":
            if after.side is not None and after.dice is not None:
                rolled = (SIDES.index(after.side), f"{after.dice}:")
            continue
        mover = SIDES.index(str(before.to_move))
        if text == "double":
            cube *= 2
            entries.append((mover, f" Doubles => {cube}"))
        elif text == "take":
            entries.append((mover, " Takes"))
        elif text == "drop":
            entries.append((mover, " Drops"))
        elif text in ("roll", "accept", "decline") or text.startswith("resign"):
            continue
        else:
            assert rolled is not None
            play = before.parse_move(text)
            entries.append((rolled[0], f"{rolled[1]} {_steps(play)}".rstrip()))
            rolled = None
    if rolled is not None:  # rolled, then resigned before playing
        entries.append(rolled)
    return entries


def _game_lines(record: Record) -> list[str]:
    """The numbered lines of one game, and its closing ``Wins`` line."""
    out: list[str] = []
    open_line: str | None = None  # a line whose left entry waits for a right one
    number = 0
    for player, text in _entries(record):
        if player == 0:
            if open_line is not None:
                out.append(open_line.rstrip())
            number += 1
            open_line = f"{number:3d}) {text:<{_LEFT}} "
        else:
            if open_line is None:
                number += 1
                open_line = f"{number:3d}) {'':<{_LEFT}} "
            out.append((open_line + text.strip()).rstrip())
            open_line = None
    outcome = record.outcome()
    points = record.points()
    if outcome is None or outcome.winner is None or points is None:
        return out if open_line is None else [*out, open_line.rstrip()]
    wins = f"Wins {points} point{'s' if points != 1 else ''}"
    if open_line is not None and outcome.winner == "black":
        # in the right column of white's last line, as GNU Backgammon writes it: on a line of
        # its own, it reads the line before as unfinished (a drop not taken as one)
        return [*out, open_line + wins]
    if open_line is not None:
        out.append(open_line.rstrip())
    return [*out, f"{'':<{6 if outcome.winner == 'white' else 34}}{wins}"]


def dumps(
    records: Sequence[Record],
    *,
    players: tuple[str, str] | None = None,
    header: dict[str, str] | None = None,
) -> str:
    """The ``.mat`` text of a match's (or a money session's) games, in order. ``players``
    defaults to the first record's; ``header`` adds ``; [Key "value"]`` lines."""
    if not records:
        raise ValueError("a .mat file holds at least one game")
    first = records[0].states[0]
    if not isinstance(first, BackgammonState) or first.stakes is None:
        raise ValueError(".mat files hold backgammon played for points: 'money' or 'match'")
    stakes = first.stakes
    names = players or (
        records[0].players.get("white", "White"),
        records[0].players.get("black", "Black"),
    )
    white, black = _name(names[0], "White"), _name(names[1], "Black")
    lines = ['; [Site "Ludothèque"]', f'; [Player 1 "{white}"]', f'; [Player 2 "{black}"]']
    lines.append(f'; [EventDate "{records[0].started[:10].replace("-", ".")}"]')
    if stakes.length:
        lines.append('; [Crawford "On"]')
    else:
        lines.append(f'; [Jacoby "{"On" if stakes.jacoby else "Off"}"]')
    lines += [f'; [{key} "{value}"]' for key, value in (header or {}).items()]
    lines += ["", f" {stakes.length} point match", ""]
    session = [0, 0]
    for number, record in enumerate(records, start=1):
        start = record.states[0]
        if not isinstance(start, BackgammonState) or start.stakes is None:
            raise ValueError(f"game {number} is not backgammon played for points")
        if start.stakes.length != stakes.length:
            raise ValueError(f"game {number} belongs to another match")
        score = start.stakes.score if stakes.length else (session[0], session[1])
        left = f"{white} : {score[0]}"
        lines += [f" Game {number}", f" {left:<31}{black} : {score[1]}"]
        lines += _game_lines(record)
        lines.append("")
        outcome, points = record.outcome(), record.points()
        if outcome is not None and outcome.winner is not None and points is not None:
            session[SIDES.index(outcome.winner)] += points
    return "\n".join(lines) + "\n"


def write(path: str | Path, records: Sequence[Record], **options: Any) -> None:
    """Write ``dumps(records, **options)`` to ``path``."""
    Path(path).write_text(dumps(records, **options), encoding="utf-8")


# -- reading -----------------------------------------------------------------------------------

_HEADER_RE = re.compile(r';\s*\[\s*([^"\]]+?)\s+"([^"]*)"\s*\]')
_LENGTH_RE = re.compile(r"\s*(\d+)\s+point\s+match\s*", re.IGNORECASE)
_GAME_RE = re.compile(r"\s*Game\s+(\d+)\s*", re.IGNORECASE)
_SCORES_RE = re.compile(r"\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*")
_NUMBER_RE = re.compile(r"\s*\d+\)")
_TOKEN_RE = re.compile(
    r"(?P<roll>[1-6][1-6]):|(?P<double>Doubles\s*=>\s*\d+)|(?P<take>Takes)"
    r"|(?P<drop>Drops|Passes)|(?P<wins>Wins\s+\d+\s+points?)"
    r"|(?P<step>(?:\d+|bar)/(?:\d+|off)\*?(?:/(?:\d+|off)\*?)*(?:\(\d\))?)",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d+")


@dataclass
class _Entry:
    player: int
    kind: str  # "roll", "double", "take", "drop" or "wins"
    dice: str = ""
    steps: list[str] = field(default_factory=list)
    value: int = 0


@dataclass
class _Game:
    names: tuple[str, str] = ("", "")
    score: tuple[int, int] = (0, 0)
    entries: list[_Entry] = field(default_factory=list)


def loads(text: str) -> MatFile:
    """Read ``.mat`` text: the match length, the players and every game (as records)."""
    if not isinstance(text, str):
        raise InvalidRecord("a .mat file is text", code="mat-not-text")
    header: dict[str, str] = {}
    length: int | None = None
    games: list[_Game] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            found = _HEADER_RE.match(line.strip())
            if found:
                header[found[1]] = found[2]
            continue
        if length is None:
            match = _LENGTH_RE.fullmatch(line)
            if match is None:
                raise InvalidRecord("line {line}: a .mat file starts with ' N point match'",
                                    code="mat-length", line=number)  # fmt: skip
            length = int(match[1])
            continue
        if _GAME_RE.fullmatch(line):
            games.append(_Game())
            continue
        if not games:
            raise InvalidRecord("line {line}: a game starts with ' Game 1'", code="mat-game",
                                line=number)  # fmt: skip
        game = games[-1]
        scores = _SCORES_RE.fullmatch(line)
        if scores and not _NUMBER_RE.match(line) and not game.names[0]:
            game.names = (scores[1], scores[3])
            game.score = (int(scores[2]), int(scores[4]))
            continue
        try:
            game.entries.extend(_line_entries(line))
        except ValueError as exc:
            raise InvalidRecord("line {line}: {reason}", code="mat-line", line=number,
                                reason=str(exc)).quoting(exc) from None  # fmt: skip
    if length is None or not games:
        raise InvalidRecord("a .mat file gives ' N point match' and at least one game",
                            code="mat-empty")  # fmt: skip
    crawford_rule = header.get("Crawford", "On").lower() != "off"
    crawford_done = False
    records = []
    for number, game in enumerate(games, start=1):
        crawford = False
        if length and crawford_rule and not crawford_done:
            crawford = max(game.score) == length - 1 and min(game.score) < length - 1
            crawford_done = crawford
        try:
            records.append(_replay(length, game, crawford, header))
        except (IllegalMove, InvalidPosition, ValueError) as exc:
            raise InvalidRecord("game {game}: {reason}", code="mat-game-error", game=number,
                                reason=str(exc)).quoting(exc) from None  # fmt: skip
    players = games[0].names
    return MatFile(length, (players[0] or "White", players[1] or "Black"), records, header)


def _line_entries(line: str) -> list[_Entry]:
    """The entries of one line, each with its player, told by its column."""
    numbered = _NUMBER_RE.match(line)
    if numbered is None:
        if line.lstrip().lower().startswith("wins"):
            indent = len(line) - len(line.lstrip())
            return [_Entry(0 if indent < 20 else 1, "wins", value=_first_number(line))]
        raise ValueError(f"cannot read {line.strip()[:60]!r}")
    body = numbered.end()
    right = body + _LEFT - 3  # an entry starting here or later is the second player's
    entries: list[_Entry] = []
    for token in _TOKEN_RE.finditer(line, body):
        player = 1 if token.start() >= right else 0
        if token["step"]:
            if not entries or entries[-1].kind != "roll":
                raise ValueError(f"a move without its roll: {line.strip()[:60]!r}")
            entries[-1].steps.append(token["step"])
            continue
        kind = next(k for k in ("roll", "double", "take", "drop", "wins") if token[k])
        entries.append(
            _Entry(player, kind, dice=token["roll"] or "", value=_first_number(token[0]))
        )
    if len(entries) >= 2 and entries[0].player == entries[1].player == 0:
        entries[1].player = 1  # a short left entry: the second on the line is the right one
    return entries


def _first_number(text: str) -> int:
    found = _NUMBER.search(text)
    return int(found[0]) if found else 0


def _move_text(steps: list[str]) -> str:
    """Our notation for written steps (``25`` is the bar, ``0`` off)."""
    out = []
    for step in steps:
        parts = step.lower().split("/")
        if parts[0] == "25":
            parts[0] = "bar"
        if parts[-1].rstrip("*") == "0":
            parts[-1] = "off"
        out.append("/".join(parts))
    return " ".join(out) if out else "pass"


class _Replay:
    """One game replayed from its entries through the rules."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.moves: list[str] = []
        self.chance: list[str] = []

    def chance_outcome(self, outcome: Any) -> None:
        self.state = self.state.play(outcome)
        self.chance.append(str(outcome))

    def move(self, text: str) -> None:
        move = self.state.parse_move(text)
        self.state = self.state.play(move)
        self.moves.append(str(move))


def _replay(length: int, game: _Game, crawford: bool, header: dict[str, str]) -> Record:
    if length:
        rules = get_game("match")
        start = rules.start(length=length, score=game.score, crawford=crawford)
    else:
        rules = get_game("money")
        start = rules.start(jacoby=header.get("Jacoby", "On").lower() != "off")
    replay = _Replay(start)
    entries = game.entries
    for i, entry in enumerate(entries):
        state = replay.state
        if state.outcome() is not None:
            if entry.kind == "wins":
                continue
            raise ValueError(f"the game is over but the file goes on ({entry.kind})")
        if entry.kind == "roll":
            _roll(replay, entry, rules.lower_starts)
            last = i + 1 == len(entries) or entries[i + 1].kind == "wins"
            if entry.steps or not last:
                replay.move(_move_text(entry.steps))
        elif entry.kind in ("double", "take", "drop"):
            replay.move(entry.kind)
        else:
            _resignation(replay, entry)
    return Record.from_dict(
        {
            "game": "backgammon",
            "ruleset": rules.ruleset,
            "start": start.position(),
            "moves": replay.moves,
            "chance": replay.chance,
            "players": {"white": game.names[0] or "White", "black": game.names[1] or "Black"},
            "dice": None,
            "result": _result(replay.state),
        }
    )


def _roll(replay: _Replay, entry: _Entry, lower_starts: bool) -> None:
    """Play a written roll: the opening, or a decision to roll and the dice."""
    high, low = sorted((int(entry.dice[0]), int(entry.dice[1])), reverse=True)
    state = replay.state
    if state.side is None:
        if high == low:
            raise ValueError("the opening roll is never a double")
        white_high = (entry.player == 0) != lower_starts
        replay.chance_outcome(OpeningRoll(high, low) if white_high else OpeningRoll(low, high))
    else:
        if state.to_move != CHANCE:
            if state.to_move != SIDES[entry.player]:
                raise ValueError(f"{SIDES[entry.player]} rolls, but {state.to_move} decides")
            replay.move("roll")
        replay.chance_outcome(Roll(high, low))
    if replay.state.to_move != SIDES[entry.player]:
        raise ValueError(f"a roll by {SIDES[entry.player]} on {replay.state.to_move}'s turn")


def _resignation(replay: _Replay, entry: _Entry) -> None:
    """``Wins N points`` before the end: the other side resigned that many points' worth (on
    its turn), and the winner accepted."""
    state = replay.state
    loser = SIDES[1 - entry.player]
    if state.side != loser:
        raise ValueError(f"{loser} resigns on {state.side}'s turn, which is not played here")
    cube = state.cube_value
    value = entry.value // cube if entry.value % cube == 0 else 0
    if value not in (1, 2, 3):
        raise ValueError(f"'Wins {entry.value} points' is no resignation at a {cube}-cube")
    replay.move(f"resign {RESIGN_NAMES[value]}")
    replay.move("accept")


def _result(state: Any) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    return {"winner": outcome.winner, "reason": outcome.reason}


def read(path: str | Path) -> MatFile:
    """Read a ``.mat`` file."""
    return loads(Path(path).read_text(encoding="utf-8", errors="replace"))


__all__ = ["MatFile", "dumps", "loads", "read", "write"]
