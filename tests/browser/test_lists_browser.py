"""The lists of issue 36 in a real browser, in English and French, on a desktop (1366×768) and a
phone (390×844): a profile's games newest first with their time controls by name and dates in
the reader's language, its running games, the rating chart's time axis (no label twice) and
its table, the leaderboard without a one-game player, the Challenge button making a challenge
the other account sees, and the players online in another browser's lobby; axe finds nothing
on any of these pages, and each is photographed."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select, update
from sqlalchemy.orm import Session

from ludotheque.server.store.db import RatingHistoryRow, RatingRow, UserRow
from tests.browser.conftest import Server, shot
from tests.browser.test_place_pages import call, seat, sign_up, violations

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
MONTHS_FR = r"^(janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.?( \d{4})?$"


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("LUDOTHEQUE_PASSWORD_MEMORY", "8")
    server = Server(tmp_path / "lists.sqlite3")
    server.start()
    yield server
    server.stop()


def game(owner: Page, taker: Page, server: Server, moves: bool = True, **spec: object) -> str:
    """A lobby game between ``owner`` (first to move) and ``taker``; both first moves made
    unless ``moves`` is false."""
    first_side = "white" if spec.get("game") == "backgammon" else "rebels"
    body = {"game": "general", "control": "5+3", "side": first_side, **spec}
    found = call(owner, "/api/lobby/seeks", body)
    game_id = str(call(taker, f"/api/lobby/seeks/{found['id']}/accept")["id"])
    if moves and body["game"] == "general":
        for ply, (page, move) in enumerate(((owner, "a2-b2"), (taker, "c3-b4"))):
            api = seat(page, server, game_id).replace("/play/", "/api/play/")
            call(page, f"{api}/move", {"move": move, "ply": ply})
    return game_id


def resign(page: Page, server: Server, game_id: str) -> None:
    call(page, seat(page, server, game_id).replace("/play/", "/api/play/") + "/resign")


def seed_history(server: Server, name: str) -> None:
    """Months of rated games for ``name`` in the General (the chart's axis across months)
    and an established rating (on the leaderboard)."""
    engine = create_engine(f"sqlite:///{server.db}")
    now = datetime.now(UTC)
    with Session(engine) as db:
        user = db.scalar(select(UserRow).where(UserRow.username == name))
        assert user is not None
        for i in range(12):
            at = now - timedelta(days=150 - 12 * i)
            rating = 1500.0 + 9 * i - 20 * (i % 3)
            db.add(RatingHistoryRow(user_id=user.id, game="general", ruleset="default",
                                    game_id=f"old{i}", rating=rating, deviation=60.0,
                                    at=at))  # fmt: skip
        db.execute(
            update(RatingRow)
            .where(RatingRow.user_id == user.id, RatingRow.game == "general")
            .values(games=40, wins=25, losses=15, deviation=60.0, last_played=now)
        )
        db.commit()
    engine.dispose()


def test_lists_in_both_languages_and_sizes(place: Server, new_page: Callable[..., Page]) -> None:
    alice, bob = (new_page(viewport=SIZES["desktop"]) for _ in range(2))
    sign_up(alice, place, "alice")
    sign_up(bob, place, "bob")
    first = game(alice, bob, place, rated=True)  # alice wins the rated game
    resign(bob, place, first)
    time.sleep(1.1)  # (ends are kept to the second: the same second would order them by id)
    second = game(alice, bob, place, control="1d")  # then loses a correspondence game
    resign(alice, place, second)
    time.sleep(1.1)
    third = game(alice, bob, place, game="backgammon", control="1+12d", moves=False)
    resign(bob, place, third)
    running = game(alice, bob, place, control="3d")
    seed_history(place, "alice")
    state = {"alice": alice.context.storage_state(), "bob": bob.context.storage_state()}
    names = {
        "en": ("5+3", "1 day a move", "1 min + 12 s delay", "3 days a move", "Playing now"),
        "fr": ("5+3", "1 jour par coup", "1 min + 12 s de délai", "3 jours par coup",
               "Parties en cours"),
    }  # fmt: skip

    found: list[str] = []
    for lang, locale in LOCALES.items():
        for size, viewport in SIZES.items():
            where = f"{lang}-{size}"
            viewers = {}
            for name in ("alice", "bob"):
                page = new_page(viewport=viewport, locale=locale, storage_state=state[name])
                page.context.add_cookies([{"name": "lang", "value": lang, "url": place.url}])
                viewers[name] = page
            her, him = viewers["alice"], viewers["bob"]
            carol = new_page(viewport=viewport, locale=locale)  # a second browser, anonymous
            carol.context.add_cookies([{"name": "lang", "value": lang, "url": place.url}])

            # alice's profile as bob sees it: games newest first, controls by name
            him.goto(f"{place.url}/@/alice")
            rows = him.locator("#profile-games tbody tr")
            expect(rows).to_have_count(3)
            order = [rows.nth(i).get_attribute("data-game-id") for i in range(3)]
            assert order == [third, second, first], where
            text = him.locator("#profile").inner_text()
            for word in names[lang]:
                assert word in text, (where, word)
            assert not ISO_DATE.search(text), (where, ISO_DATE.findall(text))
            ago = "il y a" if lang == "fr" else "ago"
            expect(rows.first.locator("time")).to_contain_text(ago)
            watch = him.locator(f'#profile-playing tr[data-game-id="{running}"] a.watch')
            expect(watch).to_have_attribute("href", f"/live/{running}")
            # the chart: a time axis whose labels never repeat, its points in a table
            card = him.locator(".rating-card[data-game=general]")
            ticks = card.locator("svg .time-tick").all_text_contents()
            assert 2 <= len(ticks) <= 5 and len(set(ticks)) == len(ticks), (where, ticks)
            if lang == "fr":
                assert all(re.search(MONTHS_FR, t) for t in ticks), ticks
            table = card.locator("details.chart-table")
            table.locator("summary").click()
            expect(table.locator("tbody tr")).to_have_count(13)
            found += violations(him, f"profile {where}")
            shot(him, f"lists-profile-{where}")

            # alice's own profile: her running game takes her to her seat
            her.goto(f"{place.url}/@/alice")
            play = her.locator(f'#profile-playing tr[data-game-id="{running}"] a.resume')
            expect(play).to_have_attribute("href", f"/resume/{running}")
            expect(her.locator("#challenge")).to_have_count(0)
            her.goto(f"{place.url}/lobby")  # alice waits in the lobby
            expect(her.locator("#online-list")).to_contain_text("alice")

            # the leaderboard: alice (established) is listed, bob (one rated game) is not
            him.goto(f"{place.url}/leaderboard?game=general&ruleset=default")
            board = him.locator(".board-table")
            expect(board).to_contain_text("alice")
            expect(board.locator('a[href="/@/bob"]')).to_have_count(0)
            expect(him.locator("#board-rule")).to_contain_text("30")
            found += violations(him, f"leaderboard {where}")
            shot(him, f"lists-leaderboard-{where}")

            # Challenge from alice's profile: the lobby's form, bob picks the game, alice sees it
            him.goto(f"{place.url}/@/alice")
            him.click("#challenge")
            him.wait_for_url("**/lobby?challenge=alice")
            expect(him.locator("#seek-opponent")).to_have_value("alice")
            expect(him.locator("#post")).to_contain_text("alice")
            him.select_option("#seek-game", "defiance")
            him.select_option("#seek-control", "3d")
            found += violations(him, f"lobby-challenge {where}")
            shot(him, f"lists-lobby-challenge-{where}")
            him.click("#post")
            mine = her.locator("#to-me-list li")
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text("bob")
            expect(mine).to_contain_text(names[lang][3])
            # alice declines it: bob is told, and his form is as new (the next round starts afresh)
            mine.get_by_role("button", name=re.compile("^(Decline|Refuser)")).click()
            expect(mine).to_have_count(0)
            declined = {"fr": "alice a refusé votre défi.", "en": "alice declined your challenge."}
            expect(him.locator("#seek-message")).to_have_text(declined[lang])
            expect(him.locator("#post")).to_have_text(
                "Lancer un défi" if lang == "fr" else "Post a challenge"
            )
            expect(him.locator("#open-list li.mine")).to_have_count(0)
            expect(him.locator("#challenge-help")).to_be_hidden()  # it spoke of alice
            shot(him, f"lists-lobby-declined-{where}")

            # the players online, in the lobby of a second browser
            carol.goto(f"{place.url}/lobby")
            online = carol.locator("#online-list")
            expect(online.locator('a[href="/@/alice"]')).to_have_count(1)
            expect(online.locator('a[href="/@/bob"]')).to_have_count(1)
            expect(carol.locator("#online-count")).to_contain_text(
                "dont 1 visiteur" if lang == "fr" else "including 1 visitor"
            )
            found += violations(carol, f"lobby {where}")
            shot(carol, f"lists-lobby-online-{where}")

            # the game's header and the archive name the controls too
            her.goto(f"{place.url}/resume/{running}")
            expect(her.locator("#game-control")).to_contain_text(names[lang][3])
            found += violations(her, f"game {where}")
            shot(her, f"lists-game-{where}")
            carol.goto(f"{place.url}/archive")
            expect(carol.locator(f'tr[data-game-id="{third}"] .control')).to_have_text(
                names[lang][2]
            )
            found += violations(carol, f"archive {where}")
            for page in (her, him, carol):
                assert not page.errors, (where, page.errors)  # type: ignore[attr-defined]
                page.context.close()
    assert not found, "axe violations (page|rule|impact|help|nodes):\n" + "\n".join(found)
