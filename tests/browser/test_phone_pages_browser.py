"""Every page on a phone (390×844), English and French: the header is one row with a Menu button
(a disclosure: aria-expanded, Escape closes it and gives the focus back, Tab past its last link
closes it, the keyboard opens it on its first link); the lobby's "Find a game" is above the fold;
and every target of every page type is at least 44×44 px, measured in the page.

Targets: links, buttons, inputs, selects, text areas, summaries, and anything with a role of
button or a tab stop, outside the boards' SVG (whose points zoom to 44 px on a phone:
test_phone_browser, test_cube_browser). A checkbox or radio button is measured by its label
when the label takes the tap for it (its box holds the box's centre). Exempt, as WCAG 2.5.8's
inline exception allows: a link that is inline in a line of text, i.e. whose block has words
outside any link or button (a link in a sentence, "Rebels: alice · General: bob" in the archive);
the test knows which links these are (``INLINE``) and fails on any other it would exempt."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SHOTS, Server, shot
from tests.browser.test_accessibility import axe
from tests.browser.test_place_pages import call, lobby_game, seat, sign_up

PHONE = {"width": 390, "height": 844}
# the links inside a sentence (exempt): the home page's invitation to the lobby, players' names
# in the archive's lines ("Rebels: alice · General: bob"), the rules' link to the dice page,
# and the account forms' "No account yet? Sign up" and "Already have an account? Sign in"
INLINE = [
    r'^<a href="/lobby">',
    r'^<a href="/@/',
    r'^<a href="/dice">',
    r'^<a href="/sign(in|up)\?',
]
LOCALES = {"en": "en-GB", "fr": "fr-FR"}

# every target of the page, measured: (small ones, exempted inline links, how many)
MEASURE = """() => {
  const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, '
    + '[role="button"], [tabindex]:not([tabindex="-1"])';
  const small = [], exempt = [];
  let count = 0;
  const letters = /\\p{L}/u;
  const describe = (el) => el.outerHTML.replace(/\\s+/g, " ").slice(0, 100);
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest("svg")) continue;
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const shown = r.width && r.height && style.visibility !== "hidden";
    if (!shown || r.bottom <= 0 || r.right <= 0) continue;
    count++;
    let box = r;
    if (el.matches('input[type="checkbox"], input[type="radio"]')) {
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      for (const label of el.labels || []) {
        const l = label.getBoundingClientRect();
        const holds = l.left <= x && x <= l.right && l.top <= y && y <= l.bottom;
        if (holds && l.width * l.height > box.width * box.height) box = l;
      }
    }
    if (el.matches("a") && style.display === "inline") {
      let block = el.parentElement;
      while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
      let words = "";
      const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement.closest("a, button")) words += node.textContent;
      }
      if (letters.test(words)) { exempt.push(describe(el)); continue; }
    }
    if (box.width < 43.5 || box.height < 43.5)
      small.push(`${describe(el)}: ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
  }
  return { small, exempt, count };
}"""


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """``ludotheque serve`` with cheap password hashing (tests only)."""
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "phone.sqlite3")
    server.start()
    yield server
    server.stop()


def phone(new_page: Callable[..., Page], server: Server, lang: str, **options: Any) -> Page:
    page = new_page(viewport=PHONE, locale=LOCALES[lang], **options)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    return page


def one_row(page: Page) -> None:
    """The header is one row: 60 px high at most, each of its parts shown within it."""
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 60, header
    parts = page.locator("header.top > a:visible, header.top > button:visible, "
                         "header.top .me:visible")  # fmt: skip
    assert parts.count() >= 2
    for i in range(parts.count()):
        box = parts.nth(i).bounding_box()
        assert box is not None
        assert box["y"] >= header["y"] - 0.5
        assert box["y"] + box["height"] <= header["y"] + header["height"] + 0.5


def test_the_phone_header_is_one_row_with_a_menu(
    place: Server, new_page: Callable[..., Page]
) -> None:
    found: list[str] = []
    for lang in LOCALES:
        alice = phone(new_page, place, lang)
        sign_up(alice, place, f"alice{lang}")
        stranger = phone(new_page, place, lang)
        stranger.goto(place.url + "/leaderboard")
        for page, who in ((alice, "signed-in"), (stranger, "anonymous")):
            one_row(page)
            button = page.locator("#menu-button")
            expect(button).to_be_visible()
            expect(button).to_have_attribute("aria-expanded", "false")
            expect(page.locator("#site-nav")).to_be_hidden()
            expect(page.locator("#account-actions")).to_be_hidden()
            # a tap opens it: the pages and the account's links, each a full target
            button.click()
            expect(button).to_have_attribute("aria-expanded", "true")
            # the pages (Play, Lobby, Leaderboard, Archive, Tournaments, Puzzles, Rules, Learn)
            expect(page.locator("#site-nav a")).to_have_count(9)
            for link in page.locator(
                "#site-nav a, #account-actions a, #account-actions button"
            ).all():
                box = link.bounding_box()
                assert box is not None and box["height"] >= 43.5 and box["width"] >= 43.5
            if who == "signed-in":
                expect(page.locator("#me")).to_have_text(f"alice{lang}")
                expect(page.locator("#signout")).to_be_visible()
            else:
                expect(page.locator("#signin-link")).to_be_visible()
            shot(page, f"phone-menu-{who}-{lang}")
            found += [f"menu {who} {lang}|{v['id']}|{v['help']}|{v['nodes']}" for v in axe(page)]
            # Escape closes it and gives the focus back to the button
            page.locator("#site-nav a").first.focus()
            page.keyboard.press("Escape")
            expect(button).to_have_attribute("aria-expanded", "false")
            expect(button).to_be_focused()
            expect(page.locator("#site-nav")).to_be_hidden()
            # the keyboard opens it on its first page; Tab past its last link closes it
            page.keyboard.press("Enter")
            expect(button).to_have_attribute("aria-expanded", "true")
            expect(page.locator("#site-nav a").first).to_be_focused()
            page.locator("#account-actions a, #account-actions button").last.focus()
            page.keyboard.press("Tab")
            expect(button).to_have_attribute("aria-expanded", "false")
            # a tap elsewhere closes it too
            button.click()
            page.locator("main h1").first.click()
            expect(button).to_have_attribute("aria-expanded", "false")
            one_row(page)
            assert not page.errors  # type: ignore[attr-defined]
    assert not found, "axe violations:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LOCALES)
def test_find_a_game_comes_first_in_the_phone_lobby(
    place: Server, new_page: Callable[..., Page], lang: str
) -> None:
    alice, bob = phone(new_page, place, lang), phone(new_page, place, lang)
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")
    lobby_game(alice, bob, place)  # a game being played, and challenges: the lists are full
    alice.wait_for_url(re.compile(r".*/play/"))
    alice.goto(place.url + "/lobby")
    for game in ("backgammon", "defiance"):
        control = "3+12d" if game == "backgammon" else "5+3"
        call(alice, "/api/lobby/seeks", {"game": game, "control": control})
    bob.goto(place.url + "/lobby")
    expect(bob.locator("#open-list li")).to_have_count(2)
    expect(bob.locator("#playing-list li")).to_have_count(1)
    height = PHONE["height"]
    for selector in ("#seek-form h2", "#seek-game", "#quick", "#post"):
        box = bob.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, f"{selector}: {box}"
    form = bob.locator("#seek-form").bounding_box()
    lists = bob.locator("#open-list").bounding_box()
    assert form is not None and lists is not None and form["y"] < lists["y"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(SHOTS / f"phone-lobby-fold-{lang}.png"))  # the first screen only
    assert not bob.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_every_target_is_44_px_on_a_phone(
    place: Server, new_page: Callable[..., Page], lang: str
) -> None:
    alice, bob = phone(new_page, place, lang), phone(new_page, place, lang)
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")
    # a finished rated game (profile, leaderboard, archive), a game of each kind being played
    done = lobby_game(alice, bob, place, rated=True, side="rebels")
    call(bob, seat(bob, place, done).replace("/play/", "/api/play/") + "/resign")
    games = {
        game: lobby_game(alice, bob, place, game=game, control=control)
        for game, control in (("general", "5+3"), ("backgammon", "3+12d"), ("defiance", "5+3"))
    }
    alice.wait_for_url(re.compile(r".*/play/"))
    alice.goto(place.url + "/lobby")
    call(alice, "/api/lobby/seeks", {"game": "general", "control": "5+3"})
    call(alice, "/api/lobby/seeks", {"game": "defiance", "control": "5+3", "opponent": "bob"})
    stranger = phone(new_page, place, lang)
    tour: list[tuple[Page, str, str, str]] = [
        (bob, "home", "/", "#start"),
        (bob, "lobby", "/lobby", "#to-me-list li"),
        (bob, "profile", "/@/alice", "#profile-games"),
        (bob, "leaderboard", "/leaderboard", "h1"),  # (one game: nobody on it yet)
        (bob, "archive", "/archive", "#archive"),
        (bob, "rules", "/rules", ".rules-list"),
        (bob, "rules-general", "/rules/general", "h1"),
        (bob, "rules-backgammon", "/rules/backgammon", "h1"),
        (bob, "rules-defiance", "/rules/defiance", "h1"),
        (bob, "analysis", "/analysis", "#board [data-position]"),
        (bob, "replay", f"/archive/{done}", "#board [data-position]"),
        (stranger, "signin", "/signin", "#username"),
        (stranger, "signup", "/signup", "#username"),
        (stranger, "home-anonymous", "/", "#start"),
        (stranger, "lobby-anonymous", "/lobby", "#open-list li"),
    ]
    tour += [(bob, game, seat(bob, place, g), "#strip-bottom .clock") for game, g in games.items()]
    small: list[str] = []
    exempt: set[str] = set()
    for page, name, address, wait in tour:
        page.goto(place.url + address)
        page.wait_for_selector(wait)
        for menu in (False, True):  # the page, then its header's menu opened
            if menu:
                page.click("#menu-button")
            found = page.evaluate(MEASURE)
            assert found["count"] >= 3, f"{name}: only {found['count']} targets"
            small += [f"{name}: {s}" for s in found["small"]]
            exempt.update(found["exempt"])
        shot(page, f"phone-targets-{name}-{lang}")
    assert not small, "targets under 44×44 px:\n" + "\n".join(small)
    # the links exempted are those known to sit in sentences: nothing else hides among them
    unknown = [e for e in exempt if not any(re.search(p, e) for p in INLINE)]
    assert not unknown, "links exempted that are not known to be in a sentence:\n" + "\n".join(
        unknown
    )
    # the archive's links (replay, analyse, file) are in sight, not in a column past the edge
    bob.goto(place.url + "/archive")
    edges = bob.evaluate(
        "() => [...document.querySelectorAll('#archive a')]"
        ".map(a => a.getBoundingClientRect().right)"
    )
    assert edges and max(edges) <= PHONE["width"], f"archive links reach {max(edges)} px"
    expect(bob.locator("#archive a[id^='replay-']").first).to_be_in_viewport()
    for page in (alice, bob, stranger):
        assert not page.errors  # type: ignore[attr-defined]
