"""Several processes on one database: two ``ludotheque serve`` and a ``ludotheque worker``.

Each test gets a fresh PostgreSQL database (``pg_url``; skipped without PostgreSQL, except in
CI) and starts real processes on it, as a deployment runs them: the computer is thought only by
worker processes (``LUDOTHEQUE_COMPUTER=queue``), with no pause before its moves, a heartbeat
of half a second (a dead worker's job is taken again 1.5 s after its last renewal) and the rate
limits off. Their output goes to files in ``tmp_path``, and every failed assertion quotes the
end of each; every process is killed at teardown.

The tests talk to the processes as clients do: REST with httpx2, WebSockets with
``websockets.sync``, and, for the job queue, SQL on the same database. Besides live moves, the
race, ``kill -9`` of a server and of a thinking worker, two tests guard what the first
versions of these found: the process that loses a race tells its own sockets of the winner's
move, and a process that is reading a game when another process moves in it catches up.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TypeVar

import httpx2
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.netutil import joined

T = TypeVar("T")
HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
"""Seconds a process has to be ready (they take one or two)."""

SETTINGS = {
    "LUDOTHEQUE_COMPUTER": "queue",  # the servers do not think: the workers do
    "LUDOTHEQUE_COMPUTER_DELAY": "0",
    "LUDOTHEQUE_JOB_HEARTBEAT": "0.5",  # a dead worker's job is taken again after 1.5 s
    "LUDOTHEQUE_MOVES_PER_MINUTE": "0",  # no rate limits: every request comes from 127.0.0.1
    "LUDOTHEQUE_CREATE_PER_MINUTE": "0",
    "LUDOTHEQUE_BUS": "postgresql",  # what "auto" chooses on PostgreSQL: said, not inherited
    "PYTHONUNBUFFERED": "1",
}

LIVE_MOVES = 10
RACE_TRIALS = 120
ACKNOWLEDGED_MOVES = 6
LOSER_TRIALS = 10
LOAD_TRIALS = 200
COMPUTER_TIMEOUT = 30.0


# -- processes ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def environment() -> dict[str, str]:
    """Ours, without any LUDOTHEQUE_* or DATABASE_URL of the caller's, plus ``SETTINGS``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("LUDOTHEQUE_") and k != "DATABASE_URL"
    }
    return {**env, **SETTINGS}


def die_with_us() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to kill the child if this test process dies, so that a
    crashed or killed test worker leaves no server running. Only from the main thread (the
    signal comes when the thread that started the child ends)."""
    if (
        not sys.platform.startswith("linux")
        or threading.current_thread() is not threading.main_thread()
    ):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl

    def preexec() -> None:
        prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG

    return preexec


class Process:
    """One process of the deployment (in a session of its own), its output in ``log``."""

    def __init__(self, name: str, kind: str, db_url: str, log: Path) -> None:
        self.name = name
        self.kind = kind  # serve | worker
        self.db_url = db_url
        self.log = log
        self.port = free_port() if kind == "serve" else 0
        self.popen: subprocess.Popen[bytes] | None = None
        self.out: IO[bytes] | None = None
        self.client: httpx2.Client | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def command(self) -> list[str]:
        args = [sys.executable, "-m", "ludotheque", self.kind, "--db", self.db_url]
        return [*args, "--port", str(self.port)] if self.kind == "serve" else args

    def launch(self) -> None:
        if self.out is not None:
            self.out.close()
        self.out = self.log.open("ab")
        self.popen = subprocess.Popen(
            self.command(), cwd=ROOT, env=environment(), stdin=subprocess.DEVNULL,
            stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=die_with_us(),
        )  # fmt: skip

    def exited(self) -> int | None:
        return None if self.popen is None else self.popen.poll()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self, lines: int = 25) -> str:
        kept = [line for line in self.output().splitlines() if "alembic.runtime" not in line]
        return "\n".join(kept[-lines:])

    def ready(self) -> bool:
        if self.kind == "worker":
            return "Ludothèque worker:" in self.output()
        try:
            return self.http.get("/api/archive", timeout=1.0).status_code == 200
        except httpx2.HTTPError:
            return False

    @property
    def http(self) -> httpx2.Client:
        if self.client is None:
            self.client = httpx2.Client(base_url=self.url, trust_env=False, timeout=30.0)
        return self.client

    def kill(self) -> None:
        """``kill -9`` of the process and of its whole group (a worker's thinking children)."""
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.popen is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self.popen.kill()
            self.popen.wait(timeout=15)
        if self.out is not None:
            self.out.close()
            self.out = None


class Deployment:
    """The processes of one test on one database."""

    def __init__(self, db_url: str, folder: Path) -> None:
        self.db_url = db_url
        self.folder = folder
        self.processes: list[Process] = []

    def add(self, name: str, kind: str) -> Process:
        process = Process(name, kind, self.db_url, self.folder / f"{name}.log")
        self.processes.append(process)
        return process

    def server(self, name: str) -> Process:
        return self.add(name, "serve")

    def worker(self, name: str) -> Process:
        return self.add(name, "worker")

    def start(self, *processes: Process) -> None:
        """Launch ``processes`` together and wait until each is ready (a server answers HTTP,
        its bus listening; a worker has printed its banner, its bus listening too)."""
        for p in processes:
            p.launch()
        deadline = time.monotonic() + START_TIMEOUT
        waiting = list(processes)
        while waiting:
            for p in list(waiting):
                if p.ready():
                    waiting.remove(p)
                elif p.exited() is not None:
                    if p.kind == "serve" and "address already in use" in p.output().lower():
                        p.port = free_port()  # someone took the port between check and bind
                        p.launch()
                        continue
                    raise AssertionError(f"{p.name} exited with {p.exited()}\n{self.logs()}")
            if waiting and time.monotonic() > deadline:
                names = ", ".join(p.name for p in waiting)
                raise AssertionError(f"not ready in {START_TIMEOUT:.0f} s: {names}\n{self.logs()}")
            if waiting:
                time.sleep(0.05)

    def logs(self) -> str:
        """The end of every process's output, for assertion messages."""
        parts = []
        for p in self.processes:
            code = p.exited()
            status = "running" if code is None else f"exited {code}"
            pid = p.popen.pid if p.popen is not None else "-"
            parts.append(f"--- {p.name} (pid {pid}, {status}; {p.log}):\n{p.tail()}")
        return "\n".join(parts)

    def close(self) -> None:
        for p in self.processes:
            with contextlib.suppress(Exception):
                p.kill()

    # -- the jobs table, read directly

    def jobs(self, game_id: str) -> list[dict[str, Any]]:
        import psycopg
        from psycopg.rows import dict_row

        conninfo = self.db_url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(conninfo, autocommit=True, row_factory=dict_row) as conn:
            return list(
                conn.execute(
                    "SELECT id, seq, status, worker, attempts, error FROM jobs"
                    " WHERE game_id = %s ORDER BY id",
                    (game_id,),
                ).fetchall()
            )


@pytest.fixture
def deployment(pg_url: str, tmp_path: Path) -> Iterator[Deployment]:
    """Nothing started yet: the test says which processes it needs."""
    d = Deployment(pg_url, tmp_path)
    try:
        yield d
    finally:
        d.close()


@pytest.fixture
def trio(deployment: Deployment) -> tuple[Process, Process, Process]:
    """Server A, server B and a worker, running."""
    a, b, w = deployment.server("A"), deployment.server("B"), deployment.worker("W")
    deployment.start(a, b, w)
    return a, b, w


# -- clients ------------------------------------------------------------------------------


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def create(d: Deployment, p: Process, **spec: Any) -> dict[str, Any]:
    response = p.http.post("/api/games", json=spec)
    assert response.status_code == 201, f"{response.text}\n{d.logs()}"
    return dict(response.json())


def state_of(d: Deployment, p: Process, token: str) -> dict[str, Any]:
    response = p.http.get(f"/api/play/{token}")
    assert response.status_code == 200, f"{p.name}: {response.text}\n{d.logs()}"
    return dict(response.json())


def reached(ply: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a state has reached ``ply``."""
    return lambda state: int(state["ply"]) >= ply


def poll_state(
    d: Deployment, p: Process, token: str, done: Callable[[dict[str, Any]], bool],
    what: str, timeout: float = 10.0,
) -> dict[str, Any]:  # fmt: skip
    deadline = time.monotonic() + timeout
    while True:
        state = state_of(d, p, token)
        if done(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{p.name} never showed {what} within {timeout} s; it shows ply {state['ply']}, "
                f"history {[h['text'] for h in state['history']]}\n{d.logs()}"
            )
        time.sleep(0.02)


class Live:
    """A WebSocket on a seat of a game, and the plies of the states it received."""

    def __init__(self, name: str, p: Process, token: str) -> None:
        self.name = name
        self.ws: ClientConnection = connect(
            f"ws://{HOST}:{p.port}/ws/{token}", open_timeout=10, proxy=None
        ).__enter__()  # as a context manager: websockets 17 warns otherwise
        self.plies: list[int] = []
        self.last: dict[str, Any] | None = None  # the newest state, its history whole

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def state(self, d: Deployment, what: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next state this socket receives (``what`` says what it should bring)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                message = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                raise AssertionError(
                    f"{self.name} received no state ({what}) within {timeout:.1f} s; "
                    f"plies received: {self.plies}\n{d.logs()}"
                ) from None
            if message.get("type") == "state":
                self.last = joined(self.last, message["game"])
                self.plies.append(self.last["ply"])
                return dict(self.last)
            if message.get("type") == "error":
                raise AssertionError(f"{self.name} was told {message} ({what})\n{d.logs()}")

    def until(self, d: Deployment, ply: int, what: str, timeout: float = 10.0) -> dict[str, Any]:
        """The first state received at ``ply`` or beyond. States at a ply already seen are
        passed over: a broadcast sends the game as it is when it is sent, so that two
        broadcasts of one process may both send its newest state."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(d, what, timeout=max(0.01, deadline - time.monotonic()))
            if state["ply"] >= ply:
                return state

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.__exit__(None, None, None)


# -- the tests ----------------------------------------------------------------------------


def test_every_move_reaches_every_socket_on_both_processes(
    deployment: Deployment, trio: tuple[Process, Process, Process]
) -> None:
    """A friend game made on A; the rebels and a watcher on A, the general and a watcher on B.
    The rebels move through A, the general through B, and every move reaches all four
    sockets, with the right ply and the move last in the history."""
    d = deployment
    a, b, _ = trio
    created = create(d, a, game="general", mode="friend")
    rebels, general = (token_of(created["seats"][s]) for s in ("rebels", "general"))
    watch = token_of(created["watch"])
    with contextlib.ExitStack() as stack:
        sockets = {
            "rebels on A": Live("rebels on A", a, rebels),
            "general on B": Live("general on B", b, general),
            "watcher on A": Live("watcher on A", a, watch),
            "watcher on B": Live("watcher on B", b, watch),
        }
        for s in sockets.values():
            stack.callback(s.close)
        first = {name: s.state(d, "the state on connecting") for name, s in sockets.items()}
        assert all(f["ply"] == 0 for f in first.values()), first
        assert first["rebels on A"]["can_move"] and not first["general on B"]["can_move"]
        assert first["watcher on B"]["watch"] and first["general on B"]["seat"] == "general"
        movers = {"rebels": sockets["rebels on A"], "general": sockets["general on B"]}
        rng = random.Random(20240601)
        state = first["rebels on A"]
        for ply in range(LIVE_MOVES):
            side = state["to_move"]
            assert side == ("rebels", "general")[ply % 2], state
            move = rng.choice(state["legal"])
            movers[side].send({"type": "move", "move": move, "ply": ply})
            what = f"ply {ply + 1}, the {side}' {move} sent to {movers[side].name}"
            seen = {name: s.until(d, ply + 1, what) for name, s in sockets.items()}
            for name, got in seen.items():
                assert got["ply"] == ply + 1 and got["history"][-1]["text"] == move, (
                    f"{name} received ply {got['ply']} with last move "
                    f"{got['history'][-1]['text'] if got['history'] else None}, not {what}\n"
                    f"{d.logs()}"
                )
            other = "general" if side == "rebels" else "rebels"
            assert seen["general on B"]["can_move"] == (other == "general")
            assert seen["rebels on A"]["can_move"] == (other == "rebels")
            assert not seen["watcher on A"]["can_move"] and not seen["watcher on B"]["can_move"]
            state = seen["rebels on A"]
            if state["outcome"] is not None:
                break
        # every ply on every socket, in order (a state may come twice: see Live.until)
        assert state["ply"] == LIVE_MOVES, state["outcome"]
        for name, s in sockets.items():
            assert sorted(set(s.plies)) == list(range(LIVE_MOVES + 1)), (
                f"{name} received plies {s.plies}\n{d.logs()}"
            )
            assert s.plies == sorted(s.plies), f"{name} received plies {s.plies}\n{d.logs()}"


def at_once(pool: ThreadPoolExecutor, *calls: Callable[[], T]) -> list[T]:
    """Run ``calls`` on threads of ``pool``, released together by a barrier; their results."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        barrier.wait(timeout=10)
        return call()

    futures = [pool.submit(run, call) for call in calls]
    return [f.result(timeout=60) for f in futures]


def send_move(p: Process, token: str, move: str, ply: int) -> tuple[int, dict[str, Any]]:
    response = p.http.post(f"/api/play/{token}/move", json={"move": move, "ply": ply})
    return response.status_code, dict(response.json())


def move_status(p: Process, token: str, move: str, ply: int) -> int:
    return send_move(p, token, move, ply)[0]


def ply_after(p: Process, token: str, pause: float) -> int:
    time.sleep(pause)
    return int(p.http.get(f"/api/play/{token}").json()["ply"])


def _race(
    pool: ThreadPoolExecutor, servers: tuple[Process, Process], token: str, move: str, ply: int
) -> list[tuple[int, dict[str, Any]]]:
    """Send the move to both servers at the same instant; each one's status and answer."""
    return at_once(pool, *(functools.partial(send_move, p, token, move, ply) for p in servers))


def _agreed_state(
    d: Deployment, servers: tuple[Process, Process], token: str, ply: int
) -> dict[str, Any]:
    """The game once both servers show ``ply`` (the last winner's move has reached both)."""
    states = [poll_state(d, p, token, reached(ply), f"ply {ply}") for p in servers]
    for p, s in zip(servers, states, strict=True):
        assert s["ply"] == ply, f"{p.name} shows ply {s['ply']}, not {ply}\n{d.logs()}"
    assert states[0]["history"] == states[1]["history"], d.logs()
    return states[0]


def _loser_reason(answer: dict[str, Any]) -> str:
    """Where the loser of a race lost: at the database (the unique (game, seq) refused its
    write) or before writing (it had already heard of the winner's move)."""
    if "another move came first" in answer.get("detail", ""):
        return "409 at the database (unique (game_id, seq))"
    if answer.get("code") == "game-over":
        return "409 game-over (the winner's move, which ended the game, already known)"
    return "409 at the ply check (the winner's move already known)"


def test_the_same_move_sent_to_both_processes_is_accepted_exactly_once(
    deployment: Deployment, trio: tuple[Process, Process, Process]
) -> None:
    """Local games: over ``RACE_TRIALS`` trials, the move of the current position is sent to A
    and to B at the same instant: one answers 200, the other 409 ``stale``, and the history
    has exactly one entry per trial. A new game is made (on A, then B, ...) when one ends."""
    d = deployment
    a, b, _ = trio
    servers = (a, b)
    rng = random.Random(7)
    outcomes: Counter[str] = Counter()
    games: list[tuple[str, int]] = []  # (token, trials in it)
    with ThreadPoolExecutor(max_workers=2) as pool:
        token = ""
        ply = 0
        trials = 0
        while trials < RACE_TRIALS:
            if not token:
                maker = servers[len(games) % 2]
                created = create(d, maker, game="general", mode="local")
                token, ply = token_of(created["seats"]["both"]), created["game"]["ply"]
                games.append((token, 0))
            state = _agreed_state(d, servers, token, ply)
            if state["outcome"] is not None:
                token = ""
                continue
            move = rng.choice(state["legal"])
            answers = _race(pool, servers, token, move, ply)
            codes = [code for code, _ in answers]
            assert sorted(codes) == [200, 409], (
                f"trial {trials + 1} (ply {ply}, {move}): A answered {answers[0]}, "
                f"B answered {answers[1]}\n{d.logs()}"
            )
            winner = codes.index(200)
            loser, won = answers[1 - winner][1], answers[winner][1]
            assert won["ply"] == ply + 1 and won["history"][-1]["text"] == move, won
            # "stale"; or, when the winning move ended the game and the loser knew it before
            # writing, "game-over" (the game's end is checked before the ply)
            codes_allowed = ["stale"] + (["game-over"] if won["outcome"] is not None else [])
            assert loser.get("code") in codes_allowed, f"trial {trials + 1}: {loser}\n{d.logs()}"
            outcomes[f"200 from {servers[winner].name}"] += 1
            outcomes[f"409 from {servers[1 - winner].name}"] += 1
            outcomes[_loser_reason(loser)] += 1
            ply += 1
            trials += 1
            games[-1] = (token, games[-1][1] + 1)
    total = 0
    for token, count in games:
        for p in servers:
            history = poll_state(d, p, token, reached(count), f"{count} plies")["history"]
            assert len(history) == count, (
                f"{p.name}: {len(history)} plies for {count} trials\n{d.logs()}"
            )
        total += count
    assert total == RACE_TRIALS
    print(
        f"\nrace: {RACE_TRIALS} trials over {len(games)} games "
        f"(plies per game {[n for _, n in games]}); outcomes: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
    )


def test_a_server_killed_loses_no_acknowledged_move(
    deployment: Deployment, trio: tuple[Process, Process, Process]
) -> None:
    """A friend game: moves through A, each acknowledged (200), then ``kill -9`` of A right
    after the last. B has every acknowledged move, and the players carry on through B: the
    general's socket (on B from the start) and the rebels' (moving over from A)."""
    d = deployment
    a, b, _ = trio
    created = create(d, a, game="general", mode="friend")
    tokens = {s: token_of(created["seats"][s]) for s in ("rebels", "general")}
    rng = random.Random(3)
    with contextlib.ExitStack() as stack:
        general = Live("general on B", b, tokens["general"])
        stack.callback(general.close)
        assert general.state(d, "the state on connecting")["ply"] == 0
        played: list[str] = []
        state = created["game"]
        for ply in range(ACKNOWLEDGED_MOVES):
            side = state["to_move"]
            move = rng.choice(state["legal"])
            response = a.http.post(
                f"/api/play/{tokens[side]}/move", json={"move": move, "ply": ply}
            )
            if ply == ACKNOWLEDGED_MOVES - 1 and response.status_code == 200:
                os.kill(a.pid, signal.SIGKILL)  # at once, before anything else
            assert response.status_code == 200, f"{response.text}\n{d.logs()}"
            played.append(move)
            state = response.json()
        assert a.popen is not None and a.popen.wait(timeout=10) == -signal.SIGKILL
        assert state["ply"] == ACKNOWLEDGED_MOVES and state["to_move"] == "rebels"

        at_once_on_b = state_of(d, b, tokens["rebels"])["ply"]  # B hears of moves by the bus
        on_b = poll_state(
            d, b, tokens["rebels"], reached(ACKNOWLEDGED_MOVES),
            f"the {ACKNOWLEDGED_MOVES} acknowledged moves",
        )  # fmt: skip
        assert [h["text"] for h in on_b["history"]] == played, d.logs()
        assert on_b["ply"] == ACKNOWLEDGED_MOVES and on_b["can_move"]
        # the general's socket on B heard of the moves made on A, up to the last. Moves in
        # quick succession may come together (one refresh of B can bring several), and twice
        # (a broadcast sends the game as it is when it is sent, perhaps already refreshed)
        last = general.until(d, ACKNOWLEDGED_MOVES, "the moves made on A, up to the last")
        assert last["ply"] == ACKNOWLEDGED_MOVES, general.plies
        assert general.plies == sorted(general.plies), general.plies

        # the rebels, whose server died, come back through B
        rebels = Live("rebels on B", b, tokens["rebels"])
        stack.callback(rebels.close)
        back = rebels.state(d, "the state on reconnecting")
        assert back["ply"] == ACKNOWLEDGED_MOVES and back["can_move"], back
        assert [h["text"] for h in back["history"]] == played
        sockets = {"rebels": rebels, "general": general}
        state = back
        for ply in range(ACKNOWLEDGED_MOVES, ACKNOWLEDGED_MOVES + 4):
            side = state["to_move"]
            move = rng.choice(state["legal"])
            sockets[side].send({"type": "move", "move": move, "ply": ply})
            what = f"ply {ply + 1}, the {side}' {move} through B"
            seen = [s.until(d, ply + 1, what) for s in (rebels, general)]
            for got in seen:
                assert got["ply"] == ply + 1 and got["history"][-1]["text"] == move, d.logs()
            played.append(move)
            state = seen[0]
    final = state_of(d, b, tokens["general"])
    assert [h["text"] for h in final["history"]] == played
    print(
        f"\nkill -9: B's first read after the kill showed ply {at_once_on_b} of "
        f"{ACKNOWLEDGED_MOVES}; the general's socket on B received plies {general.plies}"
    )


def test_a_worker_killed_while_thinking_does_not_stall_the_computer(
    deployment: Deployment,
) -> None:
    """Defiance against the hard computer, which moves first: once worker W1 runs the job,
    ``kill -9`` W1 (and its thinking child); a second worker W2 takes the job again when W1's
    lease runs out, and the computer's move arrives, the job at its second attempt."""
    d = deployment
    a, b, w1 = d.server("A"), d.server("B"), d.worker("W1")
    d.start(a, b, w1)
    created = create(d, a, game="defiance", mode="computer", level="hard", side="imperium")
    game_id, token = created["id"], token_of(created["seats"]["both"])
    assert created["game"]["to_move"] == "rebels" and created["game"]["computer"]["thinking"]

    deadline = time.monotonic() + COMPUTER_TIMEOUT
    jobs = d.jobs(game_id)
    while not (jobs and jobs[0]["status"] == "running"):
        assert time.monotonic() < deadline, f"the job never ran: {jobs}\n{d.logs()}"
        time.sleep(0.01)
        jobs = d.jobs(game_id)
    assert f":{w1.pid}:" in jobs[0]["worker"], jobs
    w1.kill()
    killed = time.monotonic()
    jobs = d.jobs(game_id)
    assert len(jobs) == 1 and jobs[0]["status"] == "running" and jobs[0]["attempts"] == 1, (
        f"W1 finished the job before it was killed (the test lost its race): {jobs}\n{d.logs()}"
    )
    assert state_of(d, b, token)["ply"] == 0

    w2 = d.worker("W2")
    d.start(w2)
    w2_ready = arrived = time.monotonic()
    for p in (b, a):
        state = poll_state(
            d, p, token, reached(1), "the computer's move",
            timeout=max(1.0, killed + COMPUTER_TIMEOUT - time.monotonic()),
        )  # fmt: skip
        if p is b:
            arrived = time.monotonic()
        assert state["ply"] == 1 and state["to_move"] == "imperium", state
        assert state["history"][0]["side"] == "rebels" and state["can_move"]
    jobs = d.jobs(game_id)
    assert len(jobs) == 1, f"one job for one computer move: {jobs}\n{d.logs()}"
    job = jobs[0]
    assert job["status"] == "done" and job["error"] is None, f"{job}\n{d.logs()}"
    assert job["attempts"] == 2, f"{job}\n{d.logs()}"
    assert f":{w2.pid}:" in job["worker"], job
    print(
        f"\nworker killed while thinking: the computer's move arrived {arrived - killed:.2f} s "
        f"after the kill ({arrived - w2_ready:.2f} s after W2 was ready); job {job}"
    )


def test_the_process_that_loses_a_race_still_tells_its_sockets(
    deployment: Deployment, trio: tuple[Process, Process, Process]
) -> None:
    """The race again, with a watcher on A and one on B: every accepted move reaches both
    watchers, those of the process that lost the race too."""
    d = deployment
    a, b, _ = trio
    servers = (a, b)
    created = create(d, a, game="general", mode="local")
    token, watch = token_of(created["seats"]["both"]), token_of(created["watch"])
    rng = random.Random(11)
    with contextlib.ExitStack() as stack, ThreadPoolExecutor(max_workers=2) as pool:
        watchers = [Live(f"watcher on {p.name}", p, watch) for p in servers]
        for w in watchers:
            stack.callback(w.close)
            assert w.state(d, "the state on connecting")["ply"] == 0
        for ply in range(LOSER_TRIALS):
            state = _agreed_state(d, servers, token, ply)
            move = rng.choice(state["legal"])
            answers = _race(pool, servers, token, move, ply)
            codes = [code for code, _ in answers]
            assert sorted(codes) == [200, 409], answers
            winner = codes.index(200)
            what = (
                f"trial {ply + 1}: ply {ply + 1} ({move}), accepted by {servers[winner].name}; "
                f"{servers[1 - winner].name} lost: {_loser_reason(answers[1 - winner][1])}"
            )
            for w in watchers:
                got = w.until(d, ply + 1, what, timeout=5.0)
                assert got["ply"] == ply + 1 and got["history"][-1]["text"] == move, what


def test_a_process_loading_a_game_while_another_moves_misses_no_move(
    deployment: Deployment, trio: tuple[Process, Process, Process]
) -> None:
    """Server B reads a game for the first time (a watcher's GET) at the instant A plays a move
    in it: however the two interleave, B's copy catches up with the move, as the bus tells it.
    (The move can land in a narrow window, a few per cent of the trials here: after B read
    the log, before B holds the game; so this tries many times, and stops at the first
    failure.)"""
    d = deployment
    a, b, _ = trio
    rng = random.Random(5)
    first_reads: Counter[int] = Counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for trial in range(LOAD_TRIALS):
            created = create(d, a, game="general", mode="local")
            token, watch = token_of(created["seats"]["both"]), token_of(created["watch"])
            move = created["game"]["legal"][0]
            offset = rng.uniform(0.0, 0.004)
            played, first = at_once(
                pool,
                functools.partial(move_status, a, token, move, 0),
                functools.partial(ply_after, b, watch, offset),
            )
            assert played == 200, d.logs()
            first_reads[first] += 1
            poll_state(
                d, b, watch, reached(1),
                f"trial {trial + 1}: the move A accepted while B was loading the game (B's "
                f"first read, {offset * 1000:.1f} ms after A was sent the move, showed ply "
                f"{first}; first reads so far: {dict(first_reads)})",
                timeout=2.0,
            )  # fmt: skip
    print(f"\nloading while another process moves: {LOAD_TRIALS} trials, B's first read "
          f"showed ply 0 in {first_reads[0]} and ply 1 in {first_reads[1]}")  # fmt: skip
