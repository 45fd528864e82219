"""axe-core on every page, in English and French, at desktop and phone sizes.

axe (``vendor/axe.min.js``, axe-core 4.14.1, MPL-2.0, licence beside it) is run by
``page.evaluate`` of its source: that runs in the page, outside the Content-Security-Policy
(``script-src 'self'``), so nothing needs the network or npm at test time.

``KNOWN`` lists the violations found and not yet fixed, as (page, rule id): a violation that is
not in it fails the test, with its nodes. Remove an entry once its fix is in.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server, shot

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BOARD = "#board [data-position]"
SIZES = {"desktop": {"width": 1200, "height": 950}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}

# violations found and left to the owners of the files they are in: (page, axe rule id).
# color-contrast: the backgammon move list's entry buttons (app.js / style.css), every
# language and size; the replay's list does not show it.
KNOWN: frozenset[tuple[str, str]] = frozenset()


def api(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body or {}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def axe(page: Page) -> list[dict[str, Any]]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return list(result)


def pages(server: Server) -> dict[str, tuple[str, str | None]]:
    """Every page worth checking: name -> (address, a selector to wait for)."""
    found: dict[str, tuple[str, str | None]] = {
        "home": ("/", None),
        "dice": ("/dice", None),
        "error": ("/watch/no-such-game", None),
        "archive": ("/archive", None),
    }
    for game in ("general", "backgammon", "defiance"):  # (the rules pages: see below)
        local = api(server, "/api/games", {"game": game})
        found[f"{game} local"] = (local["seats"]["both"], BOARD)
        computer = api(server, "/api/games", {"game": game, "mode": "computer", "level": "easy"})
        found[f"{game} computer"] = (computer["seats"]["both"], BOARD)
        friend = api(server, "/api/games", {"game": game, "mode": "friend"})
        first = next(iter(friend["seats"].values()))
        found[f"{game} friend seat"] = (first, BOARD)
        found[f"{game} watch"] = (friend["watch"], BOARD)
        done = api(server, "/api/games", {"game": game, "mode": "friend"})
        api(server, "/api/play/" + next(iter(done["seats"].values())).rsplit("/", 1)[1] + "/resign")
        found[f"{game} replay"] = (f"/archive/{done['id']}", BOARD)
    return found


def check(page: Page, server: Server, where: str, address: str, wait: str | None) -> list[str]:
    page.goto(server.url + address)
    if wait:
        page.wait_for_selector(wait)
    return [f"{where}|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
            for v in axe(page)]  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_axe_finds_nothing_new(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    found: list[str] = []
    for where, (address, wait) in pages(server).items():
        found += check(page, server, where, address, wait)
    # the friend links page is the answer to the home page's form
    page.goto(server.url + "/")
    page.check('input[name="mode"][value="friend"]')
    page.click("#start")
    page.wait_for_selector("input.link")
    found += [f"friend links|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
              for v in axe(page)]  # fmt: skip
    page.goto(server.url + "/archive")
    shot(page, f"a11y-archive-{lang}-{size}")
    new = [line for line in found if tuple(line.split("|")[:2]) not in KNOWN]
    assert not new, "new axe violations (page|rule|impact|help|nodes):\n" + "\n".join(new)
    assert not page.errors  # type: ignore[attr-defined]


RULES = {"rules": "/rules", **{f"rules-{game}": f"/rules/{game}" for game in
                               ("general", "backgammon", "defiance")}}  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_rules_pages_pass_axe(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    """The rules index and each game's rules, with their diagrams, looked at and checked."""
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    found: list[str] = []
    for where, address in RULES.items():
        found += check(page, server, where, address, None)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        shot(page, f"a11y-{where}-{lang}-{size}")
    new = [line for line in found if tuple(line.split("|")[:2]) not in KNOWN]
    assert not new, "new axe violations (page|rule|impact|help|nodes):\n" + "\n".join(new)
    assert not page.errors  # type: ignore[attr-defined]
