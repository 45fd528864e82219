"""Browser tests: a real server in a subprocess, Playwright driving Debian's chromium headless.

Screenshots go to ``test-artifacts/screenshots``. Without ``/usr/bin/chromium`` these tests are
skipped on a developer's machine, and fail in CI (``LUDOTHEQUE_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "test-artifacts" / "screenshots"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not Path(CHROMIUM).exists():
    if os.environ.get("LUDOTHEQUE_REQUIRE_BROWSER"):
        raise RuntimeError("browser tests need Debian's chromium at /usr/bin/chromium")
    pytest.skip("no /usr/bin/chromium (install Debian's chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``ludotheque serve`` in a subprocess, on a database that outlives restarts."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "LUDOTHEQUE_COMPUTER_DELAY": "0.2", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ludotheque", "serve", "--port", str(self.port),
             "--db", str(self.db)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "app.sqlite3")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make(**options: Any) -> Page:
        options.setdefault("viewport", {"width": 1200, "height": 950})
        options.setdefault("locale", "en-GB")
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the Content-Security-Policy must never have to block anything of ours
        page.on(
            "console",
            lambda m: (
                errors.append(m.text)
                if m.type == "error" and "Content Security Policy" in m.text
                else None
            ),
        )
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


def forced_plays_by_hand(page: Page) -> None:
    """What the backgammon page's "Forced plays by hand" button keeps in the browser: a test that
    makes a forced play itself is then not raced by the page making it after its pause."""
    page.add_init_script("localStorage.setItem('ludotheque.forced', 'off')")


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def open_game(
    page: Page,
    server: Server,
    game: str,
    board: str,
    *,
    mode: str = "local",
    position: str = "",
    ruleset: str = "",
    level: str = "",
    side: str = "",
) -> None:
    """Start a game of ``game`` through the home page's form, as a person would; unless it is a
    friend game (whose page lists links), wait for the board ``board`` (a CSS selector)."""
    page.goto(server.url + "/")
    page.check(f'input[name="game"][value="{game}"]')
    if ruleset:
        page.check(f'input[name="ruleset"][value="{ruleset}"]')
    page.check(f'input[name="mode"][value="{mode}"]')
    if level:
        page.check(f'input[name="level"][value="{level}"]')
    if side:
        page.check(f'label.side[data-game="{game}"] input[value="{side}"]')
    if position:
        page.fill("#position", position)
    page.click("#start")  # (the page sends the form, then goes where it leads)
    if mode != "friend":
        page.wait_for_selector(f"{board}[data-position]")
    else:
        page.wait_for_selector("#links [data-watch-link]")


def bg_steps(page: Page, *steps: tuple[str, str]) -> None:
    """Backgammon checker steps by clicks (from a point, to a point), each waited for: a step
    asks the server for the turn after it, and a click while it is on its way is not taken."""
    dice = page.locator("svg.backgammon .die.used")
    for done, (src, dst) in enumerate(steps, start=1):
        page.click(f'svg.backgammon g.pt[data-point="{src}"]')
        page.click(f'svg.backgammon g.pt[data-point="{dst}"]')
        expect(dice).to_have_count(done)
    expect(page.locator("#turn-done")).to_be_enabled()
