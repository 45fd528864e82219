"""Le Général et les rebelles in a real browser: clicks, drags, the keyboard, the move box, the
choice of a pair, the flight, friends in two browsers with a watcher, the computer, a server
restart, the language switch and a phone-sized screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

START = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"


def start_game(page: Page, server: Server, mode: str = "local", position: str = "",
               level: str = "", side: str = "") -> None:  # fmt: skip
    open_game(page, server, "general", "svg.board", mode=mode, position=position,
              level=level, side=side)  # fmt: skip


def board_position(page: Page) -> str:
    return str(page.get_attribute("svg.board", "data-position"))


def expect_position(page: Page, position: str) -> None:
    expect(page.locator("svg.board")).to_have_attribute("data-position", position)


def click(page: Page, point: str) -> None:
    page.click(f'[data-point="{point}"]')


def test_same_screen_clicks_pairs_flight_box_history(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    start_position = "d3 a1,a2,a4,a5,b1,b5,c3,c4,c5,e3,e4,e5 g 1"
    start_game(page, server, position=start_position)
    expect(page.locator("#status")).to_contain_text("General to move")
    # the general's destinations are highlighted once he is selected
    click(page, "d3")
    expect(page.locator('[data-point="d4"]')).to_have_class("pt highlight")
    click(page, "d4")  # three pairs can be taken there: the page asks which
    expect(page.locator("#chooser")).to_be_visible()
    expect(page.locator("#chooser button.pair")).to_have_count(3)
    shot(page, "general-choose-pair")
    page.click('#chooser button[data-move="d3-d4xc4e4"]')
    expect_position(page, "d4 a1,a2,a4,a5,b1,b5,c3,c5,e3,e5 r 1")
    expect(page.locator("#extra")).to_contain_text("Rebels captured: 6")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    # a rebel moves by dragging
    page.drag_and_drop('[data-point="a2"]', '[data-point="b2"]')
    expect_position(page, "d4 a1,a4,a5,b1,b2,b5,c3,c5,e3,e5 g 1")
    # the general moves with the keyboard (and captures c3 and e3 on his way)
    page.focus('[data-point="d4"]')
    page.keyboard.press("Enter")
    page.focus('[data-point="d3"]')
    page.keyboard.press("Enter")
    expect_position(page, "d3 a1,a4,a5,b1,b2,b5,c5,e5 r 1")
    # the move box, with an illegal move first
    page.fill("#move-input", "a1-a3")
    page.press("#move-input", "Enter")
    expect(page.locator("#message")).to_contain_text("not next to each other")
    page.fill("#move-input", "A1-A2")
    page.press("#move-input", "Enter")
    expect_position(page, "d3 a2,a4,a5,b1,b2,b5,c5,e5 g 1")
    # stepping back and forth through the game
    page.click("#step-first")
    shown = page.locator("svg.board")
    expect(shown).to_have_attribute("data-shown-position", start_position)
    page.click("#step-next")
    expect(shown).to_have_attribute("data-shown-position", "d4 a1,a2,a4,a5,b1,b5,c3,c5,e3,e5 r 1")
    expect(shown).to_have_attribute("data-position", "d3 a2,a4,a5,b1,b2,b5,c5,e5 g 1")
    page.click("#step-last")
    expect(shown).to_have_attribute("data-shown-position", "d3 a2,a4,a5,b1,b2,b5,c5,e5 g 1")
    # undo at one screen is free
    page.click("#undo")
    expect_position(page, "d3 a1,a4,a5,b1,b2,b5,c5,e5 r 1")
    shot(page, "general-same-screen")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_flight_with_a_capture(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start_game(page, server, position="s2 a1,a3,c1,c5,e1,e3 g 1")
    click(page, "s2")
    click(page, "s4")  # the flight: now choose where he lands
    expect(page.locator("#message")).to_contain_text("Where does the general land")
    expect(page.locator('[data-point="b1"]')).to_have_class("pt highlight")
    shot(page, "general-flight-landing")
    click(page, "b1")
    expect_position(page, "b1 a3,c5,e1,e3 r 0")
    expect(page.locator("#extra")).to_contain_text("Flight: used")
    expect(page.locator("#move-list .ply").first).to_contain_text("s2-s4*b1xa1c1")
    # four rebels remain: the general has won
    expect(page.locator("#result")).to_contain_text(
        "The General won"
    )  # one screen: the sides' names
    expect(page.locator("#result")).to_contain_text("twelve rebels captured")
    shot(page, "general-flight-won")
    # rematch
    page.click("#rematch")
    page.wait_for_url("**/play/**")
    expect_position(page, "s2 a1,a3,c1,c5,e1,e3 g 1")


def test_friends_in_two_browsers_with_a_watcher(
    server: Server, new_page: Callable[..., Page]
) -> None:
    host = new_page()
    start_game(host, server, mode="friend")
    rebels_link = host.get_attribute('[data-seat-link="rebels"]', "href")
    general_link = host.get_attribute('[data-seat-link="general"]', "href")
    watch_link = host.get_attribute("[data-watch-link]", "href")
    shot(host, "general-friend-links")
    rebels, general, watcher = new_page(), new_page(), new_page()
    rebels.goto(server.url + str(rebels_link))
    general.goto(server.url + str(general_link))
    watcher.goto(server.url + str(watch_link))
    for p in (rebels, general, watcher):
        expect_position(p, START)
    expect(rebels.locator("#seat-line")).to_have_text("You play the Rebels")
    expect(watcher.locator("#seat-line")).to_have_text("You are watching")
    # the general cannot move the rebels' pieces: nothing is offered to him
    expect(general.locator("svg.board.interactive")).to_have_count(0)
    click(rebels, "a2")
    click(rebels, "b2")
    after = START.replace("a2,a3", "a3").replace("b1,b5", "b1,b2,b5").replace(" r 1", " g 1")
    for p in (rebels, general, watcher):
        expect_position(p, after)
    general.fill("#move-input", "c3-b4")
    general.press("#move-input", "Enter")
    for p in (rebels, general, watcher):
        expect(p.locator("#move-list .ply")).to_have_count(2)
    expect(watcher.locator("#move-list .ply").nth(1)).to_contain_text("c3-b4xa3c5")
    # undo by request: the general asks, the rebels accept
    general.click("#ask-undo")
    expect(rebels.locator("#undo-request")).to_be_visible()
    shot(rebels, "general-undo-request")
    rebels.click("#accept-undo")
    for p in (rebels, general, watcher):
        expect_position(p, after)
    shot(watcher, "general-watcher")
    # the opponent's move was read out to the others through a polite live region
    expect(general.locator("#announce")).to_have_attribute("aria-live", "polite")
    expect(rebels.locator("#announce")).to_have_text("General: c3-b4xa3c5.")
    # a skip link leads past the header to the game: the first stop on a fresh page
    general.reload()
    expect_position(general, after)
    general.keyboard.press("Tab")
    expect(general.locator(".skip-link")).to_be_focused()
    expect(general.locator(".skip-link")).to_have_attribute("href", "#main")
    # the watcher has no move box; the step line names the last move too
    expect(watcher.locator("#move-form")).to_be_hidden()
    expect(rebels.locator("#move-form")).to_be_visible()
    expect(watcher.locator("#step-info")).to_have_text("Move 1 of 1")
    # a rematch offered by one player appears to the other, who accepts it: both go to it
    rebels.click("#resign")
    rebels.click("#confirm-yes")
    expect(general.locator("#rematch")).to_be_visible()
    general.click("#rematch")
    expect(general.locator("#rematch-status")).to_have_text(
        "Rematch offered — waiting for your opponent."
    )
    expect(rebels.locator("#rematch-offer")).to_be_visible()
    expect(rebels.locator("#rematch")).to_be_hidden()
    shot(rebels, "general-rematch-offer")
    rebels.click("#accept-rematch")
    expect(rebels.locator("#seat-line")).to_have_text("You play the General")
    expect(general.locator("#seat-line")).to_have_text("You play the Rebels")
    assert not any(p.errors for p in (rebels, general, watcher))  # type: ignore[attr-defined]


def test_against_the_computer_to_the_end(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start_game(page, server, mode="computer", level="easy", side="rebels",
               position="s2 a1,a2,b5,c5,d4,e4 r 0")  # fmt: skip
    click(page, "a1")
    click(page, "b1")
    # the computer answers from inside the sanctuary
    expect(page.locator("#move-list .ply")).to_have_count(2, timeout=30_000)
    expect(page.locator("#status")).to_have_text("Rebels to move — Your turn")
    page.fill("#move-input", "d4-d5")
    page.press("#move-input", "Enter")
    expect(page.locator("#result")).to_contain_text("You won")  # the player, against the computer
    expect(page.locator("#result")).to_contain_text("shut in")
    shot(page, "general-computer-end")


def test_a_server_restart_loses_nothing(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start_game(page, server)
    click(page, "a2")
    click(page, "b2")
    page.fill("#move-input", "c3-c2")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply")).to_have_count(2)
    before = board_position(page)
    server.stop()
    expect(page.locator("#connection")).to_have_class("connection offline")
    server.start()
    expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
    expect_position(page, before)
    page.reload()
    expect_position(page, before)
    click(page, "b2")
    click(page, "b3")
    expect(page.locator("#move-list .ply")).to_have_count(3)


def test_language_switch_and_browser_language(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    expect(page.locator("#start")).to_have_text("Start the game")
    page.click("#lang-switch")
    expect(page.locator("#start")).to_have_text("Commencer la partie")
    start_game(page, server)
    expect(page.locator("#status")).to_contain_text("Aux Rebelles de jouer")
    shot(page, "general-french")
    french = new_page(locale="fr-FR")
    french.goto(server.url + "/rules/general")
    expect(french.locator("h2").first).to_have_text("Le plateau")


def test_phone_sized_screen(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start_game(page, server)
    box = page.locator("svg.board").bounding_box()
    assert box is not None and box["width"] <= 390 and box["width"] > 300
    page.tap('[data-point="a2"]')
    page.tap('[data-point="b2"]')
    expect_position(
        page, START.replace("a2,a3", "a3").replace("b1,b5", "b1,b2,b5").replace(" r ", " g ")
    )
    shot(page, "general-phone")


COVERED = """() => {
    // each point's name against each piece and line: the names a piece covers (its circle
    // and ring reach its name's box), and those a line runs through (sampled along it)
    const svg = document.querySelector("svg.general");
    const names = [...svg.querySelectorAll(".pt .label")].map((label) => [
        label.closest(".pt").dataset.point, label.getBoundingClientRect()]);
    const found = [];
    for (const circle of svg.querySelectorAll(".piece circle")) {
        const c = circle.getBoundingClientRect();
        const [x, y, r] = [c.x + c.width / 2, c.y + c.height / 2, c.width / 2 + 2];
        for (const [name, b] of names) {
            const dx = Math.max(b.left - x, 0, x - b.right);
            const dy = Math.max(b.top - y, 0, y - b.bottom);
            const on = circle.closest(".pt").dataset.point;
            if (Math.hypot(dx, dy) < r) found.push(`${name} under the piece on ${on}`);
        }
    }
    for (const line of svg.querySelectorAll("polyline.line")) {
        const m = line.getScreenCTM();
        const points = [...line.points].map((p) => new DOMPoint(p.x, p.y).matrixTransform(m));
        for (let i = 1; i < points.length; i++) {
            for (let k = 0; k <= 100; k++) {
                const x = points[i - 1].x + ((points[i].x - points[i - 1].x) * k) / 100;
                const y = points[i - 1].y + ((points[i].y - points[i - 1].y) * k) / 100;
                for (const [name, b] of names) {
                    const inside = x > b.left && x < b.right && y > b.top && y < b.bottom;
                    if (inside && name !== "s2") found.push(`a line through ${name}`);
                }
            }
        }
    }
    return [...new Set(found)];
}"""


def test_the_points_names_are_never_under_a_piece_or_a_line(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """Every point's name stays readable: wherever the general stands (the sanctuary's points
    are close together) and with rebels all round, no piece covers a name and no line runs
    through one (but s2's, on its line to the apex, with a halo), the board either way up."""
    page = new_page()
    rebels = "a1,a2,a3,a4,a5,b1,b2,b3,b4,b5,c4,c5,d4,d5,e4,e5"
    for general in ("s1", "s2", "s3", "s4", "c3"):
        start_game(page, server, position=f"{general} {rebels} r 0")
        for flipped in ("0", "1"):
            if page.get_attribute("svg.general", "data-flipped") != flipped:
                page.click("#flip-board")
                expect(page.locator("svg.general")).to_have_attribute("data-flipped", flipped)
            assert page.evaluate(COVERED) == [], (general, flipped)
            if general == "s2":
                shot(page, f"general-names-{'flipped' if flipped == '1' else 'upright'}")
        if page.get_attribute("svg.general", "data-flipped") == "1":
            page.click("#flip-board")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_position_refused_is_said_by_the_form_and_kept(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """A position string that is not one is refused above the Start button, in the reader's
    language, with everything chosen and typed still there; corrected, the game starts."""
    page = new_page(locale="fr-FR" if lang == "fr" else "en-GB")
    page.goto(server.url + "/")
    page.check('input[name="mode"][value="computer"]')
    page.check('input[name="level"][value="easy"]')
    page.fill("#position", "c3 zz9 r 1")
    page.click("#start")
    error = page.locator("#start-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("invalid position" if lang == "en" else "position invalide")
    expect(error).to_contain_text("zz9")
    assert page.url.rstrip("/") == server.url  # still the form
    expect(page.locator("#position")).to_have_value("c3 zz9 r 1")
    expect(page.locator('input[name="mode"][value="computer"]')).to_be_checked()
    expect(page.locator('input[name="level"][value="easy"]')).to_be_checked()
    expect(page.locator("#position")).to_be_focused()
    shot(page, f"home-position-refused-{lang}")
    page.fill("#position", "")
    page.click("#start")
    page.wait_for_selector("svg.general")
    assert "/play/" in page.url
    assert not page.errors  # type: ignore[attr-defined]
