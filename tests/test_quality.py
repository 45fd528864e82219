"""Lint and type checks are part of the suite: ``ruff check`` on everything, strict ``mypy`` on
the package, ``mypy`` on the tests (a little less strictly: ``pyproject.toml``'s override for
``tests.*``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_check() -> None:
    result = _run("ruff", "check", "--output-format", "concise", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_package() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_on_the_tests() -> None:
    result = _run("mypy", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
