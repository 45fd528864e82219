"""A French page shows the rules engines' refusals in French: an illegal move typed in the move
box, and a position the home page's form cannot start from (``server/i18n/refusals.py``)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

NNBSP = "\u202f"


def french_page(new_page: Callable[..., Page], server: Server) -> Page:
    page = new_page(locale="fr-FR")
    page.context.add_cookies([{"name": "lang", "value": "fr", "url": server.url}])
    return page


def test_a_french_page_shows_an_illegal_move_in_french(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = french_page(new_page, server)
    open_game(page, server, "general", "svg.board")
    page.fill("#move-input", "a1-a2")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_have_text("il y a déjà un pion en a2")
    page.fill("#move-input", "zz")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text(
        f"impossible de lire «{NNBSP}zz{NNBSP}»{NNBSP}: écrivez un pas «{NNBSP}a1-b2{NNBSP}»"
    )
    shot(page, "engine-words-general-fr")
    english = new_page()
    open_game(english, server, "general", "svg.board")
    english.fill("#move-input", "a1-a2")
    english.press("#move-input", "Enter")
    expect(english.locator("#message")).to_have_text("a2 is occupied")
    assert not page.errors and not english.errors  # type: ignore[attr-defined]


def test_a_french_page_shows_a_bad_position_in_french(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = french_page(new_page, server)
    page.goto(server.url + "/")
    page.check('input[name="game"][value="defiance"]')
    page.fill("#position", "10/10 r40,i40 R2.2,I7.8,I8.7 r")
    page.click("#start")
    expect(page.locator("main")).to_contain_text(
        f"le plateau a 10 rangées séparées par «{NNBSP}/{NNBSP}», pas 2"
    )
    shot(page, "engine-words-position-fr")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_french_page_says_why_a_pass_was_forced_in_french(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = french_page(new_page, server)
    open_game(page, server, "backgammon", "svg.backgammon", position="W[bar,24x5,6x5] B[3x2] w 31")
    entry = page.locator("#move-list .ply.move").first
    expect(entry).to_contain_text(f"la flèche 24 est pleine{NNBSP}: 5 de vos pions s’y trouvent")
    expect(entry).to_contain_text("la flèche 22 est bloquée")
    shot(page, "engine-words-pass-fr")
    assert not page.errors  # type: ignore[attr-defined]
