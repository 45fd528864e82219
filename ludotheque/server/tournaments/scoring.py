"""Points and standings of tournaments, pure.

**Arena** (lichess's rules): a win is 2 points, a draw 1, a loss 0; after two wins in a row a
player is *on fire* and each game's points are doubled (a win 4, a draw 2) until a game that
is not a win puts the fire out. A win with berserk gives one point more (berserk is for clocked
games of the General and Defiance; not for backgammon matches, whose delay clock has no
increment to take away and whose games are many). A game without a result (aborted) gives
nothing and leaves the streak as it was. Ties: the better performance (the average rating of the
opponents, plus 500 for a win and minus 500 for a loss, per game), then the rating at entry.

**Swiss**: a win 1, a draw ½, a loss 0, a bye 1 (an unplayed round without bye: 0). Ties: the
Buchholz score (the sum of the opponents' scores; a bye counts as an opponent of score 0: no
cut), then Sonneborn-Berger (the scores of the opponents beaten, and half of those drawn), then
the pairing number. Scores are kept in half points, so that every sum is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS, NONE = "win", "draw", "loss", "none"


@dataclass(frozen=True)
class ArenaGame:
    """One arena game of one player, in the order played."""

    result: str  # win | draw | loss | none
    berserk: bool = False
    opponent_rating: float = 1500.0


@dataclass(frozen=True)
class ArenaLine:
    """A player's arena score: the points of each game (``fire``: that game was played on
    fire), the total, whether they are on fire now, and their performance."""

    points: list[int]
    fire: list[bool]
    total: int
    on_fire: bool
    performance: int | None


def arena_line(games: Sequence[ArenaGame]) -> ArenaLine:
    """The arena points of ``games`` (see the module's note)."""
    streak = 0
    points, fire = [], []
    perf: list[float] = []
    for game in games:
        hot = streak >= 2
        if game.result == NONE:
            points.append(0)
            fire.append(False)
            continue
        base = {WIN: 2, DRAW: 1, LOSS: 0}[game.result]
        got = base * (2 if hot else 1)
        if game.result == WIN and game.berserk:
            got += 1
        points.append(got)
        fire.append(hot)
        streak = streak + 1 if game.result == WIN else 0
        perf.append(game.opponent_rating + {WIN: 500, DRAW: 0, LOSS: -500}[game.result])
    performance = round(sum(perf) / len(perf)) if perf else None
    return ArenaLine(points, fire, sum(points), streak >= 2, performance)


@dataclass(frozen=True)
class SwissGame:
    """A Swiss round of one player: the opponent (``None``: a bye or no game), the result
    (``win``, ``draw``, ``loss``, ``none``: not played yet or aborted) and colour."""

    opponent: int | None
    result: str
    colour: str | None = None
    bye: bool = False


@dataclass(frozen=True)
class SwissLine:
    """A player's place in a Swiss table (scores in half points)."""

    id: int
    rank: int
    score: int
    buchholz: int
    sonneborn: int  # in quarter points: the product of two half-point scores
    games: list[SwissGame] = field(default_factory=list)


HALVES = {WIN: 2, DRAW: 1, LOSS: 0, NONE: 0}


def swiss_score(games: Iterable[SwissGame]) -> int:
    return sum(2 if g.bye else HALVES[g.result] for g in games)


def swiss_table(players: dict[int, tuple[int, list[SwissGame]]]) -> list[SwissLine]:
    """The Swiss table: ``players`` maps each id to (pairing number, their rounds); the
    lines in order (score, Buchholz, Sonneborn-Berger, pairing number)."""
    scores = {pid: swiss_score(games) for pid, (_rank, games) in players.items()}
    lines = []
    for pid, (rank, games) in players.items():
        opponents = [g for g in games if g.opponent is not None and g.result != NONE]
        buchholz = sum(scores.get(g.opponent or 0, 0) for g in opponents)
        sonneborn = sum(scores.get(g.opponent or 0, 0) * HALVES[g.result] for g in opponents)
        lines.append(SwissLine(pid, rank, scores[pid], buchholz, sonneborn, list(games)))
    return sorted(lines, key=lambda s: (-s.score, -s.buchholz, -s.sonneborn, s.rank))
