"""Tournaments run to their end through the API on a real server (uvicorn in the test's
process, as the Bot API's tests run it): bots are Python clients of the Bot API in this
process (``ludotheque.bridge`` with a random legal move, quickly), that join with their tokens
and play the games the tournament makes for them; a 6-round Swiss of 16 bots and an 8-player
arena whose duration passes on the server's clock, replaced by the test (no real waiting)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import update

from ludotheque.bridge import ApiError, Bridge, Client, agent_engine
from ludotheque.server import timesource
from ludotheque.server.clock import controls
from ludotheque.server.store.db import TournamentRow
from ludotheque.server.timesource import TimeSource
from ludotheque.server.tournaments.scoring import ArenaGame, arena_line
from tests.server.live import Live, bot, live_server


class Skipping(TimeSource):
    """The real clock, plus the time the test skips ahead (``skip``)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def time(self) -> float:
        return time.time() + self.skipped

    def monotonic(self) -> float:
        return time.monotonic() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds


@pytest.fixture
def clock() -> Iterator[Skipping]:
    with timesource.using(Skipping()) as source:
        yield source


@pytest.fixture
def live(db_url: str, clock: Skipping) -> Iterator[Live]:
    """A server on SQLite, and again on PostgreSQL (``db_url``)."""
    with live_server(db_url) as server:
        yield server


def bots(live: Live, n: int, game: str) -> tuple[list[Client], list[Bridge]]:
    """``n`` bots, each following its event stream and playing random legal moves."""
    clients = [bot(live.url, f"tb{i:02d}") for i in range(n)]
    bridges = [Bridge(c, agent_engine(f"{game}:random", seed=i)) for i, c in enumerate(clients)]
    for bridge in bridges:
        threading.Thread(target=bridge.run, daemon=True).start()
    return clients, bridges


def until(client: Client, tid: str, test: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view = client.call("GET", f"/api/tournament/{tid}")
        if test(view):
            return dict(view)
        assert time.monotonic() < deadline, f"not reached: {view['status']} round {view['round']}"
        time.sleep(0.3)


def stop(bridges: list[Bridge]) -> None:
    for bridge in bridges:
        bridge.stop.set()


def test_a_six_round_swiss_of_sixteen_bots(live: Live, clock: Skipping) -> None:
    clients, bridges = bots(live, 16, "general")
    made = clients[0].call("POST", "/api/tournaments", {
        "name": "Swiss test", "kind": "swiss", "game": "general", "control": "1+0",
        "rounds": 6, "rated": True, "starts_in": 1})  # fmt: skip
    tid = made["id"]
    for c in clients:
        assert c.call("POST", f"/api/tournament/{tid}/join") == {"ok": True}
    clock.skip(60)  # the start comes
    view = until(clients[0], tid, lambda v: v["status"] == "finished", 900)
    games = view["games"]
    assert view["round"] == 6 and len(games) == 6 * 8
    met: set[frozenset[int]] = set()
    for r in range(1, 7):
        round_games = [g for g in games if g["round"] == r]
        ids = [p["id"] for g in round_games for p in (g["white"], g["black"])]
        assert len(ids) == 16 == len(set(ids)), "each bot once a round"
        for g in round_games:
            pair = frozenset((g["white"]["id"], g["black"]["id"]))
            assert pair not in met, "a repeated pairing"
            met.add(pair)
            assert g["status"] == "done" and g["result"] in ("win", "draw", "loss")
    # the games' own ends are the tournament's results
    for g in games[:8]:
        record = clients[0].call("GET", f"/api/games/{g['game_id']}")
        winner = record["outcome"]["winner"]
        expected = "draw" if winner is None else "win" if winner == "rebels" else "loss"
        assert g["result"] == expected
    table = view["standings"]
    assert len(table) == 16 and sum(s["score"] for s in table) == 6 * 8
    scores = [(s["score"], s["buchholz"], s["sonneborn"]) for s in table]
    assert scores == sorted(scores, reverse=True)
    # the colours stay balanced: nobody more than two games apart
    for bot_id in {p for g in games for p in (g["white"]["id"], g["black"]["id"])}:
        whites = sum(1 for g in games if g["white"]["id"] == bot_id)
        assert abs(whites - (6 - whites)) <= 2
    # rated: the bots' ratings moved
    name = table[0]["player"]["name"]
    deadline = time.monotonic() + 60
    while True:
        ratings = clients[0].call("GET", f"/api/players/{name}")["ratings"]
        if ratings and ratings[0]["games"] == 6:
            break
        assert time.monotonic() < deadline, ratings
        time.sleep(0.3)
    assert listed(clients[0], tid) == "finished"
    stop(bridges)


def listed(client: Client, tid: str) -> str:
    lists = client.call("GET", "/api/tournaments")
    return next(k for k, items in lists.items() if any(t["id"] == tid for t in items))


def test_an_arena_of_eight_bots(live: Live, clock: Skipping) -> None:
    clients, bridges = bots(live, 8, "defiance")
    made = clients[0].call("POST", "/api/tournaments", {
        "name": "Arena test", "kind": "arena", "game": "defiance", "ruleset": "8x8",
        "control": "1+0", "minutes": 30, "starts_in": 5})  # fmt: skip
    tid = made["id"]
    for c in clients:
        c.call("POST", f"/api/tournament/{tid}/join")
    assert listed(clients[0], tid) == "upcoming"
    clients[7].call("POST", f"/api/tournament/{tid}/withdraw")  # before the start: gone
    assert until(clients[0], tid, lambda v: True, 5)["players"] == 7
    clients[7].call("POST", f"/api/tournament/{tid}/join")
    clock.skip(5 * 60)  # the start comes
    # players are paired again as they finish: wait until each has finished three games
    until(clients[0], tid, lambda v: v["status"] == "running" and all(
        s["games"] >= 3 for s in v["standings"]), 600)  # fmt: skip
    clock.skip(30 * 60)  # the arena's end: games on the clock then end on time
    view = until(clients[0], tid, lambda v: v["status"] == "finished", 300)
    games = [g for g in view["games"] if g["status"] == "done"]
    assert len(games) == len(view["games"]) >= 12
    # no immediate rematch: two bots who just met were not paired together again at once
    # while another bot was waiting (with seven others, someone always is)
    last: dict[int, int] = {}
    for g in view["games"]:
        w, b = g["white"]["id"], g["black"]["id"]
        assert not (last.get(w) == b and last.get(b) == w), "an immediate rematch"
        last[w], last[b] = b, w
    # each bot's points are lichess's, game after game
    ratings = {s["player"]["id"]: s["rating"] for s in view["standings"]}
    for line in view["standings"]:
        me = line["player"]["id"]
        mine = []
        for g in view["games"]:
            if me not in (g["white"]["id"], g["black"]["id"]):
                continue
            first = g["white"]["id"] == me
            flip = {"win": "loss", "loss": "win"}
            result = g["result"] if first else flip.get(g["result"], g["result"])
            other = g["black"]["id"] if first else g["white"]["id"]
            mine.append(ArenaGame(result, False, ratings[other]))
        assert line["points"] == arena_line(mine).total and line["games"] == len(mine)
    points = [s["points"] for s in view["standings"]]
    assert points == sorted(points, reverse=True)
    with pytest.raises(ApiError) as refused:
        clients[0].call("POST", f"/api/tournament/{tid}/join")
    assert refused.value.status == 409 and refused.value.code == "tournament-over"
    stop(bridges)


def test_refusals(live: Live) -> None:
    (c,), bridges = bots(live, 1, "general")
    cases: list[tuple[dict[str, Any], int]] = [
             ({"kind": "ladder", "game": "general", "control": "3+2", "rounds": 3}, 400),
             ({"kind": "swiss", "game": "chess", "control": "3+2", "rounds": 3}, 400),
             ({"kind": "swiss", "game": "general", "control": "1d", "rounds": 3}, 400),
             ({"kind": "swiss", "game": "general", "control": "3+2", "rounds": 99}, 400),
             ({"kind": "arena", "game": "general", "control": "3+2"}, 400),
             ({"kind": "arena", "game": "backgammon", "ruleset": "money", "control": "3+12d",
               "minutes": 10}, 400)]  # fmt: skip
    for spec, status in cases:
        with pytest.raises(ApiError) as refused:
            c.call("POST", "/api/tournaments", spec)
        assert refused.value.status == status and refused.value.code == "bad-tournament"
    with pytest.raises(ApiError) as missing:
        c.call("GET", "/api/tournament/nothere")
    assert missing.value.status == 404
    made = c.call("POST", "/api/tournaments", {"kind": "swiss", "game": "backgammon",
                                               "ruleset": "match", "length": 3,
                                               "control": "3+12d", "rounds": 3})  # fmt: skip
    view = c.call("GET", f"/api/tournament/{made['id']}")
    assert (view["length"], view["status"], view["joined"]) == (3, "upcoming", False)
    with pytest.raises(ApiError) as not_in:
        c.call("POST", f"/api/tournament/{made['id']}/withdraw")
    assert not_in.value.status == 409
    stop(bridges)


def test_berserk_in_an_arena(live: Live, clock: Skipping) -> None:
    """Before its first move a bot goes berserk (half its time, no increment); its win then
    gives 3 points instead of 2; once is all, and not after a move."""
    a, b = bot(live.url, "berserka"), bot(live.url, "berserkb")
    made = a.call("POST", "/api/tournaments", {"kind": "arena", "game": "general",
                                              "control": "3+2", "minutes": 30,
                                              "starts_in": 1})  # fmt: skip
    tid = made["id"]
    for c in (a, b):
        c.call("POST", f"/api/tournament/{tid}/join")
    clock.skip(60)
    view = until(a, tid, lambda v: any(g["status"] == "playing" for g in v["pairings"]), 30)
    assert view["berserk"] is True
    game = view["pairings"][0]
    a_first = game["white"]["name"] == "berserka"
    assert a.call("POST", f"/api/tournament/{tid}/berserk") == {"ok": True}
    with pytest.raises(ApiError) as again:
        a.call("POST", f"/api/tournament/{tid}/berserk")
    assert again.value.status == 409 and again.value.code == "too-late"
    state = next(iter(a.stream(f"/api/bot/game/stream/{game['game_id']}")))["state"]
    mine, theirs = ("rebels", "general") if a_first else ("general", "rebels")
    assert state["times"][mine] == pytest.approx(state["times"][theirs] / 2, abs=1000)
    view = until(a, tid, lambda v: v["games"][0]["berserk"] == ["white" if a_first else "black"],
                 10)  # fmt: skip
    b.call("POST", f"/api/bot/game/{game['game_id']}/resign")
    view = until(a, tid, lambda v: v["games"][0]["status"] == "done", 30)
    points = {s["player"]["name"]: s["points"] for s in view["standings"]}
    assert points == {"berserka": 3, "berserkb": 0}


def test_a_swiss_of_backgammon_matches(
    live: Live, clock: Skipping, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backgammon tournament plays matches (here to 3 points) through the existing match
    play: a pairing's result is its match's, read from the match's last game."""
    # each game of the match has its own first move to make within 30 s; on a loaded machine
    # (the suite's last minutes on PostgreSQL) a bot once took longer to reach a next game and
    # the match ended aborted: this test is about the pairing's result, not that limit
    # (tests/server/test_endings.py and test_clocks.py hold the limit itself)
    monkeypatch.setattr(controls, "FIRST_MOVE_SECONDS", 300.0)
    clients, bridges = bots(live, 2, "backgammon")
    made = clients[0].call("POST", "/api/tournaments", {
        "kind": "swiss", "game": "backgammon", "ruleset": "match", "length": 3,
        "control": "1+12d", "rounds": 1, "starts_in": 1})  # fmt: skip
    tid = made["id"]
    for c in clients:
        c.call("POST", f"/api/tournament/{tid}/join")
    clock.skip(60)
    view = until(clients[0], tid, lambda v: v["status"] == "finished", 600)
    (game,) = view["games"]
    assert game["result"] in ("win", "loss") and view["berserk"] is False
    # the match's games: the first, then each next one, to the end of the match
    game_id = game["game_id"]
    record = clients[0].call("GET", f"/api/games/{game_id}")
    while record["game_extra"]["next"] == "next":  # the match goes on in its next game
        state = next(iter(clients[0].stream(f"/api/bot/game/stream/{game_id}")))["state"]
        game_id = state["nextGame"]
        record = clients[0].call("GET", f"/api/games/{game_id}")
    # the match's end: its winner (a game lost on time or left ends the match: its winner's)
    winner = record["game_extra"].get("match_winner") or record["outcome"]["winner"]
    assert game["result"] == ("win" if winner == "white" else "loss")
    scores = sorted(s["score"] for s in view["standings"])
    assert scores == [0, 1]
    stop(bridges)


def test_a_game_the_service_refuses_does_not_stall_a_swiss(live: Live, clock: Skipping) -> None:
    """A pairing whose game cannot be made (here: a time control spoiled in the database
    after the tournament was made) is done without result, and the rounds go on (the second
    pairs the two again: a game without a result is a double forfeit in the TRF the Dutch
    engine reads, no game played, so it keeps no one apart; that game cannot be made either)."""
    a, b = bot(live.url, "stalla"), bot(live.url, "stallb")
    made = a.call("POST", "/api/tournaments", {"kind": "swiss", "game": "general",
                                              "control": "3+2", "rounds": 2,
                                              "starts_in": 1})  # fmt: skip
    for c in (a, b):
        c.call("POST", f"/api/tournament/{made['id']}/join")
    with live.app.state.service.sessions() as db:
        db.execute(update(TournamentRow).where(TournamentRow.id == made["id"])
                   .values(control="bogus"))  # fmt: skip
        db.commit()
    clock.skip(60)
    view = until(a, made["id"], lambda v: v["status"] == "finished", 60)
    assert view["round"] == 2
    assert [(g["round"], g["status"], g["result"], g["url"]) for g in view["games"]] == [
        (1, "done", "none", None),
        (2, "done", "none", None),
    ]
    assert [s["score"] for s in view["standings"]] == [0, 0]


def test_an_arena_pauses_a_player_who_is_not_there(live: Live, clock: Skipping) -> None:
    """A player who joined an arena and left is paired, and each such game is aborted when
    the first move does not come: after two aborted games in a row the player is paused (shown
    withdrawn, paired no more) so that the others stop waiting on them; joining again brings
    the player back."""
    clients, bridges = bots(live, 3, "general")
    absent = bot(live.url, "tbaway")  # joins, and never plays
    made = clients[0].call("POST", "/api/tournaments", {
        "name": "Arena away", "kind": "arena", "game": "general", "control": "10+5",
        "minutes": 60, "starts_in": 1})  # fmt: skip
    tid = made["id"]
    for c in (*clients, absent):
        c.call("POST", f"/api/tournament/{tid}/join")
    clock.skip(60)

    def line(view: dict[str, Any], name: str) -> dict[str, Any]:
        return next(s for s in view["standings"] if s["player"]["name"] == name)

    deadline = time.monotonic() + 300
    while True:
        view = until(clients[0], tid, lambda v: v["status"] == "running", 60)
        if line(view, "tbaway")["withdrawn"]:
            break
        assert time.monotonic() < deadline, view["standings"]
        clock.skip(31)  # a first move not made in time aborts the game
        time.sleep(1.0)
    away = [g for g in view["games"] if "tbaway" in (g["white"]["name"], g["black"]["name"])]
    assert len(away) == 2 and all(g["result"] == "none" for g in away)
    # the others are paired among themselves and play on
    before = len(view["games"])
    view = until(clients[0], tid, lambda v: sum(
        1 for g in v["games"][before:] if g["status"] == "done") >= 2, 120)  # fmt: skip
    assert all("tbaway" not in (g["white"]["name"], g["black"]["name"])
               for g in view["games"][before:])  # fmt: skip
    assert absent.call("POST", f"/api/tournament/{tid}/join") == {"ok": True}
    clock.skip(3)  # the arena's next steps: the games that paused it do not pause it again
    time.sleep(3.0)
    assert not line(until(absent, tid, lambda v: True, 5), "tbaway")["withdrawn"]
    # withdrawn, it is no player of the arena going on; once it is over, it is one of its
    # final table's players, who played (a finished arena said "0 players" beside its table)
    absent.call("POST", f"/api/tournament/{tid}/withdraw")
    view = until(clients[0], tid, lambda v: True, 5)
    assert view["players"] == sum(1 for s in view["standings"] if not s["withdrawn"]) <= 3
    clock.skip(60 * 60)
    view = until(clients[0], tid, lambda v: v["status"] == "finished", 300)
    assert view["players"] == len(view["standings"]) == 4
    finished = clients[0].call("GET", "/api/tournaments")["finished"]
    assert next(t for t in finished if t["id"] == tid)["players"] == 4
    stop(bridges)
