"""``ludotheque serve`` as a real process: it answers, thinks for the computer in child
processes, and stops cleanly (no leaked semaphores from the computer's pool)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.netutil import call_json, free_port


def test_serve_plays_the_computer_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "LUDOTHEQUE_COMPUTER_DELAY": "0", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--port", str(port),
         "--db", str(tmp_path / "app.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        game = call_json(
            base + "/api/games", {"game": "general", "mode": "computer", "level": "easy"}
        )
        token = game["seats"]["both"].rsplit("/", 1)[1]
        call_json(f"{base}/api/play/{token}/move", {"move": "a2-b2", "ply": 0})
        while call_json(f"{base}/api/play/{token}")["ply"] < 2:
            assert time.monotonic() < deadline, "the computer did not move"
            time.sleep(0.1)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=20)
    text = output.decode(errors="replace")
    # uvicorn shuts down, then re-raises the SIGTERM it caught: -15 is a clean stop
    assert process.returncode in (0, -15), text
    assert "leaked" not in text and "Traceback" not in text, text


def test_serve_help_explains_host_and_port() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ludotheque", "serve", "--help"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "100"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # argparse wraps its lines
    assert "--host HOST the address to listen on (default 127.0.0.1" in text, text
    assert "--port PORT the port (default 8000)" in text, text
