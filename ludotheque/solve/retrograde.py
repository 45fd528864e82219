"""The retrograde solver of the General: one sub-layer at a time, kept on disk once finished.

``solve(folder)`` solves every sub-layer that is not yet in ``folder`` (``L06F0.npy`` …
``L16F1.npy``, one ``uint16`` code per index, see ``kernels``), smallest first, so a stopped run
resumes where it stopped. Each sub-layer reads only its own finished inputs: the layer below
(captures) and, for the flight still available, its own layer with the flight used (the flight).
Its figures (positions of each value, time, memory) go to ``L06F0.json`` … beside it.

This module needs numba (the ``solve`` extra); reading finished tables does not.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

import numpy as np
import numpy.typing as npt

from . import kernels
from .layout import WON, binomials, rebel_sets, slots, sublayer_size, sublayers, unrank

Table = npt.NDArray[np.uint16]
CHUNK = 1 << 15
"""Rebel sets per call of a kernel: the progress bar moves between calls."""


@dataclass
class SublayerStats:
    """What solving one sub-layer found and cost."""

    rebels: int
    flight: int
    positions: int = 0
    """Valid positions (the unused slot of s4 with the flight available left out)."""
    counts: dict[str, int] = field(default_factory=dict)
    """``general-wins``, ``rebels-win``, ``draw``, for each side to move (``r:``/``g:``)."""
    max_plies: int = 0
    """The longest decided distance (plies to the end with best play)."""
    levels: int = 0
    seconds: float = 0.0
    """Wall-clock time."""
    cpu_seconds: float = 0.0
    """Processor time (the machine may be shared)."""
    peak_rss_mb: float = 0.0
    arrays_mb: float = 0.0

    def line(self) -> str:
        """One line for the log."""
        c = self.counts
        wins = c.get("r:general-wins", 0) + c.get("g:general-wins", 0)
        loses = c.get("r:rebels-win", 0) + c.get("g:rebels-win", 0)
        draws = c.get("r:draw", 0) + c.get("g:draw", 0)
        return (
            f"{self.rebels:2d} rebels, flight {'available' if self.flight else 'used'}: "
            f"{self.positions:,} positions; general wins {wins:,}, rebels win {loses:,}, "
            f"draw {draws:,}; longest {self.max_plies} plies; {self.seconds:.0f} s "
            f"({self.cpu_seconds:.0f} s of processor), "
            f"peak {self.peak_rss_mb:.0f} MB"
        )


def name(k: int, flight: int) -> str:
    """The file stem of a sub-layer: ``L06F1``."""
    return f"L{k:02d}F{flight}"


class Progress:
    """A progress bar on one line of a terminal; in a log file, a line every ``every`` seconds."""

    def __init__(self, out: TextIO = sys.stderr, every: float = 60.0) -> None:
        self.out = out
        self.tty = out.isatty()
        self.every = every
        self.label = ""
        self.total = 1
        self.shown = 0.0
        self.started = 0.0

    def start(self, label: str, total: int) -> None:
        self.label, self.total = label, max(total, 1)
        self.started = self.shown = time.monotonic()
        self.update(0)

    def update(self, done: int, note: str = "") -> None:
        now = time.monotonic()
        if not self.tty and now - self.shown < self.every and done < self.total:
            return
        self.shown = now
        width = 30
        filled = width * min(done, self.total) // self.total
        text = (
            f"{self.label} [{'#' * filled}{'.' * (width - filled)}] "
            f"{100 * done / self.total:5.1f}% {now - self.started:6.0f} s {note}"
        )
        self.out.write(("\r" + text + "\x1b[K") if self.tty else text + "\n")
        self.out.flush()

    def finish(self) -> None:
        if self.tty:
            self.out.write("\n")
            self.out.flush()


def _reset_peak_rss() -> None:
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_rss_mb() -> float:
    try:
        for row in Path("/proc/self/status").read_text().splitlines():
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _chunks(k: int) -> list[tuple[int, int, int]]:
    """(first rank, end rank, set of the first rank) of each block of rebel sets."""
    total = rebel_sets(k)
    return [(r0, min(r0 + CHUNK, total), unrank(r0, k)) for r0 in range(0, total, CHUNK)]


EMPTY: Table = np.zeros(1, dtype=np.uint16)


def solve_sublayer(
    k: int,
    flight: int,
    low_same: Table | None,
    low_f0: Table | None,
    same_f0: Table | None,
    progress: Progress | None = None,
) -> tuple[Table, SublayerStats]:
    """Solve sub-layer ``(k, flight)`` from its inputs: ``low_same`` the layer below with the
    same flight, ``low_f0`` the layer below with the flight used, ``same_f0`` this layer with
    the flight used (the last two only for ``flight == 1``; none below 6 rebels)."""
    _reset_peak_rss()
    began = time.monotonic()
    cpu = time.process_time()
    geo = kernels.geometry()
    size = sublayer_size(k)
    val: Table = np.zeros(size, dtype=np.uint16)
    cnt = np.zeros(size, dtype=np.uint8)
    hist = np.zeros(1 << 16, dtype=np.int64)
    below = k - 2 > WON
    ls = low_same if below and low_same is not None else EMPTY
    l0 = low_f0 if below and flight and low_f0 is not None else EMPTY
    s0 = same_f0 if flight and same_f0 is not None else EMPTY
    chunks = _chunks(k)
    label = name(k, flight)
    if progress:
        progress.start(f"{label} first pass", len(chunks))
    for i, (r0, r1, first) in enumerate(chunks):
        kernels.init_block(k, flight, r0, r1, first, val, cnt, hist, ls, l0, s0, geo)
        if progress:
            progress.update(i + 1)
    if progress:
        progress.finish()
    valid = size - (rebel_sets(k) * 2 if flight else 0)
    starts = np.zeros(hist.size + 1, dtype=np.int64)
    np.cumsum(hist, out=starts[1:])
    order = np.empty(int(starts[-1]), dtype=np.uint32)
    kernels.bucket_init(val, starts, order)
    last_first = int(np.flatnonzero(hist)[-1]) if order.size else -1
    head = np.full(hist.size, kernels.NIL, dtype=np.int64)
    nxt = np.empty(size, dtype=np.uint32)
    binom = binomials()
    if progress:
        progress.start(f"{label} retrograde", valid)
    d = 0
    top = last_first
    levels = 0
    while d <= top:
        done, used, errors = kernels.level(
            d, k, flight, val, cnt, hist, starts, order, head, nxt, ls, l0, s0, geo, binom
        )
        if errors:
            raise RuntimeError(f"{label}: move counters went below zero at distance {d}")
        top = max(top, used)
        if top >= hist.size - 2:
            raise RuntimeError(f"{label}: distances beyond {hist.size - 2} plies do not fit")
        levels += done > 0
        if progress:
            progress.update(int(hist[: d + 1].sum()), f"decided, {d} plies")
        d += 1
    decided = int(hist.sum())
    if progress:
        progress.update(valid, f"decided {decided:,}, longest {d - 1} plies")
        progress.finish()
    del nxt, order, head
    del cnt
    stats = SublayerStats(k, flight, positions=valid, levels=levels)
    stats.counts = tally(k, flight, val)
    nonzero = np.flatnonzero(hist)
    stats.max_plies = int(nonzero[-1]) if nonzero.size else 0
    stats.seconds = time.monotonic() - began
    stats.cpu_seconds = time.process_time() - cpu
    stats.peak_rss_mb = _peak_rss_mb()
    stats.arrays_mb = size * 7 / 2**20
    return val, stats


def tally(k: int, flight: int, val: Table) -> dict[str, int]:
    """Positions of each value by side to move: ``r:general-wins`` … ``g:draw``."""
    counts = np.zeros((2, 4), dtype=np.int64)
    for r0, r1, first in _chunks(k):
        kernels.tally_block(k, flight, r0, r1, first, val, counts)
    out: dict[str, int] = {}
    for side, letter in ((0, "r"), (1, "g")):
        draw, win, loss, over = (int(x) for x in counts[side])
        mover_wins = win + over
        general_wins = mover_wins if side == 1 else loss
        rebels_win = loss if side == 1 else mover_wins
        out[f"{letter}:general-wins"] = general_wins
        out[f"{letter}:rebels-win"] = rebels_win
        out[f"{letter}:draw"] = draw
    return out


class RawStore:
    """A folder of solved sub-layers (``L08F1.npy``) and their figures (``L08F1.json``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def path(self, k: int, flight: int, suffix: str = ".npy") -> Path:
        return self.folder / f"{name(k, flight)}{suffix}"

    def has(self, k: int, flight: int) -> bool:
        return self.path(k, flight).exists() and self.path(k, flight, ".json").exists()

    def load(self, k: int, flight: int, mmap: bool = False) -> Table:
        table: Table = np.load(self.path(k, flight), mmap_mode="r" if mmap else None)
        if table.shape != (sublayer_size(k),) or table.dtype != np.uint16:
            raise ValueError(f"{self.path(k, flight)} is not a solved sub-layer of {k} rebels")
        return table

    def stats(self, k: int, flight: int) -> SublayerStats:
        data = json.loads(self.path(k, flight, ".json").read_text())
        return SublayerStats(**data)

    def save(self, k: int, flight: int, table: Table, stats: SublayerStats) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.path(k, flight, ".npy.tmp")
        with tmp.open("wb") as handle:
            np.save(handle, table)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(self.path(k, flight))
        tmp_json = self.path(k, flight, ".json.tmp")
        tmp_json.write_text(json.dumps(asdict(stats), indent=1))
        tmp_json.replace(self.path(k, flight, ".json"))


def solve(
    store: RawStore,
    top: int = 16,
    progress: Progress | None = None,
    log: Callable[[str], None] = print,
) -> list[SublayerStats]:
    """Solve every sub-layer up to ``top`` rebels that ``store`` lacks, smallest first."""
    if not kernels.HAVE_NUMBA:
        raise RuntimeError(
            "solving needs numba: pip install 'ludotheque[solve]' (reading tables does not)"
        )
    found = []
    for k, flight in sublayers(top):
        if store.has(k, flight):
            found.append(store.stats(k, flight))
            continue
        below = k - 2 > WON
        low_same = store.load(k - 2, flight) if below else None
        low_f0 = store.load(k - 2, 0) if below and flight else None
        same_f0 = store.load(k, 0) if flight else None
        log(f"solving {name(k, flight)}: {sublayer_size(k):,} entries ({slots(k)} per set)")
        table, stats = solve_sublayer(k, flight, low_same, low_f0, same_f0, progress)
        store.save(k, flight, table, stats)
        log(stats.line())
        found.append(stats)
        del table, low_same, low_f0, same_f0
    return found


def verify(
    k: int,
    flight: int,
    table: Table,
    low_same: Table | None,
    low_f0: Table | None,
    same_f0: Table | None,
) -> tuple[int, int]:
    """Recompute every position of a solved sub-layer from its children (``kernels.verify_block``):
    (errors, index of the first error or -1)."""
    geo = kernels.geometry()
    below = k - 2 > WON
    ls = low_same if below and low_same is not None else EMPTY
    l0 = low_f0 if below and flight and low_f0 is not None else EMPTY
    s0 = same_f0 if flight and same_f0 is not None else EMPTY
    errors, first_error = 0, -1
    for r0, r1, first in _chunks(k):
        e, at = kernels.verify_block(k, flight, r0, r1, first, table, ls, l0, s0, geo)
        if e and first_error < 0:
            first_error = at
        errors += e
    return errors, first_error


def verify_store(store: RawStore, k: int, flight: int) -> tuple[int, int]:
    """``verify`` a sub-layer of ``store`` against its inputs in the same store."""
    below = k - 2 > WON
    return verify(
        k,
        flight,
        store.load(k, flight, mmap=True),
        store.load(k - 2, flight, mmap=True) if below else None,
        store.load(k - 2, 0, mmap=True) if below and flight else None,
        store.load(k, 0, mmap=True) if flight else None,
    )
