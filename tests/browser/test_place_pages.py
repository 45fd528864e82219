"""Every new page of the place where players meet, in English and French, on a desktop
(1280×900) and a phone (390×844): screenshots to look at, and axe-core finding nothing.

Pages: the lobby (an open challenge, a challenge to the viewer, games being played), sign up,
sign in, a profile (ratings, chart, games), the leaderboard, a game between two accounts
(players' strips with clocks and ratings, chat), the home page's time control, and a watcher's
page with the watchers' chat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.test_accessibility import axe

PASSWORD = "a fine long password"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "pages.sqlite3")
    server.start()
    yield server
    server.stop()


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "/signup")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url("**/lobby")


def call(page: Page, path: str, body: dict[str, Any] | None = None) -> Any:
    """A POST the page's person makes (their cookies, their page's CSRF token)."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content") or ""
    origin = re.match(r"https?://[^/]+", page.url)
    assert origin is not None
    response = page.request.post(origin.group(0) + path, data=body or {},
                                 headers={"x-csrf-token": token})  # fmt: skip
    assert response.ok, response.text()
    return response.json()


def seat(page: Page, server: Server, game_id: str) -> str:
    response = page.request.get(f"{server.url}/resume/{game_id}", max_redirects=0)
    assert response.status == 303
    return str(response.headers["location"])


def lobby_game(owner: Page, taker: Page, server: Server, **spec: Any) -> str:
    found = call(owner, "/api/lobby/seeks", {"game": "general", "control": "5+3", **spec})
    return str(call(taker, f"/api/lobby/seeks/{found['id']}/accept")["id"])


def violations(page: Page, where: str) -> list[str]:
    return [f"{where}|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
            for v in axe(page)]  # fmt: skip


def test_every_new_page_in_both_languages_and_sizes(
    place: Server, new_page: Callable[..., Page]
) -> None:
    alice, bob, carol = (new_page(viewport=SIZES["desktop"]) for _ in range(3))
    for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        sign_up(page, place, name)
    # a finished rated game (ratings, a chart, the leaderboard), then one being played
    done = lobby_game(alice, bob, place, rated=True, side="rebels")
    call(bob, seat(bob, place, done).replace("/play/", "/api/play/") + "/resign")
    playing = lobby_game(alice, bob, place, rated=True, side="rebels")
    alice.goto(place.url + seat(alice, place, playing))
    bob.goto(place.url + seat(bob, place, playing))
    for page in (alice, bob):
        page.wait_for_selector("#board [data-position]")
    alice.fill("#move-input", "a2-b2")  # both first moves: the game is not aborted
    alice.click("#move-submit")
    bob.wait_for_selector("#move-input:not([disabled])")
    bob.fill("#move-input", "c3-b4")
    bob.click("#move-submit")
    alice.fill("#chat-input", "Bonne chance !")
    alice.click("#chat-send")
    expect(bob.locator("#chat-list li")).to_have_count(1)
    bob.fill("#chat-input", "Thanks, you too")
    bob.click("#chat-send")
    expect(alice.locator("#chat-list li")).to_have_count(2)
    game_page = alice.url.replace(place.url, "")
    watch_page = seat(carol, place, playing)  # carol is not a player: the watchers' page
    # carol waits in the lobby with an open challenge and one for alice
    carol.goto(place.url + "/lobby")
    call(carol, "/api/lobby/seeks", {"game": "backgammon", "control": "3+12d", "rated": True})
    call(carol, "/api/lobby/seeks", {"game": "defiance", "ruleset": "8x8", "opponent": "alice"})
    expect(carol.locator("#open-list li.mine")).to_have_count(2)
    state = alice.context.storage_state()

    found: list[str] = []
    for lang, locale in LOCALES.items():
        for size, viewport in SIZES.items():
            viewer = new_page(viewport=viewport, locale=locale, storage_state=state)
            viewer.context.add_cookies([{"name": "lang", "value": lang, "url": place.url}])
            stranger = new_page(viewport=viewport, locale=locale)
            stranger.context.add_cookies([{"name": "lang", "value": lang, "url": place.url}])
            tour = [
                (viewer, "lobby", "/lobby", "#to-me-list li"),
                (viewer, "profile", "/@/alice", "svg.rating-chart"),
                (viewer, "leaderboard", "/leaderboard", "#board-rule"),  # (one game: empty)
                (viewer, "game", game_page, "#strip-top .clock"),
                (viewer, "home", "/", "#control"),
                (stranger, "signup", "/signup", "#username"),
                (stranger, "signin", "/signin", "#username"),
                (stranger, "watch", watch_page, "#chat-title"),
                (stranger, "lobby-anonymous", "/lobby", "#open-list li"),
            ]
            for page, name, address, wait in tour:
                page.goto(place.url + address)
                page.wait_for_selector(wait)
                if name == "game":
                    expect(page.locator("#chat-list li")).to_have_count(2)
                if name == "home":
                    page.check('input[name="mode"][value="computer"]')
                if name == "lobby":
                    expect(page.locator("h1")).to_have_text("Salon" if lang == "fr" else "Lobby")
                found += violations(page, f"{name} {lang} {size}")
                shot(page, f"place-{name}-{lang}-{size}")
            assert not viewer.errors and not stranger.errors  # type: ignore[attr-defined]
            viewer.context.close()
            stranger.context.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LOCALES)
def test_quick_pairing_says_how_its_rating_window_widens(
    place: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """While quick pairing looks for an opponent, the lobby says how near in rating it looks,
    and that it looks wider the longer one waits (the pairing's own figures)."""
    words = {
        "en": r"within 100 rating points.*10 points more a second, up to 800",
        "fr": r"à 100 points de classement.*10 points de plus par seconde, jusqu’à 800",
    }
    for size in ("desktop", "phone"):
        page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
        page.context.add_cookies([{"name": "lang", "value": lang, "url": place.url}])
        sign_up(page, place, f"q{size}{lang}")
        page.click("#quick")
        expect(page.locator("#searching")).to_be_visible()
        expect(page.locator("#searching-window")).to_have_text(re.compile(words[lang]))
        expect(page.locator("#searching-window")).to_be_in_viewport()
        shot(page, f"lobby-searching-{lang}-{size}")
        page.click("#quick-cancel")
        expect(page.locator("#searching")).to_be_hidden()
        assert not page.errors  # type: ignore[attr-defined]
