"""Seats belong to accounts: the link of a seat that a signed-in player holds (a lobby game,
a named challenge, quick pairing, a game against the computer) acts only for that account,
from any device; anyone else who has the link sees what watchers see. Anonymous games keep
their private links. Players find their running games on the home page, and the header of
every page names the person looking at it, never the page's subject."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import token_of
from tests.server.people import PASSWORD, Person, place_client, sign_up, visitor


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def rated_game(alice: Person, bob: Person) -> tuple[str, str, str]:
    """A rated lobby game, alice the Rebels: (id, alice's token, bob's token)."""
    seek = alice.post("/api/lobby/seeks", {"game": "general", "control": "5+3", "rated": True,
                                           "side": "rebels"})  # fmt: skip
    assert seek.status_code == 201, seek.text
    accepted = bob.post(f"/api/lobby/seeks/{seek.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    game_id = str(accepted.json()["id"])
    return game_id, alice.seat(game_id), bob.seat(game_id)


def sign_in(client: TestClient, name: str) -> Person:
    """``name`` signing in on another device (a fresh cookie jar)."""
    person = visitor(client)
    with person.acting() as c:
        page = c.get("/signin").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf is not None
        response = c.post(
            "/signin",
            data={"csrf": csrf.group(1), "username": name, "password": PASSWORD, "next": "/"},
            follow_redirects=False,
        )  # fmt: skip
        assert response.status_code == 303, response.text
    person.name = name
    return person


def sign_out(person: Person) -> None:
    page = person.get("/").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    with person.acting() as c:
        response = c.post("/signout", data={"csrf": csrf.group(1)}, follow_redirects=False)
        assert response.status_code == 303


def socket_view(person: Person, token: str, then: dict[str, Any] | None = None
                ) -> tuple[dict[str, Any], dict[str, Any] | None]:  # fmt: skip
    """The view a person's socket on ``token`` gets, and the answer to ``then`` if given."""
    with person.acting() as c, c.websocket_connect(f"/ws/{token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        answer = None
        if then is not None:
            ws.send_json(then)
            answer = ws.receive_json()
            while answer.get("type") in ("chat", "chat-history", "presence"):
                answer = ws.receive_json()
        return first["game"], answer


def test_a_seat_link_plays_only_for_its_account(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id, a, _b = rated_game(alice, bob)
    stranger = visitor(client)
    carol = sign_up(client, "carol")
    move = {"move": "a2-b2", "ply": 0}
    for other in (stranger, bob, carol):  # anonymous, the opponent, another account
        view = other.get(f"/api/play/{a}").json()
        assert view["seat"] == "watch" and view["id"] == game_id
        refused = other.post(f"/api/play/{a}/move", move, csrf=False)
        assert refused.status_code in (403, 409), refused.text
        seen, answer = socket_view(other, a, {"type": "move", **move})
        assert seen["seat"] == "watch"
        assert answer is not None and answer["type"] == "error"
        # the seat's page shows the game as watchers see it, and says whose seat it is
        page = other.get(f"/play/{a}")
        assert page.status_code == 200 and 'data-seat="watch"' in page.text
        assert 'id="not-yours"' in page.text and "alice" in page.text
    assert alice.get(f"/api/play/{a}").json()["ply"] == 0  # nothing was played for her
    # alice herself plays, from this browser and from another one
    assert alice.get(f"/api/play/{a}").json()["seat"] == "rebels"
    elsewhere = sign_in(client, "alice")
    token = elsewhere.seat(game_id)
    assert token == a
    seen, answer = socket_view(elsewhere, token, {"type": "move", **move})
    assert seen["seat"] == "rebels" and answer is not None and answer["type"] != "error"
    assert alice.get(f"/api/play/{a}").json()["ply"] == 1
    # the watchers' address of her own seat brings her to her seat
    watch = alice.get(f"/watch/{a}", follow_redirects=False)
    assert watch.status_code == 303 and watch.headers["location"] == f"/play/{a}"
    # signing out takes the link's power away in that browser
    sign_out(elsewhere)
    assert elsewhere.get(f"/api/play/{a}").json()["seat"] == "watch"
    gone = elsewhere.post(f"/api/play/{a}/resign", csrf=False)
    assert gone.status_code in (403, 409)
    assert alice.get(f"/api/play/{a}").json()["outcome"] is None


def test_chat_through_a_leaked_link_is_not_the_players(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    _, a, _ = rated_game(alice, bob)
    stranger = visitor(client)
    with stranger.acting() as c, c.websocket_connect(f"/ws/{a}") as ws:
        assert ws.receive_json()["game"]["seat"] == "watch"
        ws.send_json({"type": "chat", "text": "hello as alice"})
        answer = ws.receive_json()
        while answer.get("type") == "chat-history":
            answer = ws.receive_json()
        # a watcher without an account may not talk in a game between players
        assert answer["type"] == "error" or answer.get("name") != "alice"
    with alice.acting() as c, c.websocket_connect(f"/ws/{a}") as ws:
        assert ws.receive_json()["game"]["seat"] == "rebels"
        history = ws.receive_json()
        lines = history.get("lines") or history.get("messages") or []
        assert all("hello as alice" not in str(line) for line in lines)


def test_a_game_against_the_computer_belongs_to_its_player(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    created = alice.post("/api/games", {"game": "general", "mode": "computer", "level": "easy",
                                        "side": "rebels"})  # fmt: skip
    assert created.status_code == 201, created.text
    token = token_of(created.json()["seats"]["both"])
    assert alice.get(f"/api/play/{token}").json()["seat"] == "both"
    stranger = visitor(client)
    assert stranger.get(f"/api/play/{token}").json()["seat"] == "watch"
    refused = stranger.post(f"/api/play/{token}/move", {"move": "a2-b2", "ply": 0}, csrf=False)
    assert refused.status_code in (403, 409)
    hints = stranger.post(f"/api/play/{token}/hints", csrf=False)
    assert hints.status_code == 403


def test_anonymous_games_keep_their_links(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "general", "mode": "friend"}).json()
    rebels = token_of(created["seats"]["rebels"])
    friend = visitor(client)
    assert friend.get(f"/api/play/{rebels}").json()["seat"] == "rebels"
    moved = friend.post(f"/api/play/{rebels}/move", {"move": "a2-b2", "ply": 0}, csrf=False)
    assert moved.status_code == 200, moved.text
    # and an anonymous game against the computer too
    alone = client.post("/api/games", json={"game": "general", "mode": "computer"}).json()
    both = token_of(alone["seats"]["both"])
    assert visitor(client).get(f"/api/play/{both}").json()["seat"] == "both"


def test_a_friend_seat_taken_by_an_account_becomes_theirs(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "general", "mode": "friend"}).json()
    rebels = token_of(created["seats"]["rebels"])
    alice = sign_up(client, "alice")
    _seen, _ = socket_view(alice, rebels)  # she sits down with her name
    view = alice.get(f"/api/play/{rebels}").json()
    assert view["table"]["people"]["rebels"]["name"] == "alice" and view["seat"] == "rebels"
    assert visitor(client).get(f"/api/play/{rebels}").json()["seat"] == "watch"


def test_the_home_page_lists_the_games_one_plays(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id, a, _ = rated_game(alice, bob)
    mine = alice.get("/").text
    assert 'id="running"' in mine and f'href="/resume/{game_id}"' in mine
    assert "Le Général et les rebelles against bob" in mine
    assert "Your turn" in mine  # the Rebels move first
    theirs = bob.get("/", headers={"accept-language": "fr"}).text
    assert f'href="/resume/{game_id}"' in theirs and "contre alice" in theirs
    assert "À vous de jouer" not in theirs
    assert 'id="running"' not in visitor(client).get("/").text
    assert 'id="running"' not in sign_up(client, "carol").get("/").text
    # from another device, the list leads to the seat
    elsewhere = sign_in(client, "alice")
    resumed = elsewhere.get(f"/resume/{game_id}", follow_redirects=False)
    assert resumed.headers["location"] == f"/play/{a}"
    # a finished game leaves the list
    alice.post(f"/api/play/{a}/resign", csrf=False)
    assert f"/resume/{game_id}" not in alice.get("/").text


def test_an_anonymous_lobby_player_finds_their_game(client: TestClient) -> None:
    anna, ben = visitor(client), visitor(client)
    seek = anna.post("/api/lobby/seeks", {"game": "general", "control": "5+3"})
    game_id = ben.post(f"/api/lobby/seeks/{seek.json()['id']}/accept").json()["id"]
    for person in (anna, ben):
        page = person.get("/").text
        assert f'href="/resume/{game_id}"' in page and "against Anonymous" in page


def header_name(html: str) -> str | None:
    """The account the header names (``None``: the header offers to sign in)."""
    account = html.split('id="account"', 1)[1].split("</div>", 1)[0]
    found = re.search(r'id="me"[^>]*>([^<]+)<', account)
    if found is None:
        assert 'id="signin-link"' in account
        return None
    return found.group(1).strip()


def test_every_page_names_who_is_looking(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    _game_id, a, _ = rated_game(alice, bob)
    alice.post(f"/api/play/{a}/move", {"move": "a2-b2", "ply": 0}, csrf=False)
    finished = client.post("/api/games", json={"game": "general", "mode": "local"}).json()
    local = token_of(finished["seats"]["both"])
    client.post(f"/api/play/{local}/resign", json={})
    pages = [
        "/", "/lobby", "/leaderboard", "/archive", f"/archive/{finished['game']['id']}",
        "/rules", "/rules/general", "/dice", "/signin", "/signup", "/@/alice", "/@/bob",
        "/@/computer-easy", f"/play/{a}", f"/watch/{a}", f"/play/{local}",
        f"/analysis?game={finished['game']['id']}", "/docs", "/nowhere", "/play/no-such-seat",
    ]  # fmt: skip
    people: list[tuple[Person, str | None]] = [
        (visitor(client), None), (alice, "alice"), (bob, "bob")
    ]  # fmt: skip
    for person, name in people:
        for path in pages:
            response = person.get(path)
            assert "text/html" in response.headers["content-type"], path
            assert header_name(response.text) == name, (path, name)


def test_a_fresh_browser_is_a_watcher(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    _, a, _ = rated_game(alice, bob)
    bare = Person(client, httpx.Cookies(), None)  # no cookie at all, not even CSRF
    assert bare.get(f"/api/play/{a}").json()["seat"] == "watch"
