"""``ludotheque serve`` as a real process: it answers, thinks for the computer in child
processes, and stops cleanly (no leaked semaphores from the computer's pool)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


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
        game = _call(base + "/api/games", {"game": "general", "mode": "computer", "level": "easy"})
        token = game["seats"]["both"].rsplit("/", 1)[1]
        _call(f"{base}/api/play/{token}/move", {"move": "a2-b2", "ply": 0})
        while _call(f"{base}/api/play/{token}")["ply"] < 2:
            assert time.monotonic() < deadline, "the computer did not move"
            time.sleep(0.1)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=20)
    text = output.decode(errors="replace")
    # uvicorn shuts down, then re-raises the SIGTERM it caught: -15 is a clean stop
    assert process.returncode in (0, -15), text
    assert "leaked" not in text and "Traceback" not in text, text
