"""The Bot API on a real server (uvicorn in the test's process, its streams read line by line
as a bot reads them), on SQLite and on PostgreSQL: two bots play complete games of each game
through ``ludotheque bot``'s bridge, and every ending they can reach: the rules' end, a
resignation, an abort, a draw offered and accepted (the General, Defiance), a decision of
backgammon's cube, a flag fallen (the clock replaced by the test); challenges accepted,
declined and cancelled as the event stream tells them; the limits and refusals."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ludotheque import bridge as bridge_module
from ludotheque.bridge import AgentEngine, ApiError, Bridge, Client, agent_engine
from ludotheque.cli import main
from ludotheque.server.bots import seats, streams
from ludotheque.server.bots.schemas import EventLine, GameLine
from ludotheque.server.clock.jobs import check_flag
from tests.server.live import (
    Events,
    GameWatch,
    Live,
    account,
    api_token,
    bot,
    free_port,
    live_server,
)
from tests.server.live import start_game as start
from tests.server.people import FakeTime

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIDES = {"general": ("rebels", "general"), "backgammon": ("white", "black"),
         "defiance": ("rebels", "imperium")}  # fmt: skip


@pytest.fixture
def live(db_url: str) -> Iterator[Live]:
    with live_server(db_url) as server:
        yield server


@pytest.fixture
def pair(live: Live) -> tuple[Client, Client, Events, Events]:
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    return a, b, Events(a), Events(b)


def refused(call: Any, *args: Any) -> ApiError:
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize("game,ruleset,control", [("general", "default", "3+2"),
                                                  ("backgammon", "seed", None),
                                                  ("backgammon", "money", None),
                                                  ("backgammon", "match", "1+12d"),
                                                  ("defiance", "10x10", None),
                                                  ("defiance", "8x8", "3+2")])  # fmt: skip
def test_two_bots_play_a_whole_game_through_the_bridge(
    live: Live, game: str, ruleset: str, control: str | None
) -> None:
    """Every ruleset (backgammon's standard one: two processes, below); the games on a clock
    are rated: both bots' ratings move (a match: the first game of a 7-point match, which is
    rated by the match's result, so not yet)."""
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    bridges = [Bridge(c, agent_engine(f"{game}:random", seed=n)) for n, c in enumerate((a, b))]
    threads = [threading.Thread(target=br.run, args=(1,), daemon=True) for br in bridges]
    watch = Events(a)
    for thread in threads:
        thread.start()
    spec = {"game": game, "ruleset": ruleset, "side": SIDES[game][0], "control": control,
            "rated": control is not None}  # fmt: skip
    made = a.call("POST", "/api/challenge/betabot", spec)
    started = watch.wait("gameStart")["game"]
    assert started["side"] == SIDES[game][0] and started["opponent"]["title"] == "BOT"
    finished = watch.wait("gameFinish", timeout=240)["game"]
    for thread in threads:
        thread.join(60)
        assert not thread.is_alive()
    game_id = started["id"]
    record = a.call("GET", f"/api/games/{game_id}")  # the server's own view of its end
    assert record["outcome"]["winner"] == finished["winner"]
    assert record["outcome"]["reason"] == finished["reason"]
    assert finished["status"] in ("mate", "draw")
    for bridge in bridges:  # both bridges played it to its end, and saw the same end
        last = bridge.results[game_id]
        assert last is not None and last["status"] == finished["status"]
        assert last["moves"] == [e["text"] for e in record["history"] if e["kind"] == "move"]
    assert made["status"] == "created"
    if control is not None and ruleset != "match":  # rated: each bot's first game counts
        for name in ("alphabot", "betabot"):
            deadline = time.monotonic() + 30
            while not a.call("GET", f"/api/players/{name}")["ratings"]:
                assert time.monotonic() < deadline, "never rated"
                time.sleep(0.1)
            (rating,) = a.call("GET", f"/api/players/{name}")["ratings"]
            assert rating["games"] == 1 and rating["game"] == game
            if finished["winner"] is not None:
                assert rating["rating"] != 1500


def test_resign_abort_and_draws_by_agreement(pair: tuple[Client, Client, Events, Events]) -> None:
    a, b, ea, eb = pair
    # abort: before its first move, the side to move calls the game off
    game = start(a, b, ea, eb, game="general", side="rebels")
    watch = GameWatch(b, game)
    first = watch.wait(lambda s: True)
    assert first["status"] == "started" and first["legal"] == []  # the rebels move first
    a.call("POST", f"/api/bot/game/{game}/abort")
    assert watch.wait(lambda s: s["status"] != "started")["status"] == "aborted"
    assert eb.wait("gameFinish", id=game)["game"]["status"] == "aborted"
    # resignation, after a move each
    game = start(a, b, ea, eb, game="general", side="rebels")
    watch = GameWatch(a, game)
    state = watch.wait(lambda s: bool(s["legal"]))
    a.move(game, state["legal"][0])
    state = GameWatch(b, game).wait(lambda s: bool(s["legal"]))
    b.move(game, state["legal"][0], state["ply"])
    b.call("POST", f"/api/bot/game/{game}/resign")
    over = watch.wait(lambda s: s["status"] != "started")
    assert (over["status"], over["winner"], over["reason"]) == ("resign", "rebels", "resignation")
    # a draw offered and accepted, in the General and in Defiance
    for name, sides in (("general", SIDES["general"]), ("defiance", SIDES["defiance"])):
        game = start(a, b, ea, eb, game=name, side=sides[0])
        mine, theirs = GameWatch(a, game), GameWatch(b, game)
        state = mine.wait(lambda s: bool(s["legal"]))
        a.move(game, state["legal"][0])
        a.call("POST", f"/api/bot/game/{game}/draw/yes")
        offered = theirs.wait(lambda s: s["drawOffer"] is not None)
        assert offered["drawOffer"] == sides[0]
        b.call("POST", f"/api/bot/game/{game}/draw/yes")
        over = mine.wait(lambda s: s["status"] != "started")
        assert (over["status"], over["winner"], over["reason"]) == ("draw", None, "agreement")
    # declined: the offer goes, the game goes on
    game = start(a, b, ea, eb, game="general", side="rebels")
    theirs = GameWatch(b, game)
    state = GameWatch(a, game).wait(lambda s: bool(s["legal"]))
    a.move(game, state["legal"][0])
    a.call("POST", f"/api/bot/game/{game}/draw/yes")
    theirs.wait(lambda s: s["drawOffer"] == "rebels")
    b.call("POST", f"/api/bot/game/{game}/draw/no")
    after = theirs.wait(lambda s: s["drawOffer"] is None and s["ply"] == 1)
    assert after["status"] == "started" and after["legal"]
    # what was streamed is what the documentation says, field by field
    for line in theirs.lines + mine.lines + watch.lines:
        GameLine.model_validate(line)
    for event in ea.events + eb.events:
        EventLine.model_validate(event)


def test_backgammon_decisions_are_moves_of_its_notation(
    pair: tuple[Client, Client, Events, Events],
) -> None:
    a, b, ea, eb = pair
    game = start(a, b, ea, eb, game="backgammon", ruleset="money", side="white")
    full = GameWatch(a, game)
    other = GameWatch(b, game)
    # the opening roll decides who plays first; then each turn starts with roll or double
    ply = -1
    for _ in range(12):
        seen = full.wait(lambda s, p=ply: s["ply"] > p and s["toMove"] in SIDES["backgammon"])
        mover, watch = (a, full) if seen["legal"] else (b, other)
        state = watch.wait(lambda s, p=seen["ply"]: s["ply"] == p and bool(s["legal"]))
        ply = state["ply"]
        if "double" in state["legal"]:
            break
        mover.move(game, state["legal"][0], ply)
    else:
        raise AssertionError("no cube decision in twelve plays")
    assert set(state["legal"]) == {"roll", "double"} and state["cube"]["value"] == 1
    mover.move(game, "double", state["ply"])
    taker, taker_watch = (b, other) if mover is a else (a, full)
    answer = taker_watch.wait(lambda s: s["ply"] > ply and set(s["legal"]) == {"take", "drop"})
    assert answer["cube"]["pending"] == "double" and answer["dice"] is None
    taker.move(game, "drop", answer["ply"])
    over = taker_watch.wait(lambda s: s["status"] != "started")
    assert over["status"] == "mate" and over["reason"] == "dropped"
    assert over["moves"][-2:] == ["double", "drop"]
    # an offer to resign (not among the legal moves: searches never resign), accepted
    game = start(a, b, ea, eb, game="backgammon", ruleset="money", side="white")
    mine, theirs = GameWatch(a, game), GameWatch(b, game)
    turn = mine.wait(lambda s: s["toMove"] in SIDES["backgammon"])
    mover, other_watch, watch = (a, theirs, mine) if turn["legal"] else (b, mine, theirs)
    state = watch.wait(lambda s: bool(s["legal"]))
    assert "resign gammon" not in state["legal"]
    mover.move(game, "resign gammon", state["ply"])
    offer = other_watch.wait(lambda s: set(s["legal"]) == {"accept", "decline"})
    assert offer["cube"]["pending"] == "resign" and offer["cube"]["offer"] == "gammon"
    (b if mover is a else a).move(game, "accept", offer["ply"])
    over = watch.wait(lambda s: s["status"] != "started")
    assert (over["status"], over["reason"]) == ("resign", "resignation")
    assert over["winner"] != state["toMove"]


def test_a_flag_falls_on_the_clock_the_test_moves(
    live: Live, pair: tuple[Client, Client, Events, Events]
) -> None:
    a, b, ea, eb = pair
    clock = FakeTime()
    live.app.state.service.now = clock
    game = start(a, b, ea, eb, game="general", control="3+2", side="rebels")
    mine, theirs = GameWatch(a, game), GameWatch(b, game)
    state = mine.wait(lambda s: bool(s["legal"]))
    assert state["times"] == {"rebels": 180_000, "general": 180_000}
    for ply in range(4):  # the first move of each side is free; then the clock runs
        mover, watch = (a, mine) if ply % 2 == 0 else (b, theirs)
        state = watch.wait(lambda s, p=ply: s["ply"] == p and bool(s["legal"]))
        clock.advance(10)
        mover.move(game, state["legal"][0], ply)
    state = mine.wait(lambda s: s["ply"] == 4)
    assert state["times"] == {"rebels": 172_000, "general": 172_000}  # 10 s thought, +2
    clock.advance(173)  # the rebels think past their time

    async def flag() -> bool:
        service = live.app.state.service
        return await check_flag(service, await service.get(game))

    assert live.on_loop(flag())
    over = theirs.wait(lambda s: s["status"] != "started")
    assert (over["status"], over["winner"], over["reason"]) == ("outoftime", "general",
                                                                 "time-out")  # fmt: skip
    assert over["times"]["rebels"] == 0
    assert ea.wait("gameFinish", id=game)["game"]["status"] == "outoftime"


def test_challenges_declined_and_cancelled_are_told_to_both(
    pair: tuple[Client, Client, Events, Events],
) -> None:
    a, b, ea, eb = pair
    made = a.call("POST", "/api/challenge/betabot", {"game": "defiance", "ruleset": "8x8"})
    sent = ea.wait("challenge", id=made["id"])["challenge"]
    got = eb.wait("challenge", id=made["id"])["challenge"]
    assert (sent["direction"], got["direction"]) == ("out", "in")
    assert got["challenger"]["name"] == "alphabot" and got["destUser"]["name"] == "betabot"
    assert got["challenger"]["title"] == "BOT" and got["ruleset"] == "8x8"
    b.call("POST", f"/api/challenge/{made['id']}/decline")
    assert ea.wait("challengeDeclined", id=made["id"])["challenge"]["status"] == "declined"
    again = a.call("POST", "/api/challenge/betabot", {"game": "general"})
    eb.wait("challenge", id=again["id"])
    a.call("POST", f"/api/challenge/{again['id']}/cancel")
    assert eb.wait("challengeCanceled", id=again["id"])["challenge"]["status"] == "canceled"
    gone = refused(b.call, "POST", f"/api/challenge/{again['id']}/accept")
    assert (gone.status, gone.code) == (409, "seek-gone")
    # bots listening to their events are online, BOT beside their names
    deadline = time.monotonic() + 20
    while len(b.call("GET", "/api/lobby")["online"]["players"]) < 2:
        assert time.monotonic() < deadline, "the bots never came online"
        time.sleep(0.2)
    online = b.call("GET", "/api/lobby")["online"]["players"]
    assert online == [{"name": "alphabot", "bot": True}, {"name": "betabot", "bot": True}]


def test_chat_lines_reach_the_other_bots_stream(
    pair: tuple[Client, Client, Events, Events],
) -> None:
    a, b, ea, eb = pair
    game = start(a, b, ea, eb, game="general")
    theirs = GameWatch(b, game)
    theirs.wait(lambda s: True)
    a.call("POST", f"/api/bot/game/{game}/chat", {"room": "player", "text": "good luck"})
    line = theirs.chat()
    assert (line["username"], line["text"], line["room"]) == ("alphabot", "good luck", "player")


def test_what_the_bot_api_refuses(live: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    person = account(live.url, "carol")
    reader = Client(live.url, api_token(person, "read"))
    me = reader.call("GET", "/api/account")
    assert (me["username"], me["title"], me["scopes"]) == ("carol", None, ["read"])
    scope = refused(reader.call, "POST", "/api/bot/account/upgrade")
    assert (scope.status, scope.code) == (403, "missing-scope")
    player = Client(live.url, api_token(person, "bot:play", "challenge"))
    not_bot = refused(player.call, "GET", "/api/bot/game/stream/nothing")
    assert (not_bot.status, not_bot.code) == (403, "not-a-bot")
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    assert a.call("GET", "/api/account")["title"] == "BOT"
    ea, eb = Events(a), Events(b)
    game = start(a, b, ea, eb, game="general")
    stranger = refused(player.call, "POST", f"/api/bot/game/{game}/resign")
    assert stranger.status == 403  # carol is no bot
    # a bot asking again, games played or not: nothing to do
    assert b.call("POST", "/api/bot/account/upgrade") == {"ok": True}
    # a person who played a game can no longer become a bot
    player.call("POST", "/api/challenge/alphabot", {"game": "general", "side": "general"})
    offer = ea.wait("challenge", direction="in")["challenge"]
    a.call("POST", f"/api/challenge/{offer['id']}/accept")
    late = refused(player.call, "POST", "/api/bot/account/upgrade")
    assert (late.status, late.code) == (409, "has-games")
    illegal = refused(a.move, game, "z9-z8")
    assert illegal.status in (409, 422)
    unknown = refused(a.call, "GET", "/api/bot/game/stream/nosuchgame")
    assert (unknown.status, unknown.code) == (404, "not-found")
    monkeypatch.setattr(seats, "MAX_GAMES", 2)  # alphabot plays two games now
    full = refused(a.call, "POST", "/api/challenge/betabot", {"game": "general"})
    assert (full.status, full.code) == (429, "too-many-games")
    seek = refused(a.call, "POST", "/api/lobby/seeks", {"game": "general", "kind": "quick"})
    assert (seek.status, seek.code) == (429, "too-many-games")
    bad = refused(Client(live.url, "lud_nothing").call, "GET", "/api/stream/event")
    assert (bad.status, bad.code) == (401, "bad-token")


def test_streams_count_among_an_address_connections(db_url: str) -> None:
    with live_server(db_url, connections_per_address=2) as live:
        a = bot(live.url, "alphabot")
        Events(a), Events(a)
        deadline = time.monotonic() + 10
        while live.app.state.hub.per_address.get("stream 127.0.0.1", 0) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        many = refused(list, a.stream("/api/stream/event"))
        assert (many.status, many.code) == (429, "too-many-connections")


def test_bots_on_two_server_processes_play_through_the_bus(db_url: str) -> None:
    """Each bot on its own server process (PostgreSQL: LISTEN/NOTIFY carries the challenge,
    the game's start, every move and the end between them)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("one process on SQLite")
    with live_server(db_url) as one, live_server(db_url) as two:
        a, b = bot(one.url, "alphabot"), bot(two.url, "betabot")
        bridges = [
            Bridge(c, agent_engine("backgammon:random", seed=n)) for n, c in enumerate((a, b))
        ]
        threads = [threading.Thread(target=br.run, args=(1,), daemon=True) for br in bridges]
        for thread in threads:
            thread.start()
        events = Events(b)
        made = a.call(
            "POST", "/api/challenge/betabot", {"game": "backgammon", "ruleset": "standard"}
        )
        assert events.wait("challenge", id=made["id"])["challenge"]["direction"] == "in"
        finished = events.wait("gameFinish", timeout=240)["game"]
        for thread in threads:
            thread.join(60)
        results = [br.results[finished["id"]] for br in bridges]
        assert all(r is not None and r["status"] == "mate" for r in results)
        assert results[0] == results[1]  # both processes streamed the same end


def test_ludotheque_bot_runs_an_outside_engine_and_the_random_example(live: Live) -> None:
    """``ludotheque bot --engine`` (the line protocol, examples/line_engine.py) challenges
    and plays a whole game against our random agent; then examples/random_bot.py (with
    ``requests``) does the same."""
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    other = Bridge(b, agent_engine("general:random", seed=1))
    threading.Thread(target=other.run, daemon=True).start()
    engine = f"{sys.executable} {EXAMPLES / 'line_engine.py'} --random"
    code = main(["bot", "--server", live.url, "--token", a.token, "--engine", engine,
                 "--game", "general", "--challenge", "betabot", "--games", "1"])  # fmt: skip
    assert code == 0
    (game_id,) = other.finished
    over = a.call("GET", f"/api/games/{game_id}")
    assert over["outcome"] is not None and over["outcome"]["reason"] != "aborted"
    pytest.importorskip("requests")
    events = Events(b)
    example = subprocess.Popen([sys.executable, str(EXAMPLES / "random_bot.py"), live.url],
                               env={**os.environ, "LUDOTHEQUE_TOKEN": a.token})  # fmt: skip
    try:
        made = b.call("POST", "/api/challenge/alphabot", {"game": "defiance", "ruleset": "8x8"})
        events.wait("challenge", id=made["id"])
        finished = events.wait("gameFinish", timeout=240)["game"]
        assert finished["status"] in ("mate", "draw")
    finally:
        example.terminate()
        example.wait(10)
        other.stop.set()  # the other bot stops too (it would try the closed server again)


class NeverDoubles(AgentEngine):
    """Random moves, but never a double: a game is worth 3 points at most."""

    def choose(self, full: dict[str, Any], state: dict[str, Any]) -> str:
        return random.choice([m for m in state["legal"] if m != "double"] or state["legal"])


def test_two_bots_play_a_whole_backgammon_match(live: Live) -> None:
    """A 7-point match, game after game: each game's end says whether the match goes on, the
    bridges ask for the next game, and both event streams start it, until a side has won."""
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    bridges = [Bridge(c, NeverDoubles("random", ("backgammon",))) for c in (a, b)]
    for bridge in bridges:
        threading.Thread(target=bridge.run, daemon=True).start()
    events = Events(a)
    a.call("POST", "/api/challenge/betabot", {"game": "backgammon", "ruleset": "match"})
    last = events.wait("gameFinish", timeout=300, matchGoesOn=False)["game"]
    games = [e["game"] for e in events.events if e["type"] == "gameFinish"]
    starts = [e["game"]["id"] for e in events.events if e["type"] == "gameStart"]
    assert len(games) >= 3 and games[-1] == last  # 3 points a game at most: 3 games at least
    assert [g["id"] for g in games] == starts
    assert all(g["matchGoesOn"] for g in games[:-1])
    record = a.call("GET", f"/api/games/{last['id']}")
    score = record["game_extra"]["score_after"]
    assert max(score.values()) >= 7 and record["game_extra"]["match_winner"] == last["winner"]
    # not the site's computer ("human"); the table says they are bot accounts, and names them
    assert set(record["players"].values()) == {"human"}
    people = record["table"]["people"]
    assert {p["name"] for p in people.values() if p["bot"]} == {"alphabot", "betabot"}
    for bridge in bridges:
        bridge.stop.set()


class RefusedOnce(AgentEngine):
    """Random moves, the first of them one the server refuses (not a move at all): nothing
    changes in the game, so its stream has nothing to say after the refusal."""

    tried = False

    def choose(self, full: dict[str, Any], state: dict[str, Any]) -> str:
        if not self.tried:
            self.tried = True
            return "not-a-move"
        return random.choice(state["legal"])


def test_a_bot_whose_move_was_refused_reads_the_game_again(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused move, then nothing from the stream (it only keeps alive): the bridge opens
    the game's stream again and plays on from its ``gameFull``, to the game's end. It used to
    wait for good for a state that never came."""
    monkeypatch.setattr(streams, "KEEPALIVE", 0.2)
    monkeypatch.setattr(bridge_module, "RESYNC_SECONDS", 0.5)
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    refused_once = RefusedOnce("random", ("general",))
    bridges = [Bridge(a, refused_once), Bridge(b, agent_engine("general:random", seed=3))]
    for one in bridges:
        threading.Thread(target=one.run, args=(1,), daemon=True).start()
    events = Events(a)
    a.call("POST", "/api/challenge/betabot", {"game": "general", "side": "rebels"})
    finished = events.wait("gameFinish", timeout=120)["game"]
    assert refused_once.tried and finished["status"] in ("mate", "draw")
    for one in bridges:
        one.stop.set()


def test_bots_seek_in_the_lobby_too(pair: tuple[Client, Client, Events, Events]) -> None:
    """Quick pairing and open challenges of the lobby, posted with the token: the game made
    is announced on both event streams."""
    a, b, ea, eb = pair
    for client in (a, b):
        client.call("POST", "/api/lobby/seeks", {"kind": "quick", "game": "defiance",
                                                 "ruleset": "8x8", "control": "5+3"})  # fmt: skip
    started = ea.wait("gameStart")["game"]
    assert eb.wait("gameStart", id=started["id"])["game"]["side"] != started["side"]
    assert (started["ruleset"], started["clock"]["key"]) == ("8x8", "5+3")
    made = a.call("POST", "/api/lobby/seeks", {"game": "general"})
    b.call("POST", f"/api/lobby/seeks/{made['id']}/accept")
    second = eb.wait("gameStart", game="general")["game"]
    assert ea.wait("gameStart", id=second["id"])["game"]["opponent"]["name"] == "betabot"


def test_the_bridge_comes_back_after_a_server_restart(db_url: str) -> None:
    """The server stops in the middle of a game and starts again: both bridges connect again
    by themselves (their event and game streams) and play the game to its end."""
    port = free_port()
    with live_server(db_url, port=port) as live:
        a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
        bridges = [Bridge(c, agent_engine("defiance:random", seed=n)) for n, c in enumerate((a, b))]
        threads = [threading.Thread(target=br.run, args=(1,), daemon=True) for br in bridges]
        for thread in threads:
            thread.start()
        events = Events(a)
        a.call("POST", "/api/challenge/betabot", {"game": "defiance", "ruleset": "10x10"})
        game_id = events.wait("gameStart")["game"]["id"]
        watch = GameWatch(a, game_id)
        watch.wait(lambda s: s["ply"] >= 10)
    assert not any(game_id in br.results for br in bridges)  # cut in the middle
    with live_server(db_url, port=port) as live:  # the same database, the same address
        for thread in threads:
            thread.join(240)
            assert not thread.is_alive()
        over = a.call("GET", f"/api/games/{game_id}")
        assert over["outcome"] is not None and over["outcome"]["reason"] != "aborted"
        assert all(br.results[game_id]["status"] in ("mate", "draw") for br in bridges)  # type: ignore[index]


def test_a_bot_account_plays_with_its_token_never_from_a_browser(live: Live) -> None:
    """As lichess's bots: the bot's own browser session opens its seat as a watcher's, and
    may neither seek, accept, challenge, join a tournament nor act on the Bot API; the token
    plays on (the refusal said in the reader's language)."""
    import json
    import urllib.error
    import urllib.request

    browser = account(live.url, "gammabot")
    client = Client(live.url, api_token(browser, "bot:play", "challenge", "read"), timeout=30)
    assert client.call("POST", "/api/bot/account/upgrade") == {"ok": True}
    other = bot(live.url, "deltabot")
    csrf = json.loads(browser.get("/api/me"))["csrf"]

    def by_cookie(path: str, body: dict[str, Any] | None = None,
                  lang: str = "en") -> tuple[int, dict[str, Any]]:  # fmt: skip
        request = urllib.request.Request(
            live.url + path, data=json.dumps(body or {}).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": csrf,
                     "Accept-Language": lang},
        )  # fmt: skip
        try:
            with browser.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    status, answer = by_cookie("/api/lobby/seeks", {"game": "general"})
    assert (status, answer["code"]) == (403, "bot-needs-token")
    assert "Bot API" in answer["detail"]
    status, answer = by_cookie("/api/lobby/seeks", {"game": "general"}, lang="fr")
    assert status == 403 and "navigateur" in answer["detail"]
    status, answer = by_cookie("/api/challenge/deltabot", {"game": "general"})
    assert (status, answer["code"]) == (403, "bot-needs-token")
    status, answer = by_cookie("/api/games", {"game": "general", "mode": "computer",
                                              "level": "easy", "rated": True})  # fmt: skip
    assert (status, answer["code"]) == (403, "bot-needs-token")
    status, answer = by_cookie("/api/games", {"game": "general", "mode": "computer",
                                              "level": "easy"})  # fmt: skip
    assert status == 201  # a casual game, not under the bot's name
    ea, eb = Events(client), Events(other)
    game = start(client, other, ea, eb, game="general", side="rebels")
    status, answer = by_cookie(f"/api/bot/game/{game}/resign")
    assert (status, answer["code"]) == (403, "bot-needs-token")
    page = browser.get(f"/resume/{game}")  # its seat, opened in the browser: watched
    assert 'id="not-yours"' in page and "not from a browser" in page
    assert client.call("POST", f"/api/bot/game/{game}/resign") == {"ok": True}  # the token acts


def test_the_bridge_says_what_is_wrong_before_any_game(
    live: Live, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a newcomer gets wrong first, said at once and in one line: an account that is
    not a bot yet (it would accept games it cannot play, and could never become one after),
    an unknown level, a server that is not there; and the server's own words for a token
    left out, a ply ahead of the game and a move out of turn."""
    person = account(live.url, "newcomer")
    token = api_token(person, "bot:play", "challenge", "read")
    assert main(["bot", "--server", live.url, "--token", token, "--agent", "random"]) == 2
    assert "not a bot account yet: add --upgrade" in capsys.readouterr().err
    assert main(["bot", "--server", live.url, "--token", token, "--agent", "superhard"]) == 2
    assert "unknown player 'superhard'" in capsys.readouterr().err
    port = free_port()  # nothing listens there; and an address without its scheme
    assert main(["bot", "--server", f"127.0.0.1:{port}", "--token", token,
                 "--agent", "random"]) == 1  # fmt: skip
    assert f"cannot reach http://127.0.0.1:{port}" in capsys.readouterr().err
    assert agent_engine("perfect").games == ("general",)  # the General's level only
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as no_token:  # no Authorization header at all
        urllib.request.urlopen(live.url + "/api/stream/event", timeout=30)
    assert no_token.value.code == 401
    assert "Authorization: Bearer" in no_token.value.read().decode()
    a, b = bot(live.url, "alphabot"), bot(live.url, "betabot")
    game = start(a, b, Events(a), Events(b), game="general", side="rebels")
    ahead = refused(a.move, game, "a1-b2", 3)
    assert (ahead.status, ahead.code) == (409, "stale") and "game is at ply 0" in ahead.detail
    early = refused(b.move, game, "c3-c4", 0)  # the general moves second
    assert early.code == "not-your-turn" and "not your turn (rebels to move)" in early.detail
