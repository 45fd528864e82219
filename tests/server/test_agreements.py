"""What players agree on, on the server: aborting before one's first move (never rated, archived
as aborted, never a draw), draw offers (accepted, declined, limited, lapsing with the opponent's
move; the computer's answers; a draw by agreement rated as a draw), and the rematch as an offer
(made only when both want it, lapsing when a player leaves; at once at one screen and against
the computer)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from ludotheque.record import Record
from ludotheque.server.clock.controls import HAS_DRAWS
from ludotheque.server.play.offers import DRAWN_GAMES, OFFER_AGAIN_AFTER, REMATCH_LAPSE
from ludotheque.server.play.rematch import lapse_now
from ludotheque.server.rating import jobs as rating_jobs
from ludotheque.server.store.db import GameRow
from tests.server import test_rating_flow
from tests.server.conftest import new_game, token_of
from tests.server.people import Person, controlled, on_loop, place_client, sign_up
from tests.server.test_rating_flow import rated_view


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return place_client(make_client)


OWNERS: dict[str, Person] = {}
"""The players whose seats belong to their accounts, by token: their requests carry their
cookies (a seat of an account acts only for it)."""


def rated_game(client: TestClient, white: Person, black: Person) -> tuple[str, str, str]:
    game_id, a, b = test_rating_flow.rated_game(client, white, black)
    OWNERS[a], OWNERS[b] = white, black
    return game_id, a, b


def view(client: TestClient, token: str) -> dict[str, Any]:
    if token in OWNERS:
        return dict(OWNERS[token].get(f"/api/play/{token}").json())
    return dict(client.get(f"/api/play/{token}").json())


def act(client: TestClient, token: str, action: str, **body: Any) -> Any:
    if token in OWNERS:
        return OWNERS[token].post(f"/api/play/{token}/{action}", body, csrf=False)
    return client.post(f"/api/play/{token}/{action}", json=body)


def move(client: TestClient, token: str, text: str) -> dict[str, Any]:
    response = act(client, token, "move", move=text, ply=view(client, token)["ply"])
    assert response.status_code == 200, response.text
    return dict(response.json())


def friends(client: TestClient, game: str = "general", **spec: Any) -> tuple[str, str, str]:
    """A game between friends: its id, the first side's token, the second's."""
    created = new_game(client, game=game, mode="friend", **spec)
    first, second = list(created["seats"])
    return created["id"], token_of(created["seats"][first]), token_of(created["seats"][second])


# -- abort ---------------------------------------------------------------------------------


def test_either_side_may_abort_before_its_own_first_move(client: TestClient) -> None:
    created = new_game(client, mode="friend")
    game_id, watch = created["id"], token_of(created["watch"])
    rebels, general = (token_of(created["seats"][side]) for side in ("rebels", "general"))
    assert view(client, rebels)["offers"]["abort"] and view(client, general)["offers"]["abort"]
    move(client, rebels, "a2-b2")
    refused = act(client, rebels, "abort")
    assert refused.status_code == 409 and refused.json()["code"] == "no-abort"
    assert not view(client, rebels)["offers"]["abort"] and view(client, general)["offers"]["abort"]
    assert act(client, watch, "abort").status_code == 403
    aborted = act(client, general, "abort").json()
    assert aborted["outcome"] == {"winner": None, "reason": "aborted", "by": "general"}
    assert not aborted["offers"]["abort"]
    assert act(client, general, "abort").json()["code"] == "game-over"
    # archived as aborted: no winner, never a draw word in the archive, no Analyse link
    entry = next(g for g in client.get("/api/archive").json() if g["id"] == game_id)
    assert (entry["winner"], entry["reason"], entry["moves"]) == (None, "aborted", 1)
    page = client.get("/archive").text
    row = page[page.index(f'data-game-id="{game_id}"') :].split("</tr>", 1)[0]
    assert "Game aborted" in row and "Draw" not in row and "analyse" not in row
    record = Record.from_json(client.get(f"/api/games/{game_id}/record").text)
    assert record.outcome() is not None and record.outcome().reason == "aborted"  # type: ignore[union-attr]


def test_abort_at_one_screen_and_against_the_computer(client: TestClient) -> None:
    local = token_of(new_game(client, mode="local")["seats"]["both"])
    move(client, local, "a2-b2")  # at one screen both sides are the player's
    assert act(client, local, "abort").json()["code"] == "no-abort"
    computer = new_game(client, mode="computer", side="general", level="easy")
    token = token_of(computer["seats"]["both"])
    deadline = time.monotonic() + 20
    while view(client, token)["ply"] < 1:  # the computer's rebels move first
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert view(client, token)["offers"]["abort"]  # the player has not moved yet
    ended = act(client, token, "abort").json()
    assert ended["outcome"] == {"winner": None, "reason": "aborted", "by": "general"}


def test_an_aborted_rated_game_is_not_rated(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id, a, b = rated_game(client, alice, bob)
    move(client, a, "a2-b2")
    assert act(client, b, "abort").json()["outcome"]["reason"] == "aborted"
    service = client.app.state.service  # type: ignore[attr-defined]
    assert (
        on_loop(client, lambda: rating_jobs.rate_job(service, game_id, lambda db: None))
        == "obsolete"
    )
    assert view(client, a)["table"]["ratings"] is None
    assert client.get("/api/players/alice").json()["ratings"] == []
    games = client.get("/api/players/bob").json()["games"]
    assert games[0]["result"] == "aborted"


# -- draws ---------------------------------------------------------------------------------


def test_a_draw_offered_and_accepted(client: TestClient) -> None:
    _, rebels, general = friends(client)
    move(client, rebels, "a2-b2")
    offered = act(client, rebels, "draw-offer").json()
    assert offered["offers"]["draw"] == "rebels" and offered["outcome"] is None
    assert act(client, rebels, "draw-offer").status_code == 200  # one offer: said again
    assert act(client, rebels, "draw-answer", accept=True).json()["code"] == "no-offer"
    drawn = act(client, general, "draw-answer", accept=True).json()
    assert drawn["outcome"] == {"winner": None, "reason": "agreement"}
    assert act(client, general, "draw-offer").json()["code"] == "game-over"


def test_offering_while_the_other_offer_stands_accepts_it(client: TestClient) -> None:
    _, rebels, general = friends(client)
    act(client, general, "draw-offer")
    assert act(client, rebels, "draw-offer").json()["outcome"]["reason"] == "agreement"


def test_a_declined_offer_waits_for_moves_before_another(client: TestClient) -> None:
    _, rebels, general = friends(client)
    act(client, rebels, "draw-offer")
    declined = act(client, general, "draw-answer", accept=False).json()
    assert declined["offers"]["draw"] is None and declined["outcome"] is None
    told = view(client, rebels)["offers"]
    assert told["draw_declined"] and told["draw_wait"] == OFFER_AGAIN_AFTER
    refused = act(client, rebels, "draw-offer")
    assert refused.status_code == 409 and refused.json()["code"] == "draw-wait"
    assert "3 more moves" in refused.json()["detail"]
    # the general was not declined: it may offer (and the rebels decline it in turn)
    assert view(client, general)["offers"]["draw_wait"] == 0
    for rebel, general_move in (("a2-b2", "c3-c2"), ("b2-b3", "c2-c3")):
        move(client, rebels, rebel)
        assert not view(client, rebels)["offers"]["draw_declined"]  # told until it moves
        move(client, general, general_move)
    assert view(client, rebels)["offers"]["draw_wait"] == 1
    move(client, rebels, "a1-a2")
    assert act(client, rebels, "draw-offer").json()["offers"]["draw"] == "rebels"


def test_an_offer_stands_until_the_opponent_moves(client: TestClient) -> None:
    _, rebels, general = friends(client)
    move(client, rebels, "a2-b2")
    act(client, rebels, "draw-offer")
    move(client, general, "c3-c2")  # a move is a silent no
    after = view(client, general)["offers"]
    assert after["draw"] is None
    assert act(client, general, "draw-answer", accept=True).json()["code"] == "no-offer"
    assert view(client, rebels)["offers"]["draw_wait"] == OFFER_AGAIN_AFTER
    # the offerer's own move leaves its offer standing
    move(client, rebels, "b2-b3")
    act(client, general, "draw-offer")
    move(client, general, "c2-c3")
    assert view(client, rebels)["offers"]["draw"] == "general"


def test_draw_offers_are_for_the_games_that_have_draws() -> None:
    assert {game for game, draws in HAS_DRAWS.items() if draws} == DRAWN_GAMES


def test_no_draw_offers_in_backgammon_nor_at_one_screen_nor_from_watchers(
    client: TestClient,
) -> None:
    _, white, _ = friends(client, game="backgammon")
    assert not view(client, white)["offers"]["draw_allowed"]
    refused = act(client, white, "draw-offer")
    assert refused.status_code == 409 and refused.json()["code"] == "no-draws"
    created = new_game(client, mode="local")
    both = token_of(created["seats"]["both"])
    assert not view(client, both)["offers"]["draw_allowed"]
    assert act(client, both, "draw-offer").status_code == 403
    watch = token_of(new_game(client, mode="friend")["watch"])
    assert act(client, watch, "draw-offer").status_code == 403


def test_the_computer_answers_draw_offers_by_what_it_knows(client: TestClient) -> None:
    # the solved tables: from the start the rebels win, so the computer's general accepts
    token = token_of(
        new_game(client, mode="computer", side="rebels", level="easy")["seats"]["both"]
    )
    answered = act(client, token, "draw-offer").json()
    assert answered["outcome"] == {"winner": None, "reason": "agreement"}
    # and the computer's rebels decline
    token = token_of(
        new_game(client, mode="computer", side="general", level="easy")["seats"]["both"]
    )
    deadline = time.monotonic() + 20
    while view(client, token)["ply"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    answered = act(client, token, "draw-offer").json()
    assert answered["outcome"] is None and answered["offers"]["draw"] is None
    assert answered["offers"]["draw_declined"]
    # a position the general wins (the tables): the computer's general declines
    won = "d4 e5,a5,e1,b4,c5,d2 r 1"  # whatever the rebels play, the general wins
    token = token_of(
        new_game(client, mode="computer", side="rebels", level="easy", position=won)["seats"][
            "both"
        ]
    )
    assert act(client, token, "draw-offer").json()["outcome"] is None


def test_a_draw_by_agreement_is_rated_as_a_draw(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    _, a, b = rated_game(client, alice, bob)
    move(client, a, "a2-b2")
    act(client, b, "draw-offer")
    assert act(client, a, "draw-answer", accept=True).json()["outcome"]["reason"] == "agreement"
    changes = rated_view(OWNERS[a], a)["table"]["ratings"]
    assert abs(changes["rebels"]["change"]) < 1 and abs(changes["general"]["change"]) < 1
    for name in ("alice", "bob"):
        rating = client.get(f"/api/players/{name}").json()["ratings"][0]
        assert (rating["wins"], rating["draws"], rating["losses"]) == (0, 1, 0)


# -- rematch -------------------------------------------------------------------------------


def test_a_rematch_is_made_only_when_both_want_it(client: TestClient) -> None:
    game_id, rebels, general = friends(client)
    act(client, rebels, "resign")
    offer = act(client, rebels, "rematch").json()
    assert offer == {"id": None, "url": None, "waiting": True}
    seen = view(client, general)
    assert seen["offers"]["rematch"] == "rebels" and not seen["rematch"]
    with client.app.state.service.sessions() as db:  # type: ignore[attr-defined]
        made_yet = db.scalars(select(GameRow.id).where(GameRow.rematch_of == game_id)).all()
    assert made_yet == []  # no game yet
    made = act(client, general, "rematch").json()
    assert made["url"].startswith("/play/") and not made["waiting"]
    joined = act(client, rebels, "rematch").json()
    assert joined["id"] == made["id"]
    assert view(client, token_of(joined["url"]))["seat"] == "general"  # sides swapped


def test_a_rematch_offer_lapses_when_a_player_leaves(client: TestClient) -> None:
    fake = controlled(client)
    _, rebels, general = friends(client)
    with client.websocket_connect(f"/ws/{general}") as ws:
        ws.receive_json()
        act(client, rebels, "resign")
        act(client, general, "rematch")
    # the general's player left the page (their socket closed)
    deadline = time.monotonic() + 10
    while "general" not in view(client, rebels)["table"]["away"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert view(client, rebels)["offers"]["rematch"] == "general"  # a reload is back at once
    fake.advance(REMATCH_LAPSE + 0.5)
    lapsed = view(client, rebels)["offers"]
    assert lapsed["rematch"] is None and lapsed["rematch_lapsed"] == "general"
    service = client.app.state.service  # type: ignore[attr-defined]
    game_id = view(client, rebels)["id"]
    session = on_loop(client, lambda: service.get(game_id))
    assert on_loop(client, lambda: lapse_now(service, session)) is True  # written in the log
    assert not on_loop(client, lambda: lapse_now(service, session))  # once
    refused = act(client, rebels, "rematch")  # nobody left to offer it to
    assert refused.status_code == 409 and refused.json()["code"] == "opponent-gone"


def test_a_rematch_at_one_screen_and_against_the_computer_starts_at_once(
    client: TestClient,
) -> None:
    for spec in ({"mode": "local"}, {"mode": "computer", "level": "easy"}):
        token = token_of(new_game(client, **spec)["seats"]["both"])
        act(client, token, "resign")
        made = act(client, token, "rematch").json()
        assert made["url"].startswith("/play/") and not made["waiting"]
        assert view(client, token)["rematch"] is True
