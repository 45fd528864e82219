"""Running a coroutine from a plain test whatever the worker ran before."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own. The browser tests' session-wide Playwright (its
    sync API) leaves its event loop marked as running in the main thread, where ``asyncio.run``
    then refuses: a test run on the same worker after any browser test failed by the order the
    tests happened to be shared out in."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
