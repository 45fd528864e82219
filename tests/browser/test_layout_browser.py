"""The game page on a laptop: the whole board and both players' clocks fit in the window without
scrolling (1366×768, 1280×720, 1280×900, 1440×900, and a phone's 390×844 too), in the three
games, English and French, and so do what appears around the board: the turn's buttons,
backgammon's dice and cube decisions, a choice to make, the claim banner against a player who
left, a clock in low time, the result. Each check measures the boxes against
``window.innerHeight`` with the page unscrolled."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SHOTS, Server, shot

LAPTOPS = {"1366x768": (1366, 768), "1280x720": (1280, 720), "1280x900": (1280, 900),
           "1440x900": (1440, 900)}  # fmt: skip
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
CLOCKS = ["svg.board", "#strip-top", "#strip-bottom", "#strip-top .clock", "#strip-bottom .clock"]
CONTROL = {"general": "5+3", "defiance": "5+3", "backgammon": "3+12d"}
PAIRS = "d3 a1,a2,a4,a5,b1,b5,c3,c4,c5,e3,e4,e5 g 1"  # the general may take one of three pairs


def create(server: Server, **body: Any) -> dict[str, Any]:
    """A game made through the API (a friend game with a clock unless told otherwise)."""
    request = urllib.request.Request(
        server.url + "/api/games",
        data=json.dumps({"mode": "friend", **body}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.loads(answer.read()))


def state(server: Server, page: Page) -> dict[str, Any]:
    token = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/play/{token}", timeout=10) as response:
        return dict(json.loads(response.read()))


def outside(page: Page, selectors: list[str]) -> list[str]:
    """Which of ``selectors`` is not shown, or not wholly inside the window; and whether the
    page had to be scrolled."""
    return list(
        page.evaluate(
            """(selectors) => {
                const out = [];
                if (window.scrollY !== 0) out.push(`the page is scrolled by ${window.scrollY} px`);
                for (const s of selectors) {
                    const el = document.querySelector(s);
                    const r = el ? el.getBoundingClientRect() : null;
                    if (!r || !r.width || !r.height) { out.push(`${s} is not shown`); continue; }
                    const over = r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
                    if (r.top < 0 || r.left < 0 || over)
                        out.push(`${s}: ${r.top.toFixed(0)} to ${r.bottom.toFixed(0)} px, `
                                 + `${r.left.toFixed(0)} to ${r.right.toFixed(0)} px, `
                                 + `in a window of ${innerWidth}×${innerHeight}`);
                }
                return out;
            }""",
            selectors,
        )
    )


def fits_every_laptop(
    page: Page, extra: list[str], name: str, *, shots: bool = True, sizes: dict[str, Any] = LAPTOPS
) -> None:
    """At each laptop size (or ``sizes``) the board, both strips and clocks and ``extra`` are
    in the window; a screenshot of the window (not the whole page) at each."""
    problems = []
    for size, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        # at the top of the page, as it opens (the test's own clicks may have scrolled it)
        page.evaluate(
            "() => new Promise((done) => { scrollTo(0, 0);"
            " requestAnimationFrame(() => requestAnimationFrame(done)); })"
        )
        problems += [f"{size}: {p}" for p in outside(page, CLOCKS + extra)]
        if shots:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"layout-{name}-{size}.png"))
    assert not problems, "off the screen:\n" + "\n".join(problems)


def open_seat(new_page: Callable[..., Page], server: Server, url: str, lang: str) -> Page:
    page = new_page(viewport={"width": 1366, "height": 768}, locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + url)
    page.wait_for_selector("#board [data-position]")
    expect(page.locator("#strip-bottom .clock")).to_be_visible()
    return page


def play(page: Page, move: str) -> None:
    # the other seat's move arrives over its socket: on a loaded machine it may take a while
    page.wait_for_selector("#move-input:not([disabled])", timeout=30_000)
    page.fill("#move-input", move)
    page.click("#move-submit")


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("game", ["general", "backgammon", "defiance"])
def test_the_board_and_both_clocks_fit_a_laptop(
    server: Server, new_page: Callable[..., Page], game: str, lang: str
) -> None:
    made = create(server, game=game, control=CONTROL[game])
    side, url = next(iter(made["seats"].items()))
    page = open_seat(new_page, server, url, lang)
    # the panel's controls (Resign) and, for the side to move, the turn's buttons
    extra = [".panel .controls", ".board-tools"]
    if game != "general" and state(server, page)["to_move"] == side:
        expect(page.locator("#turn-controls")).to_be_visible()
        extra.append("#turn-controls")
    fits_every_laptop(page, extra, f"{game}-{lang}")
    # and on a phone, the board and both clocks (the panel's controls come under them)
    turn = ["#turn-controls"] if "#turn-controls" in extra else []
    fits_every_laptop(page, turn, f"{game}-{lang}", sizes={"390x844": (390, 844)})
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_a_choice_under_the_board_fits(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """The general's choice of a pair (against the computer, on the clock): three buttons
    under the board, the board smaller while they are there."""
    made = create(server, game="general", mode="computer", level="easy", side="general",
                  control="5+3", position=PAIRS)  # fmt: skip
    page = open_seat(new_page, server, made["seats"]["both"], lang)
    page.click('svg.general [data-point="d3"]')
    page.click('svg.general [data-point="d4"]')
    expect(page.locator("#chooser button.pair")).to_have_count(3)
    fits_every_laptop(page, ["#chooser"], f"general-pairs-{lang}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_backgammon_cube_decisions_and_offers_to_resign_fit(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """A match between friends (its score above the board): the dice, the decision to roll
    or double, the answer to a double, and the offers to resign, each under the board with the
    board in sight."""
    made = create(server, game="backgammon", ruleset="match", length=7, control="3+12d")
    pages = {s: open_seat(new_page, server, url, lang) for s, url in made["seats"].items()}
    first = state(server, pages["white"])
    mover = first["to_move"]
    other = "black" if mover == "white" else "white"
    expect(pages[mover].locator("#match-line")).to_be_visible()
    fits_every_laptop(pages[mover], ["#turn-controls", "svg.backgammon .dice", "#match-line"],
                      f"backgammon-dice-{lang}")  # fmt: skip
    play(pages[mover], first["legal"][0])
    expect(pages[other].locator("#cube-double")).to_be_visible()
    fits_every_laptop(pages[other], ["#cube-bar"], f"backgammon-decide-{lang}")
    pages[other].click("#cube-double")
    expect(pages[mover].locator("#cube-take")).to_be_visible()
    fits_every_laptop(pages[mover], ["#cube-bar", "svg.backgammon g.cube"],
                      f"backgammon-take-{lang}")  # fmt: skip
    pages[mover].click("#cube-take")
    expect(pages[other].locator("#turn-controls")).to_be_visible()
    pages[other].click("#resign")
    expect(pages[other].locator("#chooser .resign-offer")).to_have_count(3)
    fits_every_laptop(pages[other], ["#chooser", "#turn-controls"], f"backgammon-resign-{lang}")
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]


def board_sizes(page: Page, sizes: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """The board's width and height at each window size (``sizes``, as in ``LAPTOPS``)."""
    found = {}
    for size, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        box = page.locator("svg.board").bounding_box()
        assert box is not None
        found[size] = (round(box["width"], 1), round(box["height"], 1))
    return found


@pytest.mark.parametrize("lang", LOCALES)
def test_the_claim_banner_fits(server: Server, new_page: Callable[..., Page], lang: str) -> None:
    """The general's player leaves on move: the rebels' page counts down, then offers the
    claim; the banner and both clocks are in the window, and the board keeps its size when the
    banner comes (on a laptop and on a phone)."""
    made = create(server, game="general", control="1+0")
    rebels = open_seat(new_page, server, made["seats"]["rebels"], lang)
    general = open_seat(new_page, server, made["seats"]["general"], lang)
    for page, move in ((rebels, "a2-b2"), (general, "c3-b4"), (rebels, "a1-a2")):
        play(page, move)
    expect(rebels.locator("#strip-top .clock.running")).to_be_visible()
    sizes = {**LAPTOPS, "390x844": (390, 844)}
    before = board_sizes(rebels, sizes)
    general.close()
    expect(rebels.locator("#claim")).to_be_visible(timeout=10_000)
    assert board_sizes(rebels, sizes) == before, "the board changed size as the claim came"
    fits_every_laptop(rebels, ["#claim", "#claim-text"], f"general-claim-{lang}")
    expect(rebels.locator("#claim-button")).to_be_visible(timeout=25_000)
    assert board_sizes(rebels, sizes) == before, "the board changed size with the claim's button"
    fits_every_laptop(rebels, ["#claim", "#claim-button"], f"general-claim-now-{lang}")
    assert not rebels.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_first_move_countdown_sits_beside_the_clock(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """Before a side's first move, the time left to make it shows beside its clock, which
    still shows the side's time; once the move is made, the countdown goes and the clock runs
    as usual. Both, the board and both strips fit the window; the strip keeps its height."""
    made = create(server, game="general", control="5+3")
    rebels = open_seat(new_page, server, made["seats"]["rebels"], lang)
    words = {"en": r"first move: \d+ s", "fr": r"premier coup : \d+ s"}[lang]
    strip = rebels.locator("#strip-bottom")
    expect(strip.locator(".first-move")).to_have_text(re.compile(words))
    expect(strip.locator(".first-move")).to_be_visible()
    expect(strip.locator(".clock")).to_have_text("5:00")
    expect(strip.locator(".clock")).to_be_visible()
    # side by side, on one line, both inside the strip
    badge, clock = (strip.locator(s).bounding_box() for s in (".first-move", ".clock"))
    box = strip.bounding_box()
    assert badge and clock and box
    assert badge["x"] + badge["width"] <= clock["x"] + 0.5, (badge, clock)
    assert abs((badge["y"] + badge["height"] / 2) - (clock["y"] + clock["height"] / 2)) < 2
    assert clock["x"] + clock["width"] <= box["x"] + box["width"] + 0.5, (clock, box)
    height = box["height"]
    fits_every_laptop(rebels, ["#strip-bottom .first-move"], f"general-first-move-{lang}")
    fits_every_laptop(rebels, ["#strip-bottom .first-move"], f"general-first-move-{lang}",
                      sizes={"390x844": (390, 844)})  # fmt: skip
    rebels.set_viewport_size({"width": 1366, "height": 768})
    play(rebels, "a2-b2")
    expect(strip.locator(".first-move")).to_be_hidden()
    expect(strip.locator(".clock")).to_be_visible()
    # the general's side counts down now, beside the general's clock, for both players
    expect(rebels.locator("#strip-top .first-move")).to_be_visible()
    expect(rebels.locator("#strip-top .clock")).to_have_text("5:00")
    box = strip.bounding_box()
    assert box and abs(box["height"] - height) < 1, (box, height)
    assert not rebels.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_delay_counts_down_in_words_beside_the_clock(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """Backgammon's delay clock: on a turn, the delay left is said beside the side's clock
    ("delay: 11 s"), and the clock shows the reserve alone (it read "1:00 +11")."""
    made = create(server, game="backgammon", control="1+12d")
    pages = {s: open_seat(new_page, server, url, lang) for s, url in made["seats"].items()}
    first = pages[state(server, next(iter(pages.values())))["to_move"]]
    for _ in range(2):  # each side's first move (its own countdown), then the delays run
        page = pages[state(server, first)["to_move"]]
        play(page, state(server, page)["legal"][0])
        expect(page.locator("#move-input")).to_be_disabled()
    words = {"en": r"^delay: (1[0-2]|[1-9]) s$", "fr": r"^délai : (1[0-2]|[1-9]) s$"}[lang]
    strip = first.locator("#strip-bottom")
    expect(strip.locator(".delay-left")).to_have_text(re.compile(words))
    expect(strip.locator(".clock")).to_have_text(re.compile(r"^[01]:\d\d$"))
    label = strip.locator(".clock").get_attribute("aria-label") or ""
    assert re.search(words[1:-1], label), label
    expect(first.locator("#strip-top .delay-left")).to_be_hidden()  # not the waiting side's
    fits_every_laptop(first, ["#strip-bottom .delay-left"], f"backgammon-delay-{lang}")
    fits_every_laptop(first, ["#strip-bottom .delay-left"], f"backgammon-delay-{lang}",
                      sizes={"390x844": (390, 844)})  # fmt: skip
    assert not first.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_correspondence_clocks_speak_one_format(
    server: Server, new_page: Callable[..., Page], lang: str
) -> None:
    """A day a move: the side to move reads "23 h 59 min" beside the other's "1 d 0 h" (it
    read "23:59:59", a format of its own)."""
    made = create(server, game="general", control="1d")
    rebels = open_seat(new_page, server, made["seats"]["rebels"], lang)
    general = open_seat(new_page, server, made["seats"]["general"], lang)
    play(rebels, "a2-b2")
    play(general, "c3-b4")
    expect(rebels.locator("#move-input")).to_be_enabled()
    day = {"en": "1 d 0 h", "fr": "1 j 0 h"}[lang]
    expect(rebels.locator("#strip-top .clock")).to_have_text(day)  # the general's, waiting
    expect(rebels.locator("#strip-bottom .clock")).to_have_text(re.compile(r"^23 h 59 min$"))
    fits_every_laptop(rebels, ["#strip-bottom .clock"], f"correspondence-{lang}", shots=False)
    shot(rebels, f"layout-correspondence-{lang}")
    assert not rebels.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("game", ["general", "defiance"])
def test_low_time_and_the_result_fit(
    server: Server, new_page: Callable[..., Page], game: str, lang: str
) -> None:
    """Six seconds a side: the running clock turns red, then the game is lost on time; the
    red clock, then the result with both clocks, are in the window."""
    made = create(server, game=game, control="0.1+0")
    pages = {s: open_seat(new_page, server, url, lang) for s, url in made["seats"].items()}
    first = pages[state(server, next(iter(pages.values())))["to_move"]]
    for _ in range(2):  # the first moves (free), so that the clocks run
        page = pages[state(server, first)["to_move"]]
        play(page, state(server, page)["legal"][0])
        expect(page.locator("#move-input")).to_be_disabled()
    expect(first.locator("#strip-bottom .clock.low.running")).to_be_visible(timeout=10_000)
    fits_every_laptop(first, ["#strip-bottom .clock.low"], f"{game}-low-{lang}", shots=False)
    shot(first, f"layout-{game}-low-{lang}")
    result = first.locator("#result")
    expect(result).to_be_visible(timeout=15_000)
    expect(result).to_have_attribute("data-reason", re.compile("time"))
    fits_every_laptop(first, ["#result", ".panel .controls"], f"{game}-result-{lang}")
    for page in pages.values():
        assert not page.errors  # type: ignore[attr-defined]
