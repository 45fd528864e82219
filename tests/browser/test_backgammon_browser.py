"""Backgammon in a real browser: dice from the server, one checker at a time, a hit, an entry
from the bar, undo within a turn, a forced pass, bearing off, friends in two browsers, the
computer to the end, the dice verified, and a phone-sized screen. Games start from positions
(with their dice) through the app's form, not from luck."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, forced_plays_by_hand, open_game, shot


def start(page: Page, server: Server, position: str = "", mode: str = "local",
          ruleset: str = "seed", level: str = "", side: str = "") -> None:  # fmt: skip
    open_game(page, server, "backgammon", "svg.backgammon", mode=mode, position=position,
              ruleset=ruleset, level=level, side=side)  # fmt: skip


def point(page: Page, name: str) -> None:
    page.click(f'svg.backgammon g.pt[data-point="{name}"]')


def expect_position(page: Page, position: str) -> None:
    expect(page.locator("svg.backgammon")).to_have_attribute("data-position", position)


def api_state(server: Server, page: Page) -> dict:  # type: ignore[type-arg]
    token = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/play/{token}") as response:
        return dict(json.loads(response.read()))


def test_dice_single_checkers_hit_undo_and_done(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    # white to play 31; black has a blot on its 20-point (white's 5)
    start(page, server, "W[24x2,13x5,8x3,6x5] B[20,13x5,8x3,6x4,24x2] w 31")
    expect(page.locator("svg.backgammon .dice")).to_have_attribute("data-dice", "31")
    expect(page.locator("#turn-controls")).to_be_visible()
    expect(page.locator("#turn-done")).to_be_disabled()
    point(page, "8")
    expect(page.locator('svg.backgammon g.pt[data-point="5"]')).to_have_class("pt highlight")
    shot(page, "backgammon-destinations")
    point(page, "5")  # 8/5* hits the blot
    expect(
        page.locator('svg.backgammon g.pt[data-point="bar"] circle.checker.black')
    ).to_have_count(1)
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    # take it back, then play the other way round
    page.click("#turn-undo")
    expect(page.locator('svg.backgammon g.pt[data-point="bar"] circle.checker')).to_have_count(0)
    point(page, "6")
    point(page, "5")  # 6/5* hits with the 1
    point(page, "8")
    point(page, "5")  # 8/5 with the 3
    expect(page.locator("#turn-done")).to_be_enabled()
    shot(page, "backgammon-before-done")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move").first).to_have_text("8/5* 6/5")
    # black rolls next; with 11 it cannot enter (white holds its 24-point) and passes at once
    status = page.locator("#status")
    expect(status).to_contain_text(re.compile("(Black|White) to move"))
    if "White" in (status.text_content() or ""):
        expect(page.locator("#move-list .ply.move").nth(1)).to_contain_text("pass")
    assert not page.errors  # type: ignore[attr-defined]


def test_entry_from_the_bar_and_the_move_box(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, "W[bar,13x4,8x3,6x5,24x2] B[24x2,13x5,8x3,6x5] w 43")
    # only the bar may move first
    point(page, "13")
    expect(page.locator("svg.backgammon g.pt.highlight")).to_have_count(0)
    point(page, "bar")
    expect(page.locator('svg.backgammon g.pt[data-point="21"]')).to_have_class("pt highlight")
    point(page, "21")  # bar/21 with the 4
    expect(
        page.locator('svg.backgammon g.pt[data-point="bar"] circle.checker.white')
    ).to_have_count(0)
    page.click("#turn-undo")
    page.fill("#move-input", "bar/22 13/9")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move").first).to_have_text("bar/22 13/9")
    shot(page, "backgammon-entered")


def test_a_forced_pass_says_why(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    # black has a choice of plays for every roll, so its turn is not played by itself
    start(page, server, "W[bar,24x5,6x5] B[13x5,8x3,3x2] w 31")
    entry = page.locator("#move-list .ply.move").first
    expect(entry).to_contain_text("pass")
    expect(entry).to_contain_text("24 is full")
    expect(page.locator("#status")).to_contain_text("Black to move")
    shot(page, "backgammon-forced-pass")


def test_a_checker_that_can_use_either_die_asks_which(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    # (a checker that may use either die is always in a forced play: the player makes it here)
    forced_plays_by_hand(page)
    # 54 with nothing above the 3-point: a checker there bears off with the 5 or with the 4
    start(page, server, "W[3x5,2x5,1x5] B[6x3,5x2] w 54")
    point(page, "3")
    page.click('svg.backgammon g.pt[data-point="off"]')
    choices = page.locator("#chooser button.die-choice")
    expect(choices).to_have_count(2)
    expect(page.locator("#chooser")).to_contain_text("Which die does this checker use?")
    shot(page, "backgammon-which-die")
    page.click('#chooser button.die-choice[data-die="4"]')
    expect(page.locator("#chooser")).to_be_hidden()
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    expect(page.locator("svg.backgammon .die.used")).to_have_attribute("data-die", "4")


def test_bearing_off_to_the_end_and_the_dice_verified(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    start(page, server, "W[4,1] B[6x3,5x2] w 43")
    point(page, "4")
    tray = page.locator('svg.backgammon g.pt[data-point="off"]')
    expect(tray).to_have_class("pt tray highlight")
    page.click('svg.backgammon g.pt[data-point="off"]')  # 4/off with the 4
    point(page, "1")
    page.click('svg.backgammon g.pt[data-point="off"]')
    page.click("#turn-done")
    expect(page.locator("#result")).to_contain_text("White won")
    expect(page.locator("#result")).to_contain_text("all checkers borne off")
    page.click("#verify-dice")
    expect(page.locator("#verify-result")).to_have_attribute("data-verified", "yes")
    shot(page, "backgammon-borne-off-verified")


def test_the_fair_dice_panel_stays_as_the_player_left_it(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """Opened during a game, the fair dice panel stays open when the board is drawn again at
    the next play (it closed at every move); once the game is over it opens by itself to show
    the seed, and closed by the player it stays closed as they step through the game."""
    page = new_page()
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    fair = page.locator("#fair")
    expect(fair).not_to_have_attribute("open", "")
    page.click("#fair summary")
    expect(fair).to_have_attribute("open", "")
    page.fill("#move-input", "8/5 6/5")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    expect(page.locator("#seed-hash")).to_be_visible()
    expect(fair).to_have_attribute("open", "")
    shot(page, "backgammon-fair-dice-kept-open")
    token = page.url.rsplit("/", 1)[1]
    request = urllib.request.Request(f"{server.url}/api/play/{token}/resign", data=b"{}",
                                     headers={"content-type": "application/json"})  # fmt: skip
    urllib.request.urlopen(request).read()
    page.reload()
    expect(page.locator("#seed")).to_be_visible()  # over: open by itself, the seed shown
    page.click("#fair summary")
    expect(fair).not_to_have_attribute("open", "")
    page.click("#step-first")
    page.click("#step-last")
    expect(page.locator("#step-info")).not_to_be_empty()
    expect(fair).not_to_have_attribute("open", "")
    assert not page.locator("#seed").is_visible()
    shot(page, "backgammon-fair-dice-kept-closed")


def test_a_take_back_draws_new_dice_and_every_roll_still_verifies(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """Undo, then the same play again: the roll that follows is a new draw (its draw number
    skips the one taken back), and the browser's check of every roll still says yes."""
    page = new_page()
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    page.fill("#move-input", "8/5 6/5")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    assert api_state(server, page)["dice"]["draws"] == [0]
    page.click("#undo")
    expect(page.locator("#move-list .ply.move")).to_have_count(0)
    page.fill("#move-input", "8/5 6/5")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    state = api_state(server, page)
    assert state["dice"]["draws"] == [1]
    token = page.url.rsplit("/", 1)[1]
    request = urllib.request.Request(f"{server.url}/api/play/{token}/resign", data=b"{}",
                                     headers={"content-type": "application/json"})  # fmt: skip
    urllib.request.urlopen(request).read()
    page.reload()
    page.click("#verify-dice")
    expect(page.locator("#verify-result")).to_have_attribute("data-verified", "yes")
    shot(page, "backgammon-undo-verified")


def test_a_double_is_written_with_its_count(server: Server, new_page: Callable[..., Page]) -> None:
    """The move list writes a play as players do: 8/5(2) 6/3(2), not 8/5 8/5 6/3 6/3."""
    page = new_page()
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 33")
    page.fill("#move-input", "8/5 8/5 6/3 6/3")
    page.press("#move-input", "Enter")
    move = page.locator("#move-list .ply.move").first
    expect(move).to_have_text("8/5(2) 6/3(2)")


def test_friends_in_two_browsers(server: Server, new_page: Callable[..., Page]) -> None:
    host = new_page()
    start(host, server, mode="friend", ruleset="standard")
    # a link's box is tall enough for an underscore under the baseline (at 1.2 lines it was
    # cut off, and "w_A" read "w A")
    box = host.evaluate(
        "() => { const i = document.querySelector('#link-white');"
        " return [i.clientHeight, parseFloat(getComputedStyle(i).fontSize)]; }"
    )
    assert box[0] >= 1.9 * box[1], box
    white_link = host.get_attribute('[data-seat-link="white"]', "href")
    black_link = host.get_attribute('[data-seat-link="black"]', "href")
    white, black = new_page(), new_page()
    white.goto(server.url + str(white_link))
    black.goto(server.url + str(black_link))
    expect(black.locator("svg.backgammon")).to_have_attribute("data-bottom", "black")
    expect(white.locator("svg.backgammon")).to_have_attribute("data-bottom", "white")
    state = api_state(server, white)
    mover = white if state["to_move"] == "white" else black
    other = black if mover is white else white
    # the waiting player and a watcher see both dice of the roll, not one
    expect(other.locator("svg.backgammon .die")).to_have_count(2)
    watcher = new_page()
    watcher.goto(server.url + str(host.get_attribute("[data-watch-link]", "href")))
    expect(watcher.locator("svg.backgammon .die")).to_have_count(2)
    expect(watcher.locator("svg.backgammon .die.used")).to_have_count(0)
    mover.fill("#move-input", state["legal"][0])
    mover.press("#move-input", "Enter")
    for p in (white, black):
        expect(p.locator("#move-list .ply.move")).to_have_count(1)
    expect(other.locator("#turn-controls")).to_be_visible()
    shot(other, "backgammon-friend")
    assert mover.locator("#gnubg-id").input_value().count(":") == 1
    assert other.locator("#xgid").input_value().startswith("XGID=")


def test_against_the_computer_to_the_end(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, "W[6x2] B[1x3] w 21", mode="computer", level="easy", side="white")
    for _ in range(30):
        if page.locator("#result").is_visible():
            break
        # the computer may finish the game on its own turn: wait for our turn or the end
        expect(page.locator("#status")).to_contain_text(
            re.compile("White to move|You won|You lost"), timeout=30_000
        )
        if page.locator("#result").is_visible():
            break
        state = api_state(server, page)
        if state["outcome"] or state["to_move"] != "white" or not state["legal"]:
            page.wait_for_timeout(300)
            continue
        page.fill("#move-input", state["legal"][0])
        page.press("#move-input", "Enter")
        page.wait_for_timeout(300)
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    expect(page.locator("#result")).to_contain_text("all checkers borne off")
    page.click("#verify-dice")
    expect(page.locator("#verify-result")).to_have_attribute("data-verified", "yes")
    shot(page, "backgammon-computer-end")


def test_phone_sized_screen(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    box = page.locator("svg.backgammon").bounding_box()
    assert box is not None and box["width"] <= 390
    page.tap('svg.backgammon g.pt[data-point="8"]')
    page.tap('svg.backgammon g.pt[data-point="5"]')
    page.tap('svg.backgammon g.pt[data-point="6"]')
    page.tap('svg.backgammon g.pt[data-point="5"]')
    page.tap("#turn-done")
    expect(page.locator("#move-list .ply.move").first).to_have_text("8/5 6/5")
    shot(page, "backgammon-phone")


def test_a_won_game_offers_no_undo(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    start(page, server, "W[1x1] B[6x5,5x5,4x5] w 61")
    expect(page.locator("#undo")).to_be_hidden()
    page.fill("#move-input", "1/off")
    page.press("#move-input", "Enter")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#rematch")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


def test_the_only_legal_play_is_made_by_itself(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    start(page, server, "W[3x1,1x1] B[6x5,5x5,4x5] w 21")
    expect(page.locator("#message")).to_contain_text("Only one play is possible")
    # nobody clicks: after a short pause it is played, and the game goes on (or ends)
    expect(page.locator("#move-list .ply.move")).to_have_count(1, timeout=5000)
    assert not page.errors  # type: ignore[attr-defined]


def test_forced_plays_can_be_left_to_the_player(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    start(page, server)
    toggle = page.locator("#forced-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("Forced plays by themselves")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text("Forced plays by hand")
    # kept in this browser: the next game's only play waits for the player, who is told it
    start(page, server, "W[3x1,1x1] B[6x5,5x5,4x5] w 21")
    expect(page.locator("#forced-toggle")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#message")).to_contain_text("Only one play is possible: 3/2 2/off")
    page.wait_for_timeout(2000)
    expect(page.locator("#move-list .ply.move")).to_have_count(0)
    shot(page, "backgammon-forced-by-hand")
    page.fill("#move-input", "3/2 2/off")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply.move")).to_have_count(1)
    # and back: by itself again
    page.locator("#forced-toggle").click()
    expect(page.locator("#forced-toggle")).to_have_attribute("aria-pressed", "true")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_announcement_of_a_forced_play_goes_when_the_game_ends(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A forced play left to the player is announced under the board; a resignation ends the
    game, and the announcement of a play nobody can make any more goes with it."""
    page = new_page()
    forced_plays_by_hand(page)
    start(page, server, "W[3x1,1x1] B[6x5,5x5,4x5] w 21")
    expect(page.locator("#message")).to_contain_text("Only one play is possible: 3/2 2/off")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#share")).to_be_visible()
    expect(page.locator("#message")).to_have_text("")
    shot(page, "backgammon-forced-gone-after-resigning")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_player_who_starts_a_forced_play_finishes_it(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    # the page waits on its own pause (a slow machine may take longer than it to click)
    page.add_init_script(
        "window.setTimeout = ((f) => (cb, ms, ...a) => f(cb, ms === 900 ? 4000 : ms, ...a))"
        "(window.setTimeout)"
    )
    start(page, server, "W[3x1,1x1] B[6x5,5x5,4x5] w 21")
    expect(page.locator("#message")).to_contain_text("Only one play is possible")
    point(page, "3")
    point(page, "1")
    expect(page.locator("#turn-undo")).to_be_visible()
    page.wait_for_timeout(5000)  # past the pause: nothing was sent behind the player's back
    expect(page.locator("#move-list .ply.move")).to_have_count(0)
    expect(page.locator("#turn-done")).to_be_disabled()
    point(page, "1")  # a checker that can only bear off goes off at once
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move").first).to_have_text("3/2 2/off")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_tray_numbers_say_what_they_are(server: Server, new_page: Callable[..., Page]) -> None:
    """The two numbers by the trays are the pip counts: each has a word under it and a title
    naming its side."""
    page = new_page()
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    for side in ("white", "black"):
        group = page.locator(f'svg.backgammon g.pips[data-side="{side}"]')
        expect(group.locator(".pip-count")).to_have_text("167")
        expect(group.locator(".pip-label")).to_have_text("pips")
        expect(group.locator("title")).to_have_text(f"{side.title()}: Pips 167")
    shot(page, "backgammon-tray-pips")


def test_fifteen_checkers_off_leave_the_pip_count_in_sight(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A tray full of checkers borne off (fifteen) stops short of its side's pip count."""
    page = new_page()
    for mover in ("w", "b"):
        start(page, server, f"W[1] B[1] {mover} 21")
        page.fill("#move-input", "1/off")
        page.press("#move-input", "Enter")
        expect(page.locator("#result")).to_be_visible()
        side = "white" if mover == "w" else "black"
        expect(page.locator(f"svg.backgammon rect.off.{side}")).to_have_count(15)
        assert _pips_covered(page) == 0, side
        page.click("#flip-board")  # the full tray on the other edge of the board
        expect(page.locator("#flip-board")).to_have_attribute("aria-pressed", "true")
        assert _pips_covered(page) == 0, f"{side}, flipped"
        page.click("#flip-board")
    shot(page, "backgammon-fifteen-off")
    assert not page.errors  # type: ignore[attr-defined]


def _pips_covered(page: Page) -> int:
    """How many of the trays' pip numbers and words a checker borne off covers."""
    return int(
        page.evaluate(
            """() => {
          const boxes = (sel) =>
            [...document.querySelectorAll(sel)].map((n) => n.getBoundingClientRect());
          const meet = (a, b) =>
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const slabs = boxes("svg.backgammon rect.off");
          return boxes("svg.backgammon g.pips text")
            .filter((t) => slabs.some((s) => meet(s, t))).length;
        }"""
        )
    )


def test_a_dragged_checker_follows_the_pointer(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A checker dragged with the mouse moves with the pointer (it stood still before), and
    dropped on a point it makes that step."""
    page = new_page()
    forced_plays_by_hand(page)
    start(page, server, "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    checker = page.locator('svg.backgammon circle.checker.movable[data-point="8"]')
    box = checker.bounding_box()
    target = page.locator('svg.backgammon g.pt[data-point="5"]').bounding_box()
    assert box is not None and target is not None
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] * 0.8
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 6):  # half way, in steps
        page.mouse.move(x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10)
    ghost = page.locator("svg.backgammon circle.checker.dragging")
    expect(ghost).to_have_count(1)
    held = ghost.bounding_box()
    assert held is not None
    mid = (x0 + (x1 - x0) / 2, y0 + (y1 - y0) / 2)
    assert abs(held["x"] + held["width"] / 2 - mid[0]) < 3
    assert abs(held["y"] + held["height"] / 2 - mid[1]) < 3
    page.mouse.move(x1, y1)
    page.mouse.up()
    expect(ghost).to_have_count(0)
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    expect(page.locator('svg.backgammon circle.checker[data-point="5"]')).to_have_count(1)


def test_a_gammon_is_said_whatever_the_ruleset(
    server: Server, new_page: Callable[..., Page]
) -> None:
    # the seed's game is played for the win alone: the gammon is said all the same, and the
    # page says it does not score here
    page = new_page()
    start(page, server, "W[1] B[13x5,8x5,6x5] w 21")
    page.fill("#move-input", "1/off")
    page.press("#move-input", "Enter")
    result = page.locator("#result")
    expect(result).to_contain_text("a gammon: the loser bore off no checker")
    expect(result).to_contain_text("played for the win alone: the winner scores one win, no more")
    expect(result).to_contain_text("all checkers borne off")
    expect(page.locator("#step-info")).to_have_text("Turn 1 of 1")
    assert not page.errors  # type: ignore[attr-defined]
