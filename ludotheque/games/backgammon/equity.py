"""What a backgammon position is worth with the doubling cube: cubeful equity in money play and
match winning chances in match play, from the cubeless outcome chances of the side on roll.

Money play follows Janowski ("Take-points in money games", 1993): the cubeful equity is a mix,
by the cube's efficiency ``x``, of the dead-cube equity (the game played out at this cube) and
the equity of a perfectly efficient cube, which is linear in the chance to win between the take
point and the cash point (gammons and backgammons counted through the average value of a win
``W`` and of a loss ``L``):

    take point TP = (L - 1/2) / (W + L + 1/2)      cash point CP = (L + 1) / (W + L + 1/2)

Match play uses the same model on match winning chances: the match equity table (``met``) gives
the chance to win the match from each score, the dead-cube value mixes the outcomes' scores,
and the cash points of the live cube are found level by level — a side cashes where its
opponent is indifferent between dropping and taking the doubled cube, whose value depends in
turn on the opponent's own cash point one level up — until the cube is dead (a side whose win
at this cube takes the match no longer doubles), as in the match-play extension of Janowski's
model that GNU Backgammon's evaluations describe.

All functions take the five chances (win, win gammon, win backgammon, lose gammon, lose
backgammon) of the side on roll, one row per position, and answer from that side's view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import met
from .cube import Stakes

Array = npt.NDArray[np.float64]
CONTACT_EFFICIENCY = 0.68
_TINY = 1e-9


@dataclass(frozen=True)
class Context:
    """The stakes from one side's view. ``kind``: ``None`` (a single cubeless game: equity is
    the chance to win, as 2p - 1), ``"money"`` or ``"match"``; ``cube``: its value; ``owner``:
    -1 centred, 0 this side, 1 the other; ``away``: points this side and the other still need
    (match); ``crawford``: this is the Crawford game; ``post``: a side already one point away
    has had its Crawford game."""

    kind: str | None
    cube: int = 1
    owner: int = -1
    jacoby: bool = False
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    post: bool = False

    @classmethod
    def of(cls, stakes: Stakes | None, side: int) -> Context:
        """The context of ``side`` (0 white, 1 black) for these stakes."""
        if stakes is None:
            return cls(None)
        owner = -1 if stakes.owner < 0 else (0 if stakes.owner == side else 1)
        if not stakes.length:
            return cls("money", stakes.value, owner, stakes.jacoby)
        n = stakes.length
        away = (n - stakes.score[side], n - stakes.score[1 - side])
        post = not stakes.crawford and max(stakes.score) == n - 1
        return cls("match", stakes.value, owner, False, away, stakes.crawford, post)

    def other(self) -> Context:
        """The same stakes from the other side's view."""
        owner = self.owner if self.owner < 0 else 1 - self.owner
        away = (self.away[1], self.away[0])
        return Context(self.kind, self.cube, owner, self.jacoby, away, self.crawford, self.post)

    def may_double(self, who: int = 0) -> bool:
        """Whether this side (``who`` = 0) or the other (1) has access to the cube."""
        if self.kind is None or self.owner == 1 - who:
            return False
        if self.kind == "match":
            return not self.crawford and self.cube < self.away[who]
        return True


def efficiency(contact: npt.NDArray[np.bool_], pips: npt.NDArray[np.float64]) -> Array:
    """The cube's efficiency: 0.68 while the sides are in contact; in a race it grows with the
    length of the race, from 0.6 at the end to 0.72 (our choice, after the usual estimates)."""
    race = np.clip(0.55 + 0.0015 * pips, 0.6, 0.72)
    return np.where(contact, CONTACT_EFFICIENCY, race)


def cubeless(p: Array) -> Array:
    """The cubeless money equity per cube: 2p - 1 with gammons and backgammons counted."""
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def _averages(p: Array) -> tuple[Array, Array]:
    """``W`` and ``L``: the average value of a win and of a loss (1 to 3)."""
    w = np.clip(p[:, 0], _TINY, 1 - _TINY)
    win = (w + p[:, 1] + p[:, 2]) / w
    lose = (1 - w + p[:, 3] + p[:, 4]) / (1 - w)
    return win, lose


# -- money ------------------------------------------------------------------------------------


def money(p: Array, owner: int, x: Array, jacoby: bool = False) -> Array:
    """Janowski's cubeful equity per cube for the side on roll, the cube ``owner`` being -1
    (centred), 0 (this side) or 1 (the other side). This is the equity of not doubling now;
    see ``money_decision`` for the double."""
    w = p[:, 0]
    big_w, big_l = _averages(p)
    take = (big_l - 0.5) / (big_w + big_l + 0.5)
    cash = (big_l + 1.0) / (big_w + big_l + 0.5)
    if owner < 0:
        live = np.where(
            w <= take, -1.0, np.where(w >= cash, 1.0, -1.0 + 2.0 * (w - take) / (cash - take))
        )
        dead = 2 * w - 1 if jacoby else w * big_w - (1 - w) * big_l
    elif owner == 0:
        live = np.where(w >= cash, 1.0, -big_l + w * (1.0 + big_l) / cash)
        dead = w * big_w - (1 - w) * big_l
    else:
        live = np.where(w <= take, -1.0, -1.0 + (w - take) * (big_w + 1.0) / (1.0 - take))
        dead = w * big_w - (1 - w) * big_l
    return x * live + (1 - x) * dead


def money_decision(p: Array, owner: int, x: Array, jacoby: bool) -> tuple[Array, Array, Array]:
    """``(no double, double take, double pass)`` per cube for the side on roll."""
    no_double = money(p, owner, x, jacoby)
    take = 2 * money(p, 1, x)
    return no_double, take, np.ones_like(no_double)


# -- match ------------------------------------------------------------------------------------


def mwc(me: int, them: int, post: bool) -> float:
    """The chance to win the match of a side ``me`` points away against one ``them`` away,
    before a game; ``post`` when a side one point away has had its Crawford game (else a side
    coming to one point away now plays the Crawford game)."""
    if me <= 0:
        return 1.0
    if them <= 0:
        return 0.0
    me, them = min(me, met.LENGTH), min(them, met.LENGTH)
    if post and (me == 1 or them == 1):
        if me == 1 and them == 1:
            return 0.5
        if me == 1:
            return 1.0 - met.POST_CRAWFORD[them - 1]
        return met.POST_CRAWFORD[me - 1]
    return met.PRE_CRAWFORD[me - 1][them - 1]


class _Match:
    """The match equities of one position's outcomes, at every cube level, from the view of
    the side on roll (``X``); ``O`` is the other side."""

    def __init__(self, p: Array, ctx: Context) -> None:
        self.p = p
        self.ax, self.ao = ctx.away
        # after this game a side at one point away is post-Crawford unless this game is the
        # last before the Crawford game
        self.post = ctx.crawford or ctx.post or min(ctx.away) == 1
        self.crawford = ctx.crawford
        w = p[:, 0]
        self.w = w
        self.single_w = w - p[:, 1]
        self.gammon_w = p[:, 1] - p[:, 2]
        self.bg_w = p[:, 2]
        self.single_l = 1 - w - p[:, 3]
        self.gammon_l = p[:, 3] - p[:, 4]
        self.bg_l = p[:, 4]

    def m(self, ax: int, ao: int) -> float:
        return mwc(ax, ao, self.post)

    def win_avg(self, c: int) -> Array:
        """X's average match chance when X wins this game at cube ``c``."""
        ax, ao = self.ax, self.ao
        total = (
            self.single_w * self.m(ax - c, ao)
            + self.gammon_w * self.m(ax - 2 * c, ao)
            + self.bg_w * self.m(ax - 3 * c, ao)
        )
        return np.where(self.w > _TINY, total / np.maximum(self.w, _TINY), self.m(ax - c, ao))

    def lose_avg(self, c: int) -> Array:
        """X's average match chance when X loses this game at cube ``c``."""
        ax, ao = self.ax, self.ao
        lose = 1 - self.w
        total = (
            self.single_l * self.m(ax, ao - c)
            + self.gammon_l * self.m(ax, ao - 2 * c)
            + self.bg_l * self.m(ax, ao - 3 * c)
        )
        return np.where(lose > _TINY, total / np.maximum(lose, _TINY), self.m(ax, ao - c))

    def dead(self, c: int) -> Array:
        """X's match chance if the game is played out at cube ``c``."""
        return self.w * self.win_avg(c) + (1 - self.w) * self.lose_avg(c)

    def can_double(self, who: int, c: int) -> bool:
        """Whether X (0) or O (1) may still double a cube of value ``c`` it holds."""
        if self.crawford:
            return False
        away = self.ax if who == 0 else self.ao
        return c < away

    def cash_x(self, c: int) -> Array:
        """X's chance to win at which O, doubled from ``c``, is indifferent between dropping and
        taking (owning the cube at ``2c``): where X stops being too good to cash."""
        drop = self.m(self.ax - c, self.ao)
        low_p, low_v, high_v = self._o_owns(2 * c)
        return _solve(low_p, low_v, 1.0, high_v, drop)

    def cash_o(self, c: int) -> Array:
        """X's chance to win below which O cashes a cube of value ``c`` it holds (O's cash
        point, seen from X)."""
        drop = self.m(self.ax, self.ao - c)
        high_p, high_v, low_v = self._x_owns(2 * c)
        return _solve(0.0, low_v, high_p, high_v, drop)

    def _o_owns(self, c: int) -> tuple[Array | float, Array, Array]:
        """The live line of X's match chance when O owns a cube of value ``c``: from
        ``(p, value)`` where O cashes up to ``(1, X's average win)``."""
        if self.can_double(1, c):
            low_p: Array | float = self.cash_o(c)
            low_v = np.full_like(self.w, self.m(self.ax, self.ao - c))
        else:
            low_p, low_v = 0.0, self.lose_avg(c)
        return low_p, low_v, self.win_avg(c)

    def _x_owns(self, c: int) -> tuple[Array | float, Array, Array]:
        """The live line of X's match chance when X owns a cube of value ``c``: from ``(0, X's
        average loss)`` up to ``(p, value)`` where X cashes."""
        if self.can_double(0, c):
            high_p: Array | float = self.cash_x(c)
            high_v = np.full_like(self.w, self.m(self.ax - c, self.ao))
        else:
            high_p, high_v = 1.0, self.win_avg(c)
        return high_p, high_v, self.lose_avg(c)

    def live(self, c: int, owner: int) -> Array:
        """X's match chance with a perfectly efficient cube of value ``c``."""
        low_p: Array | float
        high_p: Array | float
        if owner == 1:
            low_p, low_v, high_v = self._o_owns(c)
            high_p = 1.0
        elif owner == 0:
            high_p, high_v, low_v = self._x_owns(c)
            low_p = 0.0
        else:
            high_p, high_v, _ = self._x_owns(c)
            low_p, low_v, _ = self._o_owns(c)
        return _line(self.w, low_p, low_v, high_p, high_v)

    def cubeful(self, c: int, owner: int, x: Array) -> Array:
        if self.crawford:
            return self.dead(c)
        return x * self.live(c, owner) + (1 - x) * self.dead(c)


def _line(
    p: Array, low_p: Array | float, low_v: Array, high_p: Array | float, high_v: Array
) -> Array:
    """The value at ``p`` of the line through ``(low_p, low_v)`` and ``(high_p, high_v)``,
    constant beyond those points."""
    span = np.maximum(np.asarray(high_p) - low_p, _TINY)
    t = np.clip((p - low_p) / span, 0.0, 1.0)
    return low_v + t * (high_v - low_v)


def _solve(
    low_p: Array | float, low_v: Array, high_p: Array | float, high_v: Array, target: float
) -> Array:
    """The ``p`` where the line through the two points reaches ``target`` (within [0, 1])."""
    rise = high_v - low_v
    safe = np.where(np.abs(rise) < _TINY, _TINY, rise)
    p = low_p + (target - low_v) * (np.asarray(high_p) - low_p) / safe
    return np.clip(p, 0.0, 1.0)


def match(p: Array, ctx: Context, x: Array) -> Array:
    """The side on roll's chance to win the match, not doubling now."""
    return _Match(p, ctx).cubeful(ctx.cube, ctx.owner, x)


def match_decision(p: Array, ctx: Context, x: Array) -> tuple[Array, Array, Array]:
    """``(no double, double take, double pass)`` as the side on roll's match winning chances."""
    model = _Match(p, ctx)
    no_double = model.cubeful(ctx.cube, ctx.owner, x)
    take = model.cubeful(2 * ctx.cube, 1, x)
    drop = np.full_like(no_double, model.m(ctx.away[0] - ctx.cube, ctx.away[1]))
    return no_double, take, drop


# -- one measure for every ruleset ---------------------------------------------------------------


def decision(p: Array, ctx: Context, x: Array) -> tuple[Array, Array, Array]:
    """``(no double, double take, double pass)`` in the ruleset's measure (money: points, the
    cube's value included; match: the chance to win the match)."""
    if ctx.kind == "match":
        return match_decision(p, ctx, x)
    nd, dt, dp = money_decision(p, ctx.owner, x, ctx.jacoby and ctx.owner < 0)
    return nd * ctx.cube, dt * ctx.cube, dp * ctx.cube


def on_roll(p: Array, ctx: Context, x: Array, may_double: bool | None = None) -> Array:
    """The value of positions for the side on roll before its roll, in the ruleset's measure:
    cubeless, 2p - 1; money, cubeful points; match, the chance to win the match. With access
    to the cube (``may_double``, by default whenever the cube allows) the side doubles when
    that is worth more, and the other side then takes or drops, whichever is better for it."""
    if ctx.kind is None:
        return 2 * p[:, 0] - 1
    if may_double is None:
        may_double = ctx.may_double(0)
    nd, dt, dp = decision(p, ctx, x) if may_double else (_no_double(p, ctx, x), None, None)
    if dt is None or dp is None:
        return nd
    return np.maximum(nd, np.minimum(dt, dp))


def _no_double(p: Array, ctx: Context, x: Array) -> Array:
    if ctx.kind == "match":
        return match(p, ctx, x)
    return money(p, ctx.owner, x, ctx.jacoby and ctx.owner < 0) * ctx.cube


def opposite(ctx: Context) -> Callable[[Array], Array]:
    """Turn values of the other side into this side's: minus in points, one minus in match
    winning chances."""
    if ctx.kind == "match":
        return lambda v: 1.0 - v
    return lambda v: -v


def unit(ctx: Context, values: Array) -> Array:
    """Values in the ruleset's measure mapped into [-1, 1] (``Game.evaluate``'s scale): money
    equity per cube over three, match winning chances as 2 MWC - 1."""
    if ctx.kind == "match":
        return 2 * values - 1
    if ctx.kind == "money":
        return np.clip(values / (3 * ctx.cube), -1.0, 1.0)
    return values
