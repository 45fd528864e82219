"""What the browser tests of several pages share: the two sizes and languages they are run in,
a page opened in one of them, the server's JSON API called directly, and axe's findings said one
a line."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.test_accessibility import axe

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
CASES = [(lang, size) for lang in LOCALES for size in SIZES]
"""Every language at every size: the tests' parameters."""


def api(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    """The server's JSON answer to a GET (no ``body``) or a POST of ``body``."""
    request = urllib.request.Request(
        server.url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def in_language(page: Page, server: Server, lang: str) -> None:
    """The server's pages in ``lang`` for this page's browser (the language cookie)."""
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])


def page_in(
    new_page: Callable[..., Page],
    server: Server,
    lang: str,
    size: str,
    sizes: dict[str, dict[str, int]] = SIZES,
) -> Page:
    """A new page at ``size`` (one of ``sizes``) that reads the site in ``lang``."""
    page = new_page(viewport=sizes[size], locale=LOCALES[lang])
    in_language(page, server, lang)
    return page


def violations(page: Page, where: str) -> list[str]:
    """axe's violations on the page, one a line: where, the rule, its impact, help, nodes."""
    return [f"{where}|{v['id']}|{v['impact']}|{v['help']}|{' ; '.join(v['nodes'])}"
            for v in axe(page)]  # fmt: skip
