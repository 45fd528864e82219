"""The keyboard on the three boards: one tab stop for the whole board, the arrow keys inside it
(a roving tabindex), Enter or Space to choose and play, Escape to take back a step, and an
aria-label on every point or cell that says what is there and what it can do."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

GENERAL_START = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"
BG_START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"


def focused(page: Page, attribute: str = "point") -> str | None:
    """The data-``attribute`` of the element that has the focus (None outside the boards)."""
    return page.evaluate(f"() => document.activeElement?.dataset?.{attribute} ?? null")


def tab_stops(page: Page) -> int:
    return int(page.evaluate("document.querySelectorAll('#board svg [tabindex=\"0\"]').length"))


def enter_board(page: Page) -> None:
    """Reach the board with Tab, as a keyboard user does: from the flip button just before it."""
    page.focus("#flip-board")
    page.keyboard.press("Tab")


def test_general_one_tab_stop_arrows_and_enter(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "general", "svg.general")
    assert page.locator("svg.general g.pt").count() == 29
    assert tab_stops(page) == 1
    enter_board(page)
    start = focused(page)
    assert start is not None, "Tab did not reach the board"
    # the tab stop starts on a piece that can move, and says so
    expect(page.locator(f'[data-point="{start}"]')).to_have_attribute(
        "aria-label", f"point {start}, rebel, can move"
    )
    # one Tab more leaves the board: its 29 points are one stop
    page.keyboard.press("Tab")
    assert focused(page) is None
    assert page.evaluate("document.activeElement.id") == "move-input"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == start
    # the arrows go from point to point on the screen
    page.focus('[data-point="a1"]')
    page.keyboard.press("ArrowUp")
    assert focused(page) == "a2"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "b2"
    page.keyboard.press("ArrowLeft")
    assert focused(page) == "a2"
    assert tab_stops(page) == 1  # the stop went with the focus
    # Enter chooses the rebel, the arrows find its destination, Space plays there
    page.keyboard.press("Enter")
    expect(page.locator('[data-point="a2"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowRight")
    expect(page.locator('[data-point="b2"]')).to_have_attribute(
        "aria-label", "point b2, empty, possible destination"
    )
    page.keyboard.press(" ")
    after = GENERAL_START.replace("a2,a3", "a3").replace("b1,b5", "b1,b2,b5").replace(" r ", " g ")
    expect(page.locator("svg.general")).to_have_attribute("data-position", after)
    expect(page.locator("#step-info")).to_have_text("Move 1 of 1")
    # inside the board the arrows never step the move list
    page.focus('[data-point="c3"]')
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-info")).to_have_text("Move 1 of 1")
    # the last move is read out on its two points
    label = page.locator('[data-point="a2"]').get_attribute("aria-label") or ""
    assert label.endswith("last move left here"), label
    # Escape cancels a choice
    page.focus('[data-point="c3"]')
    page.keyboard.press("Enter")
    expect(page.locator('[data-point="c3"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(page.locator('[data-point="c3"]')).to_have_attribute("aria-pressed", "false")
    shot(page, "keyboard-general")
    assert not page.errors  # type: ignore[attr-defined]


def test_general_words_in_french(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page(locale="fr-FR")
    open_game(page, server, "general", "svg.general")
    expect(page.locator("#flip-board")).to_have_text("Retourner le plateau")
    help_text = page.locator("#board-keys")
    expect(help_text).to_contain_text("Les flèches parcourent le plateau")
    expect(page.locator("svg.general")).to_have_attribute("aria-describedby", "board-keys")
    label = page.locator('[data-point="a2"]').get_attribute("aria-label") or ""
    assert label.endswith("peut jouer"), label


def test_backgammon_arrows_enter_and_escape(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_START)
    expect(page.locator("svg.backgammon g.pt.source").first).to_be_visible()
    assert tab_stops(page) == 1
    enter_board(page)
    # the stop is on the first point with a checker to move: White's 6
    assert focused(page) == "6"
    label = page.locator('svg.backgammon g.pt[data-point="6"]').get_attribute("aria-label")
    assert label == "point 6: 5 White, can move", label
    # left of the 6 is the bar, then the 7 and the 8; up from the 8 is the 17
    for expected in ("bar", "7", "8"):
        page.keyboard.press("ArrowLeft")
        assert focused(page) == expected
    page.keyboard.press("ArrowUp")
    assert focused(page) == "17"
    page.keyboard.press("ArrowDown")
    assert focused(page) == "8"
    page.keyboard.press("Enter")  # the 8 is chosen: the 7 and the 5 light up
    page.keyboard.press("ArrowRight")
    assert focused(page) == "7"
    label = page.locator('svg.backgammon g.pt[data-point="7"]').get_attribute("aria-label")
    assert label == "point 7: empty, possible destination", label
    page.keyboard.press("Enter")  # 8/7 with the 1
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    # Escape takes the checker back
    page.keyboard.press("Escape")
    expect(page.locator("svg.backgammon .die.used")).to_have_count(0)
    # End and Home reach the tray and the 1-point
    page.keyboard.press("End")
    assert focused(page) == "off"
    page.keyboard.press("Home")
    assert focused(page) == "1"
    assert tab_stops(page) == 1
    assert not page.errors  # type: ignore[attr-defined]


def test_defiance_cells_directions_points_by_keyboard(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "defiance", "svg.defiance", ruleset="10x10")
    assert page.locator("svg.defiance g.cell").count() == 100
    assert tab_stops(page) == 1
    enter_board(page)
    assert focused(page, "cell") is not None
    # in the diamond the arrows follow the grid: up goes up-right (along the files), right goes
    # down-right (down the ranks)
    page.focus('svg.defiance g.cell[data-cell="e5"]')
    page.keyboard.press("ArrowUp")
    assert focused(page, "cell") == "f5"
    page.keyboard.press("ArrowRight")
    assert focused(page, "cell") == "f4"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    assert focused(page, "cell") == "e5"
    label = page.locator('svg.defiance g.cell[data-cell="e5"]').get_attribute("aria-label")
    assert label == "e5, you can play here", label
    # Enter on a cell: the focus goes to the directions around it
    page.keyboard.press("Enter")
    expect(page.locator("svg.defiance g.dir")).to_have_count(8)
    first = focused(page, "direction")
    assert first is not None
    page.keyboard.press("ArrowUp")
    assert focused(page, "direction") not in (None, first)
    assert tab_stops(page) == 1
    # Escape: back to the cell
    page.keyboard.press("Escape")
    expect(page.locator("svg.defiance g.dir")).to_have_count(0)
    assert focused(page, "cell") == "e5"
    # again, and on to the Command's points
    page.keyboard.press("Enter")
    expect(page.locator("svg.defiance g.dir")).to_have_count(8)
    page.keyboard.press("Enter")
    expect(page.locator("svg.defiance .pnt .target")).to_have_count(8)
    expect(page.locator("svg.defiance")).to_have_attribute("data-stage", "command")
    point = focused(page)
    assert point is not None and point.startswith("P"), point
    # the points the arrows visit are the Command and its eight destinations
    seen = {point}
    for key in ("ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        seen.add(str(focused(page)))
    assert all(p.startswith("P") for p in seen) and len(seen) > 2, seen
    # a destination: Enter chooses it, then End turn (the next tab stop after the board)
    page.focus('svg.defiance g.pnt[data-point="P3.3"]')
    label = page.locator('svg.defiance g.pnt[data-point="P3.3"]').get_attribute("aria-label")
    assert label is not None and "possible destination" in label, label
    page.keyboard.press("Enter")
    expect(page.locator("svg.defiance")).to_have_attribute("data-stage", "ready")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") in ("turn-undo", "turn-done")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    shot(page, "keyboard-defiance")
    assert not page.errors  # type: ignore[attr-defined]
