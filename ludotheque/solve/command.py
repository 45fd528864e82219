"""``ludotheque solve general``: build the General's tables beyond those shipped in the
package (10 to 16 rebels) into the user's data directory, and print what they say;
``ludotheque solve general --check``: check the rebels' strategy the package ships, the
certificate of the rebels' win (``certificate``), with the engine's own moves (numpy alone).

The work is resumable: each finished sub-layer is kept (``raw/`` beside the tables) until the
whole build is done, so a stopped run starts again where it stopped. It needs numba
(``pip install 'ludotheque[solve]'``). Measured: 20 minutes of one core for the whole game
(84 minutes of wall-clock time on a busy shared machine), 2.3 GB of memory at most, 2.2 GB of
disk while it runs and 0.5 GB for the finished tables.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

SHIPPED_TOP = 8
"""The package holds the tables up to this many rebels."""


def add_parser(commands: Any) -> None:
    """Add ``solve`` to the subcommands of ``ludotheque`` (``commands``: argparse's
    ``add_subparsers()``)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "solve", help="solve the General: build its tables (needs the solve extra)"
    )
    parser.add_argument("game", choices=("general",), help="the game to solve (the General)")
    parser.add_argument(
        "--dir", type=Path, help="where the tables go (default: LUDOTHEQUE_TABLES, else "
        "solve/general in your data directory)",
    )  # fmt: skip
    parser.add_argument(
        "--top", type=int, default=16, choices=(6, 8, 10, 12, 14, 16),
        help="solve up to this many rebels (default 16: the whole game)",
    )  # fmt: skip
    parser.add_argument(
        "--keep-raw", action="store_true",
        help="keep the solver's own files (both sides to move, 2.2 GB for the whole game)",
    )  # fmt: skip
    parser.add_argument(
        "--check", action="store_true",
        help="check the rebels' winning strategy the package ships (no solving, no numba)",
    )  # fmt: skip
    parser.add_argument(
        "--strategy", type=Path, help="with --check: the strategy file to check "
        "(default: the package's)",
    )  # fmt: skip
    parser.add_argument(
        "--sample", type=int, help="with --check: check only this many positions, evenly "
        "spread (a quick look, not a proof)",
    )  # fmt: skip


def check(args: argparse.Namespace) -> int:
    """Check a strategy file: 0 when it proves the rebels' win from the start, 1 otherwise."""
    from .certificate import PACKAGE_PATH, Strategy
    from .certificate import check as walk

    path: Path = args.strategy or PACKAGE_PATH
    if not path.exists():
        print(f"ludotheque: no strategy at {path}", file=sys.stderr)
        return 2
    began = time.monotonic()
    strategy = Strategy.read(path)
    loaded = time.monotonic() - began
    size = path.stat().st_size
    print(f"{path}: {len(strategy):,} positions, {size / 2**20:.1f} MB, read in {loaded:.1f} s",
          flush=True)  # fmt: skip

    def progress(done: int, total: int) -> None:
        elapsed = time.monotonic() - began
        print(f"  {done:,} of {total:,} positions checked, {elapsed:.0f} s", flush=True)

    report = walk(strategy, sample=args.sample, progress=progress)
    for problem in report.problems[:20]:
        print(f"  problem: {problem}")
    if report.problems:
        print(f"NOT A PROOF: {len(report.problems):,} problems")
        return 1
    scope = "every position" if args.sample is None else f"a sample of {report.positions:,}"
    print(
        f"checked {scope} ({report.positions:,} positions, {report.replies:,} replies of the "
        f"general, {report.wins:,} lines ending in the rebels' win) in {report.seconds:.0f} s"
    )
    print(f"the start: the rebels win in at most {report.start_plies} plies, whatever the "
          "general plays")  # fmt: skip
    for move, plies in sorted(report.openings.items(), key=lambda kv: (kv[1], kv[0])):
        print(f"  {move}: the rebels win in at most {plies} plies from the start")
    if args.sample is not None:
        print("a sample proves nothing on its own: run without --sample for the proof")
    return 0


def run(args: argparse.Namespace) -> int:
    """Solve, write the tables, print the verdicts on the start and the openings (or, with
    ``--check``, check the shipped strategy)."""
    if args.check:
        return check(args)
    from . import kernels

    if not kernels.HAVE_NUMBA:
        print("ludotheque: solving needs numba: pip install 'ludotheque[solve]'", file=sys.stderr)
        return 2
    from .retrograde import Progress, RawStore, name, solve
    from .tables import Tables, file_name, side_codes, user_folder, write, write_summary

    folder: Path = args.dir or user_folder()
    raw = RawStore(folder / "raw")

    def log(text: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)

    log(f"tables in {folder}")
    wanted = [(k, f) for k in (6, 8, 10, 12, 14, 16) if k <= args.top for f in (0, 1)]
    missing = [
        (k, f) for k, f in wanted if k > SHIPPED_TOP and not (folder / file_name(k, f)).exists()
    ]
    if missing:
        solve(raw, args.top, Progress(sys.stderr), log=log)
        for k, f in missing:
            path = write(side_codes(raw.load(k, f), k), k, f, folder / file_name(k, f), False)
            log(f"wrote {path} ({path.stat().st_size / 2**20:,.0f} MB)")
    if raw.folder.exists():
        every = [(k, f) for k, f in wanted if raw.has(k, f)]
        write_summary({name(k, f): raw.stats(k, f).counts for k, f in every}, folder)
    if not args.keep_raw and raw.folder.exists():
        shutil.rmtree(raw.folder)
    tables = Tables([folder, Path(__file__).resolve().parent / "data"])
    from ..games.general.rules import GAME
    from .report import opening_verdicts

    start = tables.verdict(GAME.start())
    if start is None:
        log(f"the tables reach {tables.top()} rebels; the start needs 16")
        return 0
    log(f"the start: {start.describe()} ({start.plies} plies)")
    for move, verdict in opening_verdicts(tables):
        log(f"  after {move}: {verdict.describe() if verdict else 'unknown'}")
    return 0
