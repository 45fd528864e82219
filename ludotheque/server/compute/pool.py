"""The computer thinks in separate processes, so that the app stays responsive."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ...ai.agent import tell
from ...ai.levels import make_agent
from ...record import Record
from .lifeline import Lifeline


def think(record_json: str, level: str, seed: int) -> str:
    """The move (notation) the computer at ``level`` plays in the record's current position.

    Runs in a worker process. The agent is shown the game so far (``tell``), so that it
    respects the draws it cannot see in a single position: the record's repetition and turn
    limit, which the record's own options set.
    """
    record = Record.from_json(record_json)
    agent = make_agent(record.game, level, seed=seed)
    tell(agent, record)
    return str(agent.choose(record.state))


def start_process(
    lifeline: Lifeline, initializer: Callable[..., object] | None, initargs: tuple[Any, ...]
) -> None:
    """The initializer of every pool process: it ends with the server that started it (even
    one killed by SIGKILL, see ``lifeline``), then runs the pool's own ``initializer``."""
    lifeline.hold()
    if initializer is not None:
        initializer(*initargs)


class ComputerPool:
    """A pool of processes for ``think``; ``kill`` ends a computation that took too long.
    Its processes end with this one, however it ends (``lifeline``)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.context = multiprocessing.get_context("spawn")
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return self._executor()

    def _executor(
        self, initializer: Callable[..., object] | None = None, initargs: tuple[Any, ...] = ()
    ) -> ProcessPoolExecutor:
        """An executor whose processes end with this process, then run ``initializer``."""
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=self.context, initializer=start_process,
            initargs=(Lifeline(), initializer, initargs),
        )  # fmt: skip

    async def choose(self, record_json: str, level: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, think, record_json, level, seed)

    def kill(self) -> None:
        """Stop every computation now (their futures fail) and start fresh processes."""
        old, self.pool = self.pool, self._new()
        processes = list(getattr(old, "_processes", {}).values())
        for process in processes:
            process.kill()
        old.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(5)

    def close(self) -> None:
        """Stop the processes and wait for them (so that no semaphore is left behind)."""
        processes = list(getattr(self.pool, "_processes", {}).values())
        for process in processes:
            process.kill()
            process.join(5)
        # waiting lets the pool's thread end and the pool drop its queues now: their
        # semaphores are unlinked before uvicorn re-raises SIGTERM (which skips atexit)
        self.pool.shutdown(wait=True, cancel_futures=True)
