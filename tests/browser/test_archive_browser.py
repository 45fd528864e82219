"""The archive and the review in a real browser (Chromium), in English and French, at desktop
(1366×768) and phone (390×844) sizes, axe-core on every page: a match's games under their
heading with the points and the score, the filters (a plain form whose values stay in the
address), the replay page naming its players and going to the start and the end with Home and
End, the review keeping the board in view and drawing the better move, and the analysis's
progress said as a percentage with the time left."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.helpers import LOCALES, SIZES, api, page_in, violations

# a short General game with errors at the quick strength, then resigned
MOVES = ["a3-b2", "c3-d2", "a2-a3", "d2-d3", "b2-b3", "d3-d2"]


def token(url: str) -> str:
    return url.rsplit("/", 1)[1]


def move(server: Server, seat: str, text: str) -> dict[str, Any]:
    ply = api(server, f"/api/play/{seat}")["ply"]
    return dict(api(server, f"/api/play/{seat}/move", {"move": text, "ply": ply}))


def match_of_two_games(server: Server) -> list[str]:
    """A 3-point match at one screen: a gammon resigned, then a single game (3-0)."""
    created = api(server, "/api/games", {"game": "backgammon", "ruleset": "match",
                                         "mode": "local", "length": 3})  # fmt: skip
    seat = token(created["seats"]["both"])
    move(server, seat, "resign gammon")
    first = move(server, seat, "accept")
    winner = first["outcome"]["winner"]
    seat = token(api(server, f"/api/play/{seat}/rematch", {})["url"])
    state = api(server, f"/api/play/{seat}")
    if state["to_move"] == winner:  # the loser offers, on its own turn
        move(server, seat, state["legal"][0])
    move(server, seat, "resign single")
    second = move(server, seat, "accept")
    return [first["id"], second["id"]]


def general_game(server: Server, moves: list[str] = MOVES, **spec: Any) -> tuple[str, str]:
    """A finished General game: ``moves`` at one screen, or resigned at once against the
    computer; its id and a seat's token."""
    created = api(server, "/api/games", {"game": "general", **spec})
    seat = token(next(iter(created["seats"].values())))
    if spec.get("mode", "local") == "local":
        for ply, text in enumerate(moves):
            api(server, f"/api/play/{seat}/move", {"move": text, "ply": ply})
    api(server, f"/api/play/{seat}/resign", {})
    return str(created["id"]), seat


def test_the_archive_groups_a_match_and_filters_by_a_plain_form(
    server: Server, new_page: Callable[..., Page]
) -> None:
    first, second = match_of_two_games(server)
    general, _ = general_game(server)
    found: list[str] = []
    words = {
        "en": ("Game 1", "Game 2", "Match to 3 points", "resignation (a gammon)", "Filter"),
        "fr": ("Partie 1", "Partie 2", "Match en 3 points", "abandon (un gammon)", "Filtrer"),
    }
    for lang in LOCALES:
        one, two, title, gammon, button = words[lang]
        for size in SIZES:
            page = page_in(new_page, server, lang, size)
            page.goto(f"{server.url}/archive")
            group = page.locator("tbody.match")
            expect(group).to_have_count(1)
            rows = group.locator("tr[data-game-id]")
            expect(rows).to_have_count(2)
            expect(rows.nth(0)).to_have_attribute("data-game-id", first)
            expect(rows.nth(0)).to_contain_text(one)
            expect(rows.nth(0)).to_contain_text(gammon)
            expect(rows.nth(1)).to_have_attribute("data-game-id", second)
            expect(rows.nth(1)).to_contain_text(two)
            expect(group.locator("tr.match-head")).to_contain_text(title)
            expect(page.locator(f'tr[data-game-id="{general}"]')).to_be_visible()
            shot(page, f"archive-{lang}-{size}")
            found += violations(page, f"archive {lang} {size}")
            # the filters: a GET form, its values in the address and kept in the page
            page.select_option("#filter-game", "backgammon")
            page.get_by_role("button", name=button).click()
            expect(page).to_have_url(re.compile(r"/archive\?game=backgammon&player=&result="))
            expect(page.locator("tr[data-game-id]")).to_have_count(2)
            expect(page.locator("#filter-game")).to_have_value("backgammon")
            page.fill("#filter-player", "nobody")
            page.select_option("#filter-result", "gammon")
            page.get_by_role("button", name=button).click()
            expect(page).to_have_url(re.compile(r"player=nobody&result=gammon"))
            expect(page.locator("#archive-empty")).to_be_visible()
            expect(page.locator("#filter-player")).to_have_value("nobody")
            shot(page, f"archive-filtered-{lang}-{size}")
            found += violations(page, f"archive filtered {lang} {size}")
            page.goto(f"{server.url}/archive?result=gammon")
            expect(page.locator("tr[data-game-id]")).to_have_count(1)
            assert not page.errors  # type: ignore[attr-defined]
            page.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


def test_the_replay_names_its_players_and_goes_to_the_start_and_end_with_home_and_end(
    server: Server, new_page: Callable[..., Page]
) -> None:
    computer, _ = general_game(server, mode="computer", level="easy", side="general")
    local, _ = general_game(server)
    names = {"en": ("Computer (easy)", "Guest"), "fr": ("Ordinateur (facile)", "Invité")}
    steps = {"en": "Move {n} of 6", "fr": "Coup {n} sur 6"}
    found: list[str] = []
    for lang in LOCALES:
        level, guest = names[lang]
        for size in SIZES:
            page = page_in(new_page, server, lang, size)
            page.goto(f"{server.url}/archive/{computer}")
            strips = page.locator(".player-strip")
            expect(strips).to_have_count(2)
            expect(page.locator(".player-strip .name")).to_have_text(
                [re.compile(f"^({re.escape(level)}|{guest})$")] * 2
            )
            expect(page.locator(".player-strip", has_text=level)).to_have_count(1)
            expect(page.locator(".player-strip", has_text=guest)).to_have_count(1)
            found += violations(page, f"replay {lang} {size}")
            page.goto(f"{server.url}/archive/{local}")
            expect(page.locator(".player-strip .name")).to_have_text([guest, guest])
            info = page.locator("#step-info")
            expect(info).to_have_text(steps[lang].format(n=0))  # a replay starts at the start
            scrolled = page.evaluate("window.scrollY")
            page.keyboard.press("End")
            expect(info).to_have_text(steps[lang].format(n=6))
            page.keyboard.press("ArrowLeft")
            expect(info).to_have_text(steps[lang].format(n=5))
            page.keyboard.press("Home")
            expect(info).to_have_text(steps[lang].format(n=0))
            assert page.evaluate("window.scrollY") == scrolled  # the keys move the game only
            shot(page, f"replay-{lang}-{size}")
            assert not page.errors  # type: ignore[attr-defined]
            page.close()
    # typing in an input, Home and End stay the input's
    page = page_in(new_page, server, "en", "desktop")
    created = api(server, "/api/games", {"game": "general"})
    live = token(created["seats"]["both"])
    for ply, text in enumerate(MOVES[:2]):
        api(server, f"/api/play/{live}/move", {"move": text, "ply": ply})
    page.goto(f"{server.url}/play/{live}")
    board = page.locator("svg.board")
    expect(board).to_have_attribute("data-shown-position", re.compile("."))
    before = board.get_attribute("data-shown-position")
    page.fill("#move-input", "a4-b4")
    page.keyboard.press("Home")
    page.keyboard.press("End")
    expect(page.locator("#move-input")).to_have_value("a4-b4")
    assert board.get_attribute("data-shown-position") == before
    page.locator("h1").click()
    page.keyboard.press("Home")
    expect(page.locator("#step-info")).to_have_text("Move 0 of 2")
    assert not page.errors  # type: ignore[attr-defined]
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


GIVEN_AWAY = "b4 a1,a3,b1,b3,c2,c4,d2,e5 g 0"
"""The general wins in 5 plies (the solved tables); b4-a4 gives the win away: a proven error
(from the start every rebels' move keeps their proven win, and no move is an error)."""


def analysed(server: Server) -> tuple[str, list[dict[str, Any]]]:
    game_id, _ = general_game(server, ["b4-a4"], position=GIVEN_AWAY)
    api(server, f"/api/games/{game_id}/analysis", {"strength": "quick"})
    for _ in range(300):
        view = api(server, f"/api/games/{game_id}/analysis?strength=quick")
        if view["status"] == "done":
            return game_id, [d for d in view["analysis"]["decisions"] if d["label"]]
        assert view["status"] in ("queued", "running"), view
        time.sleep(0.3)
    raise AssertionError("the analysis did not finish")


def board_in_view(page: Page) -> float:
    """How much of the board is inside the window (0 to 1)."""
    return float(
        page.evaluate(
            """() => { const r = document.getElementById('board').getBoundingClientRect();
                 const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
                 return Math.max(0, seen) / Math.min(r.height, innerHeight); }"""
        )
    )


def test_the_review_keeps_the_board_in_view_and_draws_the_better_move(
    server: Server, new_page: Callable[..., Page]
) -> None:
    game_id, errors = analysed(server)
    better = [d for d in errors if d["best"][0]["move"] != d["played"]["move"]]
    assert better, "the game was chosen for its errors"
    d = better[-1]
    found: list[str] = []
    for lang in LOCALES:
        for size in SIZES:
            page = page_in(new_page, server, lang, size)
            page.goto(f"{server.url}/archive/{game_id}")
            expect(page.locator("#analysis")).to_have_attribute("data-status", "done")
            hints = page.locator("svg.board .hint-marks")
            expect(hints).to_have_attribute("data-hints", "0")  # the end: no error shown
            button = page.locator(f'#analysis-errors button[data-ply="{d["ply"] + 1}"]')
            button.scroll_into_view_if_needed()
            button.click()
            expect(page.locator("svg.board")).to_have_attribute(
                "data-shown-position", re.compile(".")
            )
            expect(hints).to_have_attribute("data-hints", "1")
            expect(hints.locator("path.hint-line")).to_have_count(1)
            assert board_in_view(page) >= 0.5, f"{lang} {size}: the board went out of view"
            shot(page, f"review-{lang}-{size}")
            found += violations(page, f"review {lang} {size}")
            # elsewhere in the game, the arrow goes; back on the error, it is drawn again
            page.keyboard.press("Home")
            expect(page.locator("#step-info")).to_have_text(re.compile(r"\b0\b"))
            expect(hints).to_have_attribute("data-hints", "0")
            for _ in range(d["ply"] + 1):
                page.keyboard.press("ArrowRight")
            expect(hints).to_have_attribute("data-hints", "1")
            assert not page.errors  # type: ignore[attr-defined]
            page.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)


def test_the_progress_says_a_percentage_and_the_time_left(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """The words of a running analysis, from the page's own code (a real analysis is too quick
    to watch here): how far it is, and the time left at the pace seen so far."""
    script = """([view, pace, now]) => import('/static/analysis-panel.js')
                  .then((m) => m.progressText(view, pace, now))"""
    expected = {
        "en": ["Analysing: 20% (9 of 45 plies) — about 36 seconds left",
               "Analysing: 0% (0 of 45 plies) — estimating the time left…",
               "Analysing: 2% (1 of 45 plies) — about 7 minutes left"],
        "fr": ["Analyse : 20\u202f% (9 sur 45 demi-coups) — environ 36 secondes restantes",
               "Analyse : 0\u202f% (0 sur 45 demi-coups) — estimation du temps restant…",
               "Analyse : 2\u202f% (1 sur 45 demi-coups) — environ 7 minutes restantes"],
    }  # fmt: skip
    for lang, texts in expected.items():
        page = page_in(new_page, server, lang, "desktop")
        page.goto(f"{server.url}/")
        cases = [
            ({"done": 9, "total": 45}, {"at": 1000, "done": 0}, 10_000),  # 1 ply a second
            ({"done": 0, "total": 45}, {"at": 1000, "done": 0}, 10_000),  # none done yet
            ({"done": 1, "total": 45}, {"at": 0, "done": 0}, 10_000),  # 10 s a ply
        ]
        for (view, pace, now), text in zip(cases, texts, strict=True):
            assert page.evaluate(script, [view, pace, now]) == text
        page.close()


def test_the_replay_shows_the_clocks_as_they_stood(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A game on a clock, replayed: at the start both clocks are full, after the rebels' slow
    move theirs is lower, and at the end the clocks are as the game ended. The replay used to
    open at move 0 with the final clocks."""
    created = api(server, "/api/games", {"game": "general", "mode": "friend", "control": "1+0"})
    seats = {side: token(url) for side, url in created["seats"].items()}
    for ply, (side, text) in enumerate([("rebels", "a2-b2"), ("general", "c3-b4"),
                                        ("rebels", "a1-a2")]):  # fmt: skip
        if ply == 2:
            time.sleep(2.2)  # the rebels think: their clock runs (first moves are free)
        api(server, f"/api/play/{seats[side]}/move", {"move": text, "ply": ply})
    api(server, f"/api/play/{seats['general']}/resign", {})
    for lang in LOCALES:
        page = page_in(new_page, server, lang, "desktop")
        page.goto(f"{server.url}/archive/{created['id']}")
        rebels = page.locator('.player-strip .clock[data-side="rebels"]')
        general = page.locator('.player-strip .clock[data-side="general"]')
        expect(page.locator("#step-info")).to_have_text(re.compile("0"))
        expect(rebels).to_have_text("1:00")  # the start: both clocks full
        expect(general).to_have_text("1:00")
        page.keyboard.press("End")
        expect(rebels).to_have_text(re.compile(r"^0:5[6-8]$"))
        page.keyboard.press("ArrowLeft")  # before the rebels' slow move
        expect(rebels).to_have_text("1:00")
        page.keyboard.press("End")
        expect(rebels).to_have_text(re.compile(r"^0:5[6-8]$"))
        expect(general).to_have_text(re.compile(r"^(1:00|0:59)$"))
        shot(page, f"replay-clocks-{lang}")
        assert not page.errors  # type: ignore[attr-defined]
        page.close()
