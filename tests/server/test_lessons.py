"""The lessons on the server: the pages, a move judged by the engine (solved, missed with
why, refused with the engine's words), progress kept with an account (and not for a guest),
and bad requests refused with a 4xx in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Callable

from fastapi.testclient import TestClient

from ludotheque.lessons import COURSES
from tests.server.people import place_client, sign_up, visitor


def test_the_pages_and_the_links_to_them(client: TestClient) -> None:
    index = client.get("/learn")
    assert index.status_code == 200
    for game in COURSES:
        assert f'href="/learn/{game}"' in index.text
        lesson = client.get(f"/learn/{game}")
        assert lesson.status_code == 200
        assert 'id="lesson-data"' in lesson.text
        rules = client.get(f"/rules/{game}")
        assert f'href="/learn/{game}"' in rules.text  # from each rules page
    assert 'href="/learn"' in client.get("/").text  # the site's navigation
    french = client.get("/learn/general", headers={"accept-language": "fr"})
    assert "Prendre une paire" in french.text and "Apprendre" in french.text
    missing = client.get("/learn/chess", headers={"accept-language": "fr"})
    assert missing.status_code == 404
    assert "pas de leçon" in missing.text


def test_the_course_in_the_reader_s_language(client: TestClient) -> None:
    english = client.get("/api/lessons/backgammon").json()
    assert [s["id"] for s in english["steps"]] == COURSES["backgammon"].ids
    assert english["steps"][0]["side"] == "chance"
    assert english["steps"][1]["side"] == "white"
    assert english["account"] is False and english["solved"] == []
    assert english["steps"][0]["hint_move"] is None  # a roll: nothing to draw
    assert english["steps"][2]["hint_move"] == "13/7* 13/11"
    french = client.get("/api/lessons/backgammon", headers={"accept-language": "fr"}).json()
    assert french["steps"][0]["title"] == "Le plus petit dé commence"
    assert french["steps"][0]["position"] == english["steps"][0]["position"]


def test_defiance_points_are_told_by_the_cells_that_meet_there(client: TestClient) -> None:
    """The board labels cells, not points: a point a Defiance step asks for is told by the four
    cells at its corner, in the same step, in both languages (a learner read "P3.2" with
    nothing on the board to find it by)."""
    for language in ("en", "fr"):
        course = client.get("/api/lessons/defiance", headers={"accept-language": language})
        for step in course.json()["steps"]:
            told = f"{step['do']} {step['hint']}"
            for x, y in re.findall(r"P(\d+)\.(\d+)", told):
                i, j = int(x), int(y)
                cells = [f"{'abcdefghij'[c]}{r + 1}" for c in (i - 1, i) for r in (j - 1, j)]
                assert all(c in told for c in cells), (language, step["id"], x, y, cells)


def test_a_move_judged_by_the_engine(client: TestClient) -> None:
    solved = client.post("/api/lessons/general/capture", json={"move": "c2-b2xa1c3"}).json()
    assert solved["result"] == "solved"
    assert solved["played"] == "c2-b2xa1c3"
    assert "takes both" in solved["message"]
    assert solved["solved"] == []  # a guest's progress is the browser's to keep
    missed = client.post("/api/lessons/general/capture", json={"move": "c2-c1"}).json()
    assert missed["result"] == "missed"
    assert "nothing was taken" in missed["message"]
    refused = client.post(
        "/api/lessons/backgammon/cap", json={"move": "7/6 13/11"},
        headers={"accept-language": "fr"},
    ).json()  # fmt: skip
    assert refused["result"] == "illegal"
    assert refused["message"].startswith("Le moteur refuse ce coup")
    assert refused["position"] == COURSES["backgammon"].steps[3].position
    roll = client.post("/api/lessons/backgammon/opening", json={"move": "w4b1"}).json()
    assert roll["result"] == "solved" and roll["played"] == "w4b1"


def test_bad_requests_are_refused_in_the_reader_s_language(client: TestClient) -> None:
    fr = {"accept-language": "fr"}
    cases = [
        ("/api/lessons/chess/capture", {"move": "a1"}, 404, "no-lesson", "pas de leçon"),
        ("/api/lessons/general/nope", {"move": "a1"}, 404, "no-step", "pas d’étape"),
        ("/api/lessons/general/capture", {"move": "  "}, 400, "no-move", "aucun coup"),
        ("/api/lessons/general/capture", {"move": "x" * 401}, 400, "move-too-long", "400"),
    ]
    for path, body, status, code, words in cases:
        response = client.post(path, json=body, headers=fr)
        assert response.status_code == status, response.text
        answer = response.json()
        assert answer["code"] == code and words in answer["detail"]
    assert client.get("/api/lessons/chess").status_code == 404
    malformed = client.post("/api/lessons/general/capture", json={"move": 3})
    assert malformed.status_code == 400
    # keeping progress needs an account
    guest = client.post("/api/lessons/progress", json={"game": "general", "steps": ["step"]},
                        headers=fr)  # fmt: skip
    assert guest.status_code == 401 and "connectez-vous" in guest.json()["detail"]


def test_an_account_keeps_its_progress(make_client: Callable[..., TestClient]) -> None:
    client = place_client(make_client)
    ann = sign_up(client, "ann")
    # a signed-in request is cookie-authorised: without its CSRF token it changes nothing
    assert ann.post("/api/lessons/general/step", {"move": "b3-c3"}, csrf=False).status_code == 403
    assert ann.get("/api/lessons").json()["solved"]["general"] == []
    answer = ann.post("/api/lessons/general/step", {"move": "b3-c3"}).json()
    assert answer["result"] == "solved" and answer["solved"] == ["step"]
    assert ann.post("/api/lessons/general/capture", {"move": "c2-c1"}).json()["solved"] == ["step"]
    ann.post("/api/lessons/general/twelve", {"move": "c2-b2xa1c3"})
    ann.post("/api/lessons/general/step", {"move": "b3-c3"})  # solved again: kept once
    progress = ann.get("/api/lessons").json()
    assert progress == {"account": True, "solved": {"general": ["step", "twelve"],
                                                     "backgammon": [], "defiance": []}}  # fmt: skip
    # what a guest solved in the browser, kept with the account on signing in
    kept = ann.post("/api/lessons/progress", {"game": "defiance", "steps": ["place", "rotate"]})
    assert kept.status_code == 200
    assert kept.json()["solved"]["defiance"] == ["place", "rotate"]
    bad = ann.post("/api/lessons/progress", {"game": "defiance", "steps": ["flying"]})
    assert bad.status_code == 404 and bad.json()["code"] == "no-step"
    # the pages say it: the index counts, the course marks, after a restart of the server
    again = place_client(make_client)
    ann.client = again
    index = ann.get("/learn").text
    assert 'data-game="general" data-total="6" data-done="2"' in index
    assert ann.get("/api/lessons/general").json()["solved"] == ["step", "twelve"]
    # another account starts with nothing; a visitor too
    assert sign_up(again, "bob").get("/api/lessons").json()["solved"]["general"] == []
    assert visitor(again).get("/api/lessons").json() == {
        "account": False, "solved": {"general": [], "backgammon": [], "defiance": []}}  # fmt: skip
