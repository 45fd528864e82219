"""How long the deep analysis of a 45-ply General game takes, as the server runs it.

    python bench/deep_analysis.py [--runs 3] [--plies 45] [--before DIR]

The game: the first seeded game between two ``medium`` players that lasts ``--plies`` moves,
stopped there (the same game every time). The analysis is the server's: ``deep``, with the
General's endgame tables registered as the analysis processes register them. The script prints
the median over ``--runs`` analyses, each in a fresh process (the tables' caches start cold, as
in a new analysis worker), of the wall-clock and processor seconds. With
``--before DIR`` (another checkout of the project, e.g. ``git worktree add /tmp/before HEAD~3``
with its compiled cores built or copied) it measures that code the same way first, in a child
process, and prints both. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# the code measured: this checkout's, or the one ``--before`` names (in the child process)
sys.path.insert(0, os.environ.get("BENCH_CHECKOUT") or str(Path(__file__).resolve().parents[1]))

from ludotheque.ai.levels import make_agent
from ludotheque.analysis import analyse, register_oracle
from ludotheque.record import Record
from ludotheque.solve import oracle


def play(plies: int) -> Record:
    """The first seeded game between two medium players that lasts ``plies`` moves, stopped
    after them."""
    attempt = 0
    while True:
        record = Record.new("general", seed=f"bench-analysis-general-{attempt}")
        agents = {s: make_agent("general", "medium", 100 + 2 * attempt + i)
                  for i, s in enumerate(record.game_object.sides)}  # fmt: skip
        while record.outcome() is None and len(record.moves) < plies:
            record.play(agents[str(record.state.to_move)].choose(record.state))
        if len(record.moves) == plies:
            return record
        attempt += 1


def measure(record_json: str) -> dict[str, Any]:
    """The wall-clock and processor seconds of one deep analysis, in this process."""
    register_oracle("general", oracle)  # type: ignore[arg-type]  # as the server's processes do
    record = Record.from_json(record_json)
    wall, cpu = time.perf_counter(), time.process_time()
    analyse(record, "deep")
    code = str(Path(sys.modules["ludotheque"].__file__ or "").parent)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "code": code}


def fresh(folder: Path, record_json: str, runs: int) -> dict[str, Any]:
    """The medians of ``runs`` analyses by the code of ``folder``, each in a new process."""
    env = {**os.environ, "BENCH_CHECKOUT": str(folder), "PYTHONPATH": str(folder)}
    found = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child"],
            input=record_json, capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        found.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {
        "wall": statistics.median(f["wall"] for f in found),
        "cpu": statistics.median(f["cpu"] for f in found),
        "code": found[0]["code"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--plies", type=int, default=45)
    parser.add_argument("--before", type=Path, help="another checkout to measure first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # the record on stdin, the figures as JSON on stdout
        print(json.dumps(measure(sys.stdin.read())))
        return
    record_json = play(args.plies).to_json()
    load = os.getloadavg()[0]
    print(f"deep analysis of a {args.plies}-ply General game, median of {args.runs} runs "
          f"(load average {load:.1f} on {os.cpu_count()} processors)")  # fmt: skip
    if args.before is not None:
        old = fresh(args.before, record_json, args.runs)
        print(f"before: {old['wall']:.1f} s ({old['cpu']:.1f} s of processor; {old['code']})",
              flush=True)  # fmt: skip
    new = fresh(Path(__file__).resolve().parents[1], record_json, args.runs)
    print(f"after:  {new['wall']:.1f} s ({new['cpu']:.1f} s of processor; {new['code']})")


if __name__ == "__main__":
    main()
