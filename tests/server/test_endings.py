"""Every way a game ends on the server, with a controlled clock: time-out, a draw on time, an
abort for a first move too late, a claim against a player who left, resignation, the rules,
abandonment; and what the clock does meanwhile (presses, increments, undo, restarts)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.clock import jobs as clock_jobs
from ludotheque.server.clock import table as timing
from ludotheque.server.clock.controls import FIRST_MOVE_SECONDS, GRACE_UNTIMED
from tests.server.conftest import new_game, token_of
from tests.server.people import controlled, on_loop, place_client


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def state(client: TestClient, token: str) -> dict[str, Any]:
    return dict(client.get(f"/api/play/{token}").json())


def move(client: TestClient, token: str, text: str) -> Any:
    ply = state(client, token)["ply"]
    return client.post(f"/api/play/{token}/move", json={"move": text, "ply": ply})


def away(client: TestClient, token: str, side: str, present: bool = True) -> dict[str, Any]:
    """The view once ``side``'s absence is (or is no longer) written down: a socket's close
    reaches the server a moment after the client let go of it."""
    deadline = time.monotonic() + 10
    while True:
        view = state(client, token)
        if (side in view["table"]["away"]) == present:
            return view
        assert time.monotonic() < deadline, view["table"]
        time.sleep(0.02)


def friend_game(client: TestClient, control: str | None = "1+0", game: str = "general"
                ) -> tuple[str, str]:  # fmt: skip
    created = new_game(client, game=game, mode="friend", control=control)
    sides = list(created["seats"])
    return token_of(created["seats"][sides[0]]), token_of(created["seats"][sides[1]])


def opened(client: TestClient) -> tuple[str, str]:
    """A General game at 1+0 after both sides' first moves (their clocks now run)."""
    rebels, general = friend_game(client)
    assert move(client, rebels, "a2-b2").status_code == 200
    assert move(client, general, "c3-b4").status_code == 200
    return rebels, general


def test_a_late_move_ends_the_game_on_time(client: TestClient) -> None:
    fake = controlled(client)
    rebels, general = opened(client)
    fake.advance(59.5)
    assert move(client, rebels, "a1-a2").status_code == 200  # in time: 0.5 s left
    fake.advance(61)
    refused = move(client, general, "b4-b3")
    assert refused.status_code == 409 and refused.json()["code"] == "time-out"
    view = state(client, rebels)
    assert view["outcome"] == {"winner": "rebels", "reason": "time-out"}
    clock = view["table"]["clock"]
    assert clock["running"] is None and clock["left"]["general"] == 0.0
    assert clock["left"]["rebels"] == pytest.approx(0.5)
    # the end is in the log: a new app on the same database sees the same game
    assert new_game(client)  # (the app still works)
    record = client.get(f"/api/play/{rebels}/record").json()
    assert record["result"] == {"winner": "rebels", "reason": "time-out"}


def test_fischer_increment_and_the_first_moves_are_free(client: TestClient) -> None:
    fake = controlled(client)
    rebels, general = friend_game(client, "5+3")
    fake.advance(20)  # thinking over the first move costs nothing (up to 30 s)
    move(client, rebels, "a2-b2")
    fake.advance(25)
    move(client, general, "c3-b4")
    fake.advance(10)
    move(client, rebels, "a1-a2")
    left = state(client, rebels)["table"]["clock"]["left"]
    assert left["rebels"] == pytest.approx(300 - 10 + 3)
    assert left["general"] == pytest.approx(300)


def test_a_first_move_too_late_aborts_the_game(client: TestClient) -> None:
    fake = controlled(client)
    rebels, _general = friend_game(client)
    view = state(client, rebels)["table"]["clock"]
    assert view["first_move"] == pytest.approx(FIRST_MOVE_SECONDS)
    fake.advance(FIRST_MOVE_SECONDS + 1)
    assert move(client, rebels, "a2-b2").json()["code"] == "time-out"
    assert state(client, rebels)["outcome"] == {"winner": None, "reason": "aborted"}


def test_the_clock_job_ends_a_game_nobody_touches(client: TestClient) -> None:
    fake = controlled(client)
    rebels, _ = opened(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id = state(client, rebels)["id"]
    session = on_loop(client, lambda: service.get(game_id))
    seq = session.clock_seq
    done: list[object] = []
    assert on_loop(client, lambda: clock_jobs.clock_job(service, game_id, seq, done.append))[0] == (
        "early"
    )
    fake.advance(61)
    outcome = on_loop(client, lambda: clock_jobs.clock_job(service, game_id, seq, done.append))
    assert outcome == ("ended", None) and len(done) == 1  # closed in the end's transaction
    assert state(client, rebels)["outcome"] == {"winner": "general", "reason": "time-out"}
    again = on_loop(client, lambda: clock_jobs.clock_job(service, game_id, seq, done.append))
    assert again == ("obsolete", None) and len(done) == 1  # idempotent


def test_a_clock_job_for_an_older_clock_is_obsolete(client: TestClient) -> None:
    controlled(client)
    rebels, _general = opened(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id = state(client, rebels)["id"]
    old = on_loop(client, lambda: service.get(game_id)).clock_seq
    move(client, rebels, "a1-a2")
    result = on_loop(client, lambda: clock_jobs.clock_job(service, game_id, old, lambda db: None))
    assert result == ("obsolete", None)


def test_the_flag_message_asks_the_server_to_look(client: TestClient) -> None:
    fake = controlled(client)
    rebels, general = opened(client)
    client.post(f"/api/play/{general}/flag", json={})  # too early: nothing happens
    assert state(client, rebels)["outcome"] is None
    fake.advance(60.01)
    view = client.post(f"/api/play/{general}/flag", json={}).json()
    assert view["outcome"] == {"winner": "general", "reason": "time-out"}


def test_a_draw_on_time_when_the_opponent_cannot_win(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defiance with one move left before the turn limit: the Imperium cannot reach the
    Rebel Command in time, so the Rebels' flag draws (the search itself: test_clocks)."""
    fake = controlled(client)
    rebels, imperium = friend_game(client, "1+0", game="defiance")
    monkeypatch.setattr(timing, "moves_left", lambda session: 1)
    first = state(client, rebels)["legal"][0]
    assert move(client, rebels, first).status_code == 200
    reply = state(client, imperium)["legal"][0]
    assert move(client, imperium, reply).status_code == 200
    fake.advance(61)
    assert client.post(f"/api/play/{imperium}/flag", json={}).json()["outcome"] == {
        "winner": None, "reason": "time-out"
    }  # fmt: skip


def test_a_backgammon_delay_clock_runs_after_the_roll(client: TestClient) -> None:
    fake = controlled(client)
    white, black = friend_game(client, "1+12d", game="backgammon")
    view = state(client, white)
    mover = view["to_move"]
    token = white if mover == "white" else black
    clock = view["table"]["clock"]
    assert clock["running"] == mover and clock["kind"] == "delay"
    fake.advance(5)
    assert move(client, token, state(client, token)["legal"][0]).status_code == 200
    after = state(client, white)["table"]["clock"]
    assert after["left"][mover] == pytest.approx(60.0)  # the first move is free
    other = "black" if mover == "white" else "white"
    assert after["running"] == other  # the next side rolled (by the server) and runs


def test_a_claim_after_the_grace_period(client: TestClient) -> None:
    fake = controlled(client)
    rebels, general = friend_game(client, None)
    move(client, rebels, "a2-b2")
    with client.websocket_connect(f"/ws/{general}") as ws:
        assert ws.receive_json()["type"] == "state"
    # the general's player left while it is their turn
    gone = away(client, rebels, "general")["table"]["away"]["general"]
    assert gone["claim_at"] == pytest.approx(gone["since"] + GRACE_UNTIMED)
    early = client.post(f"/api/play/{rebels}/claim", json={})
    assert early.status_code == 409 and early.json()["code"] == "no-claim"
    fake.advance(GRACE_UNTIMED + 1)
    assert client.post(f"/api/play/{general}/claim", json={}).status_code == 409  # not theirs
    ended = client.post(f"/api/play/{rebels}/claim", json={}).json()
    assert ended["outcome"] == {"winner": "rebels", "reason": "left", "by": "rebels"}


def test_coming_back_cancels_the_claim(client: TestClient) -> None:
    fake = controlled(client)
    rebels, general = friend_game(client, None)
    move(client, rebels, "a2-b2")
    with client.websocket_connect(f"/ws/{general}") as ws:
        ws.receive_json()
    away(client, rebels, "general")
    with client.websocket_connect(f"/ws/{general}") as ws:
        ws.receive_json()
        away(client, rebels, "general", present=False)
        fake.advance(GRACE_UNTIMED + 1)
        assert client.post(f"/api/play/{rebels}/claim", json={}).status_code == 409


def test_resignation_stops_the_clock(client: TestClient) -> None:
    fake = controlled(client)
    rebels, _general = opened(client)
    fake.advance(7)
    view = client.post(f"/api/play/{rebels}/resign", json={}).json()
    assert view["outcome"] == {"winner": "general", "reason": "resignation"}
    clock = view["table"]["clock"]
    assert clock["running"] is None and clock["left"]["rebels"] == pytest.approx(53)
    fake.advance(100)  # a stopped clock never flags
    assert client.post(f"/api/play/{rebels}/flag", json={}).json()["outcome"]["reason"] == (
        "resignation"
    )


def test_the_rules_end_a_timed_game_and_stop_its_clock(client: TestClient) -> None:
    controlled(client)
    created = new_game(client, mode="local", control="5+3", position="c2 a1,c3,e1,e2,a4,a5 g 1")
    token = token_of(created["seats"]["both"])
    view = move(client, token, "c2-b2").json()
    assert view["outcome"]["winner"] == "general"
    assert view["table"]["clock"]["running"] is None


def test_undo_hands_the_clock_back(client: TestClient) -> None:
    fake = controlled(client)
    created = new_game(client, mode="local", control="5+3")
    token = token_of(created["seats"]["both"])
    move(client, token, "a2-b2")
    move(client, token, "c3-b4")
    fake.advance(4)
    move(client, token, "a1-a2")
    fake.advance(2)
    view = client.post(f"/api/play/{token}/undo", json={}).json()  # a1-a2 taken back
    clock = view["table"]["clock"]
    assert clock["running"] == "rebels" and view["to_move"] == "rebels"
    # the general's 2 s were spent (first moves are free: no increment for them); the
    # rebels' clock runs again from what their taken-back move left it
    assert clock["left"]["general"] == pytest.approx(300 - 2)
    assert clock["left"]["rebels"] == pytest.approx(300 - 4 + 3)


def test_abandoned_games_end_without_a_winner(client: TestClient) -> None:
    rebels, _ = friend_game(client, None)
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id = state(client, rebels)["id"]
    assert on_loop(client, lambda: service.abandon(service.games[game_id]))
    assert state(client, rebels)["outcome"] == {"winner": None, "reason": "abandoned"}


def test_the_clock_survives_a_restart(make_client: Callable[..., TestClient]) -> None:
    first = place_client(make_client)
    fake = controlled(first)
    rebels, _general = opened(first)
    fake.advance(12)
    move(first, rebels, "a1-a2")
    before = state(first, rebels)["table"]["clock"]
    second = place_client(make_client)  # another process on the same database
    after = state(second, rebels)["table"]["clock"]
    assert after["left"] == before["left"] and after["running"] == "general"
    assert after["deadline"] == pytest.approx(before["deadline"])


def test_bad_time_controls_are_refused(client: TestClient) -> None:
    for control, game in (("3+12d", "general"), ("5+3", "backgammon"), ("nonsense", "general"),
                          ("999+0", "general")):  # fmt: skip
        response = client.post("/api/games", json={"game": game, "control": control})
        assert response.status_code == 400 and response.json()["code"] == "bad-control"
    untimed = new_game(client)
    assert untimed["game"]["table"]["clock"] is None
    refused = client.post("/api/games", json={"game": "general", "mode": "computer",
                                              "control": "5+3", "rated": True})  # fmt: skip
    assert refused.status_code == 403  # rated games need an account
