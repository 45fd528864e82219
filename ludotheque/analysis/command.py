"""``ludotheque analyse GAME.json``: the annotated game and the summary, or ``--json`` data."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .strength import DEFAULT, NAMES


def add_parser(commands: Any) -> None:
    """Add the ``analyse`` subcommand to the ``ludotheque`` command's subparsers."""
    parser = commands.add_parser(
        "analyse", help="analyse a saved game: its errors, the better moves, a summary per side"
    )
    parser.add_argument("record", type=Path, help="a game record (JSON), as 'play' saves it")
    parser.add_argument(
        "--strength", choices=NAMES, default=DEFAULT,
        help=f"how hard the engine looks (default {DEFAULT})",
    )  # fmt: skip
    parser.add_argument("--top", type=int, default=3, help="best moves kept per decision")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON data")


def run(args: argparse.Namespace) -> int:
    """Analyse the record named by ``args`` and print the result."""
    from ..record import InvalidRecord, Record
    from .review import analyse
    from .text import render

    try:
        text = args.record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"ludotheque: cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    try:
        record = Record.from_json(text)
    except InvalidRecord as exc:
        print(f"ludotheque: {args.record} is not a game record: {exc}", file=sys.stderr)
        return 2
    if args.top < 1:
        print("ludotheque: --top must be at least 1", file=sys.stderr)
        return 2
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            print(f"\ranalysing: {done}/{total} plies", end="", file=sys.stderr, flush=True)

    result = analyse(record, args.strength, top=args.top, progress=progress)
    if show:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    if args.json:
        print(result.to_json())
    else:
        print(render(result, record.players))
    return 0


__all__ = ["add_parser", "run"]
