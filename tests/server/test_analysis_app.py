"""The analysis in the app: analyses of finished games as shared jobs, stored for the next
visitor; hints only where they are fair; the analysis board's API and page."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from ludotheque.analysis import Analysis
from ludotheque.server.analysis.jobs import AnalysisRow
from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings
from ludotheque.server.store.db import JobRow
from tests.server.conftest import new_game, token_of
from tests.server.people import place_client, sign_up

MOVES = ["a2-b2", "c3-c2", "a3-a2", "c2-d2"]


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[TestClient]:
    """An app on SQLite only, for what does not depend on the database (hints, the board)."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'lite.sqlite3'}",
                              computer_delay=0.0))  # fmt: skip
    with TestClient(app) as client:
        yield client


def finished_game(client: TestClient, moves: list[str] = MOVES, **spec: Any) -> str:
    """A local General game of ``moves``, resigned by the side to move; its id."""
    created = new_game(client, mode="local", **spec)
    token = token_of(created["seats"]["both"])
    for ply, move in enumerate(moves):
        response = client.post(f"/api/play/{token}/move", json={"move": move, "ply": ply})
        assert response.status_code == 200, response.text
    assert client.post(f"/api/play/{token}/resign", json={}).status_code == 200
    return str(created["id"])


def wait_done(client: TestClient, game_id: str, strength: str, timeout: float = 90.0
              ) -> dict[str, Any]:  # fmt: skip
    deadline = time.monotonic() + timeout
    seen = set()
    while True:
        view = client.get(f"/api/games/{game_id}/analysis?strength={strength}").json()
        seen.add(view["status"])
        if view["status"] in ("done", "failed"):
            view["seen"] = seen
            return dict(view)
        assert time.monotonic() < deadline, f"the analysis never ended ({view})"
        time.sleep(0.1)


def count(client: TestClient, model: Any, *where: Any) -> int:
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.sessions() as db:
        return int(db.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def test_a_finished_game_is_analysed_once_and_kept(client: TestClient) -> None:
    game_id = finished_game(client)
    url = f"/api/games/{game_id}/analysis"
    assert client.get(url).json()["status"] == "none"
    first = client.post(url, json={"strength": "quick"})
    assert first.status_code == 202 and first.json()["status"] in ("queued", "running")
    again = client.post(url, json={"strength": "quick"})  # the same request: the same job
    assert again.status_code in (200, 202)
    assert count(client, JobRow, JobRow.game_id == game_id, JobRow.kind == "analysis") == 1
    view = wait_done(client, game_id, "quick")
    assert view["status"] == "done", view
    analysis = Analysis.from_dict(view["analysis"])
    assert analysis.game == "general" and analysis.strength == "quick"
    history = client.get(f"/api/games/{game_id}").json()["history"]
    assert [d.played.move for d in analysis.decisions] == [h["text"] for h in history]
    assert analysis.result == {"winner": "general", "reason": "resignation"}
    assert len(analysis.timeline) == len(MOVES) + 1
    assert view["done"] == view["total"] == len(MOVES)
    # the next visitor gets it at once, and asking again makes no new job
    later = client.post(url, json={"strength": "quick"})
    assert later.status_code == 200 and later.json()["analysis"] == view["analysis"]
    assert client.get(url).json()["strength"] == "quick"  # the deepest analysis there is
    assert count(client, JobRow, JobRow.game_id == game_id, JobRow.kind == "analysis") == 1
    assert count(client, AnalysisRow, AnalysisRow.game_id == game_id) == 1
    # each strength is an analysis of its own
    assert client.get(f"{url}?strength=normal").json()["status"] == "none"


def test_only_finished_games_and_known_strengths(client: TestClient) -> None:
    created = new_game(client, mode="local")
    url = f"/api/games/{created['id']}/analysis"
    refused = client.post(url, json={"strength": "quick"})
    assert refused.status_code == 403 and refused.json()["code"] == "not-finished"
    assert client.get(url).status_code == 403
    game_id = finished_game(client, MOVES[:1])
    bad = client.post(f"/api/games/{game_id}/analysis", json={"strength": "forever"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad-request"
    assert client.get("/api/games/nope/analysis").status_code == 404
    assert count(client, JobRow, JobRow.kind == "analysis") == 0


def test_the_endgame_tables_speak_in_the_analysis(client: TestClient) -> None:
    # six rebels against the general: the tables know the rebels win in 18
    game_id = finished_game(client, ["a5-b4"], position="c3 a1,a5,e1,e5,b1,d5 r 1")
    client.post(f"/api/games/{game_id}/analysis", json={"strength": "quick"})
    view = wait_done(client, game_id, "quick")
    first = Analysis.from_dict(view["analysis"]).decisions[0]
    assert first.proof is not None and first.proof.text() == "the rebels win in 18"
    assert first.label is None  # a5-b4 keeps the win


def test_an_analysis_asked_on_one_process_is_made_by_the_worker_of_another(
    make_client: Callable[..., TestClient],
) -> None:
    queue_only = make_client(computer="queue")  # a server that leaves the jobs to workers
    game_id = finished_game(queue_only, MOVES[:2])
    queue_only.post(f"/api/games/{game_id}/analysis", json={"strength": "quick"})
    time.sleep(0.5)
    assert queue_only.get(f"/api/games/{game_id}/analysis?strength=quick").json()["status"] == (
        "queued"
    )
    make_client()  # a process that works the queue
    view = wait_done(queue_only, game_id, "quick")
    assert view["status"] == "done" and len(view["analysis"]["decisions"]) == 2


def hints(client: TestClient, token: str) -> Any:
    return client.post(f"/api/play/{token}/hints", json={})


def test_hints_at_one_screen_and_against_the_computer(lite: TestClient) -> None:
    local = token_of(new_game(lite, mode="local")["seats"]["both"])
    answer = hints(lite, local)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["side"] == "rebels" and len(data["moves"]) == 3
    values = [m["win"] for m in data["moves"]]
    assert values == sorted(values, reverse=True)
    state = lite.get(f"/api/play/{local}").json()
    assert {m["move"] for m in data["moves"]} <= set(state["legal"])
    created = new_game(lite, mode="computer", side="general", level="easy")
    token = token_of(created["seats"]["both"])
    # the computer (rebels) moves first: no hint until it is the player's turn
    deadline = time.monotonic() + 30
    while lite.get(f"/api/play/{token}").json()["to_move"] != "general":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    answer = hints(lite, token)
    assert answer.status_code == 200 and answer.json()["side"] == "general"


def test_no_hints_between_players_nor_for_watchers(lite: TestClient) -> None:
    created = new_game(lite, mode="friend")
    for side in ("rebels", "general"):
        refused = hints(lite, token_of(created["seats"][side]))
        assert refused.status_code == 403 and refused.json()["code"] == "no-hints"
    assert hints(lite, token_of(created["watch"])).status_code == 403
    local = new_game(lite, mode="local")
    assert hints(lite, token_of(local["watch"])).status_code == 403
    token = token_of(local["seats"]["both"])
    lite.post(f"/api/play/{token}/resign", json={})
    assert hints(lite, token).status_code == 409  # the game is over


def test_no_hints_in_rated_games(make_client: Callable[..., TestClient]) -> None:
    client = place_client(make_client)
    alice = sign_up(client, "alice")
    form = alice.get("/").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf is not None
    with alice.acting() as c:
        response = c.post(
            "/new",
            data={"game": "general", "mode": "computer", "level": "easy", "side": "rebels",
                  "control": "5+3", "rated": "on", "csrf": csrf.group(1)},
            follow_redirects=False,
        )  # fmt: skip
    assert response.status_code == 303
    token = token_of(response.headers["location"])
    assert client.get(f"/api/play/{token}").json()["table"]["rated"]
    refused = hints(client, token)
    assert refused.status_code == 403 and refused.json()["code"] == "no-hints"


def board(client: TestClient, path: str, **body: Any) -> Any:
    return client.post(f"/api/analysis/{path}", json=body)


def test_the_analysis_board_api(lite: TestClient) -> None:
    start = board(lite, "position", game="general").json()
    assert start["to_move"] == "rebels" and "a2-b2" in start["legal"]
    after = board(lite, "position", game="general", position=start["position"], move="a2-b2")
    assert after.status_code == 200
    assert after.json()["played"] == {"kind": "move", "text": "a2-b2", "side": "rebels"}
    assert after.json()["to_move"] == "general"
    illegal = board(lite, "position", game="general", position=start["position"], move="a1-a5")
    assert illegal.status_code == 422 and illegal.json()["code"] == "illegal"
    broken = board(lite, "position", game="general", position="c3 zz r 1")
    assert broken.status_code == 422 and broken.json()["code"] == "bad-position"
    assert board(lite, "position", game="chess").status_code == 400
    assert board(lite, "position", game="backgammon", ruleset="nope").status_code == 400
    best = board(lite, "best", game="general", position=after.json()["position"]).json()
    assert best["side"] == "general" and len(best["moves"]) == 3
    # backgammon: the dice are entered, then single checkers are asked for
    bg = board(lite, "position", game="backgammon", ruleset="standard").json()
    assert bg["to_move"] == "chance" and "w3b1" in bg["rolls"] and bg["legal"] == []
    refused = board(lite, "best", game="backgammon", ruleset="standard",
                    position=bg["position"])  # fmt: skip
    assert refused.status_code == 409
    rolled = board(lite, "position", game="backgammon", ruleset="standard",
                   position=bg["position"], move="w3b1").json()  # fmt: skip
    assert rolled["to_move"] == "white" and rolled["extra"]["dice"] == [3, 1]
    assert rolled["played"]["kind"] == "chance"
    part = board(lite, "partial", game="backgammon", ruleset="standard",
                 position=rolled["position"], steps=[[8, 5, 3]]).json()  # fmt: skip
    assert {s["text"] for s in part["next"]} >= {"6/5"}
    lines = board(lite, "best", game="backgammon", ruleset="standard",
                  position=rolled["position"]).json()  # fmt: skip
    assert lines["moves"][0]["move"] == "8/5 6/5" and lines["moves"][0]["equity"] is not None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_analysis_board_page(lite: TestClient, lang: str) -> None:
    lite.cookies.set("lang", lang)
    page = lite.get("/analysis", params={"game": "backgammon", "ruleset": "standard"})
    assert page.status_code == 200
    assert ("Analysis board" if lang == "en" else "Plateau d’analyse") in page.text
    assert 'data-game="backgammon"' in page.text and 'data-ruleset="standard"' in page.text
    wrong = lite.get("/analysis", params={"game": "general", "position": "not a position"})
    assert wrong.status_code == 200 and 'id="board-error"' in wrong.text
    chosen = lite.get("/analysis", params={"game": "defiance:8x8"})
    assert 'data-ruleset="8x8"' in chosen.text
    words = lite.get("/analysis/words.js")
    assert words.status_code == 200 and "javascript" in words.headers["content-type"]
    assert "Plateau d’analyse" in words.text and "export function w" in words.text
    archive = lite.get("/archive")
    assert archive.status_code == 200


def test_the_analysis_board_page_carries_the_editor(lite: TestClient) -> None:
    """The editor's limits come from the rules contract (at most 5 checkers on a point in
    ``seed``, none in ``standard``; 40 counters a side in Defiance), its Start position from
    the game; ``edit=1`` opens the page in the editor."""
    seed = lite.get("/analysis", params={"game": "backgammon", "ruleset": "seed", "edit": "1"})
    assert 'data-cap="5"' in seed.text and 'data-editing="1"' in seed.text
    assert 'id="editor"' in seed.text and 'id="die-1"' in seed.text and 'id="roll"' not in seed.text
    standard = lite.get("/analysis", params={"game": "backgammon", "ruleset": "standard"})
    assert 'data-cap="0"' in standard.text and "data-editing" not in standard.text
    match = lite.get("/analysis", params={"game": "backgammon:match"})
    assert 'data-initial="W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] - - cube 1 match 7 0-0"' in (
        match.text
    )
    defiance = lite.get("/analysis", params={"game": "defiance:8x8"})
    assert 'data-pool="40"' in defiance.text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_positions_the_editor_builds_are_judged_by_the_engine(lite: TestClient, lang: str) -> None:
    """What the editor writes is checked by the engine's parser: a legal position comes back
    in its canonical form, an illegal one is refused with the engine's reason in the reader's
    language (422, ``bad-position``)."""
    lite.cookies.set("lang", lang)
    built = board(lite, "position", game="backgammon", ruleset="seed",
                  position="W[bar,6x5] B[24] w 46").json()  # fmt: skip
    assert built["position"] == "W[bar,6x5] B[24] w 64" and built["to_move"] == "white"
    over_cap = board(lite, "position", game="backgammon", ruleset="seed",
                     position="W[6x6] B[24] w 64")  # fmt: skip
    assert over_cap.status_code == 422 and over_cap.json()["code"] == "bad-position"
    assert ("at most 5" if lang == "en" else "au plus 5") in over_cap.json()["detail"]
    odd = board(lite, "position", game="general", position="c3 a1,a2,a3,a4,a5 r 1")
    assert odd.status_code == 422
    assert ("must be even" if lang == "en" else "pair") in odd.json()["detail"]
    pending = board(lite, "position", game="defiance", ruleset="8x8",
                    position="8/8/8/8/8/8/8/8 r40,i40 R2.2,I6.6,I6.6 -")  # fmt: skip
    assert pending.status_code == 422 and pending.json()["code"] == "bad-position"
    assert "Traceback" not in pending.text


def test_a_database_made_before_the_analysis_gains_its_table(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from ludotheque.server.store.db import MIGRATIONS, make_engine, migrate

    engine = make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")  # the schema before this feature
    assert "analyses" not in inspect(engine).get_table_names()
    migrate(engine)  # what a server does when it starts
    assert "analyses" in inspect(engine).get_table_names()
    migrate(engine)  # and again: nothing to do
    engine.dispose()


def test_hints_come_back_after_the_engine_process_died(lite: TestClient) -> None:
    token = token_of(new_game(lite, mode="local")["seats"]["both"])
    assert hints(lite, token).status_code == 200
    pool = lite.app.state.analysis_engines.pool  # type: ignore[attr-defined]
    for process in list(pool.pool._processes.values()):
        process.kill()
        process.join(5)
    answers = [hints(lite, token).status_code for _ in range(2)]
    assert answers[-1] == 200 and set(answers) <= {200, 503}
