"""The game records the training and calibration tools keep: one JSON file a game in a folder,
written whole (so that a stopped run resumes where it was), read back as the finished games.

Shared by ``tools/train_defiance.py`` and ``tools/calibrate_analysis.py`` (both run as scripts,
which puts this folder first on the import path).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ludotheque.core import Outcome
from ludotheque.record import InvalidRecord, Record


def save(path: Path, record: Record) -> None:
    """Write ``record`` to ``path`` at once (through a temporary file), never half a game."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(record.to_json(), encoding="utf-8")
    tmp.replace(path)


def finished(folder: Path) -> Iterator[tuple[Path, Record, Outcome]]:
    """Every game of ``folder`` played to its end (by file name), with its outcome: a file that
    is not a record, a game unfinished and a resignation (a result the position does not
    explain) are left out."""
    for path in sorted(folder.glob("*.json")):
        try:
            record = Record.from_json(path.read_text(encoding="utf-8"))
        except InvalidRecord:
            continue
        outcome = record.outcome()
        if outcome is None or outcome.reason == "resignation":
            continue
        yield path, record, outcome


def score(outcome: Outcome, side: str) -> float:
    """``side``'s final score: 1 won, 1/2 drawn, 0 lost."""
    return 0.5 if outcome.winner is None else 1.0 if outcome.winner == side else 0.0
