"""Child processes that end with their parent: no orphans after a ``kill -9``.

A parent killed by ``SIGKILL`` (``ludotheque serve``, ``ludotheque worker``, the supervisor of
``serve --workers N``) cannot stop its children, and they never notice on their own: an idle
process of a ``ProcessPoolExecutor`` waits on its call queue, whose pipe it holds both ends of
(multiprocessing hands the whole queue to each process), so it never reads end-of-file. And
multiprocessing's resource tracker, which exits when every holder of its pipe is gone (the
parent and each child it spawned), stays because they do. A killed ``serve`` left its tracker,
its computer pool and its hint pool running (12, 42 and 74 MB), each killed ``worker`` two
processes.

``end_with_parent``, called early in a child, makes it end when its parent does, two ways:

* On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the child at once, even one
  busy in code that holds the GIL. But the signal comes when the *thread* that started the
  child ends, not its process: it is asked for only when that thread is the parent's main
  thread, which lasts as long as the process. (In Python 3.11 a ``ProcessPoolExecutor``
  starts its processes in ``submit``, in the caller's thread: the event loop's, the main
  thread in ``serve`` and ``worker``, but a passing thread under a test client; with
  ``max_tasks_per_child``, in its management thread too.) ``Lifeline`` tells the child which.
* Everywhere (macOS, Windows, a child started by another thread), a daemon thread waits for
  the parent process to end: on multiprocessing's parent sentinel (a pipe whose other end only
  the parent holds, so end-of-file means the parent process is gone, whichever thread started
  the child), else by watching ``os.getppid()``. Then it leaves with ``os._exit``.

A parent that died before the child got this far is seen at once: ``os.getppid()`` is no
longer its pid (the child was handed to init or a subreaper).

Once the children are gone the resource tracker reads end-of-file, unlinks the semaphores
the dead parent left and exits: nothing is left.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.process import BaseProcess
from typing import NoReturn

PR_SET_PDEATHSIG = 1
"""From ``<linux/prctl.h>``."""

POLL_SECONDS = 0.5
"""How often the watch looks at ``os.getppid()`` when it has no parent sentinel to wait on."""

EXIT_CODE = 1
"""How a child leaves when its parent is gone."""

_watched: int | None = None
"""The parent this process already watches (``end_with_parent`` twice starts one watch)."""


class Lifeline:
    """Given to a child process with its start-up arguments (an initializer's, say), so
    that it can ``hold()`` it: ``parent`` is the pid of the process that started the child,
    and ``main_thread`` whether that process's main thread did.

    Both are read when the lifeline is pickled, which the ``spawn`` context does in the thread
    that starts the child (the pools' context). Not pickled (``fork``), ``main_thread`` is
    False: unknown, so no kill signal, only the watch. Not for ``forkserver``: there the fork
    server is the child's parent, and the child would think its parent gone.
    """

    def __init__(self, parent: int | None = None, main_thread: bool = False) -> None:
        self.parent = os.getpid() if parent is None else parent
        self.main_thread = main_thread

    def __reduce__(self) -> tuple[type[Lifeline], tuple[int, bool]]:
        return Lifeline, (os.getpid(), threading.current_thread() is threading.main_thread())

    def hold(self) -> bool:
        """In the child: end with the parent (``end_with_parent``)."""
        return end_with_parent(self.parent, kill_signal=self.main_thread)


def end_with_parent(parent: int | None = None, *, kill_signal: bool = False) -> bool:
    """Make this process end when its parent process ends; True if it now does.

    ``parent`` is the parent's pid; by default multiprocessing's parent process, if this is
    one of its children (else there is nothing to do: False). ``kill_signal``: on Linux, also
    have the kernel send SIGKILL when the parent's thread that started this process ends;
    only when that thread is the parent's main thread (else the child would die with a
    thread of a live parent). If the parent is already gone, the process leaves at once.
    """
    global _watched
    known = multiprocessing.parent_process()
    if parent is None:
        if known is None or known.pid is None:
            return False
        parent = known.pid
    if kill_signal:
        ask_for_kill_signal()
    if os.getppid() != parent:  # it died before we asked: we were handed to another
        _leave()
    if _watched == parent:
        return True
    sentinel = known if known is not None and known.pid == parent else None
    threading.Thread(
        target=_watch, args=(parent, sentinel), name="ludotheque-lifeline", daemon=True
    ).start()
    _watched = parent
    return True


def ask_for_kill_signal() -> bool:
    """Ask Linux to SIGKILL this process when the thread that started it ends; True if it
    will. False elsewhere, or if ``prctl`` cannot be called."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    prctl.restype = ctypes.c_int
    done: int = prctl(
        ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(int(signal.SIGKILL)),
        ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0),
    )  # fmt: skip
    return done == 0


def _watch(parent: int, sentinel: BaseProcess | None) -> None:
    """The watch's thread: returns only by ending the process, once ``parent`` is gone."""
    if sentinel is not None:
        with contextlib.suppress(Exception):  # a closed sentinel: watch the pid instead
            sentinel.join()  # end-of-file on its pipe: the parent process is gone
    # the sentinel also ends if the parent closed its end while alive: then wait for its pid
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    _leave()


def _leave() -> NoReturn:
    """End this process now, without clean-up: its parent, who wanted its work, is gone (and
    the resource tracker unlinks what the parent left). Nothing is written: a full pipe for
    stderr would block the exit."""
    os._exit(EXIT_CODE)
