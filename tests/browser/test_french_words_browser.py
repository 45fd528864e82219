"""The words the boards put together on the page: "Label: value" takes a narrow no-break space
before the colon in French ("Points à parcourir : …"), and Defiance's Imperium has one name in
French (« l’Imperium », on the status line as on the reserve line)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
COLON = {"en": ": ", "fr": "\u202f: "}
BG_START = "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31"
WORDS = {
    "en": {
        "captured": "Rebels captured",
        "pips": "Pips",
        "white": "White",
        "black": "Black",
        "pools": "Counters in the pools",
        "rebels": "Rebels",
        "imperium": "Imperium",
        "sector": "South-west (the Rebels’ home)",
        "imperium_to_move": "Imperium to move",
    },
    "fr": {
        "captured": "Rebelles pris",
        "pips": "Points à parcourir",
        "white": "Blancs",
        "black": "Noirs",
        "pools": "Pions en réserve",
        "rebels": "Rebelles",
        "imperium": "Imperium",
        "sector": "Sud-ouest (chez les Rebelles)",
        "imperium_to_move": "À l’Imperium de jouer",
    },
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_boards_descriptions_in_each_language(
    server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    words, colon = WORDS[lang], COLON[lang]
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])

    open_game(page, server, "general", "svg.general")
    expect(page.locator("#extra")).to_contain_text(f"{words['captured']}{colon}0")

    open_game(page, server, "backgammon", "svg.backgammon", position=BG_START)
    extra = page.locator("#extra p")
    expect(extra.first).to_have_text(
        f"{words['pips']}{colon}{words['white']} 167 · {words['black']} 167"
    )
    expect(extra.nth(1)).to_contain_text(f"{words['white']}{colon}0 ")
    shot(page, f"words-backgammon-{lang}-{size}")

    open_game(page, server, "defiance", "svg.defiance", ruleset="10x10")
    page.fill("#move-input", "e5>N;P2.2-P3.3")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    expect(page.locator("#status")).to_have_text(words["imperium_to_move"])
    expect(page.locator("#extra p.pools")).to_have_text(
        f"{words['pools']}{colon}{words['rebels']} 39 · {words['imperium']} 40"
    )
    expect(page.locator("#extra li").first).to_have_text(f"{words['sector']}{colon}—")
    shot(page, f"words-defiance-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]
