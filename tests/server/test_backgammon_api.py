"""Backgammon in the app: server-rolled dice, one checker at a time, forced passes, refusals,
provably fair dice, IDs for other software."""

from __future__ import annotations

from fastapi.testclient import TestClient

import ludotheque
from ludotheque.record import Record, draw_chance, seed_digest
from tests.server.conftest import new_game, token_of, wait_for

ROLLS = ludotheque.load("backgammon").parse_position("W[6] B[6] w -").chance_outcomes()
"""The 21 rolls, weighted, in the order the dice are drawn from."""


def bg(client: TestClient, **spec: object) -> tuple[str, dict]:  # type: ignore[type-arg]
    created = new_game(client, game="backgammon", **spec)
    token = token_of(created["seats"].get("both") or created["seats"]["white"])
    return token, client.get(f"/api/play/{token}").json()


def test_the_opening_is_rolled_by_the_server(client: TestClient) -> None:
    _token, state = bg(client)
    assert state["ruleset"] == "seed"
    assert state["history"][0]["kind"] == "chance" and state["ply"] == 1
    assert state["to_move"] in ("white", "black") and state["extra"]["dice"] is not None
    assert state["dice"]["seed"] is None and len(state["dice"]["sha256"]) == 64
    assert state["dice"]["rolls"] == [state["history"][0]["text"]]
    assert "gnubg" not in state["extra"]  # the IDs are for standard games


def test_nobody_chooses_the_dice(client: TestClient) -> None:
    token, state = bg(client)
    for text in ("66", "w1b2", "31"):
        response = client.post(f"/api/play/{token}/move", json={"move": text, "ply": state["ply"]})
        assert response.status_code == 422, text
    response = client.post(f"/api/play/{token}/move", json={"move": "13/x", "ply": state["ply"]})
    assert response.status_code == 422 and "cannot read" in response.json()["detail"]


def test_plays_one_checker_at_a_time(client: TestClient) -> None:
    token, state = bg(client, position="W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    turn = client.post(f"/api/play/{token}/partial", json={"steps": []}).json()
    assert {s["text"] for s in turn["next"]} >= {"8/5", "6/5", "24/23"}
    assert turn["play"] is None and turn["dice_left"] == [3, 1]
    turn = client.post(f"/api/play/{token}/partial", json={"steps": [[8, 5, 3]]}).json()
    assert turn["dice_left"] == [1] and "6/5" in {s["text"] for s in turn["next"]}
    turn = client.post(f"/api/play/{token}/partial", json={"steps": [[8, 5, 3], [6, 5, 1]]}).json()
    assert turn["play"] == "8/5 6/5" and turn["white"][5] == 2
    bad = client.post(f"/api/play/{token}/partial", json={"steps": [[8, 4, 4]]})
    assert bad.status_code == 422
    assert client.post(f"/api/play/{token}/partial", json={"steps": [[8, 5]]}).status_code == 400
    state = client.post(f"/api/play/{token}/move", json={"move": turn["play"], "ply": 0}).json()
    assert state["history"][0]["text"] == "8/5 6/5" and state["history"][1]["kind"] == "chance"
    assert state["to_move"] == "black"


def test_refusals_illegal_and_out_of_turn(client: TestClient) -> None:
    created = new_game(client, game="backgammon", mode="friend")
    white = token_of(created["seats"]["white"])
    black = token_of(created["seats"]["black"])
    state = client.get(f"/api/play/{white}").json()
    mover, waiter = (white, black) if state["to_move"] == "white" else (black, white)
    play = state["legal"][0]
    response = client.post(f"/api/play/{waiter}/move", json={"move": play, "ply": state["ply"]})
    assert response.status_code == 409 and response.json()["code"] == "not-your-turn"
    response = client.post(f"/api/play/{mover}/move", json={"move": "24/1", "ply": state["ply"]})
    assert response.status_code == 422
    ok = client.post(f"/api/play/{mover}/move", json={"move": play, "ply": state["ply"]})
    assert ok.status_code == 200
    again = client.post(f"/api/play/{mover}/move", json={"move": play, "ply": state["ply"]})
    assert again.status_code == 409 and again.json()["code"] == "stale"


def test_a_forced_pass_happens_on_its_own_and_says_why(client: TestClient) -> None:
    # Black's checkers on its 13 always have a move, so the game cannot end on black's roll.
    _token, state = bg(client, position="W[bar,24x5,6x5] B[13x3,3x2] w 31")
    first = state["history"][0]
    assert first["text"] == "pass" and first["side"] == "white"
    assert "24 is full" in first["note"] and "22 is blocked" in first["note"]
    assert state["to_move"] == "black" and state["history"][1]["kind"] == "chance"


def test_undo_never_shows_the_same_dice_again(client: TestClient) -> None:
    """A roll an undo took back is spent: the roll after the same play again is a new draw (it
    showed the future before: the dice followed a fixed sequence), and the record still checks
    every roll against the seed."""
    token, state = bg(client, mode="computer", level="easy", side="white",
                      position="W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")  # fmt: skip
    client.post(f"/api/play/{token}/move", json={"move": "8/5 6/5", "ply": 0})
    state = wait_for(client, token, lambda s: s["to_move"] == "white" and s["ply"] >= 4)
    seen = state["dice"]["rolls"]
    assert state["dice"]["draws"] == [0, 1]  # the computer's roll, then white's next one
    undone = client.post(f"/api/play/{token}/undo").json()
    assert undone["ply"] == 0 and undone["extra"]["dice"] == [3, 1]
    assert undone["dice"]["rolls"] == [] and undone["dice"]["draws"] == []
    client.post(f"/api/play/{token}/move", json={"move": "8/5 6/5", "ply": 0})
    again = wait_for(client, token, lambda s: s["to_move"] == "white" and s["ply"] >= 4)
    assert again["dice"]["draws"] == [2, 3]  # new draws, never 0 and 1 again
    seed = revealed(client, token)
    assert again["dice"]["rolls"] == [str(draw_chance(seed, n, ROLLS)) for n in (2, 3)]
    assert seen == [str(draw_chance(seed, n, ROLLS)) for n in (0, 1)]
    record = Record.from_json(client.get(f"/api/play/{token}/record").text)
    assert record.draws == [2, 3] and record.drawn == 4


def revealed(client: TestClient, token: str) -> str:
    """The seed of a game, read from its record once it is over (resigning it if needed)."""
    state = client.get(f"/api/play/{token}").json()
    if state["outcome"] is None:
        state = client.post(f"/api/play/{token}/resign").json()
    return str(state["dice"]["seed"])


def test_the_seed_is_revealed_at_the_end_and_checks_out(client: TestClient) -> None:
    token, state = bg(client, position="W[2] B[24x2] w 31", mode="local")
    assert state["dice"]["seed"] is None
    state = client.post(f"/api/play/{token}/move", json={"move": "2/off", "ply": 0}).json()
    assert state["outcome"] == {"winner": "white", "reason": "borne-off"}
    seed = state["dice"]["seed"]
    assert seed and seed_digest(seed) == state["dice"]["sha256"]
    record = Record.from_json(client.get(f"/api/play/{token}/record").text)
    assert record.seed == seed


def test_every_roll_can_be_recomputed_from_the_seed(client: TestClient) -> None:
    token, state = bg(client, mode="local")
    for _ in range(6):
        state = client.post(
            f"/api/play/{token}/move", json={"move": state["legal"][0], "ply": state["ply"]}
        ).json()
    state = client.post(f"/api/play/{token}/resign").json()
    seed = state["dice"]["seed"]
    game = ludotheque.load("backgammon")
    rolling = game.parse_position("W[6] B[6] w -")
    for i, rolled in enumerate(state["dice"]["rolls"]):
        outcomes = (game.start() if i == 0 else rolling).chance_outcomes()
        assert str(draw_chance(seed, i, outcomes)) == rolled


def test_ids_for_standard_games(client: TestClient) -> None:
    _token, state = bg(client, ruleset="standard",
                      position="W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")  # fmt: skip
    assert state["extra"]["gnubg"].startswith("4HPwATDgc/ABMA:")
    assert state["extra"]["xgid"].startswith("XGID=-b----E-C---eE---c-e----B-:0:0:1:31")
    assert state["extra"]["pips"] == {"white": 167, "black": 167}


def test_the_result_says_gammon_in_every_ruleset(client: TestClient) -> None:
    """A game won with the loser at 0 off is a gammon whatever the ruleset (it said only "all
    checkers borne off"); whether it scores is the ruleset's."""
    cases = [
        ("standard", "W[1] B[6x5,5x5,4x5] w 21", "gammon", False),
        ("seed", "W[1] B[6x5,5x5,4x5] w 21", "gammon", False),
        ("standard", "W[1] B[23,6x5,5x5,4x4] w 21", "backgammon", False),
        ("standard", "W[1] B[6x4,5x5,4x5] w 21", "single", False),
        ("money", "W[1] B[6x5,5x5,4x5] w 21 cube 1", "gammon", True),
        ("money", "W[1] B[6x5,5x5,4x5] w 21 cube 1 jacoby", "gammon", False),  # cube centred
    ]
    for ruleset, position, kind, scores in cases:
        token, state = bg(client, ruleset=ruleset, position=position)
        state = client.post(f"/api/play/{token}/move", json={"move": "1/off", "ply": 0}).json()
        assert state["outcome"]["winner"] == "white", (ruleset, position)
        extra = state["game_extra"]
        assert (extra["win_kind"], extra["kind_scores"]) == (kind, scores), (ruleset, position)
    # a resignation says what it gave up
    token, state = bg(client, ruleset="money", position="W[6x5,5x5,4x5] B[1] w 21 cube 1")
    state = client.post(f"/api/play/{token}/move", json={"move": "resign gammon", "ply": 0}).json()
    state = client.post(f"/api/play/{token}/move",
                        json={"move": "accept", "ply": state["ply"]}).json()  # fmt: skip
    assert state["outcome"]["reason"] == "resignation"
    assert state["game_extra"]["win_kind"] == "gammon"
