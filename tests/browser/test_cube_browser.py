"""Backgammon for points in a real browser: the match chosen on the home page, the cube drawn
with its value and owner, Double / Take / Drop only when legal, offers to resign and their
answers (between friends, and by the computer), the match going on to its next game, the cube's
decisions in the move list and the replay, and the phone's zoom that makes every target 44 px
or more. Screenshots of each step, desktop and phone, English and French; axe finds nothing."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot
from tests.browser.test_accessibility import axe

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
WORDS = {
    "en": {"match": "Match to 5 points", "doubles": "doubles → 2", "takes": "takes",
           "offer": "offers a gammon", "accepts": "accepts", "next": "Next game",
           "crawford": "Crawford game", "scores": "scores 4 points",
           "resigned": "the loser resigned a gammon", "turn": r"^Turn \d+ of \d+$"},
    "fr": {"match": "Match en 5 points", "doubles": "double → 2", "takes": "prend",
           "offer": "propose un gammon", "accepts": "accepte", "next": "Partie suivante",
           "crawford": "partie Crawford", "scores": "marquent 4 points",
           "resigned": "le perdant a abandonné un gammon", "turn": r"^Tour \d+ sur \d+$"},
}  # fmt: skip


def state(server: Server, page: Page) -> dict[str, Any]:
    token = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/play/{token}", timeout=10) as response:
        return dict(json.loads(response.read()))


def cube(page: Page) -> Any:
    return page.locator("svg.backgammon g.cube")


def no_axe_violation(page: Page, where: str) -> None:
    found = [f"{where}: {v['id']} {v['help']} {v['nodes']}" for v in axe(page)]
    assert not found, "\n".join(found)


def small_targets(page: Page, selector: str) -> list[str]:
    """The visible targets of ``selector`` under 44×44 px."""
    small = []
    targets = page.locator(selector)
    for i in range(targets.count()):
        box = targets.nth(i).bounding_box()
        if box is not None and (box["width"] < 43.5 or box["height"] < 43.5):
            small.append(f"{targets.nth(i).evaluate('e => e.outerHTML.slice(0, 60)')}: {box}")
    return small


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
def test_a_match_at_one_screen(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words = WORDS[lang]
    page = new_page(viewport=DESKTOP if size == "desktop" else PHONE, locale=LOCALES[lang])
    # the home page: a match's length appears with the match, a money game is never rated
    page.goto(server.url + "/")
    page.check('input[name="game"][value="backgammon"]')
    expect(page.locator("#length-field")).to_be_hidden()
    page.check('input[name="ruleset"][value="money"]')
    expect(page.locator("#length-field")).to_be_hidden()
    page.check('input[name="ruleset"][value="match"]')
    expect(page.locator("#length-field")).to_be_visible()
    page.fill("#length", "5")
    page.locator("#length").blur()  # (a full-page shot with the box focused loses the click)
    shot(page, f"cube-home-match-{lang}-{size}")
    page.click("#start")
    page.wait_for_selector("svg.backgammon[data-position]")
    expect(page.locator("#match-line")).to_have_text(
        words["match"] + (" · White 0 – 0 Black" if lang == "en" else " · Blancs 0 – 0 Noirs")
    )
    expect(cube(page)).to_have_attribute("data-value", "1")
    expect(cube(page)).to_have_attribute("data-owner", "")
    expect(cube(page).locator("text")).to_have_text("64")
    # the opening roll's side plays; the other decides: roll or double (no take or drop yet)
    first = state(server, page)
    page.fill("#move-input", first["legal"][0])
    page.click("#move-submit")
    expect(page.locator("#cube-double")).to_be_visible()
    expect(page.locator("#cube-roll")).to_be_visible()
    expect(page.locator("#cube-take")).to_have_count(0)
    doubler = state(server, page)["to_move"]
    taker = "black" if doubler == "white" else "white"
    shot(page, f"cube-decide-{lang}-{size}")
    if size == "phone":
        assert not small_targets(page, "#cube-bar button:visible")
    page.click("#cube-double")
    expect(page.locator("#cube-take")).to_be_visible()
    expect(page.locator("#cube-drop")).to_be_visible()
    expect(page.locator("#cube-double")).to_have_count(0)
    expect(cube(page)).to_have_class(re.compile(r"\boffered\b"))
    expect(cube(page)).to_have_attribute("data-value", "2")
    shot(page, f"cube-doubled-{lang}-{size}")
    no_axe_violation(page, "a double to answer")
    page.click("#cube-take")
    expect(cube(page)).to_have_attribute("data-owner", taker)
    expect(cube(page)).to_have_attribute("data-value", "2")
    expect(page.locator("#cube-bar")).to_be_hidden()
    # the cube at its owner's end of the bar: the top for the side at the top (black here)
    box = cube(page).bounding_box()
    board = page.locator("svg.backgammon").bounding_box()
    assert box is not None and board is not None
    at_top = box["y"] + box["height"] / 2 < board["y"] + board["height"] / 2
    assert at_top == (taker == "black")
    # the doubler offers to resign a gammon (4 points with the cube at 2); the other accepts
    page.click("#resign")
    expect(page.locator("#chooser .resign-offer")).to_have_count(3)
    shot(page, f"cube-resign-menu-{lang}-{size}")
    no_axe_violation(page, "the offers to resign")
    page.click('#chooser .resign-offer[data-offer="gammon"]')
    expect(page.locator("#resign-accept")).to_be_visible()
    expect(page.locator("svg.backgammon .resign-flag")).to_have_attribute("data-offer", "gammon")
    shot(page, f"cube-resign-offer-{lang}-{size}")
    page.click("#resign-accept")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-note")).to_contain_text(words["scores"])
    moves = page.locator("#move-list")
    for key in ("doubles", "takes", "offer", "accepts"):
        expect(moves).to_contain_text(words[key])
    # each cube action in its own side's column, as a .mat file writes it
    columns = ((doubler, "doubles"), (taker, "takes"), (doubler, "offer"), (taker, "accepts"))
    for side, key in columns:
        half = moves.locator(f'.half[data-side="{side}"]', has_text=words[key])
        expect(half).to_have_count(1)
    # what the resignation gave up, and the counter counts turns, not plies
    expect(page.locator("#result")).to_contain_text(words["resigned"])
    expect(page.locator("#step-info")).to_have_text(re.compile(words["turn"]))
    expect(page.locator("#rematch")).to_have_text(words["next"])
    shot(page, f"cube-game-over-{lang}-{size}")
    # the next game of the match: same sides, at 4-0, the Crawford game (no cube decision)
    page.click("#rematch")
    expect(page.locator("#match-line")).to_contain_text(words["crawford"])
    after = state(server, page)
    assert after["extra"]["match"]["score"][taker] == 4 and after["my_sides"] == ["black", "white"]
    assert after["extra"]["match"]["crawford"] and "double" not in after["legal"]
    shot(page, f"cube-next-game-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


def quiet(legal: list[str]) -> str:
    """A legal play that sends no checker to the bar, else the first one."""
    return next((m for m in legal if "/" in m and "*" not in m), legal[0])


def test_friends_see_each_others_double_and_offer(
    server: Server, new_page: Callable[..., Page]
) -> None:
    created = urllib.request.urlopen(
        urllib.request.Request(
            server.url + "/api/games",
            data=json.dumps(
                {"game": "backgammon", "ruleset": "match", "mode": "friend", "length": 3}
            ).encode(),
            headers={"content-type": "application/json"},
        ),
        timeout=10,
    )
    seats = json.loads(created.read())["seats"]
    pages = {side: new_page(viewport=DESKTOP) for side in ("white", "black")}
    for side, page in pages.items():
        page.goto(server.url + seats[side])
        page.wait_for_selector("svg.backgammon[data-position]")
    first = state(server, pages["white"])
    mover = first["to_move"]
    other = "black" if mover == "white" else "white"
    # plays that hit nobody: a checker on the bar could dance, and a roll with no play
    # passes the turn at once, leaving no controls to check (dice are random here)
    pages[mover].fill("#move-input", quiet(first["legal"]))
    pages[mover].click("#move-submit")
    # the other side decides; the mover only sees the board
    expect(pages[other].locator("#cube-double")).to_be_visible()
    expect(pages[mover].locator("#cube-bar")).to_be_hidden()
    pages[other].click("#cube-double")
    expect(pages[mover].locator("#cube-take")).to_be_visible()
    expect(pages[other].locator("#cube-text")).to_contain_text("doubles to 2: waiting")
    shot(pages[mover], "cube-friend-doubled")
    pages[mover].click("#cube-take")
    # the doubler rolls (it may not redouble) and plays; then the taker, who owns the cube,
    # may double; it rolls, offers to resign a single game, and the doubler answers
    expect(pages[other].locator("#turn-controls")).to_be_visible()
    pages[other].fill("#move-input", quiet(state(server, pages[other])["legal"]))
    pages[other].click("#move-submit")
    expect(pages[mover].locator("#cube-double")).to_be_visible()
    pages[mover].click("#cube-roll")
    expect(pages[mover].locator("#turn-controls")).to_be_visible()
    pages[mover].click("#resign")
    pages[mover].click('#chooser .resign-offer[data-offer="single"]')
    expect(pages[other].locator("#cube-text")).to_contain_text("offers to resign a single game")
    expect(pages[mover].locator("#cube-text")).to_contain_text("waiting for the answer")
    shot(pages[other], "cube-friend-offer")
    pages[other].click("#resign-decline")
    expect(pages[mover].locator("#turn-controls")).to_be_visible()  # the turn goes on
    pages[mover].click("#resign")
    pages[mover].click('#chooser .resign-offer[data-offer="single"]')
    pages[other].click("#resign-accept")
    for page in pages.values():
        expect(page.locator("#result-note")).to_contain_text("scores 2 points")
    # one asks for the next game and waits; the other is told, and accepts: both go to it
    pages[other].click("#rematch")
    expect(pages[other].locator("#rematch-status")).to_have_text(
        "Next game offered — waiting for your opponent."
    )
    offer = pages[mover].locator("#rematch-offer")
    expect(offer).to_contain_text("ready for the next game")
    pages[mover].click("#accept-rematch")
    expect(pages[mover].locator("#match-line")).to_contain_text("Crawford game")
    expect(pages[other].locator("#match-line")).to_contain_text("Crawford game")
    for side, page in pages.items():
        assert state(server, page)["my_sides"] == [side]
    assert not any(p.errors for p in pages.values())  # type: ignore[attr-defined]


def test_the_computer_doubles_and_drops_and_the_replay_shows_it(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page(viewport=DESKTOP)
    # far behind in a race, white (the player) doubles: the computer drops
    open_game(page, server, "backgammon", "svg.backgammon", mode="computer", ruleset="money",
              side="white", level="medium",
              position="W[3x5,2x5,1x5] B[21x5,20x5,19x5] w - cube 1 jacoby")  # fmt: skip
    expect(page.locator("#match-line")).to_have_text("Money game · Jacoby rule")
    page.click("#cube-double")
    expect(page.locator("#result")).to_contain_text("the double was dropped")
    expect(page.locator("#result-note")).to_contain_text("White scores 1 point")
    game_id = state(server, page)["id"]
    # the replay: the double and the drop in the move list, the cube offered on the board
    page.goto(f"{server.url}/archive/{game_id}")
    expect(page.locator("#move-list")).to_contain_text("doubles → 2")
    expect(page.locator("#move-list")).to_contain_text("drops")
    page.click('#move-list .ply[data-ply="1"] button')
    expect(cube(page)).to_have_class(re.compile(r"\boffered\b"))
    shot(page, "cube-replay")
    # now the computer is far ahead, on its turn: it doubles (Jacoby: gammons count only then)
    open_game(page, server, "backgammon", "svg.backgammon", mode="computer", ruleset="money",
              side="white", level="hard",
              position="W[21x5,20x5,19x5] B[3x5,2x5,1x5] b - cube 1 jacoby")  # fmt: skip
    expect(page.locator("#cube-take")).to_be_visible()
    expect(page.locator("#cube-text")).to_contain_text("Black doubles to 2")
    shot(page, "cube-computer-doubles")
    page.click("#cube-drop")
    expect(page.locator("#result-note")).to_contain_text("Black scores 1 point")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_phone_zooms_so_that_every_target_is_44_px(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    page = new_page(viewport=PHONE, locale=LOCALES[lang], has_touch=True, is_mobile=True)
    open_game(page, server, "backgammon", "svg.backgammon", ruleset="standard",
              position="W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")  # fmt: skip
    svg = page.locator("svg.backgammon")
    expect(svg).to_have_attribute("data-zoom", "out")
    assert small_targets(page, 'svg.backgammon g.pt[data-point="8"] .hit')  # 23 px: too small
    shot(page, f"cube-phone-whole-{lang}")
    # a tap on the whole board zooms in, and chooses the checker it touched: nothing moves yet
    page.locator('svg.backgammon g.pt[data-point="8"]').tap()
    expect(svg).to_have_attribute("data-zoom", "in")
    expect(page.locator('svg.backgammon g.pt[data-point="8"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    assert state(server, page)["ply"] == 0  # nothing played yet
    visible = page.evaluate(
        """() => { const s = document.querySelector('svg.backgammon').getBoundingClientRect();
        return [...document.querySelectorAll('svg.backgammon g.pt:not(.bar-area) .hit')]
          .filter(r => { const b = r.getBoundingClientRect();
                         return b.right > s.left + 1 && b.left < s.right - 1
                           && getComputedStyle(r.parentNode).pointerEvents !== 'none'; })
          .map(r => { const b = r.getBoundingClientRect();
                      return [r.parentNode.dataset.point, Math.min(b.right, s.right)
                              - Math.max(b.left, s.left), b.height]; }); }"""
    )
    assert len(visible) >= 7
    assert all(w >= 44 and h >= 44 for _, w, h in visible), visible
    # the bar is no target there (a checker on it is chosen by itself)
    bar = page.locator("svg.backgammon g.bar-area").evaluate(
        "e => getComputedStyle(e).pointerEvents"
    )
    assert bar == "none"
    expect(page.locator("#dice-line")).to_be_visible()
    shot(page, f"cube-phone-zoomed-{lang}")
    # 8/5 (the checker chosen), then 6/5: each step waited for (a step asks the server for the
    # turn after it, and a tap while it is on its way is not taken)
    used = page.locator("svg.backgammon .die.used")
    page.locator('svg.backgammon g.pt[data-point="5"]').tap()
    expect(used).to_have_count(1)
    for point in ("6", "5"):
        page.locator(f'svg.backgammon g.pt[data-point="{point}"]').tap()
    expect(used).to_have_count(2)
    expect(page.locator("#turn-done")).to_be_enabled()
    page.locator("#turn-done").tap()
    expect(page.locator("#move-list")).to_contain_text("8/5 6/5")
    expect(svg).to_have_attribute("data-zoom", "out")  # the other side's turn is seen whole
    assert not small_targets(page, ".board-tools button:visible, #turn-controls button:visible")
    assert not page.errors  # type: ignore[attr-defined]


FAR_APART = "W[24x1,12x1,1x13] B[12x2,2x13] w 65"
"""After 24/18 the 5 moves only the checker on 12, at the other end of the board."""


IN_VIEW = """(point) => {
    const s = document.querySelector('svg.backgammon').getBoundingClientRect();
    const b = document.querySelector(`svg.backgammon g.pt[data-point="${point}"] .hit`)
                      .getBoundingClientRect();
    return b.left >= s.left - 1 && b.right <= s.right + 1; }"""
"""Whether the board's point (an argument) is inside the part of the board shown."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_phone_zoom_goes_to_the_checker_left_to_move(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """Zoomed in on a phone, a step after which the only checker that can move is out of
    sight: the view goes to it (it stayed where the step was, and hid it)."""
    page = new_page(viewport=PHONE, locale=LOCALES[lang], has_touch=True, is_mobile=True)
    open_game(page, server, "backgammon", "svg.backgammon", ruleset="standard",
              position=FAR_APART)  # fmt: skip
    svg = page.locator("svg.backgammon")
    page.locator('svg.backgammon g.pt[data-point="24"]').tap()
    expect(svg).to_have_attribute("data-zoom", "in")
    assert not page.evaluate(IN_VIEW, "12")  # the zoom shows the checker chosen, where it goes
    page.locator('svg.backgammon g.pt[data-point="18"]').tap()
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    expect(svg).to_have_attribute("data-zoom", "in")
    page.wait_for_function(IN_VIEW, arg="12")  # the checker left to move, in sight
    shot(page, f"cube-phone-zoom-follows-{lang}")
    page.locator('svg.backgammon g.pt[data-point="12"]').tap()
    page.locator('svg.backgammon g.pt[data-point="7"]').tap()
    expect(page.locator("svg.backgammon .die.used")).to_have_count(2)
    assert not page.errors  # type: ignore[attr-defined]
