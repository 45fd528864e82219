"""Tournaments of bots on two server processes: a Swiss of 16 bots over 5 rounds, then an arena
of 20 bots.

    python bench/tournament.py [--database postgresql+psycopg://…] [--arena-minutes 2]
                               [--control 1+0] [--game general] [--output FILE]

One ``ludotheque serve --workers 2`` on PostgreSQL: a throwaway server (``tests/pgcluster.py``,
run as an unprivileged user as the tests do) unless ``--database`` names one. The bots are
clients of the Bot API in this process, one thread per stream: each follows its event stream,
opens each game's stream and answers every position it must play with a random legal move
(``POST /api/bot/game/{id}/move/{move}?ply=…``). The tournaments are created and joined
through the API and run on the server's job queue, whichever process takes each job.

Printed for each tournament: games played, the events streamed to the bots per second (every
line of their event and game streams, keep-alives left out, over the tournament's wall time),
and a bot move's round trip (the POST sent → the move seen on the bot's own game stream):
p50, p99 and max. ``--output FILE`` appends the figures as one JSON line. Never run as a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludotheque.bridge import ApiError, Client  # noqa: E402
from tests.pgcluster import PgCluster  # noqa: E402
from tests.server.live import bot, free_port  # noqa: E402

UNLIMITED = {
    "LUDOTHEQUE_CREATE_PER_MINUTE": "0", "LUDOTHEQUE_MOVES_PER_MINUTE": "0",
    "LUDOTHEQUE_CONNECTIONS_PER_ADDRESS": "0", "LUDOTHEQUE_PASSWORD_MEMORY": "8",
}  # fmt: skip


@dataclass
class Tally:
    """What the bots saw: lines streamed, move round trips (seconds)."""

    lines: int = 0
    trips: list[float] = field(default_factory=list)
    refused: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def line(self) -> None:
        with self.lock:
            self.lines += 1


class Bot:
    """One bot: its event stream, a thread per game, random legal moves, timed."""

    def __init__(self, client: Client, tally: Tally, seed: int) -> None:
        self.client, self.tally = client, tally
        self.rng = random.Random(seed)
        self.games: set[str] = set()
        threading.Thread(target=self.events, daemon=True).start()

    def events(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                for event in self.client.stream("/api/stream/event"):
                    self.tally.line()
                    if event.get("type") == "gameStart":
                        game_id = event["game"]["id"]
                        if game_id not in self.games:
                            self.games.add(game_id)
                            threading.Thread(target=self.play, args=(game_id,),
                                             daemon=True).start()  # fmt: skip
            time.sleep(1.0)

    def play(self, game_id: str) -> None:
        sent: tuple[int, float] | None = None  # the ply answered, when
        for line in self.client.stream(f"/api/bot/game/stream/{game_id}"):
            self.tally.line()
            kind = line.get("type")
            if kind not in ("gameFull", "gameState"):
                continue
            state = line["state"] if kind == "gameFull" else line
            if sent is not None and state["ply"] > sent[0]:
                with self.tally.lock:
                    self.tally.trips.append(time.perf_counter() - sent[1])
                sent = None
            if state["status"] != "started":
                if state.get("matchGoesOn") and state.get("nextGame") is None:
                    with contextlib.suppress(ApiError):
                        self.client.call("POST", f"/api/bot/game/{game_id}/rematch")
                    continue
                return
            if state["legal"] and sent is None:
                move = self.rng.choice(state["legal"])
                began = time.perf_counter()
                try:
                    self.client.move(game_id, move, state["ply"])
                    sent = (state["ply"], began)
                except ApiError:
                    with self.tally.lock:
                        self.tally.refused += 1


def serve(url: str, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        env={**os.environ, **UNLIMITED, "DATABASE_URL": url},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            urllib.request.urlopen(base + "/healthz", timeout=2).read()
            return process, base
        if process.poll() is not None:
            break
        time.sleep(0.3)
    raise RuntimeError((folder / "server.log").read_text(errors="replace")[-3000:])


def run(clients: list[Client], tally: Tally, spec: dict[str, Any]) -> dict[str, Any]:
    """One tournament of ``clients``: created, joined, followed to its end; its figures (the
    tally counts from zero)."""
    with tally.lock:
        tally.lines, tally.trips, tally.refused = 0, [], 0
    made = clients[0].call("POST", "/api/tournaments", {**spec, "starts_in": 0.1})
    for c in clients:
        c.call("POST", f"/api/tournament/{made['id']}/join")
    began = time.monotonic()
    while True:
        view = clients[0].call("GET", f"/api/tournament/{made['id']}")
        if view["status"] == "finished":
            break
        time.sleep(1.0)
    wall = time.monotonic() - began
    trips = sorted(tally.trips)
    games = [g for g in view["games"] if g["black"] is not None and g["status"] == "done"]

    def pct(p: float) -> float:
        return 1000 * trips[min(len(trips) - 1, int(p * len(trips)))] if trips else float("nan")

    return {"kind": spec["kind"], "bots": len(clients), "games": len(games),
            "rounds": view["round"] if spec["kind"] == "swiss" else None,
            "seconds": round(wall, 1), "events": tally.lines,
            "events_per_second": round(tally.lines / wall, 1), "moves": len(trips),
            "refused": tally.refused,
            "p50_ms": round(1000 * statistics.median(trips), 1) if trips else None,
            "p99_ms": round(pct(0.99), 1),
            "max_ms": round(1000 * trips[-1], 1) if trips else None}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a PostgreSQL URL (default: a throwaway server)")
    parser.add_argument("--arena-minutes", type=int, default=2)
    parser.add_argument("--control", default="1+0")
    parser.add_argument("--game", default="general")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    cluster = None
    url = args.database
    if url is None:
        cluster = PgCluster().start()
        url = cluster.create_database("tournament_bench")
    with tempfile.TemporaryDirectory() as folder:
        process, base = serve(url, Path(folder))
        try:
            clients = [bot(base, f"bench{i:02d}") for i in range(20)]
            tally = Tally()
            bots = [Bot(c, tally, i) for i, c in enumerate(clients)]
            time.sleep(1.0)  # their event streams open
            results = [
                run(clients[:16], tally, {"name": "Swiss bench", "kind": "swiss", "rounds": 5,
                                          "game": args.game, "control": args.control}),
                run(clients, tally, {"name": "Arena bench", "kind": "arena",
                                     "minutes": args.arena_minutes, "game": args.game,
                                     "control": args.control}),
            ]  # fmt: skip
            del bots
        finally:
            process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=20)
            if process.poll() is None:
                process.kill()
            if cluster is not None:
                cluster.stop()
    print(f"tournaments on `ludotheque serve --workers 2`, PostgreSQL; {args.game} {args.control}")
    for r in results:
        rounds = "" if r["rounds"] is None else f" ({r['rounds']} rounds)"
        print(f"  {r['kind']:<6} {r['bots']} bots: {r['games']} games in {r['seconds']} s"
              f"{rounds}; "
              f"{r['events_per_second']} events/s streamed ({r['events']}); bot move round trip "
              f"p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms "
              f"over {r['moves']} moves ({r['refused']} refused)")  # fmt: skip
    if args.output:
        with args.output.open("a") as out:
            out.write(json.dumps({"at": time.time(), "game": args.game, "control": args.control,
                                  "results": results}) + "\n")  # fmt: skip


if __name__ == "__main__":
    main()
