"""The analysis board's position editor in a real browser, for the three games: positions set
up by clicking, dragging, the keyboard and (on a phone) tapping; the position string read back
and checked by the server's parser; an invalid position refused with the engine's message in
the reader's language; the position analysed; backgammon's two dice; axe-core on the editor of
each game, in English and French, at desktop and phone sizes."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from ludotheque import load
from tests.browser.conftest import Server, shot
from tests.browser.test_accessibility import axe
from tests.browser.test_phone_pages_browser import MEASURE

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
THINK = 30_000  # ms for the engine's answers on a busy machine


def open_editor(
    new_page: Callable[..., Page], server: Server, address: str, lang: str = "en",
    size: str = "desktop",
) -> Page:  # fmt: skip
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang], has_touch=size == "phone")
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + address)
    expect(page.locator("#board-root")).to_have_attribute("data-position", re.compile("."))
    page.click("#edit")
    expect(page.locator("#editor")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator("#editor-status")).to_have_attribute("data-valid", "yes")
    return page


def target(page: Page, key: str) -> Locator:
    return page.locator(f'#editor-board [data-target="{key}"]')


def tool(page: Page, name: str) -> Locator:
    return page.locator(f'#editor-palette [data-tool="{name}"]')


def drag(page: Page, source: Locator, to: Locator) -> None:
    """Drag with the mouse, in steps, as a hand does."""
    a = source.bounding_box()
    b = to.bounding_box()
    assert a is not None and b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
    page.mouse.up()


def settled(page: Page, position: str) -> None:
    """The editor's string is ``position`` and the server found it legal."""
    expect(page.locator("#setup-position")).to_have_value(position)
    expect(page.locator("#editor-status")).to_have_attribute("data-valid", "yes")


def analysed(page: Page, position: str) -> None:
    page.click("#editor-analyse")
    expect(page.locator("#editor")).to_be_hidden()
    expect(page.locator("#board-root")).to_have_attribute("data-position", position)
    expect(page.locator("#board-root")).to_have_attribute("data-lines", "ready", timeout=THINK)
    expect(page.locator("#lines .engine-lines li").first).to_be_visible()
    assert "position=" in page.url


def violations(page: Page, where: str) -> list[str]:
    return [f"{where}|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
            for v in axe(page)]  # fmt: skip


def test_the_general_set_up_by_click_drag_and_keyboard_then_analysed(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = open_editor(new_page, server, "/analysis?game=general")
    start = load("general").start().position()
    settled(page, start)
    page.click("#editor-clear")
    # no general and no rebel: the engine's own refusal, never a crash
    expect(page.locator("#editor-status")).to_have_attribute("data-valid", "no")
    expect(page.locator("#editor-status")).to_contain_text("This position cannot be read")
    # the general by click; rebels by click, by dragging from the palette, by the keyboard
    tool(page, "general").click()
    expect(tool(page, "general")).to_have_attribute("aria-pressed", "true")
    target(page, "c3").click()
    tool(page, "rebel").click()
    target(page, "a1").click()
    target(page, "e1").click()
    drag(page, tool(page, "rebel"), target(page, "a5"))
    drag(page, tool(page, "rebel"), target(page, "e5"))
    target(page, "a1").focus()
    page.keyboard.press("ArrowRight")  # b1
    page.keyboard.press("ArrowUp")  # b2
    expect(target(page, "b2")).to_be_focused()
    page.keyboard.press("Enter")
    expect(target(page, "b2")).to_have_attribute("aria-label", "b2: a rebel")
    # five rebels: an odd number is refused with the engine's reason
    expect(page.locator("#editor-status")).to_contain_text("5 rebels")
    expect(page.locator("#editor-status")).to_have_attribute("data-valid", "no")
    # a rebel dragged to another point moves; one dragged off the board goes
    drag(page, target(page, "e5"), target(page, "d4"))
    expect(target(page, "e5")).to_have_attribute("aria-label", "e5: empty")
    drag(page, target(page, "b2"), page.locator("#editor-title"))
    expect(target(page, "b2")).to_have_attribute("aria-label", "b2: empty")
    target(page, "b1").click()
    target(page, "d1").click()
    page.select_option("#editor-side", "g")
    page.uncheck("#editor-flight")
    expected = load("general").parse_position("c3 a1,a5,b1,d1,d4,e1 g 0").position()
    settled(page, expected)
    expect(page.locator("#editor-status")).to_have_text("A legal position: the General to move.")
    expect(page.locator("#editor-count")).to_have_text("6 rebels on the board")
    shot(page, "editor-general-set-up")
    # the string typed by an expert is read into the editor once the server accepts it
    page.fill("#setup-position", "c3 a1,a2,a3,a4 r 1")
    expect(target(page, "a4")).to_have_attribute("aria-label", "a4: a rebel")
    expect(target(page, "d4")).to_have_attribute("aria-label", "d4: empty")
    expect(page.locator("#editor-side")).to_have_value("r")
    page.fill("#setup-position", "c3 a1,a2 r 1")
    expect(page.locator("#editor-status")).to_contain_text("2 rebels")
    expect(target(page, "a4")).to_have_attribute("aria-label", "a4: a rebel")  # kept
    # Analyse: the board takes the position set up, and the engine answers
    page.fill("#setup-position", expected)
    expect(page.locator("#editor-status")).to_have_attribute("data-valid", "yes")
    analysed(page, expected)
    expect(page.locator("#status")).to_have_text("General to move")
    assert not page.errors  # type: ignore[attr-defined]


def test_backgammon_set_up_by_tapping_on_a_phone_in_french(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = open_editor(new_page, server, "/analysis?game=backgammon", "fr", "phone")
    page.locator("#editor-clear").tap()
    expect(page.locator("#editor-status")).to_contain_text("Cette position ne peut pas être lue")
    for _ in range(5):
        tool(page, "white").tap()
        target(page, "6").tap()
    # at most five on a point in this backgammon (ruleset seed): the editor says so
    target(page, "6").tap()
    expect(page.locator("#editor-status")).to_have_text(
        "Ces règles permettent au plus 5 pions sur une flèche."
    )
    target(page, "bar-white").tap()
    tool(page, "black").tap()
    target(page, "1").tap()
    target(page, "1").tap()
    target(page, "6").tap()
    expect(page.locator("#editor-status")).to_have_text(
        "Une flèche ne porte les pions que d’un seul camp."
    )
    tool(page, "remove").tap()
    target(page, "1").tap()
    page.select_option("#editor-side", "w")
    page.select_option("#editor-die-1", "6")
    page.select_option("#editor-die-2", "4")
    # black's point 24 is white's 1; the checkers not on the board are borne off
    expected = "W[bar,6x5] B[24] w 64"
    settled(page, expected)
    expect(target(page, "off-white")).to_have_attribute(
        "aria-label", "Pions sortis des Blancs : 9 pions blancs"
    )
    expect(page.locator("#editor-status")).to_have_text(
        "Position légale : les Blancs ont le trait."
    )
    shot(page, "editor-backgammon-set-up-fr-phone")
    analysed(page, expected)
    assert not page.errors  # type: ignore[attr-defined]


def test_backgammon_cube_and_match_score_and_the_two_dice(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = open_editor(new_page, server, "/analysis?game=backgammon&ruleset=match")
    page.select_option("#editor-side", "b")
    page.select_option("#editor-cube", "2")
    page.select_option("#editor-owner", "white")
    page.select_option("#editor-length", "5")
    page.select_option("#editor-score-white", "3")
    page.select_option("#editor-score-black", "1")
    drag(page, target(page, "13"), target(page, "off-white"))  # a white checker borne off
    expected = "W[24x2,13x4,8x3,6x5] B[24x2,13x5,8x3,6x5] b - cube 2w match 5 3-1"
    settled(page, expected)
    page.select_option("#editor-cube", "1")
    expect(page.locator("#editor-status")).to_contain_text("nobody owns it before a double")
    page.select_option("#editor-owner", "")
    settled(page, "W[24x2,13x4,8x3,6x5] B[24x2,13x5,8x3,6x5] b - cube 1 match 5 3-1")
    page.select_option("#editor-side", "-")
    settled(page, "W[24x2,13x4,8x3,6x5] B[24x2,13x5,8x3,6x5] - - cube 1 match 5 3-1")
    shot(page, "editor-backgammon-match-en-desktop")
    # the opening roll on the board: each side's die, not a list of every roll
    page.click("#editor-analyse")
    expect(page.locator("#rolls")).to_be_visible()
    expect(page.locator("#die-1-label")).to_have_text("White's die")
    expect(page.locator("#die-2-label")).to_have_text("Black's die")
    page.select_option("#die-1", "4")
    page.select_option("#die-2", "4")
    page.click("#set-roll")
    expect(page.locator("#message")).to_contain_text("never equal")
    page.select_option("#die-1", "5")
    page.select_option("#die-2", "2")
    page.click("#set-roll")
    expect(page.locator("#board-root")).to_have_attribute("data-lines", "ready", timeout=THINK)
    expect(page.locator("#move-list li")).to_have_text("1. White 5, Black 2")
    assert not page.errors  # type: ignore[attr-defined]


def test_defiance_counters_with_owner_and_facing_then_analysed(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = open_editor(new_page, server, "/analysis?game=defiance&ruleset=8x8")
    tool(page, "rebels").click()
    page.select_option("#editor-facing", "NE")
    target(page, "c3").click()
    expect(target(page, "c3")).to_have_attribute(
        "aria-label", "c3: Rebel counter facing north-east"
    )
    page.select_option("#editor-facing", "S")
    drag(page, tool(page, "imperium"), target(page, "f6"))
    target(page, "d2").click()  # a Rebel counter facing south
    drag(page, target(page, "d2"), target(page, "b7"))
    expect(target(page, "b7")).to_have_attribute("aria-label", "b7: Rebel counter facing south")
    drag(page, target(page, "b7"), page.locator("#editor-help, #editor-title").first)
    page.select_option("#editor-command-0-x", "1")
    expected = "8/8/5IS2/8/8/2RNE5/8/8 r39,i39 R1.2,I6.6,I6.6 r"
    settled(page, expected)
    expect(page.locator("#editor-count")).to_have_text("In the pools: Rebels 39, Imperium 39")
    # the same counter chosen again on its cell takes it off; another facing turns it
    page.select_option("#editor-facing", "NE")
    tool(page, "rebels").click()
    target(page, "c3").click()
    settled(page, "8/8/5IS2/8/8/8/8/8 r40,i39 R1.2,I6.6,I6.6 r")
    target(page, "c3").click()
    settled(page, expected)
    # a side to move in a game that goes on is needed: the engine says so
    page.select_option("#editor-side", "-")
    expect(page.locator("#editor-status")).to_contain_text("only for a finished game")
    page.select_option("#editor-side", "i")
    imperium = expected[:-1] + "i"
    settled(page, imperium)
    shot(page, "editor-defiance-set-up")
    analysed(page, imperium)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_editor_passes_axe_in_both_languages_and_sizes_with_44_px_targets_on_a_phone(
    server: Server, new_page: Callable[..., Page]
) -> None:
    found: list[str] = []
    for game in ("general", "backgammon&ruleset=money", "defiance"):
        for lang in LOCALES:
            for size in SIZES:
                page = open_editor(new_page, server, f"/analysis?game={game}", lang, size)
                name = game.split("&")[0]
                shot(page, f"editor-{name}-{lang}-{size}")
                found += violations(page, f"editor {name} {lang} {size}")
                if size == "phone":  # every target of the editor is at least 44 px
                    small = page.evaluate(MEASURE)["small"]
                    found += [f"editor {name} {lang} phone|small target|{s}" for s in small]
                assert not page.errors  # type: ignore[attr-defined]
                page.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)
