"""What an operator watches: Prometheus metrics, through ``prometheus-client``.

Counted where things happen: changes written to games' logs and their round trip (a move
received to its answer sent), open sockets, refusals by limit, failed and dead jobs, the bus's
reconnections; read at each scrape from the database: the jobs queued, running, failed and
dead. ``/metrics`` serves them (see ``ops``).

Several server processes on one port (``serve --workers N``) share their figures through
``prometheus-client``'s multiprocess mode: ``PROMETHEUS_MULTIPROC_DIR`` names a directory
(``serve --workers`` makes one when it is not set), and a scrape of any process reports all.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

CONTENT_TYPE = CONTENT_TYPE_LATEST
ROUND_TRIP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("ludotheque_moves", "Changes of games written to their logs, by kind", ["kind"])
ROUND_TRIP = Histogram(
    "ludotheque_move_round_trip_seconds",
    "Seconds from a change's arrival (a move, an undo, ...) to its answer, by path",
    ["path"],
    buckets=ROUND_TRIP_BUCKETS,
)
SOCKETS = Gauge(
    "ludotheque_open_sockets", "Open WebSockets, by kind", ["kind"], multiprocess_mode="livesum"
)
REFUSALS = Counter("ludotheque_refusals", "Requests refused by a limit, by limit", ["limit"])
JOB_FAILURES = Counter(
    "ludotheque_job_failures", "Failed tries of jobs, by kind and what followed", ["kind", "then"]
)
JOBS = Gauge(
    "ludotheque_jobs", "Jobs in the queue, by status", ["status"], multiprocess_mode="mostrecent"
)
BUS_RECONNECTS = Counter("ludotheque_bus_reconnects", "Times the bus listened again after a gap")
GAMES_IN_MEMORY = Gauge(
    "ludotheque_games_in_memory", "Games held in this process's memory", multiprocess_mode="livesum"
)
JOB_STATUSES = ("queued", "running", "failed", "dead")


def refused(limit: str) -> None:
    """A request refused by ``limit`` (``create``, ``change``, ``sign-in``, ``flood``, ...)."""
    REFUSALS.labels(limit).inc()


def moved(kind: str) -> None:
    MOVES.labels(kind).inc()


def round_trip(path: str, seconds: float) -> None:
    ROUND_TRIP.labels(path).observe(seconds)


def socket_opened(kind: str) -> None:
    SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    SOCKETS.labels(kind).dec()


def job_failed(kind: str, dead: bool) -> None:
    JOB_FAILURES.labels(kind, "dead" if dead else "retried").inc()


def render(jobs: dict[str, int], games_in_memory: int) -> bytes:
    """The text a scrape reads, with the queue's figures read just now."""
    for status in JOB_STATUSES:
        JOBS.labels(status).set(jobs.get(status, 0))
    GAMES_IN_MEMORY.set(games_in_memory)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest()
