"""Matches between computer players, in parallel processes, with honest statistics.

Player A takes the first side in even-numbered games and the second in odd ones. Each game is a
record (seeded dice, repetition and turn-limit draws as the game defines them), so any game of
a match can be saved, replayed and checked.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from . import load
from .ai.levels import make_agent
from .core import CHANCE
from .record import Record
from .stats import elo_interval, wilson

MAX_PLIES = 5000  # a safety net: every game here ends long before


@dataclass(frozen=True)
class GameResult:
    """One game: which side A played, who won (a side or ``None``) and why, and its record."""

    index: int
    a_side: str
    winner: str | None
    reason: str
    plies: int
    record: str | None = None


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

    def report(self) -> str:
        """The match in a few lines: wins per side, draws, win rate and Elo with 95% intervals."""
        n = len(self.results)
        lines = [f"{self.a} vs {self.b} at {self.game} ({self.ruleset}), {n} games:"]
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
        diff, lo, hi = elo_interval(self.a_wins, self.draws, self.b_wins)
        lines.append(f"  Elo difference {diff:+.0f}  (95% interval {lo:+.0f} to {hi:+.0f})")
        reasons: dict[str, int] = {}
        for r in self.results:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        return "\n".join(lines)


def play_game(
    game_name: str, ruleset: str | None, a: str, b: str, index: int, seed: int, keep: bool
) -> GameResult:
    """Play game number ``index`` of a match (A on the first side when ``index`` is even)."""
    game = load(game_name, ruleset)
    first, second = game.sides
    a_side = first if index % 2 == 0 else second
    base = seed * 1_000_003 + index * 7
    agents = {
        a_side: make_agent(game_name, a, seed=base + 1),
        game.opponent(a_side): make_agent(game_name, b, seed=base + 2),
    }
    record = Record.new(
        game, players={s: getattr(agents[s], "name", "?") for s in game.sides},
        seed=f"arena-{seed}-{index}",
    )  # fmt: skip
    plies = 0
    while record.outcome() is None and plies < MAX_PLIES:
        state = record.state
        if state.to_move == CHANCE:
            record.roll()
            continue
        record.play(agents[str(state.to_move)].choose(state))
        plies += 1
    outcome = record.outcome()
    winner, reason = (outcome.winner, outcome.reason) if outcome else (None, "unfinished")
    return GameResult(index, a_side, winner, reason, plies, record.to_json() if keep else None)


def _play(args: tuple[str, str | None, str, str, int, int, bool]) -> GameResult:
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
) -> MatchResult:
    """Play ``games`` games of A against B (``jobs`` processes) and collect the results."""
    g = load(game, ruleset)
    match = MatchResult(game, g.ruleset, a, b, (g.sides[0], g.sides[1]))
    work = [(game, ruleset, a, b, i, seed, save is not None) for i in range(games)]
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)

    def collect(result: GameResult) -> None:
        match.results.append(result)
        if save is not None and result.record is not None:
            (save / f"{game}-{result.index:05d}.json").write_text(result.record, encoding="utf-8")
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


def progress_bar(out: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int], None]:
    """A text progress bar that redraws itself on one line."""

    def show(done: int, total: int) -> None:
        filled = width * done // max(total, 1)
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            out.write("\n")
        out.flush()

    return show
