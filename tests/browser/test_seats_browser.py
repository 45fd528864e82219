"""Seats that belong to players, in a real browser: alice's seat link of a rated lobby game,
opened in another browser (anonymous, then another account), shows the game as watchers see
it and cannot move or chat for her; alice finds her game on the home page of a second device
and plays it there; every viewer's header names them. In English and French, on a desktop and
a phone, with axe on the pages this changes."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.test_accessibility import axe

PASSWORD = "a fine long password"
SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
WORDS = {
    "en": {"not_yours": "This seat belongs to alice’s account", "running": "Your games in progress",
           "signin": "Sign in"},
    "fr": {"not_yours": "Cette place appartient au compte de alice",
           "running": "Vos parties en cours", "signin": "Se connecter"},
}  # fmt: skip


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "place.sqlite3")
    server.start()
    yield server
    server.stop()


def browser_page(new_page: Callable[..., Page], server: Server, lang: str, size: str) -> Page:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    return page


def account(page: Page, server: Server, name: str, *, new: bool = True) -> None:
    page.goto(server.url + ("/signup" if new else "/signin") + "?next=/")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#signup-submit" if new else "#signin-submit")
    page.wait_for_url(server.url + "/")
    expect(page.locator("#me")).to_have_text(name)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_a_seat_link_plays_only_for_its_player(
    place: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    alice = browser_page(new_page, place, lang, size)
    bob = browser_page(new_page, place, lang, size)
    account(alice, place, "alice")
    account(bob, place, "bob")
    # alice posts a rated challenge as the Rebels; bob accepts it; both pages open the game
    alice.goto(place.url + "/lobby")
    alice.select_option("#seek-game", "general")
    alice.select_option("#seek-side", "rebels")
    expect(alice.locator("#seek-rated")).to_be_checked()
    alice.click("#post")
    expect(alice.locator("#open-list li.mine")).to_have_count(1)
    bob.goto(place.url + "/lobby")
    bob.locator("#open-list li", has_text="alice").locator("button.accept").click()
    bob.wait_for_url(re.compile(r".*/play/.*"))
    alice.wait_for_url(re.compile(r".*/play/.*"), timeout=15_000)
    alice.wait_for_selector("#board [data-position]")
    link = alice.url

    # her link in a fresh anonymous browser, then in carol's: watchers' view, no moves, no chat
    stranger = browser_page(new_page, place, lang, size)
    carol = browser_page(new_page, place, lang, size)
    account(carol, place, "carol")
    found: list[str] = []
    for page, name in ((stranger, None), (carol, "carol"), (bob, "bob")):
        page.goto(link)
        page.wait_for_selector("#board [data-position]")
        expect(page.locator("#game-root")).to_have_attribute("data-seat", "watch")
        expect(page.locator("#not-yours")).to_contain_text(words["not_yours"])
        expect(page.locator("#move-input")).to_be_hidden()
        if name is None:
            expect(page.locator("#signin-link")).to_have_text(words["signin"])
        else:
            expect(page.locator("#me")).to_have_text(name)
        found += [f"not yours ({name})|{v['id']}|{v['help']}|{' ; '.join(v['nodes'])}"
                  for v in axe(page)]  # fmt: skip
    shot(stranger, f"seats-not-yours-{lang}-{size}")
    # nothing could be played for her: still her turn, at the start
    alice.reload()
    alice.wait_for_selector("#board [data-position]")
    expect(alice.locator("#game-root")).to_have_attribute("data-seat", "rebels")
    expect(alice.locator("#move-input")).to_be_enabled()

    # a second device: alice signs in, finds the game on the home page and plays there
    phone = browser_page(new_page, place, lang, size)
    account(phone, place, "alice", new=False)
    running = phone.locator("#running")
    expect(running).to_contain_text(words["running"])
    expect(running.locator("li")).to_have_count(1)
    expect(running.locator("a")).to_contain_text("bob")
    found += [f"home running|{v['id']}|{v['help']}|{' ; '.join(v['nodes'])}"
              for v in axe(phone)]  # fmt: skip
    shot(phone, f"seats-home-running-{lang}-{size}")
    running.locator("a").click()
    phone.wait_for_url(link)
    phone.wait_for_selector("#move-input:not([disabled])")
    phone.fill("#move-input", "a2-b2")
    phone.click("#move-submit")
    expect(alice.locator("#move-list")).to_contain_text("a2-b2", timeout=10_000)
    # the move reached bob's page, played from alice's second device
    bob.goto(place.url + "/")
    bob.locator("#running a").click()
    bob.wait_for_selector("#board [data-position]")
    expect(bob.locator("#game-root")).to_have_attribute("data-seat", "general")
    expect(bob.locator("#move-input")).to_be_enabled()
    assert not found, "axe violations:\n" + "\n".join(found)
    for page in (alice, bob, stranger, carol, phone):
        assert not page.errors, page.errors  # type: ignore[attr-defined]
