"""The tournaments' pages in a real browser, in English and French, on a laptop (1366×768) and a
phone (390×844): the list and its form; a tournament made through the form, joined and left
with its buttons; a Swiss played by two bots (Bot API clients in the test's process) followed
on its page, its pairings while it runs, then its final table with its tie-breaks; the
navigation's link; axe finds nothing on any of these pages."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from ludotheque.bridge import Bridge, Client, agent_engine
from tests.browser.conftest import Server, shot
from tests.browser.helpers import api, page_in, violations
from tests.browser.test_account_browser import sign_up
from tests.browser.test_layout_browser import fits_every_laptop
from tests.browser.test_place_pages import call
from tests.server.live import bot

CASES = [(lang, size) for lang in ("en", "fr") for size in ("desktop", "phone")]
WORDS = {
    "en": {"nav": "Tournaments", "joined": "You play in this tournament.", "join": "Join",
           "final": "Final standings", "round": "Round 1", "swiss": "Swiss"},
    "fr": {"nav": "Tournois", "joined": "Vous jouez dans ce tournoi.", "join": "S’inscrire",
           "final": "Classement final", "round": "Ronde 1", "swiss": "Système suisse"},
}  # fmt: skip


@pytest.fixture(scope="module")
def tour_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")  # cheap hashes: the test is not slow
        server = Server(tmp_path_factory.mktemp("tour") / "tour.sqlite3")
        server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def players(tour_server: Server) -> Iterator[list[Client]]:
    """Two bots that play whatever game they are given (random legal moves)."""
    clients = [bot(tour_server.url, name) for name in ("rookbot", "pawnbot")]
    bridges = [Bridge(c, agent_engine("general:random", seed=n)) for n, c in enumerate(clients)]
    for bridge in bridges:
        threading.Thread(target=bridge.run, daemon=True).start()
    yield clients
    for bridge in bridges:
        bridge.stop.set()


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_tournament_pages(
    tour_server: Server, players: list[Client], new_page: Callable[..., Page], lang: str,
    size: str,
) -> None:  # fmt: skip
    server, words, where = tour_server, WORDS[lang], f"tournament-{lang}-{size}"
    problems: list[str] = []
    page = page_in(new_page, server, lang, size)
    sign_up(page, server, f"tour{lang}{size[0]}")
    # the list, reached from the navigation (a phone's menu first)
    if page.locator("#menu-button").is_visible():
        page.click("#menu-button")
    page.get_by_role("link", name=words["nav"], exact=True).click()
    page.wait_for_url("**/tournaments")
    expect(page.locator("#tour-form")).to_be_visible()
    problems += violations(page, f"{where}-list")
    shot(page, f"{where}-list")
    # a tournament made through the form, joined and left with its buttons
    page.fill("#tour-name", f"Test {lang} {size}")
    page.select_option("#tour-kind", "arena")
    expect(page.locator("#tour-minutes")).to_be_visible()  # only what applies shows
    expect(page.locator("#tour-rounds")).to_be_hidden()
    page.select_option("#tour-variant", "backgammon/match")
    expect(page.locator("#tour-length")).to_be_visible()
    assert page.locator("#tour-control").input_value().endswith("d")  # a backgammon clock
    page.select_option("#tour-kind", "swiss")
    page.select_option("#tour-variant", "general/default")
    expect(page.locator("#tour-minutes")).to_be_hidden()
    expect(page.locator("#tour-length")).to_be_hidden()
    page.select_option("#tour-control", "3+2")
    page.fill("#tour-rounds", "3")
    page.fill("#tour-starts", "60")
    page.click("#tour-create")
    page.wait_for_url("**/tournament/*")
    expect(page.locator("#tour-title")).to_have_text(f"Test {lang} {size}")
    expect(page.locator("#tour-facts")).to_contain_text(words["swiss"])
    # how long until it starts, counted down beside the time
    soon = {"en": "(in 59 min", "fr": "(dans 59 min"}[lang]
    expect(page.locator("#tour-live .countdown-left")).to_contain_text(soon)
    page.click("#tour-join")
    expect(page.locator("#tour-joined")).to_have_text(words["joined"])
    expect(page.locator("#standings")).to_contain_text(f"tour{lang}{size[0]}")
    problems += violations(page, f"{where}-joined")
    shot(page, f"{where}-joined")
    page.click("#tour-withdraw")
    expect(page.locator("#tour-join")).to_have_text(words["join"])
    # a Swiss of the two bots, followed on its page: its pairings, then its final table
    made = players[0].call("POST", "/api/tournaments", {
        "name": f"Bots {lang} {size}", "kind": "swiss", "game": "general", "control": "1+0",
        "rounds": 1, "starts_in": 0.05})  # fmt: skip
    for client in players:
        client.call("POST", f"/api/tournament/{made['id']}/join")
    page.goto(server.url + made["url"])
    expect(page.locator("#tour-pairings-title, #tour-games-title").first).to_be_visible(
        timeout=30_000
    )
    if page.locator("#pairings").count():
        expect(page.locator("#tour-pairings-title")).to_have_text(words["round"])
        problems += violations(page, f"{where}-running")
        shot(page, f"{where}-running")
    expect(page.locator("#tour-standings-title")).to_have_text(words["final"], timeout=90_000)
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    expect(page.locator("#all-games tbody tr")).to_have_count(1)
    assert page.locator("#standings thead th").count() == 6  # place, player, score, two ties
    problems += violations(page, f"{where}-final")
    shot(page, f"{where}-final")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
def test_berserk_from_the_game_page(
    tour_server: Server, players: list[Client], new_page: Callable[..., Page], lang: str,
    size: str,
) -> None:  # fmt: skip
    """An arena game's page links back to its tournament and offers berserk before the
    player's first move, as lichess's does: pressed, the player's time is halved and the
    offer is gone, and the tournament's page says so."""
    server, where = tour_server, f"tournament-berserk-{lang}-{size}"
    words = {"en": ("A game of the tournament", "You went berserk."),
             "fr": ("Une partie du tournoi", "Vous êtes passé en berserk.")}[lang]  # fmt: skip
    page = page_in(new_page, server, lang, size)
    name = f"brsk{lang}{size[0]}"
    sign_up(page, server, name)
    made = players[1].call("POST", "/api/tournaments", {
        "name": f"Arena {lang} {size}", "kind": "arena", "game": "general", "control": "1+0",
        "minutes": 5, "starts_in": 0.05})  # fmt: skip
    page.goto(server.url + made["url"])
    page.click("#tour-join")
    players[1].call("POST", f"/api/tournament/{made['id']}/join")
    page.wait_for_url("**/play/*", timeout=30_000)  # at the start, the game opens by itself
    expect(page.locator("#tour-back")).to_contain_text(f"{words[0]} Arena {lang} {size}")
    expect(page.locator("#game-berserk")).to_be_visible()
    problems = violations(page, f"{where}-offered")
    shot(page, f"{where}-offered")
    token = page.url.rsplit("/", 1)[1]

    def times() -> list[float]:  # both sides' time left, as the server keeps it
        return sorted(
            round(x) for x in api(server, f"/api/play/{token}")["table"]["clock"]["left"].values()
        )

    assert times() == [60, 60]
    page.click("#game-berserk")
    page.wait_for_url("**/play/*")
    expect(page.locator("#tour-back")).to_be_visible()
    expect(page.locator("#game-berserk")).to_have_count(0)
    assert times() == [30, 60]  # the first move's time does not count: exactly half
    shot(page, f"{where}-done")
    page.click("#tour-back")
    page.wait_for_url("**/tournament/*")
    expect(page.locator("#tour-my-game")).to_contain_text(words[1])
    players[1].call("POST", f"/api/tournament/{made['id']}/withdraw")
    page.click("#tour-withdraw")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    assert not problems, "\n".join(problems)


def test_an_arena_player_is_taken_to_each_new_game(
    tour_server: Server, players: list[Client], new_page: Callable[..., Page]
) -> None:
    """An arena seen by its player: the first game opens by itself from the tournament's page
    (a player who waits there let it abort); once a game is over the arena pairs them again at
    once, and its page goes to the new game (it kept offering a rematch, and the tournament's
    page kept the old game's link); that page offers no rematch."""
    server = tour_server
    page = page_in(new_page, server, "en", "desktop")
    sign_up(page, server, "follower")
    made = players[0].call("POST", "/api/tournaments", {
        "name": "Arena follow", "kind": "arena", "game": "general", "control": "3+2",
        "minutes": 5, "starts_in": 0.05})  # fmt: skip
    page.goto(server.url + made["url"])
    page.click("#tour-join")
    players[0].call("POST", f"/api/tournament/{made['id']}/join")
    page.wait_for_url("**/play/*", timeout=30_000)
    first = page.url
    # while the game goes on, its page never asks for the tournament (it did every 3 s)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/tournament/" in r.url else None)
    expect(page.locator("#tour-back")).to_be_visible()
    # the tournament's strip above the board, berserk offered: all fits a laptop still
    expect(page.locator("#game-berserk")).to_be_visible()
    expect(page.locator("#strip-bottom .clock")).to_be_visible()
    fits_every_laptop(page, ["#tour-back", "#game-berserk"], "tournament-game")
    page.wait_for_timeout(3500)  # longer than one beat of the page's polling
    assert not asked, asked
    call(page, f"/api/play/{first.rsplit('/', 1)[1]}/resign")  # (the seat is the account's)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#rematch")).to_be_hidden()  # the arena pairs, not a rematch
    page.wait_for_url(lambda url: "/play/" in url and url != first, timeout=30_000)
    expect(page.locator("#tour-back")).to_contain_text("Arena follow")
    expect(page.locator("#result")).to_be_hidden()  # a game going on
    shot(page, "tournament-next-game")
    # the tournament's page, opened now, links to the game going on
    second = page.url
    page.goto(server.url + made["url"])
    expect(page.locator("#tour-my-game a")).to_have_attribute("href", re.compile("/resume/"))
    page.locator("#tour-my-game a").click()
    page.wait_for_url(second)
    players[0].call("POST", f"/api/tournament/{made['id']}/withdraw")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
