"""What a screen reader hears, and what the keyboard shows, in a real browser, English and
French: a piece, checker, counter or Command chosen is said in the page's live region with the
number of places it may go (the number the board highlights), on a game's page and on the
analysis board; the lobby's, the archive's and the
home page's repeated links and buttons each name their game; and the keyboard's focus ring on a
board and on the page looks unlike the last move's marks and the choice's (another colour, a
dashed line where those are solid or filled), by their computed styles."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, bg_steps, forced_plays_by_hand, open_game, shot
from tests.browser.test_place_pages import call, lobby_game, sign_up

LOCALES = {"en": "en-GB", "fr": "fr-FR"}
BG_START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
CHOSEN = {
    "en": {
        "rebel": r"Rebel on a2 chosen: (\d+) possible destinations?\.",
        "general": r"General on c3 chosen: (\d+) possible destinations?\.",
        "checker": r"Checker on point 8 chosen: (\d+) possible destinations?\.",
        "cell": r"Cell e5 chosen: (\d+) possible directions? for a new counter\.",
        "command": r"Command on (P[\d.]+) chosen: (\d+) possible destinations?\.",
        "back": "Choice taken back.",
    },
    "fr": {
        "rebel": r"Rebelle en a2 choisi : (\d+) destinations? possibles?\.",
        "general": r"Général en c3 choisi : (\d+) destinations? possibles?\.",
        "checker": r"Pion choisi : flèche 8, (\d+) destinations? possibles?\.",
        "cell": r"Case e5 choisie : (\d+) directions? possibles? pour un nouveau pion\.",
        "command": r"Commandement en (P[\d.]+) choisi : (\d+) destinations? possibles?\.",
        "back": "Choix annulé.",
    },
}  # fmt: skip


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """``ludotheque serve`` with cheap password hashing (tests only)."""
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "readers.sqlite3")
    server.start()
    yield server
    server.stop()


def french_or_english(new_page: Callable[..., Page], server: Server, lang: str) -> Page:
    page = new_page(locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    return page


def heard(page: Page, pattern: str) -> re.Match[str]:
    """Wait for the live region to say ``pattern`` (a regular expression); its match."""
    region = page.locator("#announce")
    expect(region).to_have_text(re.compile(f"^{pattern}$"))
    found = re.match(pattern, region.text_content() or "")
    assert found is not None
    return found


@pytest.mark.parametrize("lang", LOCALES)
def test_a_chosen_piece_is_announced_in_the_three_games(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    words = CHOSEN[lang]
    page = french_or_english(new_page, server, lang)
    # the General: a rebel chosen by a click, taken back; the general chosen by the keyboard
    open_game(page, server, "general", "svg.general")
    page.click('svg.general [data-point="a2"]')
    found = heard(page, words["rebel"])
    assert int(found.group(1)) == page.locator("svg.general .pt.highlight").count() > 0
    page.click('svg.general [data-point="a2"]')
    heard(page, re.escape(words["back"]))
    page.click('svg.general [data-point="a2"]')
    page.click('svg.general [data-point="b2"]')
    expect(page.locator("#move-list .ply")).to_have_count(1)
    page.focus('svg.general [data-point="c3"]')
    page.keyboard.press("Enter")
    found = heard(page, words["general"])
    assert int(found.group(1)) == page.locator("svg.general .pt.highlight").count() > 0
    # backgammon: a checker on the 8 point, with the 3 and the 1 to play
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_START)
    page.click('svg.backgammon g.pt[data-point="8"]')
    found = heard(page, words["checker"])
    targets = page.locator("svg.backgammon .pt.highlight, svg.backgammon .tray.highlight")
    assert int(found.group(1)) == targets.count() > 0
    # Defiance: a cell for a new counter (its directions), then the Command after it
    open_game(page, server, "defiance", "svg.defiance", ruleset="10x10")
    page.click('svg.defiance g.cell[data-cell="e5"]')
    found = heard(page, words["cell"])
    assert int(found.group(1)) == page.locator("svg.defiance g.dir").count() > 0
    page.click('svg.defiance g.dir[data-direction="NE"]')
    expect(page.locator("svg.defiance")).to_have_attribute("data-stage", "command")
    source = page.locator("svg.defiance g.pnt.choosable:has(.command)").first
    source.click()
    found = heard(page, words["command"])
    assert found.group(1) == source.get_attribute("data-point")
    assert int(found.group(2)) == page.locator("svg.defiance g.pnt .target").count() > 0
    shot(page, f"reader-defiance-command-{lang}")
    # the analysis board says it too
    page.goto(server.url + "/analysis?game=general")
    page.wait_for_selector("svg.general[data-position]")
    page.click('svg.general [data-point="a2"]')
    heard(page, words["rebel"])
    assert not page.errors  # type: ignore[attr-defined]


def style(page: Page, selector: str, *properties: str) -> dict[str, str]:
    """The computed ``properties`` of the first element matching ``selector``."""
    return dict(
        page.evaluate(
            """([selector, properties]) => {
                const node = document.querySelector(selector);
                if (!node) throw new Error(`nothing matches ${selector}`);
                const style = getComputedStyle(node);
                return Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)]));
            }""",
            [selector, list(properties)],
        )
    )


def keyboard_focus(page: Page, board: str, start: str, key: str) -> dict[str, str]:
    """Move the focus by the keyboard from ``start`` (a board item) to another item; the focus
    ring's style (the stroke of the focused item's outline shape). At the board's edge ``key``
    leads nowhere (the dice decide which point is ``start``): the opposite arrow is pressed."""
    opposite = {"ArrowLeft": "ArrowRight", "ArrowRight": "ArrowLeft", "ArrowUp": "ArrowDown",
                "ArrowDown": "ArrowUp"}  # fmt: skip
    page.focus(start)
    page.keyboard.press(key)
    if page.evaluate(f"document.activeElement === document.querySelector('{start}')"):
        page.keyboard.press(opposite[key])
    assert not page.evaluate(f"document.activeElement === document.querySelector('{start}')")
    assert page.evaluate(f"document.activeElement.closest('{board}') !== null")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    return dict(
        page.evaluate(
            """() => {
                const item = document.activeElement;
                const s = getComputedStyle(item.querySelector('.sq') || item.querySelector('.hit'));
                return {stroke: s.stroke, 'stroke-dasharray': s.strokeDasharray,
                        'stroke-width': s.strokeWidth};
            }"""
        )
    )


def differs(focus: dict[str, str], other: dict[str, str], what: str) -> None:
    """The focus ring is another colour than ``other``, and dashed where ``other`` is solid."""
    colour = other.get("stroke", "none")
    assert focus["stroke"] not in (colour, "none"), f"the focus ring has the colour of {what}"
    assert focus["stroke-dasharray"] != "none", "the focus ring is not dashed"
    assert other.get("stroke-dasharray", "none") == "none", f"{what} is dashed too"


def test_the_focus_ring_looks_unlike_the_last_move_and_the_choice(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    stroke = ("stroke", "stroke-dasharray", "fill")
    # the General: a rebel moved (the last move's marks), the general chosen, a point focused
    open_game(page, server, "general", "svg.general")
    page.click('svg.general [data-point="a2"]')
    page.click('svg.general [data-point="b2"]')
    expect(page.locator("svg.general .last-point")).to_have_count(1)
    page.click('svg.general [data-point="c3"]')
    focus = keyboard_focus(page, "svg.general", 'svg.general [data-point="c3"]', "ArrowUp")
    differs(focus, style(page, "svg.general .last-point", *stroke), "the last move's ring")
    differs(focus, style(page, "svg.general .pt.selected .piece circle", *stroke), "the choice")
    assert style(page, "svg.general .pt.selected .target", "fill")["fill"] != "none"
    shot(page, "reader-focus-general")
    # backgammon: a play made, a checker chosen, a point focused (no play made by itself)
    forced_plays_by_hand(page)
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_START)
    bg_steps(page, ("8", "5"), ("6", "5"))
    page.click("#turn-done")
    expect(page.locator("svg.backgammon .last-to").first).to_be_attached()
    page.wait_for_selector("svg.backgammon .checker.movable")
    movable = page.locator("svg.backgammon .checker.movable").first.get_attribute("data-place")
    page.click(f'svg.backgammon g.pt[data-point="{movable}"]')
    expect(page.locator("svg.backgammon .pt.selected")).to_have_count(1)
    focus = keyboard_focus(page, "svg.backgammon", f'svg.backgammon g.pt[data-point="{movable}"]',
                           "ArrowLeft")  # fmt: skip
    differs(focus, style(page, "svg.backgammon .last-to", *stroke), "the last move's outline")
    chosen = style(page, "svg.backgammon .pt.selected .hit", *stroke)
    assert chosen["fill"] not in ("none", "rgba(0, 0, 0, 0)"), "the choice is not filled"
    assert focus["stroke"] != chosen["stroke"]
    shot(page, "reader-focus-backgammon")
    # Defiance: a turn made, a cell focused; then a cell chosen
    open_game(page, server, "defiance", "svg.defiance", ruleset="10x10")
    page.click('svg.defiance g.cell[data-cell="e5"]')
    page.click('svg.defiance g.dir[data-direction="NE"]')
    page.click("#turn-done")
    expect(page.locator("svg.defiance .last-cell")).to_have_count(1)
    page.wait_for_selector("svg.defiance g.cell.actionable")
    cell = page.locator("svg.defiance g.cell.actionable").first.get_attribute("data-cell")
    focus = keyboard_focus(page, "svg.defiance", f'svg.defiance g.cell[data-cell="{cell}"]',
                           "ArrowRight")  # fmt: skip
    differs(focus, style(page, "svg.defiance .last-cell", *stroke), "the last move's cell")
    shot(page, "reader-focus-defiance")
    page.click(f'svg.defiance g.cell[data-cell="{cell}"]')
    differs(focus, style(page, "svg.defiance .chosen", *stroke), "the choice")
    # the page's own ring (a button reached by Tab): dashed, in the focus colour
    page.focus("#step-first")
    page.keyboard.press("Shift+Tab")
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return {style: s.outlineStyle, colour: s.outlineColor, width: s.outlineWidth}; }"
    )
    assert ring["style"] == "dashed" and ring["colour"] == "rgb(11, 92, 173)", ring
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_repeated_links_name_their_game(
    place: Server, new_page: Callable[..., Page], lang: str
) -> None:
    alice, bob = (french_or_english(new_page, place, lang) for _ in range(2))
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")
    game = lobby_game(alice, bob, place, game="backgammon", control="3+12d", side="white")
    alice.wait_for_url(re.compile(r".*/play/"))  # her lobby page opened the game by itself
    alice.goto(place.url + "/lobby")  # (a challenge lives while its owner is in the lobby)
    expect(alice.locator("#lobby-connection")).not_to_be_empty()
    call(alice, "/api/lobby/seeks", {"game": "general", "control": "5+3"})
    call(alice, "/api/lobby/seeks", {"game": "defiance", "control": "5+3", "opponent": "bob"})
    words: dict[str, Any] = {
        "en": {"watch": "Back to your game: alice vs bob, Backgammon",
               "accept": "Accept alice’s challenge: ",
               "decline": "Decline alice’s challenge: ", "withdraw": "Withdraw your challenge: ",
               "general": "Le Général et les rebelles", "defiance": "Defiance and Domain",
               "rules": "Rules Backgammon", "replay": "Replay Backgammon"},
        "fr": {"watch": "Revenir à votre partie : alice contre bob, Backgammon",
               "accept": "Accepter le défi de alice : ", "decline": "Refuser le défi de alice : ",
               "withdraw": "Retirer votre défi : ", "general": "Le Général et les rebelles",
               "defiance": "Defiance and Domain", "rules": "Règles Backgammon",
               "replay": "Rejouer Backgammon"},
    }[lang]  # fmt: skip
    bob.goto(place.url + "/lobby")
    watch = bob.locator(f'#playing-list li[data-game="{game}"] a.watch')  # bob plays it
    expect(watch).to_have_accessible_name(words["watch"])
    expect(watch).to_have_attribute("href", f"/resume/{game}")
    accepts = bob.locator("#open-list button.accept")
    expect(accepts).to_have_count(1)
    expect(accepts.first).to_have_accessible_name(
        re.compile(re.escape(words["accept"] + words["general"]))
    )
    expect(bob.locator("#to-me-list button.accept")).to_have_accessible_name(
        re.compile(re.escape(words["accept"] + words["defiance"]))
    )
    expect(bob.locator("#to-me-list button:not(.accept)")).to_have_accessible_name(
        re.compile(re.escape(words["decline"] + words["defiance"]))
    )
    withdraws = alice.locator("#open-list li.mine button")
    expect(withdraws).to_have_count(2)
    names = {withdraws.nth(i).evaluate("b => b.getAttribute('aria-label')") for i in range(2)}
    assert len(names) == 2 and all(n.startswith(words["withdraw"]) for n in names)
    # the home page's Rules links, and the archive's links, each with its game
    alice.goto(place.url + "/")
    expect(alice.locator("#rules-backgammon")).to_have_accessible_name(words["rules"])
    call(bob, f"/api/play/{bob_token(bob, place, game)}/resign")
    alice.goto(place.url + "/archive")
    replay = alice.locator(f'#archive a[href="/archive/{game}"]')
    expect(replay).to_have_accessible_name(
        re.compile("^" + re.escape(words["replay"]) + ".*alice.*bob")
    )
    shot(bob, f"reader-lobby-{lang}")
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]


def bob_token(page: Page, server: Server, game: str) -> str:
    """The seat token of ``page``'s player in ``game`` (the lobby's resume link)."""
    response = page.request.get(f"{server.url}/resume/{game}", max_redirects=0)
    assert response.status == 303
    return str(response.headers["location"]).rsplit("/", 1)[1]
