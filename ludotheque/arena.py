"""Matches between computer players, in parallel processes, with honest statistics.

Player A takes the first side in even-numbered games and the second in odd ones. Each game is a
record (seeded dice, repetition and turn-limit draws as the game defines them), so any game of
a match can be saved, replayed and checked.

Games played for points (backgammon's ``money`` and ``match`` rulesets, with the doubling cube)
are scored in points as well as wins: in money play each game is worth what the winner scored
(the cube, gammons, backgammons), and the report gives A's points per game with its interval; in
``match`` each contest is a whole match to ``length`` points (a chain of game records), won or
lost, and the report also gives the points per game of all its games.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from . import load
from .ai.agent import Agent, tell
from .ai.levels import make_agent
from .core import CHANCE
from .record import InvalidRecord, Record
from .stats import Z95, elo_interval, score_interval, wilson

MAX_PLIES = 5000  # a safety net: every game here ends long before


def _signed(value: float) -> str:
    """An Elo figure rounded to a whole number with its sign: ``+0``, never ``-0``."""
    return f"{round(value) + 0:+d}"


@dataclass(frozen=True)
class GameResult:
    """One game: which side A played, who won (a side or ``None``) and why, and its record."""

    index: int
    a_side: str
    winner: str | None
    reason: str
    plies: int
    record: str | None = None
    points: int | None = None  # what the winner scored (games played for points)
    game_points: tuple[int, ...] = ()  # a match's games: A's points, won (+) or lost (-)
    records: tuple[str, ...] = ()  # a match's game records after the first

    @property
    def a_points(self) -> int | None:
        """A's net points in this contest: + what it won, - what it lost (``None`` when the
        game is not played for points)."""
        if self.game_points:
            return sum(self.game_points)
        if self.points is None:
            return None
        if self.winner is None:
            return 0
        return self.points if self.winner == self.a_side else -self.points


@dataclass
class MatchResult:
    """A whole match from A's point of view."""

    game: str
    ruleset: str
    a: str
    b: str
    sides: tuple[str, str]
    results: list[GameResult] = field(default_factory=list)

    @property
    def a_wins(self) -> int:
        return sum(1 for r in self.results if r.winner == r.a_side)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    @property
    def b_wins(self) -> int:
        return len(self.results) - self.a_wins - self.draws

    def by_side(self) -> dict[str, tuple[int, int, int]]:
        """For each side A played: (A's wins, draws, A's losses)."""
        out = {}
        for side in self.sides:
            games = [r for r in self.results if r.a_side == side]
            wins = sum(1 for r in games if r.winner == side)
            draws = sum(1 for r in games if r.winner is None)
            out[side] = (wins, draws, len(games) - wins - draws)
        return out

    def elo_line(self) -> str:
        """A's Elo difference over B with its 95% interval (``stats.elo_interval``). When one side
        won every game the difference is beyond what the games can measure: the line gives the
        one finite bound instead of a point figure."""
        diff, low, high = elo_interval(self.a_wins, self.draws, self.b_wins)
        if not self.results:
            return "Elo difference not measurable: no game played"
        if math.isinf(diff) and diff > 0:
            return (
                f"Elo difference at least {_signed(low)} (95% lower bound; not measurable "
                f"above it: {self.a} won every game)"
            )
        if math.isinf(diff):
            return (
                f"Elo difference at most {_signed(high)} (95% upper bound; not measurable "
                f"below it: {self.b} won every game)"
            )
        return f"Elo difference {_signed(diff)}  (95% interval {_signed(low)} to {_signed(high)})"

    def points_per_game(self) -> tuple[float, float, float, int] | None:
        """A's points per game (money play, or every game of the matches) with a 95% normal
        interval and the number of games: ``(mean, low, high, games)``; ``None`` when the games
        are not played for points."""
        values: list[int] = []
        for r in self.results:
            if r.game_points:
                values.extend(r.game_points)
            elif r.points is not None:
                values.append(r.a_points or 0)
        if not values:
            return None
        n = len(values)
        mean = sum(values) / n
        variance = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
        half = Z95 * math.sqrt(variance / n)
        return mean, mean - half, mean + half, n

    def report(self) -> str:
        """The match in a few lines: wins per side, draws, win rate, score (a draw as half) and
        Elo with 95% intervals; for games played for points, A's points per game with its
        interval."""
        n = len(self.results)
        unit = "matches" if any(r.game_points for r in self.results) else "games"
        lines = [f"{self.a} vs {self.b} at {self.game} ({self.ruleset}), {n} {unit}:"]
        for side, (w, d, lost) in self.by_side().items():
            lines.append(f"  {self.a} as {side}: {w} won, {d} drawn, {lost} lost")
        low, high = wilson(self.a_wins, n)
        lines.append(
            f"  {self.a} wins {self.a_wins}, {self.b} wins {self.b_wins}, draws {self.draws}"
        )
        lines.append(
            f"  {self.a}'s win rate {self.a_wins / max(n, 1):.1%}  "
            f"(95% interval {low:.1%} to {high:.1%})"
        )
        score, low, high = score_interval(self.a_wins, self.draws, self.b_wins)
        lines.append(
            f"  {self.a}'s score {score:.1%}, draws as half  (95% interval {low:.1%} to {high:.1%})"
        )
        lines.append("  " + self.elo_line())
        reasons: dict[str, int] = {}
        for r in self.results:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        points = self.points_per_game()
        if points is not None:
            mean, low, high, games = points
            total = sum(r.a_points or 0 for r in self.results)
            lines.append(
                f"  {self.a}'s points: {total:+d} in {games} games, {mean:+.3f} a game "
                f"(95% interval {low:+.3f} to {high:+.3f})"
            )
        return "\n".join(lines)


def play_game(
    game_name: str,
    ruleset: str | None,
    a: str,
    b: str,
    index: int,
    seed: int,
    keep: bool,
    length: int | None = None,
) -> GameResult:
    """Play game number ``index`` of a match (A on the first side when ``index`` is even); in
    backgammon's ``match`` ruleset, a whole match to ``length`` points (7 by default)."""
    game = load(game_name, ruleset)
    first, second = game.sides
    a_side = first if index % 2 == 0 else second
    base = seed * 1_000_003 + index * 7
    agents = {
        a_side: make_agent(game_name, a, seed=base + 1),
        game.opponent(a_side): make_agent(game_name, b, seed=base + 2),
    }
    players = {s: getattr(agents[s], "name", "?") for s in game.sides}
    start = None
    if getattr(game, "stakes_kind", None) == "match":
        start = game.start(length=length).position()  # type: ignore[call-arg]
    first_record = Record.new(game, start=start, players=players, seed=f"arena-{seed}-{index}")
    record: Record | None = first_record
    plies = 0
    kept: list[str] = []
    game_points: list[int] = []
    last = first_record
    while record is not None:
        last = record
        plies += _play_out(record, agents)
        if keep:
            kept.append(record.to_json())
        if start is None:
            break
        points = record.points()
        outcome = record.outcome()
        if points is None or outcome is None or outcome.winner is None:
            break  # unfinished: the match stops here
        game_points.append(points if outcome.winner == a_side else -points)
        record = record.next_game(seed=f"arena-{seed}-{index}-{len(game_points)}")
    outcome = last.outcome()
    winner, reason = (outcome.winner, outcome.reason) if outcome else (None, "unfinished")
    if start is not None:
        reason = "match" if outcome else "unfinished"
    return GameResult(
        index, a_side, winner, reason, plies, kept[0] if kept else None,
        points=last.points(), game_points=tuple(game_points), records=tuple(kept[1:]),
    )  # fmt: skip


def _play_out(record: Record, agents: dict[str, Agent]) -> int:
    """Play a record to its end (or the safety net); the number of moves played. The agents
    follow the record (its repetitions, its moves against the turn limit)."""
    for agent in agents.values():
        tell(agent, record)
    plies = 0
    while record.outcome() is None and plies < MAX_PLIES:
        state = record.state
        if state.to_move == CHANCE:
            record.roll()
            continue
        record.play(agents[str(state.to_move)].choose(state))
        plies += 1
    return plies


def _play(args: tuple[str, str | None, str, str, int, int, bool, int | None]) -> GameResult:
    return play_game(*args)


def run_match(
    game: str,
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    ruleset: str | None = None,
    save: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    length: int | None = None,
    resume: bool = False,
) -> MatchResult:
    """Play ``games`` games of A against B (``jobs`` processes) and collect the results; in
    backgammon's ``match`` ruleset each is a match to ``length`` points (7 by default). With
    ``resume``, a game whose record ``save`` holds already (a stopped run's) is read from it
    instead of played again (not for matches, whose games are chained)."""
    g = load(game, ruleset)
    match = MatchResult(game, g.ruleset, a, b, (g.sides[0], g.sides[1]))
    work = [(game, ruleset, a, b, i, seed, save is not None, length) for i in range(games)]
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        if resume and getattr(g, "stakes_kind", None) != "match":
            done = [_saved(save, game, i, a, b) for i in range(games)]
            match.results.extend(r for r in done if r is not None)
            work = [w for w, r in zip(work, done, strict=True) if r is None]

    def collect(result: GameResult) -> None:
        match.results.append(result)
        if save is not None and result.record is not None:
            (save / f"{game}-{result.index:05d}.json").write_text(result.record, encoding="utf-8")
            for k, text in enumerate(result.records, start=2):
                path = save / f"{game}-{result.index:05d}-game{k:02d}.json"
                path.write_text(text, encoding="utf-8")
        if progress is not None:
            progress(len(match.results), games)

    if jobs <= 1:
        for item in work:
            collect(_play(item))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_play, work, chunksize=1):
                collect(result)
    match.results.sort(key=lambda r: r.index)
    return match


def _saved(folder: Path, game: str, index: int, a: str, b: str) -> GameResult | None:
    """The result of game ``index`` from its saved record, when it is there, finished and
    played by A and B on the sides game ``index`` gives them."""
    path = folder / f"{game}-{index:05d}.json"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    try:
        record = Record.from_json(text)
    except InvalidRecord:
        return None
    first, second = record.game_object.sides
    a_side = first if index % 2 == 0 else second
    b_side = second if a_side == first else first
    outcome = record.outcome()
    names = record.players
    if outcome is None or names.get(a_side) != a or names.get(b_side) != b:
        return None
    plies = len(record.moves)
    return GameResult(index, a_side, outcome.winner, outcome.reason, plies, text,
                      points=record.points())  # fmt: skip


def progress_bar(out: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int], None]:
    """A text progress bar that redraws itself on one line."""

    def show(done: int, total: int) -> None:
        filled = width * done // max(total, 1)
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            out.write("\n")
        out.flush()

    return show
