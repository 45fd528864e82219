"""A server that stops answering is noticed: frozen (SIGSTOP) with the socket still open, the
game page says it is reconnecting within seconds instead of "Connected"; once the server runs
again the page is connected and plays on."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, open_game, shot


def test_a_frozen_server_is_noticed(server: Server, new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_game(page, server, "general", "svg.board")
    expect(page.locator("#connection")).to_have_text("Connected")
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        expect(page.locator("#connection")).to_have_text(
            "The server is not answering — reconnecting…", timeout=12_000
        )
        shot(page, "heartbeat-frozen")
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    expect(page.locator("#connection")).to_have_text("Connected", timeout=20_000)
    page.fill("#move-input", "a2-b2")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-list .ply")).to_have_count(1)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_refusal_goes_once_the_game_moves_on(
    server: Server, new_page: Callable[..., Page]
) -> None:
    """An old refusal does not stay once the game has moved on: the same game open in two
    tabs, one is refused a move, the other plays, and the first tab's message goes."""
    first = new_page()
    open_game(first, server, "general", "svg.board")
    second = new_page()
    second.goto(first.url)
    second.wait_for_selector("svg.board[data-position]")
    first.fill("#move-input", "a1-a5")
    first.press("#move-input", "Enter")
    expect(first.locator("#message.error")).not_to_be_empty()
    second.fill("#move-input", "a2-b2")
    second.press("#move-input", "Enter")
    expect(first.locator("#move-list .ply")).to_have_count(1)
    expect(first.locator("#message")).to_be_empty()
