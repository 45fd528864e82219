"""Both code paths of the games with an optional compiled core are tested: the rest of the
suite runs on whatever the install built (the C cores where a compiler was found), and this test
runs the rules tests of those games (and the research environments' fast paths, which have a
small compiled helper too) again on the pure-Python fallback
(``LUDOTHEQUE_PURE_PYTHON=1``), differential tests against OpenSpiel and perft tables included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_rules_tests_pass_on_the_pure_python_path() -> None:
    env = {**os.environ, "LUDOTHEQUE_PURE_PYTHON": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
         "tests/general", "tests/backgammon", "tests/envs/test_fast_paths.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
