"""Moderation: a banned account cannot post or accept challenges (quick pairing included) nor
start a rated game against the computer, and is told so in its language; an unban gives all
back; ``ludotheque admin`` lists reports with their context, bans and unbans (recording who,
when and why) and closes accounts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ludotheque.cli import main
from ludotheque.server.accounts.moderation import ban, unban
from ludotheque.server.accounts.rules import username_key
from ludotheque.server.chat.reports import report
from ludotheque.server.store.db import (
    BanRow,
    ChatRow,
    GameRow,
    SeekRow,
    UserRow,
    make_engine,
    migrate,
    session_factory,
)
from tests.server.people import Person, place_client, sign_up


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


def user_id(person: Person) -> int:
    return int(person.get("/api/me").json()["user"]["id"])


def moderate(client: TestClient, fn: Callable[..., Any], *args: Any) -> Any:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        return fn(db, *args)


def test_a_ban_stops_challenges_and_rated_games_and_an_unban_gives_them_back(
    client: TestClient,
) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    alice.jar.set("lang", "fr")
    open_seek = alice.post("/api/lobby/seeks", {"game": "general", "control": "5+3"})
    assert open_seek.status_code == 201
    row, new = moderate(client, ban, user_id(alice), "spam in chat", "mod")
    assert new and row.reason == "spam in chat" and row.banned_by == "mod"
    assert moderate(client, ban, user_id(alice), "again", "mod")[1] is False  # one ban at once
    # her open challenge went with the ban
    assert moderate(client, lambda db: db.get(SeekRow, open_seek.json()["id"]).status) == (
        "cancelled"
    )
    bob_seek = bob.post("/api/lobby/seeks", {"game": "general", "control": "5+3"}).json()["id"]
    quick = {"game": "general", "control": "5+3", "kind": "quick", "rated": True}
    rated = {"game": "general", "mode": "computer", "rated": True, "control": "5+3"}
    refusals = [
        alice.post("/api/lobby/seeks", {"game": "general", "control": "5+3"}),
        alice.post("/api/lobby/seeks", quick),
        alice.post("/api/lobby/seeks", {"game": "general", "opponent": "bob"}),
        alice.post(f"/api/lobby/seeks/{bob_seek}/accept"),
        alice.post("/api/games", rated),
    ]
    for refused in refusals:
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "banned"
        assert "suspendu" in refused.json()["detail"]  # in her language
    page = alice.get("/account").text  # her page says so
    assert 'id="banned-note"' in page and "Votre compte est suspendu depuis le" in page
    # she still plays the computer, unrated, and reads the lobby
    casual = alice.post("/api/games", {"game": "general", "mode": "computer"})
    assert casual.status_code == 201
    assert alice.get("/api/lobby").status_code == 200
    lifted = moderate(client, unban, user_id(alice), "mod")
    assert lifted is not None and lifted.lifted_by == "mod" and lifted.lifted_at is not None
    assert moderate(client, unban, user_id(alice), "mod") is None
    assert 'id="banned-note"' not in alice.get("/account").text
    accepted = alice.post(f"/api/lobby/seeks/{bob_seek}/accept")
    assert accepted.status_code == 200, accepted.text
    again = alice.post("/api/games", rated)
    assert again.status_code == 201, again.text


# -- ludotheque admin --------------------------------------------------------------------------


def database(tmp_path: Path) -> tuple[str, Any]:
    path = tmp_path / "moderation.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    return str(path), engine


def test_admin_lists_reports_with_their_context_and_marks_them_handled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, engine = database(tmp_path)
    with session_factory(engine)() as db:
        alice = UserRow(username="alice", username_key=username_key("alice"))
        bob = UserRow(username="bob", username_key=username_key("bob"))
        db.add_all([alice, bob])
        db.add(GameRow(id="g1", game="general", ruleset="classic", mode="friend", players={},
                       seed=""))  # fmt: skip
        db.flush()
        a, b = alice.id, bob.id
        lines = [("side:general", "bob", b, "good luck"), ("side:rebels", "alice", a, "thanks"),
                 ("side:rebels", "alice", a, "you are a cheat")]  # fmt: skip
        for at, (sender, name, uid, text) in enumerate(lines):
            db.add(ChatRow(game_id="g1", channel="players", sender=sender, name=name,
                           user_id=uid, text=text, at=1_700_000_000.0 + at))  # fmt: skip
        db.commit()
        last = db.scalars(select(ChatRow.id).order_by(ChatRow.id.desc())).first()
        made, new = report(db, "g1", "players", last, f"u{b}", b, "side:general")
        assert new
    engine.dispose()
    assert main(["admin", "--db", path, "reports"]) == 0
    listed = capsys.readouterr().out
    assert f"report {made.id}" in listed and "game g1, players' chat" in listed
    assert f"said by alice (account {a})" in listed and f"reported by bob (account {b})" in listed
    assert listed.index("bob: good luck") < listed.index("alice: thanks")
    assert listed.index("alice: thanks") < listed.index(">> alice: you are a cheat")
    assert main(["admin", "--db", path, "reports", "--done", str(made.id), "--by", "mod"]) == 0
    assert main(["admin", "--db", path, "reports"]) == 0
    assert "no report waiting" in capsys.readouterr().out
    assert main(["admin", "--db", path, "reports", "--all"]) == 0
    handled = capsys.readouterr().out
    assert "handled" in handled and "by mod" in handled and "you are a cheat" in handled
    assert main(["admin", "--db", path, "reports", "--done", str(made.id)]) == 1


def test_admin_bans_unbans_and_closes_recording_who_when_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, engine = database(tmp_path)
    with session_factory(engine)() as db:
        db.add(UserRow(username="alice", username_key=username_key("alice"), password_hash="x"))
        db.commit()
    admin = ["admin", "--db", path]
    assert main([*admin, "ban", "Alice", "--reason", "insults in chat", "--by", "mod"]) == 0
    assert "alice is banned" in capsys.readouterr().out
    assert main([*admin, "ban", "alice", "--reason", "again", "--by", "mod"]) == 1
    assert "banned already" in capsys.readouterr().out
    assert main([*admin, "unban", "alice", "--by", "other"]) == 0
    assert main([*admin, "unban", "alice"]) == 1
    capsys.readouterr()
    assert main([*admin, "bans", "alice"]) == 0
    history = capsys.readouterr().out
    assert "by mod" in history and "lifted" in history and "by other" in history
    assert "reason: insults in chat" in history
    assert main([*admin, "ban", "nobody", "--reason", "x"]) == 1
    assert main([*admin, "close", "alice", "--by", "mod"]) == 0
    assert main([*admin, "close", "alice"]) == 1
    with session_factory(engine)() as db:
        row = db.scalar(select(UserRow).where(UserRow.username == "alice"))
        assert row is not None and row.closed_at is not None and row.password_hash is None
        bans = db.scalars(select(BanRow)).all()
        assert [(b.reason, b.banned_by, b.lifted_by) for b in bans] == [
            ("insults in chat", "mod", "other")
        ]
        assert all(b.banned_at is not None and b.lifted_at is not None for b in bans)
    engine.dispose()
