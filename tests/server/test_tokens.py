"""Personal API tokens: made on the account page (shown once) or by ``ludotheque admin``,
stored hashed, with scopes; ``Authorization: Bearer`` opens the account (no CSRF token
needed); revoked, a token opens nothing and says so in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ludotheque.cli import main
from ludotheque.server.accounts.tokens import token_digest
from ludotheque.server.store.db import TokenRow
from tests.server.people import place_client, sign_up
from tests.server.test_account_settings import form


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def bearer(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


def test_a_token_made_on_the_account_page_is_shown_once_and_opens_the_account(
    client: TestClient,
) -> None:
    alice = sign_up(client, "alice")
    made = form(alice, "/account", "/account/tokens", label="my bot", scope="read")
    assert made.status_code == 303  # type: ignore[attr-defined]  # to the page that shows it
    shown = alice.get("/account")
    assert shown.headers["cache-control"] == "no-store"
    found = re.search(r'id="new-token-value">(lud_[A-Za-z0-9_-]+)<', shown.text)
    assert found is not None
    token = found.group(1)
    again = alice.get("/account").text
    assert token not in again and "my bot" in again  # listed, never shown again
    with client.app.state.service.sessions() as db:  # type: ignore[attr-defined]
        row = db.scalar(select(TokenRow))
        assert row.token_sha256 == token_digest(token) and row.scopes == "read"
    fresh = TestClient(client.app)  # no cookie at all: the token alone
    me = fresh.get("/api/me", headers=bearer(token)).json()
    assert me["user"]["username"] == "alice"
    # no CSRF token: no cookie authorises the request
    seek = fresh.post("/api/lobby/seeks", json={"game": "general"}, headers=bearer(token))
    assert seek.status_code == 201, seek.text
    number = re.search(r'action="/account/tokens/(\d+)/revoke"', again)
    assert number is not None
    revoked = form(alice, "/account", f"/account/tokens/{number.group(1)}/revoke")
    assert revoked.status_code == 303  # type: ignore[attr-defined]
    assert "no API token" in alice.get("/account").text
    refused = fresh.get("/api/me", headers=bearer(token, **{"Accept-Language": "fr"}))
    assert refused.status_code == 401
    assert refused.json() == {"detail": "ce jeton d’API est inconnu ou révoqué",
                              "code": "bad-token"}  # fmt: skip


def test_a_token_needs_a_scope_and_a_made_up_one_opens_nothing(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    none = form(alice, "/account", "/account/tokens", label="x")
    assert none.status_code == 400 and "at least one scope" in none.text  # type: ignore[attr-defined]
    assert "new-token-value" not in alice.get("/account").text
    made_up = client.get("/api/me", headers=bearer("lud_" + "A" * 43))
    assert made_up.status_code == 401 and made_up.json()["code"] == "bad-token"


def test_admin_makes_lists_and_revokes_tokens(
    client: TestClient, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sign_up(client, "bob")
    assert main(["admin", "--db", db_url, "token", "bob", "--scope", "bot:play",
                 "--scope", "read"]) == 0  # fmt: skip
    token = capsys.readouterr().out.split()[-1]
    assert client.get("/api/me", headers=bearer(token)).json()["user"]["username"] == "bob"
    assert main(["admin", "--db", db_url, "tokens", "bob"]) == 0
    listed = capsys.readouterr().out
    assert "bot:play read" in listed and token not in listed
    number = int(listed.split("\t")[0])
    assert main(["admin", "--db", db_url, "revoke-token", str(number)]) == 0
    assert main(["admin", "--db", db_url, "revoke-token", str(number)]) == 1
    capsys.readouterr()
    # --db after the task works as well, and a name not found says where it was looked for
    assert main(["admin", "token", "nobody", "--scope", "read", "--db", db_url]) == 1
    assert "there is no account called nobody in " in capsys.readouterr().out
    assert main(["admin", "tokens", "bob", "--db", db_url]) == 0
    client.app.state.users.forget_tokens()  # type: ignore[attr-defined]
    assert client.get("/api/me", headers=bearer(token)).status_code == 401
