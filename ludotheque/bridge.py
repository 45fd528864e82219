"""``ludotheque bot``: a bridge between an engine and a Ludothèque server's Bot API.

It reads the bot's event stream (``/api/stream/event``) with a personal API token, accepts
the challenges its engine can play (and declines the others), and plays each game from its
game stream (``/api/bot/game/stream/<id>``) in a thread of its own: on its turn it asks the
engine for a move and posts it (``/api/bot/game/<id>/move/<move>``, quoting the ply it
answers). Only the standard library speaks to the server, so it runs wherever Python does.

The engine is one of ours (``--agent backgammon:hard``, ``general:medium``; ``--agent hard``
for every game) or an outside program (``--engine 'python3 my_bot.py'``) speaking this line
protocol on its standard input and output (lines of UTF-8 text, the bridge speaks first):

    bridge:  ludotheque 1
    engine:  ok                              (it may print any line before; they are ignored)
    bridge:  game <game> <ruleset> <side>   (a new game; a program plays one game at a time)
    bridge:  position <position string>
    bridge:  dice <high> <low>              (backgammon, when the dice are rolled)
    bridge:  time <side> <ms> <side> <ms>   (milliseconds left; absent without a clock)
    bridge:  legal <move>\\t<move>\\t...       (the legal moves, tab-separated: moves may
                                               have spaces, like backgammon's 13/7 8/7)
    bridge:  go
    engine:  move <move>                     (one of the legal moves, as written)
    bridge:  end <status> <winner or ->      (the game is over)
    bridge:  quit                            (the bridge stops)
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import random
import shlex
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import available_games, load
from .ai import Agent
from .ai.levels import make_agent

log = logging.getLogger("ludotheque.bridge")
PROTOCOL = "ludotheque 1"
BROKEN = (OSError, http.client.HTTPException, ValueError)
"""What a stream cut in the middle raises (a line cut short does not read as JSON)."""
RECONNECTS = 30  # tries to follow a game whose stream was cut, 2 s apart


class ApiError(Exception):
    """The server refused a request: its status, code and message."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.code, self.detail = status, code, detail


class Client:
    """The Bot API of one server, with one token (the standard library's HTTP)."""

    def __init__(self, server: str, token: str, timeout: float = 30.0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None
                 ) -> urllib.request.Request:  # fmt: skip
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One request; its JSON answer, or ``ApiError``."""
        try:
            with urllib.request.urlopen(self._request(method, path, body),
                                        timeout=self.timeout) as answer:  # fmt: skip
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise _refusal(exc) from None

    def stream(self, path: str, keepalive: bool = False) -> Generator[dict[str, Any], None, None]:
        """The lines of an NDJSON stream as they come; it ends when the server ends it. The
        blank keep-alive lines are skipped, or read as ``{"type": "keepalive"}``: a reader
        that waits for something then hears the time pass."""
        try:
            answer = urllib.request.urlopen(self._request("GET", path), timeout=None)
        except urllib.error.HTTPError as exc:
            raise _refusal(exc) from None
        with answer:
            for raw in answer:
                text = raw.strip()
                if text:
                    yield json.loads(text)
                elif keepalive:
                    yield {"type": "keepalive"}

    def move(self, game_id: str, move: str, ply: int | None = None) -> Any:
        path = f"/api/bot/game/{game_id}/move/{urllib.parse.quote(move, safe='')}"
        return self.call("POST", path + (f"?ply={ply}" if ply is not None else ""))


def _refusal(exc: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    return ApiError(exc.code, str(body.get("code", "http")), str(body.get("detail", exc.reason)))


class Engine(Protocol):
    """What chooses a bot's moves."""

    def plays(self, game: str) -> bool:
        """Whether it plays ``game``."""

    def choose(self, full: dict[str, Any], state: dict[str, Any]) -> str:
        """A move of ``state['legal']`` for the game ``full`` (its ``gameFull``)."""

    def ended(self, full: dict[str, Any], state: dict[str, Any]) -> None:
        """The game is over."""

    def close(self) -> None: ...


@dataclass
class AgentEngine:
    """One of our agents: ``level`` (``easy``, ``medium``, ``hard`` or an algorithm) for
    ``games`` (all three when ``None``)."""

    level: str
    games: tuple[str, ...] | None = None
    seed: int | None = None
    agents: dict[str, Agent] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def plays(self, game: str) -> bool:
        return game in (self.games or available_games())

    def choose(self, full: dict[str, Any], state: dict[str, Any]) -> str:
        legal = state["legal"]
        if len(legal) == 1:
            return str(legal[0])
        rules = load(full["game"], full["ruleset"])
        position = rules.parse_position(state["position"])
        with self.lock:  # an agent thinks for one game at a time
            agent = self.agents.get(full["game"])
            if agent is None:
                agent = self.agents[full["game"]] = make_agent(full["game"], self.level,
                                                               seed=self.seed)  # fmt: skip
            move = str(agent.choose(position))
        return move if move in legal else random.choice(legal)

    def ended(self, full: dict[str, Any], state: dict[str, Any]) -> None:
        return None

    def close(self) -> None:
        return None


def agent_engine(spec: str, seed: int | None = None) -> AgentEngine:
    """``game:level`` (that game only) or ``level`` (every game that has it: ``perfect`` is
    the General's only). An unknown game or level is refused here, before any game starts
    (``ValueError``), and each agent is made now."""
    game, _, level = spec.rpartition(":")
    if game and game not in available_games():
        raise ValueError(f"unknown game {game!r}: {', '.join(available_games())}")
    engine = AgentEngine(level, None, seed)
    refusals = []
    for name in (game,) if game else tuple(available_games()):
        try:
            engine.agents[name] = make_agent(name, level, seed=seed)
        except ValueError as exc:
            refusals.append(str(exc))
    if not engine.agents:
        raise ValueError(refusals[0])
    engine.games = tuple(engine.agents)
    return engine


class ProgramEngine:
    """An outside program speaking the line protocol (see the module's documentation); it
    plays one game at a time (the bridge then plays one game at a time)."""

    def __init__(self, command: str, games: tuple[str, ...] | None = None) -> None:
        self.games = games
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            encoding="utf-8", bufsize=1,
        )  # fmt: skip
        self.lock = threading.Lock()
        self.current: str | None = None
        self._send(PROTOCOL)
        self._until("ok")

    def _send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text.replace("\n", " ") + "\n")
        self.process.stdin.flush()

    def _until(self, word: str) -> str:
        assert self.process.stdout is not None
        while True:
            text = self.process.stdout.readline()
            if not text:
                raise RuntimeError(f"the engine stopped before saying {word!r}")
            text = text.rstrip("\n")
            if text == word or text.startswith(word + " "):
                return text[len(word) + 1 :]

    def plays(self, game: str) -> bool:
        return game in (self.games or available_games())

    def choose(self, full: dict[str, Any], state: dict[str, Any]) -> str:
        with self.lock:
            if self.current != full["id"]:
                self.current = full["id"]
                self._send(f"game {full['game']} {full['ruleset']} {full['side']}")
            self._send(f"position {state['position']}")
            if state.get("dice"):
                self._send("dice " + " ".join(str(d) for d in state["dice"]))
            if state.get("times"):
                self._send("time " + " ".join(f"{s} {ms}" for s, ms in state["times"].items()))
            self._send("legal " + "\t".join(state["legal"]))
            self._send("go")
            return self._until("move").strip()

    def ended(self, full: dict[str, Any], state: dict[str, Any]) -> None:
        with self.lock, contextlib.suppress(OSError):
            self._send(f"end {state['status']} {state.get('winner') or '-'}")
            self.current = None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._send("quit")
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


RESYNC_SECONDS = 20.0
"""How long a bot whose move was refused waits for the stream to say what came instead before
it reads the game again (a new stream, whose ``gameFull`` is the game as it is now)."""


def play_game(client: Client, game_id: str, engine: Engine) -> dict[str, Any] | None:
    """Play one game from its stream to its end; its last state. A move refused with nothing
    heard since for ``RESYNC_SECONDS`` opens the stream again: its ``gameFull`` is the game as
    it is now, so a bot never waits for good on a state that is not coming."""
    while True:
        state, again = _follow(client, game_id, engine)
        if not again:
            return state
        log.warning("game %s: nothing heard since a refused move; reading the game again",
                    game_id)  # fmt: skip


def _follow(client: Client, game_id: str, engine: Engine) -> tuple[dict[str, Any] | None, bool]:
    """One game stream, followed (see ``play_game``): its last state, and whether it is to
    be read again."""
    full: dict[str, Any] | None = None
    state: dict[str, Any] | None = None
    refused_at: float | None = None  # a move of ours refused, and nothing heard since
    with contextlib.closing(client.stream(f"/api/bot/game/stream/{game_id}", True)) as lines:
        for event in lines:
            kind = event.get("type")
            if kind == "keepalive":
                if refused_at is not None and time.monotonic() - refused_at > RESYNC_SECONDS:
                    return state, True
                continue
            if kind not in ("gameFull", "gameState"):
                continue
            full, state = (event, event["state"]) if kind == "gameFull" else (full, event)
            assert full is not None  # (the stream begins with it)
            refused_at = None
            if _finished(client, game_id, engine, full, state):
                return state, False
            if state["legal"] and not send_move(client, game_id, engine, full, state):
                refused_at = time.monotonic()
    return state, False


def _finished(client: Client, game_id: str, engine: Engine, full: dict[str, Any],
              state: dict[str, Any]) -> bool:  # fmt: skip
    """Whether the game's stream has said all there is for the bot: the game over (the
    engine told), or a backgammon match's next game asked for and waited for."""
    if state["status"] == "started":
        return False
    if state.get("matchGoesOn") and state.get("nextGame") is None:
        with contextlib.suppress(ApiError):  # the match's next game: both ask
            client.call("POST", f"/api/bot/game/{game_id}/rematch")
        return False  # the stream says when it is made (its gameStart comes too)
    engine.ended(full, state)
    return True


BUSY = frozenset({429, 500, 502, 503, 504})
"""Refusals that say nothing of the move (the server busy, a limit reached): asked again."""


def send_move(
    client: Client, game_id: str, engine: Engine, full: dict[str, Any], state: dict[str, Any]
) -> bool:
    """The engine's move in ``state``, sent; whether it was taken. A refusal because the game
    moved on (stale) waits for the stream, which says what comes next (``play_game`` reads
    the game again if it says nothing); a busy server is asked again a little later, for the
    same position."""
    for attempt in range(6):
        move = engine.choose(full, state)
        try:
            client.move(game_id, move, state["ply"])
            return True
        except ApiError as exc:
            log.warning("game %s: move %r refused: %s", game_id, move, exc)
            if exc.status not in BUSY:
                return False
        time.sleep(0.5 * (attempt + 1))
    return False


@dataclass
class Bridge:
    """A bot at work: it answers challenges and plays the games its event stream starts."""

    client: Client
    engine: Engine
    accept_rated: bool = True
    max_games: int = 4
    games: dict[str, threading.Thread] = field(default_factory=dict)
    results: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    stop: threading.Event = field(default_factory=threading.Event)

    def answer(self, challenge: dict[str, Any]) -> None:
        """Accept a challenge the engine can play (while it has room), else decline it."""
        if challenge.get("direction") != "in":
            return
        busy = sum(1 for t in self.games.values() if t.is_alive())
        able = self.engine.plays(str(challenge.get("game")))
        wanted = able and busy < self.max_games and (self.accept_rated or not challenge["rated"])
        verb = "accept" if wanted else "decline"
        try:
            self.client.call("POST", f"/api/challenge/{challenge['id']}/{verb}")
        except ApiError as exc:
            log.warning("challenge %s: %s refused: %s", challenge["id"], verb, exc)

    def start(self, game_id: str) -> None:
        if game_id in self.games and self.games[game_id].is_alive():
            return

        def run() -> None:
            for attempt in range(RECONNECTS):  # a stream cut (a server restarting): again
                try:
                    last = play_game(self.client, game_id, self.engine)
                except BROKEN as exc:
                    log.warning("game %s: the stream broke (%s); again in 2 s", game_id, exc)
                    last = None
                except Exception:
                    log.exception("game %s failed", game_id)
                    return
                if last is not None and last["status"] != "started":
                    self.results[game_id] = last
                    return
                if self.stop.is_set() or attempt == RECONNECTS - 1:
                    return
                time.sleep(2.0)

        thread = threading.Thread(target=run, name=f"game-{game_id}", daemon=True)
        self.games[game_id] = thread
        thread.start()

    def run(self, games: int | None = None) -> None:
        """Follow the event stream until ``stop`` (or ``games`` games are over)."""
        while not self.stop.is_set():
            try:
                for event in self.client.stream("/api/stream/event"):
                    kind = event.get("type")
                    if kind == "challenge":
                        self.answer(event["challenge"])
                    elif kind == "gameStart":
                        self.start(event["game"]["id"])
                    elif kind == "gameFinish":
                        over = event["game"]
                        log.info("game %s over: %s, %s (winner: %s)", over["id"], over["status"],
                                 over.get("reason"), over.get("winner") or "none")  # fmt: skip
                        self.finished.add(event["game"]["id"])
                        if games is not None and len(self.finished) >= games:
                            self.wait(60)  # its game thread reads the last state
                            self.stop.set()
                    if self.stop.is_set():
                        return
            except (*BROKEN, ApiError) as exc:
                if isinstance(exc, ApiError) and exc.status in (401, 403):
                    raise
                log.warning("the event stream broke (%s); again in 2 s", exc)
                time.sleep(2.0)

    def wait(self, timeout: float | None = None) -> None:
        for thread in list(self.games.values()):
            thread.join(timeout)
