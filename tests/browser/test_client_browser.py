"""The game page's client in a real browser, for all three games: the move list as players write
it (numbered turns, the roll beside its play), a lost connection in the middle of a backgammon
turn, a move typed while another is on its way, and what the page does with bad or hostile
input (a failed archive request, a message that is not JSON, text that looks like HTML)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser.conftest import Server, forced_plays_by_hand, open_game, shot

GENERAL = "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"
# white to play 31; black has a blot on its 20-point (white's 5)
BG_31 = "W[24x2,13x5,8x3,6x5] B[20,13x5,8x3,6x4,24x2] w 31"


def api_state(server: Server, page: Page) -> dict[str, Any]:
    token = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/play/{token}") as response:
        return dict(json.loads(response.read()))


def play_box(page: Page, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


def bg_point(page: Page, name: str) -> None:
    page.click(f'svg.backgammon g.pt[data-point="{name}"]')


def responsive(page: Page) -> bool:
    """True if the page's script answers (a frozen tab never does: the wait is long, so that
    a busy machine does not pass for a frozen tab)."""
    try:
        page.wait_for_function("() => true", timeout=10_000)
        return True
    except Exception:
        return False


# -- 6: the move list ------------------------------------------------------------------------


def test_backgammon_turns_are_numbered_with_the_roll_beside_its_play(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    forced_plays_by_hand(page)  # black's roll may leave one play: this test makes it
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_31, ruleset="seed")
    play_box(page, "8/5* 6/5")
    turns = page.locator("#move-list li.turn")
    black_roll = turns.first.locator('.half[data-side="black"] .ply.chance')
    expect(black_roll).to_have_text(re.compile(r"^\d\d:$"))
    # white's play, then black's roll: one numbered turn, not an entry for each; unless black
    # cannot enter (66, 55, 65: one roll in nine), passes at once, and white has rolled again
    black_to_play = api_state(server, page)["to_move"] == "black"
    expect(turns).to_have_count(1 if black_to_play else 2)
    first = turns.first
    expect(first.locator(".num")).to_have_text("1.")
    expect(first.locator(".half").first).to_have_text("8/5* 6/5")
    black = first.locator('.half[data-side="black"]')
    expect(black.locator(".ply.chance")).to_have_text(re.compile(r"^\d\d:$"))
    while True:  # black plays (or passes, when it cannot enter), then white rolls
        state = api_state(server, page)
        if state["to_move"] == "white" or state["outcome"]:
            break
        play_box(page, state["legal"][0])
        expect(page.locator("#move-list .ply.move")).to_have_count(2)
    expect(black.locator(".ply")).to_have_count(2)
    # the roll and its play on one line: "64: 24/18 13/9"
    button = black.locator(".ply.move button")  # a pass: its word, not its note

    def beside() -> bool:
        roll, play = black.locator(".ply.chance").bounding_box(), button.bounding_box()
        return bool(roll and play and abs(roll["y"] - play["y"]) < 4 and roll["x"] < play["x"])

    assert beside()
    # a long play (doubles, four steps) still starts beside its roll: it wraps inside itself
    if not black.locator(".ply.move .note").count():
        text = button.inner_text()
        button.evaluate("(b) => { b.textContent = 'bar/22 22/19* 19/16 16/13 13/10 10/7'; }")
        assert beside()
        button.evaluate("(b, t) => { b.textContent = t; }", text)
    expect(turns).to_have_count(2)
    expect(turns.nth(1).locator(".num")).to_have_text("2.")
    expect(turns.nth(1).locator(".ply.chance")).to_have_text(re.compile(r"^\d\d:$"))
    # every ply still steps the board to it
    page.click('#move-list .ply[data-ply="1"] button')
    expect(page.locator("#step-info")).to_have_text(re.compile(r"^Move 1 of \d"))
    expect(page.locator('#move-list .ply[data-ply="1"]')).to_have_class(re.compile("current"))
    shot(page, "client-backgammon-move-list")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#move-list").scroll_into_view_if_needed()
    shot(page, "client-backgammon-move-list-phone")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_forced_pass_reads_as_one_numbered_line(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "backgammon", "svg.backgammon", position="W[bar,24x5,6x5] B[3x2] w 31",
              ruleset="seed")  # fmt: skip
    turn = page.locator("#move-list li.turn").first
    expect(turn.locator(".ply.move")).to_contain_text("pass")
    expect(turn.locator(".note")).to_contain_text("24 is full")
    # the number sits at the top of its turn, the explanation under the pass, left-aligned
    num, button = (
        turn.locator(".num").bounding_box(),
        turn.locator(".ply.move button").bounding_box(),
    )
    note = turn.locator(".note").bounding_box()
    assert num and button and note
    assert abs(num["y"] - button["y"]) < 6
    assert note["y"] >= button["y"] + button["height"] - 2
    assert abs(note["x"] - button["x"]) < 8
    assert turn.locator(".note").evaluate("n => getComputedStyle(n).textAlign") in ("left", "start")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#move-list").scroll_into_view_if_needed()
    shot(page, "client-backgammon-pass-phone")


def test_general_and_defiance_moves_are_numbered_by_pairs(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "general", "svg.board", position=GENERAL)
    play_box(page, "a2-b2")
    play_box(page, "c3-b4")
    expect(page.locator("#move-list .ply")).to_have_count(2)
    play_box(page, api_state(server, page)["legal"][0])
    turns = page.locator("#move-list li.turn")
    expect(turns).to_have_count(2)
    expect(turns.first).to_have_text(re.compile(r"^1\.\s*a2-b2\s*c3-b4xa3c5$"))
    expect(turns.nth(1).locator(".num")).to_have_text("2.")
    expect(page.locator("#move-list .ply")).to_have_count(3)
    page.click('#move-list .ply[data-ply="2"] button')
    expect(page.locator("#step-info")).to_have_text("Move 2 of 3")
    page.click("#step-prev")
    expect(page.locator('#move-list .ply[data-ply="1"]')).to_have_class(re.compile("current"))
    shot(page, "client-general-move-list")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#move-list").scroll_into_view_if_needed()
    shot(page, "client-general-move-list-phone")

    dd = new_page()
    open_game(dd, server, "defiance", "svg.defiance", ruleset="10x10")
    for _ in range(3):
        state = api_state(server, dd)
        play_box(dd, state["legal"][0])
        expect(dd.locator("#move-list .ply")).to_have_count(len(state["history"]) + 1)
    expect(dd.locator("#move-list li.turn")).to_have_count(2)
    expect(dd.locator("#move-list li.turn").first.locator(".ply")).to_have_count(2)
    shot(dd, "client-defiance-move-list")
    assert not page.errors and not dd.errors  # type: ignore[attr-defined]


# -- 10: the connection lost in the middle of a backgammon turn ------------------------------


def test_backgammon_stops_asking_when_offline_and_recovers(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_31, ruleset="seed")
    bg_point(page, "8")
    bg_point(page, "5")  # half the turn: 8/5*
    expect(page.locator("svg.backgammon .die.used")).to_have_count(1)
    server.stop()
    expect(page.locator("#connection")).to_have_class(re.compile("offline"))
    # what the page says from now on is counted: a board that kept asking would say "offline"
    # again for every request it made (a count, not a time: the test runs beside others)
    page.evaluate(
        """() => {
          window.saidOffline = 0;
          new MutationObserver((changes) => { window.saidOffline += changes.length; })
            .observe(document.getElementById("message"), { childList: true, subtree: true });
        }"""
    )
    # a checker and a destination, clicked on a board whose server is gone
    for name in ("6", "5"):
        page.locator(f'svg.backgammon g.pt[data-point="{name}"]').dispatch_event("click")
    assert responsive(page), "the tab froze"
    said = page.evaluate("window.saidOffline")
    assert responsive(page)
    # it has stopped: nothing more was said between two answers of the page, and at most
    # once for each click
    assert page.evaluate("window.saidOffline") == said <= 2, said
    expect(page.locator("#board")).to_have_class(re.compile("offline"))
    expect(page.locator("#message")).to_contain_text("Connection lost")
    expect(page.locator("svg.backgammon.interactive")).to_have_count(0)
    shot(page, "client-backgammon-offline")
    # back online, the turn starts again and can be played
    server.start()
    expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
    expect(page.locator("svg.backgammon.interactive")).to_have_count(1)
    expect(page.locator("#board")).not_to_have_class(re.compile("offline"))
    # the server has said where the turn stands again: the checkers that may move are marked
    expect(page.locator("svg.backgammon circle.checker.movable").first).to_be_visible()
    bg_point(page, "6")
    bg_point(page, "5")
    bg_point(page, "8")
    bg_point(page, "5")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move").first).to_have_text("8/5* 6/5")
    assert not page.errors  # type: ignore[attr-defined]


# -- 11: a move typed while another is on its way --------------------------------------------


def test_a_second_move_typed_too_early_is_not_lost(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "general", "svg.board", position=GENERAL)
    # both moves in one go, before any answer can come
    seen = page.evaluate(
        """() => {
          const form = document.getElementById("move-form");
          const input = document.getElementById("move-input");
          input.value = "a2-b2";
          form.requestSubmit();
          const disabled = input.disabled;
          const board = document.querySelector("svg.board").classList.contains("interactive");
          input.value = "c3-b4";
          form.requestSubmit();
          return { disabled, board, left: input.value };
        }"""
    )
    # while the first is on its way the box and the board wait, and the second stays in the box
    assert seen == {"disabled": True, "board": False, "left": "c3-b4"}
    expect(page.locator("#move-list .ply")).to_have_count(1)
    expect(page.locator("#move-input")).to_be_enabled()
    expect(page.locator("#move-input")).to_have_value("c3-b4")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply")).to_have_count(2)
    assert not page.errors  # type: ignore[attr-defined]


# -- 12: bad answers, bad messages, text that looks like HTML --------------------------------


def test_the_archive_survives_a_failed_request(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    open_game(page, server, "general", "svg.board", position=GENERAL)
    play_box(page, "a2-b2")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#share")).to_be_visible()
    archive = str(page.get_attribute("#share", "href"))
    replay = new_page()
    failures: list[str] = []

    def fail_once(route: Any) -> None:
        if not failures:
            failures.append(route.request.url)
            route.fulfill(status=503, body="busy")
        else:
            route.continue_()

    replay.route("**/api/games/*", fail_once)
    replay.goto(server.url + archive)
    expect(replay.locator("#message")).to_contain_text("Could not load", timeout=5_000)
    # it tries again and shows the game
    expect(replay.locator("#move-list .ply")).to_have_count(1, timeout=10_000)
    expect(replay.locator("#message")).to_have_text("")
    assert failures
    assert not replay.errors  # type: ignore[attr-defined]


def test_messages_that_are_not_json_and_text_that_looks_like_html(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    hostile = '"><img src=x id=injected onerror=alert(1)>'

    def relay(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                data["game"]["extra"]["gnubg"] = hostile
                data["game"]["extra"]["xgid"] = "<b id=injected2>x</b>"
            ws.send("this is not JSON {")
            ws.send(json.dumps(data))

        upstream.on_message(from_server)
        ws.on_message(lambda m: upstream.send(m))

    page.route_web_socket(re.compile(r"/ws/"), relay)
    open_game(page, server, "backgammon", "svg.backgammon", position=BG_31, ruleset="seed")
    expect(page.locator("#gnubg-id")).to_have_value(hostile)
    expect(page.locator("#xgid")).to_have_value("<b id=injected2>x</b>")
    expect(page.locator("#injected, #injected2")).to_have_count(0)
    # the page goes on working
    bg_point(page, "8")
    bg_point(page, "5")
    bg_point(page, "6")
    bg_point(page, "5")
    page.click("#turn-done")
    expect(page.locator("#move-list .ply.move").first).to_have_text("8/5* 6/5")
    assert not page.errors  # type: ignore[attr-defined]
