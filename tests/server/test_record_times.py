"""Records keep the game's own times: ``started`` when the game was created and ``ended`` when
its last entry was written, whatever any process has in memory (a game read again from its log
used to say it started and ended at the moment of the download)."""

from __future__ import annotations

import time
from datetime import datetime

from fastapi.testclient import TestClient

from ludotheque.core import Outcome
from ludotheque.server.clock.table import end_event
from tests.server.conftest import new_game, token_of
from tests.server.people import controlled, on_loop


def record_of(client: TestClient, token: str) -> dict[str, object]:
    return dict(client.get(f"/api/play/{token}/record").json())


def forget(client: TestClient) -> None:
    """Drop every game from this process's memory, as an idle sweep or a restart would."""
    service = client.app.state.service  # type: ignore[attr-defined]
    service.memory.games.clear()


def test_a_finished_game_keeps_its_times_after_leaving_memory(client: TestClient) -> None:
    created = new_game(client, game="general", mode="local")
    token = token_of(created["seats"]["both"])
    client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
    client.post(f"/api/play/{token}/resign", json={})
    live = record_of(client, token)
    assert live["started"] and live["ended"]
    time.sleep(1.2)  # a download a moment later must not say "now"
    forget(client)
    again = record_of(client, token)
    assert (again["started"], again["ended"]) == (live["started"], live["ended"])
    started = datetime.fromisoformat(str(again["started"]))
    ended = datetime.fromisoformat(str(again["ended"]))
    assert started <= ended and started.tzinfo is not None
    by_id = client.get(f"/api/games/{created['id']}/record").json()
    assert (by_id["started"], by_id["ended"]) == (live["started"], live["ended"])


def test_an_unfinished_game_read_again_has_no_end(client: TestClient) -> None:
    created = new_game(client, game="general", mode="local")
    token = token_of(created["seats"]["both"])
    client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 0})
    live = record_of(client, token)
    time.sleep(1.2)
    forget(client)
    again = record_of(client, token)
    assert again["started"] == live["started"] and again["ended"] is None


def test_a_game_ended_by_its_clock_has_an_end_time(client: TestClient) -> None:
    created = new_game(client, game="general", mode="friend")
    token = token_of(created["seats"]["rebels"])
    service = client.app.state.service  # type: ignore[attr-defined]
    session = on_loop(client, lambda: service.get(created["id"]))

    async def flag() -> None:
        async with session.lock:
            stamp = service.now()
            ending = end_event(session, Outcome("general", "time-out"), stamp)
            await service.apply(session, lambda: [ending], stamp=stamp)

    on_loop(client, flag)
    live = record_of(client, token)
    assert live["ended"] is not None
    time.sleep(1.2)
    forget(client)
    again = record_of(client, token)
    assert again["ended"] == live["ended"] and again["result"]["reason"] == "time-out"  # type: ignore[index]


def test_a_finished_game_keeps_its_clocks_move_by_move(client: TestClient) -> None:
    """A finished game's view carries each side's time after each change of its clock (its
    replay shows the clocks as they stood), the same when read again from its log; a game
    going on does not (its page has the clock itself)."""
    fake = controlled(client)
    created = new_game(client, game="general", mode="friend", control="5+3")
    rebels, general = (token_of(created["seats"][s]) for s in ("rebels", "general"))
    for ply, (token, text, think) in enumerate([(rebels, "a2-b2", 4.0), (general, "c3-b4", 9.0),
                                                (rebels, "a1-a2", 20.0),
                                                (general, "b4-c3", 50.0)]):  # fmt: skip
        fake.advance(think)
        assert client.post(f"/api/play/{token}/move",
                           json={"move": text, "ply": ply}).status_code == 200  # fmt: skip
    assert client.get(f"/api/play/{rebels}").json()["clocks"] is None
    fake.advance(7.0)
    client.post(f"/api/play/{rebels}/resign", json={})
    clocks = client.get(f"/api/games/{created['id']}").json()["clocks"]
    at = {n: times for n, times in clocks}
    assert at[0] == {"rebels": 300.0, "general": 300.0}  # first moves are free
    assert at[2] == {"rebels": 300.0, "general": 300.0}
    assert at[3] == {"rebels": 283.0, "general": 300.0}  # 20 s thought, 3 s added
    # the last change at 4 plies: 7 s more for the rebels, then the resignation stopped it
    assert at[4] == {"rebels": 276.0, "general": 253.0} and max(at) == 4
    forget(client)
    assert client.get(f"/api/games/{created['id']}").json()["clocks"] == clocks
