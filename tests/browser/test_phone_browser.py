"""The game page on a phone (390×844): the controls sit right under the board (Undo, Resign and
the move list within about 100 px of its bottom edge) and every button or link of the panel is
a target of at least 44×44 px; on a desktop the board stays on the left, the panel on the right."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import FloatRect, Page, expect

from tests.browser.conftest import Server, bg_steps, open_game, shot

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
BG_START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"


def play_a_move(page: Page, game: str) -> None:
    """One move of each game by the board, as a person would; waits for it in the move list."""
    if game == "general":
        page.click('svg.general [data-point="a2"]')
        page.click('svg.general [data-point="b2"]')
    elif game == "backgammon":
        bg_steps(page, ("8", "5"), ("6", "5"))
        page.click("#turn-done")
    else:
        page.click('svg.defiance g.cell[data-cell="e5"]')
        page.click('svg.defiance g.dir[data-direction="NE"]')
        page.click("#turn-done")
    expect(page.locator("#move-list .ply").first).to_be_visible()


def start(page: Page, server: Server, game: str) -> None:
    position = BG_START if game == "backgammon" else ""
    ruleset = "10x10" if game == "defiance" else ""
    open_game(page, server, game, f"svg.{game}", position=position, ruleset=ruleset)


def box(page: Page, selector: str) -> FloatRect:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, f"{selector} is not shown"
    return b


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["general", "backgammon", "defiance"])
def test_phone_controls_under_the_board(
    server: Server, new_page: Callable[..., Page], game: str, lang: str
) -> None:
    page = new_page(viewport=PHONE, locale="fr-FR" if lang == "fr" else "en-GB")
    start(page, server, game)
    play_a_move(page, game)
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#resign")).to_be_visible()
    board = box(page, f"svg.{game}")
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"] + 0.5
    bottom = board["y"] + board["height"]
    for selector, most in (("#undo", 100), ("#resign", 100), ("#move-list", 120)):
        gap = box(page, selector)["y"] - bottom
        assert 0 <= gap <= most, f"{selector} starts {gap:.0f} px below the board"
    # every target of the panel, the board's own buttons and the move box: 44 px at least
    targets = page.locator(
        ".panel button:visible, .panel a:visible, .panel summary:visible, "
        ".turn-controls button:visible, .board-tools button:visible, .board-tools label:visible, "
        ".move-form button:visible, .move-form input:visible"
    )
    assert targets.count() > 8
    small = []
    for i in range(targets.count()):
        t = targets.nth(i)
        b = t.bounding_box()
        assert b is not None
        if b["height"] < 44 - 0.5 or b["width"] < 44 - 0.5:
            html = t.evaluate("e => e.outerHTML.slice(0, 80)")
            small.append(f"{html}: {b['width']:.0f}×{b['height']:.0f}")
    assert not small, "targets under 44 px:\n" + "\n".join(small)
    # nothing is wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"phone-{game}-{lang}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["general", "backgammon", "defiance"])
def test_desktop_board_left_panel_right(
    server: Server, new_page: Callable[..., Page], game: str
) -> None:
    page = new_page(viewport=DESKTOP)
    start(page, server, game)
    play_a_move(page, game)
    board = box(page, f"svg.{game}")
    panel = box(page, ".panel")
    assert panel["x"] >= board["x"] + board["width"], "the panel is not to the right of the board"
    assert abs(panel["y"] - box(page, ".board-area")["y"]) < 2, "board and panel do not start level"
    # the move box stays under the board, the controls in the panel
    form = box(page, "#move-form")
    assert form["y"] >= board["y"] + board["height"] and form["x"] < panel["x"]
    resign = box(page, "#resign")
    assert resign["x"] >= panel["x"] and resign["y"] < box(page, "#move-list")["y"]
    shot(page, f"desktop-{game}")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_archive_on_a_phone_keeps_each_games_links_in_sight(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """On a phone the archive is a list of cards: each game's links (replay, analyse, file)
    are under its result, not in a fifth column past the screen's right edge."""
    page = new_page(viewport=PHONE, locale="fr-FR", has_touch=True)
    open_game(page, server, "backgammon", "svg.backgammon", mode="computer", level="easy")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#share")).to_be_visible()
    page.goto(server.url + "/archive")
    links = page.locator("#archive a[id^='replay-']")
    expect(links.first).to_be_visible()
    edges = page.evaluate(
        "() => [...document.querySelectorAll('#archive a')]"
        ".map(a => a.getBoundingClientRect().right)"
    )
    assert max(edges) <= PHONE["width"], f"archive links reach {max(edges)} px"
    width = page.evaluate("() => document.querySelector('section.archive').scrollWidth")
    assert width <= PHONE["width"], f"the archive scrolls sideways ({width} px)"
    shot(page, "archive-phone-fr")
    assert not page.errors  # type: ignore[attr-defined]
