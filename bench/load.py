"""Server load: live General games over the real WebSocket protocol, as medians of runs.

    python bench/load.py --spawn [--games 100] [--seconds 60] [--repeat 3] [--json]
    python bench/load.py --url http://127.0.0.1:8000 --pid 1234 [--games 1000]
    python bench/load.py --urls http://127.0.0.1:8001 http://127.0.0.1:8002 --pid 11 --pid 12

Each of ``--games`` clients creates a local-mode General game (one seat plays both sides) with
``POST /api/games``, opens the seat's WebSocket ``/ws/<token>`` and plays a random legal move
(read from the snapshot's ``legal``) every ``--interval`` seconds, the first after a random
offset within one interval so that the load is smooth; when a game ends it creates another
and goes on. With ``--urls`` the games are spread round robin over several server processes
and each seat's WebSocket goes to the process after the one that created the game (stateless
serving). ``--spawn [K]`` starts K ``python -m ludotheque serve`` processes itself on free
ports and a temporary SQLite database (a fresh one for each run), or on ``--database URL``
(PostgreSQL), with the per-address rate and connection limits off (every client here is one
address), and stops them at the end. Servers given by ``--url``/``--urls`` must be started
with those limits off (``LUDOTHEQUE_CREATE_PER_MINUTE=0 LUDOTHEQUE_MOVES_PER_MINUTE=0
LUDOTHEQUE_CONNECTIONS_PER_ADDRESS=0``).

After ``--warmup`` seconds, whose samples are discarded, it measures for ``--seconds``:

- moves per second (moves sent in the window and answered);
- the round trip, from sending a move to receiving the state with the new ply: p50, p95,
  p99 and max in ms;
- errors: error messages, answers slower than ``--timeout``, dropped connections, failed
  creations or connections (an unanswered move is an error, not a round trip);
- the server's CPU, in % of one core (utime + stime from ``/proc/PID/stat`` over the window,
  summed over the ``--pid`` or spawned processes and all their children), and its memory
  (RSS from ``/proc/PID/status``, summed, at the end of the window);
- the client's own CPU (% of one core) and its event loop's lag: a client near 100% of a
  core, or with a lag of tens of ms, measures itself rather than the server;
- the CPU of every other process on the machine (``/proc/stat``): much there means the
  machine was not quiet and the figures are not to be trusted.

Games are created ``--create-concurrency`` at a time (a 429 or 503 answer is retried after
its Retry-After) and WebSockets opened ``--connect-concurrency`` at a time. Linux only (it
reads ``/proc``). Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import email.utils
import json
import math
import os
import random
import resource
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

try:  # faster, if it is there; the standard library otherwise
    import orjson  # type: ignore[import-not-found, unused-ignore]

    loads: Callable[[str | bytes], Any] = orjson.loads

    def dumps(value: Any) -> str:
        return str(orjson.dumps(value).decode())

except ImportError:
    loads = json.loads

    def dumps(value: Any) -> str:
        return json.dumps(value)


ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
now = time.monotonic  # the event loop's clock

# -- HTTP (a minimal client: one loop, no threads, no dependency) ------------------------------


async def http(
    base: str, method: str, path: str, body: bytes | None = None, timeout: float = 10.0
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request on its own connection: (status, headers in lower case, body)."""
    url = urlsplit(base)
    tls = url.scheme == "https"
    port = url.port or (443 if tls else 80)
    request = f"{method} {url.path.rstrip('/')}{path} HTTP/1.1\r\nHost: {url.netloc}\r\n"
    request += "Connection: close\r\nAccept: application/json\r\n"
    if body is not None:
        request += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(
            url.hostname, port, ssl=ssl.create_default_context() if tls else None
        )
        try:
            writer.write(request.encode() + b"\r\n" + (body or b""))
            raw = await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
    head, _, payload = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        payload = dechunk(payload)
    return status, headers, payload


def dechunk(data: bytes) -> bytes:
    out = bytearray()
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return bytes(out)


def retry_after(value: str | None, default: float = 1.0) -> float:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), at most 60."""
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
            seconds = (when - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError):
            return default
    return min(60.0, max(0.0, seconds))


def ws_base(base: str) -> str:
    url = urlsplit(base)
    scheme = "wss" if url.scheme == "https" else "ws"
    return f"{scheme}://{url.netloc}{url.path.rstrip('/')}"


# -- /proc -------------------------------------------------------------------------------------


def process_tree(roots: list[int]) -> list[int]:
    """``roots`` and all their descendants that are alive."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [p for p in roots if os.path.exists(f"/proc/{p}")]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.append(pid)
            todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """utime + stime of each process, in seconds."""
    times = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        times[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return times


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
    return total


def machine_busy() -> float:
    """CPU seconds all cores spent on anything but idling (``/proc/stat``), steal included."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # not our children (a spawned server)
    return usage.ru_utime + usage.ru_stime


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- servers started by the benchmark ----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Spawned:
    process: subprocess.Popen[bytes]
    url: str
    log: Path


async def wait_ready(server: Spawned, seconds: float = 60.0) -> None:
    deadline = now() + seconds
    while now() < deadline:
        if server.process.poll() is not None:
            tail = server.log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the server exited ({server.process.returncode}):\n{tail}")
        with contextlib.suppress(OSError, TimeoutError, ValueError, IndexError):
            status, _, _ = await http(server.url, "GET", "/", timeout=2.0)
            if status < 500:
                return
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the server at {server.url} did not answer within {seconds:g} s")


UNLIMITED = {
    "LUDOTHEQUE_CREATE_PER_MINUTE": "0",
    "LUDOTHEQUE_MOVES_PER_MINUTE": "0",
    "LUDOTHEQUE_CONNECTIONS_PER_ADDRESS": "0",
}
"""The per-address limits, off for spawned servers: every client of the bench is one address."""


async def spawn(count: int, folder: Path, database_url: str | None = None) -> list[Spawned]:
    """``count`` servers on free ports sharing one database: a fresh SQLite database in
    ``folder``, or ``database_url`` (PostgreSQL for several processes); the per-address
    limits off."""
    where = ["--db", str(folder / "load.sqlite3")] if database_url is None else []
    env = {**os.environ, **UNLIMITED}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    servers: list[Spawned] = []
    try:
        for i in range(count):
            port = free_port()
            log = folder / f"server-{i}.log"
            with log.open("wb") as out:
                process = subprocess.Popen(
                    [sys.executable, "-m", "ludotheque", "serve", "--port", str(port), *where],
                    cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    env=env,
                )  # fmt: skip
            servers.append(Spawned(process, f"http://127.0.0.1:{port}", log))
            await wait_ready(servers[-1])  # one at a time: the first one migrates the database
    except BaseException:
        stop(servers)
        raise
    return servers


def stop(servers: list[Spawned]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)
    for server in servers:
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


# -- the load ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    urls: list[str]
    games: int
    seconds: float
    warmup: float
    interval: float
    timeout: float
    create_concurrency: int
    connect_concurrency: int
    compression: bool
    seed: int


@dataclass
class Bench:
    """What all clients of one run share: limits, the measured window and the tallies."""

    config: Config
    create_limit: asyncio.Semaphore
    connect_limit: asyncio.Semaphore
    window_start: float = math.inf
    window_end: float = math.inf
    stop_at: float = math.inf
    rtts: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)  # in the window
    errors_outside: Counter[str] = field(default_factory=Counter)  # setup, warm-up, drain
    rate_limited: int = 0
    finished: int = 0
    state_messages: int = 0
    state_bytes: int = 0

    def in_window(self, t: float) -> bool:
        return self.window_start <= t < self.window_end

    def sample(self, sent: float, rtt: float) -> None:
        if self.in_window(sent):
            self.rtts.append(rtt)

    def error(self, kind: str) -> None:
        (self.errors if self.in_window(now()) else self.errors_outside)[kind] += 1


class Restart(Exception):
    """This client's game is unusable (over, or its link refused): start another."""


class Client:
    """One player at one screen: a game, its seat's WebSocket, the last snapshot."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        urls = bench.config.urls
        self.create_url = urls[index % len(urls)]
        self.ws_url = ws_base(urls[(index + 1) % len(urls)])
        self.rng = random.Random(bench.config.seed * 1_000_003 + index)
        self.token: str | None = None
        self.ws: ClientConnection | None = None
        self.game: dict[str, Any] = {}

    async def create(self) -> None:
        """A new game on the client's server (retried, honouring Retry-After)."""
        body = dumps({"game": "general", "mode": "local"}).encode()
        bench = self.bench
        for _ in range(20):
            async with bench.create_limit:
                try:
                    status, headers, payload = await http(
                        self.create_url, "POST", "/api/games", body, bench.config.timeout * 2
                    )
                except (OSError, TimeoutError, ValueError, IndexError):
                    status, headers, payload = 0, {}, b""
            if status == 201 or status == 200:
                self.token = loads(payload)["seats"]["both"].rsplit("/", 1)[1]
                return
            if status in (429, 503):
                bench.rate_limited += 1
                await asyncio.sleep(retry_after(headers.get("retry-after")))
                continue
            bench.error(f"create-failed:{status or 'connection'}")
            await asyncio.sleep(1.0)
        raise RuntimeError(f"could not create a game on {self.create_url}")

    async def connect(self) -> None:
        """Open the seat's WebSocket and read the first state (retried, Retry-After)."""
        bench = self.bench
        for _ in range(20):
            retry = 1.0
            async with bench.connect_limit:
                try:
                    async with asyncio.timeout(bench.config.timeout * 2):
                        ws = await connect(
                            f"{self.ws_url}/ws/{self.token}",
                            compression="deflate" if bench.config.compression else None,
                            ping_interval=None,  # a browser does not ping
                            max_size=None,
                            open_timeout=None,
                            close_timeout=2,
                            proxy=None,
                        )
                        try:
                            message = loads(await ws.recv())
                        except BaseException:
                            await ws.close()
                            raise
                    if message.get("type") == "state":
                        self.ws, self.game = ws, message["game"]
                        return
                    await ws.close()
                    bench.error(f"error:{message.get('code')}")
                    raise Restart
                except InvalidStatus as exc:
                    status = exc.response.status_code
                    if status in (429, 503):
                        bench.rate_limited += 1
                        retry = retry_after(exc.response.headers.get("Retry-After"))
                    else:
                        bench.error(f"connect-failed:{status}")
                except (OSError, TimeoutError, WebSocketException):
                    bench.error("connect-failed")
            await asyncio.sleep(retry)
        raise Restart

    async def start(self) -> None:
        """A new game, connected, with a move to play (another game if not)."""
        await self.close()
        for _ in range(5):
            try:
                await self.create()
                await self.connect()
                return
            except Restart:
                continue
        raise RuntimeError("could not start a game")

    async def close(self) -> None:
        if self.ws is not None:
            ws, self.ws = self.ws, None
            with contextlib.suppress(Exception):
                await ws.close()

    async def step(self) -> None:
        """One move and its answer."""
        bench = self.bench
        ws = self.ws
        if ws is None:  # dropped: come back like a browser does, with the same link
            try:
                await self.connect()
            except Restart:
                await self.start()
            return
        game = self.game
        legal = game["legal"]
        if game["outcome"] is not None or not game["can_move"] or not legal:
            if game["outcome"] is None:
                bench.error("no-move")
            await self.start()
            return
        ply = game["ply"]
        message = dumps({"type": "move", "move": self.rng.choice(legal), "ply": ply})
        sent = now()
        resync = False
        try:
            await ws.send(message)
            async with asyncio.timeout(bench.config.timeout):
                while True:
                    raw = await ws.recv()
                    got = now()
                    reply = loads(raw)
                    kind = reply.get("type")
                    if kind == "state":
                        bench.state_messages += 1
                        bench.state_bytes += len(raw)
                        self.game = reply["game"]
                        if resync:
                            break
                        if self.game["ply"] > ply:
                            bench.sample(sent, got - sent)
                            break
                    elif kind == "error":
                        bench.error(f"error:{reply.get('code')}")
                        resync = True  # nothing was played: ask for the state again
                        await ws.send('{"type": "sync"}')
        except TimeoutError:
            bench.error("timeout")
            await self.close()
            return
        except ConnectionClosed:
            bench.error("dropped")
            self.ws = None
            return
        if self.game["outcome"] is not None:
            bench.finished += 1
            await self.start()  # now, so that the next tick has a move to play

    async def play(self, first: float) -> None:
        """A move every interval from ``first`` until the bench stops."""
        interval = self.bench.config.interval
        due = first
        while True:
            delay = due - now()
            if delay > 0:
                await asyncio.sleep(delay)
            if now() >= self.bench.stop_at:
                return
            try:
                await self.step()
            except RuntimeError:
                self.bench.error("gave-up")
                return
            except Exception as exc:  # a surprise from the server: note it, go on afresh
                self.bench.error(f"exception:{type(exc).__name__}")
                await self.close()
            due += interval
            due = max(due, now())  # late: play at once, never in a burst


async def loop_lag(bench: Bench, lags: list[float], period: float = 0.05) -> None:
    """How late the event loop wakes up, during the window."""
    while now() < bench.window_end:
        before = now()
        await asyncio.sleep(period)
        late = now() - before - period
        if bench.in_window(before):
            lags.append(late)


def percentile(values: list[float], q: float) -> float:
    """Nearest rank."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


async def sleep_until(t: float) -> None:
    delay = t - now()
    if delay > 0:
        await asyncio.sleep(delay)


async def measure(config: Config, pids: list[int]) -> dict[str, Any]:
    """One run: set up the games, play, measure the window, close everything."""
    bench = Bench(
        config, asyncio.Semaphore(config.create_concurrency),
        asyncio.Semaphore(config.connect_concurrency),
    )  # fmt: skip
    clients = [Client(bench, i) for i in range(config.games)]
    setup_start = now()
    started = await asyncio.gather(*(c.start() for c in clients), return_exceptions=True)
    live = [c for c, s in zip(clients, started, strict=True) if s is None]
    for failure in started:
        if failure is not None:
            bench.error(f"setup-failed:{type(failure).__name__}")
    setup = now() - setup_start
    if not live:
        raise SystemExit(f"load: no game could start ({kinds(dict(bench.errors_outside))})")
    play_start = now()
    bench.window_start = play_start + config.warmup
    bench.window_end = bench.window_start + config.seconds
    bench.stop_at = bench.window_end
    rng = random.Random(config.seed)
    players = [
        asyncio.create_task(c.play(play_start + rng.uniform(0, config.interval))) for c in live
    ]
    lags: list[float] = []
    lag_task = asyncio.create_task(loop_lag(bench, lags))

    await sleep_until(bench.window_start)
    tree = process_tree(pids)
    cpu_before = cpu_seconds(tree)
    client_before = client_cpu()
    machine_before = machine_busy()
    t0 = now()
    await sleep_until(bench.window_end)
    cpu_after = cpu_seconds(process_tree(pids))
    client_after = client_cpu()
    machine_after = machine_busy()
    elapsed = now() - t0
    rss = rss_bytes(list(cpu_after))

    await asyncio.gather(*players, lag_task)  # the last answers (at most a timeout)
    closing = asyncio.Semaphore(200)

    async def close(client: Client) -> None:
        async with closing:
            await client.close()

    await asyncio.gather(*(close(c) for c in clients))

    server_cpu = sum(t - cpu_before.get(pid, 0.0) for pid, t in cpu_after.items())
    client = client_after - client_before
    others = machine_after - machine_before - client - (server_cpu if pids else 0.0)
    rtts = bench.rtts
    return {
        "games": len(live),
        "seconds": config.seconds,
        "moves": len(rtts),
        "moves_per_s": len(rtts) / config.seconds,
        "rtt_p50_ms": percentile(rtts, 0.50) * 1e3,
        "rtt_p95_ms": percentile(rtts, 0.95) * 1e3,
        "rtt_p99_ms": percentile(rtts, 0.99) * 1e3,
        "rtt_max_ms": (max(rtts) if rtts else math.nan) * 1e3,
        "errors": sum(bench.errors.values()),
        "error_kinds": dict(bench.errors),
        "errors_outside_window": dict(bench.errors_outside),
        "rate_limited": bench.rate_limited,
        "server_cpu_pct": server_cpu / elapsed * 100 if pids else None,
        "server_rss_mb": rss / 2**20 if pids else None,
        "server_processes": len(cpu_after) if pids else None,
        "client_cpu_pct": client / elapsed * 100,
        "others_cpu_pct": max(0.0, others) / elapsed * 100,
        "cores": os.cpu_count(),
        "loop_lag_p99_ms": percentile(lags, 0.99) * 1e3,
        "loop_lag_max_ms": (max(lags) if lags else math.nan) * 1e3,
        "games_finished": bench.finished,
        "state_kb": bench.state_bytes / bench.state_messages / 1e3 if bench.state_messages else 0,
        "setup_s": setup,
    }


# -- the report --------------------------------------------------------------------------------

FIGURES = [
    "games", "moves_per_s", "rtt_p50_ms", "rtt_p95_ms", "rtt_p99_ms", "rtt_max_ms", "errors",
    "server_cpu_pct", "server_rss_mb", "client_cpu_pct", "others_cpu_pct",
    "loop_lag_p99_ms", "loop_lag_max_ms",
    "games_finished", "state_kb", "setup_s",
]  # fmt: skip


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in FIGURES:
        values = [r[key] for r in runs if r[key] is not None]
        out[key] = statistics.median(values) if values else None
    return out


def finite(value: Any) -> Any:
    """``value`` with NaN (no samples) as null, so that the JSON is standard."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def kinds(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


def one_line(r: dict[str, Any]) -> str:
    server = (
        f"server CPU {r['server_cpu_pct']:.1f}%, {r['server_rss_mb']:.0f} MB"
        if r["server_cpu_pct"] is not None
        else "server CPU n/a"
    )
    return (
        f"{r['moves_per_s']:.1f} moves/s, round trip p50 {r['rtt_p50_ms']:.1f} / p95 "
        f"{r['rtt_p95_ms']:.1f} / p99 {r['rtt_p99_ms']:.1f} / max {r['rtt_max_ms']:.1f} ms, "
        f"errors {r['errors']}, {server}, client CPU {r['client_cpu_pct']:.1f}%"
    )


def report(config: Config, runs: list[dict[str, Any]], spawned: bool) -> Iterator[str]:
    m = median_of(runs) if len(runs) > 1 else runs[0]
    where = f"{len(config.urls)} server process{'es' if len(config.urls) > 1 else ''}"
    where += " (spawned)" if spawned else f" ({', '.join(config.urls)})"
    yield (
        f"load: {config.games} live General games (local mode), a move every "
        f"{config.interval:g} s, {config.seconds:g} s measured after {config.warmup:g} s of "
        f"warm-up, {where}"
    )
    if len(runs) > 1:
        for i, r in enumerate(runs, 1):
            yield f"  run {i}: {one_line(r)}"
        yield f"  medians of {len(runs)} runs:"
    yield f"  games                 {m['games']:g} live of {config.games}"
    yield f"  moves per second      {m['moves_per_s']:,.1f}"
    yield (
        f"  round trip            p50 {m['rtt_p50_ms']:.1f} ms  p95 {m['rtt_p95_ms']:.1f} ms  "
        f"p99 {m['rtt_p99_ms']:.1f} ms  max {m['rtt_max_ms']:.1f} ms"
    )
    errors = Counter[str]()
    outside = Counter[str]()
    for r in runs:
        errors.update(r["error_kinds"])
        outside.update(r["errors_outside_window"])
    yield f"  errors                {m['errors']:g}  ({kinds(dict(errors))})"
    if outside:
        yield f"  outside the window    {kinds(dict(outside))}"
    if m["server_cpu_pct"] is None:
        yield "  server                n/a (give --pid, or use --spawn)"
    else:
        yield (
            f"  server CPU            {m['server_cpu_pct']:.1f}% of one core  "
            f"(memory {m['server_rss_mb']:.0f} MB RSS, {runs[-1]['server_processes']} processes)"
        )
    yield (
        f"  client CPU            {m['client_cpu_pct']:.1f}% of one core  (event-loop lag p99 "
        f"{m['loop_lag_p99_ms']:.1f} ms, max {m['loop_lag_max_ms']:.1f} ms)"
    )
    others = "the server and others" if m["server_cpu_pct"] is None else "other processes"
    yield (
        f"  {others + ' CPU':<22}{m['others_cpu_pct']:.1f}% of one core  (machine of "
        f"{runs[-1]['cores']} cores; much here means it was not quiet)"
    )
    rate_limited = sum(r["rate_limited"] for r in runs)
    yield (
        f"  other                 {m['games_finished']:g} games finished in the run, state "
        f"messages {m['state_kb']:.1f} kB on average, set-up {m['setup_s']:.1f} s"
        + (f", {rate_limited} answers 429/503" if rate_limited else "")
    )


async def run_all(args: argparse.Namespace) -> tuple[Config, list[dict[str, Any]]]:
    runs: list[dict[str, Any]] = []
    config: Config | None = None
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="ludotheque-load-") as folder:
            servers = await spawn(args.spawn, Path(folder), args.database) if args.spawn else []
            try:
                urls = [s.url for s in servers] or args.urls or [args.url]
                pids = [s.process.pid for s in servers] or args.pid
                config = Config(
                    urls=[u.rstrip("/") for u in urls], games=args.games,
                    seconds=args.seconds, warmup=args.warmup, interval=args.interval,
                    timeout=args.timeout, create_concurrency=args.create_concurrency,
                    connect_concurrency=args.connect_concurrency,
                    compression=not args.no_compression, seed=args.seed + len(runs),
                )  # fmt: skip
                runs.append(await measure(config, pids))
            finally:
                stop(servers)
        if args.repeat > 1 and sys.stderr.isatty():  # progress; the report repeats it
            print(f"  run {len(runs)}: {one_line(runs[-1])}", file=sys.stderr, flush=True)
    assert config is not None
    return config, runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", default="http://127.0.0.1:8000", help="a running server")
    where.add_argument("--urls", nargs="+", help="several server processes, round robin")
    where.add_argument(
        "--spawn", type=int, nargs="?", const=1, default=0, metavar="K",
        help="start K servers (default 1) on free ports and a temporary SQLite database",
    )  # fmt: skip
    parser.add_argument(
        "--database", metavar="URL",
        help="with --spawn: the servers' DATABASE_URL (e.g. PostgreSQL) instead of SQLite",
    )  # fmt: skip
    parser.add_argument(
        "--pid", type=int, action="append", default=[],
        help="a server process to measure (repeatable; its children count too)",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=100, help="live games (clients)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds discarded first")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--timeout", type=float, default=5.0, help="an answer slower is an error")
    parser.add_argument("--repeat", type=int, default=1, help="runs; medians are printed")
    parser.add_argument("--create-concurrency", type=int, default=20)
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument(
        "--no-compression", action="store_true",
        help="no permessage-deflate (browsers offer it, so it is on by default)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="for the moves and start offsets")
    parser.add_argument("--json", action="store_true", help="one JSON line of results")
    args = parser.parse_args()
    if args.games < 1 or args.repeat < 1 or args.seconds <= 0 or args.interval <= 0:
        parser.error("--games and --repeat must be at least 1, --seconds and --interval > 0")
    descriptors = raise_fd_limit()  # before spawning: the servers inherit it
    if descriptors < args.games + 100:
        print(f"warning: only {descriptors} file descriptors", file=sys.stderr)
    config, runs = asyncio.run(run_all(args))
    if args.json:
        summary = median_of(runs) if len(runs) > 1 else {k: runs[0][k] for k in FIGURES}
        print(dumps(finite({"config": config.__dict__ | {"spawned": args.spawn},
                            "median": summary, "runs": runs})))  # fmt: skip
    else:
        for line in report(config, runs, bool(args.spawn)):
            print(line)


if __name__ == "__main__":
    main()
