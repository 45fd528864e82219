"""One's account in a real browser, in English and French, on a laptop (1366×768) and a phone
(390×844): the sign-up and sign-in pages tell a signed-in person so (with Sign out), a name
too long is refused saying the limit (what was typed kept), the header's name leads to the
account page, a password change signs the other browser out, and closing the account signs
out and leaves the name closed; axe finds nothing on any of these pages."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.helpers import CASES, page_in, violations

PASSWORD = "a fine long password"
NEW_PASSWORD = "another fine password"
WORDS = {
    "en": {"signed_in": "You are signed in as", "limit": "2 to 20 characters (this one has 200)",
           "changed": "Your password is changed", "closed": "Your account is closed",
           "gone": "This account is closed."},
    "fr": {"signed_in": "Vous êtes connecté en tant que",
           "limit": "de 2 à 20 caractères (celui-ci en a 200)",
           "changed": "Votre mot de passe est changé", "closed": "Votre compte est fermé",
           "gone": "Ce compte est fermé."},
}  # fmt: skip


@pytest.fixture(scope="module")
def account_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")  # cheap hashes: the test is not slow
        server = Server(tmp_path_factory.mktemp("accounts") / "accounts.sqlite3")
        server.start()
    yield server
    server.stop()


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "/signup")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url("**/lobby")


def sign_in(page: Page, server: Server, name: str, password: str = PASSWORD) -> None:
    page.goto(server.url + "/signin")
    page.fill("#username", name)
    page.fill("#password", password)
    page.click("#signin-submit")
    page.wait_for_url("**/lobby")


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_accounts_in_both_languages_and_sizes(
    account_server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    server, words, where = account_server, WORDS[lang], f"{lang}-{size}"
    name = f"ann{lang}{size[0]}"
    problems: list[str] = []

    # a stranger's name too long: refused, the limit said, what was typed kept (never cut)
    stranger = page_in(new_page, server, lang, size)
    stranger.goto(server.url + "/signup")
    stranger.fill("#username", "a" * 200)
    stranger.fill("#password", PASSWORD)
    stranger.click("#signup-submit")
    expect(stranger.locator("#form-error")).to_contain_text(words["limit"])
    expect(stranger.locator("#username")).to_have_value("a" * 200)
    shot(stranger, f"account-long-name-{where}")
    problems += violations(stranger, f"long name {where}")

    # signed in, the sign-up and sign-in pages say so, with Sign out, and show no form
    ann = page_in(new_page, server, lang, size)
    sign_up(ann, server, name)
    for path in ("/signup", "/signin"):
        ann.goto(server.url + path)
        expect(ann.locator("#signed-in")).to_contain_text(f"{words['signed_in']} {name}.")
        expect(ann.locator("#signed-in-signout")).to_be_visible()
        expect(ann.locator("#signup-form, #signin-form")).to_have_count(0)
        shot(ann, f"account-signed-in{path.replace('/', '-')}-{where}")
        problems += violations(ann, f"{path} signed in {where}")

    # the header's name leads to the account page
    elsewhere = page_in(new_page, server, lang, size)
    sign_in(elsewhere, server, name)
    ann.goto(server.url + "/")
    expect(ann.locator("#me")).to_have_attribute("href", "/account")
    ann.click("#me")
    ann.wait_for_url("**/account")
    expect(ann.locator("#download-games")).to_have_attribute("href", "/account/games")
    assert ann.request.get(server.url + "/account/games").ok
    shot(ann, f"account-page-{where}")
    problems += violations(ann, f"account {where}")

    # change the password: this browser stays signed in, the other is signed out
    ann.fill("#current", PASSWORD)
    ann.fill("#new", NEW_PASSWORD)
    ann.fill("#repeat", NEW_PASSWORD)
    ann.click("#password-submit")
    expect(ann.locator("#password-changed")).to_contain_text(words["changed"])
    expect(ann.locator("#me")).to_have_text(name)
    shot(ann, f"account-password-changed-{where}")
    problems += violations(ann, f"password changed {where}")
    elsewhere.goto(server.url + "/account")
    elsewhere.wait_for_url("**/signin?next=/account")
    # signed out: the header offers to sign in (behind the menu on a phone), names nobody
    expect(elsewhere.locator("#signin-link")).to_be_attached()
    expect(elsewhere.locator("#me")).to_have_count(0)

    # close the account: a wrong password is refused beside its form; then it is closed
    ann.fill("#close-password", "not my password")
    ann.check("#close-confirm")
    ann.click("#close-submit")
    expect(ann.locator("#close-error")).to_be_visible()
    problems += violations(ann, f"close refused {where}")
    ann.fill("#close-password", NEW_PASSWORD)
    ann.check("#close-confirm")
    ann.click("#close-submit")
    expect(ann.locator("#account-closed")).to_contain_text(words["closed"])
    expect(ann.locator("#signin-link")).to_be_attached()  # signed out (behind the menu on a phone)
    expect(ann.locator("#me")).to_have_count(0)
    shot(ann, f"account-closed-{where}")
    problems += violations(ann, f"closed {where}")
    ann.goto(server.url + f"/@/{name}")
    expect(ann.locator("#error-message")).to_have_text(words["gone"])
    assert not ann.errors and not elsewhere.errors and not stranger.errors  # type: ignore[attr-defined]
    assert not problems, "axe violations:\n" + "\n".join(problems)
