"""The perfect level in the browser: the home page offers it for the General alone, a game
against it starts from the form on either side (the perfect rebels open with their strategy's
move), and the General's rules show the proof; in both languages, on a desktop and a phone,
axe finds nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

import ludotheque
from ludotheque.solve import certificate
from tests.browser.conftest import SHOTS, Server, open_game, shot
from tests.browser.test_accessibility import axe

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
PERFECT = {"en": "Perfect", "fr": "Parfait"}
PROOF = {"en": "The proof", "fr": "La preuve"}


def violations(page: Page, where: str) -> list[str]:
    return [f"{where}|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
            for v in axe(page)]  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_perfect_offered_played_and_proven(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    found: list[str] = []
    # the home page: the level appears with the General against the computer, not elsewhere
    page.goto(server.url + "/")
    page.check('input[name="mode"][value="computer"]')
    perfect = page.locator("label.level-solved")
    page.check('input[name="game"][value="general"]')
    expect(perfect).to_be_visible()
    expect(perfect).to_contain_text(PERFECT[lang])
    page.check('input[name="level"][value="perfect"]')
    page.check('input[name="game"][value="backgammon"]')
    expect(perfect).to_be_hidden()
    expect(page.locator('input[name="level"][value="medium"]')).to_be_checked()
    page.check('input[name="game"][value="general"]')
    page.check('input[name="level"][value="perfect"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shot(page, f"perfect-home-{lang}-{size}")
    found += violations(page, f"home {lang} {size}")
    # a game against it, the human the general: the rebels open with their strategy's move
    open_game(page, server, "general", "svg.general", mode="computer", level="perfect",
              side="general")  # fmt: skip
    strategy = certificate.shipped()
    assert strategy is not None
    first = strategy.move(ludotheque.load("general").start())
    expect(page.locator("#move-list .ply").first).to_contain_text(str(first), timeout=30_000)
    shot(page, f"perfect-game-{lang}-{size}")
    found += violations(page, f"game {lang} {size}")
    # the rules: the proof, its openings and a best-play game to replay
    page.goto(server.url + "/rules/general")
    proof = page.locator("#proof")
    expect(proof.locator("h2")).to_have_text(PROOF[lang])
    expect(proof.locator("table.openings tbody tr")).to_have_count(24)
    expect(proof.locator("ol.best-line a")).to_have_count(37)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    proof.scroll_into_view_if_needed()
    shot(page, f"perfect-rules-{lang}-{size}")
    proof.screenshot(path=str(SHOTS / f"perfect-proof-{lang}-{size}.png"))
    found += violations(page, f"rules {lang} {size}")
    # a move of the best-play game opens its position on the analysis board
    proof.locator("ol.best-line a").first.click()
    expect(page.locator("svg.general[data-position]")).to_be_visible()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
