"""Faults against a deployment on PostgreSQL, repeated: what players lose, and for how long.

    python bench/faults.py [--trials 5] [--kinds server worker postgresql listen] [--races 200]
    python bench/faults.py --progress bench/results/faults.jsonl    # resumes where it stopped
    python bench/faults.py --table bench/results/faults-seed1.jsonl # the table of a past run
    python bench/faults.py --database postgresql+psycopg://…         # no PostgreSQL kill then

The deployment is the one ``tests/scale/test_processes.py`` starts: two ``ludotheque serve``
(A and B) and one ``ludotheque worker`` (W) on one PostgreSQL database, the computer thought
by the worker only. By default the database is on a throwaway PostgreSQL server of our own
(``tests/pgcluster.py``, with ``synchronous_commit=on``: a commit is acknowledged once its WAL
is written, so a crash may lose no acknowledged commit; ``fsync`` off, as the machine does not
crash), so that it can be killed too.

While the faults come, clients play on both processes, as browsers would:

- two movers, one per server, play a random legal move every ``--pace`` seconds over HTTP in a
  local General game (a new one when a game ends), reading the game again after any failure;
  every move answered 200 is *acknowledged*;
- four watchers: a socket on A and one on B for each mover's game, which reconnect (after
  0.2 s) when their socket is closed, and note when each state arrives;
- a player against the computer (Defiance, the hard level, which thinks for a while), its
  moves through A and B in turn, which notes how long each computer move takes to show.

Each trial makes one fault, then watches for ``--settle`` seconds:

- ``none``: no fault (what the figures are when all is well: the reference);
- ``server``: ``kill -9`` of A or B (in turn), started again after ``--restart-delay`` s on
  the same port (as a supervisor would);
- ``worker``: ``kill -9`` of W (and its thinking process) while it thinks a computer move, if
  it gets to (else at once), started again after ``--restart-delay`` s;
- ``postgresql``: ``kill -9`` of every PostgreSQL process, started again after ``--down`` s
  on the same data (it recovers from its WAL); several ``--down`` values are taken in turn
  (the default, 1 and 3.2 s: a process's bus tries to listen again 0.2, 0.6, 1.4, 3 and 5 s
  after it lost its connection, so after 3.2 s PostgreSQL is back well before it does);
- ``listen``: every process's LISTEN connection terminated (``pg_terminate_backend``).

Per trial it records: the moves acknowledged; those *lost* (acknowledged but not at their
place in the log afterwards, read through a live server); the answers 5xx, and the requests
that found no server (connection refused or cut); for every watcher,
how long it was *behind* (the longest time, over the moves acknowledged from the fault to the
end of the trial, from a move's acknowledgement to the watcher's first state that shows it;
a watcher behind by more than ``BEHIND`` is counted as behind); the longest wait for the
computer; the tracebacks the processes wrote. Then ``--races`` trials of a race: the same
move sent to A and to B at the same instant, where exactly one must be accepted.

Every trial is appended to ``--progress`` (one JSON line; ``bench/results/faults.jsonl`` by
default) as soon as it ends: started again with the same file, the script runs only the
trials it lacks (each run on a fresh deployment), and ``--table FILE`` prints the table of
what a file holds. Linux only; never run as a test.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402  (after the path: the tests' helpers are imported from the repo)
from websockets.exceptions import ConnectionClosed, WebSocketException  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.pgcluster import DURABLE, PgCluster  # noqa: E402
from tests.scale.test_processes import HOST, Deployment, Process, at_once  # noqa: E402

KINDS = ("none", "server", "worker", "postgresql", "listen")
BEHIND = 0.5
"""A watcher whose state lags a move by more than this (seconds) was behind (a live update
takes a few ms)."""
FOLLOW = 0.5
"""Seconds a watcher may take to follow its mover to a new game (it looks every 0.2 s)."""
DEFAULT_PROGRESS = ROOT / "bench" / "results" / "faults.jsonl"


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


CHAINED = ("The above exception was the direct cause", "During handling of the above exception")


def traceback_count(p: Process) -> int:
    """Tracebacks logged in ``p``'s output: one per exception logged, its chained causes (a
    "Traceback" header each) not counted apart."""
    text: str = p.output()
    return text.count("Traceback (most recent call last)") - sum(text.count(c) for c in CHAINED)


# -- clients -----------------------------------------------------------------------------------


class Mover(threading.Thread):
    """Random legal moves over HTTP in local General games of one server, one every ``pace``
    seconds; after a failure, the game is read again. Notes every answer and every
    acknowledged move, with its time."""

    def __init__(self, name: str, p: Process, seed: int, pace: float) -> None:
        super().__init__(name=name, daemon=True)
        self.p, self.pace = p, pace
        self.rng = random.Random(seed)
        self.acked: list[tuple[str, int, str, float]] = []  # token, ply, move, when
        self.answers: list[tuple[float, str]] = []  # when, status or exception name
        self.token = ""
        self.watch = ""  # the current game's watch token, for the watchers
        self.created: dict[str, float] = {}  # game token → when it was made
        self.halt = threading.Event()

    def run(self) -> None:
        client: httpx2.Client | None = None
        port = 0
        state: dict[str, Any] | None = None
        while not self.halt.is_set():
            if client is None or port != self.p.port:  # (a restarted server may move)
                if client is not None:
                    client.close()
                port = self.p.port
                client = httpx2.Client(base_url=self.p.url, trust_env=False, timeout=5.0)
            try:
                state = self.step(client, state)
            except httpx2.HTTPError as exc:
                self.answers.append((time.monotonic(), type(exc).__name__))
                state = None
                self.halt.wait(0.1)
            self.halt.wait(self.pace)
        if client is not None:
            client.close()

    def step(self, client: httpx2.Client, state: dict[str, Any] | None) -> dict[str, Any] | None:
        """One request: a new game, the game read again, or a move. The state after it."""
        if not self.token or (state is not None and state["outcome"] is not None):
            response = client.post("/api/games", json={"game": "general", "mode": "local"})
            self.answers.append((time.monotonic(), str(response.status_code)))
            if response.status_code != 201:
                return None
            created = response.json()
            self.token, self.watch = token_of(created["seats"]["both"]), token_of(created["watch"])
            self.created[self.token] = time.monotonic()
            return dict(created["game"])
        if state is None:
            response = client.get(f"/api/play/{self.token}")
            self.answers.append((time.monotonic(), str(response.status_code)))
            return dict(response.json()) if response.status_code == 200 else None
        ply, move = state["ply"], self.rng.choice(state["legal"])
        response = client.post(f"/api/play/{self.token}/move", json={"move": move, "ply": ply})
        when = time.monotonic()
        self.answers.append((when, str(response.status_code)))
        if response.status_code == 200:
            self.acked.append((self.token, ply, move, when))
            return dict(response.json())
        return None  # read again: a move not confirmed may be there


class Watcher(threading.Thread):
    """A socket watching a mover's game on one server; notes (when, game token, ply) of every
    state. Closed, or the mover on another game, it connects again after 0.2 s."""

    def __init__(self, name: str, p: Process, mover: Mover) -> None:
        super().__init__(name=name, daemon=True)
        self.p, self.mover = p, mover
        self.seen: list[tuple[float, str, int]] = []
        self.reconnects = 0
        self.closes: Counter[str] = Counter()
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            watch, token = self.mover.watch, self.mover.token
            if not watch:
                self.halt.wait(0.05)
                continue
            try:
                url = f"ws://{HOST}:{self.p.port}/ws/{watch}"
                with connect(url, open_timeout=5, proxy=None, ping_interval=None) as ws:
                    self.reconnects += 1
                    while not self.halt.is_set() and self.mover.watch == watch:
                        with contextlib.suppress(TimeoutError):
                            message = json.loads(ws.recv(timeout=0.2))
                            if message.get("type") == "state":
                                ply = int(message["game"]["ply"])
                                self.seen.append((time.monotonic(), token, ply))
            except ConnectionClosed as exc:
                self.closes[str(exc.rcvd.code) if exc.rcvd is not None else "no close"] += 1
            except (OSError, TimeoutError, WebSocketException) as exc:
                self.closes[type(exc).__name__] += 1
            self.halt.wait(0.2)

    def shown(self, token: str, ply: int) -> float | None:
        """When this watcher first showed game ``token`` at ``ply`` or beyond (``None``:
        never)."""
        for when, seen_token, seen_ply in list(self.seen):
            if seen_token == token and seen_ply >= ply:
                return when
        return None


class Computer(threading.Thread):
    """A game against the computer, the human's moves through A and B in turn; notes (asked,
    shown) for each computer move: from the human's move acknowledged (or the game made, when
    the computer begins) to the first state read that shows the computer's answer."""

    def __init__(self, servers: list[Process], seed: int, level: str) -> None:
        super().__init__(name="against the computer", daemon=True)
        self.servers, self.level = servers, level
        self.rng = random.Random(seed)
        self.waits: list[tuple[float, float]] = []  # asked, shown
        self.pending: tuple[float, int] | None = None  # asked, the ply the computer passes
        self.game_id = ""
        self.halt = threading.Event()
        self.turn = 0

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        p = self.servers[self.turn % len(self.servers)]
        self.turn += 1
        try:
            with httpx2.Client(base_url=p.url, trust_env=False, timeout=5.0) as client:
                response = client.request(method, path, json=body)
            return response.status_code, dict(response.json())
        except (httpx2.HTTPError, ValueError):
            return 0, {}

    def run(self) -> None:
        token = ""
        while not self.halt.is_set():
            if not token:
                status, created = self.call("POST", "/api/games", {
                    "game": "defiance", "mode": "computer", "level": self.level,
                    "side": "imperium"})  # fmt: skip
                if status != 201:
                    self.halt.wait(0.2)
                    continue
                token, self.game_id = token_of(created["seats"]["both"]), created["id"]
                self.pending = (time.monotonic(), 0)  # the computer begins
            status, state = self.call("GET", f"/api/play/{token}")
            if status != 200:
                self.halt.wait(0.05)
                continue
            if self.pending is not None and state["ply"] > self.pending[1]:
                self.waits.append((self.pending[0], time.monotonic()))
                self.pending = None
            if state["outcome"] is not None:  # (a human move that ends it has no answer)
                token, self.pending = "", None
                continue
            if not state["can_move"]:
                self.halt.wait(0.05)
                continue
            ply = state["ply"]
            move = {"move": self.rng.choice(state["legal"]), "ply": ply}
            status, _ = self.call("POST", f"/api/play/{token}/move", move)
            if status == 200:
                self.pending = (time.monotonic(), ply + 1)

    def waited(self, since: float, until: float) -> list[float]:
        """How long the computer's moves pending at some time in [since, until) took (the
        one still pending: until ``until``)."""
        out = [shown - asked for asked, shown in list(self.waits)
               if asked < until and shown >= since]  # fmt: skip
        pending = self.pending
        if pending is not None and pending[0] < until:
            out.append(until - pending[0])
        return out


# -- the deployment --------------------------------------------------------------------------


class Bench:
    """The cluster (ours, or none with ``--database``), the deployment and its clients."""

    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.cluster: PgCluster | None = None
        if args.database:
            url = args.database
        else:
            self.cluster = PgCluster(settings=DURABLE).start()
            url = self.cluster.create_database(f"faults_{uuid.uuid4().hex[:12]}")
        self.d = Deployment(url, folder)
        self.a, self.b, self.w = self.d.server("A"), self.d.server("B"), self.d.worker("W")
        self.d.start(self.a, self.b, self.w)
        seed = args.seed
        self.movers = [Mover("mover on A", self.a, seed + 1, args.pace),
                       Mover("mover on B", self.b, seed + 2, args.pace)]  # fmt: skip
        self.watchers = [
            Watcher(f"watcher on {p.name} of {m.name}", p, m)
            for m in self.movers for p in (self.a, self.b)
        ]  # fmt: skip
        self.computer = Computer([self.a, self.b], seed + 3, args.level)
        self.threads: list[Mover | Watcher | Computer] = [
            *self.movers, *self.watchers, self.computer
        ]  # fmt: skip
        for t in self.threads:
            t.start()
        self.checked: dict[str, int] = {}  # per mover: acknowledged moves already checked

    def close(self) -> None:
        for t in self.threads:
            t.halt.set()
        for t in self.threads:
            t.join(timeout=10)
        self.d.close()
        if self.cluster is not None:
            self.cluster.stop()

    def live_server(self) -> Process:
        return next(p for p in (self.b, self.a) if p.exited() is None)

    def wait_ready(self, p: Process) -> None:
        self.d.start(p)

    # -- the faults

    def fault(self, kind: str, index: int) -> dict[str, Any]:
        """Make fault ``kind``; what was done, and when (the clock of ``time.monotonic``)."""
        args = self.args
        if kind == "server":
            victim = (self.a, self.b)[index % 2]
            at = time.monotonic()
            victim.kill()
            time.sleep(args.restart_delay)
            self.wait_ready(victim)
            return {"at": at, "victim": victim.name, "back_s": time.monotonic() - at}
        if kind == "worker":
            thinking = self.wait_thinking(5.0)
            at = time.monotonic()
            self.w.kill()
            time.sleep(args.restart_delay)
            self.w.launch()
            return {"at": at, "victim": "W", "while_thinking": thinking}
        if kind == "postgresql":
            assert self.cluster is not None
            down = args.down[index % len(args.down)]
            at = time.monotonic()
            self.cluster.crash("kill")
            time.sleep(down)
            self.cluster.start_again()
            return {"at": at, "victim": "PostgreSQL", "down_s": down,
                    "back_s": time.monotonic() - at}  # fmt: skip
        if kind == "none":
            return {"at": time.monotonic(), "victim": None}
        if kind == "listen":
            at = time.monotonic()
            cut = self.terminate("ludotheque bus %")
            return {"at": at, "victim": "LISTEN connections", "cut": cut}
        raise ValueError(kind)

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        conninfo = self.d.db_url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
            return list(conn.execute(query, params).fetchall())

    def terminate(self, like: str) -> int:
        rows = self.sql(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name LIKE %s AND datname = current_database()",
            like,
        )
        return int(rows[0][0])

    def wait_thinking(self, timeout: float) -> bool:
        """Until the computer's job is running (taken by W): whether it came to that."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            game = self.computer.game_id
            if game:
                with contextlib.suppress(Exception):
                    rows = self.sql("SELECT 1 FROM jobs WHERE game_id = %s AND kind = 'computer'"
                                    " AND status = 'running'", game)  # fmt: skip
                    if rows:
                        return True
            time.sleep(0.02)
        return False

    # -- what a trial saw

    def lost(self) -> tuple[int, int, list[str]]:
        """The moves acknowledged since the last check, and those of them not at their place
        in the log (read through a live server)."""
        checked, lost, examples = 0, 0, []
        reader = self.live_server()
        histories: dict[str, list[str]] = {}
        for m in self.movers:
            start = self.checked.get(m.name, 0)
            moves = m.acked[start:]
            self.checked[m.name] = start + len(moves)
            for token, ply, move, _ in moves:
                if token not in histories:
                    histories[token] = self.history(reader, token)
                history = histories[token]
                checked += 1
                if ply >= len(history) or history[ply] != move:
                    lost += 1
                    there = history[ply] if ply < len(history) else None
                    examples.append(f"{m.name} {token[:6]} ply {ply}: {move}, log {there}")
        return checked, lost, examples[:5]

    def history(self, reader: Process, token: str) -> list[str]:
        for _ in range(50):
            with contextlib.suppress(httpx2.HTTPError):
                response = reader.http.get(f"/api/play/{token}")
                if response.status_code == 200:
                    return [h["text"] for h in response.json()["history"]]
            time.sleep(0.1)
        raise RuntimeError(f"{reader.name} cannot read game {token}\n{self.d.logs()}")

    def behind(self, since: float, until: float) -> dict[str, float | None]:
        """Per watcher: the longest lag over the moves acknowledged in [since, until) of the
        game it watches (``None``: a move of its mover's current game it never showed). The
        moves of a game's first ``FOLLOW`` seconds do not count (a mover plays in a new game at
        once; its watchers follow it up to 0.2 s later), nor those of a game its mover has
        left (the watcher left it too)."""
        lags: dict[str, float | None] = {}
        for w in self.watchers:
            worst: float | None = 0.0
            for token, ply, _, when in list(w.mover.acked):
                if not since <= when < until or when < w.mover.created[token] + FOLLOW:
                    continue
                shown = w.shown(token, ply + 1)
                if shown is None:
                    if token == w.mover.token:
                        worst = None
                        break
                    continue
                worst = max(worst or 0.0, shown - when)  # (a state may beat the 200: 0)
            lags[w.name] = worst
        return lags

    def trial(self, kind: str, index: int) -> dict[str, Any]:
        """One fault and what followed it, for ``--settle`` seconds."""
        args = self.args
        counts = {p.name: traceback_count(p) for p in self.d.processes}
        began = time.monotonic()
        acked_before = sum(len(m.acked) for m in self.movers)
        opened_before = sum(w.reconnects for w in self.watchers)
        made = self.fault(kind, index)
        at = made.pop("at")
        time.sleep(max(0.0, at + args.settle - time.monotonic()))
        end = time.monotonic()
        checked, lost, examples = self.lost()
        answers = Counter(a for m in self.movers for t, a in m.answers if began <= t < end)
        lags = self.behind(at, end - 1.0)  # moves of the last second may not have arrived
        known = [v for v in lags.values() if v is not None]
        behind = {k: v for k, v in lags.items() if v is None or v > BEHIND}
        waits = self.computer.waited(at, end)
        back = made.get("back_s")
        late_5xx = sum(1 for m in self.movers for t, a in m.answers
                       if back is not None and t >= at + back and a.startswith("5"))  # fmt: skip
        tracebacks = {p.name: traceback_count(p) - counts[p.name] for p in self.d.processes}
        return {
            "kind": kind, "index": index, "seed": args.seed,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            **made,
            "acknowledged": sum(len(m.acked) for m in self.movers) - acked_before,
            "checked": checked, "lost": lost, "lost_examples": examples,
            "answers": dict(answers),
            "answers_5xx": sum(v for k, v in answers.items() if k.startswith("5")),
            "answers_5xx_once_back": late_5xx,
            "connection_errors": sum(v for k, v in answers.items() if not k[:1].isdigit()),
            "watchers": len(lags), "behind": len(behind),
            "watcher_sockets_opened": sum(w.reconnects for w in self.watchers) - opened_before,
            "behind_never_shown": sum(1 for v in lags.values() if v is None),
            "lag_max_s": max(known) if known else None,
            "lag_median_s": statistics.median(known) if known else None,
            "lags_s": lags,
            "computer_wait_max_s": max(waits) if waits else None,
            "tracebacks": tracebacks,
        }  # fmt: skip

    def races(self, count: int, index: int) -> dict[str, Any]:
        """``count`` races: a local game's move sent to A and B at the same instant."""
        outcomes: Counter[str] = Counter()
        rng = random.Random(self.args.seed + 1000 + index)
        servers = (self.a, self.b)
        token, state = "", None
        with ThreadPoolExecutor(max_workers=2) as pool:
            done = 0
            while done < count:
                if state is None or state["outcome"] is not None:
                    maker = servers[done % 2]
                    created = maker.http.post("/api/games", json={"game": "general",
                                                                  "mode": "local"})  # fmt: skip
                    token = token_of(created.json()["seats"]["both"])
                    state = created.json()["game"]
                assert state is not None
                move, ply = rng.choice(state["legal"]), state["ply"]

                def send(p: Process, path: str, body: dict[str, Any]) -> tuple[int, Any]:
                    response = p.http.post(path, json=body)
                    return response.status_code, response.json()

                path, body = f"/api/play/{token}/move", {"move": move, "ply": ply}
                answers = at_once(pool, *(functools.partial(send, p, path, body) for p in servers))
                codes = sorted(code for code, _ in answers)
                outcomes[" ".join(map(str, codes))] += 1
                accepted = [body for code, body in answers if code == 200]
                state = accepted[0] if accepted else self.a.http.get(path[: -len("/move")]).json()
                done += 1
        history = self.history(self.b, token)
        return {"kind": "race", "index": index, "seed": self.args.seed, "races": count,
                "outcomes": dict(outcomes), "exactly_one": outcomes["200 409"],
                "last_game_plies": len(history)}  # fmt: skip


# -- progress and the table --------------------------------------------------------------------


def read_progress(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def fmt(value: float | None, unit: str = " s") -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.2f}{unit}"


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        f"{'fault':<12}{'trials':>7}{'acked':>8}{'lost':>6}{'5xx':>6}{'5xx':>7}{'no':>8}"
        f"{'behind':>9}{'lag max':>9}{'lag med':>9}{'computer':>10}{'tracebacks':>12}",
        f"{'':<12}{'':>7}{'moves':>8}{'':>6}{'':>6}{'back':>7}{'server':>8}{'watchers':>9}"
        f"{'':>9}{'':>9}{'max wait':>10}{'A/B/W':>12}",
    ]
    for kind in KINDS:
        trials = [r for r in rows if r["kind"] == kind]
        if not trials:
            continue
        lags = [r["lag_max_s"] for r in trials if r["lag_max_s"] is not None]
        every = [v for r in trials for v in r["lags_s"].values() if v is not None]
        waits = [r["computer_wait_max_s"] for r in trials if r["computer_wait_max_s"] is not None]
        tb = Counter[str]()
        for r in trials:
            tb.update(r["tracebacks"])
        behind = sum(r["behind"] for r in trials)
        watchers = sum(r["watchers"] for r in trials)
        lines.append(
            f"{kind:<12}{len(trials):>7}{sum(r['acknowledged'] for r in trials):>8}"
            f"{sum(r['lost'] for r in trials):>6}"
            f"{sum(r['answers_5xx'] for r in trials):>6}"
            f"{sum(r.get('answers_5xx_once_back', 0) for r in trials):>7}"
            f"{sum(r.get('connection_errors', 0) for r in trials):>8}"
            f"{f'{behind}/{watchers}':>9}{fmt(max(lags) if lags else None):>9}"
            f"{fmt(statistics.median(every) if every else None):>9}"
            f"{fmt(max(waits) if waits else None):>10}"
            f"{'/'.join(str(tb[n]) for n in ('A', 'B', 'W')):>12}"
        )
    races = [r for r in rows if r["kind"] == "race"]
    if races:
        total = sum(r["races"] for r in races)
        outcomes: Counter[str] = Counter()
        for r in races:
            outcomes.update(r["outcomes"])
        lines.append(
            f"races: {total} trials, exactly one of A and B accepted the move in "
            f"{outcomes['200 409']}; answers (sorted codes): "
            + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
        )
    opened = {k: sum(r.get("watcher_sockets_opened", 0) for r in rows if r["kind"] == k)
              for k in KINDS}  # fmt: skip
    lines.append("watcher sockets opened again (after a close, or to follow a new game): "
                 + ", ".join(f"{k} {v}" for k, v in opened.items() if v))  # fmt: skip
    lines += [
        f"acked: moves answered 200; lost: acknowledged but not in the log afterwards; 5xx "
        f"back: the 5xx answered once the process or PostgreSQL killed was back; no "
        f"server: requests refused or cut by a dead server; behind: "
        f"watchers whose state lagged a move acknowledged after the fault by more than "
        f"{BEHIND} s, or never showed it; lag max / med: each watcher's longest lag in a "
        f"trial, the longest and the median over the trials; computer max wait: from a human "
        f"move acknowledged to the computer's move shown, for those pending during a trial",
    ]
    pg = [r for r in rows if r["kind"] == "postgresql"]
    if pg:
        per = "; ".join(
            f"down {r['down_s']:g} s: {r['behind']}/{r['watchers']} behind, longest "
            f"{fmt(r['lag_max_s'])}, median {fmt(r['lag_median_s'])}"
            for r in pg
        )
        lines.append(f"after each PostgreSQL restart (watchers): {per}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5, help="trials of each fault kind")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--races", type=int, default=200, help="race trials (0: none)")
    parser.add_argument(
        "--database", metavar="URL", help="an existing PostgreSQL database (no 'postgresql' fault)"
    )
    parser.add_argument(
        "--progress",
        type=Path,
        default=DEFAULT_PROGRESS,
        help="the JSON-lines file of finished trials, resumed from",
    )
    parser.add_argument("--table", type=Path, metavar="FILE", help="print FILE's table, only")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds watched per trial")
    parser.add_argument(
        "--down", type=float, nargs="+", default=[1.0, 3.2],
        help="seconds PostgreSQL stays dead (several: taken in turn)",
    )  # fmt: skip
    parser.add_argument(
        "--restart-delay",
        type=float,
        default=0.5,
        help="seconds before a killed process is started again",
    )
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between a mover's moves")
    parser.add_argument("--level", default="hard", help="the computer's level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", type=Path, metavar="DIR",
                        help="keep the processes' logs in DIR (else they are deleted)")  # fmt: skip
    args = parser.parse_args()
    if args.table:
        print("\n".join(table(read_progress(args.table))))
        return
    kinds = [k for k in args.kinds if not (k == "postgresql" and args.database)]
    if len(kinds) < len(args.kinds):
        print("--database: PostgreSQL is not ours to kill; no 'postgresql' trials")
    done = read_progress(args.progress)
    have = {(r["kind"], r["index"]) for r in done if r.get("seed") == args.seed}
    todo = [(k, i) for i in range(args.trials) for k in kinds if (k, i) not in have]
    races_todo = args.races > 0 and ("race", 0) not in have
    if done:
        print(f"{len(have)} trials already in {args.progress}; {len(todo)} to run")
    args.progress.parent.mkdir(parents=True, exist_ok=True)
    if todo or races_todo:
        with contextlib.ExitStack() as stack:
            if args.logs:
                args.logs.mkdir(parents=True, exist_ok=True)
                folder = str(args.logs)
            else:
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ludo-faults-"))
            bench = Bench(args, Path(folder))
            try:
                time.sleep(2.0)  # the clients under way
                for kind, index in todo:
                    row = bench.trial(kind, index)
                    append(args.progress, row)
                    print(f"  {kind} #{index + 1}: acked {row['acknowledged']}, lost "
                          f"{row['lost']}, 5xx {row['answers_5xx']}, behind "
                          f"{row['behind']}/{row['watchers']} (max {fmt(row['lag_max_s'])}), "
                          f"computer {fmt(row['computer_wait_max_s'])}, tracebacks "
                          f"{row['tracebacks']}", flush=True)  # fmt: skip
                if races_todo:
                    row = bench.races(args.races, 0)
                    append(args.progress, row)
                    print(f"  races: {row['outcomes']}", flush=True)
            except BaseException:
                print(bench.d.logs()[-4000:], file=sys.stderr)
                raise
            finally:
                bench.close()
    rows = [r for r in read_progress(args.progress) if r.get("seed") == args.seed]
    print("\n".join(table(rows)))


def append(path: Path, row: dict[str, Any]) -> None:
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")
        f.flush()
        os.fsync(f.fileno())


if __name__ == "__main__":
    main()
