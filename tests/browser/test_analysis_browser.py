"""The analysis in a real browser: a finished game analysed (progress, the marks of the move
list with the better moves, the chart and its jumps, the summary), the next visitor served at
once; hints at one screen and none between friends; the analysis board (moves played on it,
the engine's lines, the link, backgammon's dice); axe-core on each, in English and French, at
desktop and phone sizes."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

import ludotheque
from tests.browser.conftest import Server, shot
from tests.browser.helpers import LOCALES, api, violations
from tests.browser.helpers import page_in as page_at

# a short General game with errors, then resigned: from 8 rebels (the solution knows every
# position: from the start every move keeps the rebels' win, no error), the rebels give the win
# away (??), so does the general (??), then the rebels win 5 plies slower than they could (?!)
START = "c2 b2,b4,c1,d1,d3,d4,e1,e3 r 0"
MOVES = ["d4-c4", "c2-d2xc1e3", "b2-a1", "d2-c2", "d3-d4", "c2-b2"]
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
THINK = 30_000  # ms for the engine's answers on a busy machine


def finished_game(server: Server) -> str:
    created = api(server, "/api/games", {"game": "general", "position": START})
    token = created["seats"]["both"].rsplit("/", 1)[1]
    for ply, move in enumerate(MOVES):
        api(server, f"/api/play/{token}/move", {"move": move, "ply": ply})
    api(server, f"/api/play/{token}/resign", {})
    return str(created["id"])


def page_in(new_page: Callable[..., Page], server: Server, lang: str, size: str) -> Page:
    return page_at(new_page, server, lang, size, SIZES)  # this file's desktop is 1280×900


def test_a_finished_game_analysed_marked_charted_and_kept(
    server: Server, new_page: Callable[..., Page]
) -> None:
    game_id = finished_game(server)
    page = page_in(new_page, server, "en", "desktop")
    page.goto(f"{server.url}/archive/{game_id}")
    expect(page.locator("#analysis")).to_be_visible()
    expect(page.locator("#analysis-result")).to_be_hidden()
    page.select_option("#analysis-strength", "quick")
    page.click("#analyse")
    # the progress is shown while it runs (or the result, if it was quicker than a look)
    expect(page.locator("#analysis-status")).to_have_text(
        re.compile(
            r"Waiting for the engine|Analysis \(quick\)|Analysing: \d+% \(\d+ of 6 plies\) — "
            r"(about \d+ (second|minute)s? left|estimating the time left…)"
        )
    )
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=90_000)
    data = api(server, f"/api/games/{game_id}/analysis?strength=quick")["analysis"]
    errors = [d for d in data["decisions"] if d["label"]]
    assert errors, "the game was chosen for its errors"
    # the marks: one beside each error, its symbol, and the better move beside it
    marks = page.locator("#move-list .ply .mark")
    expect(marks).to_have_count(len(errors))
    for d in errors:
        cell = page.locator(f'#move-list .ply[data-ply="{d["ply"] + 1}"]')
        expect(cell.locator(".mark")).to_contain_text(d["symbol"])
        better = d["best"][0]["move"]
        if better != d["played"]["move"]:
            expect(cell.locator(".better")).to_have_text(f"better {better}")
    # the proven results, never a percentage: what each error cost
    assert [d["label"] for d in errors] == ["blunder", "blunder", "inaccuracy"]
    page.click('#move-list .ply[data-ply="3"] button')
    expect(page.locator("#analysis-comment")).to_contain_text(
        "Rebels played b2-a1 (the rebels win in 16) — inaccuracy ?!, a win 10 plies slower than "
        "the fastest — best: b2-c3 (the rebels win in 11)"
    )
    expect(page.locator("#analysis-comment")).not_to_contain_text("%")
    expect(page.locator("#analysis-errors")).to_contain_text("the win given away")
    # the chart: who wins with best play, both sides, every error marked
    expect(page.locator("#analysis-chart-title")).to_have_text(
        "Who wins with best play across the game"
    )
    chart = page.locator("svg.analysis-chart")
    expect(chart).to_have_attribute("aria-label", re.compile(
        "Who wins with best play across the game: the rebels win in 18 at the start"
    ))  # fmt: skip
    expect(chart.locator("path.line")).to_have_count(2)
    expect(chart.locator("circle.error")).to_have_count(len(errors))
    expect(page.locator(".analysis-summary tbody tr")).to_have_count(2)
    shot(page, "analysis-game-en-desktop")
    # a click on an error's mark goes to that move
    target = errors[-1]["ply"] + 1
    chart.locator(f'circle.error[data-ply="{target}"]').click()
    expect(page.locator("#step-info")).to_have_text(f"Move {target} of {len(MOVES)}")
    expect(page.locator(f'#move-list .ply[data-ply="{target}"]')).to_have_class(
        re.compile("current")
    )
    expect(page.locator("#analysis-comment")).to_contain_text(errors[-1]["played"]["move"])
    # so does a click on the chart itself (the start, at its left edge), and an error's button
    box = chart.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] * 0.07, box["y"] + box["height"] / 2)
    expect(page.locator("#step-info")).to_have_text(f"Move 0 of {len(MOVES)}")
    first = errors[0]["ply"] + 1
    page.click(f'#analysis-errors button[data-ply="{first}"]')
    expect(page.locator("#step-info")).to_have_text(f"Move {first} of {len(MOVES)}")
    # the step view's link opens that position on the analysis board
    link = page.locator("#analysis-board-link")
    expect(link).to_have_attribute("href", re.compile(r"^/analysis\?game=general&"))
    position = page.locator("svg.board").get_attribute("data-shown-position") or ""
    assert urllib.parse.quote(position) in (link.get_attribute("href") or "")
    assert not page.errors  # type: ignore[attr-defined]
    # the next visitor gets the analysis at once, in any language and size, and axe is happy
    found: list[str] = []
    for lang in LOCALES:
        for size in SIZES:
            other = page_in(new_page, server, lang, size)
            other.goto(f"{server.url}/archive/{game_id}")
            expect(other.locator("#analysis")).to_have_attribute("data-status", "done")
            expect(other.locator("#move-list .ply .mark")).to_have_count(len(errors))
            other.locator(f'#move-list .ply[data-ply="{first}"] button').click()
            shot(other, f"analysis-game-{lang}-{size}")
            found += violations(other, f"analysed game {lang} {size}")
            assert not other.errors  # type: ignore[attr-defined]
            other.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


def test_hints_where_fair_and_the_analysis_board(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = page_in(new_page, server, "en", "desktop")
    local = api(server, "/api/games", {"game": "general"})
    page.goto(server.url + local["seats"]["both"])
    page.wait_for_selector("svg.board[data-position]")
    expect(page.locator("#hints")).to_be_visible()
    page.click("#hints-toggle")
    expect(page.locator("#hints-toggle")).to_have_attribute("aria-pressed", "true")
    lines = page.locator("#hints-body .engine-lines li")
    expect(lines).to_have_count(3, timeout=THINK)  # the first asks start the engine's process
    # the start is proven: the values are the rebels' win and its distance, never a percentage
    expect(lines.first).to_contain_text("the rebels win in 19")
    expect(page.locator("#hints-body")).not_to_contain_text("%")
    shot(page, "analysis-hints-en-desktop")
    found = violations(page, "hints")
    chosen = lines.first.get_attribute("data-move")
    lines.first.locator("button").click()  # a hint is a button that plays it
    expect(page.locator("#move-list .ply")).to_have_count(1)
    expect(page.locator('#move-list .ply[data-ply="1"] button')).to_contain_text(str(chosen)[:5])
    expect(lines).to_have_count(3, timeout=THINK)  # the other side's hints, for the next move
    # between friends, never
    friend = api(server, "/api/games", {"game": "general", "mode": "friend"})
    page.goto(server.url + next(iter(friend["seats"].values())))
    page.wait_for_selector("svg.board[data-position]")
    expect(page.locator("#hints")).to_be_hidden()
    expect(page.locator("#hints-toggle")).to_have_count(1)
    # the analysis board: lines, a move played from them, the link that opens it again
    for lang in LOCALES:
        for size in SIZES:
            board = page_in(new_page, server, lang, size)
            board.goto(f"{server.url}/analysis?game=general")
            expect(board.locator("#board-root")).to_have_attribute(
                "data-lines", "ready", timeout=THINK
            )
            expect(board.locator("#lines .engine-lines li")).to_have_count(3)
            shot(board, f"analysis-board-{lang}-{size}")
            found += violations(board, f"analysis board {lang} {size}")
            board.close()
    board = page_in(new_page, server, "en", "desktop")
    board.goto(f"{server.url}/analysis?game=general")
    expect(board.locator("#board-root")).to_have_attribute("data-lines", "ready", timeout=THINK)
    start = board.locator("#board-root").get_attribute("data-position")
    board.locator("#lines .engine-lines button").first.click()
    expect(board.locator("#move-list li")).to_have_count(1)
    expect(board.locator("#board-root")).not_to_have_attribute("data-position", str(start))
    expect(board.locator("#board-root")).to_have_attribute("data-lines", "ready", timeout=THINK)
    expect(board.locator("#status")).to_have_text("General to move")
    # a move on the board itself: the general steps to an empty point next to him
    board.fill("#move-input", "c3-c4")
    board.click("#move-submit")
    expect(board.locator("#move-list li")).to_have_count(2)
    after = str(board.locator("#board-root").get_attribute("data-position"))
    address = board.url
    assert "position=" in address
    reopened = page_in(new_page, server, "en", "desktop")
    reopened.goto(address)
    expect(reopened.locator("#board-root")).to_have_attribute("data-position", after)
    expect(reopened.locator("svg.board")).to_have_attribute("data-position", after)
    board.click("#back")
    expect(board.locator("#status")).to_have_text("General to move")
    # Home and End: the line's start and its end
    board.keyboard.press("Home")
    expect(board.locator("#board-root")).to_have_attribute("data-position", str(start))
    board.keyboard.press("End")
    expect(board.locator("#board-root")).to_have_attribute("data-position", after)
    # backgammon: the dice are entered, then the best plays come
    board.goto(f"{server.url}/analysis?game=backgammon&ruleset=standard")
    expect(board.locator("#rolls")).to_be_visible()
    found += violations(board, "analysis board backgammon dice")
    board.select_option("#die-1", "3")  # the opening: White's die, then Black's
    board.select_option("#die-2", "1")
    board.click("#set-roll")
    expect(board.locator("#board-root")).to_have_attribute("data-lines", "ready", timeout=THINK)
    expect(board.locator("#lines .engine-lines li").first).to_contain_text("8/5 6/5")
    shot(board, "analysis-board-backgammon-en-desktop")
    found += violations(board, "analysis board backgammon")
    for p in (page, board, reopened):
        assert not p.errors  # type: ignore[attr-defined]
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


BOARDS = {
    "general": ("general", None, None),
    "backgammon": ("backgammon", "standard", "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"),
    "defiance": ("defiance", "8x8", None),
}


def test_the_hints_are_drawn_on_the_board_of_every_game(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """The "Best moves" switch draws the three moves of its list on the board, numbered 1-3 as
    in the list (the values are there); switched off, the marks go."""
    page = page_in(new_page, server, "en", "desktop")
    for name, (game, ruleset, position) in BOARDS.items():
        body: dict[str, Any] = {"game": game}
        if ruleset:
            body["ruleset"] = ruleset
        if position:
            body["position"] = position
        local = api(server, "/api/games", body)
        page.goto(server.url + local["seats"]["both"])
        page.wait_for_selector("svg.board[data-position]")
        layer = page.locator("svg.board .hint-marks")
        if name != "general":  # the switch stays as the game before left it: on
            expect(page.locator("#hints-toggle")).to_have_attribute("aria-pressed", "true")
            expect(layer).to_have_attribute("data-hints", "3", timeout=THINK)
            page.click("#hints-toggle")
        expect(layer).to_have_attribute("data-hints", "0")
        page.click("#hints-toggle")
        lines = page.locator("#hints-body .engine-lines li")
        expect(lines).to_have_count(3, timeout=THINK)
        expect(layer).to_have_attribute("data-hints", "3")
        for rank in (1, 2, 3):
            expect(layer.locator(f'.hint-badge[data-rank="{rank}"]').first).to_be_visible()
            expect(layer.locator(f"path.hint-line.hint-{rank}").first).to_be_attached()
        if name == "backgammon":
            # the best play of 31 at the start makes the five point: two arrows numbered 1
            expect(lines.first).to_contain_text("8/5 6/5")
            expect(layer.locator('.hint-badge[data-rank="1"]')).to_have_count(2)
            # half the turn played the hint's way: only its other half is still drawn; a
            # step off every hinted play leaves none of them
            page.click('svg.backgammon g.pt[data-point="8"]')
            page.click('svg.backgammon g.pt[data-point="5"]')
            expect(layer.locator('.hint-badge[data-rank="1"]')).to_have_count(1)
            page.click("#turn-undo")
            expect(layer.locator('.hint-badge[data-rank="1"]')).to_have_count(2)
        shot(page, f"hints-on-board-{name}-en-desktop")
        page.click("#hints-toggle")
        expect(page.locator("#hints-toggle")).to_have_attribute("aria-pressed", "false")
        expect(layer).to_have_attribute("data-hints", "0")
        expect(layer.locator(".hint-badge")).to_have_count(0)
        expect(layer.locator(".hint-line")).to_have_count(0)
        # on again: the marks come back; a move played takes them to the next position's
        page.click("#hints-toggle")
        expect(layer).to_have_attribute("data-hints", "3", timeout=THINK)
        if name == "general":
            lines.first.locator("button").click()
            expect(page.locator("#move-list .ply")).to_have_count(1)
            expect(layer).to_have_attribute("data-hints", "3", timeout=THINK)
            board = page.locator("svg.board")
            live = board.get_attribute("data-position")
            assert board.get_attribute("data-shown-position") == live
    assert not page.errors  # type: ignore[attr-defined]


# the rebels lead (73%) and go round a circle of four positions; their fourth move repeats the
# position the game started from a third time: a draw, which the analysis says in words
AHEAD = "d4 a1,a2,a5,b2,b3,b4,c1,c2,c5,d1,d5,e1,e4,e5 r 1"
CIRCLE = ["a5-a4", "d4-c3", "a4-a5", "c3-d4"]
DRAW_WORDS = {
    "en": "this move repeats the position a third time: a draw in a winning position",
    "fr": "ce coup répète la position une troisième fois : nulle dans une position gagnante",
}


def test_a_winning_position_given_away_for_a_draw_is_said(
    server: Server, new_page: Callable[..., Page]
) -> None:
    start = ludotheque.load("general").parse_position(AHEAD).play(CIRCLE[0]).position()
    created = api(server, "/api/games", {"game": "general", "position": start})
    token = created["seats"]["both"].rsplit("/", 1)[1]
    for ply, move in enumerate([*CIRCLE[1:], *CIRCLE, CIRCLE[0]]):
        api(server, f"/api/play/{token}/move", {"move": move, "ply": ply})
    game_id = str(created["id"])
    asked = api(server, f"/api/games/{game_id}/analysis", {"strength": "quick"})
    assert asked["status"] in ("queued", "running", "done")
    found: list[str] = []
    for lang in LOCALES:
        for size in SIZES:
            page = page_in(new_page, server, lang, size)
            page.goto(f"{server.url}/archive/{game_id}")
            expect(page.locator("#analysis")).to_have_attribute(
                "data-status", "done", timeout=90_000
            )
            cell = page.locator('#move-list .ply[data-ply="8"]')
            expect(cell.locator(".mark")).to_have_count(1)  # the draw is an error
            cell.locator("button").click()
            expect(page.locator("#analysis-comment")).to_contain_text(DRAW_WORDS[lang])
            shot(page, f"analysis-draw-{lang}-{size}")
            found += violations(page, f"drawn game {lang} {size}")
            assert not page.errors  # type: ignore[attr-defined]
            page.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)
