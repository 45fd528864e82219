"""A neural network that estimates how a backgammon game will end (cubeless), from the position
alone, for the side on roll: the chances to win, to win a gammon (or better), to win a
backgammon, to lose a gammon (or worse) and to lose a backgammon — the five outputs that money
play and match play need, as GNU Backgammon's networks give them.

The inputs, for each side (the side on roll first), are TD-Gammon's raw encoding (Tesauro, 1992)
— for each of the 24 points four units: one checker or more, two or more, three or more, and
half the checkers beyond three — and then a few facts a player counts: the checkers on the bar
and borne off, the pip count, the chance that the other side hits one of this side's blots with
its next roll (counted from the distances between blots and the checkers behind them, blocking
ignored), the rearmost checker, the longest prime and the home-board points made. Two inputs
belong to the pair: whether the sides are still in contact, and the race lead. A hidden layer
of sigmoid units, then any number of middle ones (the shipped network has one, of 64 units),
feeds five sigmoid outputs.

That is the first encoding (``INPUTS``, 210). The second (``INPUTS2``, 220), which the shipped
network reads, counts the hit chance with blocking (the other side lands only on open points and
enters from its bar first; ``hit_chances``) and adds for each side the pips that hit costs, how
many rolls free its rearmost checker, its worst-contained checker's escapes, its pips to go
before contact is broken and its chance to dance. A network's first layer says which encoding it
reads (``Network.inputs``), so a network trained on either loads and plays.

The weights were learnt from our own play alone, with no expert knowledge and no other engine's
numbers: the first layer by TD(lambda) self-play (``tools/train_backgammon.py``) from random
weights; then, with the middle layer and a fresh output layer after it, the whole network by
Adam on positions of its own self-play valued two rolls deeper by our own search
(``tools/rollout_backgammon.py``). They ship with the package in ``network.npz``. Boards are
the packed integers of ``board`` (one nibble per place), so a batch of positions is turned into
inputs with a handful of array operations.

Where the compiled core was built (``_cbackgammon.c``), it computes the second encoding and the
forward pass in C (``core``; about ten times numpy's evaluations per second, see
``bench/bg_eval.py``); the numpy code here is its reference and the fallback, in the same
double precision, so both give the same numbers. ``use`` evaluates with another network than
the shipped one (the benches measure checkpoints so); ``using`` does it inside a block.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from . import bearoff
from .movegen import CORE

RAW = 24 * 4
SIDE_INPUTS = RAW + 8
PAIR_INPUTS = 2
INPUTS = 2 * SIDE_INPUTS + PAIR_INPUTS
EXTRA_INPUTS = 5
SIDE_INPUTS2 = SIDE_INPUTS + EXTRA_INPUTS
INPUTS2 = 2 * SIDE_INPUTS2 + PAIR_INPUTS
THIRD_INPUTS = 6
INPUTS3 = INPUTS2 + 2 * THIRD_INPUTS
OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(OUTPUTS)
Array = npt.NDArray[np.float64]
_PIPS = np.arange(26, dtype=np.float64)
_PLACES = np.arange(26)


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


def _roll_table() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For the 21 rolls: which distances (1–24) a checker can travel with it (a die, both dice
    added, or up to four steps of a double) and the roll's weight out of 36."""
    reach = np.zeros((24, 21))
    weight = np.zeros(21)
    k = 0
    for high in range(1, 7):
        for low in range(1, high + 1):
            steps = [high, high * 2, high * 3, high * 4] if high == low else [high, low, high + low]
            for d in steps:
                if d <= 24:
                    reach[d - 1, k] = 1
            weight[k] = 1 if high == low else 2
            k += 1
    return reach, weight / 36


_REACH, _ROLL_WEIGHT = _roll_table()
_DICE = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
# For the distance d (1-24) between a checker of the hitter at place a (0-24, its bar at 0, in
# the blot owner's numbering) and a blot at b = a + d: the flat indexes a * 25 + b, grouped by d.
_PAIRS = np.array([a * 25 + a + d for d in range(1, 25) for a in range(25 - d)])
_STARTS = np.cumsum([0] + [25 - d for d in range(1, 24)])


def shot_chance(own: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> Array:
    """For each row: the chance that ``other`` (counts in its own view) can hit a blot of
    ``own`` (counts in its own view) with its next roll: some roll's die, sum of both dice or
    steps of a double equals the distance from one of ``other``'s checkers (or its bar) to the
    blot. Blocking points on the way are ignored: this is an input, not a rule."""
    n = own.shape[0]
    # the other side's checkers in ``own``'s numbering: its bar at 0, its point q at 25 - q
    behind = np.empty((n, 25), dtype=bool)
    behind[:, 0] = other[:, 25] > 0
    behind[:, 1:] = other[:, 24:0:-1] > 0
    blots = own[:, :25] == 1
    blots[:, 0] = False
    pairs = (behind[:, :, None] & blots[:, None, :]).reshape(n, 625)[:, _PAIRS]
    distances = np.add.reduceat(pairs, _STARTS, axis=1) > 0
    hits = (distances @ _REACH) > 0
    return hits @ _ROLL_WEIGHT


_FULL = np.int64(0x1FFFFFE)  # bits 1-24: the points


def _bit(place: int) -> np.int64:
    return np.int64(1) << np.int64(place)


def _points(rows: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Rows of 25 flags (place 0 unused) as bit sets (bit b for place b)."""
    return rows[:, 1:25].astype(np.int64) @ _BITS


def hit_chances(own: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> tuple[Array, Array]:
    """For each row: the chance that ``other`` can hit a blot of ``own`` with its next roll,
    and the pips ``own`` loses on average by the worst such hit (out of 24). Unlike
    ``shot_chance`` the other side lands only on open points on the way and enters from its
    bar first (with two or more there, only entering checkers hit; with a double, what is left
    after entering moves on); it still may not choose a hit that leaves a die unplayed.

    Sets of points are bits of one integer a row (bit b for our point b), so that a move of d
    pips is a shift."""
    open_ = _points(own[:, :25] < 2)
    blots = _points(own[:, :25] == 1)
    sources = (other[:, 24:0:-1] > 0).astype(np.int64) @ _BITS  # its point q is our 25 - q
    bar = other[:, 25].astype(np.int64)
    none, one, more = bar == 0, bar == 1, bar >= 2
    chance = np.zeros(own.shape[0])
    loss = np.zeros(own.shape[0])
    for k, (high, low) in enumerate(_DICE):
        if high == low:
            d = np.int64(high)
            entering = bar > 0
            enters = (open_ >> d) & 1 == 1
            current = np.where(entering, sources | _bit(high), sources)
            reach = np.where(entering, _bit(high), 0)
            steps = np.where(entering, np.clip(4 - bar, 0, 4), 4)
            for step in range(4):
                moved = np.where(steps > step, (current << d) & _FULL, 0)
                reach |= moved
                current = moved & open_
            reach = np.where(entering & ~enters, 0, reach)
        else:
            a, b = np.int64(high), np.int64(low)
            first_a, first_b = (sources << a) & _FULL, (sources << b) & _FULL
            free = first_a | first_b | ((first_a & open_) << b) | ((first_b & open_) << a)
            reach = np.where(none, free & _FULL, 0)
            for di, dj in ((a, b), (b, a)):
                entered = one & ((open_ >> di) & 1 == 1)
                after = _bit(int(di)) | _bit(int(di + dj)) | ((sources << dj) & _FULL)
                reach = np.where(entered, reach | after, reach)
            reach = np.where(more, (_bit(high) | _bit(low)) & open_, reach)
        hit = reach & blots
        lowest = hit & -hit  # the hit blot farthest from home loses the most
        where = hit != 0
        chance += _ROLL_WEIGHT[k] * where
        loss += _ROLL_WEIGHT[k] * np.where(where, 25 - np.log2(np.maximum(lowest, 1)), 0)
    return chance, loss / 24


@cache
def escape_table() -> npt.NDArray[np.int64]:
    """For each pattern of blocked points among the twelve in front of a checker (bit 12 - k
    for the point k pips ahead), how many of the 36 rolls carry it past the farthest of them,
    landing only on open points."""
    table = np.zeros(4096, dtype=np.int64)
    for pattern in range(4096):
        blocked = [False] + [bool(pattern >> (12 - k) & 1) for k in range(1, 13)] + [False] * 12
        farthest = max((k for k in range(1, 13) if blocked[k]), default=0)
        count = 0
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                if d1 == d2:
                    pos, ok = 0, False
                    for _ in range(4):
                        pos += d1
                        if blocked[pos]:
                            break
                        if pos > farthest:
                            ok = True
                            break
                else:
                    ok = any(
                        not blocked[x]
                        and (x > farthest or (not blocked[x + y] and x + y > farthest))
                        for x, y in ((d1, d2), (d2, d1))
                    )
                count += farthest == 0 or ok
        table[pattern] = count
    return table


_BITS = np.left_shift(np.int64(1), np.arange(1, 25, dtype=np.int64))


def escapes(
    own: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8], at: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """For each row, the rolls (of 36) that carry a checker of ``own`` at the places ``at``
    (rows of places, own numbering) past the points ``other`` holds among the twelve in
    front of it."""
    blocked = (other[:, 24:0:-1] >= 2).astype(np.int64) @ _BITS
    blocked = np.broadcast_to(blocked[:, None], at.shape)
    pattern = np.where(
        at >= 12, np.right_shift(blocked, np.maximum(at - 12, 0)),
        np.left_shift(blocked, np.maximum(12 - at, 0)),
    ) & 4095  # fmt: skip
    return escape_table()[pattern]  # type: ignore[no-any-return]


_CONTAIN = np.arange(13, 25, dtype=np.int64)


def _extra(
    own: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8], out: Array, extra: Array
) -> None:
    """The second encoding: the blocking-aware shot chance in ``out`` (a side's first inputs)
    and the side's further inputs in ``extra``: pips lost to a hit, the escapes of its rearmost
    checker, the other side's containment of its back area (the fewest escapes from its 13 to
    its 24 point), the pips it needs to break contact and the chance to dance on the bar."""
    n = own.shape[0]
    chance, loss = hit_chances(own, other)
    out[:, RAW + 4] = chance
    extra[:, 0] = loss
    rear = rearmost(own)
    back = escapes(own, other, rear[:, None])[:, 0] / 36
    extra[:, 1] = np.where(rear > 0, back, 1.0)
    extra[:, 2] = escapes(own, other, np.broadcast_to(_CONTAIN, (n, 12))).min(axis=1) / 36
    theirs = rearmost(other)
    front = 25 - theirs
    ahead = np.clip(_PLACES[None, :] - front[:, None], 0, None)
    extra[:, 3] = np.where(theirs > 0, (own * ahead).sum(axis=1) / 152, 0.0)
    extra[:, 4] = ((other[:, 1:7] >= 2).sum(axis=1) / 6) ** 2


def _longest_run(made: npt.NDArray[np.bool_]) -> Array:
    """The longest run of consecutive ``True`` in each row, counted up to six."""
    weights = np.left_shift(1, np.arange(made.shape[1], dtype=np.int64))
    mask = made.astype(np.int64) @ weights
    run = np.zeros(made.shape[0])
    for _ in range(6):
        run += mask != 0
        mask &= mask >> 1
    return run


def _side(
    own: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8], out: Array, shots: bool = True
) -> None:
    """Fill ``out`` (rows of SIDE_INPUTS) with the inputs of ``own`` against ``other`` (the
    shot chance left out unless ``shots``: the second encoding has its own)."""
    n = own.shape[0]
    out[:, :RAW] = _UNITS[own[:, 1:25]].reshape(n, RAW)
    bar = own[:, 25]
    out[:, RAW] = bar >= 1
    out[:, RAW + 1] = np.maximum(bar.astype(np.float64) - 1, 0) / 2
    out[:, RAW + 2] = own[:, 0] / 15
    out[:, RAW + 3] = own @ _PIPS / 200
    if shots:
        out[:, RAW + 4] = shot_chance(own, other)
    out[:, RAW + 5] = rearmost(own) / 25
    made = own[:, 1:25] >= 2
    out[:, RAW + 6] = _longest_run(made) / 6
    out[:, RAW + 7] = made[:, :6].sum(axis=1) / 6


def rearmost(counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """The highest place (1–24, the bar 25) holding a checker in each row; 0 for none."""
    return (((counts[:, 1:] > 0) * _PLACES[1:]).max(axis=1)).astype(np.int64)  # type: ignore[no-any-return]


def _third(own: npt.NDArray[np.uint8], out: Array) -> None:
    """The third encoding's further inputs of the side ``own`` (rows of ``THIRD_INPUTS``),
    for bear-ins against an anchor and crashed boards: its checkers outside its home board, the
    pips they need to come home (its timing), its checkers deep in its home (on its 1 to 3
    points), its anchors in the other side's home board (how many, and how far forward the most
    advanced is) and its blots at home."""
    counts = own.astype(np.float64)
    out[:, 0] = counts[:, 7:26].sum(axis=1) / 15
    out[:, 1] = counts[:, 7:26] @ np.arange(1, 20, dtype=np.float64) / 100
    out[:, 2] = counts[:, 1:4].sum(axis=1) / 15
    anchors = own[:, 19:25] >= 2
    out[:, 3] = anchors.sum(axis=1) / 3
    forward = np.argmax(anchors, axis=1)  # the lowest of its 19 to 24 points it holds
    out[:, 4] = np.where(anchors.any(axis=1), (6 - forward) / 6, 0.0)
    out[:, 5] = (own[:, 1:7] == 1).sum(axis=1) / 6


def encode_counts(
    on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8], inputs: int = INPUTS
) -> Array:
    """The inputs for positions given as rows of 26 counts (each side in its own view): the
    first encoding (``INPUTS``), the second (``INPUTS2``) or the third (``INPUTS3``: the
    second, then ``THIRD_INPUTS`` more for each side)."""
    n = on_roll.shape[0]
    if inputs == INPUTS3:
        out = np.empty((n, INPUTS3))
        out[:, :INPUTS2] = encode_counts(on_roll, other, INPUTS2)
        _third(on_roll, out[:, INPUTS2 : INPUTS2 + THIRD_INPUTS])
        _third(other, out[:, INPUTS2 + THIRD_INPUTS :])
        return out
    out = np.empty((n, inputs))
    side = SIDE_INPUTS if inputs == INPUTS else SIDE_INPUTS2
    first = side == SIDE_INPUTS
    _side(on_roll, other, out[:, :SIDE_INPUTS], first)
    _side(other, on_roll, out[:, side : side + SIDE_INPUTS], first)
    if not first:
        _extra(on_roll, other, out[:, :SIDE_INPUTS], out[:, SIDE_INPUTS:side])
        _extra(
            other, on_roll, out[:, side : side + SIDE_INPUTS], out[:, side + SIDE_INPUTS : 2 * side]
        )
    out[:, -2] = rearmost(on_roll) + rearmost(other) >= 25
    mine, theirs = on_roll @ _PIPS, other @ _PIPS
    out[:, -1] = (theirs - mine) / (mine + theirs + 1)
    return out


def encode(on_roll: Sequence[int], other: Sequence[int], inputs: int = INPUTS) -> Array:
    """The inputs for positions given as packed boards of the side on roll and the other side,
    each in its own view."""
    n = len(on_roll)
    counts = unpack_many([b for pair in zip(on_roll, other, strict=True) for b in pair])
    counts = counts.reshape(n, 2, 26)
    return encode_counts(counts[:, 0], counts[:, 1], inputs)


def _sigmoid(x: Array) -> Array:
    """The logistic function of ``x``, in place (no temporary arrays)."""
    np.negative(x, out=x)
    np.exp(x, out=x)
    x += 1.0
    np.reciprocal(x, out=x)
    return x


def consistent(p: Array) -> Array:
    """Probabilities made consistent in place: a backgammon is a gammon, a gammon a win."""
    np.clip(p, 0.0, 1.0, out=p)
    np.minimum(p[:, WIN_GAMMON], p[:, WIN], out=p[:, WIN_GAMMON])
    np.minimum(p[:, WIN_BACKGAMMON], p[:, WIN_GAMMON], out=p[:, WIN_BACKGAMMON])
    np.minimum(p[:, LOSE_GAMMON], 1 - p[:, WIN], out=p[:, LOSE_GAMMON])
    np.minimum(p[:, LOSE_BACKGAMMON], p[:, LOSE_GAMMON], out=p[:, LOSE_BACKGAMMON])
    return p


def flip(p: Array) -> Array:
    """The same outcomes seen from the other side: its win is our loss, its gammons ours."""
    out = np.empty_like(p)
    out[:, WIN] = 1 - p[:, WIN]
    out[:, WIN_GAMMON] = p[:, LOSE_GAMMON]
    out[:, WIN_BACKGAMMON] = p[:, LOSE_BACKGAMMON]
    out[:, LOSE_GAMMON] = p[:, WIN_GAMMON]
    out[:, LOSE_BACKGAMMON] = p[:, WIN_BACKGAMMON]
    return out


class Network:
    """Sigmoid layers: a hidden layer reading the encoding (``w1``, ``b1``), any ``middle`` hidden
    layers after it, and the five outputs (``w2``, ``b2``); ``probabilities`` of a batch of
    encoded positions, in double precision (as the compiled core computes them: both give the
    same numbers; the core reads at most one middle layer, numpy evaluates deeper ones)."""

    def __init__(
        self,
        w1: Array,
        b1: Array,
        w2: Array,
        b2: Array,
        middle: Sequence[tuple[Array, Array]] = (),
    ) -> None:
        self.w1, self.b1 = w1, b1
        self.middle = [
            (np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64).ravel())
            for w, b in middle
        ]
        last = self.middle[-1][0].shape[1] if self.middle else w1.shape[1]
        self.w2, self.b2 = w2.reshape(last, -1), np.asarray(b2, dtype=np.float64).ravel()

    @property
    def hidden_units(self) -> int:
        """Units of the first hidden layer."""
        return int(self.w1.shape[1])

    @property
    def inputs(self) -> int:
        """The size of the encoding this network reads (``INPUTS``, ``INPUTS2`` or ``INPUTS3``)."""
        return int(self.w1.shape[0])

    @classmethod
    def random(cls, hidden: int, rng: np.random.Generator, inputs: int = INPUTS) -> Network:
        """Small random weights, the start of training."""
        return cls(
            rng.uniform(-0.1, 0.1, (inputs, hidden)),
            np.zeros(hidden),
            rng.uniform(-0.1, 0.1, (hidden, OUTPUTS)),
            np.zeros(OUTPUTS),
        )

    @classmethod
    def load(cls, path: Path | str | IO[bytes]) -> Network:
        """A network saved by ``save`` (middle layers as ``wm0``, ``bm0``, ``wm1``, ...)."""
        with np.load(path) as data:
            middle: list[tuple[Array, Array]] = []
            while f"wm{len(middle)}" in data:
                k = len(middle)
                middle.append(
                    (data[f"wm{k}"].astype(np.float64), data[f"bm{k}"].astype(np.float64))
                )
            return cls(
                data["w1"].astype(np.float64),
                data["b1"].astype(np.float64),
                data["w2"].astype(np.float64),
                data["b2"].astype(np.float64),
                middle,
            )

    def save(self, path: Path | str) -> None:
        layers = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}
        for k, (w, b) in enumerate(self.middle):
            layers[f"wm{k}"], layers[f"bm{k}"] = w, b
        arrays: dict[str, Any] = {name: a.astype(np.float32) for name, a in layers.items()}
        np.savez_compressed(path, **arrays)

    def layers(self) -> list[tuple[Array, Array]]:
        """The (weights, biases) of each layer, as the compiled core takes them."""
        return [
            (np.ascontiguousarray(w, dtype=np.float64), np.ascontiguousarray(b, dtype=np.float64))
            for w, b in [(self.w1, self.b1), *self.middle, (self.w2, self.b2)]
        ]

    def hidden(self, x: Array) -> Array:
        """The last hidden layer's units for each row of ``x``."""
        layer = x @ self.w1
        layer += self.b1
        out = _sigmoid(layer)
        for w, b in self.middle:
            layer = out @ w
            layer += b
            out = _sigmoid(layer)
        return out

    def probabilities(self, x: Array) -> Array:
        """The five outcome chances of the side on roll, one row per row of ``x``."""
        out = self.hidden(x) @ self.w2
        out += self.b2
        return consistent(_sigmoid(out))

    def win_chance(self, x: Array) -> Array:
        """The on-roll side's chance to win, one per row of ``x``."""
        return self.probabilities(x)[:, WIN]


@cache
def shipped() -> Network:
    """The trained network that ships with the package."""
    with files(__package__).joinpath("network.npz").open("rb") as handle:
        return Network.load(handle)


_chosen: list[Network | None] = [None]  # the network in use when not the shipped one
_in_core: list[Network | None] = [None]  # the network the compiled core holds


def use(net: Network | None) -> None:
    """Evaluate with ``net`` from now on (``None``: the shipped network again), in this
    process: how the benches and the training tools measure another network."""
    _chosen[0] = net


@contextmanager
def using(net: Network) -> Iterator[None]:
    """Evaluate with ``net`` inside the block, then with whatever was in use before: how a
    caller pinned to one network (the puzzles, checked against the network that found them)
    reads it without changing the choice of the rest of the process."""
    before = _chosen[0]
    _chosen[0] = net
    try:
        yield
    finally:
        _chosen[0] = before


def current() -> Network:
    """The network the evaluation reads: the shipped one unless ``use`` chose another."""
    return _chosen[0] or shipped()


def core() -> ModuleType | None:
    """The compiled evaluation (``_cbackgammon.c``) holding the current network and the bear-off
    databases, or ``None`` when the core was not built, the network reads the first encoding or
    it has more middle layers than the core's one (the numpy code below then evaluates)."""
    net = current()
    if CORE is None or net.inputs != INPUTS2 or len(net.middle) > 1:
        return None
    if _in_core[0] is not net:
        if _in_core[0] is None:
            CORE.escapes_load(escape_table().astype(np.int32))
            bearoff.load_core(CORE)
        CORE.net_load(0, net.layers())
        _in_core[0] = net
    return CORE


def counts_rows(
    on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8]:
    """Positions as the compiled core reads them: a row of 52 counts each (the side on roll's
    26, then the other side's)."""
    return np.ascontiguousarray(np.concatenate([on_roll, other], axis=1), dtype=np.uint8)


def win_chances(on_roll: Sequence[int], other: Sequence[int]) -> Array:
    """The shipped evaluation's chance to win for each position (packed boards of the side on
    roll and the other side): the bear-off database where it applies, else the network."""
    return outcome_chances(on_roll, other)[:, WIN]


def outcome_chances(on_roll: Sequence[int], other: Sequence[int]) -> Array:
    """The five outcome chances of the side on roll for each position (packed boards of the
    side on roll and the other side): the bear-off database when both sides are bearing off,
    else the network."""
    n = len(on_roll)
    counts = unpack_many([b for pair in zip(on_roll, other, strict=True) for b in pair])
    counts = counts.reshape(n, 2, 26)
    return chances_of_counts(counts[:, 0], counts[:, 1])


def chances_of_counts(on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> Array:
    """``outcome_chances`` for rows of 26 counts (each side in its own view): the compiled
    core's when it is there, else numpy's (the same numbers)."""
    fast = core()
    if fast is not None:
        raw = fast.evaluate(counts_rows(on_roll, other))
        return np.frombuffer(raw, dtype=np.float64).reshape(-1, OUTPUTS).copy()
    return chances_numpy(on_roll, other)


def chances_numpy(on_roll: npt.NDArray[np.uint8], other: npt.NDArray[np.uint8]) -> Array:
    """``chances_of_counts`` by numpy: the reference of the compiled evaluation."""
    out = np.empty((on_roll.shape[0], OUTPUTS))
    home = bearoff.both_home(on_roll, other)
    if home.any():
        out[home] = bearoff.chances(on_roll[home], other[home])
    rest = ~home
    if rest.any():
        net = current()
        out[rest] = net.probabilities(encode_counts(on_roll[rest], other[rest], net.inputs))
    return out
