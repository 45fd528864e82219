"""How long the analysis of a whole game takes, per game, at a strength (the default: normal).

    python bench/analysis.py [--runs 3] [--strength normal] [--game general] [--records DIR]

The games: a 100-ply General game, a backgammon game (``seed``, played to its end) and a
100-turn Defiance and Domain game on the 8x8 board, each between two seeded ``medium`` players
(``--records DIR`` keeps them, and reuses them when they still replay). For each the script
prints the median over ``--runs`` fresh analyses of the wall-clock and CPU time, the time per
decision, and as a reference measured in the same run the time the ``hard`` computer player
takes to choose a move at every decision of the same game (and the ratio). The goal: under 20 s
a game at the default strength. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludotheque.ai.levels import make_agent
from ludotheque.analysis import DEFAULT, NAMES, analyse
from ludotheque.core import CHANCE
from ludotheque.record import InvalidRecord, Record

GAMES: list[tuple[str, str | None, int | None]] = [
    ("general", None, 100),
    ("backgammon", "seed", None),
    ("defiance", "8x8", 100),
]


def play(game: str, ruleset: str | None, moves: int | None) -> Record:
    """A seeded game between two medium players, stopped after ``moves`` moves: the first
    seed whose game lasts that long (any finished game when ``moves`` is ``None``)."""
    attempt = 0
    while True:
        record = Record.new(game, ruleset, seed=f"bench-analysis-{game}-{attempt}")
        sides = record.game_object.sides
        agents = {s: make_agent(game, "medium", 100 + 2 * attempt + i) for i, s in enumerate(sides)}
        while record.outcome() is None and (moves is None or len(record.moves) < moves):
            if record.state.to_move == CHANCE:
                record.roll()
            else:
                record.play(agents[str(record.state.to_move)].choose(record.state))
        if moves is None or len(record.moves) == moves:
            return record
        attempt += 1


def load_or_play(game: str, ruleset: str | None, moves: int | None, folder: Path | None) -> Record:
    length = "end" if moves is None else moves
    path = None if folder is None else folder / f"{game}-{ruleset or 'default'}-{length}.json"
    if path is not None and path.exists():
        try:
            return Record.from_json(path.read_text(encoding="utf-8"))
        except InvalidRecord:
            pass  # the engine changed: play it again
    record = play(game, ruleset, moves)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record.to_json(), encoding="utf-8")
    return record


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of ``run()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def hard_reference(record: Record) -> float:
    """Wall seconds the hard level takes to choose a move at every decision of ``record``."""
    game = record.game_object.name
    agents = {s: make_agent(game, "hard", 7 + i) for i, s in enumerate(record.game_object.sides)}
    total = 0.0
    for state, (kind, _) in zip(record.states, record.plies, strict=False):
        if kind != "move" or len(state.legal_moves()) < 2:
            continue
        start = time.perf_counter()
        agents[str(state.to_move)].choose(state)
        total += time.perf_counter() - start
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--strength", choices=NAMES, default=DEFAULT)
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--records", type=Path, help="keep the games' records in this folder")
    args = parser.parse_args()
    print(f"analysis at strength {args.strength}, medians of {args.runs} runs")
    print(f"{'game':<18} {'plies':>5} {'moves':>5} {'wall':>8} {'CPU':>8} {'/move':>8} "
          f"{'hard':>8} {'ratio':>6}")  # fmt: skip
    for game, ruleset, moves in GAMES:
        if args.game and game != args.game:
            continue
        record = load_or_play(game, ruleset, moves, args.records)
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = timed(lambda r=record: analyse(r, args.strength))
            walls.append(wall)
            cpus.append(cpu)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        reference = hard_reference(record)
        name = f"{game} ({ruleset})" if ruleset else game
        n = len(record.moves)
        figures = f"{wall:>7.2f}s {cpu:>7.2f}s {wall / n:>7.3f}s {reference:>7.2f}s"
        print(
            f"{name:<18} {len(record.plies):>5} {n:>5} {figures} {wall / reference:>6.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
