"""The lists where players find each other: every time control by its name in both
languages, a profile's games newest first (ties by id, a page at a time) with the games being
played and their links, dates in the reader's language, the rating chart's time axis and its
table, the leaderboard's rule at its thresholds, and the Challenge button."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server import timesource
from ludotheque.server.accounts import profiles
from ludotheque.server.accounts.chart import (
    CHAR,
    MAX_TICKS,
    WIDTH,
    Point,
    rating_chart,
    time_ticks,
)
from ludotheque.server.clock.controls import PRESETS, TimeControl, control_name, control_names
from ludotheque.server.i18n.catalog import LANGUAGES
from ludotheque.server.i18n.languages import format_ago
from ludotheque.server.rating.glicko import Rating
from ludotheque.server.rating.ranking import (
    LEADERBOARD_DAYS,
    LEADERBOARD_DEVIATION,
    LEADERBOARD_GAMES,
    on_leaderboard,
)
from ludotheque.server.store.db import RatingRow
from ludotheque.server.timesource import FakeTime
from tests.server.people import Person, on_loop, place_client, sign_up, visitor

NAMES = {
    "3+2": ("3+2", "3+2"), "5+3": ("5+3", "5+3"), "10+5": ("10+5", "10+5"),
    "15+10": ("15+10", "15+10"), "30+20": ("30+20", "30+20"),
    "1+12d": ("1 min + 12 s delay", "1 min + 12 s de délai"),
    "3+12d": ("3 min + 12 s delay", "3 min + 12 s de délai"),
    "5+12d": ("5 min + 12 s delay", "5 min + 12 s de délai"),
    "10+12d": ("10 min + 12 s delay", "10 min + 12 s de délai"),
    "1d": ("1 day a move", "1 jour par coup"), "3d": ("3 days a move", "3 jours par coup"),
    "7d": ("7 days a move", "7 jours par coup"), "14d": ("14 days a move", "14 jours par coup"),
}  # fmt: skip
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture
def fake() -> Iterator[FakeTime]:
    with timesource.using(FakeTime(datetime(2026, 12, 5, 14, 0, tzinfo=UTC).timestamp())) as f:
        yield f


@pytest.fixture
def client(make_client: Callable[..., TestClient], fake: FakeTime) -> TestClient:
    return place_client(make_client)


# -- time controls ---------------------------------------------------------------------------


def test_every_control_the_site_offers_has_one_name_in_each_language() -> None:
    offered = {c.key for controls in PRESETS.values() for c in controls}
    assert offered == set(NAMES)
    for game, controls in PRESETS.items():
        names = [control_name(c.key)("en") for c in controls] + [control_name(None)("en")]
        assert len(set(names)) == len(names), game  # no two controls of a game look alike
        for c in controls:
            english, french = NAMES[c.key]
            assert control_name(c.key)("en") == c.label()("en") == english
            assert control_name(c.key)("fr") == c.label()("fr") == french
            assert control_names(c.key) == {"en": english, "fr": french}
            assert not re.search(r"\d+d\b", english + french)  # no code left ("1+12d", "3d")
    assert control_names(None) == {"en": "No clock", "fr": "Sans pendule"}
    assert set(control_names("5+3")) == set(LANGUAGES)
    # any control a game may be made with (the tests' short ones), and what does not read
    assert control_name("0.5+0")("fr") == "0.5+0"
    assert control_name(TimeControl.parse("2d").key)("en") == "2 days a move"
    assert control_name("chess")("en") == "chess"


# -- profiles --------------------------------------------------------------------------------


def lobby_game(first: Person, second: Person, **spec: Any) -> str:
    """A lobby game in which both sides have made their first move: ``first`` plays the
    Rebels (who move first). Days a move: the test's clock may jump hours between moves."""
    posted = first.post("/api/lobby/seeks", {"game": "general", "control": "14d",
                                             "side": "rebels", **spec})  # fmt: skip
    assert posted.status_code == 201, posted.text
    accepted = second.post(f"/api/lobby/seeks/{posted.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    game_id = str(accepted.json()["id"])
    for ply, (person, move) in enumerate(((first, "a2-b2"), (second, "c3-b4"))):
        played = person.post(f"/api/play/{person.seat(game_id)}/move",
                             {"move": move, "ply": ply}, csrf=False)  # fmt: skip
        assert played.status_code == 200, played.text
    return game_id


def resign(person: Person, game_id: str) -> None:
    answer = person.post(f"/api/play/{person.seat(game_id)}/resign", csrf=False)
    assert answer.status_code == 200, answer.text


def rows(html: str, table: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<tr data-game-id="([^"]+)"', body)


def visible(html: str) -> str:
    """A page's text as people read it (no tags, attributes or scripts)."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_profile_games_newest_first_with_running_games_and_pages(
    client: TestClient, fake: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    early = lobby_game(alice, bob)  # made first, finished last
    fake.advance(60)
    late = lobby_game(alice, bob, rated=True)
    fake.advance(60)
    resign(bob, late)
    fake.advance(3600)
    resign(alice, early)
    tied = []
    fake.advance(2 * 86400)
    for _ in range(3):  # three games that end in the same second
        game_id = lobby_game(alice, bob)
        resign(bob, game_id)
        tied.append(game_id)
    running = lobby_game(alice, bob)
    fake.advance(120)
    api = alice.get("/api/players/alice").json()
    expected = [*sorted(tied, reverse=True), early, late]
    assert [g["id"] for g in api["games"]] == expected
    assert [g["id"] for g in api["playing"]] == [running]
    assert api["playing"][0]["url"] == f"/resume/{running}"  # the player's own seat
    assert api["games"][-1]["result"] == "win" and api["games"][-2]["result"] == "loss"
    # what others see of the running game: the watchers' page of a public game
    assert visitor(client).get("/api/players/alice").json()["playing"][0]["url"] == (
        f"/live/{running}"
    )
    page = alice.get("/@/alice").text
    assert rows(page, "profile-games") == expected and rows(page, "profile-playing") == [running]
    assert "14 days a move · casual" in page and "Playing now" in page
    assert "2 minutes ago" in page  # the running game began two minutes ago
    # pages of games: the same order across pages, nothing twice, nothing missed
    monkeypatch.setattr(profiles, "GAMES_SHOWN", 2)
    seen = []
    for number in (1, 2, 3):
        html = bob.get(f"/@/alice?page={number}").text
        seen += rows(html, "profile-games")
        assert ('id="older-games"' in html) == (number < 3)
        assert ('id="newer-games"' in html) == (number > 1)
    assert seen == expected


def test_profile_dates_in_the_readers_language(client: TestClient, fake: FakeTime) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id = lobby_game(alice, bob, rated=True)
    resign(bob, game_id)
    fake.advance(3 * 3600)
    french = alice.get("/@/alice", headers={"accept-language": "fr"}).text
    assert "il y a 3 heures" in french and "Joueur depuis le 5 déc. 2026" in french
    assert "14 jours par coup · classée" in french
    fake.advance(40 * 86400)
    for lang, words in (("fr", ("5 déc. 2026", "Date (UTC)")), ("en", ("Dec 5, 2026",))):
        html = bob.get("/@/alice", headers={"accept-language": lang}).text
        text = visible(html)
        assert not ISO_DATE.search(text), ISO_DATE.findall(text)
        for word in words:
            assert word in text, (lang, word)
        assert f'datetime="{datetime(2026, 12, 5, 14, 0, tzinfo=UTC).isoformat()}"' in html


def test_the_challenge_button(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    on_bob = alice.get("/@/bob").text
    assert 'id="challenge" href="/lobby?challenge=bob"' in on_bob and "Challenge bob" in on_bob
    assert 'id="challenge"' not in bob.get("/@/bob").text  # not on one's own profile
    anonymous = visitor(client).get("/@/bob").text
    assert 'id="challenge"' not in anonymous and "Sign in to challenge bob" in anonymous
    assert 'href="/signin?next=/%40/bob"' in anonymous
    assert 'id="challenge' not in alice.get("/@/computer-easy").text
    # the lobby's form comes with bob's name; posting it challenges bob, who sees it
    form = alice.get("/lobby?challenge=bob").text
    assert 'id="challenge-help"' in form and 'value="bob"' in form
    assert 'id="challenge-help"' not in alice.get("/lobby?challenge=<b>").text
    posted = alice.post("/api/lobby/seeks", {"game": "general", "control": "3d",
                                             "opponent": "bob"})  # fmt: skip
    assert posted.status_code == 201, posted.text
    to_bob = [s for s in bob.get("/api/lobby").json()["seeks"] if s["to_me"]]
    assert [(s["name"], s["control_name"]["fr"]) for s in to_bob] == [("alice", "3 jours par coup")]
    french = bob.get("/@/alice", headers={"accept-language": "fr"}).text
    assert "Défier alice" in french


# -- the leaderboard -------------------------------------------------------------------------


def test_the_leaderboard_rule_at_its_thresholds() -> None:
    when = datetime(2026, 12, 5, tzinfo=UTC)
    recent = when - timedelta(hours=1)

    def rating(games: int, deviation: float, last: datetime | None = recent) -> Rating:
        return Rating(1600.0, deviation, 0.06, games, last)

    good = LEADERBOARD_DEVIATION - 1.0
    assert on_leaderboard(rating(LEADERBOARD_GAMES, good), when)
    assert not on_leaderboard(rating(LEADERBOARD_GAMES - 1, good), when)
    assert not on_leaderboard(rating(LEADERBOARD_GAMES, LEADERBOARD_DEVIATION), when)
    assert not on_leaderboard(rating(1, 45.0), when)  # one game: never
    stale = when - timedelta(days=LEADERBOARD_DAYS, minutes=1)
    assert not on_leaderboard(rating(100, 45.0, stale), when)
    assert on_leaderboard(rating(100, 45.0, stale + timedelta(minutes=2)), when)
    assert not on_leaderboard(rating(100, 45.0, None), when)
    # the deviation grows with the days without a game: six idle days can cross the line
    edge = rating(LEADERBOARD_GAMES, LEADERBOARD_DEVIATION - 0.05, when)
    assert on_leaderboard(edge, when)
    assert not on_leaderboard(edge, when + timedelta(days=6))
    assert (LEADERBOARD_GAMES, LEADERBOARD_DAYS, LEADERBOARD_DEVIATION) == (30, 7, 75.0)


def test_the_leaderboard_lists_established_ratings_only(client: TestClient) -> None:
    people = {name: sign_up(client, name) for name in ("ann", "ben", "cat", "dan", "eve")}
    users = client.app.state.users  # type: ignore[attr-defined]
    service = client.app.state.service  # type: ignore[attr-defined]
    stamp = timesource.now()
    figures = {  # games, deviation, days since the last game
        "ann": (30, 74.0, 1), "ben": (29, 60.0, 1), "cat": (80, 75.0, 1),
        "dan": (80, 50.0, 8), "eve": (1, 200.0, 0),
    }  # fmt: skip
    with service.sessions() as db:
        for name, (games, deviation, days) in figures.items():
            user = on_loop(client, functools.partial(users.named, name))
            db.add(RatingRow(user_id=user.id, game="general", ruleset="default",
                             rating=1500.0 + games, deviation=deviation, volatility=0.06,
                             games=games, wins=games, draws=0, losses=0,
                             last_played=stamp - timedelta(days=days)))  # fmt: skip
        db.commit()
    for lang, rule in (
        ("en", "at least 30 rated games, one of them in the last 7 days, and a rating "
               "deviation under 75"),
        ("fr", "au moins 30 parties classées, dont une dans les 7 derniers jours, et un écart "
               "de classement inférieur à 75"),
    ):  # fmt: skip
        board = people["eve"].get("/leaderboard?game=general", headers={"accept-language": lang})
        listed = re.findall(r'<a href="/@/(\w+)">', board.text.split('class="board-table"')[1])
        assert listed == ["ann"], lang
        assert rule in board.text
    empty = client.get("/leaderboard?game=defiance&ruleset=8x8").text
    assert 'id="board-empty"' in empty and "board-table" not in empty


# -- the rating chart ------------------------------------------------------------------------


def labels(svg: str, kind: str = "time-tick") -> list[str]:
    return re.findall(rf'class="tick {kind}" x="[^"]+" y="[^"]+" text-anchor="\w+">([^<]*)<', svg)


def test_the_time_axis_never_repeats_a_label() -> None:
    start = datetime(2026, 12, 30, 22, 47, 13, tzinfo=UTC)
    spans = [timedelta(minutes=m) for m in (2, 7, 40, 95, 300, 700, 1100, 1300, 1500)]
    spans += [timedelta(days=d) for d in (1.2, 2, 3.5, 9, 20, 45, 80, 100, 200, 364, 400, 800)]
    spans += [timedelta(days=365 * y) for y in (3, 7, 15, 40)]
    for span in spans:
        for lang in LANGUAGES:
            _step, ticks, written = time_ticks(start, start + span, lang)
            assert 1 <= len(ticks) <= MAX_TICKS, span
            assert all(start <= t <= start + span for t in ticks), span
            assert len(set(written)) == len(written) == len(ticks), (span, written)
        points = [Point(start, 1500.0, None), Point(start + span, 1620.0, 120.0)]
        for lang in LANGUAGES:
            svg = str(rating_chart(points, "x", lang))
            shown = labels(svg)
            assert len(set(shown)) == len(shown) and 1 <= len(shown) <= MAX_TICKS, (span, shown)
            xs = [float(x) for x in re.findall(r'class="tick time-tick" x="([^"]+)"', svg)]
            for x, label in zip(xs, shown, strict=True):  # inside the chart
                assert len(label) * CHAR / 2 < x < WIDTH - len(label) * CHAR / 2, (span, svg)
            for x, y, u, v in zip(xs, xs[1:], shown, shown[1:], strict=False):  # apart
                assert y - x >= (len(u) + len(v)) * CHAR / 2, (span, shown)


def test_one_game_and_one_days_games_render_sensibly() -> None:
    day = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    one = str(rating_chart([Point(day, 1742.0, 242.0)], "one", "fr"))
    assert labels(one) == ["5 déc. 2026"] and "<polyline" not in one
    assert "Classement de 1500 à 1742" in one and 'data-points="1"' in one
    same_day = [Point(day + timedelta(minutes=25 * i), 1500.0 + 10 * i, 10.0) for i in range(9)]
    svg = str(rating_chart(same_day, "day", "en"))
    assert labels(svg) == ["09:00", "10:00", "11:00", "12:00"]
    assert labels(svg, "span") == ["Dec 5, 2026 (times in UTC)"]
    assert "9 rated games, Dec 5, 2026; lowest 1500, highest 1580." in svg
    assert svg.count("<tr><td>") == 9 and "+10</td>" in svg
    months = [Point(day + timedelta(days=40 * i), 1500.0 - 5 * i, -5.0) for i in range(6)]
    french = str(rating_chart(months, "months", "fr"))
    assert labels(french) == ["janv.", "mars", "mai"]  # (the year is under them)
    assert labels(french, "span") == ["5 déc. 2026\u2009–\u200923 juin 2027"]
    assert "\u22125</td>" in french  # a minus sign


def test_when_as_people_say_it() -> None:
    now = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)
    said = {lang: [format_ago(lang, now - timedelta(seconds=s), now)
                   for s in (0, 90, 3 * 3600, 2 * 86400)] for lang in LANGUAGES}  # fmt: skip
    assert said["en"] == ["1 second ago", "2 minutes ago", "3 hours ago", "Dec 3, 2026"]
    assert said["fr"] == ["il y a 1 seconde", "il y a 2 minutes", "il y a 3 heures", "3 déc. 2026"]
    assert format_ago("fr", now.replace(tzinfo=None), now) == "il y a 1 seconde"  # (SQLite's)
