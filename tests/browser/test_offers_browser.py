"""Offers between friends answered "no" in a real browser: a declined rematch is told to the
player who offered it (who waits on the game's page) and stays declined through a reload; a refused
undo is told to the player who asked. A finished game, like a replay, shows no move box."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
START = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"
WORDS = {
    "en": {
        "offer": "Your opponent offers a rematch, sides swapped.",
        "declined": "Your opponent declined the rematch.",
        "you_declined": "You declined the rematch.",
        "request": "Your opponent asks to undo their last move.",
        "refused": "Your opponent refused to undo your last move.",
        "rebels": "You play the Rebels",
        "waiting": "Rematch offered — waiting for your opponent.",
    },
    "fr": {
        "offer": "Votre adversaire propose une revanche, camps inversés.",
        "declined": "Votre adversaire a refusé la revanche.",
        "you_declined": "Vous avez refusé la revanche.",
        "request": "Votre adversaire demande d’annuler son dernier coup.",
        "refused": "Votre adversaire a refusé d’annuler votre dernier coup.",
        "rebels": "Vous jouez les Rebelles",
        "waiting": "Revanche proposée — en attente de votre adversaire.",
    },
}


def friends(
    server: Server, new_page: Callable[..., Page], lang: str, size: str = "desktop"
) -> tuple[Page, Page, str]:
    """The rebels' and the general's pages of a new friend game, and its watch link."""
    host = new_page()
    open_game(host, server, "general", "svg.board", mode="friend")
    links = [
        str(host.get_attribute(selector, "href"))
        for selector in ('[data-seat-link="rebels"]', '[data-seat-link="general"]',
                         "[data-watch-link]")
    ]  # fmt: skip
    rebels, general = (new_page(viewport=SIZES[size], locale=LOCALES[lang]) for _ in range(2))
    for page, link in ((rebels, links[0]), (general, links[1])):
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        page.goto(server.url + link)
        expect(page.locator("svg.board")).to_have_attribute("data-position", START)
    return rebels, general, links[2]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_a_declined_rematch_is_told_to_the_player_who_offered_it(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    rebels, general, _ = friends(server, new_page, lang, size)
    rebels.click("#resign")
    rebels.click("#confirm-yes")
    for page in (rebels, general):
        expect(page.locator("#result")).to_be_visible()
        # a finished game has no move to type: no move box that does nothing
        expect(page.locator("#move-form")).to_be_hidden()
    general.click("#rematch")  # the general's player offers, and waits on the game's page
    expect(general.locator("#rematch-status")).to_have_text(words["waiting"])
    expect(general.locator("#rematch")).to_be_hidden()
    expect(general.locator("#rematch-declined")).to_be_hidden()
    offer = rebels.locator("#rematch-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text(words["offer"])
    rebels.click("#decline-rematch")
    expect(offer).to_be_hidden()
    expect(rebels.locator("#rematch")).to_be_hidden()  # declined is declined
    expect(rebels.locator("#rematch-declined")).to_have_text(words["you_declined"])
    # the offerer is told at once
    told = general.locator("#rematch-declined")
    expect(general.locator("#rematch-status")).to_be_hidden()
    expect(told).to_be_visible()
    expect(told).to_have_text(words["declined"])
    shot(general, f"rematch-declined-{lang}-{size}")
    shot(rebels, f"rematch-you-declined-{lang}-{size}")
    # the answer is in the games' logs: a reload brings the offer back to neither
    rebels.reload()
    expect(rebels.locator("#result")).to_be_visible()
    expect(rebels.locator("#rematch-declined")).to_have_text(words["you_declined"])
    expect(offer).to_be_hidden()
    general.reload()
    expect(general.locator("#rematch-declined")).to_have_text(words["declined"])
    assert not any(p.errors for p in (rebels, general))  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_a_refused_undo_is_told_to_the_one_who_asked(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    words = WORDS[lang]
    rebels, general, _ = friends(server, new_page, lang)
    rebels.click('[data-point="a2"]')
    rebels.click('[data-point="b2"]')
    expect(general.locator("#move-list .ply")).to_have_count(1)
    rebels.click("#ask-undo")
    request = general.locator("#undo-request")
    expect(request).to_be_visible()
    expect(request).to_contain_text(words["request"])
    general.click("#refuse-undo")
    expect(request).to_be_hidden()
    # the rebels' player is told, and nothing was taken back
    told = rebels.locator("#undo-request")
    expect(told).to_be_visible()
    expect(rebels.locator("#undo-request-text")).to_have_text(words["refused"])
    expect(rebels.locator("#accept-undo")).to_be_hidden()
    expect(rebels.locator("#refuse-undo")).to_be_hidden()
    expect(rebels.locator("#move-list .ply")).to_have_count(1)
    shot(rebels, f"undo-refused-{lang}")
    # the next move closes the matter
    general.fill("#move-input", "c3-b4")
    general.press("#move-input", "Enter")
    expect(rebels.locator("#move-list .ply")).to_have_count(2)
    expect(told).to_be_hidden()
    assert not any(p.errors for p in (rebels, general))  # type: ignore[attr-defined]


def test_a_replay_shows_no_move_box(server: Server, new_page: Callable[..., Page]) -> None:
    rebels, _, _ = friends(server, new_page, "en")
    rebels.click("#resign")
    rebels.click("#confirm-yes")
    expect(rebels.locator("#share")).to_be_visible()
    replay = new_page()
    replay.goto(server.url + str(rebels.get_attribute("#share", "href")))
    expect(replay.locator("svg.board")).to_have_attribute("data-position", START)
    expect(replay.locator("#move-form")).to_be_hidden()
    assert not replay.errors  # type: ignore[attr-defined]
