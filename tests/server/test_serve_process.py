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


def test_sigterm_closes_sockets_with_1012_and_json_logs_are_lines(tmp_path: Path) -> None:
    """On SIGTERM a server closes its sockets with 1012 (service restart: the pages connect
    again at once, to any process) and stops; with LUDOTHEQUE_LOG_FORMAT=json every line it
    logs is a JSON object."""
    from websockets.sync.client import connect

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LUDOTHEQUE_LOG_FORMAT": "json",
           "LUDOTHEQUE_COMPUTER_DELAY": "0", "LUDOTHEQUE_JOB_TIME_LIMIT": "0.001",
           "LUDOTHEQUE_JOB_ATTEMPTS": "1"}  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--port", str(port),
         "--db", str(tmp_path / "app.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/readyz", timeout=1).read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        # a computer that cannot think in time: a warning, then its quickest move
        game = call_json(base + "/api/games", {"game": "general", "mode": "computer",
                                               "side": "general", "level": "hard"})  # fmt: skip
        token = game["seats"]["both"].rsplit("/", 1)[1]
        while call_json(f"{base}/api/play/{token}")["ply"] < 1:
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.1)
        with connect(f"ws://127.0.0.1:{port}/ws/{token}", proxy=None) as ws:
            ws.recv(timeout=10)
            process.terminate()
            began = time.monotonic()
            try:
                while True:
                    ws.recv(timeout=10)
            except Exception:
                pass
            assert ws.close_code == 1012, ws.close_code
            assert time.monotonic() - began < 5
    finally:
        if process.poll() is None:
            process.terminate()
        _out, err = process.communicate(timeout=20)
    assert process.returncode in (0, -15)
    lines = [line for line in err.decode(errors="replace").splitlines() if line.strip()]
    import json

    logged = [json.loads(line) for line in lines]  # whatever was logged: an object a line
    assert any(e["level"] == "warning" and e["logger"] == "ludotheque.worker" for e in logged)
