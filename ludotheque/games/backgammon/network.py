"""A small neural network that estimates the chance to win a backgammon position (cubeless).

The inputs are the classic raw encoding of TD-Gammon (Tesauro, 1992), seen from the side on
roll and then the other side: for each of the 24 points four units (one checker or more, two or
more, three or more, and half the checkers beyond three), then the checkers on the bar (halved),
those borne off (in fifteenths) and the pip count (in hundreds). One hidden layer of sigmoid
units feeds one sigmoid output: the on-roll side's chance to win.

The weights were learnt by TD(lambda) self-play (``tools/train_backgammon.py``), from random
weights, with no expert knowledge; they ship with the package in ``network.npz``. Boards are
the packed integers of ``board`` (one nibble per place), so a batch of positions is turned into
inputs with a handful of array operations.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import IO

if "numpy" not in sys.modules:
    # The matrices here are tiny: BLAS threads cost more than they give (a 2-ply search was 4x
    # slower with two threads on a busy two-core machine). An explicit setting wins.
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")

import numpy as np
import numpy.typing as npt

SIDE_INPUTS = 24 * 4 + 3
INPUTS = 2 * SIDE_INPUTS
Array = npt.NDArray[np.float64]
_PIPS = np.arange(26, dtype=np.float64)


def unpack_many(boards: Sequence[int]) -> npt.NDArray[np.uint8]:
    """The counts of many packed boards, one row of 26 places (0 off … 25 bar) per board."""
    raw = np.frombuffer(b"".join(b.to_bytes(13, "little") for b in boards), dtype=np.uint8)
    out = np.empty((len(boards), 26), dtype=np.uint8)
    out[:, 0::2] = raw.reshape(len(boards), 13) & 15
    out[:, 1::2] = raw.reshape(len(boards), 13) >> 4
    return out


# the four units of a point, by the number of checkers on it
_UNITS = np.array(
    [[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2] for n in range(16)], dtype=np.float64
)


def encode(on_roll: Sequence[int], other: Sequence[int]) -> Array:
    """The inputs for positions given as packed boards of the side on roll and the other side,
    each in its own view."""
    n = len(on_roll)
    counts = unpack_many([b for pair in zip(on_roll, other, strict=True) for b in pair])
    counts = counts.reshape(n, 2, 26)
    out = np.empty((n, 2, SIDE_INPUTS))
    out[:, :, :96] = _UNITS[counts[:, :, 1:25]].reshape(n, 2, 96)
    out[:, :, 96] = counts[:, :, 25] * 0.5
    out[:, :, 97] = counts[:, :, 0] / 15
    out[:, :, 98] = counts @ _PIPS / 100
    return out.reshape(n, INPUTS)


def _sigmoid(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-x))


class Network:
    """One hidden layer; ``win_chance`` of a batch of encoded positions."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: float) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, float(b2)

    @classmethod
    def random(cls, hidden: int, rng: np.random.Generator) -> Network:
        """Small random weights, the start of training."""
        return cls(
            rng.uniform(-0.1, 0.1, (INPUTS, hidden)),
            np.zeros(hidden),
            rng.uniform(-0.1, 0.1, hidden),
            0.0,
        )

    @classmethod
    def load(cls, path: Path | str | IO[bytes]) -> Network:
        with np.load(path) as data:
            return cls(
                data["w1"].astype(np.float64),
                data["b1"].astype(np.float64),
                data["w2"].astype(np.float64),
                float(data["b2"]),
            )

    def save(self, path: Path | str) -> None:
        np.savez_compressed(
            path,
            w1=self.w1.astype(np.float32),
            b1=self.b1.astype(np.float32),
            w2=self.w2.astype(np.float32),
            b2=np.float32(self.b2),
        )

    def hidden(self, x: Array) -> Array:
        return _sigmoid(x @ self.w1 + self.b1)

    def win_chance(self, x: Array) -> Array:
        """The on-roll side's chance to win, one per row of ``x``."""
        return _sigmoid(self.hidden(x) @ self.w2 + self.b2)


@cache
def shipped() -> Network:
    """The trained network that ships with the package."""
    with files(__package__).joinpath("network.npz").open("rb") as handle:
        return Network.load(handle)


def win_chances(on_roll: Sequence[int], other: Sequence[int]) -> Array:
    """The shipped network's estimate for each position (packed boards of the side on roll and
    the other side)."""
    return shipped().win_chance(encode(on_roll, other))
