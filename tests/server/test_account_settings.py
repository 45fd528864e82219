"""One's account: the sign-up and sign-in pages tell a signed-in person so and never switch
accounts; names too long are refused, never cut; the account page changes the password (the
other sessions end), downloads every game as one file, and closes the account (its name
leaves old games, its ratings the leaderboard, its sessions end, its name stays taken)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from ludotheque.record import Record
from ludotheque.server.store.db import RatingRow
from tests.server.conftest import token_of
from tests.server.people import PASSWORD, Person, place_client, sign_up, visitor

NEW_PASSWORD = "another fine password"


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def form_token(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def form(person: Person, page: str, action: str, **fields: str) -> object:
    """Post the form of ``page`` to ``action`` as ``person``; the response."""
    with person.acting() as c:
        token = form_token(c.get(page).text)
        return c.post(action, data={"csrf": token, **fields}, follow_redirects=False)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Person:
    """A new session of ``name`` (another browser)."""
    person = visitor(client)
    response = form(person, "/signin", "/signin", username=name, password=password)
    assert response.status_code == 303, response.text  # type: ignore[attr-defined]
    person.name = name
    return person


def me(person: Person) -> str | None:
    user = person.get("/api/me").json()["user"]
    return None if user is None else str(user["username"])


def test_the_sign_up_and_sign_in_pages_tell_a_signed_in_person_so(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    for path in ("/signup", "/signin"):
        page = alice.get(path).text
        assert "You are signed in as alice." in page and 'id="signed-in-signout"' in page
        assert 'id="signup-form"' not in page and 'id="signin-form"' not in page
    alice.jar.set("lang", "fr")
    assert "Vous êtes connecté en tant que alice." in alice.get("/signup").text
    sign_up(client, "bob")
    # a form posted while signed in (a tab left open) is refused, and nothing switches
    for path, name in (("/signup", "carol"), ("/signin", "bob")):
        with alice.acting() as c:
            token = form_token(c.get("/").text)
            refused = c.post(path, data={"csrf": token, "username": name,
                                         "password": PASSWORD})  # fmt: skip
        assert refused.status_code == 409
        assert "déconnectez-vous d’abord" in refused.text and "alice" in refused.text
        assert me(alice) == "alice"
    assert client.get("/api/players/carol").status_code == 404


def test_a_name_too_long_is_refused_saying_the_limit_never_cut(client: TestClient) -> None:
    person = visitor(client)
    for lang, words in (("en", "2 to 20 characters (this one has 200)"),
                        ("fr", "de 2 à 20 caractères (celui-ci en a 200)")):  # fmt: skip
        person.jar.set("lang", lang)
        response = form(person, "/signup", "/signup", username="a" * 200, password=PASSWORD)
        assert response.status_code == 400  # type: ignore[attr-defined]
        assert words in response.text  # type: ignore[attr-defined]
    assert client.get("/api/players/" + "a" * 20).status_code == 404  # nothing was made
    page = client.get("/signup").text
    assert 'maxlength="20"' not in page  # the browser does not cut it either


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(
    client: TestClient,
) -> None:
    alice = sign_up(client, "alice")
    elsewhere = sign_in(client, "alice")
    assert me(elsewhere) == "alice"
    wrong = form(alice, "/account", "/account/password", current="not it",
                 new=NEW_PASSWORD, repeat=NEW_PASSWORD)  # fmt: skip
    assert wrong.status_code == 403 and "not your current password" in wrong.text  # type: ignore[attr-defined]
    differ = form(alice, "/account", "/account/password", current=PASSWORD,
                  new=NEW_PASSWORD, repeat=NEW_PASSWORD + "!")  # fmt: skip
    assert differ.status_code == 400  # type: ignore[attr-defined]
    weak = form(alice, "/account", "/account/password", current=PASSWORD, new="alice",
                repeat="alice")  # fmt: skip
    assert weak.status_code == 400 and "at least 8" in weak.text  # type: ignore[attr-defined]
    assert me(elsewhere) == "alice"  # nothing changed yet
    done = form(alice, "/account", "/account/password", current=PASSWORD, new=NEW_PASSWORD,
                repeat=NEW_PASSWORD)  # fmt: skip
    assert done.status_code == 303  # type: ignore[attr-defined]
    assert done.headers["location"] == "/account?changed=password"  # type: ignore[attr-defined]
    assert "Your password is changed" in alice.get("/account?changed=password").text
    assert me(alice) == "alice" and me(elsewhere) is None
    with pytest.raises(AssertionError):
        sign_in(client, "alice", PASSWORD)
    assert me(sign_in(client, "alice", NEW_PASSWORD)) == "alice"


def test_the_account_page_is_for_the_signed_in(client: TestClient) -> None:
    response = client.get("/account", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/signin?next=/account"
    assert client.get("/account/games").status_code == 401
    alice = sign_up(client, "alice")
    page = alice.get("/account").text
    assert 'action="/account/password"' in page and 'action="/account/close"' in page
    assert 'href="/account/games"' in page and 'href="/@/alice"' in page


def test_download_all_my_games_is_one_file_of_records(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    first = alice.post("/api/games", {"game": "general", "mode": "computer", "level": "easy"})
    second = alice.post("/api/games", {"game": "defiance", "mode": "computer"})
    assert first.status_code == second.status_code == 201
    client.post("/api/games", json={"game": "general", "mode": "computer"})  # someone else's
    response = alice.get("/account/games")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    assert "ludotheque-alice-games.jsonl" in response.headers["content-disposition"]
    lines = response.text.splitlines()
    records = [Record.from_json(line) for line in lines]
    assert sorted(r.game for r in records) == ["defiance", "general"]
    assert all(r.players for r in records)


def test_closing_an_account_anonymises_it_ends_its_sessions_and_keeps_its_name(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    elsewhere = sign_in(client, "alice")
    created = client.post("/api/games", json={"game": "general", "mode": "friend"}).json()
    rebels, general = token_of(created["seats"]["rebels"]), token_of(created["seats"]["general"])
    for person, token in ((alice, rebels), (bob, general)):  # each takes their seat
        with person.acting() as c, c.websocket_connect(f"/ws/{token}") as ws:
            while ws.receive_json()["type"] != "chat-history":
                pass
            if person is alice:
                ws.send_json({"type": "chat", "text": "hello from alice", "id": "a1"})
                while ws.receive_json().get("id") != "a1":
                    pass
    bob.post(f"/api/play/{general}/resign", csrf=False)  # a finished game, in the archive
    service = client.app.state.service  # type: ignore[attr-defined]
    alice_id = int(alice.get("/api/me").json()["user"]["id"])
    with service.sessions() as db:
        db.add(RatingRow(user_id=alice_id, game="general", ruleset="default", rating=1600.0,
                         deviation=60.0, volatility=0.06, games=30, wins=20,
                         last_played=datetime.now(UTC)))  # fmt: skip
        db.commit()
    assert "alice" in client.get("/leaderboard?game=general").text
    refused = form(alice, "/account", "/account/close", password="not it", confirm="yes")
    assert refused.status_code == 403  # type: ignore[attr-defined]
    unconfirmed = form(alice, "/account", "/account/close", password=PASSWORD)
    assert unconfirmed.status_code == 400 and "Tick the box" in unconfirmed.text  # type: ignore[attr-defined]
    assert me(alice) == "alice"
    closed = form(alice, "/account", "/account/close", password=PASSWORD, confirm="yes")
    assert closed.status_code == 200 and "Your account is closed" in closed.text  # type: ignore[attr-defined]
    # every session ended; no sign-in; the name and its look-alikes stay taken
    assert me(alice) is None and me(elsewhere) is None
    with pytest.raises(AssertionError):
        sign_in(client, "alice")
    for name in ("alice", "AIice"):
        taken = form(visitor(client), "/signup", "/signup", username=name, password=PASSWORD)
        assert taken.status_code == 409  # type: ignore[attr-defined]
    # the name leaves its games (read again from the log by a new process), chat, profile
    fresh = place_client(make_client)
    view = fresh.get(f"/api/play/{general}").json()
    assert view["table"]["people"]["rebels"]["name"] is None
    assert view["table"]["people"]["rebels"]["closed"] is True
    assert view["table"]["people"]["general"]["name"] == "bob"
    assert fresh.get(f"/api/games/{created['id']}/record").json()["players"]["rebels"] == "human"
    bobs = Person(fresh, bob.jar, "bob")  # bob, on the new process (his seat is his)
    with bobs.acting() as c, c.websocket_connect(f"/ws/{general}") as ws:
        while (history := ws.receive_json())["type"] != "chat-history":
            pass
    assert [(m["name"], m["text"]) for m in history["messages"]] == [("", "hello from alice")]
    archive = fresh.get("/archive").text
    assert "Closed account" in archive and 'href="/@/alice"' not in archive
    games = bob.get("/api/players/bob").json()["games"]
    assert games[0]["opponent"] is None and games[0]["opponent_closed"] is True
    assert "alice" not in fresh.get("/leaderboard?game=general").text
    gone = fresh.get("/@/alice")
    assert gone.status_code == 404 and "This account is closed." in gone.text
    assert fresh.get("/api/players/alice").json()["code"] == "closed"
