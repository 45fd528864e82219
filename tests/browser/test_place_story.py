"""The whole story in a real browser: two players sign up in two browser contexts, one posts a
challenge, the other accepts it from the lobby, they chat, they play a rated game on a short
clock until one loses on time, both ratings change, and the game is on both profiles."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot

PASSWORD = "a fine long password"
SHORT = "0.1+0"  # six seconds a side once the first moves are made (any control is allowed)


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """``ludotheque serve`` with cheap password hashing (tests only)."""
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "place.sqlite3")
    server.start()
    yield server
    server.stop()


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "/lobby")
    if page.locator("#menu-button").is_visible():  # a phone: the header's links are in its menu
        page.click("#menu-button")
    page.click("#signup-link")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url("**/lobby")
    expect(page.locator("#me")).to_have_text(name)
    expect(page.locator("#lobby-connection")).not_to_be_empty()


def play(page: Page, move: str) -> None:
    page.wait_for_selector("#move-input:not([disabled])")
    page.fill("#move-input", move)
    page.click("#move-submit")


def test_two_players_meet_play_on_the_clock_and_are_rated(
    place: Server, new_page: Callable[..., Page]
) -> None:
    alice = new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    bob = new_page(viewport={"width": 390, "height": 844}, locale="fr-FR")
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")

    # alice posts a rated challenge with a short clock, playing the rebels
    alice.select_option("#seek-game", "general")
    alice.evaluate(
        f"""() => {{ const o = document.createElement('option'); o.value = '{SHORT}';
        o.textContent = '{SHORT}'; document.getElementById('seek-control').append(o); }}"""
    )
    alice.select_option("#seek-control", SHORT)
    expect(alice.locator("#seek-rated")).to_be_checked()
    alice.select_option("#seek-side", "rebels")
    alice.click("#post")
    expect(alice.locator("#open-list li.mine")).to_have_count(1)

    # bob sees it arrive live, and accepts it
    challenge = bob.locator("#open-list li", has_text="alice")
    expect(challenge).to_have_count(1)
    expect(challenge).to_contain_text("classée")
    shot(bob, "place-story-lobby-fr-phone")
    challenge.locator("button.accept").click()
    bob.wait_for_url(re.compile(r".*/play/.*"))
    alice.wait_for_url(re.compile(r".*/play/.*"), timeout=15_000)  # her page opens by itself
    for page in (alice, bob):
        page.wait_for_selector("#board [data-position]")
        expect(page.locator("#strip-bottom .clock")).to_be_visible()
    expect(alice.locator("#strip-top .name")).to_have_text("bob")
    expect(bob.locator("#strip-top .name")).to_have_text("alice")

    # they chat (the players' channel)
    alice.fill("#chat-input", "Good luck <b>bob</b>!")
    alice.click("#chat-send")
    expect(bob.locator("#chat-list li")).to_contain_text("Good luck <b>bob</b>!")  # as text
    bob.fill("#chat-input", "Merci, toi aussi")
    bob.press("#chat-input", "Enter")
    expect(alice.locator("#chat-list li").last).to_contain_text("Merci, toi aussi")

    # bob mutes alice (in his browser only), then lets her speak again
    bob.locator("#chat-list li", has_text="Good luck").locator("button.mute").click()
    expect(bob.locator("#chat-list li")).to_have_count(1)
    expect(bob.locator("#chat-muted")).to_be_visible()
    bob.click("#chat-unmute")
    expect(bob.locator("#chat-list li")).to_have_count(2)

    # the first moves (free), then alice lets her six seconds run out; her tab is in the
    # background when bob moves: the title and a sound tell her it is her turn
    play(alice, "a2-b2")
    alice.evaluate(
        """() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    play(bob, "c3-b4")
    expect(alice).to_have_title(re.compile(r"^● Your turn — "))
    expect(alice.locator("html")).to_have_attribute("data-last-sound", "turn")
    expect(alice.locator("#strip-bottom .clock.running")).to_be_visible()
    shot(alice, "place-story-game-en-desktop")
    expect(alice.locator("#strip-bottom .clock.low")).to_be_visible(timeout=10_000)
    for page in (alice, bob):
        result = page.locator("#result")
        expect(result).to_be_visible(timeout=15_000)
        expect(result).to_have_attribute("data-reason", "time-out")
        expect(result).to_have_attribute("data-winner", "general")
    expect(alice.locator("#strip-bottom .clock")).to_have_text("0:00.0")

    # both ratings change, live, on the game page
    expect(alice.locator("#strip-bottom .rating-change.down")).to_be_visible(timeout=15_000)
    expect(bob.locator("#strip-bottom .rating-change.up")).to_be_visible(timeout=15_000)
    shot(bob, "place-story-over-fr-phone")
    game_id = alice.locator("#game-root").get_attribute("data-game-id") or ""
    share = alice.locator("#share").get_attribute("href") or ""
    game_id = game_id or share.rsplit("/", 1)[1]

    # and the game is on both profiles, with its replay link
    for page, name, result_class in ((alice, "alice", "result-loss"), (bob, "bob", "result-win")):
        page.click("#me")  # the header's name: the account page, which links the profile
        page.wait_for_url("**/account")
        page.click("#profile-link")
        page.wait_for_url(f"**/@/{name}")
        row = page.locator(f'#profile-games tr[data-game-id="{game_id}"]')
        expect(row).to_have_count(1)
        expect(row.locator(f"td.{result_class}")).to_have_count(1)
        expect(row.locator(f'a[href="/archive/{game_id}"]')).to_have_count(1)
        expect(page.locator(".rating-card svg.rating-chart")).to_have_count(1)
    expect(alice.locator(".rating-value")).to_have_text(re.compile(r"^1[0-4]\d\d\?$"))
    expect(bob.locator(".rating-value")).to_have_text(re.compile(r"^1[5-9]\d\d\?$"))
    shot(alice, "place-story-profile-en-desktop")
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]
