"""Defiance and Domain in the app: the factored turn (an action, then a Command move) and the
refusals."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.defiance.strategies import position
from tests.server.conftest import new_game, token_of


def dd(client: TestClient, **spec: object) -> str:
    return token_of(new_game(client, game="defiance", **spec)["seats"]["both"])


def test_legal_actions_not_thousands_of_turns(client: TestClient) -> None:
    token = dd(client)
    state = client.get(f"/api/play/{token}").json()
    assert len(state["legal"]) == 800 and "e5>N" in state["legal"]
    assert state["extra"]["pools"] == {"rebels": 40, "imperium": 40}
    assert state["extra"]["rebel_command"] == "P2.2"


def test_an_action_then_its_command_moves(client: TestClient) -> None:
    cells = {"h8": "RN", "g7": "INE", "i9": "ISW"}
    token = dd(client, position=position(cells, imperial=("5.8", "8.5"), side="i"))
    view = client.post(f"/api/play/{token}/partial", json={"action": "a10>S"}).json()
    assert view["captured"] == [] and view["outcome"] is None
    entering = {m["move"]: m["captures"] for m in view["command_moves"]}
    assert entering["P8.5-P8.6"] == ["h8"] and entering["P8.5-P9.5"] == []
    state = client.post(
        f"/api/play/{token}/move", json={"move": "a10>S;P8.5-P8.6", "ply": 0}
    ).json()
    assert "h8" not in state["position"] and state["extra"]["pools"]["rebels"] == 40


def test_refusals(client: TestClient) -> None:
    token = dd(client, position=position({"c5": "IE", "e5": "IW"}))
    bad = client.post(f"/api/play/{token}/partial", json={"action": "d5>W"})
    assert bad.status_code == 422 and "dead zone" in bad.json()["detail"]
    bad = client.post(f"/api/play/{token}/move", json={"move": "d5>W", "ply": 0})
    assert bad.status_code == 422 and "dead zone" in bad.json()["detail"]
    bad = client.post(f"/api/play/{token}/move", json={"move": "a1>N;P2.2-P5.5", "ply": 0})
    assert bad.status_code == 422 and "not next to" in bad.json()["detail"]
    assert client.post(f"/api/play/{token}/partial", json={}).status_code == 400
    ok = client.post(f"/api/play/{token}/move", json={"move": "a1>N;P2.2-P3.3", "ply": 0})
    assert ok.status_code == 200 and ok.json()["to_move"] == "imperium"
