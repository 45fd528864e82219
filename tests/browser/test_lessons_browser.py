"""The lessons in a real browser: each game's course from its first step to its last, in
English and French on a desktop and once on a phone, each move made on the game's own board;
a wrong move answered with why it misses and the position set back, a refused one with the
engine's words, a hint shown; the progress a guest's browser keeps, and an account's; axe on
the new pages and the rules pages that link to them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from ludotheque.lessons import COURSES
from tests.browser.conftest import Server, shot
from tests.browser.helpers import LOCALES, SIZES, in_language
from tests.browser.test_accessibility import KNOWN, axe

SOLVED = {"en": "Well played.", "fr": "Bien joué."}
FINISHED = {"en": "Course complete", "fr": "Cours terminé"}
MISSED = {"en": "Not quite", "fr": "Pas tout à fait"}
REFUSED = {"en": "The engine refuses this move", "fr": "Le moteur refuse ce coup"}
PROGRESS = {"en": "{n} of {total} steps done", "fr": "Étapes faites : {n} sur {total}"}


def open_lesson(page: Page, server: Server, game: str, lang: str, step: str = "") -> None:
    in_language(page, server, lang)
    page.goto(f"{server.url}/learn/{game}" + (f"?step={step}" if step else ""))
    expect(page.locator("#lesson-root")).to_have_attribute("data-position", COURSES[game].steps[
        0 if not step else COURSES[game].ids.index(step)].position)  # fmt: skip


def no_violations(page: Page, name: str) -> None:
    found = [v for v in axe(page) if (name, v["id"]) not in KNOWN]
    assert not found, f"{name}: {found}"


def solved(page: Page, lang: str) -> None:
    expect(page.locator("#lesson-root")).to_have_attribute("data-solved", "1")
    expect(page.locator("#verdict")).to_contain_text(SOLVED[lang])


def next_step(page: Page, step: str) -> None:
    page.click("#next")
    expect(page.locator("#lesson-root")).to_have_attribute("data-step", step)


# -- each game's moves, made on its board ------------------------------------------------------


def general_move(page: Page, *points: str) -> None:
    for name in points:
        page.click(f'#board [data-point="{name}"]')


def general_course(page: Page, lang: str) -> None:
    general_move(page, "b3", "c3")
    solved(page, lang)
    next_step(page, "capture")
    general_move(page, "c2", "c1")  # a step that takes nothing: why, and the position back
    expect(page.locator("#verdict")).to_contain_text(MISSED[lang])
    expect(page.locator("#lesson-root")).to_have_attribute("data-position", COURSES[
        "general"].steps[1].position)  # fmt: skip
    general_move(page, "c2", "b2")
    solved(page, lang)
    next_step(page, "flight")
    general_move(page, "s2", "s4", "c3")  # onto the apex, then the landing
    solved(page, lang)
    next_step(page, "shut_in")
    general_move(page, "d4", "d5")
    solved(page, lang)
    next_step(page, "no_move")
    general_move(page, "c3", "b2")
    solved(page, lang)
    next_step(page, "twelve")
    general_move(page, "c2", "d2")


def done(page: Page) -> None:
    expect(page.locator("#turn-done")).to_be_enabled()
    page.click("#turn-done")


def checkers(page: Page, *steps: tuple[str, str]) -> None:
    """Checker steps by clicks, each waited for (as ``bg_steps``), on the whole board: a phone
    shows the half where the play is, zoomed, and the test's points may be in the other."""
    dice = page.locator("svg.backgammon .die.used")
    for count, (src, dst) in enumerate(steps, start=1):
        for place in (src, dst):
            target = page.locator(f'svg.backgammon g.pt[data-point="{place}"]')
            box = target.bounding_box()
            width = page.viewport_size["width"] if page.viewport_size else 0
            if box is not None and (box["x"] < 0 or box["x"] + box["width"] > width):
                page.click("#bg-zoom-out")
            target.click()
        expect(dice).to_have_count(count)


def backgammon_course(page: Page, lang: str) -> None:
    page.select_option("#die-1", "3")
    page.select_option("#die-2", "3")
    page.click("#set-roll")  # equal opening dice: the engine says they are rolled again
    expect(page.locator("#verdict")).to_contain_text(REFUSED[lang])
    page.select_option("#die-1", "2")
    page.select_option("#die-2", "5")
    page.click("#set-roll")  # White's die lower: White would start
    expect(page.locator("#verdict")).to_contain_text(MISSED[lang])
    page.select_option("#die-1", "5")
    page.select_option("#die-2", "2")
    page.click("#set-roll")
    solved(page, lang)
    next_step(page, "enter")
    checkers(page, ("bar", "22"), ("13", "7"))
    done(page)
    solved(page, lang)
    next_step(page, "hit")
    checkers(page, ("13", "7"), ("13", "11"))
    done(page)
    solved(page, lang)
    next_step(page, "cap")
    page.fill("#move-input", "7/6 13/11")  # a sixth checker on the 6-point: refused
    page.press("#move-input", "Enter")
    expect(page.locator("#verdict")).to_contain_text(REFUSED[lang])
    checkers(page, ("7", "5"), ("5", "4"))
    done(page)
    solved(page, lang)
    next_step(page, "bear_off")
    checkers(page, ("6", "off"), ("4", "off"))
    done(page)


def cell(page: Page, name: str, direction: str) -> None:
    page.click(f'svg.defiance g.cell[data-cell="{name}"]')
    page.click(f'svg.defiance g.dir[data-direction="{direction}"]')


def point(page: Page, name: str) -> None:
    page.click(f'svg.defiance g.pnt[data-point="{name}"]')


def defiance_course(page: Page, lang: str) -> None:
    cell(page, "c3", "N")
    done(page)
    solved(page, lang)
    next_step(page, "attack")
    cell(page, "d3", "N")  # not pointing at e3: no capture
    done(page)
    expect(page.locator("#verdict")).to_contain_text(MISSED[lang])
    cell(page, "d3", "E")
    done(page)
    solved(page, lang)
    next_step(page, "rotate")
    cell(page, "d3", "E")
    done(page)
    solved(page, lang)
    next_step(page, "command")
    page.fill("#move-input", "h8>S;P3.2-P3.3")  # through the wall: refused
    page.press("#move-input", "Enter")
    expect(page.locator("#verdict")).to_contain_text(REFUSED[lang])
    cell(page, "h8", "S")
    point(page, "P4.2")
    done(page)
    solved(page, lang)
    next_step(page, "catch")
    cell(page, "h1", "N")
    point(page, "P4.5")
    point(page, "P3.5")
    done(page)
    solved(page, lang)
    next_step(page, "sectors")
    cell(page, "g3", "N")
    if page.locator("#lesson-root").get_attribute("data-solved") != "1":
        done(page)


COURSE_PLAYS: dict[str, Callable[[Page, str], None]] = {
    "general": general_course, "backgammon": backgammon_course, "defiance": defiance_course,
}  # fmt: skip
RUNS = [(game, lang, "desktop") for game in COURSES for lang in LOCALES] + [
    (game, lang, "phone") for game, lang in zip(COURSES, ("en", "fr", "en"), strict=False)
]


@pytest.mark.parametrize(("game", "lang", "size"), RUNS)
def test_a_course_from_start_to_end(
    server: Server, new_page: Callable[..., Page], game: str, lang: str, size: str
) -> None:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    open_lesson(page, server, game, lang)
    total = len(COURSES[game].steps)
    expect(page.locator("#step-count")).to_contain_text(str(total))
    # the hint: hidden until asked for
    expect(page.locator("#hint")).to_be_hidden()
    page.click("#hint-button")
    expect(page.locator("#hint")).to_be_visible()
    expect(page.locator("#hint-button")).to_have_attribute("aria-expanded", "true")
    if game != "backgammon":  # a move that meets the goal, drawn on the board (not at a roll)
        expect(page.locator('#board .hint-marks[data-hints="1"]')).to_have_count(1)
    shot(page, f"lesson-{game}-{lang}-{size}-hint")
    no_violations(page, f"lesson-{game}")
    COURSE_PLAYS[game](page, lang)
    solved(page, lang)
    expect(page.locator("#verdict")).to_contain_text(FINISHED[lang])
    expect(page.locator("#next")).to_be_hidden()
    expect(page.locator("#steps .step-done")).to_have_count(total)
    shot(page, f"lesson-{game}-{lang}-{size}-done")
    no_violations(page, f"lesson-{game}-done")
    assert not page.errors  # type: ignore[attr-defined]
    # the browser keeps a guest's progress: the index says so, and the course starts again
    page.goto(f"{server.url}/learn")
    course = page.locator(f'.course[data-game="{game}"]')
    expect(course).to_have_attribute("data-done", str(total))
    expect(course.locator(".course-count")).to_have_text(
        PROGRESS[lang].format(n=total, total=total)
    )
    shot(page, f"learn-{lang}-{size}")
    no_violations(page, "learn")


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_pages_around_the_lessons_pass_axe(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + "/learn")
    no_violations(page, "learn")
    for game in COURSES:
        page.goto(f"{server.url}/rules/{game}")
        page.click(".learn-link a")
        expect(page.locator("#lesson-root")).to_have_attribute("data-game", game)
        expect(page.locator("#lesson-root[data-position]")).to_have_count(1)
        no_violations(page, f"lesson-{game}")
        page.goto(f"{server.url}/rules/{game}")
        no_violations(page, f"rules-{game}")
    if size == "phone":
        page.click("#menu-button")
    page.click('#site-nav a[href="/learn"]')
    expect(page).to_have_url(server.url + "/learn")


def a_guest_s_first_step(new_page: Callable[..., Page], server: Server) -> Page:
    """A guest's browser that solved the General's first step (kept in the browser)."""
    page = new_page(viewport=SIZES["desktop"])
    open_lesson(page, server, "general", "en")
    general_move(page, "b3", "c3")
    solved(page, "en")
    return page


def account(page: Page, server: Server, form: str, name: str, then: str) -> None:
    """Sign up (``form`` ``signup``) or in (``signin``) as ``name``, going to ``then``."""
    page.goto(f"{server.url}/{form}?next={then}")
    page.fill('input[name="username"]', name)
    page.fill('input[name="password"]', "a long enough password")
    page.click(f"#{form}-submit")


def test_an_account_keeps_its_progress_and_takes_the_browser_s(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = a_guest_s_first_step(new_page, server)
    # a guest: kept in the browser; then an account is made in the same browser
    account(page, server, "signup", "learner", "/learn/general")
    expect(page.locator("#lesson-root")).to_have_attribute("data-account", "1")
    expect(page.locator("#steps .step-done")).to_have_count(1)  # given to the account
    expect(page.locator("#lesson-root")).to_have_attribute("data-step", "capture")
    general_move(page, "c2", "b2")
    solved(page, "en")
    # another browser, the same account: the server kept both steps
    other = new_page(viewport=SIZES["desktop"])
    account(other, server, "signin", "learner", "/learn")
    expect(other.locator('.course[data-game="general"]')).to_have_attribute("data-done", "2")
    shot(other, "learn-account")


def test_the_lessons_index_gives_a_guest_s_progress_to_the_account(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """A guest solves a step, makes an account and lands on the lessons' index: the step is
    shown there and kept with the account (it was given only when that course's page was
    opened again, so the index said 0 and another browser found nothing)."""
    page = a_guest_s_first_step(new_page, server)
    account(page, server, "signup", "indexer", "/learn")
    expect(page).to_have_url(server.url + "/learn")
    course = page.locator('.course[data-game="general"]')
    expect(course).to_have_attribute("data-done", "1")
    expect(course.locator(".course-count")).to_have_text(PROGRESS["en"].format(n=1, total=6))
    assert page.evaluate("localStorage.getItem('lessons.general')") is None  # given away
    other = new_page(viewport=SIZES["desktop"])
    account(other, server, "signin", "indexer", "/learn")
    expect(other.locator('.course[data-game="general"]')).to_have_attribute("data-done", "1")
    assert not page.errors and not other.errors  # type: ignore[attr-defined]


def test_a_verdict_comes_into_view_on_a_phone(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """On a phone, a move typed in the box under the board: its verdict, above the board, is
    brought into view (it stayed out of sight, and only the position set back was seen)."""
    page = new_page(viewport=SIZES["phone"], locale=LOCALES["fr"], is_mobile=True, has_touch=True)
    open_lesson(page, server, "general", "fr", step="capture")
    page.locator("#move-input").scroll_into_view_if_needed()
    page.fill("#move-input", "c2-c1")  # a step that takes nothing
    page.press("#move-input", "Enter")
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text(MISSED["fr"])
    expect(verdict).to_be_in_viewport()
    shot(page, "lesson-phone-verdict-fr")
    assert not page.errors  # type: ignore[attr-defined]
