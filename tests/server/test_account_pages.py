"""Accounts on the web: signing up, in and out, the session and CSRF cookies, forms refused
without their token, names escaped and shown in games, and nothing lost without an account."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.accounts.rules import CSRF_COOKIE, SESSION_COOKIE
from tests.server.conftest import token_of
from tests.server.people import PASSWORD, Person, place_client, sign_up, visitor


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def form_token(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_sign_up_sets_a_safe_session_cookie(client: TestClient) -> None:
    person = visitor(client)
    with person.acting() as c:
        page = c.get("/signup?next=/archive")
        assert page.status_code == 200 and 'autocomplete="new-password"' in page.text
        assert CSRF_COOKIE in c.cookies
        response = c.post(
            "/signup",
            data={"csrf": form_token(page.text), "username": "Alice", "password": PASSWORD,
                  "next": "/archive"},
            follow_redirects=False,
        )  # fmt: skip
        assert response.status_code == 303 and response.headers["location"] == "/archive"
        cookie = response.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE}=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        home = c.get("/").text
        # the header's name leads to the account's page (its profile is linked from there)
        assert 'id="me" href="/account">Alice<' in home and 'action="/signout"' in home
        assert c.get("/api/me").json()["user"]["username"] == "Alice"


def test_sign_up_refusals_say_why_in_the_visitors_language(client: TestClient) -> None:
    sign_up(client, "alice")
    person = visitor(client)
    with person.acting() as c:
        c.cookies.set("lang", "fr")
        page = c.get("/signup").text
        for name, password, words in (
            ("AIice", PASSWORD, "déjà pris"),  # a look-alike of alice
            ("admin", PASSWORD, "réservé"),
            ("bob", "short", "au moins 8"),
            ("bob", "password123", "plus courants"),
            ("b<script>", PASSWORD, "que des lettres"),
        ):
            response = c.post("/signup", data={"csrf": form_token(page), "username": name,
                                               "password": password})  # fmt: skip
            assert response.status_code in (400, 409), name
            assert words in response.text, (name, response.text[-800:])
            assert "<script>" not in response.text.split("<main", 1)[1]  # escaped if shown


def test_forms_need_their_csrf_token(client: TestClient) -> None:
    person = visitor(client)
    with person.acting() as c:
        refused = c.post("/signup", data={"csrf": "forged", "username": "eve",
                                          "password": PASSWORD})  # fmt: skip
        assert refused.status_code == 403 and "expired" in refused.text
    alice = sign_up(client, "alice")
    with alice.acting() as c:
        # signed in, the home form is cookie-authorised: no token, no game
        response = c.post("/new", data={"game": "general", "mode": "local"},
                          follow_redirects=False)  # fmt: skip
        assert response.status_code == 403
        page = c.get("/").text
        ok = c.post("/new", data={"game": "general", "mode": "local", "csrf": form_token(page)},
                    follow_redirects=False)  # fmt: skip
        assert ok.status_code == 303
        # the JSON API too, once a session cookie comes with it
        assert c.post("/api/games", json={"game": "general"}).status_code == 403
        headers = {"x-csrf-token": alice.csrf()}
        assert c.post("/api/games", json={"game": "general"}, headers=headers).status_code == 201
        assert c.post("/signout", data={"csrf": "forged"}).status_code == 403


def test_sign_in_and_out(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    stolen = dict(alice.jar)
    with alice.acting() as c:
        c.post("/signout", data={"csrf": form_token(c.get("/").text)})
        assert c.get("/api/me").json()["user"] is None
    # the session is over everywhere: an old copy of the cookie opens nothing
    other = visitor(client)
    with other.acting() as c:
        c.cookies.set(SESSION_COOKIE, stolen[SESSION_COOKIE])
        client.app.state.users.cache.clear()  # type: ignore[attr-defined]
        assert c.get("/api/me").json()["user"] is None
        page = c.get("/signin").text
        wrong = c.post("/signin", data={"csrf": form_token(page), "username": "alice",
                                        "password": "not the password"})  # fmt: skip
        assert wrong.status_code == 401 and "Wrong username or password" in wrong.text
        page = c.get("/signin").text
        right = c.post("/signin", data={"csrf": form_token(page), "username": "ALICE",
                                        "password": PASSWORD}, follow_redirects=False)  # fmt: skip
        assert right.status_code == 303 and right.headers["location"] == "/lobby"
        assert c.get("/api/me").json()["user"]["username"] == "alice"


def test_without_an_account_everything_still_works(client: TestClient) -> None:
    response = client.post("/new", data={"game": "general", "mode": "friend"})
    assert response.status_code == 200 and "/play/" in response.text
    created = client.post("/api/games", json={"game": "general", "mode": "computer"})
    assert created.status_code == 201
    assert created.json()["game"]["table"]["people"] == {}


def test_a_signed_in_player_against_the_computer_is_named_and_may_be_rated(
    client: TestClient,
) -> None:
    alice = sign_up(client, "alice")
    with alice.acting() as c:
        page = c.get("/").text
        assert 'name="control"' in page and 'name="rated"' in page
        response = c.post(
            "/new",
            data={"game": "general", "mode": "computer", "level": "hard", "side": "general",
                  "control": "5+3", "rated": "on", "csrf": form_token(page)},
            follow_redirects=False,
        )  # fmt: skip
        assert response.status_code == 303
        token = token_of(response.headers["location"])
    view = alice.get(f"/api/play/{token}").json()
    people = view["table"]["people"]
    assert people["general"]["name"] == "alice" and people["rebels"]["level"] == "hard"
    assert people["rebels"]["rating"] > 1500  # hard starts from the arena's measure
    assert view["table"]["rated"] and view["undo"]["allowed"] is False
    refused = alice.post(f"/api/play/{token}/undo", csrf=False)
    assert refused.status_code == 409 and refused.json()["code"] == "rated"
    record = client.get(f"/api/play/{token}/record").json()
    assert record["players"]["general"] == "alice"


def test_names_are_escaped_where_they_are_shown(client: TestClient) -> None:
    # usernames are plain ASCII words; chat text is where anything may be written (see
    # test_chat_live); the profile of a name that does not exist is a 404 whatever it is
    response = client.get("/@/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert response.status_code == 404 and "<script>alert" not in response.text


def test_profile_and_leaderboard_pages(client: TestClient) -> None:
    alice: Person = sign_up(client, "alice")
    page = client.get("/@/alice")
    assert page.status_code == 200 and "No rated game yet" in page.text
    assert client.get("/@/ALICE", follow_redirects=False).status_code == 301
    assert client.get("/@/nobody").status_code == 404
    board = client.get("/leaderboard?game=backgammon&ruleset=standard")
    assert board.status_code == 200 and 'data-ruleset="standard"' in board.text
    assert client.get("/leaderboard?game=chess").status_code == 200  # the first board instead
    assert alice.get("/api/players/alice").json()["ratings"] == []
    french = client.get("/leaderboard", headers={"accept-language": "fr"}).text
    assert "Classement" in french


def test_a_signed_in_player_takes_their_seat_in_a_friend_game(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "general", "mode": "friend"}).json()
    rebels = token_of(created["seats"]["rebels"])
    general = token_of(created["seats"]["general"])
    alice = sign_up(client, "alice")
    with alice.acting() as c:
        with c.websocket_connect(f"/ws/{rebels}") as ws:
            assert ws.receive_json()["type"] == "state"
            seated = ws.receive_json()
            while seated.get("type") != "state":
                seated = ws.receive_json()
            assert seated["game"]["table"]["people"]["rebels"]["name"] == "alice"
        # one account, one side: her opening the other seat's link changes nothing
        with c.websocket_connect(f"/ws/{general}") as ws:
            assert ws.receive_json()["type"] == "state"
    view = client.get(f"/api/play/{general}").json()
    assert set(view["table"]["people"]) == {"rebels"} and not view["table"]["rated"]
    client.post(f"/api/play/{general}/resign", json={})
    games = client.get("/api/players/alice").json()["games"]
    assert [(g["id"], g["result"], g["rated"]) for g in games] == [(view["id"], "win", False)]


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_cookies_are_secure_over_https_only(client: TestClient, scheme: str) -> None:
    """Over HTTPS both cookies (CSRF binding and session) carry ``Secure``, so they never travel
    in clear; over plain HTTP (a newcomer's ``ludotheque serve`` on localhost) they cannot, or
    the browser would drop them."""
    client.base_url = client.base_url.copy_with(scheme=scheme)
    page = client.get("/signup")
    csrf_cookie = page.headers["set-cookie"]
    assert csrf_cookie.startswith(f"{CSRF_COOKIE}=")
    response = client.post(
        "/signup",
        data={"csrf": form_token(page.text), "username": "Bob", "password": PASSWORD},
        follow_redirects=False,
    )
    assert response.status_code == 303
    session_cookie = response.headers["set-cookie"]
    assert session_cookie.startswith(f"{SESSION_COOKIE}=")
    for cookie in (csrf_cookie, session_cookie):
        assert ("; secure" in cookie.lower()) == (scheme == "https"), cookie


def test_a_profile_says_who_left_a_game(client: TestClient) -> None:
    """A game won because the other player left: the winner's profile says the opponent
    left, the leaver's says they left (not that their opponent did)."""
    from sqlalchemy import select

    from ludotheque.server.store.db import GameRow, PlayerRow, UserRow, now

    sign_up(client, "stayer")
    sign_up(client, "leaver")
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        ids = dict(db.execute(select(UserRow.username, UserRow.id)).all())
        db.add(GameRow(id="left1", game="general", ruleset="default", mode="friend",
                       players={"rebels": "human", "general": "human"}, seed="",
                       finished_at=now(), winner="rebels", reason="left"))  # fmt: skip
        db.add_all([PlayerRow(game_id="left1", side="rebels", user_id=ids["stayer"]),
                    PlayerRow(game_id="left1", side="general", user_id=ids["leaver"])])  # fmt: skip
        db.commit()

    def row(name: str) -> str:
        page = client.get(f"/@/{name}", headers={"accept-language": "en"}).text
        found = re.search(r'<tr[^>]*data-game-id="left1".*?</tr>', page, re.S)
        assert found is not None, page[-3000:]
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))

    assert "Won — the opponent left the game" in row("stayer")
    assert "Lost — left the game" in row("leaver")
