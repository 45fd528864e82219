"""The computer thinks in separate processes, so that the app stays responsive."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from ..ai.levels import make_agent
from ..record import Record


def think(record_json: str, level: str, seed: int) -> str:
    """The move (notation) the computer at ``level`` plays in the record's current position.

    Runs in a worker process. The agent is shown the game so far, so that it respects the
    repetition draw it cannot see in a single position.
    """
    record = Record.from_json(record_json)
    agent = make_agent(record.game, level, seed=seed)
    memory = getattr(agent, "memory", None)
    if memory is not None:
        for state in record.states[:-1]:
            memory.observe(state)
    return str(agent.choose(record.state))


class ComputerPool:
    """A pool of worker processes for ``think``."""

    def __init__(self, workers: int = 1) -> None:
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=context)

    async def choose(self, record_json: str, level: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, think, record_json, level, seed)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
