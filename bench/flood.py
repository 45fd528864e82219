"""WebSocket floods: does one socket sending as fast as it can slow another game down?

    python bench/flood.py [--repeat 3] [--seconds 10] [--scenarios ping sync all] [--json]
    python bench/flood.py --database postgresql+psycopg://… [--output bench/results/x.jsonl]

Each run starts one ``python -m ludotheque serve`` on a fresh SQLite database (or on
``--database URL``, a fresh set of games in it; its per-address limits off, as ``load.py``
does: every client here is one address) and one measured client: a local General game whose
seat's WebSocket plays a random legal move every ``--interval`` seconds and times each round
trip (the move sent → the state with the new ply received; a new game when one ends). The
run measures ``--seconds`` of it, after ``--warmup`` seconds, in a quiet window first (the
baseline), then in one window per scenario, each with its flood on:

- ``ping``: one socket sends ``{"type": "ping"}`` as fast as it can;
- ``sync``: one socket sends ``{"type": "sync"}`` on a backgammon game of 60 moves (each
  ``sync`` reads the log and sends the whole game: the costliest message a seat may send);
- ``chat``, ``unknown`` (``{"type": "nonsense"}``) and ``malformed`` (text that is not JSON):
  one socket each;
- ``all``: the five at once.

The flooders run in a process of their own (asyncio, so that they measure neither the
measured client nor each other's thread switches), each writing as fast as its socket takes
it and reading what comes back. A flooder that the server closes opens another socket at once
and goes on, as an attacker would: so each scenario floods for its whole window. What the
server did with them is counted: messages sent, answers by type (``state``, ``pong``,
``error too-fast``...), sockets opened and how they were closed (1008: the budget's policy
close, see ``ludotheque/server/budget.py``).

Printed, per window, as medians over the runs: the round trip's p50, p90 and max, the p50's
ratio to the same run's quiet window, the server's CPU (% of one core, its process and
children, from ``/proc``), the flooders' own CPU, and the tracebacks in the server's log.
The goal: a median round trip under 100 ms while one socket floods. ``--output FILE`` appends
one JSON line per run (``bench/results/``). Linux only (``/proc``). Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import (  # a sibling script, not a package
    cpu_seconds,
    dumps,
    finite,
    http,
    loads,
    now,
    percentile,
    process_tree,
    raise_fd_limit,
    spawn,
    stop,
    ws_base,
)

KINDS: dict[str, str] = {
    "ping": '{"type": "ping"}',
    "sync": '{"type": "sync"}',
    "chat": '{"type": "chat", "text": "hello"}',
    "unknown": '{"type": "nonsense"}',
    "malformed": '{"type": "ping"',
}
"""What each kind of flooder sends, again and again."""
SCENARIOS: dict[str, list[str]] = {**{kind: [kind] for kind in KINDS}, "all": list(KINDS)}
BACKGAMMON_MOVES = 60


# -- the games -------------------------------------------------------------------------------


async def post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    status, _, payload = await http(base, "POST", path, dumps(body).encode())
    return status, loads(payload) if payload else {}


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


async def new_game(base: str, **spec: Any) -> dict[str, Any]:
    status, created = await post(base, "/api/games", spec)
    if status != 201:
        raise RuntimeError(f"creating {spec}: {status} {created}")
    return created


async def long_backgammon(base: str, seed: int) -> str:
    """A local backgammon game with ``BACKGAMMON_MOVES`` moves played (random legal ones):
    the seat's token."""
    rng = random.Random(seed)
    while True:
        created = await new_game(base, game="backgammon", mode="local")
        token, state = token_of(created["seats"]["both"]), created["game"]
        moves = 0
        while moves < BACKGAMMON_MOVES and state["outcome"] is None and state["legal"]:
            move = {"move": rng.choice(state["legal"]), "ply": state["ply"]}
            status, state = await post(base, f"/api/play/{token}/move", move)
            if status != 200:
                raise RuntimeError(f"a backgammon move: {status} {state}")
            moves += 1
        if moves == BACKGAMMON_MOVES:
            return token


# -- the measured client ---------------------------------------------------------------------


class Measured:
    """A local General game played over its seat's WebSocket, a move every ``interval``; the
    round trips of the moves sent within a window."""

    def __init__(self, base: str, interval: float, timeout: float, seed: int) -> None:
        self.base = base
        self.interval = interval
        self.timeout = timeout
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.game: dict[str, Any] = {}
        self.errors: Counter[str] = Counter()

    async def start(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        created = await new_game(self.base, game="general", mode="local")
        url = f"{ws_base(self.base)}/ws/{token_of(created['seats']['both'])}"
        self.ws = await connect(url, ping_interval=None, max_size=None, proxy=None)
        self.game = loads(await self.ws.recv())["game"]

    async def move(self) -> float | None:
        """One move and its round trip (``None``: not answered as it should be)."""
        if self.ws is None or self.game["outcome"] is not None or not self.game["legal"]:
            await self.start()
        assert self.ws is not None
        ply = self.game["ply"]
        sent = now()
        try:
            await self.ws.send(dumps({"type": "move", "move": self.rng.choice(self.game["legal"]),
                                      "ply": ply}))  # fmt: skip
            async with asyncio.timeout(self.timeout):
                while True:
                    reply = loads(await self.ws.recv())
                    if reply.get("type") == "state":
                        self.game = reply["game"]
                        if self.game["ply"] > ply:
                            return now() - sent
                    elif reply.get("type") == "error":
                        self.errors[f"error {reply.get('code')}"] += 1
                        await self.ws.send('{"type": "sync"}')
        except TimeoutError:
            self.errors["timeout"] += 1
        except (ConnectionClosed, OSError) as exc:
            self.errors[type(exc).__name__] += 1
            self.ws = None
        return None

    async def window(self, warmup: float, seconds: float) -> list[float]:
        """Moves every ``interval`` for ``warmup + seconds``; the round trips of the last
        ``seconds``."""
        began = now()
        start, end = began + warmup, began + warmup + seconds
        trips: list[float] = []
        due = began
        while now() < end:
            at = now()
            trip = await self.move()
            if trip is not None and at >= start:
                trips.append(trip)
            due = max(due + self.interval, now())
            await asyncio.sleep(max(0.0, due - now()))
        return trips

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


# -- the flooders (in a process of their own) --------------------------------------------------


async def flood_one(url: str, raw: str, until: float, tally: dict[str, Any]) -> None:
    """Send ``raw`` on a socket at ``url`` as fast as it is taken, reading what comes back;
    closed, open another one, until ``until`` (the loop's clock)."""
    answers: Counter[str] = tally["answers"]
    closes: Counter[str] = tally["closes"]
    while now() < until:
        try:
            ws = await connect(url, ping_interval=None, max_size=None, proxy=None,
                               open_timeout=10, close_timeout=1)  # fmt: skip
        except (OSError, TimeoutError, WebSocketException) as exc:
            closes[f"not opened: {type(exc).__name__}"] += 1
            await asyncio.sleep(0.05)
            continue
        tally["sockets"] += 1
        opened = now()
        sent_here = 0

        async def read(ws: ClientConnection = ws) -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in ws:
                    reply = loads(message)
                    kind = reply.get("type")
                    answers[f"error {reply.get('code')}" if kind == "error" else str(kind)] += 1

        reader = asyncio.create_task(read())
        try:
            while now() < until:
                await ws.send(raw)
                sent_here += 1
                tally["sent"] += 1
                if sent_here % 64 == 0:
                    await asyncio.sleep(0)  # let the reader read
        except ConnectionClosed:
            pass
        finally:
            if now() < until:  # closed by the server
                code = ws.close_code
                closes[str(code)] += 1
                tally["lifetimes"].append(now() - opened)
                tally["sent_per_socket"].append(sent_here)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            with contextlib.suppress(Exception):
                await ws.close()


async def flood(targets: list[tuple[str, str, str]], seconds: float) -> dict[str, Any]:
    """Every ``(kind, url, raw)`` flooded for ``seconds``: a tally per kind."""
    until = now() + seconds
    tallies: dict[str, dict[str, Any]] = {}
    for kind, _, _ in targets:
        tallies[kind] = {"sent": 0, "sockets": 0, "answers": Counter(), "closes": Counter(),
                         "lifetimes": [], "sent_per_socket": []}  # fmt: skip
    await asyncio.gather(*(flood_one(url, raw, until, tallies[k]) for k, url, raw in targets))
    return tallies


def flooder_process(
    targets: list[tuple[str, str, str]], seconds: float, results: Any
) -> None:  # fmt: skip
    """The flooders' process: flood, then put the tallies (and our CPU seconds) on
    ``results``."""
    began = time.process_time()
    tallies = asyncio.run(flood(targets, seconds))
    summary = {}
    for kind, t in tallies.items():
        lifetimes = t["lifetimes"]
        summary[kind] = {
            "sent": t["sent"],
            "sockets": t["sockets"],
            "answers": dict(t["answers"]),
            "closes": dict(t["closes"]),
            "socket_life_ms_median": statistics.median(lifetimes) * 1e3 if lifetimes else None,
            "sent_per_socket_median": (
                statistics.median(t["sent_per_socket"]) if t["sent_per_socket"] else None
            ),
        }
    results.put({"tallies": summary, "cpu_s": time.process_time() - began})


# -- one run -----------------------------------------------------------------------------------


def trip_figures(trips: list[float]) -> dict[str, Any]:
    return {
        "moves": len(trips),
        "p50_ms": percentile(trips, 0.50) * 1e3,
        "p90_ms": percentile(trips, 0.90) * 1e3,
        "max_ms": (max(trips) if trips else math.nan) * 1e3,
    }


async def one_run(args: argparse.Namespace, index: int) -> dict[str, Any]:
    """A fresh server; the quiet window, then each scenario's."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="ludotheque-flood-") as folder:
        servers = await spawn(1, Path(folder), args.database)
        server = servers[0]
        try:
            base = server.url
            friend = await new_game(base, game="general", mode="friend")
            seat = token_of(friend["seats"]["rebels"])
            sync_seat = await long_backgammon(base, args.seed + index)
            urls = {kind: f"{ws_base(base)}/ws/{seat}" for kind in KINDS}
            urls["sync"] = f"{ws_base(base)}/ws/{sync_seat}"
            measured = Measured(base, args.interval, args.timeout, args.seed * 1009 + index)
            await measured.start()
            windows: dict[str, Any] = {}
            for scenario in ["quiet", *args.scenarios]:
                flooders = None
                results = context.Queue()
                if scenario != "quiet":
                    targets = [(k, urls[k], KINDS[k]) for k in SCENARIOS[scenario]]
                    flooders = context.Process(
                        target=flooder_process,
                        args=(targets, args.warmup + args.seconds + 0.5, results),
                    )
                    flooders.start()
                    await asyncio.sleep(0.5)  # the flooders' interpreter starts
                tree = process_tree([server.process.pid])
                cpu_before, t0 = cpu_seconds(tree), now()
                trips = await measured.window(args.warmup, args.seconds)
                cpu_after = cpu_seconds(process_tree([server.process.pid]))
                elapsed = now() - t0
                window: dict[str, Any] = trip_figures(trips)
                window["server_cpu_pct"] = (
                    sum(t - cpu_before.get(p, 0.0) for p, t in cpu_after.items()) / elapsed * 100
                )
                if flooders is not None:
                    report = await asyncio.to_thread(results.get, True, 60)
                    await asyncio.to_thread(flooders.join, 30)
                    window["flooders"] = report["tallies"]
                    window["flooder_cpu_pct"] = report["cpu_s"] / elapsed * 100
                window["errors"] = dict(measured.errors)
                measured.errors.clear()
                windows[scenario] = window
                if sys.stderr.isatty():
                    print(f"  run {index + 1}, {scenario}: {one_line(window)}", file=sys.stderr)
            await measured.close()
        finally:
            stop(servers)
        log = server.log.read_text(errors="replace")
    quiet = windows["quiet"]["p50_ms"]
    for window in windows.values():
        window["ratio_p50"] = window["p50_ms"] / quiet if quiet else math.nan
    return {
        "run": index + 1,
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "database": "postgresql" if args.database else "sqlite",
        "windows": windows,
        # one per exception logged (a chained cause has a "Traceback" header of its own)
        "tracebacks": log.count("Traceback (most recent call last)")
        - log.count("The above exception was the direct cause")
        - log.count("During handling of the above exception"),
    }


# -- the report --------------------------------------------------------------------------------


def one_line(w: dict[str, Any]) -> str:
    return (f"round trip p50 {w['p50_ms']:.1f} / p90 {w['p90_ms']:.1f} / max {w['max_ms']:.1f} "
            f"ms over {w['moves']} moves, server CPU {w['server_cpu_pct']:.0f}%")  # fmt: skip


def median(values: list[Any]) -> float:
    kept = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return statistics.median(kept) if kept else math.nan


def treated(runs: list[dict[str, Any]], scenario: str) -> list[str]:
    """How the flooders of ``scenario`` were treated, summed over the runs: what they wrote,
    what came back (``error too-fast`` and ``error flood`` are the budget's refusals), and how
    their sockets were closed."""
    lines = []
    for kind in SCENARIOS[scenario]:
        sent = sockets = 0
        answers: Counter[str] = Counter()
        closes: Counter[str] = Counter()
        lives: list[float] = []
        before_close: list[float] = []
        for r in runs:
            t = r["windows"][scenario]["flooders"][kind]
            sent += t["sent"]
            sockets += t["sockets"]
            answers.update(t["answers"])
            closes.update(t["closes"])
            if t["socket_life_ms_median"] is not None:
                lives.append(t["socket_life_ms_median"])
                before_close.append(t["sent_per_socket_median"])
        refused = answers["error too-fast"] + answers["error flood"]
        received = ", ".join(f"{k} {v:,}" for k, v in sorted(answers.items())) or "nothing"
        closed = ", ".join(f"{k} ×{v:,}" for k, v in sorted(closes.items())) or "never"
        lines.append(f"    {kind:<10} wrote {sent:,} messages on {sockets:,} sockets; received "
                     f"{sum(answers.values()):,} ({refused:,} refusals): {received}")  # fmt: skip
        life = ""
        if lives:
            life = (f"; a socket lived {median(lives):.0f} ms, written "
                    f"{median(before_close):,.0f} messages (medians)")  # fmt: skip
        lines.append(f"    {'':<10} closed by the server: {closed}{life}")
    return lines


def report(args: argparse.Namespace, runs: list[dict[str, Any]]) -> list[str]:
    where = "PostgreSQL" if args.database else "SQLite"
    lines = [
        f"flood: one `ludotheque serve` on {where} (fresh per run), {len(runs)} run(s); a General "
        f"game's move every {args.interval:g} s over its WebSocket, {args.seconds:g} s measured "
        f"per window after {args.warmup:g} s; medians over the runs",
        f"  {'window':<18}{'p50':>9}{'p90':>9}{'max':>9}{'p50 / quiet':>13}{'server CPU':>12}"
        f"{'flooders CPU':>14}",
    ]
    for scenario in ["quiet", *args.scenarios]:
        ws = [r["windows"][scenario] for r in runs]
        name = scenario if scenario == "quiet" else f"{scenario} ×{len(SCENARIOS[scenario])}"
        flooders = median([w.get("flooder_cpu_pct") for w in ws])
        p50, p90 = median([w["p50_ms"] for w in ws]), median([w["p90_ms"] for w in ws])
        lines.append(
            f"  {name:<18}{p50:>7.1f}ms{p90:>7.1f}ms{median([w['max_ms'] for w in ws]):>7.1f}ms"
            f"{median([w['ratio_p50'] for w in ws]):>12.2f}×"
            f"{median([w['server_cpu_pct'] for w in ws]):>11.0f}%"
            + (f"{flooders:>13.0f}%" if not math.isnan(flooders) else f"{'–':>14}")
        )
    for i, r in enumerate(runs, 1):
        cells = ", ".join(f"{s} {w['p50_ms']:.1f}" for s, w in r["windows"].items())
        lines.append(f"  run {i} p50 (ms): {cells}")
    errors: Counter[str] = Counter()
    for r in runs:
        for w in r["windows"].values():
            errors.update(w["errors"])
    lines.append(f"  measured client's errors: {dict(errors) or 'none'}")
    for scenario in args.scenarios:
        lines.append(f"  flooders of '{scenario}' (summed over the runs):")
        lines += treated(runs, scenario)
    lines.append(f"  tracebacks in the server's log: {[r['tracebacks'] for r in runs]}")
    one = [median([r["windows"][s]["p50_ms"] for r in runs]) for s in args.scenarios
           if len(SCENARIOS[s]) == 1]  # fmt: skip
    if one:
        verdict = "met" if max(one) < 100 else "NOT met"
        lines.append(f"  goal (median round trip < 100 ms while one socket floods): {verdict} "
                     f"(worst single-flooder median {max(one):.1f} ms)")  # fmt: skip
    return lines


async def run_all(args: argparse.Namespace) -> list[dict[str, Any]]:
    runs = []
    for index in range(args.repeat):
        run = await one_run(args, index)
        runs.append(run)
        if args.output:
            with open(args.output, "a") as f:
                f.write(json.dumps(finite({"config": config_of(args), **run})) + "\n")
    return runs


def config_of(args: argparse.Namespace) -> dict[str, Any]:
    return {"seconds": args.seconds, "warmup": args.warmup, "interval": args.interval,
            "scenarios": args.scenarios, "seed": args.seed}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database", metavar="URL",
        help="the server's DATABASE_URL (PostgreSQL) instead of a fresh SQLite database",
    )  # fmt: skip
    parser.add_argument(
        "--scenarios", nargs="+", default=["ping", "sync", "all"], choices=list(SCENARIOS),
        help="the flood windows after the quiet one (default: ping sync all)",
    )  # fmt: skip
    parser.add_argument("--seconds", type=float, default=10.0, help="measured per window")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds discarded first")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between moves")
    parser.add_argument("--timeout", type=float, default=5.0, help="a slower answer is an error")
    parser.add_argument("--repeat", type=int, default=3, help="runs (a fresh server each)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", help="append each run as a JSON line to this file")
    parser.add_argument("--json", action="store_true", help="the runs as one JSON line")
    args = parser.parse_args()
    if args.repeat < 1 or args.seconds <= 0 or args.interval <= 0:
        parser.error("--repeat must be at least 1, --seconds and --interval > 0")
    raise_fd_limit()
    runs = asyncio.run(run_all(args))
    if args.json:
        print(dumps(finite({"config": config_of(args), "runs": runs})))
    else:
        print("\n".join(report(args, runs)))


if __name__ == "__main__":
    main()
