"""The project's engines as they were at an earlier commit, beside today's in one process: the
benchmarks that measure an issue's work against the code before it (``bench/engine.py``,
``bench/bg_eval.py``) import them from here."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract_before(commit: str) -> None:
    """``ludotheque``'s core and games at ``commit``, importable as the package
    ``ludotheque_before``.

    Extracted once with ``git archive`` into the temporary directory (kept there for the next
    run); the games import only relatively, so the renamed copy runs beside today's code."""
    target = Path(tempfile.gettempdir()) / f"ludotheque-before-{commit[:12]}"
    package = target / "ludotheque_before"
    if not (package / "__init__.py").exists():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "ludotheque/__init__.py",
             "ludotheque/core.py", "ludotheque/games"],
            check=True, capture_output=True,
        ).stdout  # fmt: skip
        staging = Path(tempfile.mkdtemp(prefix="ludotheque-before-"))
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(staging, filter="data")
        target.mkdir(exist_ok=True)
        (staging / "ludotheque").rename(package)
    if str(target) not in sys.path:
        sys.path.insert(0, str(target))


GAME_ATTRIBUTES = ("calibration",)
"""Attributes of a game that today's agents (``ludotheque.ai``) read and that an older game may
lack: ``calibration``, the draw's value (``ai.agent.draw_value``), appeared after issue 21."""


def lend(before: object, now: object, names: Iterable[str] = GAME_ATTRIBUTES) -> None:
    """Give the older game ``before`` each attribute of ``names`` that it lacks, as today's game
    ``now`` has it (on the instance: today's engine is untouched).

    Today's agents can then play the old engines, and play them as they play today's (the same
    draw value), so that a comparison of the two measures the engines, not the agents."""
    for name in names:
        if not hasattr(before, name):
            setattr(before, name, getattr(now, name))
