"""Puzzles on the site: attempts checked and rated once, the daily puzzle, streaks, a player's
own mistakes from a real analysed game, and refusals in the reader's language."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.puzzles.model import Puzzle, read, shipped
from ludotheque.server import timesource
from ludotheque.server.puzzles import catalogue as cat
from tests.puzzle_sets import write_sets
from tests.server.people import Person, place_client, sign_up, visitor


@pytest.fixture
def sets(tmp_path: Path) -> Path:
    return write_sets(tmp_path / "sets")


@pytest.fixture
def site(make_client: Callable[..., TestClient], sets: Path) -> TestClient:
    return place_client(make_client, puzzles_dir=str(sets))


def the_set(sets: Path, game: str) -> dict[str, Puzzle]:
    return {p.id: p for p in read(sets / f"{game}.jsonl")}


def start(person: Person, **body: Any) -> dict[str, Any]:
    response = person.post("/api/puzzles/start", body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def wrong_move(puzzle: Puzzle, step: int = 0) -> str:
    """A legal move that is not the answer at the solver's ``step``."""
    state = puzzle.state()
    for text in puzzle.line[: 2 * step]:
        state = state.play(state.parse_move(text))
    right = str(state.parse_move(puzzle.line[2 * step]))
    return next(str(m) for m in state.legal_moves() if str(m) != right)


def solve(person: Person, attempt: str, puzzle: Puzzle) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for move in puzzle.solver_moves():
        answer = person.post(f"/api/puzzles/attempts/{attempt}/move", {"move": move}).json()
        assert answer["right"], answer
    return answer


def test_a_puzzle_solved_rates_the_player_and_the_puzzle_once(site: TestClient, sets: Path
                                                                ) -> None:  # fmt: skip
    player = sign_up(site, "solver")
    puzzles = the_set(sets, "general")
    started = start(player, mode="play", game="general")
    assert started["rated"] and started["mode"] == "play"
    puzzle = puzzles[started["puzzle"]["id"]]
    assert "line" not in started["puzzle"]  # the solution stays on the server
    first = player.post(f"/api/puzzles/attempts/{started['attempt']}/move",
                        {"move": puzzle.line[0]}).json()  # fmt: skip
    assert first["right"] and not first["solved"] and first["result"] is None
    assert [s["move"] for s in first["played"]] == list(puzzle.line[:2])  # the reply played
    assert first["played"][1]["side"] != puzzle.side
    last = player.post(f"/api/puzzles/attempts/{started['attempt']}/move",
                       {"move": puzzle.line[2]}).json()  # fmt: skip
    assert last["solved"] and last["result"] == "win"
    assert last["rating"]["after"] > last["rating"]["before"] == 1500
    ratings = {r["game"]: r for r in player.get("/api/puzzles/ratings").json()}
    assert ratings["general"]["games"] == 1
    assert ratings["general"]["rating"] == round(last["rating"]["after"])
    # the same puzzle again is practice: not rated, and it is not chosen again
    again = start(player, mode="puzzle", id=puzzle.id)
    assert not again["rated"]
    assert solve(player, again["attempt"], puzzle)["rating"] is None
    assert player.get("/api/puzzles/ratings").json()[0]["games"] == 1
    for _ in range(10):
        assert start(player, mode="play", game="general")["puzzle"]["id"] != puzzle.id
    # the puzzle's own rating went down for the player's win
    later = start(visitor(site), mode="puzzle", id=puzzle.id)
    assert later["puzzle"]["rating"] < puzzle.rating


def test_a_wrong_move_loses_the_attempt_and_the_position_stays(site: TestClient, sets: Path
                                                                ) -> None:  # fmt: skip
    player = sign_up(site, "misser")
    started = start(player, mode="puzzle", id="g00003")
    puzzle = the_set(sets, "general")["g00003"]
    url = f"/api/puzzles/attempts/{started['attempt']}/move"
    wrong = player.post(url, {"move": wrong_move(puzzle)}).json()
    assert not wrong["right"] and wrong["result"] == "loss" and wrong["played"] == []
    assert wrong["rating"]["change"] < 0
    # a first answer: provisional as /puzzles says it, and the puzzle's new rating, higher
    assert wrong["rating"]["provisional"] and wrong["rating"]["puzzle"] > puzzle.rating
    # the proof is open after an answer; the solver may still find the line (practice)
    proof = player.get(f"/api/puzzles/attempts/{started['attempt']}/proof").json()
    assert [s["move"] for s in proof["steps"]] == list(puzzle.line)
    assert proof["facts"] == {"wins_in": 9} and proof["source"] == "search"
    solved = solve(player, started["attempt"], puzzle)
    assert solved["solved"] and solved["result"] == "loss" and solved["rating"] is None
    assert player.get("/api/puzzles/ratings").json()[0]["games"] == 1


def test_guests_play_unrated(site: TestClient, sets: Path) -> None:
    guest = visitor(site)
    started = start(guest, mode="play", game="backgammon")
    assert not started["rated"]
    puzzle = the_set(sets, "backgammon")[started["puzzle"]["id"]]
    answer = solve(guest, started["attempt"], puzzle)
    assert answer["solved"] and answer["result"] == "win" and answer["rating"] is None
    assert guest.get("/api/puzzles/ratings").status_code == 401


def test_a_cube_puzzle_is_answered_by_its_action(site: TestClient) -> None:
    guest = visitor(site)
    started = start(guest, mode="puzzle", id="b09000")
    assert started["puzzle"]["cube"]
    url = f"/api/puzzles/attempts/{started['attempt']}/move"
    assert not guest.post(url, {"move": "double"}).json()["right"]
    assert guest.post(url, {"move": "no double"}).json()["solved"]


def test_the_daily_puzzle_is_the_same_all_day(site: TestClient) -> None:
    one, two = visitor(site), sign_up(site, "daily")
    morning = datetime(2026, 12, 5, 0, 0, tzinfo=UTC).timestamp()
    days = []
    for moment in (morning, morning + 12 * 3600, morning + 86399, morning + 86400 * 3):
        with timesource.using(timesource.FakeTime(moment)):
            days.append([start(p, mode="daily", game="general")["puzzle"]["id"]
                         for p in (one, two)])  # fmt: skip
    assert days[0][0] == days[0][1] == days[1][0] == days[2][1]
    other = [start(one, mode="daily", game=g)["puzzle"]["game"] for g in ("defiance",)]
    assert other == ["defiance"]


def test_a_streak_rises_and_ends_on_a_wrong_move(site: TestClient, sets: Path) -> None:
    player = sign_up(site, "streaker")
    puzzles = the_set(sets, "general")
    started = start(player, mode="streak", game="general")
    streak = started["streak"]["id"]
    assert started["streak"]["count"] == 0 and not started["rated"]
    ratings = []
    for count in (1, 2):
        puzzle = puzzles[started["puzzle"]["id"]]
        ratings.append(started["puzzle"]["rating"])
        answer = solve(player, started["attempt"], puzzle)
        assert answer["streak"] == {"id": streak, "count": count, "over": False, "best": count}
        assert answer["rating"] is None  # streaks are unrated
        started = start(player, mode="streak", game="general", streak=streak)
    assert ratings[0] < ratings[1] < started["puzzle"]["rating"]
    puzzle = puzzles[started["puzzle"]["id"]]
    failed = player.post(f"/api/puzzles/attempts/{started['attempt']}/move",
                         {"move": wrong_move(puzzle)}).json()  # fmt: skip
    assert failed["streak"] == {"id": streak, "count": 2, "over": True, "best": 2}
    over = player.post("/api/puzzles/start", {"mode": "streak", "game": "general",
                                              "streak": streak})  # fmt: skip
    assert over.status_code == 409 and over.json()["code"] == "streak-over"
    assert player.get("/api/puzzles/ratings").json()[0]["best_streak"] == 2
    # a new streak starts from the bottom again; the best is kept
    fresh = start(player, mode="streak", game="general")
    assert fresh["streak"]["count"] == 0 and fresh["streak"]["best"] == 2


def test_refusals_say_why_in_the_readers_language(site: TestClient, sets: Path) -> None:
    guest = visitor(site)
    guest.client.cookies.set("lang", "fr")
    guest.jar.set("lang", "fr")
    unknown = guest.post("/api/puzzles/start", {"mode": "puzzle", "id": "g99999"})
    assert unknown.status_code == 404 and unknown.json()["detail"] == "aucun problème de ce nom"
    started = start(guest, mode="puzzle", id="g00000")
    url = f"/api/puzzles/attempts/{started['attempt']}/move"
    malformed = guest.post(url, {"move": "z9-q0"})
    assert malformed.status_code == 400 and malformed.json()["code"] == "bad-move"
    assert "n’est pas un coup" in malformed.json()["detail"]
    early = guest.get(f"/api/puzzles/attempts/{started['attempt']}/proof")
    assert early.status_code == 409 and "après votre réponse" in early.json()["detail"]
    solve(guest, started["attempt"], the_set(sets, "general")["g00000"])
    replayed = guest.post(url, {"move": "a1-b2"})
    assert replayed.status_code == 409 and replayed.json()["code"] == "attempt-over"
    assert "déjà résolu" in replayed.json()["detail"]
    nothing = guest.post("/api/puzzles/attempts/nope/move", {"move": "a1-b2"})
    assert nothing.status_code == 404 and nothing.json()["code"] == "not-found"
    no_game = guest.post("/api/puzzles/start", {"mode": "play", "game": "chess"})
    assert no_game.status_code == 404


def test_your_mistakes_from_a_real_analysed_game(site: TestClient) -> None:
    """A backgammon game against the computer, its plays chosen badly on purpose (each time
    the play that leaves most checkers alone), resigned and analysed: its errors become the
    player's puzzles, the position before the error with the engine's best play."""
    player = sign_up(site, "blunderer")
    created = player.post("/api/games", {"game": "backgammon", "ruleset": "standard",
                                         "mode": "computer", "level": "easy",
                                         "side": "white"}).json()  # fmt: skip
    token = player.seat(created["id"])
    deadline = time.monotonic() + 120
    plays = 0
    while plays < 6 and time.monotonic() < deadline:
        state = player.get(f"/api/play/{token}").json()
        if state.get("outcome"):
            break
        if state["to_move"] != "white" or not state["legal"]:
            time.sleep(0.1)
            continue
        move = worst(state)
        reply = player.post(f"/api/play/{token}/move", {"move": move, "ply": state["ply"]})
        assert reply.status_code == 200, reply.text
        plays += 1
    assert player.post(f"/api/play/{token}/resign", {}).status_code == 200
    player.post(f"/api/games/{created['id']}/analysis", {"strength": "quick"})
    deadline = time.monotonic() + 180
    while player.get(f"/api/games/{created['id']}/analysis?strength=quick").json()[
        "status"] not in ("done", "failed"):  # fmt: skip
        assert time.monotonic() < deadline
        time.sleep(0.2)
    analysis = player.get(f"/api/games/{created['id']}/analysis?strength=quick").json()
    errors = [d for d in analysis["analysis"]["decisions"]
              if d["side"] == "white" and d["label"] in ("bad", "very-bad")]  # fmt: skip
    assert errors, "the bad plays were judged errors"
    mine = player.get("/api/puzzles/mistakes").json()
    assert [m["ply"] for m in mine] == [d["ply"] for d in errors]
    first, error = mine[0], errors[0]
    assert first["played"] == error["played"]["move"] and first["game_id"] == created["id"]
    started = start(player, mode="puzzle", id=first["id"])
    assert started["mode"] == "mistake" and not started["rated"]
    assert started["puzzle"]["position"] == error["position"]
    url = f"/api/puzzles/attempts/{started['attempt']}/move"
    assert not player.post(url, {"move": error["played"]["move"]}).json()["right"]
    assert player.post(url, {"move": error["best"][0]["move"]}).json()["solved"]
    # another player cannot open them; the page lists them
    other = sign_up(site, "stranger")
    assert other.post("/api/puzzles/start", {"mode": "puzzle", "id": first["id"]}
                      ).status_code == 404  # fmt: skip
    assert first["id"] in player.get("/puzzles/mistakes").text


def worst(state: dict[str, Any]) -> str:
    """The play that leaves the most of white's checkers alone on a point (a bad play)."""
    game = ludotheque.load("backgammon", "standard")
    now = game.parse_position(state["position"])

    def blots(move: str) -> int:
        after = now.play(now.parse_move(move)).position()
        white = after.split("]")[0]
        return sum(1 for part in white.split(",") if "x" not in part)

    return max(sorted(state["legal"]), key=blots)


@pytest.mark.parametrize("game", ["general", "backgammon", "defiance"])
def test_the_shipped_sets_are_served_with_their_proofs(
    make_client: Callable[..., TestClient], game: str
) -> None:
    """A shipped puzzle of each game: answered by its line, the proof the source's whole line
    (the General's: a fastest win against the slowest defence), its facts told; a wrong
    answer loses."""
    shipped_set = {p.id: p for p in shipped(game)}
    if not shipped_set:
        pytest.skip(f"the {game} set is not built in this checkout")
    site = place_client(make_client)
    guest = visitor(site)
    started = start(guest, mode="play", game=game)
    puzzle = shipped_set[started["puzzle"]["id"]]
    answer = solve(guest, started["attempt"], puzzle)
    assert answer["solved"] and answer["result"] == "win"
    proof = guest.get(f"/api/puzzles/attempts/{started['attempt']}/proof").json()
    full = puzzle.facts.get("proof", list(puzzle.line))
    assert [s["move"] for s in proof["steps"]] == full
    assert proof["source"] == puzzle.source and proof["facts"] == puzzle.facts
    again = start(guest, mode="puzzle", id=puzzle.id)
    state = puzzle.state()
    other = next(str(m) for m in state.legal_moves() if not cat.is_right(puzzle, 0, state, str(m)))
    miss = guest.post(f"/api/puzzles/attempts/{again['attempt']}/move", {"move": other}).json()
    assert not miss["right"] and miss["result"] == "loss"
    page = guest.get("/puzzles").text
    assert f"{len(shipped_set):,} puzzles" in page


def test_a_guest_is_not_given_a_puzzle_their_browser_has_answered(site: TestClient) -> None:
    guest = visitor(site)
    seen = [f"g{n:05d}" for n in range(8) if n != 5]
    for _ in range(5):
        assert start(guest, mode="play", game="general", seen=seen)["puzzle"]["id"] == "g00005"
    everything = guest.post("/api/puzzles/start", {"mode": "play", "game": "general",
                                                   "seen": [*seen, "g00005"]})  # fmt: skip
    assert everything.status_code == 409 and everything.json()["code"] == "all-done"


def test_two_attempts_begun_together_rate_once(site: TestClient, sets: Path) -> None:
    """Two first attempts at one puzzle (two tabs): both begin rated, the first answer rates,
    the second finds the puzzle answered (``puzzle_done``) and rates nothing."""
    player = sign_up(site, "twotabs")
    puzzle = the_set(sets, "general")["g00004"]
    one, two = (start(player, mode="puzzle", id=puzzle.id) for _ in range(2))
    assert one["rated"] and two["rated"]
    assert solve(player, one["attempt"], puzzle)["rating"] is not None
    wrong = player.post(f"/api/puzzles/attempts/{two['attempt']}/move",
                        {"move": wrong_move(puzzle)}).json()  # fmt: skip
    assert wrong["result"] == "loss" and wrong["rating"] is None
    rating = player.get("/api/puzzles/ratings").json()[0]
    assert rating["games"] == 1 and rating["rating"] > 1500
