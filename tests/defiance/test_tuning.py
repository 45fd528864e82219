"""The tuning of Defiance's evaluation by play (``tools/tune_defiance.py``): it moves only what it
is asked to move, keeps the progress weights on their side of zero, resumes where it stopped,
and the tuned weights are the mean of the second half of its steps."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from ludotheque.games.defiance import evaluation

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "tune_defiance.py"
sys.path.insert(0, str(ROOT / "tools"))  # the tool's own imports (its sibling modules)
TUNE = runpy.run_path(str(TOOL))  # the tool's names, read as a script (it is not a package)
HAND_WEIGHTS = TUNE["HAND_WEIGHTS"]
PROGRESS = TUNE["PROGRESS"]


def run(folder: Path, iterations: int) -> None:
    subprocess.run(
        [sys.executable, str(TOOL), "spsa", "--rebels", "--dir", str(folder),
         "--iterations", str(iterations), "--jobs", "1"],
        check=True, capture_output=True, timeout=300, cwd=ROOT,
    )  # fmt: skip


def test_a_rebels_run_moves_the_progress_weights_only_and_resumes(tmp_path: Path) -> None:
    run(tmp_path, 1)
    first = (tmp_path / "spsa.log").read_text().splitlines()
    assert len(first) == 1 and json.loads((tmp_path / "spsa.json").read_text())["iteration"] == 1
    run(tmp_path, 2)  # resumes: one more step, the first kept as it was
    steps = [json.loads(line) for line in (tmp_path / "spsa.log").read_text().splitlines()]
    assert len(steps) == 2 and json.dumps(steps[0]) == json.dumps(json.loads(first[0]))
    for step in steps:
        for name, value, hand in zip(evaluation.FEATURES, step["theta"], HAND_WEIGHTS, strict=True):
            if name not in PROGRESS:
                assert value == hand, name
            elif name in ("progress", "weakest", "controlled"):
                assert value >= 0, name
            else:
                assert value <= 0, name


def test_the_tuned_weights_are_the_mean_of_the_second_half(tmp_path: Path) -> None:
    thetas = [[float(i)] * len(HAND_WEIGHTS) for i in range(4)]
    thetas[3][3] = 5.0  # "need" must stay at or below zero: held at zero
    (tmp_path / "spsa.log").write_text("".join(json.dumps({"theta": t}) + "\n" for t in thetas))
    tuned = TUNE["tuned"](tmp_path)
    assert tuned[0] == pytest.approx(2.5) and tuned[3] == 0.0
    assert tuned[-1] == pytest.approx(2.5)  # a free weight: the plain mean of steps 2 and 3
