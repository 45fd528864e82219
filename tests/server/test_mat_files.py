"""A finished game played for points downloads as the ``.mat`` file of its whole match (or
money session), which reads back with the games in order; other games have none."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludotheque.games.backgammon import mat
from tests.server.conftest import new_game, token_of
from tests.server.test_cube_api import friend_match, move, to_cube_decision


def test_a_match_downloads_as_one_mat_file(client: TestClient) -> None:
    seats = friend_match(client, 3)
    state, decider = to_cube_decision(client, seats)
    doubler = state["to_move"]
    loser = "black" if doubler == "white" else "white"
    first_id = state["id"]
    # unfinished: not public yet
    assert client.get(f"/api/games/{first_id}/match.mat").status_code == 403
    state = move(client, decider, "double", state)
    state = move(client, seats[loser], "drop", state)  # 1-0
    links = {}
    for side, token in [*seats.items(), *seats.items()]:  # an offer, accepted; then joined
        url = client.post(f"/api/play/{token}/rematch", json={}).json()["url"]
        if url is not None:
            links[side] = token_of(url)
    nxt = client.get(f"/api/play/{links['white']}").json()
    nxt = move(client, links[nxt["to_move"]], nxt["legal"][0], nxt)
    on_turn = nxt["to_move"]
    winner = "black" if on_turn == "white" else "white"
    if "double" in nxt["legal"]:
        nxt = move(client, links[on_turn], "roll", nxt)
    nxt = move(client, links[on_turn], "resign single", nxt)
    nxt = move(client, links[winner], "accept", nxt)
    assert nxt["outcome"]["reason"] == "resignation"

    response = client.get(f"/api/games/{nxt['id']}/match.mat")
    assert response.status_code == 200, response.text
    assert "attachment" in response.headers["content-disposition"]
    assert ".mat" in response.headers["content-disposition"]
    text = response.text
    assert " 3 point match" in text and " Game 1" in text and " Game 2" in text
    read = mat.loads(text)
    assert len(read.games) == 2
    assert read.games[0].outcome() is not None and read.games[0].points() == 1
    assert read.games[1].outcome() is not None and read.games[1].points() == 1
    # the first game's file is the match up to it
    assert len(mat.loads(client.get(f"/api/games/{first_id}/match.mat").text).games) == 1
    # and the archive offers the file
    assert f"/api/games/{nxt['id']}/match.mat" in client.get("/archive").text


def test_games_not_played_for_points_have_no_mat_file(client: TestClient) -> None:
    created = new_game(client, game="backgammon", ruleset="standard")
    token = token_of(created["seats"]["both"])
    client.post(f"/api/play/{token}/resign", json={})
    state = client.get(f"/api/play/{token}").json()
    assert state["outcome"] is not None
    response = client.get(f"/api/games/{state['id']}/match.mat")
    assert response.status_code == 404 and response.json()["code"] == "not-for-points"
    assert "points" in response.text
    assert client.get("/api/games/nosuchgame/match.mat").status_code == 404
