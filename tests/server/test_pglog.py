"""The move log's one-statement hot path on a real PostgreSQL: everything or nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from ludotheque.server.store.db import make_engine, migrate
from ludotheque.server.store.pglog import Append, PgLog, Refused
from tests.loops import run_apart


def _change(seq: int, **overrides: object) -> Append:
    values: dict[str, object] = {
        "game_id": "g1",
        "seq": seq,
        "events": [("move", {"text": "a2-b2"}), ("chance", {"text": "31"})],
        "stamp": datetime(2026, 12, 1, tzinfo=UTC),
        "rematch_id": None,
        "over": False,
        "winner": None,
        "reason": None,
        "to_move": "general",
        "job_not_before": 12.5,
        "job_created": 12.0,
        "notify": True,
    }
    values.update(overrides)
    return Append(**values)  # type: ignore[arg-type]


def test_one_statement_writes_the_log_the_summary_the_job_and_the_notices(pg_url: str) -> None:
    import psycopg

    engine = make_engine(pg_url)
    migrate(engine)
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO games (id, game, ruleset, mode, players, seed, created_at) "
                "VALUES ('g1', 'general', 'default', 'computer', '{}', '', now())"
            )
        )
    conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def run() -> list[tuple[str, str]]:
        listener = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
        await listener.execute("LISTEN ludotheque_game")
        await listener.execute("LISTEN ludotheque_job")
        log = PgLog(conninfo, size=2)
        try:
            await log.append(_change(0))
            # the same place again: refused, and nothing of it is written or announced
            with pytest.raises(Refused):
                await log.append(_change(1, over=True, winner="rebels", reason="shut-in"))
            await log.append(_change(2, events=[("move", {"text": "b2-b3"})], job_not_before=None))
            heard: list[tuple[str, str]] = []
            gen = listener.notifies(timeout=1.0)
            async for notice in gen:
                heard.append((notice.channel, notice.payload))
            return heard
        finally:
            await log.close()
            await listener.close()

    heard = run_apart(run())
    assert heard == [
        ("ludotheque_game", "g1 2"),
        ("ludotheque_job", "g1"),
        ("ludotheque_game", "g1 3"),
    ]
    with engine.connect() as db:
        events = db.execute(text("SELECT seq, kind, data FROM events ORDER BY seq")).all()
        game = db.execute(text("SELECT to_move, finished_at, winner FROM games")).one()
        jobs = db.execute(text("SELECT seq, status, not_before FROM jobs")).all()
    assert [(e.seq, e.kind, e.data) for e in events] == [
        (0, "move", {"text": "a2-b2"}),
        (1, "chance", {"text": "31"}),
        (2, "move", {"text": "b2-b3"}),
    ]
    assert (game.to_move, game.finished_at, game.winner) == ("general", None, None)
    assert [(j.seq, j.status, j.not_before) for j in jobs] == [(2, "queued", 12.5)]
    engine.dispose()
