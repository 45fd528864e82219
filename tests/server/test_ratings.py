"""Glicko-2: Glickman's worked example, and the properties of lichess-style per-game updates."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.server.rating import glicko as ratings
from ludotheque.server.rating.glicko import (
    DRAW,
    LOSS,
    SCALE,
    WIN,
    Rating,
    current_deviation,
    expected_score,
    rate_game,
    stakes,
    update,
)

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

# "Example of the Glicko-2 system" (Glickman): a 1500/200/0.06 player, τ = 0.5, plays three
# games in one rating period.
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]
RESULTS = [(OPPONENTS[0], WIN), (OPPONENTS[1], LOSS), (OPPONENTS[2], LOSS)]


def test_glickman_worked_example() -> None:
    rated = update(PLAYER, RESULTS, tau=0.5)
    # The paper rounds μ' to -0.2069 before rescaling (1464.06); unrounded it is 1464.0507.
    assert rated.rating == pytest.approx(1464.06, abs=0.01)
    assert rated.deviation == pytest.approx(151.52, abs=0.005)
    assert rated.volatility == pytest.approx(0.05999, abs=1e-5)
    assert rated.games == 3
    assert update(PLAYER, RESULTS, tau=0.5, bounded=False) == rated  # inside the bounds


def test_glickman_worked_example_intermediate_values() -> None:
    """Steps 3 and 4 of the example: g(φj), E, v, Δ and the new μ and φ on Glicko-2's scale."""
    phis = [o.deviation / SCALE for o in OPPONENTS]
    assert [round(ratings._g(p), 4) for p in phis] == [0.9955, 0.9531, 0.7242]
    expected = [expected_score(PLAYER, o) for o in OPPONENTS]
    assert [round(e, 3) for e in expected] == [0.639, 0.432, 0.303]
    v = 1 / sum(ratings._g(p) ** 2 * e * (1 - e) for p, e in zip(phis, expected, strict=True))
    delta = v * sum(
        ratings._g(p) * (s - e) for p, e, (_, s) in zip(phis, expected, RESULTS, strict=True)
    )
    # the paper computes from values rounded to 3 or 4 places: agreement to 1e-3
    assert v == pytest.approx(1.7785, abs=1e-3)
    assert delta == pytest.approx(-0.4834, abs=1e-3)
    rated = update(PLAYER, RESULTS, tau=0.5)
    assert round((rated.rating - 1500) / SCALE, 4) == -0.2069
    assert round(rated.deviation / SCALE, 4) == 0.8722


def test_a_period_without_games_only_widens_the_deviation() -> None:
    idle = update(PLAYER, [])
    assert idle.rating == PLAYER.rating and idle.volatility == PLAYER.volatility
    assert idle.deviation == pytest.approx(math.hypot(200, 0.06 * SCALE))
    assert idle.games == 0


def test_the_volatility_iteration_survives_a_huge_upset() -> None:
    # Δ² > φ² + v: the other branch of step 5.2
    low = Rating(1000, 50, 0.06)
    rated = update(low, [(Rating(3000, 50, 0.06), WIN)], bounded=False)
    assert math.isfinite(rated.rating) and rated.rating > 1000
    assert rated.volatility > low.volatility


def test_scores_outside_zero_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(PLAYER, [(OPPONENTS[0], 2.0)])


def test_new_players_and_the_provisional_mark() -> None:
    fresh = Rating()
    assert (fresh.rating, fresh.deviation, fresh.volatility) == (1500, 500, 0.09)
    assert fresh.provisional and fresh.display() == "1500?"
    assert Rating(1734.4, 109.9).display() == "1734"
    assert Rating(1500, 110).provisional  # lichess: 110 or more is provisional


def test_a_few_games_against_established_players_end_the_provisional_period() -> None:
    player = Rating()
    established = Rating(1600, 50, 0.06, games=300, last_played=T0)
    when = T0
    count = 0
    while player.provisional:
        when += timedelta(hours=1)
        score = WIN if count % 2 else LOSS
        player, _ = rate_game(player, established, score, when)
        count += 1
        assert count < 30
    assert 5 <= count <= 20
    assert player.games == count and player.last_played == when


def test_equal_players_drawing_keep_their_ratings() -> None:
    a = Rating(1500, 80, 0.06, games=50, last_played=T0)
    b = Rating(1500, 80, 0.06, games=50, last_played=T0)
    a2, b2 = rate_game(a, b, DRAW, T0)
    assert a2.rating == pytest.approx(1500) and b2.rating == pytest.approx(1500)
    assert a2.deviation < 80.1


def test_idle_time_grows_the_deviation_up_to_the_maximum() -> None:
    player = Rating(1800, 60, 0.06, games=100, last_played=T0)
    assert current_deviation(player, T0) == pytest.approx(60)
    month, year = T0 + timedelta(days=30), T0 + timedelta(days=365)
    expected_month = math.sqrt(60**2 + 30 * ratings.PERIODS_PER_DAY * (0.06 * SCALE) ** 2)
    assert current_deviation(player, month) == pytest.approx(expected_month)
    assert 60 < current_deviation(player, month) < current_deviation(player, year)
    assert current_deviation(player, T0 + timedelta(days=100_000)) == ratings.MAX_DEVIATION
    assert player.at(month).rating == 1800
    # an absent player's next result moves the rating more
    fresh_after_break = rate_game(player, player, WIN, year)[0].rating - 1800
    right_away = rate_game(player, player, WIN, T0)[0].rating - 1800
    assert fresh_after_break > right_away > 0


def test_bounds_hold_after_many_games() -> None:
    player = Rating()
    weak = Rating(400, 45, 0.06, games=1000, last_played=T0)
    for hour in range(200):
        player, _ = rate_game(player, weak, LOSS, T0 + timedelta(hours=hour))
    assert player.rating >= ratings.MIN_RATING
    assert player.deviation >= ratings.MIN_DEVIATION
    assert player.volatility <= ratings.MAX_VOLATILITY


def test_expected_score() -> None:
    assert expected_score(Rating(1500, 50), Rating(1500, 50)) == pytest.approx(0.5)
    assert expected_score(Rating(1900, 50), Rating(1500, 50)) > 0.85
    # an uncertain opponent pulls the expectation towards a half
    assert expected_score(Rating(1900, 50), Rating(1500, 350)) < expected_score(
        Rating(1900, 50), Rating(1500, 50)
    )


def test_stakes_before_a_game() -> None:
    a = Rating(1600, 60, 0.06, games=80, last_played=T0)
    b = Rating(1500, 60, 0.06, games=80, last_played=T0)
    stake = stakes(a, b, T0)
    assert stake[WIN] > 0 > stake[LOSS]
    assert stake[WIN] < -stake[LOSS]  # the favourite wins less than it loses
    assert stake[DRAW] < 0


def test_round_trip_through_a_dict() -> None:
    rating = Rating(1612.5, 88.2, 0.061, games=42, last_played=T0)
    assert Rating.from_dict(rating.to_dict()) == rating
    assert Rating.from_dict(Rating().to_dict()) == Rating()
    naive = {**rating.to_dict(), "last_played": "2024-03-01T12:00:00"}
    assert Rating.from_dict(naive).last_played == T0
    for bad in ({}, {"rating": "x"}, {**rating.to_dict(), "deviation": -1}, {"rating": None}):
        with pytest.raises(ValueError, match="not a rating"):
            Rating.from_dict(bad)


ratings_strategy = st.builds(
    Rating,
    rating=st.floats(800, 2800),
    deviation=st.floats(45, 500),
    volatility=st.floats(0.03, 0.1),
    games=st.integers(0, 500),
    last_played=st.just(T0),
)


@given(ratings_strategy, ratings_strategy, st.sampled_from([WIN, DRAW, LOSS]))
def test_a_game_rated_from_either_side_agrees(a: Rating, b: Rating, score: float) -> None:
    a1, b1 = rate_game(a, b, score, T0 + timedelta(days=1))
    b2, a2 = rate_game(b, a, 1.0 - score, T0 + timedelta(days=1))
    assert a1 == a2 and b1 == b2


@given(ratings_strategy, ratings_strategy)
def test_winning_is_better_than_drawing_is_better_than_losing(a: Rating, b: Rating) -> None:
    win, draw, loss = (rate_game(a, b, s, T0)[0] for s in (WIN, DRAW, LOSS))
    assert win.rating > draw.rating > loss.rating
    assert win.rating > a.rating > loss.rating
    for score, r in zip((WIN, DRAW, LOSS), (win, draw, loss), strict=True):
        assert r.deviation >= ratings.MIN_DEVIATION and r.games == a.games + 1
        # step 7 only narrows what step 6 widened by one period
        loose = update(a.at(T0), [(b.at(T0), score)], bounded=False)
        assert loose.deviation <= math.hypot(a.deviation, loose.volatility * SCALE)
