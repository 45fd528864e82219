"""A solve killed after a finished sub-layer starts again from the sub-layers kept on disk and
gives the same tables (those of 6 rebels: the smallest); the tool and the command show their
progress."""

from __future__ import annotations

import io
import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ludotheque.solve.retrograde import Progress, RawStore
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
    assert f"L06F1 retrograde [{'#' * 30}] 100.0%" in err  # its progress, in a log
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


def test_the_command_resumes_with_a_progress_bar(
    killed: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ludotheque solve general builds what the package lacks: here, as if it shipped nothing
    from ludotheque.cli import main
    from ludotheque.solve import command

    monkeypatch.setattr(command, "SHIPPED_TOP", 4)
    shutil.copytree(killed, tmp_path / "raw")
    assert main(["solve", "general", "--top", "6", "--dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "solving L06F1" in out and "solving L06F0" not in out
    # the bar of each pass of the sub-layer solved, on standard error, up to its end
    lines = err.splitlines()
    assert f"L06F1 first pass [{'#' * 30}] 100.0%" in lines[0]
    assert any(f"L06F1 retrograde [{'#' * 30}] 100.0%" in line and "longest" in line
               for line in lines)  # fmt: skip
    assert not any(line.startswith("L06F0") for line in lines)
    # its tables are the package's, and its solver's files are gone
    for flight in (0, 1):
        mine = read(tmp_path / file_name(6, flight))
        shipped = read(PACKAGE_FOLDER / file_name(6, flight))
        assert np.array_equal(np.asarray(mine.codes), np.asarray(shipped.codes))
    assert not (tmp_path / "raw").exists()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar() -> None:
    # on a terminal: one line redrawn at each update, ended by a newline
    screen = Terminal()
    bar = Progress(screen)
    bar.start("L08F1 first pass", 4)
    bar.update(1)
    bar.update(4, "done")
    bar.finish()
    drawn = screen.getvalue()
    assert drawn.count("\r") == 3 and drawn.endswith("\n")
    assert f"\rL08F1 first pass [{'#' * 7}{'.' * 23}]  25.0%" in drawn
    assert f"[{'#' * 30}] 100.0%" in drawn and "done" in drawn
    # in a log: a line every `every` seconds, and the last one
    log = io.StringIO()
    bar = Progress(log, every=3600)
    bar.start("L08F1 retrograde", 10)
    for done in range(1, 11):
        bar.update(done)
    bar.finish()
    assert log.getvalue().count("\n") == 1 and "100.0%" in log.getvalue()
