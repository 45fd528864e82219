"""Both code paths of the games with an optional compiled core are tested: the rest of the
suite runs on whatever the install built (the C cores where a compiler was found), and this test
runs again, on the pure-Python fallback (``LUDOTHEQUE_PURE_PYTHON=1``), the tests that go
through a compiled core or helper: the rules tests of those games (differential tests against
OpenSpiel and perft tables included), the research environments' tests (their fast paths, the
encodings, the OpenSpiel and PettingZoo adapters and the examples, which go through the
environments' compiled helper) and the agents' and arena's tests (the search's roll-outs run in
backgammon's core). The two groups run as two tests, so that the suite's workers share them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

GROUPS = {
    "rules": ("tests/general", "tests/backgammon"),
    "environments and agents": ("tests/envs", "tests/ai/test_agents.py", "tests/ai/test_arena.py"),
}


@pytest.mark.slow
@pytest.mark.parametrize("group", list(GROUPS))
def test_the_tests_pass_on_the_pure_python_path(group: str) -> None:
    env = {**os.environ, "LUDOTHEQUE_PURE_PYTHON": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
         *GROUPS[group]],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
