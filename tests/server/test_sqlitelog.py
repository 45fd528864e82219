"""The move log's hot path on SQLite: the ORM's rows, everything or nothing, races refused."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, text
from sqlalchemy.orm import Session

from ludotheque.server.store.db import EventRow, GameRow, JobRow, make_engine, migrate
from ludotheque.server.store.pglog import Append, Refused
from ludotheque.server.store.sqlitelog import SqliteLog

STAMP = datetime(2026, 12, 1, 10, 30, 15, 123456, tzinfo=UTC)


def _change(seq: int, **overrides: object) -> Append:
    values: dict[str, object] = {
        "game_id": "g1",
        "seq": seq,
        "events": [("move", {"text": "a2-b2", "é": [1, 2]}), ("chance", {"text": "31"})],
        "stamp": STAMP,
        "rematch_id": None,
        "over": False,
        "winner": None,
        "reason": None,
        "to_move": "general",
        "job_not_before": 12.5,
        "job_created": 12.0,
        "notify": False,
    }
    values.update(overrides)
    return Append(**values)  # type: ignore[arg-type]


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'log.db'}")
    migrate(engine)
    with Session(engine) as db:
        db.add(
            GameRow(
                id="g1", game="general", ruleset="default", mode="computer", players={},
                seed="", created_at=STAMP,
            )
        )  # fmt: skip
        db.commit()
    yield engine
    engine.dispose()


def test_the_rows_read_back_through_the_orm_as_its_own(engine: Engine) -> None:
    log = SqliteLog(engine)
    log.append(_change(0))
    log.append(_change(2, events=[("move", {"text": "b2-b3"})], job_not_before=None))
    log.close()
    with Session(engine, expire_on_commit=False) as db:
        events = db.scalars(select(EventRow).order_by(EventRow.seq)).all()
        game = db.get(GameRow, "g1")
        jobs = db.scalars(select(JobRow)).all()
        # the same event written by the ORM is stored as the same text
        db.add(EventRow(game_id="g1", seq=9, kind="move", data=events[0].data, created_at=STAMP))
        db.commit()
        raw = db.execute(text("SELECT seq, data, created_at FROM events ORDER BY seq")).all()
    assert [(e.seq, e.kind, e.data) for e in events] == [
        (0, "move", {"text": "a2-b2", "é": [1, 2]}),
        (1, "chance", {"text": "31"}),
        (2, "move", {"text": "b2-b3"}),
    ]
    assert events[0].created_at.replace(tzinfo=UTC) == STAMP
    assert game is not None and game.to_move == "general" and game.finished_at is None
    assert game.updated_at is not None and game.updated_at.replace(tzinfo=UTC) == STAMP
    queued = [(j.kind, j.seq, j.status, j.not_before) for j in jobs]
    assert queued == [("computer", 2, "queued", 12.5)]
    assert raw[0][1:] == raw[-1][1:]


def test_a_taken_place_is_refused_and_nothing_of_it_is_written(engine: Engine) -> None:
    log = SqliteLog(engine)
    log.append(_change(0, job_not_before=None))
    with pytest.raises(Refused):  # seq 1 is taken by the chance event: a lost race
        log.append(_change(1, over=True, winner="rebels", reason="shut-in", job_not_before=3.0))
    log.append(_change(2, events=[("move", {"text": "b2-b3"})], job_not_before=None))
    log.close()
    with Session(engine) as db:
        game = db.get(GameRow, "g1")
        assert db.scalars(select(EventRow.seq).order_by(EventRow.seq)).all() == [0, 1, 2]
        assert db.scalars(select(JobRow)).all() == []
    assert game is not None and game.finished_at is None and game.winner is None


def test_a_finished_game_keeps_its_first_finish_and_obsolete_clocks_are_closed(
    engine: Engine,
) -> None:
    log = SqliteLog(engine)
    log.append(_change(0, job_not_before=None, clock_not_before=60.0))
    log.append(
        _change(2, events=[("end", {})], over=True, winner="rebels", reason="shut-in",
                job_not_before=None, clock_reset=True, rate=True, job_created=20.0)
    )  # fmt: skip
    later = datetime(2026, 12, 2, tzinfo=UTC)
    log.append(
        _change(3, events=[("note", {})], over=True, winner="rebels", reason="shut-in",
                job_not_before=None, stamp=later)
    )  # fmt: skip
    log.close()
    with Session(engine) as db:
        game = db.get(GameRow, "g1")
        jobs = db.scalars(select(JobRow).order_by(JobRow.id)).all()
    assert game is not None and game.finished_at is not None
    assert game.finished_at.replace(tzinfo=UTC) == STAMP  # not the later write's time
    assert game.updated_at is not None and game.updated_at.replace(tzinfo=UTC) == later
    assert (game.winner, game.reason, game.to_move) == ("rebels", "shut-in", None)
    assert [(j.kind, j.status, j.error) for j in jobs] == [
        ("clock", "done", "obsolete"),
        ("rate", "queued", None),
    ]
