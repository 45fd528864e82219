"""``ludotheque serve --workers N``: N processes on one port, sharing moves through PostgreSQL;
on SQLite it refuses, saying why."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.netutil import call_json, free_port


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ludotheque", "serve", "--workers", "2",
         "--db", str(tmp_path / "app.sqlite3"), "--port", str(free_port())],
        capture_output=True, text=True, timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("LUDOTHEQUE_")},
    )  # fmt: skip
    assert done.returncode == 2 and "PostgreSQL" in done.stderr


def test_two_workers_on_one_port_play_one_game(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTHEQUE_")}
    env.update(PYTHONUNBUFFERED="1", LUDOTHEQUE_CREATE_PER_MINUTE="0",
               LUDOTHEQUE_MOVES_PER_MINUTE="0")  # fmt: skip
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--workers", "2", "--db", pg_url,
         "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                if len(children(process.pid)) >= 2:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        created = call_json(base + "/api/games", {"game": "general", "mode": "friend"})
        rebels = created["seats"]["rebels"].rsplit("/", 1)[1]
        general = created["seats"]["general"].rsplit("/", 1)[1]
        # each request may land on either process: the database keeps them in step
        moves = [(rebels, "a2-b2"), (general, "c3-b4"), (rebels, "a1-a2")]
        for ply, (token, move) in enumerate(moves):
            state = call_json(f"{base}/api/play/{token}/move", {"move": move, "ply": ply})
            assert state["ply"] == ply + 1
        for _ in range(20):  # both processes answer with the whole game
            history = call_json(f"{base}/api/play/{general}")["history"]
            assert [h["text"] for h in history] == ["a2-b2", "c3-b4xa3c5", "a1-a2"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
