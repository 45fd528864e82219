"""The chat in a real browser, in English and French, on a laptop (1366×768) and a phone
(390×844): fifteen lines typed 60 ms apart all arrive, in order (those over the chat's pace
wait in the list, marked, and go out when allowed); a refused line stays in the input with
the reason beside the chat, in the reader's language; Report says "Reported" and reporting
again is one report; a chat line plays its own quiet sound, not the offer's chime; axe finds
nothing on the page in any of these states."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.test_accessibility import axe

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
CASES = [(lang, size) for lang in LOCALES for size in SIZES]
LINES = 15


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("chat") / "chat.sqlite3")
    server.start()
    yield server
    server.stop()


def friend_game(server: Server) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + "/api/games", data=json.dumps({"game": "general", "mode": "friend"}).encode(),
        headers={"content-type": "application/json"}, method="POST",
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


def player(new_page: Callable[..., Page], server: Server, lang: str, size: str, url: str) -> Page:
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    page.goto(server.url + url)
    page.wait_for_selector("#board [data-position]")
    expect(page.locator("#chat")).to_be_visible()
    return page


def found(page: Page, where: str) -> list[str]:
    return [f"{where}|{v['id']}|{v['help']}|{' ; '.join(v['nodes'])}" for v in axe(page)]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_fifteen_quick_lines_all_arrive_a_refused_one_stays_and_report_says_so(
    chat_server: Server, new_page: Callable[..., Page], lang: str, size: str
) -> None:
    game = friend_game(chat_server)
    alice = player(new_page, chat_server, lang, size, game["seats"]["rebels"])
    bob = player(new_page, chat_server, lang, size, game["seats"]["general"])
    where = f"{lang}-{size}"
    problems: list[str] = []

    # fifteen lines, 60 ms apart: more than the chat takes at once
    for i in range(1, LINES + 1):
        alice.fill("#chat-input", f"line {i} of {LINES}")
        alice.press("#chat-input", "Enter")
        alice.wait_for_timeout(60)
    waiting = alice.locator("#chat-list li.pending")
    expect(waiting.first).to_be_visible()  # held, in order, marked as waiting
    expect(alice.locator("#chat-status")).to_contain_text("attend" if lang == "fr" else "wait")
    alice.locator("#chat-list").evaluate("list => { list.scrollTop = list.scrollHeight; }")
    alice.locator("#chat").scroll_into_view_if_needed()
    shot(alice, f"chat-waiting-{where}")
    problems += found(alice, f"waiting {where}")
    # ... and every one arrives, once, in order (the chat's pace: about ten seconds)
    expected = [f"line {i} of {LINES}" for i in range(1, LINES + 1)]
    expect(bob.locator("#chat-list li .text")).to_have_text(expected, timeout=30_000)
    expect(alice.locator("#chat-list li:not(.pending) .text")).to_have_text(expected)
    expect(alice.locator("#chat-list li.pending")).to_have_count(0)
    expect(alice.locator("#chat-status")).to_have_text("")
    expect(alice.locator("#chat-input")).to_have_value("")
    # the other player heard them with the chat's own quiet sound, not the offer's chime
    sounds = bob.evaluate("import('/static/notify.js').then((m) => m.played)")
    assert "chat" in sounds and "offer" not in sounds

    # a line the server refuses stays in the input, the reason beside the chat
    long_line = "x" * 350
    alice.fill("#chat-input", long_line)
    alice.press("#chat-input", "Enter")
    reason = alice.locator("#chat #chat-error")
    expect(reason).to_contain_text("au plus 300" if lang == "fr" else "at most 300")
    expect(reason).to_contain_text("350")
    expect(alice.locator("#chat-input")).to_have_value(long_line)
    expect(alice.locator("#message")).not_to_contain_text("300")  # not under the board
    alice.locator("#chat").scroll_into_view_if_needed()
    shot(alice, f"chat-refused-{where}")
    problems += found(alice, f"refused {where}")

    # Report on a line of the other player's: "Reported"; once more after a reload: one report
    last = bob.locator("#chat-list li").last
    last.locator("button.report").click()
    expect(last.locator(".reported")).to_have_text("Signalé" if lang == "fr" else "Reported")
    expect(last.locator(".reported")).to_be_focused()
    bob.locator("#chat").scroll_into_view_if_needed()
    shot(bob, f"chat-reported-{where}")
    problems += found(bob, f"reported {where}")
    bob.reload()
    again = bob.locator("#chat-list li").last
    again.locator("button.report").click()
    expect(again.locator(".reported")).to_be_visible()
    with sqlite3.connect(chat_server.db) as db:
        reports = db.execute(
            "SELECT count(*) FROM chat_reports WHERE game_id = ?", (game["id"],)
        ).fetchone()
    assert reports == (1,)
    assert not alice.errors and not bob.errors  # type: ignore[attr-defined]
    assert not problems, "axe violations:\n" + "\n".join(problems)
