"""Puzzles in a real browser, in English and French, on a laptop and a phone: a puzzle solved
(the reply played by itself, the proof stepped through), a puzzle failed (the position back), a
streak of two then a failure, the daily puzzle, a backgammon cube puzzle; axe on every page.

The server serves the small sets of ``tests/puzzle_sets.py`` (real positions, legal lines).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludotheque.puzzles.model import Puzzle, read, shipped
from ludotheque.server.puzzles import catalogue as cat
from tests.browser.conftest import Server, bg_steps, shot
from tests.browser.helpers import CASES, SIZES, page_in
from tests.browser.test_accessibility import axe
from tests.puzzle_sets import write_sets
from tests.server.test_puzzles import worst

WORDS = {
    "en": {
        "solved": "Solved!",
        "failed": "Puzzle failed.",
        "over": "The streak is over: 2",
        "found": "Right: that is the whole line. The puzzle still counts as missed.",
    },
    "fr": {
        "solved": "Résolu !",
        "failed": "Problème manqué.",
        "over": "La série est finie : 2",
        "found": "Juste : c’est toute la ligne. Le problème compte tout de même comme manqué.",
    },
}


@pytest.fixture
def sets(tmp_path: Path) -> Path:
    return write_sets(tmp_path / "sets")


@pytest.fixture
def puzzle_server(tmp_path: Path, sets: Path, monkeypatch: pytest.MonkeyPatch
                  ) -> Iterator[Server]:  # fmt: skip
    monkeypatch.setenv("LUDOTHEQUE_PUZZLES_DIR", str(sets))
    server = Server(tmp_path / "app.sqlite3")
    server.start()
    yield server
    server.stop()


def puzzles(sets: Path) -> dict[str, Puzzle]:
    return {p.id: p for game in ("general", "backgammon") for p in read(sets / f"{game}.jsonl")}


def check_axe(page: Page, where: str) -> None:
    found = axe(page)
    assert not found, f"axe on {where}: {found}"


def play_general(page: Page, move: str) -> None:
    """A move of the General by clicks: its first point, then where it goes (a capture's
    pair chosen when the page asks)."""
    start, rest = move.split("-", 1)
    end = rest.split("x")[0]
    page.click(f'#board [data-point="{start}"]')
    page.click(f'#board [data-point="{end}"]')
    chooser = page.locator(f'#chooser button[data-move="{move}"]')
    if "x" in move and chooser.count():
        chooser.click()


def current(page: Page, sets: Path) -> Puzzle:
    root = page.locator("#board-root")
    expect(root).to_have_attribute("data-state", "solving")
    return puzzles(sets)[str(root.get_attribute("data-puzzle-id"))]


def solve(page: Page, puzzle: Puzzle) -> None:
    """Play the solver's moves, each after the reply before it is on the board."""
    for index, move in enumerate(puzzle.solver_moves()):
        if index:
            after = position_after(puzzle, 2 * index)
            expect(page.locator("#board-root")).to_have_attribute("data-position", after)
        play_general(page, move)


def position_after(puzzle: Puzzle, plies: int) -> str:
    state = puzzle.state()
    for move in puzzle.line[:plies]:
        state = state.play(state.parse_move(move))
    return state.position()


def wrong(puzzle: Puzzle) -> str:
    state = puzzle.state()
    right = str(state.parse_move(puzzle.line[0]))
    return next(str(m) for m in state.legal_moves() if str(m) != right and "x" not in str(m))


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_puzzles_solved_failed_streak_and_daily(
    puzzle_server: Server, sets: Path, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    server = puzzle_server
    page = page_in(new_page, server, lang, size)
    words = WORDS[lang]
    tag = f"{lang}-{size}"
    # the puzzles' page: each game, the link in the navigation, axe
    page.goto(server.url + "/")
    nav = page.locator('#site-nav a[href="/puzzles"]')
    if not nav.is_visible():
        page.click("#menu-button")
    nav.click()
    expect(page.locator("#puzzles h1")).to_be_visible()
    expect(page.locator("#guest-note")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    check_axe(page, "/puzzles")
    shot(page, f"puzzles-{tag}")

    # a puzzle solved: the reply comes by itself, then the proof steps through the line
    page.goto(server.url + "/puzzles/play?mode=puzzle&id=g00000")
    puzzle = current(page, sets)
    expect(page.locator("#status")).to_contain_text(
        "Rebels" if lang == "en" else "Rebelles")  # fmt: skip
    check_axe(page, "a puzzle")
    shot(page, f"puzzle-start-{tag}")
    solve(page, puzzle)
    expect(page.locator("#verdict")).to_have_text(words["solved"])
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solved")
    page.click("#show-proof")
    expect(page.locator("#proof-line li")).to_have_count(3)
    expect(page.locator("#proof-facts")).to_contain_text("9")
    page.click("#proof-next")
    expect(page.locator("#board-root")).to_have_attribute("data-position",
                                                          position_after(puzzle, 1))  # fmt: skip
    page.click("#proof-next")
    expect(page.locator("#board-root")).to_have_attribute("data-proof-at", "2")
    check_axe(page, "a puzzle's proof")
    shot(page, f"puzzle-proof-{tag}")

    # a puzzle failed: said, and the position comes back
    page.goto(server.url + "/puzzles/play?mode=puzzle&id=g00003")
    puzzle = current(page, sets)
    play_general(page, wrong(puzzle))
    expect(page.locator("#verdict")).to_have_text(words["failed"])
    expect(page.locator("#message")).to_contain_text(wrong(puzzle))
    expect(page.locator("#board-root")).to_have_attribute("data-position", puzzle.position)
    expect(page.locator("#show-proof")).to_be_visible()
    shot(page, f"puzzle-failed-{tag}")
    check_axe(page, "a failed puzzle")
    # the line found after all: said so, not "Solved!" (it read "Right!" alone)
    solve(page, puzzle)
    expect(page.locator("#verdict")).to_have_text(words["found"])

    # a streak: two solved, then a wrong move ends it
    page.goto(server.url + "/puzzles/play?mode=streak&game=general")
    seen = []
    for count in (1, 2):
        puzzle = current(page, sets)
        seen.append(puzzle.rating)
        solve(page, puzzle)
        expect(page.locator("#board-root")).to_have_attribute("data-streak", str(count))
        page.click("#next-puzzle")
        expect(page.locator("#board-root")).not_to_have_attribute("data-puzzle-id", puzzle.id)
    puzzle = current(page, sets)
    assert seen[0] < seen[1] < puzzle.rating
    play_general(page, wrong(puzzle))
    expect(page.locator("#board-root")).to_have_attribute("data-state", "over")
    expect(page.locator("#streak-info")).to_contain_text(words["over"])
    expect(page.locator("#next-puzzle")).to_be_visible()
    shot(page, f"puzzle-streak-over-{tag}")
    check_axe(page, "a streak's end")
    assert page.evaluate("localStorage.getItem('puzzle-streak-best-general')") == "2"
    page.goto(server.url + "/puzzles")  # the guest's best streak, said on the puzzles' page
    best = {"en": "Best streak: 2", "fr": "Meilleure série : 2"}[lang]
    expect(page.locator("#best-general")).to_have_text(best)
    expect(page.locator("#best-defiance")).to_be_hidden()

    # the daily puzzle: the same in another browser the same day
    page.goto(server.url + "/puzzles/play?mode=daily&game=general")
    puzzle = current(page, sets)
    other = page_in(new_page, server, lang, size)
    other.goto(server.url + "/puzzles/play?mode=daily&game=general")
    expect(other.locator("#board-root")).to_have_attribute("data-puzzle-id", puzzle.id)
    solve(page, puzzle)
    expect(page.locator("#verdict")).to_have_text(words["solved"])
    shot(page, f"puzzle-daily-{tag}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("fr", "desktop")])
def test_a_cube_puzzle_and_a_backgammon_play(
    puzzle_server: Server, sets: Path, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    server = puzzle_server
    page = page_in(new_page, server, lang, size)
    page.goto(server.url + "/puzzles/play?mode=puzzle&id=b09000")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    expect(page.locator('#cube-answers [data-answer="double"]')).to_be_visible()
    expect(page.locator('#cube-answers [data-answer="take"]')).to_be_hidden()
    check_axe(page, "a cube puzzle")
    shot(page, f"puzzle-cube-{lang}-{size}")
    page.click('#cube-answers [data-answer="no double"]')
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solved")
    page.click("#show-proof")
    expect(page.locator("#proof-facts")).to_contain_text("0.20" if lang == "en" else "0,20")
    shot(page, f"puzzle-cube-proof-{lang}-{size}")
    # a backgammon play by the board's own checker moves, then Done
    page.goto(server.url + "/puzzles/play?mode=puzzle&id=b00004")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    assert puzzles(sets)["b00004"].line == ("13/10 10/4",)
    check_axe(page, "a backgammon puzzle")
    shot(page, f"puzzle-backgammon-{lang}-{size}")
    bg_steps(page, ("13", "10"), ("10", "4"))
    page.click("#turn-done")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solved")
    shot(page, f"puzzle-backgammon-solved-{lang}-{size}")
    # a Defiance puzzle opens on its own board
    page.goto(server.url + "/puzzles/play?mode=play&game=defiance")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    expect(page.locator("#board svg.board")).to_be_visible()
    check_axe(page, "a Defiance puzzle")
    shot(page, f"puzzle-defiance-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), [("fr", "phone"), ("en", "desktop")])
def test_a_shipped_general_puzzle_and_its_proof(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    """A puzzle of the shipped set: its key move, then the whole proof to the rebels' win,
    with the tables' facts."""
    shipped_set = {p.id: p for p in shipped("general")}
    if "g00001" not in shipped_set:
        pytest.skip("the General's set is not built in this checkout")
    puzzle = shipped_set["g00001"]
    page = page_in(new_page, server, lang, size)
    page.goto(server.url + "/puzzles/play?mode=puzzle&id=g00001")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    play_general(page, puzzle.line[0])
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solved")
    page.click("#show-proof")
    steps = len(puzzle.facts["proof"])
    expect(page.locator("#proof-line li")).to_have_count(steps)
    wins = f"{puzzle.facts['wins_in']}"
    expect(page.locator("#proof-facts")).to_contain_text(
        f"Wins in {wins} plies, proven by the solution tables" if lang == "en"
        else f"Gagne en {wins} demi-coups, prouvé par les tables de la solution")  # fmt: skip
    page.locator("#proof-line li button").last.click()
    expect(page.locator("#board-root")).to_have_attribute("data-proof-at", str(steps))
    check_axe(page, "a shipped puzzle's proof")
    shot(page, f"puzzle-shipped-proof-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("fr", "desktop")])
def test_signed_in_a_rated_puzzle_and_the_mistakes_page(
    puzzle_server: Server, sets: Path, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    """Signed in: a first answer moves the puzzle rating, shown on the page and on
    ``/puzzles``; the mistakes page (none yet) passes axe."""
    server = puzzle_server
    page = page_in(new_page, server, lang, size)
    page.goto(server.url + "/signup")
    page.fill("#username", f"solver{lang}")
    page.fill("#password", "a fine long password")
    page.click("#signup-submit")
    page.wait_for_url("**/lobby")
    page.goto(server.url + "/puzzles/play?mode=play&game=general")
    puzzle = current(page, sets)
    expect(page.locator("#rated-note")).to_have_text(
        "Rated: your first answer counts." if lang == "en"
        else "Classé : votre première réponse compte.")  # fmt: skip
    before = page.locator("#puzzle-info").inner_text()
    solve(page, puzzle)
    expect(page.locator("#rated-note")).to_contain_text("(+")
    expect(page.locator("#rated-note")).to_contain_text("?")  # provisional, as /puzzles says
    expect(page.locator("#puzzle-info")).not_to_have_text(before)  # the puzzle is rated too
    shot(page, f"puzzle-rated-{lang}-{size}")
    page.goto(server.url + "/puzzles")
    expect(page.locator("#rating-general")).not_to_contain_text("1500")
    check_axe(page, "/puzzles signed in")
    page.goto(server.url + "/puzzles/mistakes")
    expect(page.locator("#mistakes-none")).to_be_visible()
    check_axe(page, "/puzzles/mistakes")
    shot(page, f"puzzle-mistakes-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


def test_your_mistakes_listed_and_replayed(
    puzzle_server: Server, new_page: Callable[..., Page]
) -> None:
    """A signed-in player's backgammon game against the computer, played badly on purpose
    through the API, resigned and analysed: the mistakes page lists its errors (both languages,
    both sizes, axe) and one opens as a puzzle on the board."""
    server = puzzle_server
    page = page_in(new_page, server, "en", "desktop")
    page.goto(server.url + "/signup")
    page.fill("#username", "blunderer")
    page.fill("#password", "a fine long password")
    page.click("#signup-submit")
    page.wait_for_url("**/lobby")
    csrf = str(page.locator('meta[name="csrf-token"]').get_attribute("content"))
    headers = {"X-CSRF-Token": csrf, "content-type": "application/json"}
    created = page.request.post(server.url + "/api/games", headers=headers, data={
        "game": "backgammon", "ruleset": "standard", "mode": "computer", "level": "easy",
        "side": "white"}).json()  # fmt: skip
    seat = page.request.get(server.url + f"/resume/{created['id']}", max_redirects=0)
    token = str(seat.headers["location"]).rsplit("/", 1)[1]
    deadline = time.monotonic() + 120
    plays = 0
    while plays < 6 and time.monotonic() < deadline:
        state = page.request.get(server.url + f"/api/play/{token}").json()
        if state.get("outcome"):
            break
        if state["to_move"] != "white" or not state["legal"]:
            time.sleep(0.2)
            continue
        done = page.request.post(server.url + f"/api/play/{token}/move", headers=headers,
                                 data={"move": worst(state), "ply": state["ply"]})  # fmt: skip
        assert done.ok, done.text()
        plays += 1
    resigned = page.request.post(server.url + f"/api/play/{token}/resign", headers=headers,
                                 data={})  # fmt: skip
    assert resigned.ok or resigned.status == 409, resigned.text()
    assert page.request.get(server.url + f"/api/play/{token}").json().get("outcome")
    url = server.url + f"/api/games/{created['id']}/analysis"
    asked = page.request.post(url, headers=headers, data={"strength": "quick"})
    assert asked.ok, asked.text()
    while (analysis := page.request.get(url + "?strength=quick").json())["status"] not in (
        "done", "failed"):  # fmt: skip
        assert time.monotonic() < deadline + 120, analysis
        time.sleep(0.3)
    assert analysis["status"] == "done", analysis
    labels = [(d["side"], d["label"]) for d in analysis["analysis"]["decisions"]]
    mine = page.request.get(server.url + "/api/puzzles/mistakes").json()
    assert mine, (plays, labels)
    for lang, size in CASES:
        page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
        page.set_viewport_size({"width": SIZES[size]["width"], "height": SIZES[size]["height"]})
        page.goto(server.url + "/puzzles/mistakes")
        expect(page.locator("#mistake-list li").first).to_be_visible()
        check_axe(page, f"/puzzles/mistakes {lang} {size}")
        shot(page, f"puzzle-mistakes-list-{lang}-{size}")
    page.locator("#mistake-list li a").first.click()
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    expect(page.locator("#puzzle-title")).to_have_text("Votre erreur")
    check_axe(page, "a mistake's puzzle")
    shot(page, "puzzle-mistake-fr-phone")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), [("fr", "phone"), ("en", "desktop")])
def test_a_shipped_backgammon_take_and_a_play(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    """The shipped backgammon set: a take answered with the cube's buttons, the search's
    facts said; a play of the set opens with its dice on the board."""
    shipped_set = {p.id: p for p in shipped("backgammon")}
    takes = [p for p in shipped_set.values() if p.line == ("take",)]
    if not takes:
        pytest.skip("the backgammon set is not built in this checkout")
    page = page_in(new_page, server, lang, size)
    page.goto(server.url + f"/puzzles/play?mode=puzzle&id={takes[0].id}")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    expect(page.locator('#cube-answers [data-answer="double"]')).to_be_hidden()
    check_axe(page, "a shipped take")
    page.click('#cube-answers [data-answer="take"]')
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solved")
    page.click("#show-proof")
    expect(page.locator("#proof-facts")).to_contain_text(
        "checked two rolls ahead" if lang == "en" else "vérifié deux lancers plus loin"
    )
    shot(page, f"puzzle-shipped-take-{lang}-{size}")
    play = next(p for p in shipped_set.values() if p.line[0] not in cat.CUBE_ACTIONS)
    page.goto(server.url + f"/puzzles/play?mode=puzzle&id={play.id}")
    expect(page.locator("#board-root")).to_have_attribute("data-state", "solving")
    expect(page.locator("svg.backgammon .die")).to_have_count(2)
    check_axe(page, "a shipped backgammon play")
    shot(page, f"puzzle-shipped-play-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]
