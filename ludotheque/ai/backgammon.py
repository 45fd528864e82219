"""The backgammon player: checker plays by a one-, two- or three-ply search on the network (three
plies only on the close two-ply candidates: ``deep`` and ``margin``), cube
decisions (double, take, drop) and answers to resignations by cubeful equity in money play and
match winning chances in match play, and resignation when a race is lost for sure.

Values are in the ruleset's measure (see ``games.backgammon.equity``): the chance to win in
``seed`` and ``standard`` (as 2p - 1), cubeful points in ``money``, the chance to win the match
in ``match``. A search reads the network in large batches: the two-ply search evaluates, for a
candidate play, every reply to every roll at once.

Two plies means: our play, then each of the 21 rolls of the other side and its best reply by
the network, averaged over the rolls (GNU Backgammon calls this a 1-ply evaluation). Where the
cube is in play, the other side's doubling decision before its roll is made on the same
averages, and our own cube access is counted at the leaves. Cube decisions look one roll ahead
(for each roll the best play, then the network) or, with ``cube_plies=2`` (``hard``), two: for
each of our rolls the best play, then each roll of the other side with its cube decision and its
best reply, then the network (GNU Backgammon's 1-ply cube analysis).

A level may misjudge: ``temperature`` draws checker plays with probabilities falling off with
how much worse each looks (one ply), and ``cube_noise`` adds a random error (in the measure) to
each cube decision: the doubles too early or too late, the takes too bold and the drops too
timid of a weaker player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import State
from ..games.backgammon import bearoff, equity
from ..games.backgammon import board as B
from ..games.backgammon.cube import DOUBLED, RESIGNING, CubeAction, multiplier
from ..games.backgammon.evaluation import cube_efficiency
from ..games.backgammon.expansion import WEIGHTS, Expansion, expand
from ..games.backgammon.network import chances_of_counts, unpack_many
from ..games.backgammon.rules import SIDES, BackgammonState
from .agent import Budget, Clock, OutOfTime, decision_moves
from .expectimax import ExpectimaxAgent

Array = npt.NDArray[np.float64]
TIE = 1e-9
"""Cube values closer than this are equal (sums of the same values in another order)."""


class Leaves:
    """Positions with one side on roll (packed boards, own views) and what the stakes are
    for that side, valued in one batch: ``values()`` with the cube as it is and, when asked,
    with the cube doubled and owned by that side."""

    def __init__(self, ctx: equity.Context) -> None:
        self.ctx = ctx
        self.mine: list[int] = []
        self.theirs: list[int] = []

    def add(self, mine: int, theirs: int) -> int:
        self.mine.append(mine)
        self.theirs.append(theirs)
        return len(self.mine) - 1

    def values(self, doubled: bool = False) -> tuple[Array, Array | None]:
        """Each position's value for the side on roll: as the cube is, and (``doubled``) with
        the cube at twice its value, owned by that side."""
        n = len(self.mine)
        if n == 0:
            return np.zeros(0), np.zeros(0) if doubled else None
        counts = unpack_many([b for pair in zip(self.mine, self.theirs, strict=True) for b in pair])
        counts = counts.reshape(n, 2, 26)
        p = chances_of_counts(counts[:, 0], counts[:, 1])
        return value_rows(p, counts, self.ctx, doubled)


def value_rows(
    p: Array, counts: npt.NDArray[np.uint8], ctx: equity.Context, doubled: bool = False
) -> tuple[Array, Array | None]:
    """The value of positions (their chances ``p`` and counts, the side on roll first) for the
    side on roll, whose context is ``ctx``: as the cube is, and (``doubled``) with the cube at
    twice its value, owned by that side."""
    if ctx.kind is None:
        return 2 * p[:, 0] - 1, None
    x = cube_efficiency(counts[:, 0], counts[:, 1])
    now = equity.on_roll(p, ctx, x)
    if not doubled:
        return now, None
    return now, equity.on_roll(p, _taken_ctx(ctx), x)


def child_values(
    found: Expansion, ctx: equity.Context, doubled: bool = False
) -> tuple[Array, Array | None]:
    """``value_rows`` of an expansion's children for the side now on roll (``ctx``), and where
    the mover has just won, what that side has lost."""
    now, twice = value_rows(found.chances, found.counts, ctx, doubled)
    ended = np.flatnonzero(found.ends)
    if len(ended):
        kinds = found.ends[ended].tolist()
        now[ended] = [win_value(ctx, k, False) for k in kinds]
        if twice is not None:
            taken = _taken_ctx(ctx)
            twice[ended] = [win_value(taken, k, False) for k in kinds]
    return now, twice


def mover_values(
    found: Expansion, ctx: equity.Context, doubled: bool = False
) -> tuple[Array, Array | None]:
    """The value of an expansion's children for the side that moved (whose context is ``ctx``),
    the other side on roll: the other side's values turned round, and where the mover has won,
    its win; with ``doubled``, also with the cube doubled by the mover and taken."""
    other = ctx.other()
    back = equity.opposite(ctx)
    now, _ = child_values(found, other)
    ours = back(now)
    twice = None
    if doubled:
        turned = _doubled_ctx(ctx)
        theirs, _ = child_values(found, turned.other())
        twice = back(theirs)
    ended = np.flatnonzero(found.ends)
    if len(ended):
        kinds = found.ends[ended].tolist()
        ours[ended] = [win_value(ctx, k, True) for k in kinds]
        if twice is not None:
            twice[ended] = [win_value(_doubled_ctx(ctx), k, True) for k in kinds]
    return ours, twice


def win_value(ctx: equity.Context, kind: int, won: bool) -> float:
    """The value, for the side of ``ctx``, of a game it has just won (or lost) with a
    multiplier ``kind`` (1, 2, 3)."""
    if ctx.kind is None:
        return 1.0 if won else -1.0
    counts = kind if ctx.kind == "match" or not (ctx.jacoby and ctx.owner < 0) else 1
    points = ctx.cube * counts
    if ctx.kind == "match":
        post = ctx.crawford or ctx.post
        if won:
            return equity.mwc(ctx.away[0] - points, ctx.away[1], post)
        return equity.mwc(ctx.away[0], ctx.away[1] - points, post)
    return float(points if won else -points)


class Offers:
    """The resignations the other side turned down, as the game so far shows them (the agent's
    ``memory``: the server shows it every position of the game before asking for a move).

    An offer declined is not made again until it would be a different offer (the race has
    changed what is lost for sure): offering the same again only asks the same question."""

    def __init__(self) -> None:
        self.declined: set[tuple[str, int]] = set()
        self._offered: tuple[str, int] | None = None

    def observe(self, state: State) -> None:
        stakes = getattr(state, "stakes", None)
        resigning = stakes is not None and stakes.pending == RESIGNING
        if self._offered is not None and not resigning and state.outcome() is None:
            self.declined.add(self._offered)  # the offer was answered, and the game went on
        # (the side on roll offers; the other answers, so it is the one to move)
        offerer = str(getattr(state, "side", None))
        self._offered = (offerer, stakes.offer) if resigning else None  # type: ignore[union-attr]


class BackgammonAgent(ExpectimaxAgent):
    """Checker plays by ``budget.iterations`` plies (1 or 2) on the ``beam`` best candidates,
    cube decisions one or (``cube_plies``) two rolls ahead; see the module docstring."""

    def __init__(
        self,
        seed: int | str | None = None,
        budget: Budget | None = None,
        beam: int | None = 10,
        name: str = "backgammon",
        temperature: float = 0.0,
        cube_noise: float = 0.0,
        deep: int = 2,
        margin: float = 0.05,
        cube_plies: int = 1,
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=2), beam, name)
        self.temperature = temperature
        self.cube_noise = cube_noise
        self.deep = deep
        self.margin = margin
        self.cube_plies = cube_plies
        self.last_cube: tuple[float, float, float] | None = None
        self.memory = Offers()

    # -- the protocol ----------------------------------------------------------------------

    def choose(self, state: State) -> Any:
        moves = decision_moves(state)
        if not isinstance(state, BackgammonState):
            raise TypeError("the backgammon player plays backgammon")
        if len(moves) == 1:
            return moves[0]
        self.nodes = 0
        self.memory.observe(state)
        offer = self._resignation(state)
        if offer is not None and (str(state.to_move), offer.value) not in self.memory.declined:
            return offer
        if isinstance(moves[0], CubeAction):
            return self._cube_action(state, moves)
        return self._play(state, moves)

    # -- checker play ----------------------------------------------------------------------

    def one_ply(self, state: BackgammonState, moves: Sequence[Any]) -> list[float]:
        """Each play's value for the mover, the other side on roll after it."""
        ctx = self._context(state)
        other = ctx.other()
        opposite = equity.opposite(ctx)
        leaves = Leaves(other)
        out: list[float | None] = []
        for play in moves:
            if play.mover_after & 15 == B.CHECKERS:
                out.append(win_value(ctx, multiplier(B.unpack(play.opponent_after)), True))
            else:
                leaves.add(play.opponent_after, play.mover_after)
                out.append(None)
        values, _ = leaves.values()
        it = iter(opposite(values).tolist())
        return [next(it) if v is None else v for v in out]

    def _play(self, state: BackgammonState, moves: list[Any]) -> Any:
        scores = self.one_ply(state, moves)
        ctx = self._context(state)
        if self.temperature > 0:
            scale = equity.unit(ctx, np.array(scores)) if ctx.kind else np.array(scores)
            best = float(scale.max())
            weights = [math.exp((s - best) / self.temperature) for s in scale.tolist()]
            return self.rng.choices(moves, weights)[0]
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        best_index = order[0]
        plies = max(1, self.budget.iterations or 2)
        if plies == 1 or len(moves) == 1 or self._exact(moves):
            return moves[best_index]
        candidates = order[: self.beam] if self.beam else order
        clock = self.budget.clock()
        try:
            values = dict(zip(candidates, self.two_ply(state, [moves[i] for i in candidates],
                                                       ctx, clock), strict=True))  # fmt: skip
            best_index = max(candidates, key=lambda i: values[i])
            if plies >= 3:
                best_index = self._deepen(state, moves, values, ctx, clock, best_index)
        except OutOfTime:
            pass  # the best candidate searched so far (the one-ply best if none finished)
        return moves[best_index]

    def _deepen(self, state: BackgammonState, moves: list[Any], values: dict[int, float],
                ctx: equity.Context, clock: Clock, best: int) -> int:  # fmt: skip
        """Three plies on the ``deep`` best two-ply candidates that come within ``margin`` (on
        the [-1, 1] scale) of the best: only close choices are searched again. Out of time,
        the two-ply best stands."""
        ranked = sorted(values, key=lambda i: -values[i])
        scale = 0.5 if ctx.kind == "match" else 3.0 * ctx.cube if ctx.kind else 1.0
        close = [i for i in ranked[: self.deep] if values[best] - values[i] <= self.margin * scale]
        if len(close) < 2:
            return best
        deeper: dict[int, float] = {}
        for start in range(0, len(close), 2):  # two at a time, the clock looked at between
            if clock.expired():
                raise OutOfTime
            chunk = close[start : start + 2]
            found = self.three_ply(state, [moves[i] for i in chunk], ctx)
            deeper.update(zip(chunk, found, strict=True))
        return max(close, key=lambda i: deeper[i])

    def _exact(self, plays: Sequence[Any]) -> bool:
        """Whether every play leaves a race the two-sided bear-off database knows: its one-ply
        values are then the exact chances, and searching deeper cannot change the choice."""
        rows = self._rows(plays, mover_first=False)
        return bool(bearoff.in_two_sided(rows[:, 0], rows[:, 1]).all())

    def _rows(self, plays: Sequence[Any], mover_first: bool) -> npt.NDArray[np.uint8]:
        """The positions the plays leave, as counts: the mover's side first, or the other's."""
        boards = [b for p in plays for b in ((p.mover_after, p.opponent_after) if mover_first
                                            else (p.opponent_after, p.mover_after))]  # fmt: skip
        return unpack_many(boards).reshape(len(plays), 2, 26)

    def _finished(self, plays: Sequence[Any], ctx: equity.Context) -> list[float | None]:
        """The value of each play that bears off the mover's last checker (``None`` for the
        others)."""
        return [
            win_value(ctx, multiplier(B.unpack(p.opponent_after)), True)
            if p.mover_after & 15 == B.CHECKERS else None
            for p in plays
        ]  # fmt: skip

    def two_ply(self, state: BackgammonState, plays: Sequence[Any], ctx: equity.Context,
                clock: Clock | None = None) -> list[float]:  # fmt: skip
        """The value of each play for the mover: each roll of the other side and its best reply
        (the least for us, valued with us on roll), averaged over the rolls; the other side's
        cube decision before its roll where it has access."""
        if clock is not None and clock.expired():
            raise OutOfTime
        done = self._finished(plays, ctx)
        going = [p for p, v in zip(plays, done, strict=True) if v is None]
        if not going:
            return [float(v) for v in done]  # type: ignore[arg-type]
        self.nodes += len(going) * 22
        found = expand(self._rows(going, mover_first=False), state.game.cap)
        cube_live = ctx.other().may_double(0)  # the other side may double before its roll
        now, twice = child_values(found, ctx, doubled=cube_live)
        expected = found.group_min(now).reshape(len(going), 21) @ WEIGHTS
        if twice is not None:
            # the other side doubles when that is better for it; we then take or drop,
            # whichever is better for us
            doubled = found.group_min(twice).reshape(len(going), 21) @ WEIGHTS
            drop = win_value(ctx, 1, False)
            expected = np.minimum(expected, np.maximum(doubled, drop))
        it = iter(expected.tolist())
        return [next(it) if v is None else v for v in done]

    def three_ply(self, state: BackgammonState, plays: Sequence[Any],
                  ctx: equity.Context) -> list[float]:  # fmt: skip
        """The value of each play for the mover three plies deep: each roll of the other side
        and its best reply (by the network, one ply), then each of our rolls and our best play,
        valued by the network with the other side on roll. The cube counts at the leaves only
        (each side's access there), not in the middle of the search."""
        done = self._finished(plays, ctx)
        going = [p for p, v in zip(plays, done, strict=True) if v is None]
        if not going:
            return [float(v) for v in done]  # type: ignore[arg-type]
        cap = state.game.cap
        replies = expand(self._rows(going, mover_first=False), cap)
        reply_values, _ = child_values(replies, ctx)
        chosen = replies.group_argmin(reply_values)  # the other side's reply to each roll
        value = reply_values[chosen]  # where the reply ends the game, that is the value
        open_ = np.flatnonzero(replies.ends[chosen] == 0)
        if len(open_):
            ours = expand(replies.counts[chosen[open_]], cap)
            self.nodes += len(open_) * 21
            leaf, _ = mover_values(ours, ctx)
            value[open_] = ours.group_max(leaf).reshape(len(open_), 21) @ WEIGHTS
        expected = value.reshape(len(going), 21) @ WEIGHTS
        it = iter(expected.tolist())
        return [next(it) if v is None else v for v in done]

    # -- the cube ---------------------------------------------------------------------------

    def _context(self, state: BackgammonState) -> equity.Context:
        side = state.side
        assert side is not None
        return equity.Context.of(state.stakes, SIDES.index(side))

    def cube_equities(self, state: BackgammonState) -> tuple[float, float, float]:
        """``(no double, double take, double pass)`` for the side whose turn it is: for each
        roll its best play (one ply), then (``cube_plies`` 1) the network, or (2) each roll of
        the other side, its cube decision and its best reply, then the network."""
        ctx = self._context(state)
        assert state.stakes is not None
        me, opp = state.mover_boards()
        rows = unpack_many([me, opp]).reshape(1, 2, 26)
        found = expand(rows, state.game.cap)
        if self.cube_plies >= 2:
            nd = self._rolls_ahead(found, ctx, state.game.cap)
            dt = self._rolls_ahead(found, _doubled_ctx(ctx), state.game.cap)
            return nd, dt, win_value(ctx, 1, True)
        now, twice = mover_values(found, ctx, doubled=True)
        assert twice is not None
        # one best play per roll, chosen with the cube as it would be
        nd = float(found.group_max(now) @ WEIGHTS)
        dt = float(found.group_max(twice) @ WEIGHTS)
        return nd, dt, win_value(ctx, 1, True)

    def _rolls_ahead(self, found: Expansion, ctx: equity.Context, cap: int) -> float:
        """The value, with the cube as ``ctx`` says, of rolling from the position ``found``
        expands: for each of our rolls the best play by one ply, then for each roll of the other
        side its best reply (and, with access, its double, which we take or drop), averaged."""
        now, _ = mover_values(found, ctx)
        chosen = found.group_argmin(-now)  # our best play for each roll
        value = now[chosen].copy()  # a play that ends the game is worth its win
        open_ = np.flatnonzero(found.ends[chosen] == 0)
        if len(open_):
            replies = expand(found.counts[chosen[open_]], cap)
            self.nodes += len(open_) * 21
            cube_live = ctx.other().may_double(0)
            ours, twice = child_values(replies, ctx, doubled=cube_live)
            expected = replies.group_min(ours).reshape(len(open_), 21) @ WEIGHTS
            if twice is not None:
                doubled = replies.group_min(twice).reshape(len(open_), 21) @ WEIGHTS
                expected = np.minimum(expected, np.maximum(doubled, win_value(ctx, 1, False)))
            value[open_] = expected
        return float(value @ WEIGHTS)

    def _cube_action(self, state: BackgammonState, moves: list[Any]) -> Any:
        stakes = state.stakes
        assert stakes is not None
        kinds = {m.kind: m for m in moves}
        if stakes.pending == RESIGNING:
            return kinds["accept" if self._accepts(state) else "decline"]
        nd, dt, dp = self.cube_equities(state)
        self.last_cube = (nd, dt, dp)
        error = 0.0
        if self.cube_noise:
            # the noise is on the [-1, 1] scale: a third of a point per cube in money play,
            # half a match winning chance in match play
            ctx = self._context(state)
            scale = 0.5 if ctx.kind == "match" else 3.0 * ctx.cube
            error = self.rng.gauss(0, self.cube_noise) * scale
        if stakes.pending == DOUBLED:
            # we answer the other side's double: its equities are the opposite of ours
            return kinds["take" if dp - dt + error >= 0 else "drop"]
        # a tie doubles: where the game is won for sure and gammons do not count (the Jacoby
        # rule, the cube in the middle), doubling cashes the point at once
        return kinds["double"] if min(dt, dp) - nd + error >= -TIE else kinds["roll"]

    def _accepts(self, state: BackgammonState) -> bool:
        """Whether the side answering an offer to resign gains by accepting it."""
        stakes = state.stakes
        assert stakes is not None and state.side is not None
        offerer = SIDES.index(state.side)
        ctx = equity.Context.of(stakes, offerer)
        resumed = state.play("decline")
        play_on = self._value_for(resumed, offerer)
        accept = _resign_value(ctx, stakes.offer)
        return accept <= play_on  # the offerer's value: the answerer wants it low

    def _value_for(self, state: BackgammonState, side: int) -> float:
        """A static value of ``state`` (a decision of the side on turn) for ``side``."""
        from ..games.backgammon.evaluation import stake_value

        me, opp = state.mover_boards()
        counts = unpack_many([me, opp]).reshape(1, 2, 26)
        p = chances_of_counts(counts[:, 0], counts[:, 1])
        x = cube_efficiency(counts[:, 0], counts[:, 1])
        value, ctx = stake_value(state, p, x)
        roller = SIDES.index(str(state.side))
        if roller != side:
            value = equity.opposite(ctx)(value)
        return float(value[0])

    def _resignation(self, state: BackgammonState) -> Any:
        """In a race lost for certain, offer to resign what is lost (``None`` otherwise)."""
        stakes = state.stakes
        if stakes is None or stakes.pending != 0:
            return None
        me, opp = state.mover_boards()
        counts = unpack_many([me, opp]).reshape(1, 2, 26)
        contact = (_rear(counts[0, 0]) + _rear(counts[0, 1])) >= 25
        if contact:
            return None
        p = chances_of_counts(counts[:, 0], counts[:, 1])[0]
        if p[0] > 1e-6:
            return None
        if p[3] > 1 - 1e-6:
            value = 3 if p[4] > 1 - 1e-6 else 2
        elif p[3] < 1e-6:
            value = 1
        else:
            return None
        return CubeAction("resign", value)


def _taken_ctx(ctx: equity.Context) -> equity.Context:
    """This side's context after the other side doubled and this side took: the cube at twice
    its value, owned by this side."""
    return equity.Context(ctx.kind, ctx.cube * 2, 0, False, ctx.away, ctx.crawford, ctx.post)


def _rear(counts: npt.NDArray[np.uint8]) -> int:
    places = np.nonzero(counts[1:])[0]
    return int(places.max()) + 1 if len(places) else 0


def _doubled_ctx(ctx: equity.Context) -> equity.Context:
    """The stakes after a double by this context's side, taken: the cube at twice its value,
    owned by the other side."""
    return equity.Context(ctx.kind, ctx.cube * 2, 1, False, ctx.away, ctx.crawford, ctx.post)


def _resign_value(ctx: equity.Context, offer: int) -> float:
    counts = 1 if ctx.kind == "money" and ctx.jacoby and ctx.owner < 0 else offer
    points = ctx.cube * counts
    if ctx.kind == "match":
        return equity.mwc(ctx.away[0], ctx.away[1] - points, ctx.crawford or ctx.post)
    return -float(points)
