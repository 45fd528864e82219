"""Solve Le Général et les rebelles and check the result (a tool, not a test).

    python tools/solve_general.py solve  --raw DIR [--top 16]   # resumable; log with 2>>FILE
    python tools/solve_general.py verify --raw DIR              # every position, from its children
    python tools/solve_general.py check  --raw DIR [--samples N] # moves and values vs the engine
    python tools/solve_general.py answer --raw DIR              # the start and the 24 openings
    python tools/solve_general.py stats  --raw DIR              # per-layer counts, time, memory
    python tools/solve_general.py pack   --raw DIR --out DIR [--top 8]   # tables, summary.json
    python tools/solve_general.py strategy --raw DIR --out FILE [--work DIR]  # the certificate

``solve`` needs numba (``pip install 'ludotheque[solve]'``); the raw folder holds one ``uint16``
code per position (2.2 GB for the whole game) and the figures of each sub-layer. ``strategy``
walks the raw tables from the start into the rebels' winning strategy (``ludotheque.solve.
strategy``; resumable: its progress is kept in ``--work``, by default ``DIR/strategy``) and
writes it as the package ships it (``ludotheque/solve/data/strategy.gts``), then checks it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ludotheque.solve import check
from ludotheque.solve.layout import LAYERS, WON, sublayers
from ludotheque.solve.report import answer_lines, layer_table
from ludotheque.solve.retrograde import Progress, RawStore, name, solve, verify_store


def _log(text: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "command", choices=("solve", "verify", "check", "answer", "stats", "pack", "strategy")
    )
    parser.add_argument("--raw", type=Path, required=True, help="folder of the solved sub-layers")
    parser.add_argument("--top", type=int, default=16, help="highest rebel count")
    parser.add_argument("--samples", type=int, default=2000, help="positions per sub-layer")
    parser.add_argument(
        "--out", type=Path, help="where pack writes the tables (strategy: the file)"
    )
    parser.add_argument("--work", type=Path, help="strategy: where its progress is kept")
    args = parser.parse_args()
    store = RawStore(args.raw)
    if args.command == "solve":
        solve(store, args.top, Progress(sys.stderr, every=60), log=_log)
        return 0
    done = [(k, f) for k, f in sublayers(args.top) if store.has(k, f)]
    if args.command == "verify":
        bad = 0
        for k, f in done:
            began = time.monotonic()
            errors, first = verify_store(store, k, f)
            _log(f"L{k:02d}F{f}: {errors} errors (first at {first}), "
                 f"{time.monotonic() - began:.0f} s")  # fmt: skip
            bad += errors
        return 1 if bad else 0
    if args.command == "check":
        tables = {(k, f): store.load(k, f, mmap=True) for k, f in done}
        lookup = check.raw_lookup(tables)
        bad = 0
        for k, f in done:
            moves = check.check_moves(k, f, args.samples, seed=k * 2 + f)
            below_ok = k - 2 == WON or (k - 2, 0) in tables
            values = (
                check.check_values(lookup, k, f, args.samples, seed=k * 2 + f) if below_ok else []
            )
            _log(f"L{k:02d}F{f}: {args.samples} positions, {len(moves)} move problems, "
                 f"{len(values)} value problems")  # fmt: skip
            for line in (moves + values)[:10]:
                _log("  " + line)
            bad += len(moves) + len(values)
        return 1 if bad else 0
    if args.command == "answer":
        for line in answer_lines(store):
            print(line)
        return 0
    if args.command == "stats":
        print(layer_table([store.stats(k, f) for k, f in done]))
        return 0
    if args.command == "strategy":
        if args.out is None:
            parser.error("strategy needs --out")
        return _strategy(store, args.out, args.work or args.raw / "strategy")
    if args.command == "pack":
        from ludotheque.solve.tables import file_name, pack, write_summary

        if args.out is None:
            parser.error("pack needs --out")
        for k, f in done:
            if k <= args.top and k in LAYERS and not (args.out / file_name(k, f)).exists():
                path = pack(store.load(k, f), k, f, args.out)
                _log(f"packed {path} ({path.stat().st_size:,} bytes)")
        every = [(k, f) for k, f in sublayers() if store.has(k, f)]
        summary = {name(k, f): store.stats(k, f).counts for k, f in every}
        _log(f"wrote {write_summary(summary, args.out)} ({len(summary)} sub-layers)")
        return 0
    return 2


def _strategy(store: RawStore, out: Path, work: Path) -> int:
    """Build the rebels' strategy from the start and after each opening, write it, check it."""
    import numpy as np

    from ludotheque.games.general.rules import GAME
    from ludotheque.solve import certificate
    from ludotheque.solve.layout import from_state
    from ludotheque.solve.strategy import build, describe

    start = GAME.start()
    openings = {str(m): start.play(m) for m in start.legal_moves()}
    began = time.monotonic()
    built = build(store, work, start=from_state(start),
                  general_roots=[from_state(s) for s in openings.values()], log=_log)  # fmt: skip
    _log(f"built {describe(built)} in {time.monotonic() - began:.0f} s")
    count = len(built.moves)
    keys = np.fromiter(built.moves.keys(), dtype=np.uint32, count=count)
    moves = np.fromiter((c.move for c in built.moves.values()), dtype=np.uint8, count=count)
    plies = np.fromiter((c.plies for c in built.moves.values()), dtype=np.uint8, count=count)
    from_start = {
        name: 1 + built.roots[certificate.state_key(after)] for name, after in openings.items()
    }
    path = certificate.write(out, keys, moves, plies, start=start, openings=from_start)
    _log(f"wrote {path} ({path.stat().st_size:,} bytes)")
    report = certificate.check(certificate.Strategy.read(path))
    _log(f"checked: {report.positions:,} positions, {len(report.problems)} problems, "
         f"{report.seconds:.0f} s")  # fmt: skip
    for line in report.problems[:10]:
        _log("  " + line)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
