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
averages, and our own cube access is counted at the leaves. Cube decisions look one roll ahead:
for each roll the best play, then the network.

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
from ..games.backgammon import board as B
from ..games.backgammon import equity
from ..games.backgammon.cube import DOUBLED, RESIGNING, CubeAction, multiplier
from ..games.backgammon.evaluation import cube_efficiency
from ..games.backgammon.movegen import generate
from ..games.backgammon.network import chances_of_counts, unpack_many
from ..games.backgammon.rules import SIDES, BackgammonState
from .agent import Budget, Clock, OutOfTime, decision_moves
from .expectimax import ExpectimaxAgent

Array = npt.NDArray[np.float64]
_ROLLS = [(h, lo, (1 if h == lo else 2) / 36) for h in range(1, 7) for lo in range(1, h + 1)]


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
        ctx = self.ctx
        if ctx.kind is None:
            return 2 * p[:, 0] - 1, None
        x = cube_efficiency(counts[:, 0], counts[:, 1])
        now = equity.on_roll(p, ctx, x)
        if not doubled:
            return now, None
        owned = equity.Context(ctx.kind, ctx.cube * 2, 0, False, ctx.away, ctx.crawford, ctx.post)
        return now, equity.on_roll(p, owned, x)


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
    cube decisions one roll ahead; see the module docstring."""

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
    ) -> None:
        super().__init__(seed, budget or Budget(iterations=2), beam, name)
        self.temperature = temperature
        self.cube_noise = cube_noise
        self.deep = deep
        self.margin = margin
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
        if plies == 1:
            return moves[best_index]
        candidates = order[: self.beam] if self.beam else order
        clock = self.budget.clock()
        best_value = -math.inf
        values: dict[int, float] = {}
        try:
            for i in candidates:
                value = self._two_ply(state, moves[i], ctx, clock)
                values[i] = value
                if value > best_value:
                    best_index, best_value = i, value
            if plies >= 3:
                best_index = self._deepen(state, moves, values, ctx, clock, best_index)
        except OutOfTime:
            pass  # the best candidate searched so far (the one-ply best if none finished)
        return moves[best_index]

    def _deepen(self, state: BackgammonState, moves: list[Any], values: dict[int, float],
                ctx: equity.Context, clock: Clock, best: int) -> int:  # fmt: skip
        """Three plies on the ``deep`` best two-ply candidates that come within ``margin`` (on
        the [-1, 1] scale) of the best: only close choices are searched again."""
        ranked = sorted(values, key=lambda i: -values[i])
        scale = 0.5 if ctx.kind == "match" else 3.0 * ctx.cube if ctx.kind else 1.0
        close = [i for i in ranked[: self.deep] if values[best] - values[i] <= self.margin * scale]
        if len(close) < 2:
            return best
        deeper = {i: self._three_ply(state, moves[i], ctx, clock) for i in close}
        return max(deeper, key=lambda i: deeper[i])

    def _three_ply(self, state: BackgammonState, play: Any, ctx: equity.Context,
                   clock: Clock) -> float:  # fmt: skip
        """The value for the mover of ``play`` three plies deep: each roll of the other side
        and its best reply (by the network, one ply), then each of our rolls and our best
        play, valued by the network with the other side on roll. The cube counts at the
        leaves only (each side's access there), not in the middle of the search."""
        me, opp = play.mover_after, play.opponent_after
        if me & 15 == B.CHECKERS:
            return win_value(ctx, multiplier(B.unpack(opp)), True)
        cap = state.game.cap
        # the other side's replies, valued for us on roll: it picks the worst for us
        replies = Leaves(ctx)
        per_roll: list[tuple[float, list[tuple[int, int, int]], list[int]]] = []
        for high, low, weight in _ROLLS:
            if clock.expired():
                raise OutOfTime
            found, _ = generate(opp, me, high, low, cap)
            options: list[tuple[int, int, int]] = []
            lost: list[int] = []
            for their, mine in found:
                if their & 15 == B.CHECKERS:
                    lost.append(multiplier(B.unpack(mine)))
                else:
                    options.append((replies.add(mine, their), mine, their))
            per_roll.append((weight, options, lost))
        reply_values, _ = replies.values()
        # then our rolls after each chosen reply: our best play, the other side on roll
        other = ctx.other()
        ours = Leaves(other)
        chosen: list[tuple[float, float | None, list[tuple[float, list[int], list[int]]]]] = []
        for weight, options, lost in per_roll:
            fixed = min((win_value(ctx, k, False) for k in lost), default=math.inf)
            best_reply = min(options, key=lambda o: reply_values[o[0]], default=None)
            if best_reply is None or fixed <= reply_values[best_reply[0]]:
                chosen.append((weight, fixed, []))
                continue
            _, mine, their = best_reply
            rolls: list[tuple[float, list[int], list[int]]] = []
            for high, low, w2 in _ROLLS:
                if clock.expired():
                    raise OutOfTime
                self.nodes += 1
                found, _ = generate(mine, their, high, low, cap)
                indexes: list[int] = []
                won: list[int] = []
                for mine2, their2 in found:
                    if mine2 & 15 == B.CHECKERS:
                        won.append(multiplier(B.unpack(their2)))
                    else:
                        indexes.append(ours.add(their2, mine2))
                rolls.append((w2, indexes, won))
            chosen.append((weight, None, rolls))
        leaf_values, _ = ours.values()
        back = equity.opposite(ctx)(leaf_values)
        total = 0.0
        for weight, settled, rolls in chosen:
            if settled is not None:
                total += weight * settled
                continue
            value = 0.0
            for w2, indexes, won in rolls:
                options_values = [*back[indexes].tolist(), *(win_value(ctx, k, True) for k in won)]
                value += w2 * max(options_values)
            total += weight * value
        return total

    def _two_ply(self, state: BackgammonState, play: Any, ctx: equity.Context,
                 clock: Clock) -> float:  # fmt: skip
        """The value for the mover of ``play``: each roll of the other side, its best reply,
        our value at the leaves; the other side's cube decision before its roll."""
        if clock.expired():
            raise OutOfTime
        self.nodes += 1
        me, opp = play.mover_after, play.opponent_after
        if me & 15 == B.CHECKERS:
            return win_value(ctx, multiplier(B.unpack(opp)), True)
        cube_live = ctx.other().may_double(0)  # the other side may double before its roll
        leaves = Leaves(ctx)
        rolls: list[tuple[float, list[int], list[int]]] = []
        cap = state.game.cap
        for high, low, weight in _ROLLS:
            if clock.expired():
                raise OutOfTime
            self.nodes += 1
            found, _ = generate(opp, me, high, low, cap)
            indexes: list[int] = []
            lost: list[int] = []  # replies that bear off: how many times the cube we lose
            for their, mine in found:
                if their & 15 == B.CHECKERS:
                    lost.append(multiplier(B.unpack(mine)))
                else:
                    indexes.append(leaves.add(mine, their))
            rolls.append((weight, indexes, lost))
        now, doubled = leaves.values(doubled=cube_live)
        expected_now = _expect(rolls, now, ctx)
        if doubled is None:
            return expected_now
        # the other side doubles when that is better for it; we then take or drop, whichever
        # is better for us
        expected_doubled = _expect(rolls, doubled, _taken_ctx(ctx))
        drop = win_value(ctx, 1, False)
        return min(expected_now, max(expected_doubled, drop))

    # -- the cube ---------------------------------------------------------------------------

    def _context(self, state: BackgammonState) -> equity.Context:
        side = state.side
        assert side is not None
        return equity.Context.of(state.stakes, SIDES.index(side))

    def cube_equities(self, state: BackgammonState) -> tuple[float, float, float]:
        """``(no double, double take, double pass)`` for the side whose turn it is, one roll
        ahead: for each roll its best play (one ply), then the network."""
        ctx = self._context(state)
        stakes = state.stakes
        assert stakes is not None
        me, opp = state.mover_boards()
        other = ctx.other()
        turned = _doubled_ctx(ctx)  # the other side owns the cube at twice its value
        leaves_now = Leaves(other)
        leaves_doubled = Leaves(_taken_ctx(other))
        per_roll: list[tuple[float, list[int], list[float], list[float]]] = []
        cap = state.game.cap
        for high, low, weight in _ROLLS:
            found, _ = generate(me, opp, high, low, cap)
            indexes: list[int] = []
            fixed_now: list[float] = []
            fixed_doubled: list[float] = []
            for mine, theirs in found:
                if mine & 15 == B.CHECKERS:
                    kind = multiplier(B.unpack(theirs))
                    fixed_now.append(win_value(ctx, kind, True))
                    fixed_doubled.append(win_value(turned, kind, True))
                else:
                    indexes.append(leaves_now.add(theirs, mine))
                    leaves_doubled.add(theirs, mine)
            per_roll.append((weight, indexes, fixed_now, fixed_doubled))
        now, _ = leaves_now.values()
        doubled, _ = leaves_doubled.values()
        back = equity.opposite(ctx)
        ours_now, ours_doubled = back(now), back(doubled)
        nd = dt = 0.0
        for weight, indexes, fixed_now, fixed_doubled in per_roll:
            # one best play per roll, chosen with the cube as it would be
            options_now = [*ours_now[indexes].tolist(), *fixed_now]
            options_doubled = [*ours_doubled[indexes].tolist(), *fixed_doubled]
            nd += weight * max(options_now)
            dt += weight * max(options_doubled)
        dp = win_value(ctx, 1, True)
        return nd, dt, dp

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
        return kinds["double"] if min(dt, dp) - nd + error > 0 else kinds["roll"]

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


def _expect(
    rolls: list[tuple[float, list[int], list[int]]], values: Array, ctx: equity.Context
) -> float:
    """The average over the rolls of the other side's best reply (the least for us); a reply
    that bears off loses the game at the context's cube."""
    total = 0.0
    for weight, indexes, lost in rolls:
        options = [*values[indexes].tolist(), *(win_value(ctx, k, False) for k in lost)]
        total += weight * min(options)
    return total


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
