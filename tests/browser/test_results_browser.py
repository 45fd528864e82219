"""Results and agreements in a real browser, in English and French, on a laptop (1366×768) and a
phone (390×844): a rated game lost on time reads "You lost" with the new rating for the loser,
"You won" for the winner and the sides' names for a watcher; a game aborted before the first
moves is never called a draw and offers no analysis; a draw offered and accepted in the General;
a rematch offered, waiting, then made when the other accepts; the inline confirmation of Resign
from the keyboard, and the reader's own move announced. axe finds nothing in these states."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.helpers import CASES, api, page_in
from tests.browser.test_accessibility import axe

PASSWORD = "a fine long password"
SHORT = "0.1+0"  # six seconds a side once the first moves are made
WORDS = {
    "en": {
        "won": "You won", "lost": "You lost", "general_won": "The General won",
        "timeout": "time-out", "your_rating": "Your rating: ", "draw": "Draw",
        "agreement": "by agreement", "aborted": "Game aborted", "you_aborted": "you aborted it",
        "they_aborted": "your opponent aborted it", "draw_them": "Your opponent offers a draw.",
        "draw_mine": "You offered a draw — waiting for the answer.",
        "waiting": "Rematch offered — waiting for your opponent.",
        "offer": "Your opponent offers a rematch, sides swapped.",
        "rebels": "You play the Rebels", "general": "You play the General",
        "resign_q": "Resign this game?", "abort_q": "Abort this game?",
        "mine": "You played a2-b2.", "resignation": "resignation",
    },
    "fr": {
        "won": "Vous avez gagné", "lost": "Vous avez perdu", "general_won": "Le Général a gagné",
        "timeout": "temps écoulé", "your_rating": "Votre classement : ", "draw": "Partie nulle",
        "agreement": "d’un commun accord", "aborted": "Partie annulée",
        "you_aborted": "vous l’avez annulée", "they_aborted": "votre adversaire l’a annulée",
        "draw_them": "Votre adversaire propose la nulle.",
        "draw_mine": "Vous avez proposé la nulle — en attente de la réponse.",
        "waiting": "Revanche proposée — en attente de votre adversaire.",
        "offer": "Votre adversaire propose une revanche, camps inversés.",
        "rebels": "Vous jouez les Rebelles", "general": "Vous jouez le Général",
        "resign_q": "Abandonner cette partie ?", "abort_q": "Annuler cette partie ?",
        "mine": "Vous avez joué a2-b2.", "resignation": "abandon",
    },
}  # fmt: skip


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """``ludotheque serve`` with cheap password hashing (tests only)."""
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "results.sqlite3")
    server.start()
    yield server
    server.stop()


def sign_up(page: Page, server: Server, name: str) -> None:
    """An account for this browser (the form's POST, as the page sends it)."""
    form = page.request.get(server.url + "/signup").text()
    token = re.search(r'name="csrf" value="([^"]+)"', form)
    assert token is not None
    answer = page.request.post(
        server.url + "/signup",
        form={"csrf": token.group(1), "username": name, "password": PASSWORD, "next": "/"},
    )
    assert answer.ok, answer.text()


def csrf(page: Page, server: Server) -> dict[str, str]:
    return {"x-csrf-token": str(page.request.get(server.url + "/api/me").json()["csrf"])}


def rated_game(server: Server, alice: Page, bob: Page, control: str) -> str:
    """A rated General lobby game, alice the rebels; both pages open on their seats."""
    seek = alice.request.post(
        server.url + "/api/lobby/seeks", headers=csrf(alice, server),
        data={"game": "general", "control": control, "rated": True, "side": "rebels"},
    )  # fmt: skip
    assert seek.ok, seek.text()
    accepted = bob.request.post(
        server.url + f"/api/lobby/seeks/{seek.json()['id']}/accept", headers=csrf(bob, server)
    )
    assert accepted.ok, accepted.text()
    game_id = str(accepted.json()["id"])
    for page in (alice, bob):
        page.goto(server.url + f"/resume/{game_id}")
        page.wait_for_selector("#board [data-position]")
    return game_id


def friends(server: Server, rebels: Page, general: Page, **spec: Any) -> str:
    """A General game between friends, opened on both pages; its watch link."""
    created = api(server, "/api/games", {"game": "general", "mode": "friend", **spec})
    for page, side in ((rebels, "rebels"), (general, "general")):
        page.goto(server.url + created["seats"][side])
        page.wait_for_selector("#board [data-position]")
    return str(created["watch"])


def two_friends(
    new_page: Callable[..., Page], server: Server, lang: str, size: str, **spec: Any
) -> tuple[Page, Page]:
    """Two browsers in ``lang`` at ``size`` on a General game between friends: the rebels'
    page and the general's."""
    rebels, general = (page_in(new_page, server, lang, size) for _ in range(2))
    friends(server, rebels, general, **spec)
    return rebels, general


def resign_game(page: Page) -> None:
    """Resign the game on ``page``, the question answered yes."""
    page.click("#resign")
    page.click("#confirm-yes")


def play(page: Page, move: str) -> None:
    page.wait_for_selector("#move-input:not([disabled])")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


def clean(page: Page, state: str) -> None:
    found = axe(page)
    assert found == [], f"{state}: {found}"


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_rated_game_lost_on_time_speaks_to_each_reader(
    place: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    alice, bob = (page_in(new_page, place, lang, size) for _ in range(2))
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")
    game_id = rated_game(place, alice, bob, SHORT)
    watcher = page_in(new_page, place, lang, size)
    watcher.goto(place.url + f"/live/{game_id}")
    watcher.wait_for_selector("#board [data-position]")
    # before a player's first move a rated game is called off, not lost: Abort, no Resign
    for page in (alice, bob):
        expect(page.locator("#abort")).to_be_visible()
        expect(page.locator("#resign")).to_be_hidden()
    play(alice, "a2-b2")
    expect(alice.locator("#resign")).to_be_visible()
    expect(alice.locator("#abort")).to_be_hidden()
    expect(bob.locator("#resign")).to_be_hidden()
    play(bob, "c3-b4")
    expect(bob.locator("#resign")).to_be_visible()
    # alice lets her six seconds run out
    loser, winner = alice.locator("#result"), bob.locator("#result")
    expect(loser).to_be_visible(timeout=20_000)
    expect(loser.locator(".result-head")).to_have_text(words["lost"])
    expect(loser).to_contain_text(words["timeout"])
    expect(loser).to_have_attribute("data-meaning", "lost")
    expect(winner.locator(".result-head")).to_have_text(words["won"])
    expect(winner).to_have_attribute("data-meaning", "won")
    seen = watcher.locator("#result")
    expect(seen.locator(".result-head")).to_have_text(words["general_won"])
    expect(seen).to_have_attribute("data-meaning", "ended")
    # the new ratings come once the game is rated: "1337? (−163)"
    rating = re.compile(rf"^{re.escape(words['your_rating'])}1[0-4]\d\d\? \(−\d+\)$")
    expect(alice.locator("#result-rating")).to_have_text(rating, timeout=15_000)
    gained = re.compile(rf"^{re.escape(words['your_rating'])}1[5-9]\d\d\? \(\+\d+\)$")
    expect(bob.locator("#result-rating")).to_have_text(gained, timeout=15_000)
    expect(watcher.locator("#result-rating")).to_contain_text("(+", timeout=15_000)
    expect(watcher.locator("#result-rating")).to_contain_text("(−")
    for page, who in ((alice, "loser"), (bob, "winner"), (watcher, "watcher")):
        shot(page, f"result-{who}-{lang}-{size}")
        clean(page, f"the {who}'s result")
        assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_an_aborted_game_is_no_draw_and_has_nothing_to_analyse(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    rebels, general = two_friends(new_page, server, lang, size, control="5+3")
    play(rebels, "a2-b2")
    expect(rebels.locator("#abort")).to_be_hidden()  # the rebels have moved
    button = general.locator("#abort")
    expect(button).to_be_visible()
    button.click()
    dialog = general.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(general.locator("#confirm-text")).to_contain_text(words["abort_q"])
    shot(general, f"abort-confirm-{lang}-{size}")
    clean(general, "the abort question")
    general.click("#confirm-yes")
    for page, detail in ((general, words["you_aborted"]), (rebels, words["they_aborted"])):
        result = page.locator("#result")
        expect(result.locator(".result-head")).to_have_text(words["aborted"])
        expect(result).to_contain_text(detail)
        expect(result).to_have_attribute("data-meaning", "aborted")
        expect(result).not_to_contain_text(words["draw"])
        expect(page.locator("#analysis")).to_be_hidden()
        expect(page.locator("#abort")).to_be_hidden()
    shot(rebels, f"aborted-{lang}-{size}")
    clean(rebels, "an aborted game")
    rebels.goto(server.url + "/archive")
    row = rebels.locator("#archive tbody tr").first
    expect(row.locator(".archive-result")).to_have_text(words["aborted"])
    expect(row.locator(".analyse-link")).to_have_count(0)
    assert not rebels.errors and not general.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_draw_offered_and_accepted_in_the_general(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    rebels, general = two_friends(new_page, server, lang, size)
    play(rebels, "a2-b2")
    rebels.click("#offer-draw")
    expect(rebels.locator("#draw-text")).to_have_text(words["draw_mine"])
    expect(rebels.locator("#offer-draw")).to_be_hidden()  # one offer at a time
    box = general.locator("#draw-box")
    expect(box).to_contain_text(words["draw_them"])
    expect(general.locator("#accept-draw")).to_be_visible()
    shot(general, f"draw-offered-{lang}-{size}")
    clean(general, "a draw offer")
    general.click("#accept-draw")
    for page in (rebels, general):
        result = page.locator("#result")
        expect(result.locator(".result-head")).to_have_text(words["draw"])
        expect(result).to_contain_text(words["agreement"])
        expect(result).to_have_attribute("data-meaning", "draw")
        expect(page.locator("#draw-box")).to_be_hidden()
    shot(rebels, f"draw-agreed-{lang}-{size}")
    clean(rebels, "a drawn game")
    assert not rebels.errors and not general.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_rematch_waits_for_the_other_player_then_starts(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    rebels, general = two_friends(new_page, server, lang, size)
    resign_game(rebels)
    expect(general.locator("#result .result-head")).to_have_text(words["won"])
    old = general.url
    general.click("#rematch")
    expect(general.locator("#rematch-status")).to_have_text(words["waiting"])
    expect(general.locator("#rematch")).to_be_hidden()
    offer = rebels.locator("#rematch-offer")
    expect(offer).to_contain_text(words["offer"])
    assert general.url == old  # nothing is made yet: the offerer waits on the game's page
    shot(general, f"rematch-waiting-{lang}-{size}")
    shot(rebels, f"rematch-offered-{lang}-{size}")
    clean(general, "a rematch offered")
    clean(rebels, "a rematch to answer")
    rebels.click("#accept-rematch")
    # both go to the rematch, sides swapped
    expect(rebels.locator("#seat-line")).to_have_text(words["general"])
    expect(general.locator("#seat-line")).to_have_text(words["rebels"])
    assert general.url != old
    expect(general.locator("#result")).to_be_hidden()
    assert not rebels.errors and not general.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_resign_asks_in_the_page_and_is_answered_from_the_keyboard(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    rebels, general = two_friends(new_page, server, lang, size)
    play(rebels, "a2-b2")
    # the player's own move is announced to screen readers, as the opponent's is
    expect(rebels.locator("#announce")).to_have_text(words["mine"])
    expect(general.locator("#announce")).to_contain_text("a2-b2")
    resign = rebels.locator("#resign")
    resign.focus()
    rebels.keyboard.press("Enter")
    dialog = rebels.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("role", "alertdialog")
    expect(rebels.locator("#confirm-text")).to_have_text(words["resign_q"])
    expect(rebels.locator("#confirm-no")).to_be_focused()  # the focus is in the question
    shot(rebels, f"resign-confirm-{lang}-{size}")
    clean(rebels, "the resign question")
    rebels.keyboard.press("Escape")  # cancelled: back where it was
    expect(dialog).to_be_hidden()
    expect(resign).to_be_focused()
    expect(rebels.locator("#result")).to_be_hidden()
    rebels.keyboard.press("Enter")
    expect(rebels.locator("#confirm-no")).to_be_focused()
    rebels.keyboard.press("Shift+Tab")
    expect(rebels.locator("#confirm-yes")).to_be_focused()
    rebels.keyboard.press("Enter")
    result = rebels.locator("#result")
    expect(result.locator(".result-head")).to_have_text(words["lost"])
    expect(result).to_contain_text(words["resignation"])
    expect(dialog).to_be_hidden()
    expect(general.locator("#result .result-head")).to_have_text(words["won"])
    assert not rebels.errors and not general.errors  # type: ignore[attr-defined]


def test_a_rematch_offer_lapses_when_its_player_leaves(
    server: Server, new_page: Callable[..., Page]
) -> None:
    rebels, general = two_friends(new_page, server, "en", "desktop")
    resign_game(rebels)
    general.click("#rematch")
    expect(rebels.locator("#rematch-offer")).to_be_visible()
    general.close()  # the offerer leaves the page: after a few seconds the offer is gone
    expect(rebels.locator("#rematch-offer")).to_be_hidden(timeout=15_000)
    expect(rebels.locator("#rematch-status")).to_have_text(
        "Your opponent left: the rematch offer lapsed."
    )
    expect(rebels.locator("#rematch")).to_be_hidden()  # nobody to offer it to
    shot(rebels, "rematch-lapsed-en-desktop")
    clean(rebels, "a lapsed rematch offer")
    assert not rebels.errors  # type: ignore[attr-defined]
