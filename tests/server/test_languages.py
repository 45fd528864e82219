"""A French page gets French refusals: the API, the WebSocket and the error pages answer in
the language of the page (its cookie, else the browser's Accept-Language)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, token_of

FR = {"accept-language": "fr-FR,fr;q=0.9"}


def test_refusals_follow_the_language(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    english = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 5})
    assert "older position" in english.json()["detail"]
    french = client.post(f"/api/play/{token}/move", json={"move": "a2-b2", "ply": 5}, headers=FR)
    assert french.status_code == 409 and "position dépassée" in french.json()["detail"]
    client.cookies.set("lang", "fr")
    assert "n'ouvre aucune partie" in client.get("/api/play/nope").json()["detail"]
    assert "ouvre aucune partie" in client.get("/play/nope").text
    illegal = client.post(f"/api/play/{token}/move", json={"move": "c3-c5", "ply": 0})
    assert illegal.json()["detail"] == "le général est en c3, et c’est aux rebelles de jouer"
    created = client.post("/api/games", json={"game": "general", "position": "zz"})
    assert created.json()["detail"].startswith("position invalide")
    client.cookies.set("lang", "en")
    assert "does not open any game" in client.get("/play/nope").text


def test_socket_refusals_follow_the_language(client: TestClient) -> None:
    token = token_of(new_game(client)["seats"]["both"])
    client.cookies.set("lang", "fr")
    with client.websocket_connect(f"/ws/{token}") as ws:
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_json({"type": "move", "move": "a2-b2", "ply": 7})
        message = ws.receive_json()
        assert message["type"] == "error" and "position dépassée" in message["message"]
        ws.send_text("{nope")
        assert "mal formé" in ws.receive_json()["message"]


def test_every_side_to_move_reads_well_in_french() -> None:
    from ludotheque.server.i18n import TEXTS

    fr = TEXTS["fr"]
    assert fr["play.to_move.general"] == "Au Général de jouer"
    assert fr["play.to_move.imperium"].startswith("À l'Imperium")
    assert fr["play.to_move"].format(side=fr["side.rebels"]) == "Aux Rebelles de jouer"
