"""The archive's list: a backgammon match's games together (in order, the points each scored and
the match score after it), what a resignation gave up (single, gammon, backgammon), and the
filters by game, player and result (a plain GET form whose values stay in the address), in
English and French."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from fastapi.testclient import TestClient

from ludotheque.server.archive.listing import group
from tests.server.conftest import new_game, token_of
from tests.server.people import sign_up


def move(client: TestClient, token: str, text: str) -> dict[str, Any]:
    state = client.get(f"/api/play/{token}").json()
    response = client.post(f"/api/play/{token}/move", json={"move": text, "ply": state["ply"]})
    assert response.status_code == 200, response.text
    return dict(response.json())


def resigned(client: TestClient, token: str, what: str) -> dict[str, Any]:
    """The side on turn offers to resign ``what``; the other accepts (one screen: both)."""
    move(client, token, f"resign {what}")
    state = move(client, token, "accept")
    assert state["outcome"]["reason"] == "resignation", state
    return state


def text_of(html: str) -> str:
    text = unescape(re.sub(r"<[^>]+>", " ", html))
    return re.sub(r"[ \t\n]+", " ", text).strip()


def row(html: str, game_id: str) -> str:
    found = re.search(rf'<tr data-game-id="{re.escape(game_id)}"[^>]*>(.*?)</tr>', html, re.S)
    assert found, f"no archive row for {game_id}"
    return text_of(found.group(1))


def ids_in_order(html: str) -> list[str]:
    return re.findall(r'<tr data-game-id="([^"]+)"', html)


def play_match(client: TestClient) -> tuple[list[dict[str, Any]], str]:
    """A 3-point match at one screen: a gammon resigned (2 points), then in the Crawford game
    a single game resigned by the same side (the match over, 3-0). Its games' final states
    and the winner."""
    created = new_game(client, game="backgammon", ruleset="match", mode="local", length=3)
    token = token_of(created["seats"]["both"])
    first = resigned(client, token, "gammon")
    winner = first["outcome"]["winner"]
    assert first["game_extra"]["points"] == 2 and first["game_extra"]["win_kind"] == "gammon"
    reply = client.post(f"/api/play/{token}/rematch", json={}).json()
    token = token_of(reply["url"])
    state = client.get(f"/api/play/{token}").json()
    if state["to_move"] == winner:  # the loser resigns: it may offer only on its own turn
        move(client, token, state["legal"][0])
    second = resigned(client, token, "single")
    assert second["outcome"]["winner"] == winner and second["game_extra"]["match_winner"] == winner
    return [first, second], winner


def test_a_match_is_one_group_its_games_in_order_with_points_and_score(
    client: TestClient,
) -> None:
    games, winner = play_match(client)
    other = new_game(client, game="general", mode="local")  # a game after the match
    client.post(f"/api/play/{token_of(other['seats']['both'])}/resign")
    html = client.get("/archive", headers={"accept-language": "en"}).text
    first, second = (g["id"] for g in games)
    group = re.search(r'<tbody class="match"[^>]*>(.*?)</tbody>', html, re.S)
    assert group, "no match group"
    # the games of the match in order, inside their group; the other game on its own
    assert ids_in_order(group.group(1)) == [first, second]
    assert sorted(ids_in_order(html)) == sorted([other["id"], first, second])
    assert html.count('<tbody class="match"') == 1
    side = "White" if winner == "white" else "Black"
    head = text_of(re.search(r'<tr class="match-head">(.*?)</tr>', html, re.S).group(1))  # type: ignore[union-attr]
    score = "White 3 – 0 Black" if winner == "white" else "White 0 – 3 Black"
    assert head == f"Match to 3 points · Match score: {score} · {side} wins the match"
    one = row(html, first)
    assert one.startswith("Game 1 · Backgammon")
    assert f"{side} won — resignation (a gammon)" in one
    assert f"{side} scores 2 points" in one
    assert ("Match score: White 2 – 0 Black" if winner == "white" else "White 0 – 2 Black") in one
    assert "The General won — resignation" in row(html, other["id"])
    assert "match." not in row(html, other["id"])  # no points, no score (it has none)
    two = row(html, second)
    assert two.startswith("Game 2 · Backgammon")
    assert f"{side} won — resignation (a single game)" in two and f"{side} scores 1 point" in two

    french = client.get("/archive", headers={"accept-language": "fr"}).text
    one = row(french, first)
    assert one.startswith("Partie 1 · Backgammon") and "abandon (un gammon)" in one
    assert "Match en 3 points" in text_of(french)
    table = text_of(re.search(r'<table id="archive">.*?</table>', french, re.S).group(0))  # type: ignore[union-attr]
    assert "Game 1" not in table and "resignation" not in table and "scores" not in table


def test_the_filters_by_game_player_and_result_keep_their_values(client: TestClient) -> None:
    games, _ = play_match(client)
    alice = sign_up(client, "alice")
    made = alice.post("/api/games", {"game": "general", "mode": "computer", "level": "easy",
                                     "side": "general"})  # fmt: skip
    assert made.status_code == 201, made.text
    mine = made.json()
    with alice.acting() as c:
        seat = token_of(next(iter(mine["seats"].values())))
        assert c.post(f"/api/play/{seat}/resign").status_code == 200
    local = new_game(client, game="defiance", ruleset="8x8", mode="local")
    client.post(f"/api/play/{token_of(local['seats']['both'])}/resign")
    everything = ids_in_order(client.get("/archive").text)
    assert set(everything) == {g["id"] for g in games} | {mine["id"], local["id"]}

    html = client.get("/archive?game=general").text
    assert ids_in_order(html) == [mine["id"]]
    assert '<option value="general" selected>' in html  # the form says what is shown
    html = client.get("/archive?player=ALICE").text  # names are found as accounts are
    assert ids_in_order(html) == [mine["id"]] and 'value="ALICE"' in html
    assert ids_in_order(client.get("/archive?game=backgammon&result=gammon").text) == [
        games[0]["id"]
    ]  # the single game resigned is not a gammon
    html = client.get("/archive?result=resignation").text
    assert set(ids_in_order(html)) == set(everything)
    assert '<option value="resignation" selected>' in html
    html = client.get("/archive?player=nobody&game=defiance").text
    assert ids_in_order(html) == [] and "No finished game matches these filters." in html
    assert 'href="/archive" id="filter-clear"' in html
    french = client.get("/archive?player=nobody", headers={"accept-language": "fr"}).text
    assert "Aucune partie terminée ne correspond à ces filtres." in french
    # the form: a GET to /archive, each field labelled
    form = re.search(r'<form class="archive-filters".*?</form>', html, re.S).group(0)  # type: ignore[union-attr]
    assert 'method="get"' in form and 'action="/archive"' in form
    for field in ("filter-game", "filter-player", "filter-result"):
        assert f'<label for="{field}">' in form and f'id="{field}"' in form


def test_a_filter_that_cannot_be_is_refused_in_the_readers_language(client: TestClient) -> None:
    response = client.get("/archive?game=chess", headers={"accept-language": "en"})
    assert response.status_code == 400 and "no game called chess" in response.text
    response = client.get("/archive?result=lost", headers={"accept-language": "fr"})
    assert response.status_code == 400 and "pas de tel résultat à filtrer" in response.text
    response = client.get("/archive?player=" + "x" * 41)
    assert response.status_code == 400 and "at most 20 characters" in response.text


def test_a_match_s_games_come_in_order_whatever_order_the_database_gives() -> None:
    """Games finished within the same second come back in any order: the group is ordered by
    the games' numbers, and says the score and winner of its last game."""

    def game(gid: str, number: int, score: dict[str, int], winner: str | None) -> dict[str, Any]:
        match = {"first": "m1", "number": number, "length": 3, "winner": winner}
        return {"id": gid, "match": match, "score_after": score}

    games = [
        game("b", 2, {"white": 3, "black": 0}, "white"),
        game("a", 1, {"white": 2, "black": 0}, None),
    ]
    for listed in (games, games[::-1]):
        [entry] = group([dict(g) for g in listed])
        assert [g["id"] for g in entry["games"]] == ["a", "b"]
        assert entry["score"] == {"white": 3, "black": 0} and entry["winner"] == "white"


def test_a_cubeless_game_resigned_says_resignation_alone(client: TestClient) -> None:
    """Where a game is played for the win alone (``seed``, ``standard``), what a resignation
    gave up counts for nothing: the archive says "resignation", as the game's page does, not
    "resignation (a backgammon)"."""
    for ruleset in ("seed", "standard"):
        made = new_game(client, game="backgammon", ruleset=ruleset, mode="local")
        response = client.post(f"/api/play/{token_of(made['seats']['both'])}/resign")
        assert response.status_code == 200, response.text
        for lang, word in (("en", "resignation"), ("fr", "abandon")):
            html = client.get("/archive", headers={"accept-language": lang}).text
            text = row(html, made["id"])
            assert re.search(rf"— {word}(?! \()", text), text
            assert "gammon)" not in text, text
