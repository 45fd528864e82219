"""Glicko-2 ratings, updated after every rated game as lichess does.

The algorithm is Glickman's "Example of the Glicko-2 system" (steps 1 to 8, the volatility by
the Illinois algorithm of step 5). Lichess's way of using it is followed, with its parameters:

- every rated game is a rating period of its own for both players, rated at once (no waiting
  for the end of a period); each side is rated against the other's rating *before* the game;
- a player's deviation grows with the time since their last rated game (0.21436 rating periods
  a day: an idle month adds as much uncertainty as six and a half games take away), and step 6
  of the update adds one rating period for the game itself;
- τ = 0.75; a new player starts at 1500 with deviation 500 and volatility 0.09; the deviation
  stays within [45, 500], the volatility under 0.1 and the rating within [400, 4000];
- a rating is *provisional* ("1500?") while its deviation is 110 or more.

>>> a, b = rate_game(Rating(), Rating(), WIN, datetime(2024, 1, 1, tzinfo=UTC))
>>> round(a.rating), round(b.rating), a.provisional
(1742, 1258, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

SCALE = 173.7178  # the Glicko-2 scale: (r - 1500) / SCALE
TAU = 0.75  # how fast the volatility may change (Glickman: 0.3 to 1.2; lichess: 0.75)
EPSILON = 1e-6  # convergence of the volatility iteration (step 5)
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
MIN_RATING = 400.0
MAX_RATING = 4000.0
PROVISIONAL_DEVIATION = 110.0  # a rating with at least this deviation is provisional
PERIODS_PER_DAY = 0.21436  # rating periods that an idle day adds to the deviation

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game and ruleset: the rating, its deviation (RD) and its
    volatility, how many rated games made it, and when the last one ended."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    last_played: datetime | None = None

    @property
    def provisional(self) -> bool:
        """Whether the rating is still a guess (shown with a question mark)."""
        return self.deviation >= PROVISIONAL_DEVIATION

    def at(self, when: datetime) -> Rating:
        """The rating as it stands at ``when``: the deviation grown for the days without a
        rated game since the last one (the rating itself does not move)."""
        return replace(self, deviation=current_deviation(self, when))

    def display(self) -> str:
        """The rating as players see it: ``1500?`` while provisional, else ``1734``."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (the date as ISO 8601)."""
        return {
            "rating": self.rating,
            "deviation": self.deviation,
            "volatility": self.volatility,
            "games": self.games,
            "last_played": None if self.last_played is None else self.last_played.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        """The inverse of ``to_dict``; ``ValueError`` on anything else."""
        try:
            last = data.get("last_played")
            rating = cls(
                rating=float(data["rating"]),
                deviation=float(data["deviation"]),
                volatility=float(data["volatility"]),
                games=int(data["games"]),
                last_played=None if last is None else _aware(datetime.fromisoformat(str(last))),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a rating: {data!r}") from exc
        if not (rating.deviation > 0 and rating.volatility > 0 and rating.games >= 0):
            raise ValueError(f"not a rating: {data!r}")
        return rating


def _aware(when: datetime) -> datetime:
    """A date with a time zone (UTC when it has none)."""
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _g(phi: float) -> float:
    """Glickman's g(φ): how much an opponent's uncertainty dampens what a game tells."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (1 a sure win, 0.5 even),
    as Glicko-2's step 3 reckons it.

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
    return _e(mu, mu_j, opponent.deviation / SCALE)


def current_deviation(rating: Rating, when: datetime) -> float:
    """The deviation of ``rating`` grown for the time since its last game (lichess's
    0.21436 rating periods a day), at most ``MAX_DEVIATION``."""
    if rating.last_played is None:
        return min(rating.deviation, MAX_DEVIATION)
    days = max(0.0, (when - rating.last_played).total_seconds() / 86400.0)
    phi = rating.deviation / SCALE
    grown = math.sqrt(phi * phi + days * PERIODS_PER_DAY * rating.volatility**2) * SCALE
    return min(grown, MAX_DEVIATION)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(1000):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    periods: float = 1.0,
    when: datetime | None = None,
    bounded: bool = True,
) -> Rating:
    """Glicko-2's update of ``player`` after one rating period with ``results`` (the opponent's
    rating before the period, and the score: ``WIN``, ``DRAW`` or ``LOSS``).

    ``periods`` is how many rating periods step 6 adds to the deviation (one, in Glickman's
    paper); with no results only the deviation grows. ``bounded`` keeps the result within
    lichess's bounds. ``when`` becomes ``last_played`` when there were games.

    >>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), WIN),
    ...     (Rating(1550, 100), LOSS), (Rating(1700, 300), LOSS)], tau=0.5)
    >>> f"{r.rating:.2f} {r.deviation:.2f} {r.volatility:.6f}"
    '1464.05 151.52 0.059996'
    """
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + periods * sigma * sigma) * SCALE
        return _bound(replace(player, deviation=grown), bounded)
    games = [
        ((o.rating - DEFAULT_RATING) / SCALE, o.deviation / SCALE, score) for o, score in results
    ]
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in games:
        expected = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * expected * (1.0 - expected)
        gain += g * (score - expected)
    v = 1.0 / v_inverse
    delta = v * gain
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    rated = Rating(
        rating=new_mu * SCALE + DEFAULT_RATING,
        deviation=new_phi * SCALE,
        volatility=new_sigma,
        games=player.games + len(results),
        last_played=when if when is not None else player.last_played,
    )
    return _bound(rated, bounded)


def _bound(rating: Rating, bounded: bool) -> Rating:
    if not bounded:
        return rating
    return replace(
        rating,
        rating=min(MAX_RATING, max(MIN_RATING, rating.rating)),
        deviation=min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation)),
        volatility=min(MAX_VOLATILITY, rating.volatility),
    )


def rate_game(
    first: Rating, second: Rating, score: float, when: datetime, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """Both ratings after one rated game that ended at ``when``; ``score`` is the first
    player's (``WIN``, ``DRAW``, ``LOSS``). Each is rated against the other's rating before
    the game, grown for the time since their last game (as lichess does)."""
    a, b = first.at(when), second.at(when)
    return (
        update(a, [(b, score)], tau=tau, when=when),
        update(b, [(a, 1.0 - score)], tau=tau, when=when),
    )


def stakes(player: Rating, opponent: Rating, when: datetime) -> dict[float, float]:
    """How much ``player``'s rating would move for each result against ``opponent``
    (``{WIN: +12.3, DRAW: ..., LOSS: -10.1}``), to show before a rated game."""
    return {
        score: rate_game(player, opponent, score, when)[0].rating - player.rating
        for score in (WIN, DRAW, LOSS)
    }


__all__ = [
    "DRAW",
    "LOSS",
    "PROVISIONAL_DEVIATION",
    "TAU",
    "WIN",
    "Rating",
    "current_deviation",
    "expected_score",
    "rate_game",
    "stakes",
    "update",
]
