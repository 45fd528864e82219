"""Claiming a game the opponent left, in a real browser: the countdown, then the button."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot


def test_the_opponent_who_left_can_be_claimed_against(
    server: Server, new_page: Callable[..., Page]
) -> None:
    request = urllib.request.Request(
        server.url + "/api/games",
        data=json.dumps({"game": "general", "mode": "friend", "control": "1+0"}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created = json.loads(answer.read())
    rebels, general = new_page(), new_page()
    rebels.goto(server.url + created["seats"]["rebels"])
    general.goto(server.url + created["seats"]["general"])
    for page, move in ((rebels, "a2-b2"), (general, "c3-b4"), (rebels, "a1-a2")):
        page.wait_for_selector("#move-input:not([disabled])")
        page.fill("#move-input", move)
        page.click("#move-submit")
    expect(rebels.locator("#strip-top .clock.running")).to_be_visible()
    general.close()  # the general's player leaves, on move
    claim = rebels.locator("#claim")
    expect(claim).to_be_visible(timeout=10_000)
    expect(rebels.locator("#claim-text")).to_have_text(re.compile(r"claim victory in \d+ s"))
    expect(rebels.locator("#strip-top .away")).to_be_visible()
    shot(rebels, "place-claim-countdown-en-desktop")
    button = rebels.locator("#claim-button")
    expect(button).to_be_visible(timeout=25_000)  # bullet: 15 s of grace
    button.click()
    result = rebels.locator("#result")
    expect(result).to_have_attribute("data-reason", "left", timeout=10_000)
    expect(result).to_have_attribute("data-winner", "rebels")
    expect(result.locator(".result-head")).to_have_text("Your opponent left — you won")
    expect(result).to_have_attribute("data-meaning", "won")
    expect(claim).to_be_hidden()
    # no rematch to offer to someone who is not there, said as such (not "left" again)
    expect(rebels.locator("#rematch-status")).to_have_text(
        "Your opponent is not on the game’s page: a rematch can be offered once they are back."
    )
    # the player who left, back on their seat, is told in those words
    back = new_page()
    back.goto(server.url + created["seats"]["general"])
    told = back.locator("#result")
    expect(told.locator(".result-head")).to_have_text("You left the game — you lost")
    expect(told).to_have_attribute("data-meaning", "lost")
    shot(back, "place-claim-you-left-en-desktop")
    assert not rebels.errors and not back.errors  # type: ignore[attr-defined]
