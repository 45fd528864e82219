"""No orphans: the processes of ``ludotheque serve`` (with ``--workers N`` too) and of
``ludotheque worker`` end with them, even when they are killed by ``kill -9``.

Each test starts the real command, has it start what it starts in use (the computer's pool,
the hint pool, multiprocessing's resource tracker; with ``--workers 2`` the server processes
and their pools), lists every process under it from ``/proc``, kills it with SIGKILL and
expects all of them gone within ``GONE_TIMEOUT`` (they end in a tenth of a second; before
``ludotheque.server.compute.lifeline`` they stayed for good). Survivors are killed at teardown.

The others test the lifeline itself: the kill signal is asked for only by children started
from the parent's main thread (a pool started from another thread keeps working when that
thread ends), and the watch alone ends a child whose parent was killed.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from ludotheque.server.compute.lifeline import EXIT_CODE, Lifeline
from ludotheque.server.compute.pool import ComputerPool
from tests.netutil import call_json, free_port
from tests.scale.test_processes import die_with_us

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="lists processes from Linux's /proc"
)

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
GONE_TIMEOUT = 5.0
SETTINGS = {
    "LUDOTHEQUE_COMPUTER_DELAY": "0",
    "LUDOTHEQUE_MOVES_PER_MINUTE": "0",
    "LUDOTHEQUE_CREATE_PER_MINUTE": "0",
    "PYTHONUNBUFFERED": "1",
}


# -- processes, from /proc ------------------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command's name (state, ppid, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def descendants(root: int) -> dict[int, str]:
    """Every live process under ``root`` (its children, theirs...): pid → start time."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[0] not in "ZX":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            fields = _stat(pid)
            if fields is not None:
                found[pid] = fields[19]  # field 22: the start time, against reused pids
                todo.append(pid)
    return found


def alive(pid: int, start: str) -> bool:
    """Whether that process still runs (a zombie no longer does: it waits to be reaped)."""
    fields = _stat(pid)
    return fields is not None and fields[19] == start and fields[0] not in "ZX"


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:160]
    except OSError:
        return "(gone)"


def parent_of(pid: int) -> int:
    fields = _stat(pid)
    return -1 if fields is None else int(fields[1])


@dataclass(frozen=True)
class Seen:
    """A process as it was seen running."""

    parent: int
    line: str


def look(processes: dict[int, str]) -> dict[int, Seen]:
    return {pid: Seen(parent_of(pid), command_line(pid)) for pid in processes}


def describe(seen: dict[int, Seen]) -> str:
    return "\n".join(f"  {pid} (parent {s.parent}): {s.line}" for pid, s in seen.items())


def kinds(seen: dict[int, Seen]) -> tuple[int, int]:
    """How many are resource trackers, how many spawned by multiprocessing."""
    lines = [s.line for s in seen.values()]
    return (
        sum("resource_tracker" in line for line in lines),
        sum("spawn_main" in line for line in lines),
    )


def survivors_of(processes: dict[int, str], timeout: float = GONE_TIMEOUT) -> dict[int, str]:
    """Those of ``processes`` still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = {pid: start for pid, start in processes.items() if alive(pid, start)}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


class Command:
    """``python -m ludotheque <args>`` in a session of its own, its output in ``log``;
    ``close`` kills it and whatever it left."""

    def __init__(self, args: list[str], log: Path, **settings: str) -> None:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("LUDOTHEQUE_") and k != "DATABASE_URL"}  # fmt: skip
        env.update(SETTINGS, **settings)
        self.name = args[0]
        self.log = log
        self.out: IO[bytes] = log.open("ab")
        self.seen: dict[int, str] = {}
        self.before: dict[int, Seen] = {}
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "ludotheque", *args], cwd=ROOT, env=env,
            stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=die_with_us(),
        )  # fmt: skip

    def descendants(self) -> dict[int, str]:
        found = descendants(self.popen.pid)
        self.seen.update(found)
        return found

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill9(self) -> dict[int, str]:
        """``kill -9`` it; what ran under it just before (as they were in ``before``)."""
        under = self.descendants()
        self.before = look(under)
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(10)
        return under

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(10)
        for pid, start in self.seen.items():  # orphans, if the test failed
            if alive(pid, start):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        self.out.close()


@pytest.fixture
def commands() -> Iterator[list[Command]]:
    started: list[Command] = []
    yield started
    for command in started:
        command.close()


def serve(commands: list[Command], tmp_path: Path, db: str, *more: str, **settings: str
          ) -> tuple[Command, str]:  # fmt: skip
    """A started ``ludotheque serve`` and its address."""
    port = free_port()
    name = f"serve{len(commands)}"
    command = Command(["serve", "--db", db, "--port", str(port), *more],
                      tmp_path / f"{name}.log", **settings)  # fmt: skip
    commands.append(command)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        assert command.popen.poll() is None, command.output()
        try:
            urllib.request.urlopen(base + "/", timeout=1).read()
            return command, base
        except OSError:
            assert time.monotonic() < deadline, f"the server did not start\n{command.output()}"
            time.sleep(0.1)


def computer_game(base: str) -> str:
    """A General game against the computer, with our first move played: its seat's token."""
    game = call_json(base + "/api/games", {"game": "general", "mode": "computer", "level": "easy"})
    token = game["seats"]["both"].rsplit("/", 1)[1]
    call_json(f"{base}/api/play/{token}/move", {"move": "a2-b2", "ply": 0})
    return str(token)


def wait_for_the_computer(base: str, token: str, *logs: Command) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while call_json(f"{base}/api/play/{token}")["ply"] < 2:
        assert time.monotonic() < deadline, "the computer did not move\n" + "\n".join(
            c.output() for c in logs
        )
        time.sleep(0.1)


def hint(base: str, token: str) -> None:
    answer = call_json(f"{base}/api/play/{token}/hints", {})
    assert answer["moves"], answer


def assert_all_end(command: Command, before: dict[int, str]) -> None:
    left = survivors_of(before)
    assert not left, (
        f"{len(left)} of the {len(before)} processes under the killed {command.name} "
        f"still run {GONE_TIMEOUT:.0f} s later:\n{describe(look(left))}\n"
        f"{command.output()[-3000:]}"
    )


# -- kill -9 of the commands ----------------------------------------------------------------


def test_kill_9_of_serve_ends_its_pools_and_tracker(
    commands: list[Command], tmp_path: Path
) -> None:
    server, base = serve(commands, tmp_path, str(tmp_path / "app.sqlite3"))
    token = computer_game(base)
    wait_for_the_computer(base, token, server)  # the computer's pool
    hint(base, token)  # the hint pool
    before = server.kill9()
    trackers, spawned = kinds(server.before)
    assert (trackers, spawned >= 2) == (1, True), describe(server.before)  # and two pools
    assert_all_end(server, before)


def test_kill_9_of_a_worker_ends_its_pool_and_tracker(
    commands: list[Command], tmp_path: Path
) -> None:
    db = str(tmp_path / "app.sqlite3")
    server, base = serve(commands, tmp_path, db, LUDOTHEQUE_COMPUTER="queue")
    token = computer_game(base)  # a job for the worker
    worker = Command(["worker", "--db", db], tmp_path / "worker.log", LUDOTHEQUE_COMPUTER="queue")
    commands.append(worker)
    wait_for_the_computer(base, token, worker, server)
    before = worker.kill9()
    trackers, spawned = kinds(worker.before)
    assert (trackers, spawned >= 1) == (1, True), describe(worker.before)  # and a pool
    assert_all_end(worker, before)


def test_kill_9_of_serve_workers_ends_its_servers_and_their_pools(
    commands: list[Command], tmp_path: Path, pg_url: str
) -> None:
    supervisor, base = serve(commands, tmp_path, pg_url, "--workers", "2")
    deadline = time.monotonic() + START_TIMEOUT
    while kinds(look(supervisor.descendants()))[1] < 2:  # both server processes
        assert time.monotonic() < deadline, supervisor.output()
        time.sleep(0.1)
    token = computer_game(base)
    wait_for_the_computer(base, token, supervisor)
    for _ in range(3):  # on either server process
        hint(base, token)
    before = supervisor.kill9()
    seen = supervisor.before
    children = [pid for pid, s in seen.items() if s.parent == supervisor.popen.pid]
    pools = [pid for pid, s in seen.items() if s.parent in children]
    # the tracker and two servers; under the servers, the pools they started
    assert kinds(seen)[0] == 1 and len(children) == 3 and pools, describe(seen)
    assert_all_end(supervisor, before)


# -- the lifeline ---------------------------------------------------------------------------


def test_a_lifeline_says_which_thread_started_the_child() -> None:
    here = pickle.loads(pickle.dumps(Lifeline()))
    assert (here.parent, here.main_thread) == (os.getpid(), True)
    found: list[Lifeline] = []
    thread = threading.Thread(target=lambda: found.append(pickle.loads(pickle.dumps(Lifeline()))))
    thread.start()
    thread.join()
    assert (found[0].parent, found[0].main_thread) == (os.getpid(), False)


def test_a_pool_started_from_a_passing_thread_outlives_it() -> None:
    """The kill signal comes when the thread that started a child ends: a pool whose
    processes a short-lived thread started (as under a test client) must keep them."""
    pool = ComputerPool(1)
    try:
        first: list[int] = []
        thread = threading.Thread(target=lambda: first.append(pool.pool.submit(os.getpid).result()))
        thread.start()
        thread.join()
        time.sleep(0.3)  # a kill signal would have come by now
        assert pool.pool.submit(os.getpid).result(timeout=30) == first[0]
    finally:
        pool.close()


PARENT = """
import os, sys, threading
from ludotheque.server.compute.pool import ComputerPool
pool = ComputerPool(1)
pids = []
thread = threading.Thread(target=lambda: pids.append(pool.pool.submit(os.getpid).result()))
thread.start()
thread.join()
print(pids[0], flush=True)
threading.Event().wait()
"""


def test_the_watch_alone_ends_a_child_whose_parent_was_killed() -> None:
    """A pool process started from another thread has no kill signal: its watch ends it."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=die_with_us(),
    )  # fmt: skip
    assert parent.stdout is not None
    under: dict[int, str] = {}
    try:
        pid = int(parent.stdout.readline())
        under = descendants(parent.pid)  # the pool's process and the tracker
        assert pid in under and kinds(look(under)) == (1, 1), describe(look(under))
        time.sleep(0.3)
        assert alive(pid, under[pid])  # no kill signal when the starting thread ended
        parent.kill()
        parent.wait(10)
        assert not survivors_of(under), describe(look(under))
    finally:
        parent.kill()
        parent.wait(10)
        for pid, start in under.items():
            if alive(pid, start):
                os.kill(pid, signal.SIGKILL)
        parent.stdout.close()


def test_a_child_whose_parent_is_already_gone_leaves_at_once() -> None:
    code = (
        "from ludotheque.server.compute.lifeline import end_with_parent\n"
        "assert end_with_parent() is False\n"  # not started by multiprocessing: nothing to do
        "end_with_parent(2**22 + 1)\n"  # not our parent: it must have died
        "print('still here')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert (done.returncode, done.stdout) == (EXIT_CODE, ""), done.stderr
