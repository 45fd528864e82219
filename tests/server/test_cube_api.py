"""Backgammon for points in the app: the cube's decisions as moves, the match score, the next
game of a match (same sides) until a side reaches the length, a new match after it, offers to
resign, the computer's cube answers, and ratings by the match's result."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import new_game, token_of, wait_for

# white bears off its last checker with any roll; black has borne off none (a gammon)
LAST_CHECKER = "W[1] B[6x5,5x5,4x5] w - cube 1 match 3 0-0"


def move(client: TestClient, token: str, text: str, state: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/play/{token}/move", json={"move": text, "ply": state["ply"]})
    assert response.status_code == 200, response.text
    return dict(response.json())


def to_cube_decision(client: TestClient, seats: dict[str, str]) -> tuple[dict[str, Any], str]:
    """Play the opening roll's first play; the other side then chooses to roll or double.
    The state and the token of the side to decide."""
    state = client.get(f"/api/play/{seats['white']}").json()
    mover = state["to_move"]
    state = move(client, seats[mover], state["legal"][0], state)
    return state, seats[state["to_move"]]


def friend_match(client: TestClient, length: int) -> dict[str, str]:
    created = new_game(client, game="backgammon", ruleset="match", mode="friend", length=length)
    return {side: token_of(url) for side, url in created["seats"].items()}


def test_a_match_of_n_points_from_the_api(client: TestClient) -> None:
    seats = friend_match(client, 5)
    state = client.get(f"/api/play/{seats['white']}").json()
    assert state["ruleset"] == "match" and state["start"].endswith("cube 1 match 5 0-0")
    assert state["extra"]["match"] == {"length": 5, "score": {"white": 0, "black": 0},
                                       "crawford": False, "post_crawford": False}  # fmt: skip
    assert state["extra"]["cube"]["value"] == 1 and state["extra"]["cube"]["owner"] is None
    assert state["game_extra"] == {"points": None, "next": None, "score_after": None,
                                   "match_winner": None}  # fmt: skip
    for bad in ({"ruleset": "standard", "length": 5}, {"ruleset": "match", "length": 26},
                {"ruleset": "match", "length": 0}, {"ruleset": "money", "length": 3}):  # fmt: skip
        response = client.post("/api/games", json={"game": "backgammon", **bad})
        assert response.status_code in (400, 422), bad


def test_double_take_then_drop_scores_the_cube(client: TestClient) -> None:
    seats = friend_match(client, 5)
    state, decider = to_cube_decision(client, seats)
    assert sorted(state["legal"]) == ["double", "roll"]
    doubler = state["to_move"]
    other = "black" if doubler == "white" else "white"
    state = move(client, decider, "double", state)
    assert state["to_move"] == other and sorted(state["legal"]) == ["drop", "take"]
    assert state["extra"]["cube"]["pending"] == "double"
    # the doubler cannot answer its own double, nor play on
    refused = client.post(f"/api/play/{decider}/move", json={"move": "take", "ply": state["ply"]})
    assert refused.status_code == 409
    state = move(client, seats[other], "take", state)
    assert state["extra"]["cube"] == {**state["extra"]["cube"], "value": 2, "owner": other}
    assert state["history"][-2]["text"] == "take" and state["history"][-3]["note"] == "2"
    # the doubler rolled on; it plays, then the taker (who owns the cube) may redouble
    state = move(client, decider, state["legal"][0], state)
    assert sorted(state["legal"]) == ["double", "roll"] and state["to_move"] == other
    state = move(client, seats[other], "double", state)
    state = move(client, decider, "drop", state)
    assert state["outcome"] == {"winner": other, "reason": "dropped"}
    after = {"white": 2 if other == "white" else 0, "black": 2 if other == "black" else 0}
    assert state["game_extra"] == {"points": 2, "next": "next", "score_after": after,
                                   "match_winner": None}  # fmt: skip


def test_the_match_goes_on_game_after_game_until_won(client: TestClient) -> None:
    seats = friend_match(client, 2)
    state, decider = to_cube_decision(client, seats)
    doubler = state["to_move"]
    loser = "black" if doubler == "white" else "white"
    state = move(client, decider, "double", state)
    state = move(client, seats[loser], "drop", state)
    assert state["game_extra"]["next"] == "next"
    # the next game: same sides, at the new score, the Crawford game
    links = {}
    for side, token in [*seats.items(), *seats.items()]:  # an offer, accepted; then joined
        reply = client.post(f"/api/play/{token}/rematch", json={}).json()
        if reply["url"] is not None:
            links[side] = token_of(reply["url"])
    nxt = client.get(f"/api/play/{links['white']}").json()
    assert nxt["my_sides"] == ["white"] and nxt["id"] != state["id"]
    assert client.get(f"/api/play/{links['black']}").json()["my_sides"] == ["black"]
    score = {doubler: 1, loser: 0}
    assert nxt["extra"]["match"] == {"length": 2, "score": score, "crawford": True,
                                     "post_crawford": False}  # fmt: skip
    assert nxt["start"].endswith(f"match 2 {score['white']}-{score['black']} crawford")
    # nobody doubles in the Crawford game: the dice are rolled at once
    mover = nxt["to_move"]
    nxt = move(client, links[mover], nxt["legal"][0], nxt)
    assert "double" not in nxt["legal"] and nxt["extra"]["dice"] is not None
    # the side on turn offers to resign a single game; the other accepts: the match is won
    on_turn = nxt["to_move"]
    winner = "black" if on_turn == "white" else "white"
    nxt = move(client, links[on_turn], "resign single", nxt)
    assert nxt["to_move"] == winner and sorted(nxt["legal"]) == ["accept", "decline"]
    assert nxt["extra"]["cube"]["pending"] == "resign" and nxt["extra"]["cube"]["offer"] == "single"
    nxt = move(client, links[winner], "accept", nxt)
    assert nxt["outcome"] == {"winner": winner, "reason": "resignation"}
    final = {doubler: 1, loser: 0}
    final[winner] += 1
    assert nxt["game_extra"]["score_after"] == final
    if max(final.values()) >= 2:
        assert nxt["game_extra"]["next"] == "new-match" and nxt["game_extra"]["match_winner"]
        # the rematch is a new match from 0-0, sides swapped
        assert client.post(f"/api/play/{links['white']}/rematch", json={}).json()["waiting"]
        client.post(f"/api/play/{links['black']}/rematch", json={})  # accepted
        reply = client.post(f"/api/play/{links['white']}/rematch", json={}).json()
        again = client.get(f"/api/play/{token_of(reply['url'])}").json()
        assert again["my_sides"] == ["black"] and again["start"].endswith("match 2 0-0")
    else:  # 1-1: double match point, no Crawford game
        assert nxt["game_extra"]["next"] == "next"


def test_a_declined_offer_plays_on(client: TestClient) -> None:
    created = new_game(client, game="backgammon", ruleset="money")
    token = token_of(created["seats"]["both"])
    state = client.get(f"/api/play/{token}").json()
    assert state["extra"]["cube"]["jacoby"] is True and "match" not in state["extra"]
    on_turn = state["to_move"]
    state = move(client, token, "resign gammon", state)
    assert state["to_move"] != on_turn
    state = move(client, token, "decline", state)
    assert state["to_move"] == on_turn and state["outcome"] is None and state["extra"]["dice"]


def test_a_gammon_is_worth_two_and_the_next_game_keeps_the_sides(client: TestClient) -> None:
    created = new_game(client, game="backgammon", ruleset="match", mode="computer",
                       side="white", position=LAST_CHECKER)  # fmt: skip
    token = token_of(created["seats"]["both"])
    state = client.get(f"/api/play/{token}").json()
    assert sorted(state["legal"]) == ["double", "roll"]
    state = move(client, token, "roll", state)
    state = move(client, token, state["legal"][0], state)
    assert state["outcome"] == {"winner": "white", "reason": "gammon"}
    assert state["game_extra"]["points"] == 2
    assert state["game_extra"]["score_after"] == {"white": 2, "black": 0}
    reply = client.post(f"/api/play/{token}/rematch", json={}).json()
    nxt = client.get(f"/api/play/{token_of(reply['url'])}").json()
    assert nxt["computer"]["side"] == "black" and nxt["my_sides"] == ["white"]
    assert nxt["start"].endswith("match 3 2-0 crawford")


def test_the_computer_answers_a_double_and_an_offer(client: TestClient) -> None:
    # white far ahead in a race: the computer (black) drops a double
    race = "W[3x5,2x5,1x5] B[21x5,20x5,19x5] w - cube 1 jacoby"
    created = new_game(client, game="backgammon", ruleset="money", mode="computer",
                       side="white", level="easy", position=race)  # fmt: skip
    token = token_of(created["seats"]["both"])
    state = client.get(f"/api/play/{token}").json()
    state = move(client, token, "double", state)
    state = wait_for(client, token, lambda s: s["outcome"] is not None)
    assert state["outcome"] == {"winner": "white", "reason": "dropped"}
    assert state["history"][-1]["text"] == "drop" and state["history"][-1]["side"] == "black"
    # black far behind: it accepts white's offer to resign a single game at once
    lost = "W[21x5,20x5,19x5] B[3x5,2x5,1x5] w - cube 1 jacoby"
    created = new_game(client, game="backgammon", ruleset="money", mode="computer",
                       side="white", level="medium", position=lost)  # fmt: skip
    token = token_of(created["seats"]["both"])
    state = client.get(f"/api/play/{token}").json()
    state = move(client, token, "resign single", state)
    state = wait_for(client, token, lambda s: s["outcome"] is not None)
    assert state["outcome"]["reason"] == "resignation" and state["game_extra"]["points"] == 1


def test_the_computer_plays_on_after_its_offer_is_declined(client: TestClient) -> None:
    """Lost for sure, the computer offers to resign a single game; declined, it rolls and plays
    on instead of offering the same again (it offered 62 times in a row before)."""
    lost = "W[1x2] B[6x4,5x3,4x3,3x2,2x2,1] b - cube 1 jacoby"
    created = new_game(client, game="backgammon", ruleset="money", mode="computer",
                       side="white", level="hard", position=lost)  # fmt: skip
    token = token_of(created["seats"]["both"])
    state = wait_for(client, token, lambda s: s["to_move"] == "white")
    assert state["extra"]["cube"]["pending"] == "resign"
    assert state["extra"]["cube"]["offer"] == "single"
    state = move(client, token, "decline", state)
    # the computer rolls and plays: white is on roll next, or the game is over
    state = wait_for(
        client, token,
        lambda s: s["outcome"] is not None
        or (s["to_move"] == "white" and s["extra"]["cube"]["pending"] != "resign"),
    )  # fmt: skip
    offers = [h["text"] for h in state["history"] if str(h["text"]).startswith("resign")]
    assert offers == ["resign single"]
    assert any(h["kind"] == "chance" for h in state["history"])
