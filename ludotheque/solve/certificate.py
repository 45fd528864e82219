"""The rebels' winning strategy, shipped with the package: a proof anyone can check, and the
moves of the ``perfect`` rebels.

The strategy holds one move for every position with the rebels to move (6 to 16 rebels) that
the start leads to when the rebels follow it, whatever the general plays, and for every reply
of the general to each of the rebels' 24 opening moves; with each position, the plies to the
end with best play (odd: the rebels move last). ``check`` walks it with the engine's own move
generator: every position is a legal one with the rebels to move, its move is legal, and every
reply of the general ends the game with the rebels' win or leads to a position of the
strategy at least two plies nearer the end (exactly as near, for the longest reply). By
induction on the plies, the rebels following it win from the start within its plies, against
anyone; nothing but the engine's rules is trusted.

The file (``strategy.gts``): a JSON header padded to 4,096 bytes (format, version, the start
and the openings with their plies, the counts per rebel count, the payload's SHA-256), then
three columns, xz-compressed: the positions' keys (``key_of``: ``rebels | general << 25 |
flight << 30``, ascending) as differences from the previous key, each ``uint32`` split into its
four bytes (column by column: the bytes of a kind compress together); the move of each (its
index among the engine's legal moves, ``uint8``); its plies (``uint8``).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..games.general.board import NUM_POINTS, S4
from ..games.general.moves import GeneralMove
from ..games.general.rules import GAME, REBELS, GeneralState
from .layout import LAYERS, SQUARE_POINTS, Position

FORMAT = "ludotheque-general-strategy"
VERSION = 1
HEADER = 4096
FILE_NAME = "strategy.gts"
PACKAGE_PATH = Path(__file__).resolve().parent / "data" / FILE_NAME
"""The strategy shipped with the package."""

REBEL_BITS = (1 << SQUARE_POINTS) - 1


def key_of(general: int, rebels: int, flight: int) -> int:
    """The key of a position with the rebels to move (``uint32``)."""
    return rebels | general << SQUARE_POINTS | flight << (SQUARE_POINTS + 5)


def position_of(key: int) -> Position:
    """The position (rebels to move) of a key."""
    return Position((key >> SQUARE_POINTS) & 31, key & REBEL_BITS, 0, key >> (SQUARE_POINTS + 5))


def state_key(state: GeneralState) -> int:
    """The key of an engine state (whatever the side to move)."""
    general, rebels, _side, flight = state.parts
    return key_of(general, rebels, int(flight))


# -- the file ------------------------------------------------------------------------------


def _encode(keys: npt.NDArray[np.uint32], moves: npt.NDArray[np.uint8],
            plies: npt.NDArray[np.uint8]) -> bytes:  # fmt: skip
    deltas = np.diff(keys.astype(np.int64), prepend=0).astype("<u4")
    planes = deltas.view(np.uint8).reshape(-1, 4).T
    return np.ascontiguousarray(planes).tobytes() + moves.tobytes() + plies.tobytes()


def _decode(payload: bytes, count: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint8],
                                                 npt.NDArray[np.uint8]]:  # fmt: skip
    if len(payload) != 6 * count:
        raise ValueError(f"{len(payload)} bytes for {count} positions")
    raw = np.frombuffer(payload, dtype=np.uint8)
    planes = raw[: 4 * count].reshape(4, count).T
    deltas = np.ascontiguousarray(planes).view("<u4").ravel()
    keys = np.cumsum(deltas, dtype=np.uint64).astype(np.uint32)
    moves = raw[4 * count : 5 * count]
    plies = raw[5 * count :]
    return keys, moves, plies


def write(
    path: Path,
    keys: npt.NDArray[np.uint32],
    moves: npt.NDArray[np.uint8],
    plies: npt.NDArray[np.uint8],
    *,
    start: GeneralState,
    openings: dict[str, int],
) -> Path:
    """Write a strategy file (atomically): ``keys`` ascending, the ``moves`` and ``plies`` of
    each; ``openings`` gives, for each opening move it answers, the plies from the start to the
    end with best play after it."""
    order = np.argsort(keys, kind="stable")
    keys, moves, plies = keys[order], moves[order], plies[order]
    if keys.size and np.any(np.diff(keys.astype(np.int64)) <= 0):
        raise ValueError("a position twice")
    payload = _encode(keys, moves, plies)
    layers: dict[str, int] = {}
    counts = np.bincount(_popcounts(keys), minlength=17)
    for k in sorted(LAYERS, reverse=True):
        layers[str(k)] = int(counts[k])
    root = lookup_in(keys, plies, state_key(start))
    line = best_line(Strategy(keys, moves, plies), start)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "start": start.position(),
        "plies": root,
        "line": line,
        "openings": openings,
        "count": int(keys.size),
        "layers": layers,
        "columns": "key deltas (4 byte planes), move index, plies",
        "compression": "xz",
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    head = json.dumps(header).encode()
    if len(head) >= HEADER:
        raise ValueError("the header does not fit")
    packed = lzma.compress(payload, preset=9 | lzma.PRESET_EXTREME)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as handle:
        handle.write(head.ljust(HEADER - 1) + b"\n")
        handle.write(packed)
    tmp.replace(path)
    return path


def _popcounts(keys: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
    rebels = (keys & REBEL_BITS).astype(np.uint32)
    counts = np.zeros(keys.size, dtype=np.int64)
    for shift in range(0, 32, 8):
        counts += _BYTE_BITS[(rebels >> shift) & 255]
    return counts


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def find(keys: npt.NDArray[np.uint32], key: int) -> int | None:
    """The index of ``key`` in the sorted ``keys``, ``None`` when it is not there. The key is
    searched as a ``uint32``: a Python int would make numpy copy the whole column to a wider
    type at every search (a thousand times slower)."""
    i = int(keys.searchsorted(np.uint32(key)))
    if i < keys.size and int(keys[i]) == key:
        return i
    return None


def lookup_in(keys: npt.NDArray[np.uint32], values: npt.NDArray[Any], key: int) -> int | None:
    """``values`` at ``key`` in the sorted ``keys``, ``None`` when the key is not there."""
    i = find(keys, key)
    return None if i is None else int(values[i])


def read_header(path: Path) -> dict[str, Any]:
    """The header of a strategy file (``ValueError`` if it is not one of this version)."""
    with Path(path).open("rb") as handle:
        header = json.loads(handle.read(HEADER))
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ValueError(f"{path} is not a strategy of this version")
    return dict(header)


# -- the strategy in memory ------------------------------------------------------------------


@dataclass
class Strategy:
    """The strategy read from its file: the rebels' move and the plies to the end of every
    position it holds (rebels to move), by key."""

    keys: npt.NDArray[np.uint32]
    moves: npt.NDArray[np.uint8]
    plies: npt.NDArray[np.uint8]
    header: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path = PACKAGE_PATH) -> Strategy:
        """Read a strategy file: decompressed and checked against its checksum."""
        header = read_header(path)
        with Path(path).open("rb") as handle:
            handle.seek(HEADER)
            try:
                payload = lzma.decompress(handle.read())
            except lzma.LZMAError as exc:
                raise ValueError(f"{path} is truncated or damaged ({exc})") from exc
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            raise ValueError(f"{path} is truncated or damaged (checksum)")
        keys, moves, plies = _decode(payload, int(header["count"]))
        return cls(keys, moves, plies, header)

    def __len__(self) -> int:
        return int(self.keys.size)

    def entry(self, state: GeneralState) -> tuple[int, int] | None:
        """``(move index, plies)`` of a rebels-to-move state it holds, else ``None``."""
        general, rebels, side, flight = state.parts
        if side != 0:
            return None
        i = find(self.keys, key_of(general, rebels, int(flight)))
        return None if i is None else (int(self.moves[i]), int(self.plies[i]))

    def plies_of(self, state: GeneralState) -> int | None:
        """The plies to the end with best play of a rebels-to-move state it holds."""
        found = self.entry(state)
        return None if found is None else found[1]

    def move(self, state: GeneralState) -> GeneralMove | None:
        """The rebels' move in a state it holds (a fastest win), else ``None``."""
        found = self.entry(state)
        if found is None or state.outcome() is not None:
            return None
        moves = state.legal_moves()
        return moves[found[0]] if found[0] < len(moves) else None


@cache
def shipped() -> Strategy | None:
    """The package's strategy, read once (``None`` when the file is missing)."""
    if not PACKAGE_PATH.exists():
        return None
    return Strategy.read(PACKAGE_PATH)


_LOCK = threading.Lock()


def shipped_safely() -> Strategy | None:
    """``shipped``, read by one thread at a time (the server's threads may ask at once)."""
    with _LOCK:
        return shipped()


def best_line(strategy: Strategy, start: GeneralState) -> list[str]:
    """A best-play game from ``start``: the strategy's moves for the rebels, and for the
    general the reply that holds out longest (the first in the engine's order among equals)."""
    line: list[str] = []
    state = start
    while state.outcome() is None and len(line) < 256:
        if state.side == REBELS:
            move = strategy.move(state)
            if move is None:
                raise ValueError(f"{state.position()}: not in the strategy")
        else:
            move = max(state.legal_moves(), key=lambda m: _held(strategy, state.play(m)))
        line.append(str(move))
        state = state.play(move)
    return line


def _held(strategy: Strategy, state: GeneralState) -> int:
    """How long the general holds out after his move to ``state`` (-1: it ends the game)."""
    if state.outcome() is not None:
        return -1
    plies = strategy.plies_of(state)
    if plies is None:
        raise ValueError(f"{state.position()}: a reply the strategy does not answer")
    return plies


@dataclass(frozen=True)
class Summary:
    """What the shipped strategy proves, from its header alone (no decompression): for the
    rules page and the README."""

    plies: int
    """From the start, the rebels win in this many plies (their last move ends it)."""
    openings: tuple[tuple[str, int], ...]
    """Each opening move and the plies from the start to the end after it, fastest first."""
    line: tuple[tuple[str, str], ...]
    """A best-play game: each move and the position after it."""
    positions: int
    size: int
    """The file's size in bytes."""

    @property
    def moves(self) -> int:
        """The rebels' moves from the start to the end."""
        return (self.plies + 1) // 2

    @property
    def fastest(self) -> tuple[str, ...]:
        """The opening moves that keep the fastest win."""
        return tuple(move for move, plies in self.openings if plies == self.plies)


@cache
def summary(path: Path = PACKAGE_PATH) -> Summary | None:
    """The shipped strategy's summary (``None`` without the file)."""
    if not Path(path).exists():
        return None
    header = read_header(path)
    state = GAME.parse_position(header["start"])
    line = []
    for text in header.get("line", []):
        state = state.play(text)
        line.append((text, state.position()))
    openings = sorted(header.get("openings", {}).items(), key=lambda kv: (kv[1], kv[0]))
    return Summary(
        plies=int(header["plies"]),
        openings=tuple((move, int(plies)) for move, plies in openings),
        line=tuple(line),
        positions=int(header["count"]),
        size=Path(path).stat().st_size,
    )


# -- the check ---------------------------------------------------------------------------------


@dataclass
class Report:
    """What a check found: the positions checked, the general's replies followed, the
    problems (empty: the strategy is a proof), and the time it took."""

    positions: int = 0
    replies: int = 0
    wins: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    start_plies: int | None = None
    openings: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _valid(position: Position) -> bool:
    g, rebels, _, flight = position
    return (
        position.layer in LAYERS
        and flight in (0, 1)
        and 0 <= g < NUM_POINTS
        and not (rebels >> g) & 1
        and not (g == S4 and flight)
    )


def _replies_plies(
    after: GeneralState, strategy: Strategy, limit: int, problems: list[str], report: Report
) -> int | None:
    """The longest line after the rebels' move to ``after`` (the general to move), in plies,
    with the strategy's plies for each reply; ``None`` (and a problem) when a reply is not
    answered or comes no nearer the end than ``limit`` allows."""
    outcome = after.outcome()
    if outcome is not None:
        if outcome.winner != REBELS:
            problems.append(f"{after.position()}: the game ends, the general wins")
            return None
        report.wins += 1
        return 0
    longest = 0
    for move in after.legal_moves():
        child = after.play(move)
        report.replies += 1
        over = child.outcome()
        if over is not None:
            if over.winner != REBELS:
                problems.append(f"{after.position()}: {move} wins for the general")
                return None
            report.wins += 1
            longest = max(longest, 1)
            continue
        plies = strategy.plies_of(child)
        if plies is None:
            problems.append(f"{after.position()}: the reply {move} is not answered")
            return None
        if plies > limit - 1:
            problems.append(f"{child.position()}: {plies} plies, more than {limit - 1}")
            return None
        longest = max(longest, 1 + plies)
    return longest


def check_position(strategy: Strategy, i: int, report: Report) -> None:
    """Check the ``i``-th position of the strategy (see the module's docstring)."""
    key = int(strategy.keys[i])
    move_index, plies = int(strategy.moves[i]), int(strategy.plies[i])
    position = position_of(key)
    text = f"key {key:#x}"
    report.positions += 1
    if not _valid(position):
        report.problems.append(f"{text}: not a position of the game")
        return
    state = GeneralState.from_parts(position.general, position.rebels, 0, bool(position.flight))
    text = state.position()
    if state.outcome() is not None:
        report.problems.append(f"{text}: the game is over there")
        return
    moves = state.legal_moves()
    if move_index >= len(moves):
        report.problems.append(f"{text}: move {move_index} of {len(moves)}")
        return
    if plies % 2 == 0:
        report.problems.append(f"{text}: {plies} plies, an even number (the general last)")
        return
    after = state.play(moves[move_index])
    longest = _replies_plies(after, strategy, plies - 1, report.problems, report)
    if longest is not None and 1 + longest != plies:
        report.problems.append(f"{text}: {plies} plies stored, its longest line has {1 + longest}")


def check(
    strategy: Strategy,
    *,
    sample: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Check the strategy: its start (the header's, the game's start for the shipped one) and
    openings, then every position (or ``sample`` of them, evenly spread over the keys: a quick
    check that proves nothing on its own)."""
    began = time.monotonic()
    report = Report()
    header = strategy.header
    start = GAME.parse_position(header["start"]) if "start" in header else GAME.start()
    report.start_plies = strategy.plies_of(start)
    if report.start_plies is None:
        report.problems.append("the start is not in the strategy")
    elif header.get("plies") is not None and report.start_plies != header["plies"]:
        report.problems.append(f"the start: {report.start_plies} plies, the header says "
                               f"{header['plies']}")  # fmt: skip
    _check_openings(strategy, start, report)
    _check_line(strategy, start, report)
    total = len(strategy)
    indices: Iterable[int] = range(total)
    if sample is not None and sample < total:
        indices = np.linspace(0, total - 1, sample).astype(np.int64).tolist()
        total = sample
    for n, i in enumerate(indices):
        check_position(strategy, int(i), report)
        if progress is not None and (n + 1) % 65536 == 0:
            progress(n + 1, total)
    if progress is not None:
        progress(total, total)
    report.seconds = time.monotonic() - began
    return report


def _check_line(strategy: Strategy, start: GeneralState, report: Report) -> None:
    """The header's best-play game: legal moves, the rebels' from the strategy, ending in the
    rebels' win after exactly the start's plies."""
    line = strategy.header.get("line")
    if line is None:
        return
    state = start
    try:
        for text in line:
            move = state.parse_move(text)
            if state.side == REBELS and move != strategy.move(state):
                report.problems.append(f"the best-play game: {text} is not the strategy's move")
                return
            state = state.play(move)
    except ValueError as exc:
        report.problems.append(f"the best-play game: {exc}")
        return
    outcome = state.outcome()
    if outcome is None or outcome.winner != REBELS or len(line) != report.start_plies:
        report.problems.append(f"the best-play game ends with {outcome} after {len(line)} plies")


def _check_openings(strategy: Strategy, start: GeneralState, report: Report) -> None:
    """Each opening move the header names: every reply of the general is answered, and the
    longest line from the start through it has the plies the header says."""
    claimed: dict[str, int] = dict(strategy.header.get("openings", {}))
    for move in start.legal_moves():
        name = str(move)
        if name not in claimed:
            continue
        after = start.play(move)
        limit = claimed[name] - 1
        longest = _replies_plies(after, strategy, limit, report.problems, report)
        if longest is None:
            continue
        if 1 + longest != claimed[name]:
            report.problems.append(f"{name}: {claimed[name]} plies claimed from the start, "
                                   f"the longest line has {1 + longest}")  # fmt: skip
        report.openings[name] = 1 + longest


__all__ = [
    "FILE_NAME",
    "PACKAGE_PATH",
    "Report",
    "Strategy",
    "Summary",
    "best_line",
    "check",
    "find",
    "key_of",
    "position_of",
    "read_header",
    "shipped",
    "state_key",
    "summary",
    "write",
]
