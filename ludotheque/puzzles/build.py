"""The puzzle tool (``python tools/make_puzzles.py build --game G --count N [--out DIR]``): plays
seeded self-play games, keeps the positions its source proves (``general``: the tables;
``backgammon`` and ``defiance``: a deeper search), then picks a balanced set and numbers it.

Resumable: every finished seed's puzzles are appended to ``WORK/<game>.pool.jsonl`` with the
seed, so a stopped run goes on from the next seed; the set ``DIR/<game>.jsonl`` is written from
the pool once it holds enough (``--count`` after the per-game selection's limits).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..solve.retrograde import Progress
from . import backgammon, defiance, general
from .model import DATA, Puzzle, write


@dataclass(frozen=True)
class Source:
    """One game's puzzle source: the puzzles of a seed, the choice of a set from the pool, and
        the letter of its ids. ``select(pool, count, fill)`` keeps the set's balance, and only with
    ``fill`` tops it up past its limits (when the seeds run out)."""

    letter: str
    puzzles: Callable[[int], Iterator[Puzzle]]
    select: Callable[[list[Puzzle], int, bool], list[Puzzle]]


def sources() -> dict[str, Source]:
    """The games' sources."""
    return {
        "general": Source("g", general.puzzles, general.select),
        "backgammon": Source("b", backgammon.puzzles, backgammon.select),
        "defiance": Source("d", defiance.puzzles, defiance.select),
    }


def read_pool(path: Path) -> tuple[set[int], list[Puzzle]]:
    """The seeds done and the puzzles found so far (a line cut short by a stop is skipped)."""
    seeds: set[int] = set()
    found: list[Puzzle] = []
    if not path.exists():
        return seeds, found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        seeds.add(int(record["seed"]))
        found.extend(Puzzle.from_json(p) for p in record["puzzles"])
    return seeds, found


def numbered(chosen: Sequence[Puzzle], letter: str) -> list[Puzzle]:
    """The set's puzzles with their ids, ``g00001`` on."""
    return [replace(p, id=f"{letter}{i:05d}") for i, p in enumerate(chosen, 1)]


def build(
    game: str, count: int, out: Path, work: Path, seeds: int, progress: Progress
) -> list[Puzzle]:
    """Play seeds until the pool (in ``work``) gives ``count`` puzzles (or ``seeds`` seeds are
    done), then write the set to ``out``; the set is returned."""
    source = sources()[game]
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    pool_path = work / f"{game}.pool.jsonl"
    done, pool = read_pool(pool_path)
    positions = {p.position for p in pool}
    progress.start(f"{game}: puzzles", count)
    seed = 0
    while seed < seeds and (ready := len(source.select(pool, count, False))) < count:
        if seed not in done:
            new = [p for p in source.puzzles(seed) if p.position not in positions]
            positions.update(p.position for p in new)
            pool.extend(new)
            record = {"seed": seed, "puzzles": [p.to_json() for p in new]}
            with pool_path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        seed += 1
        progress.update(ready, f"seed {seed:,}, {len(pool):,} puzzles in the pool")
    progress.finish()
    chosen = numbered(source.select(pool, count, True), source.letter)
    write(out / f"{game}.jsonl", chosen)
    return chosen


def report(game: str, chosen: list[Puzzle], seconds: float) -> str:
    """Counts per theme and side, for the log and the README."""
    themes = Counter(t for p in chosen for t in p.themes)
    sides = Counter(p.side for p in chosen)
    lines = [f"{game}: {len(chosen):,} puzzles in {seconds:.0f} s"]
    lines.append("  sides: " + ", ".join(f"{k} {v:,}" for k, v in sorted(sides.items())))
    lines.append("  themes: " + ", ".join(f"{k} {v:,}" for k, v in themes.most_common()))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``build --game G --count N [--out DIR] [--seeds S]``."""
    parser = argparse.ArgumentParser(prog="make_puzzles", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="make a game's puzzle set")
    make.add_argument("--game", required=True, choices=("general", "backgammon", "defiance"))
    make.add_argument("--count", type=int, default=1000, help="puzzles in the set")
    make.add_argument("--out", type=Path, default=DATA, help="where the set goes")
    make.add_argument("--seeds", type=int, default=100_000, help="give up after these seeds")
    make.add_argument(
        "--work", type=Path, default=Path(".puzzles"), help="where the pool is kept (resuming)"
    )
    args = parser.parse_args(argv)
    began = time.monotonic()
    progress = Progress(sys.stderr, every=30)
    chosen = build(args.game, args.count, args.out, args.work, args.seeds, progress)
    print(report(args.game, chosen, time.monotonic() - began))
    return 0 if len(chosen) >= args.count else 1
