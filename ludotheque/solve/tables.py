"""The tables players use, and their verdicts: numpy and the standard library only.

A table file holds one sub-layer's positions **with the rebels to move** (the general's
positions are one move away from them: ``probe`` looks one ply ahead), as the solver's codes
(see ``kernels``: 0 a draw, ``dist + 1`` for a decided position, odd when the side to move
loses), ordered by the general's slot, then the rank of the rebel set (that order compresses
best). Its first 4,096 bytes are a JSON header padded with spaces; the codes follow, either
xz-compressed (the tables shipped in the package, up to 8 rebels) or raw, to be memory-mapped
(the tables ``ludotheque solve general`` builds in the user's data directory). In ``uint8``
tables the code 255 stands for "already over, won by the side to move" (``uint16``: 65535).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import InvalidPosition
from ..games.general.board import NUM_POINTS
from ..games.general.rules import GENERAL, REBELS, GeneralState
from .certificate import Strategy, find, key_of, shipped_safely
from .layout import (
    LAYERS,
    WON,
    Position,
    from_state,
    general_slot,
    rank,
    rebel_sets,
)

FORMAT = "ludotheque-general-table"
VERSION = 1
HEADER = 4096
OVER = 0xFFFF
SUMMARY = "summary.json"
"""Per folder: the counts of each value of every solved sub-layer."""
PACKAGE_FOLDER = Path(__file__).resolve().parent / "data"
"""The tables shipped with the package."""
APP_NAME = "ludotheque"


def user_folder() -> Path:
    """Where ``ludotheque solve general`` puts its tables: ``LUDOTHEQUE_TABLES`` if set, else
    ``solve/general`` in the user's data directory (as the server's database)."""
    given = os.environ.get("LUDOTHEQUE_TABLES")
    if given:
        return Path(given).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME)) / "solve" / "general"


def file_name(k: int, flight: int) -> str:
    """The file of a sub-layer: ``L08F1.gtb``."""
    return f"L{k:02d}F{flight}.gtb"


# -- verdicts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What a table says of a position: the ``winner`` (``"general"``, ``"rebels"``, or
    ``None`` for a draw) and, for a decided position, the ``plies`` to the end with best play
    (the winner hurrying, the loser holding out; 0 when the game is already over). ``plies`` is
    ``None`` for a draw, and for a win known only from its layer's summary (every position of
    the layer has the same winner) when the layer's table is not installed.

    >>> Verdict("general", 45).moves
    23
    >>> Verdict("general", 45).describe()
    'the general wins in 23 moves'
    >>> Verdict(None, None).describe("fr")
    'nulle : aucun camp ne peut forcer la fin'
    """

    winner: str | None
    plies: int | None

    @property
    def moves(self) -> int | None:
        """The winner's moves to the end (``ceil(plies / 2)``), ``None`` when not known."""
        return None if self.plies is None else (self.plies + 1) // 2

    def describe(self, lang: str = "en") -> str:
        """One line for people, in English (``en``) or French (``fr``)."""
        fr = lang == "fr"
        if self.winner is None:
            if fr:
                return "nulle : aucun camp ne peut forcer la fin"
            return "draw: neither side can force an end"
        moves = self.moves or 0
        if fr:
            who = "le général" if self.winner == GENERAL else "les rebelles"
            if self.plies is None:
                verb = "gagne" if self.winner == GENERAL else "gagnent"
                return f"{who} {verb} avec le meilleur jeu"
            if moves == 0:
                return f"{who} {'a' if self.winner == GENERAL else 'ont'} gagné"
            verb = "gagne" if self.winner == GENERAL else "gagnent"
            return f"{who} {verb} en {moves} coup{'s' if moves > 1 else ''}"
        who = "the general" if self.winner == GENERAL else "the rebels"
        if self.plies is None:
            return f"{who} {'wins' if self.winner == GENERAL else 'win'} with best play"
        if moves == 0:
            return f"{who} {'has' if self.winner == GENERAL else 'have'} won"
        verb = "wins" if self.winner == GENERAL else "win"
        return f"{who} {verb} in {moves} move{'s' if moves > 1 else ''}"


def decode(code: int, side: int) -> Verdict:
    """The verdict of a code for a position with ``side`` to move (0 rebels, 1 general)."""
    if code == 0:
        return Verdict(None, None)
    mover, other = (REBELS, GENERAL) if side == 0 else (GENERAL, REBELS)
    if code == OVER:
        return Verdict(mover, 0)
    plies = code - 1
    return Verdict(mover if plies % 2 else other, plies)


def combine(child_codes: list[int]) -> int:
    """A position's code from the codes of the positions its moves lead to (each from the
    point of view of the other side): the fastest win, else a draw, else the slowest loss."""
    wins = [c for c in child_codes if c % 2 == 1 and c != OVER]
    if wins:
        return min(wins) + 1
    if 0 in child_codes:
        return 0
    return max(c if c != OVER else 1 for c in child_codes) + 1


# -- one sub-layer -------------------------------------------------------------------------


class SubTable:
    """The codes of one sub-layer's positions with the rebels to move."""

    def __init__(self, k: int, flight: int, codes: npt.NDArray[Any], over: int) -> None:
        self.k = k
        self.flight = flight
        self.codes = codes
        self.over = over
        self.ranks = rebel_sets(k)

    def code(self, general: int, rebels: int) -> int:
        """The code of the position (rebels to move); ``OVER`` for an already won one."""
        value = int(self.codes[general_slot(general, rebels) * self.ranks + rank(rebels)])
        return OVER if value == self.over else value


def side_codes(table: npt.NDArray[np.uint16], k: int) -> npt.NDArray[Any]:
    """The rebels-to-move codes of a solver's sub-layer, general's slot first, in the smallest
    integer type that holds them (``uint8`` when every distance is below 254 plies)."""
    codes = table.reshape(rebel_sets(k), NUM_POINTS - k, 2)[:, :, 0].T
    decided = codes[codes != OVER]
    if decided.size and int(decided.max()) >= 0xFF:
        return np.ascontiguousarray(codes).ravel()
    small = np.where(codes == OVER, 0xFF, codes).astype(np.uint8)
    return np.ascontiguousarray(small).ravel()


def write(codes: npt.NDArray[Any], k: int, flight: int, path: Path, compress: bool) -> Path:
    """Write a table file (atomically) from ``side_codes``."""
    payload = codes.tobytes()
    header = {
        "format": FORMAT,
        "version": VERSION,
        "rebels": k,
        "flight": flight,
        "side": "rebels",
        "order": "general-slot, rebel-rank",
        "dtype": str(codes.dtype),
        "count": int(codes.size),
        "compression": "xz" if compress else "none",
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    head = json.dumps(header).encode()
    assert len(head) < HEADER
    if compress:
        payload = lzma.compress(payload, preset=9 | lzma.PRESET_EXTREME)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as handle:
        handle.write(head.ljust(HEADER - 1) + b"\n")
        handle.write(payload)
    tmp.replace(path)
    return path


def pack(table: npt.NDArray[np.uint16], k: int, flight: int, folder: Path) -> Path:
    """The compressed table of a solved sub-layer, for shipping in the package."""
    return write(side_codes(table, k), k, flight, Path(folder) / file_name(k, flight), True)


def write_summary(counts: dict[str, dict[str, int]], folder: Path) -> Path:
    """Write ``summary.json``: ``counts[stem][side:value]`` for the solved sub-layers."""
    path = Path(folder) / SUMMARY
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"format": FORMAT, "version": VERSION, "counts": counts}
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    return path


def read(path: Path) -> SubTable:
    """Open a table file: decompressed into memory, or memory-mapped when raw."""
    with path.open("rb") as handle:
        header = json.loads(handle.read(HEADER))
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            raise ValueError(f"{path} is not a table of this version")
        dtype = np.dtype(header["dtype"])
        count = int(header["count"])
        k, flight = int(header["rebels"]), int(header["flight"])
        if count != rebel_sets(k) * (NUM_POINTS - k):
            raise ValueError(f"{path}: {count} codes for {k} rebels")
        if header["compression"] == "xz":
            try:
                payload = lzma.decompress(handle.read())
            except lzma.LZMAError as exc:
                raise ValueError(f"{path} is truncated or damaged ({exc})") from exc
            if hashlib.sha256(payload).hexdigest() != header["sha256"]:
                raise ValueError(f"{path} is truncated or damaged (checksum)")
            codes: npt.NDArray[Any] = np.frombuffer(payload, dtype=dtype)
        else:
            if path.stat().st_size != HEADER + count * dtype.itemsize:
                raise ValueError(f"{path} is truncated or damaged (size)")
            codes = np.memmap(path, dtype=dtype, mode="r", offset=HEADER, shape=(count,))
    return SubTable(k, flight, codes, 0xFF if dtype == np.uint8 else OVER)


# -- the set of tables -----------------------------------------------------------------------


class Tables:
    """The sub-layers found in some folders (the first folder that has one wins), opened on
    first use; and the rebels' strategy (``certificate``), whose positions have their exact
    value where no sub-layer reaches (``strategy``: a ``Strategy``, or a function that reads
    one on first use)."""

    def __init__(
        self,
        folders: list[Path],
        strategy: Strategy | Callable[[], Strategy | None] | None = None,
    ) -> None:
        self.folders = [Path(f) for f in folders]
        self._open: dict[tuple[int, int], SubTable | None] = {}
        self._lock = threading.Lock()
        self._summary: dict[str, dict[str, int]] | None = None
        self._strategy = strategy

    @property
    def strategy(self) -> Strategy | None:
        """The rebels' strategy these tables answer from, if any (read on first use)."""
        found = self._strategy
        if found is None or isinstance(found, Strategy):
            return found
        loaded = found()
        self._strategy = loaded
        return loaded

    def summary(self) -> dict[str, dict[str, int]]:
        """The counts of each value per sub-layer and side to move, from the folders'
        ``summary.json`` (the first folder that has a sub-layer wins):
        ``{"L10F1": {"r:rebels-win": …, …}, …}``."""
        if self._summary is None:
            found: dict[str, dict[str, int]] = {}
            for folder in reversed(self.folders):
                path = folder / SUMMARY
                if path.exists():
                    found.update(json.loads(path.read_text())["counts"])
            self._summary = found
        return self._summary

    def layer_winner(self, k: int, flight: int, side: int) -> tuple[bool, str | None]:
        """``(True, winner)`` when every position of the sub-layer with ``side`` to move has
        the same value (``winner`` ``None``: all drawn), else ``(False, None)``."""
        counts = self.summary().get(f"L{k:02d}F{flight}")
        if not counts:
            return False, None
        letter = "rg"[side]
        values = {
            GENERAL: counts.get(f"{letter}:general-wins", 0),
            REBELS: counts.get(f"{letter}:rebels-win", 0),
            None: counts.get(f"{letter}:draw", 0),
        }
        present = [winner for winner, n in values.items() if n]
        return (True, present[0]) if len(present) == 1 else (False, None)

    def path(self, k: int, flight: int) -> Path | None:
        """The file that holds sub-layer ``(k, flight)``, if any."""
        for folder in self.folders:
            candidate = folder / file_name(k, flight)
            if candidate.exists():
                return candidate
        return None

    def sub(self, k: int, flight: int) -> SubTable | None:
        """The opened sub-layer, or ``None`` when no folder has it."""
        key = (k, flight)
        if key not in self._open:
            with self._lock:
                if key not in self._open:
                    path = self.path(k, flight)
                    self._open[key] = read(path) if path is not None else None
        return self._open[key]

    def covers(self, k: int, flight: int | None = None) -> bool:
        """Whether the layer of ``k`` rebels (one flight, or both) is available (4: always)."""
        if k == WON:
            return True
        if k not in LAYERS:
            return False
        flights = (0, 1) if flight is None else (flight,)
        return all(self.path(k, f) is not None for f in flights)

    def top(self) -> int:
        """The highest rebel count such that every layer up to it is covered (4 if none)."""
        top = WON
        for k in LAYERS:
            if not self.covers(k):
                break
            top = k
        return top

    def code(self, position: Position) -> int | None:
        """The code of a position with the rebels to move, ``None`` if not covered (by a
        sub-layer, or else by the strategy)."""
        if position.layer == WON:
            return 1
        sub = self.sub(position.layer, position.flight)
        if sub is None:
            return self._strategy_code(position)
        return sub.code(position.general, position.rebels)

    def _strategy_code(self, position: Position) -> int | None:
        strategy = self.strategy
        if strategy is None:
            return None
        i = find(strategy.keys, key_of(position.general, position.rebels, position.flight))
        return None if i is None else int(strategy.plies[i]) + 1

    def known(self, position: Position) -> bool:
        """Whether a rebels-to-move position has its exact value here."""
        return self.code(position) is not None

    def state_code(self, state: GeneralState) -> int | None:
        """The code of any position (the general's: one ply ahead), ``None`` if not covered."""
        outcome = state.outcome()
        if outcome is not None:
            return OVER if outcome.winner == state.side else 1
        layer = state.rebel_count  # before the position is converted: most are not covered
        uncovered = layer != WON and self.sub(layer, int(state.flight_available)) is None
        if uncovered and self.strategy is None:  # (the strategy holds positions of every layer)
            return None
        position = from_state(state)
        if position.side == 0:
            return self.code(position)
        if self.sub(position.layer, position.flight) is None and self.strategy is None:
            return None
        codes = []
        for move in state.legal_moves():
            child = state.play(move)
            over = child.outcome()
            if over is not None:
                codes.append(OVER if over.winner == child.side else 1)
                continue
            code = self.code(from_state(child))
            if code is None:
                return None
            codes.append(code)
        return combine(codes)

    def verdict(self, state: GeneralState) -> Verdict | None:
        """The verdict on ``state`` with its distance, ``None`` if the tables do not cover it."""
        code = self.state_code(state)
        if code is None:
            return None
        return decode(code, 0 if state.side == REBELS else 1)

    def probe(self, state: GeneralState) -> Verdict | None:
        """``verdict``, or else what the layer's summary says when all its positions agree
        (the winner without the distance), else ``None``."""
        verdict = self.verdict(state)
        if verdict is not None:
            return verdict
        position = from_state(state)
        known, winner = self.layer_winner(position.layer, position.flight, position.side)
        return Verdict(winner, None) if known else None


@cache
def default_tables() -> Tables:
    """The user's tables (``ludotheque solve general``), then the package's, then the rebels'
    strategy the package ships (read on first use)."""
    return Tables([user_folder(), PACKAGE_FOLDER], shipped_safely)


def probe(state: GeneralState) -> Verdict | None:
    """The tables' verdict on a General position, or ``None`` where they do not reach. Beyond
    the installed tables, a layer whose positions all have the same winner (10 to 16 rebels: the
    rebels) gives that winner without the distance.

    >>> import ludotheque
    >>> game = ludotheque.load("general")
    >>> probe(game.parse_position("c2 a1,c3,e1,e2,a4,a5 g 1"))
    Verdict(winner='general', plies=1)
    >>> probe(game.start()).winner
    'rebels'

    A state of another game is refused with ``InvalidPosition`` (the solution is the General's).
    """
    if not isinstance(state, GeneralState):
        raise InvalidPosition(
            "the solution reads positions of the General, not {kind}",
            code="not-a-general-position", kind=type(state).__name__,
        )  # fmt: skip
    return default_tables().probe(state)


def oracle(state: GeneralState) -> tuple[str | None, int | None] | None:
    """The solution's verdict in the shape of the analysis's oracles (``analysis.register_oracle``):
    ``(winner or None, plies or None)``: the tables' or the strategy's exact verdict, else the
    winner of a layer whose every position has the same one (10 to 16 rebels: the rebels) with
    ``None`` for the distance; ``None`` where nothing is known.

    >>> import ludotheque
    >>> oracle(ludotheque.load("general").parse_position("s3 b5,c5,d4,e4,a1,a2 r 1"))
    ('rebels', 1)
    """
    verdict = default_tables().probe(state)
    return None if verdict is None else (verdict.winner, verdict.plies)
