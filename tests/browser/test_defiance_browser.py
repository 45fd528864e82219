"""Defiance and Domain in a real browser: placing, rotating, captures (orthogonal, and diagonal
when a Command enters a sector), a refused placement in a dead zone, a walled-in Rebel Command,
both wins, friends in two browsers, the computer, a phone-sized screen. Positions are entered
through the app's form."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot
from tests.defiance.strategies import position

START = "10/10/10/10/10/10/10/10/10/10 r40,i40 R2.2,I7.8,I8.7 r"


def start(page: Page, server: Server, text: str = "", mode: str = "local",
          ruleset: str = "10x10", level: str = "", side: str = "") -> None:  # fmt: skip
    open_game(page, server, "defiance", "svg.defiance", mode=mode, position=text,
              ruleset=ruleset, level=level, side=side)  # fmt: skip


def cell(page: Page, name: str) -> None:
    page.click(f'svg.defiance g.cell[data-cell="{name}"]')


def direction(page: Page, name: str) -> None:
    page.click(f'svg.defiance g.dir[data-direction="{name}"]')


def point(page: Page, name: str) -> None:
    page.click(f'svg.defiance g.pnt[data-point="{name}"]')


def expect_position(page: Page, text: str) -> None:
    expect(page.locator("svg.defiance")).to_have_attribute("data-position", text)


def test_placing_and_rotating(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server)
    expect_position(page, START)
    # one Undo at a time: nothing of this turn to take back yet, so only the panel's may show
    expect(page.locator("#turn-undo")).to_be_hidden()
    cell(page, "e5")
    expect(page.locator("svg.defiance g.dir")).to_have_count(8)
    shot(page, "defiance-directions")
    direction(page, "N")
    # a Command move may follow: the Rebel Command's eight steps are offered
    expect(page.locator("svg.defiance .pnt .target")).to_have_count(8)
    point(page, "P3.3")
    page.click("#turn-done")
    expect_position(page, "10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.3,I7.8,I8.7 i")
    page.fill("#move-input", "j10>S")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply")).to_have_count(2)
    # between turns, with moves in the game, the panel's Undo is the one undo shown
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#turn-undo")).to_be_hidden()
    # rotate: the current direction is not offered
    cell(page, "e5")
    expect(page.locator("svg.defiance g.dir")).to_have_count(7)
    # in the middle of a turn, only the step can be taken back: one undo at a time
    expect(page.locator("#turn-undo")).to_be_visible()
    expect(page.locator("#undo")).to_be_hidden()
    direction(page, "E")
    expect(page.locator("#turn-undo")).to_have_text("Take back this step")
    expect(page.locator("#undo")).to_be_hidden()
    shot(page, "defiance-mid-turn-one-undo")
    page.click("#turn-undo")  # undo inside the turn
    expect(page.locator("svg.defiance g.dir")).to_have_count(0)
    expect(page.locator("#turn-undo")).to_be_hidden()
    expect(page.locator("#undo")).to_be_visible()
    cell(page, "e5")
    direction(page, "E")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply").nth(2)).to_have_text("e5@E")
    page.click("#flat-view")
    expect(page.locator("svg.defiance")).to_have_attribute("data-view", "flat")
    shot(page, "defiance-flat")
    assert not page.errors  # type: ignore[attr-defined]


def test_orthogonal_capture(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, position({"e3": "RN", "d3": "IE"}, side="i"))
    cell(page, "f3")
    direction(page, "W")
    expect(page.locator("#message")).to_contain_text("captures e3")
    expect(page.locator("svg.defiance .captured")).to_have_count(1)
    shot(page, "defiance-orthogonal-capture")
    page.click("#turn-done")
    expect(page.locator('svg.defiance g.cell[data-cell="e3"] .counter')).to_have_count(0)
    expect(page.locator('[data-pool="rebels"]')).to_have_text("40")


def test_diagonal_capture_when_a_command_enters(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    cells = {"h8": "RN", "g7": "INE", "i9": "ISW"}
    start(page, server, position(cells, imperial=("5.8", "8.5"), side="i"))
    cell(page, "a10")
    direction(page, "S")
    point(page, "P8.5")
    # before choosing, the target shows what it would capture, in a badge and in words
    target = page.locator('svg.defiance g.pnt[data-point="P8.6"]')
    expect(target.locator(".gain")).to_have_attribute("data-captures", "1")
    expect(target).to_have_attribute("aria-label", re.compile("captures h8"))
    shot(page, "defiance-command-targets")
    point(page, "P8.6")  # into sector (1,1): the flank standing there captures
    expect(page.locator("#message")).to_contain_text("captures h8")
    shot(page, "defiance-diagonal-capture")
    page.click("#turn-done")
    expect(page.locator('svg.defiance g.cell[data-cell="h8"] .counter')).to_have_count(0)


def test_a_placement_in_a_dead_zone_is_refused(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    start(page, server, position({"c5": "IE", "e5": "IW"}))
    page.check("#show-dead")
    expect(page.locator('svg.defiance g.cell[data-cell="d5"] .dead')).to_have_count(1)
    cell(page, "d5")
    expect(page.locator("#message")).to_contain_text("d5 is a dead zone")
    expect(page.locator("svg.defiance g.dir")).to_have_count(0)
    page.fill("#move-input", "d5>W")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text("dead zone for the rebels")
    shot(page, "defiance-dead-zone")


def test_a_walled_in_rebel_command(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, position({"a1": "IN"}, rebel="0.0"))
    cell(page, "e5")
    direction(page, "N")
    expect(page.locator("svg.defiance .pnt .target")).to_have_count(0)
    shot(page, "defiance-walled-in")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(1)


def test_the_rebels_win(server: Server, new_page: Callable[..., Page]) -> None:
    cells = {}
    for bi, bj in ((1, 1), (6, 1), (1, 6), (6, 6)):
        for di in (0, 1):
            for dj in (0, 1):
                cells[f"{'abcdefghij'[bi + di]}{bj + dj + 1}"] = "RN"
    del cells["h8"]
    page = new_page()
    start(page, server, position(cells, rebel="0.0", imperial=("10.10", "10.9")))
    cell(page, "h8")
    direction(page, "N")
    expect(page.locator("svg.defiance .pnt .target")).to_have_count(0)
    page.click("#turn-done")
    expect(page.locator("#result")).to_contain_text("The Rebels won")
    expect(page.locator("#result")).to_contain_text("four sectors")
    expect(page.locator(".progress")).to_have_attribute("data-sectors", "4")
    shot(page, "defiance-rebels-win")


def test_the_imperium_wins(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, position({}, rebel="7.9", imperial=("7.8", "8.7"), side="i"))
    cell(page, "a1")
    direction(page, "N")
    point(page, "P7.8")  # choose which Command moves
    point(page, "P7.9")
    page.click("#turn-done")
    expect(page.locator("#result")).to_contain_text("The Imperium won")
    expect(page.locator("#result")).to_contain_text("Rebel Command is captured")
    shot(page, "defiance-imperium-wins")


def test_friends_in_two_browsers(server: Server, new_page: Callable[..., Page]) -> None:
    host = new_page()
    start(host, server, mode="friend", ruleset="8x8")
    rebels_link = host.get_attribute('[data-seat-link="rebels"]', "href")
    imperium_link = host.get_attribute('[data-seat-link="imperium"]', "href")
    rebels, imperium = new_page(), new_page()
    rebels.goto(server.url + str(rebels_link))
    imperium.goto(server.url + str(imperium_link))
    cell(rebels, "d4")
    direction(rebels, "NE")
    rebels.click("#turn-done")
    for p in (rebels, imperium):
        expect(p.locator("#move-list .ply")).to_have_count(1)
    cell(imperium, "e5")
    direction(imperium, "SW")
    imperium.click("#turn-done")
    expect(rebels.locator("#move-list .ply")).to_have_count(2)
    expect(rebels.locator("#status")).to_contain_text("Rebels to move")
    shot(imperium, "defiance-imperium-view")


def test_against_the_computer(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, mode="computer", level="easy", side="rebels", ruleset="8x8")
    cell(page, "c3")
    direction(page, "N")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(2, timeout=30_000)
    cell(page, "f3")
    direction(page, "NW")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(4, timeout=30_000)
    shot(page, "defiance-computer")


def test_phone_sized_screen(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start(page, server)
    box = page.locator("svg.defiance").bounding_box()
    assert box is not None and box["width"] <= 390
    page.tap('svg.defiance g.cell[data-cell="e5"]')
    page.tap('svg.defiance g.dir[data-direction="NE"]')
    page.tap("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    shot(page, "defiance-phone")


def test_the_board_is_readable(server: Server, new_page: Callable[..., Page]) -> None:
    """Coordinates on every edge in both views (typed moves need them), upright; the sectors
    named as players name them; a legend of the marks; in English and French."""
    cases = {
        "en": ("South-west (the Rebels’ home)", "What the marks mean"),
        "fr": ("Sud-ouest (chez les Rebelles)", "Ce que montre le plateau"),
    }
    for lang, words in cases.items():
        page = new_page()
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        start(page, server)
        coords = page.locator("svg.defiance text.coord")
        expect(coords).to_have_count(4 * 10)
        for label in ("a", "j", "1", "10"):
            expect(
                page.locator("svg.defiance text.coord", has_text=re.compile(f"^{label}$")).first
            ).to_be_visible()
        sectors = page.locator("ul.sectors li")
        expect(sectors.first).to_contain_text(words[0])
        expect(sectors).to_have_count(4)
        legend = page.locator("#dd-legend")
        expect(legend.locator("summary")).to_have_text(words[1])
        legend.locator("summary").click()
        expect(legend.locator("li")).to_have_count(7)
        expect(legend.locator("li svg.dd-icon .counter.rebels")).to_have_count(1)
        shot(page, f"defiance-readable-diamond-{lang}")
        page.click("#flat-view")
        expect(page.locator("svg.defiance")).to_have_attribute("data-view", "flat")
        expect(coords).to_have_count(4 * 10)
        # in the flat view the a-file's letter stands in line with the a-file
        box = page.locator("svg.defiance g.cell[data-cell='a1']").bounding_box()
        file_a = page.locator("svg.defiance text.coord", has_text=re.compile("^a$")).first
        where = file_a.bounding_box()
        assert box is not None and where is not None
        assert abs((where["x"] + where["width"] / 2) - (box["x"] + box["width"] / 2)) < 4
        shot(page, f"defiance-readable-flat-{lang}")
        page.click("#flat-view")  # (the view is kept in the browser: back to the diamond)
