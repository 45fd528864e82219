"""API tokens and bot accounts in a real browser, in English and French, on a laptop
(1366×768) and a phone (390×844): a token made on the account page is shown once and listed
(its scopes, its Revoke button), a revoked one goes; the account made a bot through the API
shows BOT beside its name in the header; its challenge in the lobby, its strip on the game's
page, its profile, its opponent's and the archive say BOT too; axe finds nothing on any of
these pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from ludotheque.bridge import Client
from tests.browser.conftest import Server, shot
from tests.browser.helpers import CASES, page_in, violations
from tests.browser.test_account_browser import sign_up

WORDS = {
    "en": {"made": "Copy it now", "revoked": "The token is revoked", "make": "Make a token",
           "title": "A bot: a program plays for this account", "revoke": "Revoke the token"},
    "fr": {"made": "Copiez-le maintenant", "revoked": "Le jeton est révoqué",
           "make": "Créer un jeton", "title": "Un bot : un programme joue pour ce compte",
           "revoke": "Révoquer le jeton"},
}  # fmt: skip


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")  # cheap hashes: the test is not slow
        server = Server(tmp_path_factory.mktemp("bots") / "bots.sqlite3")
        server.start()
    yield server
    server.stop()


def make_token(page: Page, label: str, *scopes: str) -> str:
    """Make a token on the account page (the scopes ticked, the others not); its secret."""
    page.fill("#token-label", label)
    for box in page.locator("#token-form input[name=scope]").all():
        box.set_checked(box.get_attribute("value") in scopes)
    page.click("#token-submit")
    secret = page.locator("#new-token-value")
    expect(secret).to_be_visible()
    return str(secret.inner_text())


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_tokens_and_bots_in_both_languages_and_sizes(
    bot_server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    server, words, where = bot_server, WORDS[lang], f"{lang}-{size}"
    name, person = f"robo{lang}{size[0]}", f"ann{lang}{size[0]}b"
    problems: list[str] = []

    page = page_in(new_page, server, lang, size)
    sign_up(page, server, name)
    page.goto(server.url + "/account")
    expect(page.locator("#no-tokens")).to_be_visible()
    expect(page.locator("#token-submit")).to_have_text(words["make"])
    problems += violations(page, f"{where} account")
    spare = make_token(page, "spare", "read")
    token = make_token(page, "my bot", "bot:play", "challenge", "read")
    expect(page.locator("#new-token")).to_contain_text(words["made"])
    expect(page.locator("#token-list li")).to_have_count(2)
    expect(page.locator("#token-list")).to_contain_text("bot:play, challenge, read")
    shot(page, f"bots-token-made-{where}")
    problems += violations(page, f"{where} token made")
    page.reload()  # shown once: a page read again lists it, never shows it
    expect(page.locator("#new-token-value")).to_have_count(0)
    assert token not in page.content() and spare not in page.content()
    spare_row = page.locator("#token-list li", has_text="spare")
    revoke = spare_row.get_by_role("button", name=f"{words['revoke']} spare")
    revoke.click()
    expect(page.locator("#token-revoked")).to_contain_text(words["revoked"])
    expect(page.locator("#token-list li")).to_have_count(1)

    bot = Client(server.url, token)
    assert bot.call("POST", "/api/bot/account/upgrade") == {"ok": True}
    page.goto(server.url + "/account")
    badge = page.locator("header #me .badge-bot")
    expect(badge).to_have_text("BOT")
    expect(badge).to_have_attribute("title", words["title"])
    shot(page, f"bots-header-{where}")
    problems += violations(page, f"{where} bot account")

    # a person is challenged by the bot: the lobby says BOT, and so does the game's page
    ann = page_in(new_page, server, lang, size)
    sign_up(ann, server, person)
    bot.call("POST", f"/api/challenge/{person}", {"game": "general", "side": "rebels"})
    challenge = ann.locator("#to-me-list li", has_text=name)
    expect(challenge.locator(".badge-bot")).to_have_text("BOT")
    shot(ann, f"bots-lobby-{where}")
    problems += violations(ann, f"{where} lobby")
    challenge.locator("button.accept").click()
    # (the accept's answer and the lobby's start notice both lead there: the first may be cut)
    expect(ann).to_have_url(re.compile(r"/play/"), timeout=15_000)
    strip = ann.locator("#strip-top, #strip-bottom").filter(has_text=name)
    expect(strip.locator(".badge-bot")).to_have_text("BOT")
    shot(ann, f"bots-game-{where}")
    problems += violations(ann, f"{where} game")
    ann.goto(f"{server.url}/@/{name}")
    expect(ann.locator("h1 .badge-bot")).to_have_text("BOT")
    ann.goto(f"{server.url}/@/{person}")
    expect(ann.locator("#profile .badge-bot")).to_have_count(1)  # its opponent, in its games
    shot(ann, f"bots-profile-{where}")
    problems += violations(ann, f"{where} profile")
    link = ann.locator('#profile a[href^="/resume/"]').first.get_attribute("href")
    assert link is not None
    bot.call("POST", f"/api/bot/game/{link.rsplit('/', 1)[1]}/resign")  # the bot gives up
    ann.goto(f"{server.url}/archive")
    expect(ann.locator(".archive-players .badge-bot").first).to_have_text("BOT")
    problems += violations(ann, f"{where} archive")
    assert not page.errors and not ann.errors  # type: ignore[attr-defined]
    assert not problems, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(problems)
