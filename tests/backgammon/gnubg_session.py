"""GNU Backgammon (the ``gnubg`` reference module) in a process of its own: its session (the
match in progress, the score, the players) is global, and a test that loads a match there must
not change what other tests of the same worker see."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest


def run_gnubg(body: str, data: Any) -> Any:
    """Run ``body`` (Python using ``gnubg``, reading ``data`` and setting ``result``) in a fresh
    process with both players human; return ``result`` (JSON)."""
    pytest.importorskip("gnubg")
    script = (
        textwrap.dedent(
            """
        import json, sys
        import gnubg
        gnubg.command("set player 0 human")
        gnubg.command("set player 1 human")
        data = json.loads(sys.stdin.read())
        result = None
        """
        )
        + textwrap.dedent(body)
        + "\nprint('@@RESULT@@' + json.dumps(result, default=str))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    marker = done.stdout.rindex("@@RESULT@@")
    return json.loads(done.stdout[marker + len("@@RESULT@@") :])
