"""Smaller parts of the players' place: its words in both languages, the server's secret,
the archive's names, and the one-statement move log writing clock and rating jobs."""

from __future__ import annotations

import stat
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from ludotheque.server.clock.controls import REASONS
from ludotheque.server.i18n.place_words import PLACE
from ludotheque.server.settings import Settings
from ludotheque.server.store.db import make_engine, migrate
from ludotheque.server.store.pglog import Append, PgLog
from ludotheque.server.store.secret import server_secret
from tests.loops import run_apart
from tests.server.people import place_client, sign_up
from tests.server.words import TEXTS, word


def test_every_word_in_both_languages() -> None:
    for lang in ("en", "fr"):
        for key in PLACE:
            assert all(str(f).strip() for f in [TEXTS[lang][key]]), key
        for key, english in PLACE.items():  # the English is the code's (a counted word: a list)
            assert TEXTS["en"][key] == (list(english) if isinstance(english, tuple) else english)
        for code, words in REASONS.items():  # the clock's reasons, as clocks.py says them
            assert word(lang, f"reason.{code}").replace("’", "'") == words(lang).replace("’", "'")


def test_the_secret_is_made_once_beside_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    engine = make_engine(url)
    first = server_secret(Settings(database_url=url, secret=""), engine)
    again = server_secret(Settings(database_url=url, secret=""), engine)
    kept = tmp_path / "db.sqlite3.secret"
    assert first == again and len(first) >= 16 and kept.exists()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    given = server_secret(Settings(database_url=url, secret="x" * 20), engine)
    assert given == b"x" * 20
    with pytest.raises(ValueError, match="16 bytes"):
        server_secret(Settings(database_url=url, secret="short"), engine)
    engine.dispose()


def test_the_secret_is_kept_in_postgresql(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate(engine)
    one = server_secret(Settings(database_url=pg_url, secret=""), engine)
    two = server_secret(Settings(database_url=pg_url, secret=""), engine)
    assert one == two and len(one) >= 16
    engine.dispose()


def test_the_archive_names_the_players(make_client: Callable[..., TestClient]) -> None:
    client = place_client(make_client)
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    seek = alice.post("/api/lobby/seeks", {"game": "general", "side": "rebels"}).json()["id"]
    game_id = bob.post(f"/api/lobby/seeks/{seek}/accept").json()["id"]
    bob.post(f"/api/play/{bob.seat(game_id)}/resign", csrf=False)
    row = client.get("/api/archive").json()[0]
    assert row["people"] == {
        "rebels": {"name": "alice", "level": None, "closed": False, "bot": False},
        "general": {"name": "bob", "level": None, "closed": False, "bot": False},
    }
    assert '<a href="/@/alice">alice</a>' in client.get("/archive").text


def test_one_statement_writes_clock_and_rating_jobs(pg_url: str) -> None:
    engine = make_engine(pg_url)
    migrate(engine)
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO games (id, game, ruleset, mode, players, seed, created_at, rated,"
                " public) VALUES ('g1', 'general', 'default', 'friend', '{}', '', now(), true,"
                " true)"
            )
        )
    conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def change(seq: int, **values: object) -> Append:
        base: dict[str, object] = {
            "game_id": "g1", "seq": seq, "events": [("move", {"text": "a2-b2"})],
            "stamp": datetime(2026, 12, 1, tzinfo=UTC), "rematch_id": None, "over": False,
            "winner": None, "reason": None, "to_move": "general", "job_not_before": None,
            "job_created": 10.0 + seq, "notify": False,
        }  # fmt: skip
        base.update(values)
        return Append(**base)  # type: ignore[arg-type]

    async def run() -> None:
        log = PgLog(conninfo, size=1)
        try:
            await log.append(change(0, clock_not_before=100.0, clock_reset=True))
            await log.append(change(1, clock_not_before=200.0, clock_reset=True))
            await log.append(change(2, over=True, winner="rebels", reason="shut-in",
                                    to_move=None, clock_reset=True, rate=True))  # fmt: skip
        finally:
            await log.close()

    run_apart(run())
    with engine.connect() as db:
        jobs = db.execute(text("SELECT kind, seq, status, not_before FROM jobs ORDER BY id")).all()
    assert [tuple(j) for j in jobs] == [
        ("clock", 1, "done", 100.0),  # obsolete once the clock was set again
        ("clock", 2, "done", 200.0),  # and once the game ended
        ("rate", 3, "queued", 12.0),
    ]
    engine.dispose()
