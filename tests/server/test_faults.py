"""Faults that must touch one game at most: a log that no longer replays, a job that keeps
failing. Each runs on SQLite and on PostgreSQL (see conftest)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from ludotheque.server.compute import worker as worker_module
from ludotheque.server.compute.worker import backoff
from ludotheque.server.store.db import GameRow, JobRow

from .conftest import new_game, token_of

CRAFTED = {
    "game": "backgammon", "ruleset": "match", "mode": "computer", "side": "white",
    "level": "easy",
    "position": "W[24x2,13x5,8x3,6x5] B[24x2,13x5,8,6x6,3] w 33 cube 2b match 0 0-0",
}  # fmt: skip
"""The position an audit stored without its match (``match 0``): the game never loaded."""


def jobs_of(client: TestClient, game_id: str) -> list[JobRow]:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        return list(db.scalars(select(JobRow).where(JobRow.game_id == game_id)).all())


def run_sql(client: TestClient, statement: Any) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        db.execute(statement)
        db.commit()


def test_the_audits_position_is_refused_rather_than_stored(client: TestClient) -> None:
    response = client.post("/api/games", json=CRAFTED)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid-position"


def test_a_game_whose_log_does_not_replay_is_set_aside_alone(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(computer_delay=60.0)  # the computer's jobs wait until we say
    service = client.app.state.service  # type: ignore[attr-defined]
    broken = new_game(client, mode="computer", side="general", level="easy")  # it moves first
    healthy = new_game(client, mode="computer", side="general", level="easy")
    broken_token = token_of(broken["seats"]["both"])
    healthy_token = token_of(healthy["seats"]["both"])
    # the stored start no longer reads (as the audit's game did after a restart)
    run_sql(client, update(GameRow).where(GameRow.id == broken["id"]).values(start="c3 z9 r 1"))
    client.portal.call(lambda: service.games.clear())  # type: ignore[union-attr]
    with caplog.at_level(logging.ERROR, logger="ludotheque"):
        run_sql(client, update(JobRow).values(not_before=0.0))  # both computers due now
        first = client.get(f"/api/play/{broken_token}", headers={"Accept-Language": "fr"})
        assert first.status_code == 410, first.text
        assert first.json()["code"] == "unreadable"
        assert "mise de côté" in first.json()["detail"]
        again = client.get(f"/api/play/{broken_token}")
        assert again.status_code == 410 and "set aside" in again.json()["detail"]
        # the healthy game's computer moves as usual
        deadline = time.monotonic() + 20
        while client.get(f"/api/play/{healthy_token}").json()["ply"] < 1:
            assert time.monotonic() < deadline, "the other game's computer never moved"
            time.sleep(0.05)
    jobs = jobs_of(client, broken["id"])
    assert jobs and all(j.status == "dead" for j in jobs), [(j.status, j.error) for j in jobs]
    assert all("unreadable" in (j.error or "") for j in jobs)
    said = [r.getMessage() for r in caplog.records if broken["id"] in r.getMessage()]
    assert len(said) == 1 and "set aside" in said[0], said  # once, however often asked


def test_a_socket_on_an_unreadable_game_is_told_and_closed(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    created = new_game(client)
    token = token_of(created["seats"]["both"])
    run_sql(client, update(GameRow).where(GameRow.id == created["id"]).values(start="nonsense"))
    client.app.state.service.games.clear()  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{token}") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "unreadable"


def test_failed_jobs_wait_longer_each_time_up_to_a_cap() -> None:
    waits = [backoff(n) for n in range(1, 12)]
    assert waits[0] == 0.5 and waits[1] == 1.0 and waits[2] == 2.0
    assert waits == sorted(waits) and max(waits) == 30.0


def test_a_job_that_fails_every_try_is_dead_and_left_alone(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer cannot think in time, and even its random fallback fails: the job is tried
    ``job_attempts + 1`` times, waiting longer each time, then kept as dead with its error."""

    def broken_agent(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("no agent today")

    monkeypatch.setattr(worker_module, "make_agent", broken_agent)
    client = make_client(job_time_limit=0.001, job_attempts=2)
    created = new_game(client, mode="computer", side="general", level="hard")
    deadline = time.monotonic() + 30
    while True:
        jobs = [j for j in jobs_of(client, created["id"]) if j.kind == "computer"]
        if jobs and jobs[0].status == "dead":
            break
        assert time.monotonic() < deadline, [(j.status, j.attempts, j.error) for j in jobs]
        time.sleep(0.1)
    job = jobs[0]
    assert job.attempts == 3 and "no agent today" in (job.error or "")
    # tries 1 and 2 timed out, try 3 (the fallback) raised: 0.5 s then 1 s apart at least
    assert job.finished_at is not None and job.finished_at - job.created_at >= 1.5
    time.sleep(1.5)
    job_again = next(j for j in jobs_of(client, created["id"]) if j.kind == "computer")
    assert (job_again.status, job_again.attempts) == ("dead", 3)  # never tried again
    state = client.get(f"/api/play/{token_of(created['seats']['both'])}").json()
    assert state["ply"] == 0  # nothing was played


# -- what clients send --------------------------------------------------------------------


def test_a_binary_frame_is_refused_with_1003_and_no_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    with caplog.at_level(logging.WARNING), client.websocket_connect(f"/ws/{token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00\x01binary")
        told = ws.receive_json()
        assert told["type"] == "error" and told["code"] == "binary"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


def test_a_flooding_socket_is_slowed_then_closed_and_others_play_on(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    created = new_game(client, mode="friend")
    rebels, general = token_of(created["seats"]["rebels"]), token_of(created["seats"]["general"])
    other = token_of(new_game(client)["seats"]["both"])
    pongs = refusals = 0
    with (
        caplog.at_level(logging.WARNING),
        client.websocket_connect(f"/ws/{rebels}") as flood,
        client.websocket_connect(f"/ws/{other}") as calm,
    ):
        assert flood.receive_json()["type"] == "state"
        assert calm.receive_json()["type"] == "state"
        for _ in range(400):
            flood.send_text('{"type":"ping"}')
        code = None
        while code is None:
            try:
                message = flood.receive_json()
            except WebSocketDisconnect as gone:
                code = gone.code
                break
            if message["type"] == "pong":
                pongs += 1
            elif message.get("code") in ("too-fast", "flood"):
                refusals += 1
        assert code == 1008
        assert 1 <= pongs <= 15 and refusals >= 2, (pongs, refusals)
        calm.send_json({"type": "move", "move": "a2-b2", "ply": 0})
        assert receive(calm, "state")["game"]["ply"] == 1
    # the flooder's opponent is not punished, nor is the flooder's seat: it may come back
    with client.websocket_connect(f"/ws/{general}") as g:
        assert g.receive_json()["type"] == "state"
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


def receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


# -- the database failing -----------------------------------------------------------------


def _store_path(service: Any) -> tuple[Any, str]:
    """The object and method name of the hot write path of this database."""
    return (service.pglog, "append") if service.pglog is not None else (service.sqlitelog, "append")


def test_a_deadlocked_write_is_tried_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    service = client.app.state.service  # type: ignore[attr-defined]
    token = token_of(new_game(client)["seats"]["both"])
    target, name = _store_path(service)
    real = getattr(target, name)
    failures = [2]

    def flaky(*args: Any) -> Any:
        if failures[0] > 0:
            failures[0] -= 1
            raise psycopg.errors.DeadlockDetected("deadlock detected (a test)")
        return real(*args)

    monkeypatch.setattr(target, name, flaky)
    moved = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
    assert moved.status_code == 200, moved.text
    failures[0] = 10
    refused = client.post(f"/api/play/{token}/move", json={"move": "c3-b4", "ply": 1})
    assert refused.status_code == 409 and refused.json()["code"] == "busy", refused.text
    monkeypatch.setattr(target, name, real)
    state = client.get(f"/api/play/{token}").json()
    assert [h["text"] for h in state["history"]] == ["a2-b2"]


def test_a_write_whose_commit_is_uncertain_is_checked_against_the_log(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails as the move is committed: the log says whether it is there, and
    the player is told the truth either way."""
    import psycopg

    service = client.app.state.service  # type: ignore[attr-defined]
    token = token_of(new_game(client)["seats"]["both"])
    target, name = _store_path(service)
    real = getattr(target, name)
    committed_then_lost = True

    def lost(*args: Any) -> Any:
        if committed_then_lost:
            result = real(*args)
            if hasattr(result, "__await__"):

                async def after() -> None:
                    await result
                    raise psycopg.OperationalError("server closed the connection (a test)")

                return after()
        raise psycopg.OperationalError("server closed the connection (a test)")

    monkeypatch.setattr(target, name, lost)
    moved = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
    assert moved.status_code == 200, moved.text  # it is in the log: it was played
    committed_then_lost = False
    failed = client.post(
        f"/api/play/{token}/move", json={"move": "c3-b4", "ply": 1},
        headers={"Accept-Language": "fr"},
    )  # fmt: skip
    assert failed.status_code == 503 and failed.json()["code"] == "unavailable", failed.text
    assert "rien n’a changé" in failed.json()["detail"]
    monkeypatch.setattr(target, name, real)
    state = client.get(f"/api/play/{token}").json()
    assert [h["text"] for h in state["history"]] == ["a2-b2"] and state["ply"] == 1
