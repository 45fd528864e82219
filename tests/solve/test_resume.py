"""A solve killed after a finished sub-layer starts again from the sub-layers kept on disk and
gives the same tables (those of 6 rebels: the smallest)."""

from __future__ import annotations

import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ludotheque.solve.retrograde import RawStore
from ludotheque.solve.tables import PACKAGE_FOLDER, SUMMARY, file_name, read, side_codes

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "solve_general.py"
# the tool, killed (SIGKILL: nothing cleans up) in the middle of the retrograde pass of L06F1,
# after L06F0 was finished and kept
KILLED = """
import os, runpy, signal, sys
from ludotheque.solve.retrograde import Progress
update = Progress.update
def update_then_die(self, done, note=""):
    if self.label == "L06F1 retrograde" and done > 0:
        os.kill(os.getpid(), signal.SIGKILL)
    update(self, done, note)
Progress.update = update_then_die
sys.argv = [sys.argv[1], "solve", "--raw", sys.argv[2], "--top", "6"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A raw store as a killed solve left it (copy it before use)."""
    folder = tmp_path_factory.mktemp("killed") / "raw"
    run = subprocess.run(
        [sys.executable, "-c", KILLED, str(TOOL), str(folder)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert run.returncode == -9, run.stderr
    assert "solving L06F0" in run.stderr and "solving L06F1" in run.stderr
    store = RawStore(folder)
    assert store.has(6, 0) and not store.has(6, 1)
    return folder


def solve_with_the_tool(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``tools/solve_general.py solve --raw folder --top 6`` in this process: its log."""
    argv = sys.argv
    sys.argv = [str(TOOL), "solve", "--raw", str(folder), "--top", "6"]
    try:
        with pytest.raises(SystemExit) as stop:
            runpy.run_path(str(TOOL), run_name="__main__")
    finally:
        sys.argv = argv
    assert stop.value.code == 0
    return capsys.readouterr().err


def test_a_killed_solve_resumes(
    killed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "raw"
    shutil.copytree(killed, folder)
    # what a kill while saving L06F1 would leave: a partial file beside the finished ones
    (folder / "L06F1.npy.tmp").write_bytes((folder / "L06F0.npy").read_bytes()[:5000])
    kept = (folder / "L06F0.npy").stat()
    err = solve_with_the_tool(folder, capsys)
    # only the unfinished sub-layer was solved; the finished one was read, not rewritten
    assert "solving L06F1" in err and "solving L06F0" not in err
    again = (folder / "L06F0.npy").stat()
    assert (again.st_ino, again.st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)
    assert sorted(p.name for p in folder.iterdir()) == [
        "L06F0.json", "L06F0.npy", "L06F1.json", "L06F1.npy"
    ]  # fmt: skip
    # the same result as the whole solve that made the package: its tables and its counts
    store = RawStore(folder)
    counts = json.loads((PACKAGE_FOLDER / SUMMARY).read_text())["counts"]
    for flight in (0, 1):
        shipped = read(PACKAGE_FOLDER / file_name(6, flight))
        assert np.array_equal(np.asarray(shipped.codes), side_codes(store.load(6, flight), 6))
        assert store.stats(6, flight).counts == counts[f"L06F{flight}"]
    # and once everything is solved, solving again does nothing
    assert "solving" not in solve_with_the_tool(folder, capsys)
