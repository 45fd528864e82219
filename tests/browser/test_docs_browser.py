"""The API's documentation page (``/docs``) in a real browser with no way out: every request to
another origin is aborted, so the page must draw Swagger UI from the server alone, under the
site's Content-Security-Policy, without a console error.

Screenshots: ``docs`` (the page as it opens, 1366×768) and ``docs-operation`` (an operation
opened, its parameters shown), ``docs-try-it-out`` ("Try it out" creating a game).

A signed-in person's "Try it out" carries their CSRF token (``static/docs.js``), as the site's
own scripts do: without it the server would refuse their requests that change something.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page, Route, expect

from tests.browser.conftest import SHOTS, Server
from tests.browser.test_place_pages import sign_up

VIEWPORT = {"width": 1366, "height": 768}


def operation(method: str, path: str) -> str:
    """The selector of Swagger UI's block for one operation (``post``, ``/api/games``)."""
    return f'.opblock.opblock-{method}:has(.opblock-summary-path[data-path="{path}"])'


def test_docs_draw_the_api_offline_under_the_policy(
    server: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page(viewport=VIEWPORT)
    errors: list[str] = []
    left: list[str] = []  # requests for another origin (aborted)
    page.on("console", lambda m: _error(m, errors))
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))

    def only_the_server(route: Route) -> None:
        url = route.request.url
        if url == server.url or url.startswith(server.url + "/"):
            route.continue_()
        else:
            left.append(url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(server.url + "/docs")
    expect(page.locator("h1")).to_have_text("API documentation")
    # Swagger UI has read /openapi.json and drawn the operations
    create = page.locator(operation("post", "/api/games"))
    state = page.locator(operation("get", "/api/play/{token}"))
    expect(create).to_be_visible()
    expect(state).to_be_visible()
    expect(create.locator(".opblock-summary-method")).to_have_text("POST")
    assert page.locator(".opblock").count() > 10
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Ludothèque")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "docs.png"))

    # an operation opens to show its parameters
    state.locator(".opblock-summary-control").click()
    token = state.locator('.parameters tr[data-param-name="token"]')
    expect(token).to_be_visible()
    expect(token.locator(".parameter__name")).to_contain_text("token")
    expect(token.locator(".parameter__in")).to_contain_text("path")
    expect(state.locator(".responses-wrapper")).to_be_visible()
    state.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "docs-operation.png"))

    # "Try it out" sends a real request to the server (connect-src 'self') and shows the answer
    create.locator(".opblock-summary-control").click()
    create.locator(".try-out__btn").click()
    create.locator("textarea.body-param__text").fill('{"game": "general", "mode": "friend"}')
    create.locator(".btn.execute").click()
    answer = create.locator(".live-responses-table tr.response")
    expect(answer.locator(".response-col_status")).to_contain_text("201")
    expect(answer.locator(".response-col_description")).to_contain_text('"seats"')
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "docs-try-it-out.png"))

    assert errors == [], errors
    assert page.errors == []  # type: ignore[attr-defined]  # the conftest's CSP watch
    assert left == [], f"requests left the server's origin: {left}"


@pytest.fixture
def quick_accounts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server whose password hashing is quick (a test signs up)."""
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "docs.sqlite3")
    server.start()
    yield server
    server.stop()


def test_try_it_out_signed_in_sends_the_csrf_token(
    quick_accounts: Server, new_page: Callable[..., Page]
) -> None:
    page = new_page(viewport=VIEWPORT)
    sign_up(page, quick_accounts, "docreader")
    page.goto(quick_accounts.url + "/docs")
    seek = page.locator(operation("post", "/api/lobby/seeks"))
    seek.locator(".opblock-summary-control").click()
    seek.locator(".try-out__btn").click()
    seek.locator("textarea.body-param__text").fill('{"game": "general", "control": "5+3"}')
    seek.locator(".btn.execute").click()
    answer = seek.locator(".live-responses-table tr.response")
    expect(answer.locator(".response-col_status")).to_contain_text("201")
    assert page.errors == []  # type: ignore[attr-defined]


def _error(message: ConsoleMessage, errors: list[str]) -> None:
    """Keep a console error (a refusal of the Content-Security-Policy is one)."""
    if message.type == "error":
        errors.append(f"console: {message.text}")
