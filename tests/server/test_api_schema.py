"""The API's documentation is true: every operation of ``/openapi.json`` declares its body and
answers, and what the server really sends fits the documented models, unknown fields forbidden
(a field added to an answer without its documentation fails here)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter

from ludotheque.server.accounts.schemas import Me, Profile
from ludotheque.server.analysis.schemas import AnalysisAnswer, BoardBest, BoardView, Hints
from ludotheque.server.lobby.schemas import LobbyView
from ludotheque.server.play.schemas import (
    ArchiveEntry,
    Created,
    GameRecord,
    GameView,
    Partial,
    Refusal,
    RematchLink,
)

from .conftest import new_game, token_of

# the Bot API's actions without a body, as lichess's are (what they do is in their path)
BODILESS = {
    "/api/bot/account/upgrade",
    "/api/bot/game/{game_id}/move/{move}",
    "/api/bot/game/{game_id}/resign",
    "/api/bot/game/{game_id}/abort",
    "/api/bot/game/{game_id}/draw/{accept}",
    "/api/bot/game/{game_id}/rematch",
    "/api/challenge/{challenge_id}/accept",
    "/api/challenge/{challenge_id}/decline",
    "/api/challenge/{challenge_id}/cancel",
    # joining, withdrawing from a tournament and going berserk in it, as lichess's
    "/api/tournament/{tid}/join",
    "/api/tournament/{tid}/withdraw",
    "/api/tournament/{tid}/berserk",
}


def fits(model: Any, data: Any) -> None:
    TypeAdapter(model).validate_python(data, strict=False)


def test_every_operation_documents_its_body_and_answers(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    operations = [(path, method, op) for path, ops in spec["paths"].items()
                  for method, op in ops.items()]  # fmt: skip
    assert len(operations) >= 25
    for path, method, op in operations:
        assert path.startswith("/api/"), path  # the pages are not the API
        answers = op["responses"]
        ok = answers.get("200") or answers.get("201")
        assert ok is not None, (method, path)
        assert {"400", "404", "409", "422", "429"} <= set(answers), (method, path)
        assert answers["409"]["content"]["application/json"]["schema"]["$ref"].endswith("/Refusal")
        if method == "post" and path not in {"/api/lobby/seeks/{seek_id}/accept",
                                             "/api/lobby/seeks/{seek_id}/cancel",
                                             "/api/lobby/seeks/{seek_id}/decline",
                                             "/api/play/{token}/hints"} | BODILESS:  # fmt: skip
            assert "requestBody" in op, (method, path)
    create = spec["paths"]["/api/games"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/NewGame")
    move = spec["paths"]["/api/play/{token}/move"]["post"]
    schema = spec["components"]["schemas"]["MoveBody"]
    assert move["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["required"]) == {"move", "ply"}
    assert "description" in schema["properties"]["ply"]


def test_the_answers_fit_their_documentation(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "backgammon", "ruleset": "money",
                                              "mode": "friend"}).json()  # fmt: skip
    fits(Created, created)
    white = token_of(created["seats"]["white"])
    fits(GameView, client.get(f"/api/play/{white}").json())
    fits(Partial, client.post(f"/api/play/{white}/partial", json={"steps": []}).json())
    refusal = client.post(f"/api/play/{white}/move", json={"move": "zz", "ply": 99})
    assert refusal.status_code == 409
    fits(Refusal, refusal.json())
    for game in ("general", "defiance"):
        local = new_game(client, game=game)
        token = token_of(local["seats"]["both"])
        view = client.get(f"/api/play/{token}").json()
        fits(GameView, view)
        moved = client.post(f"/api/play/{token}/move", json={"move": view["legal"][0], "ply": 0})
        fits(GameView, moved.json())
        fits(Hints, client.post(f"/api/play/{token}/hints", json={}).json())
        resigned = client.post(f"/api/play/{token}/resign", json={})
        fits(GameView, resigned.json())
        fits(GameRecord, client.get(f"/api/play/{token}/record").json())
        fits(GameRecord, client.get(f"/api/games/{local['id']}/record").json())
        fits(GameView, client.get(f"/api/games/{local['id']}").json())
        fits(AnalysisAnswer, client.get(f"/api/games/{local['id']}/analysis").json())
        fits(RematchLink, client.post(f"/api/play/{token}/rematch", json={}).json())
        board = client.post("/api/analysis/position", json={"game": game}).json()
        fits(BoardView, board)
        after = {"game": game, "move": board["legal"][0]}
        fits(BoardView, client.post("/api/analysis/position", json=after).json())
        fits(BoardBest, client.post("/api/analysis/best", json={"game": game}).json())
    fits(list[ArchiveEntry], client.get("/api/archive").json())
    fits(LobbyView, client.get("/api/lobby").json())
    fits(Me, client.get("/api/me").json())
    fits(Profile, client.get("/api/players/computer-hard").json())


def test_the_models_forbid_unknown_fields() -> None:
    """A field the server adds without documenting it is caught by the test above."""
    for model in (GameView, Created, Partial, Refusal, LobbyView, Me, Profile, BoardView):
        assert issubclass(model, BaseModel)
    try:
        Refusal.model_validate({"detail": "x", "code": "y", "extra": 1})
    except ValueError:
        return
    raise AssertionError("an unknown field was accepted")
