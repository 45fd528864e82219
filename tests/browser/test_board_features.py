"""What the boards show and offer besides the rules: a "flip board" button that a reload keeps,
backgammon point numbers large enough to read, the last move drawn (origin tinted, an arrow, the
end outlined) in all three games, a short animation of a move that arrives (none when the user
prefers reduced motion), backgammon's one-click bear-off and "undo this checker", Defiance's
zoom on a phone (every target at least 44 px), and the watcher's way into the rematch."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
BG_START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
GENERAL_START = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"


def start(page: Page, server: Server, game: str, position: str = "", mode: str = "local") -> None:
    ruleset = "10x10" if game == "defiance" else ""
    if game == "backgammon" and not position:
        position = BG_START
    open_game(page, server, game, f"svg.{game}", position=position, ruleset=ruleset, mode=mode)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def type_move(page: Page, move: str, plies: int) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move")).to_have_count(plies)


# -- flip ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_flip_board_turns_each_board_and_a_reload_keeps_it(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    page = new_page(locale=LOCALES[lang])
    words = {"en": "Flip board", "fr": "Retourner le plateau"}[lang]
    # the General: a1 goes from the bottom left to the top right
    start(page, server, "general")
    flip = page.locator("#flip-board")
    expect(flip).to_have_text(words)
    expect(flip).to_have_attribute("aria-pressed", "false")
    x0, y0 = centre(page, 'svg.general [data-point="a1"]')
    flip.click()
    expect(page.locator("svg.general")).to_have_attribute("data-flipped", "1")
    x1, y1 = centre(page, 'svg.general [data-point="a1"]')
    assert x1 > x0 + 200 and y1 < y0 - 300, ((x0, y0), (x1, y1))
    # text stays upright: the label's box is still wider than tall, and reads left to right
    label = page.locator('svg.general [data-point="a1"] .label')
    assert page.evaluate("e => e.getScreenCTM().a", label.element_handle()) > 0
    general_page = page.url
    page.reload()
    expect(page.locator("svg.general")).to_have_attribute("data-flipped", "1")
    expect(page.locator("#flip-board")).to_have_attribute("aria-pressed", "true")
    # a rebel dragged on the turned board lands where it is dropped
    ax, ay = centre(page, 'svg.general [data-point="a2"]')
    bx, by = centre(page, 'svg.general [data-point="b2"]')
    page.mouse.move(ax, ay)
    page.mouse.down()
    page.mouse.move(bx, by, steps=6)
    page.mouse.up()
    after = GENERAL_START.replace("a2,a3", "a3").replace("b1,b5", "b1,b2,b5").replace(" r ", " g ")
    expect(page.locator("svg.general")).to_have_attribute("data-position", after)
    shot(page, f"flipped-general-{lang}")
    # backgammon: black's side comes to the bottom
    start(page, server, "backgammon")
    expect(page.locator("svg.backgammon")).to_have_attribute("data-bottom", "white")
    page.click("#flip-board")
    expect(page.locator("svg.backgammon")).to_have_attribute("data-bottom", "black")
    # black's home board is now the bottom right one, its numbers read from black's side
    six = page.locator('svg.backgammon g.pt[data-point="6"]')
    expect(six.locator("circle.checker.black")).to_have_count(5)
    expect(six.locator("circle.checker.white")).to_have_count(0)
    page.reload()
    expect(page.locator("svg.backgammon")).to_have_attribute("data-bottom", "black")
    shot(page, f"flipped-backgammon-{lang}")
    # Defiance: the Imperium's corner comes to the bottom
    start(page, server, "defiance")
    expect(page.locator("svg.defiance")).to_have_attribute("data-bottom", "rebels")
    page.click("#flip-board")
    expect(page.locator("svg.defiance")).to_have_attribute("data-bottom", "imperium")
    page.reload()
    expect(page.locator("svg.defiance")).to_have_attribute("data-bottom", "imperium")
    # the orientation belongs to its game page: the General's is still flipped, a new one not
    page.goto(general_page)
    expect(page.locator("svg.general")).to_have_attribute("data-flipped", "1")
    start(page, server, "general")
    expect(page.locator("svg.general")).to_have_attribute("data-flipped", "0")
    assert not page.errors  # type: ignore[attr-defined]


# -- backgammon numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_backgammon_point_numbers_are_large_enough_to_read(
    server: Server, new_page: Callable[..., Page], size: str
) -> None:
    page = new_page(viewport=DESKTOP if size == "desktop" else PHONE)
    start(page, server, "backgammon")
    heights = page.evaluate(
        "[...document.querySelectorAll('svg.backgammon text.num')]"
        ".map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"
    )
    assert len(heights) == 24
    # rendered font size in CSS pixels: 12 px at least on a phone, 18 on a desktop
    least = 18 if size == "desktop" else 12
    assert min(heights) >= least, heights
    # and no number overlaps a checker or the frame: they sit in bands outside the frame
    frame = page.locator("svg.backgammon rect.frame").bounding_box()
    assert frame is not None
    for i in range(24):
        box = page.locator("svg.backgammon text.num").nth(i).bounding_box()
        assert box is not None
        assert (
            box["y"] + box["height"] <= frame["y"] + 3
            or box["y"] >= frame["y"] + frame["height"] - 3
        )
    shot(page, f"backgammon-numbers-{size}")


# -- the last move ---------------------------------------------------------------------------


def test_the_last_move_is_drawn_in_all_three_games(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page(viewport=DESKTOP)
    # the General: a tinted origin, an arrow, a ring at the end, a cross on each capture
    start(page, server, "general", position="d3 a1,a2,a4,a5,b1,b5,c3,c4,c5,e3,e4,e5 g 1")
    expect(page.locator("svg.general .marks > *")).to_have_count(0)
    type_move(page, "d3-d4xc4e4", 1)
    marks = page.locator("svg.general .marks")
    expect(marks.locator(".last-from")).to_have_count(1)
    expect(marks.locator("polyline.last-move")).to_have_attribute(
        "marker-end", "url(#general-arrow)"
    )
    expect(marks.locator(".last-point")).to_have_count(1)
    expect(marks.locator(".last-captured")).to_have_count(2)
    fx, fy = centre(page, "svg.general .last-from")
    px, py = centre(page, 'svg.general [data-point="d3"] .hit')
    assert abs(fx - px) < 2 and abs(fy - py) < 2, "the tint is not on the origin"
    shot(page, "last-move-general")
    # stepping back to the start shows no last move; forward again shows it
    page.click("#step-first")
    expect(marks.locator("> *")).to_have_count(0)
    page.click("#step-last")
    expect(marks.locator(".last-from")).to_have_count(1)

    # backgammon: each checker's origin tinted, destination outlined, an arrow for each; still
    # shown once the next roll has come (the last entry of the history is then a roll)
    start(page, server, "backgammon")
    type_move(page, "8/5 6/5", 1)
    # the next roll is there: the history's last entry is not a move
    expect(page.locator("#move-list .ply").last).to_have_class(re.compile(r"\bchance\b"))
    marks = page.locator("svg.backgammon")
    expect(marks.locator("polygon.last-from")).to_have_count(2)
    expect(marks.locator("polygon.last-to")).to_have_count(2)
    expect(page.locator("svg.backgammon path.last-arrow")).to_have_count(2)
    label = page.locator('svg.backgammon g.pt[data-point="8"]').get_attribute("aria-label") or ""
    assert "last move left here" in label, label
    label = page.locator('svg.backgammon g.pt[data-point="5"]').get_attribute("aria-label") or ""
    assert "last move arrived here" in label, label
    shot(page, "last-move-backgammon")

    # Defiance: the cell played outlined, the Command's step an arrow from a tinted origin, the
    # counters taken crossed out where they stood
    start(page, server, "defiance")
    type_move(page, "e5>N;P2.2-P3.3", 1)
    board = page.locator("svg.defiance")
    expect(board.locator('g.cell[data-cell="e5"] .last-cell')).to_have_count(1)
    expect(board.locator("line.last-arrow")).to_have_count(1)
    expect(board.locator("circle.last-from")).to_have_count(1)
    label = board.locator('g.pnt[data-point="P3.3"]').get_attribute("aria-label") or ""
    assert "last move arrived here" in label, label
    shot(page, "last-move-defiance")
    assert not page.errors  # type: ignore[attr-defined]


def test_defiance_crosses_out_what_the_last_turn_took(
    server: Server, new_page: Callable[..., Page]
) -> None:
    from tests.defiance.strategies import position

    page = new_page()
    start(page, server, "defiance", position=position({"e3": "RN", "d3": "IE"}, side="i"))
    type_move(page, "f3>W", 1)
    cell = page.locator('svg.defiance g.cell[data-cell="e3"]')
    expect(cell.locator(".last-captured")).to_have_count(2)  # an outline and a cross
    expect(cell).to_have_attribute("aria-label", "e3, taken by the last move")


# -- animation -------------------------------------------------------------------------------


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_move_that_arrives_is_animated_unless_motion_is_reduced(
    server: Server, new_page: Callable[..., Page], motion: str
) -> None:
    page = new_page(reduced_motion=motion)
    moving = motion == "no-preference"
    for game, move in (
        ("general", "a2-b2"),
        ("backgammon", "8/5 6/5"),
        ("defiance", "e5>N;P2.2-P3.3"),
    ):
        start(page, server, game)
        board = page.locator(f"svg.{game}")
        expect(board).not_to_have_attribute("data-animations", "1")
        type_move(page, move, 1)
        if moving:
            expect(board).to_have_attribute("data-animations", "1")
            # and it is short: every part of it ends within 1.2 s of its start
            ends = page.evaluate(
                "document.getAnimations().map(a => a.effect.getComputedTiming().endTime)"
            )
            assert all(end <= 1200 for end in ends), ends
            page.wait_for_function(
                "() => document.getAnimations().every(a => a.playState !== 'running')", timeout=5000
            )
        else:
            page.wait_for_timeout(300)
            assert board.get_attribute("data-animations") is None
            assert page.evaluate("document.getAnimations().length") == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_a_move_made_on_the_board_is_not_played_again(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A piece dropped where it goes, a backgammon play built checker by checker, a Defiance
    turn shown before End turn: each is on the board already, so nothing slides back."""
    page = new_page()
    start(page, server, "general")
    ax, ay = centre(page, 'svg.general [data-point="a2"]')
    bx, by = centre(page, 'svg.general [data-point="b2"]')
    page.mouse.move(ax, ay)
    page.mouse.down()
    page.mouse.move(bx, by, steps=6)
    page.mouse.up()
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    assert page.locator("svg.general").get_attribute("data-animations") is None
    start(page, server, "backgammon")
    for name in ("8", "5", "6", "5"):
        page.click(f'svg.backgammon g.pt[data-point="{name}"]')
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    assert page.locator("svg.backgammon").get_attribute("data-animations") is None
    start(page, server, "defiance")
    page.click('svg.defiance g.cell[data-cell="e5"]')
    page.click('svg.defiance g.dir[data-direction="N"]')
    page.click('svg.defiance g.pnt[data-point="P3.3"]')
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    assert page.locator("svg.defiance").get_attribute("data-animations") is None
    # the next move, typed, is animated on the same page: the board still animates
    page.fill("#move-input", "j10>S")
    page.press("#move-input", "Enter")
    expect(page.locator("svg.defiance")).to_have_attribute("data-animations", "1")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_opponents_move_slides_on_the_watchers_board(
    server: Server, new_page: Callable[..., Page]
) -> None:
    host = new_page()
    start(host, server, "general", mode="friend")
    rebels, watcher = new_page(), new_page()
    rebels.goto(server.url + str(host.get_attribute('[data-seat-link="rebels"]', "href")))
    watcher.goto(server.url + str(host.get_attribute("[data-watch-link]", "href")))
    expect(watcher.locator("svg.general")).to_have_attribute("data-position", GENERAL_START)
    rebels.click('svg.general [data-point="a2"]')
    rebels.click('svg.general [data-point="b2"]')
    expect(watcher.locator("svg.general")).to_have_attribute("data-animations", "1")
    expect(watcher.locator("svg.general .marks .last-from")).to_have_count(1)


# -- backgammon conveniences -----------------------------------------------------------------


def test_backgammon_bears_off_with_one_click_when_that_is_all_a_checker_can_do(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    # 61: the checker on the 6 can bear off with the 6 or move to the 5 with the 1, so it is
    # chosen as usual and the tray lights up; the one on the 1 can only bear off (with the 1)
    start(page, server, "backgammon", position="W[6,1] B[6x3,5x2] w 61")
    off = page.locator('svg.backgammon g.pt[data-point="off"] rect.off.white')
    expect(off).to_have_count(13)
    page.click('svg.backgammon g.pt[data-point="6"]')
    expect(page.locator('svg.backgammon g.pt[data-point="off"]')).to_have_class("pt tray highlight")
    expect(off).to_have_count(13)
    page.click('svg.backgammon g.pt[data-point="6"]')  # chosen again: not any more
    page.click('svg.backgammon g.pt[data-point="1"]')
    expect(off).to_have_count(14)
    expect(page.locator("svg.backgammon .die.used")).to_have_attribute("data-die", "1")
    # now the 6 has nothing left but to bear off: one click
    page.click('svg.backgammon g.pt[data-point="6"]')
    expect(off).to_have_count(15)
    page.click("#turn-done")
    expect(page.locator("#result")).to_be_visible()
    # when either die bears it off, the page asks which at once (no click on the tray)
    start(page, server, "backgammon", position="W[3x5,2x5,1x5] B[6x3,5x2] w 54")
    page.click('svg.backgammon g.pt[data-point="3"]')
    expect(page.locator("#chooser button.die-choice")).to_have_count(2)
    page.click('#chooser button.die-choice[data-die="5"]')
    expect(page.locator('svg.backgammon g.pt[data-point="off"] rect.off.white')).to_have_count(1)
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_backgammon_undo_this_checker(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    page = new_page(locale=LOCALES[lang])
    start(page, server, "backgammon")

    def point(name: str) -> None:
        page.click(f'svg.backgammon g.pt[data-point="{name}"]')

    def whites(name: str) -> int:
        return page.locator(
            f'svg.backgammon g.pt[data-point="{name}"] circle.checker.white'
        ).count()

    point("8")
    point("5")  # 8/5 with the 3
    point("6")
    point("5")  # 6/5 with the 1
    expect(page.locator("svg.backgammon .die.used")).to_have_count(2)
    expect(page.locator("#turn-done")).to_be_enabled()
    # the checkers on the 5 came from the 8 and the 6: choosing the 5 shows both origins
    point("5")
    expect(page.locator("svg.backgammon g.pt.takeback")).to_have_count(2)
    hint = {"en": "To take this checker back", "fr": "Pour reprendre ce pion"}[lang]
    expect(page.locator("#message")).to_contain_text(hint)
    shot(page, f"backgammon-undo-checker-{lang}")
    # take back the one from the 8 (the first move of the turn): the 6/5 stays
    point("8")
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    expect(page.locator("svg.backgammon .die.used")).to_have_attribute("data-die", "1")
    assert whites("8") == 3 and whites("5") == 1 and whites("6") == 4
    # a checker moved twice goes back all the way: 24/21/20 then back to the 24
    point("24")
    point("21")  # 24/21 with the 3
    expect(page.locator("svg.backgammon .die.used")).to_have_count(2)
    point("21")
    expect(page.locator('svg.backgammon g.pt[data-point="24"]')).to_have_class("pt takeback")
    point("24")
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    assert whites("24") == 2 and whites("21") == 0
    assert not page.errors  # type: ignore[attr-defined]


# -- Defiance on a phone ---------------------------------------------------------------------

SCALE = "e => Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b)"


def size_of(page: Page, selector: str, units: float) -> float:
    """The on-screen size in CSS pixels of ``units`` board units at ``selector``."""
    node = page.locator(selector).first
    return float(node.evaluate(SCALE)) * units


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_defiance_zooms_on_a_phone_so_every_target_is_44px(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    page = new_page(viewport=PHONE, locale=LOCALES[lang], is_mobile=True, has_touch=True)
    start(page, server, "defiance")
    board = page.locator("svg.defiance")
    expect(board).to_have_attribute("data-zoom", "out")
    whole = size_of(page, 'svg.defiance g.cell[data-cell="e5"] rect.sq', 40)
    assert whole < 44, whole  # too small to aim at: the first tap zooms
    shot(page, f"defiance-zoom-whole-{lang}")
    # the first tap lands on the neighbour of the cell meant: it zooms there and chooses it
    page.tap('svg.defiance g.cell[data-cell="e4"]')
    expect(board).to_have_attribute("data-zoom", "in")
    expect(page.locator("svg.defiance g.dir")).to_have_count(8)
    cell = size_of(page, 'svg.defiance g.cell[data-cell="e5"] rect.sq', 40)
    assert cell >= 44, cell
    for i in range(8):
        radius = float(page.locator("svg.defiance g.dir .hit").nth(i).get_attribute("r") or 0)
        assert size_of(page, "svg.defiance g.dir .hit", 2 * radius) >= 44
    zoom_out = page.locator("#zoom-out")
    expect(zoom_out).to_have_text({"en": "Whole board", "fr": "Tout le plateau"}[lang])
    box = zoom_out.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    shot(page, f"defiance-zoom-directions-{lang}")
    # take the step back, and tap the right cell, large now
    page.tap("#turn-undo")
    expect(page.locator("svg.defiance g.dir")).to_have_count(0)
    expect(board).to_have_attribute("data-zoom", "in")
    page.tap('svg.defiance g.cell[data-cell="e5"]')
    expect(page.locator("svg.defiance g.cell[data-cell='e5'] .chosen")).to_have_count(1)
    page.tap('svg.defiance g.dir[data-direction="N"]')
    # the Command's eight steps, each a target of 44 px
    targets = page.locator("svg.defiance g.pnt:has(.target)")
    expect(targets).to_have_count(8)
    for i in range(8):
        hit = targets.nth(i).locator(".hit")
        radius = float(hit.get_attribute("r") or 0)
        assert float(hit.evaluate(SCALE)) * 2 * radius >= 44
        box = targets.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, f"defiance-zoom-command-{lang}")
    page.tap('svg.defiance g.pnt[data-point="P3.3"]')
    page.tap("#turn-done")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    # the next turn is seen whole
    expect(board).to_have_attribute("data-zoom", "out")
    expect(board).to_have_attribute(
        "data-position", "10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.3,I7.8,I8.7 i"
    )
    # "Whole board" goes back at any time
    page.tap('svg.defiance g.cell[data-cell="f6"]')
    expect(board).to_have_attribute("data-zoom", "in")
    zoom_out.tap()
    expect(board).to_have_attribute("data-zoom", "out")
    assert not page.errors  # type: ignore[attr-defined]


def test_defiance_on_a_desktop_never_zooms(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport=DESKTOP)
    start(page, server, "defiance")
    page.click('svg.defiance g.cell[data-cell="e5"]')
    expect(page.locator("svg.defiance g.dir")).to_have_count(8)
    expect(page.locator("svg.defiance")).to_have_attribute("data-zoom", "out")
    expect(page.locator("#zoom-out")).to_be_hidden()


# -- the watcher and the rematch -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_watcher_is_offered_the_rematch(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    host = new_page()
    start(host, server, "general", mode="friend")
    rebels, general = new_page(), new_page()
    watcher = new_page(locale=LOCALES[lang])
    rebels.goto(server.url + str(host.get_attribute('[data-seat-link="rebels"]', "href")))
    general.goto(server.url + str(host.get_attribute('[data-seat-link="general"]', "href")))
    watcher.goto(server.url + str(host.get_attribute("[data-watch-link]", "href")))
    expect(watcher.locator("svg.general")).to_have_attribute("data-position", GENERAL_START)
    button = watcher.locator("#watch-rematch")
    expect(button).to_be_hidden()
    rebels.click("#resign")
    rebels.click("#confirm-yes")  # the confirmation in the page
    expect(watcher.locator("#result")).to_be_visible()
    expect(button).to_be_hidden()  # no rematch yet: nothing to follow
    general.click("#rematch")  # an offer: still nothing to follow
    expect(general.locator("#rematch-status")).to_be_visible()
    expect(button).to_be_hidden()
    rebels.click("#accept-rematch")  # both want it: it is made
    expect(button).to_be_visible()
    expect(button).to_have_text({"en": "Watch the rematch", "fr": "Suivre la revanche"}[lang])
    shot(watcher, f"watcher-rematch-{lang}")
    old = watcher.url
    button.click()
    watcher.wait_for_url(lambda url: url != old)
    assert "/watch/" in watcher.url
    expect(watcher.locator("#seat-line")).to_have_text(
        {"en": "You are watching", "fr": "Vous regardez la partie"}[lang]
    )
    expect(watcher.locator("svg.general")).to_have_attribute("data-position", GENERAL_START)
    expect(watcher.locator("#result")).to_be_hidden()
    # the watcher sees the rematch's moves (the general's player has the rebels now)
    expect(general.locator("#seat-line")).to_have_text("You play the Rebels")
    general.click('svg.general [data-point="a2"]')
    general.click('svg.general [data-point="b2"]')
    expect(watcher.locator("#move-list .ply")).to_have_count(1)
    assert not any(p.errors for p in (rebels, general, watcher))  # type: ignore[attr-defined]


# -- the screens, looked at ------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_boards_after_a_move_on_every_screen(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    """Each board after a move (the last move drawn), in both languages, on a desktop and a
    phone: nothing wider than the screen, the tools' buttons at least 44 px on a phone, and
    axe-core finds nothing on the page in that state (nor on Defiance's zoomed view)."""
    from tests.browser.test_accessibility import axe

    phone = size == "phone"
    page = new_page(viewport=PHONE if phone else DESKTOP, locale=LOCALES[lang],
                    is_mobile=phone, has_touch=phone)  # fmt: skip
    found: list[str] = []
    for game, move in (
        ("general", "a2-b2"),
        ("backgammon", "8/5 6/5"),
        ("defiance", "e5>N;P2.2-P3.3"),
    ):
        start(page, server, game)
        type_move(page, move, 1)
        page.locator(f"svg.{game}").scroll_into_view_if_needed()
        page.wait_for_timeout(1300)  # the move's animation is over
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
        if phone:
            for button in page.locator(".board-tools button:visible").all():
                box = button.bounding_box()
                assert box is not None and box["height"] >= 44 and box["width"] >= 44
        shot(page, f"board-{game}-{lang}-{size}")
        found += [f"{game}|{v['id']}|{' ; '.join(v['nodes'])}" for v in axe(page)]
    if phone:
        # Defiance zoomed in, its directions shown
        page.tap('svg.defiance g.cell[data-cell="d4"]')
        expect(page.locator("svg.defiance")).to_have_attribute("data-zoom", "in")
        shot(page, f"board-defiance-zoomed-{lang}")
        found += [f"zoomed|{v['id']}|{' ; '.join(v['nodes'])}" for v in axe(page)]
    assert not found, "axe violations:\n" + "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
