"""Game records: the moves of one game from its start, with the dice, players, dates and result.

A record is the history a state does not hold. It replays and re-validates every move when it
is loaded (a tampered record is rejected with the ply and the reason), it owns the game's dice
(a seeded generator, so a game replays exactly from its record), and it decides the draws that
depend on history: threefold repetition and the turn limit.

Games played for points (backgammon's ``money`` and ``match``) keep their stakes in the
position: cube actions are moves like the others, the match score is in the start position,
and the result gains ``points`` (what the winner scored; checked on loading). ``next_game()``
starts the record of a match's next game.

>>> rec = Record.new("general")
>>> rec.play("a2-b2").to_move
'general'
>>> Record.from_json(rec.to_json()).moves
['a2-b2']
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from . import load
from .core import CHANCE, Game, IllegalMove, Outcome, State, UnknownGame

FORMAT = "ludotheque-record"
VERSION = 1

REPETITION = "repetition"
TURN_LIMIT = "turn-limit"
RESIGNATION = "resignation"
ABANDONED = "abandoned"


class InvalidRecord(ValueError):
    """A record that cannot be read or does not replay; the message names the ply and reason."""


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def seed_digest(seed: str) -> str:
    """The SHA-256 commitment to a dice seed (hex), shown before the game, checked after it."""
    return hashlib.sha256(seed.encode()).hexdigest()


def draw_chance(seed: str, index: int, outcomes: list[tuple[Any, float]]) -> Any:
    """The ``index``-th chance outcome (0-based) of a game whose dice seed is ``seed``.

    The procedure, so that anyone can check a game offline: give each outcome an integer weight
    (its probability as an exact fraction, over the common denominator ``W``); for attempt
    ``a = 0, 1, …`` take ``x`` = the first 8 bytes, big-endian, of
    ``SHA-256(f"{seed}:{index}:{a}")``; skip the attempt when ``x ≥ 2**64 - 2**64 % W``;
    otherwise ``r = x % W`` picks the outcome whose cumulative weight range holds ``r``, in the
    order the state lists its outcomes.
    """
    fractions = [Fraction(p).limit_denominator(10_000) for _, p in outcomes]
    denominator = 1
    for f in fractions:
        denominator = denominator * f.denominator // _gcd(denominator, f.denominator)
    weights = [int(f * denominator) for f in fractions]
    total = sum(weights)
    limit = 2**64 - 2**64 % total
    attempt = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{index}:{attempt}".encode()).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            r = x % total
            for (outcome, _), weight in zip(outcomes, weights, strict=True):
                if r < weight:
                    return outcome
                r -= weight
        attempt += 1


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@dataclass
class Record:
    """A game in progress or finished: a replayable, verifiable history.

    ``moves`` holds the players' moves and ``chance`` the chance outcomes (dice), each in
    canonical notation and in the order they happened; replay interleaves them (a chance node
    takes the next chance outcome). ``repetition`` (how many times one position may occur
    before the game is drawn) and ``turn_limit`` (moves before a draw) are the record's draw
    options; ``None`` switches one off.
    """

    game: str
    ruleset: str
    start: str | None = None
    moves: list[str] = field(default_factory=list)
    chance: list[str] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    started: str = field(default_factory=_now)
    ended: str | None = None
    result: Outcome | None = None
    seed: str | None = None
    seed_sha256: str | None = None
    repetition: int | None = None
    turn_limit: int | None = None
    _states: list[State] = field(default_factory=list, repr=False, compare=False)
    _kinds: list[bool] = field(default_factory=list, repr=False, compare=False)
    _seen: Counter[State] = field(default_factory=Counter, repr=False, compare=False)

    # -- making records --------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        game: str | Game,
        ruleset: str | None = None,
        *,
        start: str | None = None,
        players: dict[str, str] | None = None,
        seed: str | None = None,
        repetition: int | bool | None = True,
        turn_limit: int | bool | None = True,
    ) -> Record:
        """A record of a new game (from ``start``, a position string, when given).

        ``repetition`` and ``turn_limit``: ``True`` takes the game's defaults, ``False`` or
        ``None`` switches the rule off, an integer sets it. A dice game gets a fresh secret
        seed unless one is given.
        """
        g = game if isinstance(game, Game) else load(game, ruleset)
        record = cls(game=g.name, ruleset=g.ruleset, start=start, players=dict(players or {}))
        record.repetition = _option(repetition, getattr(g, "repetition_limit", None))
        record.turn_limit = _option(turn_limit, getattr(g, "turn_limit", None))
        if seed is None and getattr(g, "has_chance", False):
            seed = secrets.token_hex(16)
        record.seed = seed
        record.seed_sha256 = seed_digest(seed) if seed is not None else None
        record._reset(g)
        return record

    def _reset(self, game: Game) -> None:
        first = game.start() if self.start is None else game.parse_position(self.start)
        if self.start is not None:
            self.start = first.position()
        self._states = [first]
        self._kinds = []
        self._seen = Counter([first])

    # -- the game so far -------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current state."""
        return self._states[-1]

    @property
    def states(self) -> list[State]:
        """Every state of the game so far, the start first."""
        return list(self._states)

    @property
    def plies(self) -> list[tuple[str, str]]:
        """Every ply so far as ``(kind, notation)``; kind is ``"move"`` or ``"chance"``."""
        out: list[tuple[str, str]] = []
        mi = ci = 0
        for is_chance in self._kinds:
            if is_chance:
                out.append(("chance", self.chance[ci]))
                ci += 1
            else:
                out.append(("move", self.moves[mi]))
                mi += 1
        return out

    @property
    def game_object(self) -> Game:
        """The game (with its ruleset) this record is of."""
        return self.state.game

    def outcome(self) -> Outcome | None:
        """The end of the game: the game's own, a record-level draw, or a resignation."""
        if self.result is not None:
            return self.result
        return self._history_outcome()

    def _history_outcome(self) -> Outcome | None:
        state = self.state
        ended = state.outcome()
        if ended is not None:
            return ended
        if self.repetition is not None and self._seen[state] >= self.repetition:
            return Outcome(None, REPETITION)
        if self.turn_limit is not None and len(self.moves) >= self.turn_limit:
            return Outcome(None, TURN_LIMIT)
        return None

    @property
    def to_move(self) -> str | None:
        """The side to move, ``"chance"``, or ``None`` once the game is over (draws included)."""
        if self.outcome() is not None:
            return None
        return self.state.to_move

    # -- playing ---------------------------------------------------------------------------

    def play(self, move: Any) -> State:
        """Play a move (object or notation), or at a chance node a chance outcome; return the
        new state. With a dice seed, only the seeded outcome is accepted at a chance node."""
        over = self.outcome()
        if over is not None:
            raise IllegalMove(
                "the game is over ({who}: {reason})",
                code="record-over",
                who=over.winner or "draw",
                reason=over.reason,
            )
        state = self.state
        if state.to_move == CHANCE:
            chosen = state.parse_move(move) if isinstance(move, str) else move
            if self.seed is not None:
                expected = self._seeded(state)
                if chosen != expected:
                    raise IllegalMove(
                        "the dice are not chosen: this roll is {expected}, not {chosen}",
                        code="seeded-dice",
                        expected=str(expected),
                        chosen=str(chosen),
                    )
            nxt = state.play(chosen)
            self.chance.append(str(chosen))
            self._push(nxt, True)
            return nxt
        if isinstance(move, str):
            move = state.parse_move(move)
        nxt = state.play(move)
        self.moves.append(str(move))
        self._push(nxt, False)
        return nxt

    def roll(self) -> State:
        """At a chance node: draw the next outcome from the record's seeded dice and play it."""
        state = self.state
        if state.to_move != CHANCE:
            raise IllegalMove("there is nothing to roll now", code="nothing-to-roll")
        if self.seed is None:
            raise IllegalMove("this record has no dice seed", code="no-dice-seed")
        return self.play(self._seeded(state))

    def _seeded(self, state: State) -> Any:
        assert self.seed is not None
        return draw_chance(self.seed, len(self.chance), state.chance_outcomes())

    def _push(self, state: State, is_chance: bool) -> None:
        self._states.append(state)
        self._kinds.append(is_chance)
        self._seen[state] += 1
        if self._history_outcome() is not None and self.ended is None:
            self.ended = _now()

    def undo(self) -> State:
        """Take back the last ply (a move or a chance outcome); return the state before it."""
        if not self._kinds:
            raise IllegalMove("there is nothing to undo", code="nothing-to-undo")
        self.result = None
        self.ended = None
        gone = self._states.pop()
        self._seen[gone] -= 1
        if self._kinds.pop():
            self.chance.pop()
        else:
            self.moves.pop()
        return self.state

    def points(self) -> int | None:
        """In a game played for points (its ruleset has stakes): the points the winner scored
        once the game is over (a record's resignation gives up everything the resigning side
        could still lose); ``None`` otherwise."""
        if not getattr(self.game_object, "has_stakes", False):
            return None
        outcome = self.outcome()
        if outcome is None or outcome.winner is None:
            return None
        state: Any = self.state
        if self.result is not None and self.result.reason == RESIGNATION:
            return int(state.points_if_resigned(self.game_object.opponent(outcome.winner)))
        points = state.points()
        return None if points is None else int(points)

    def next_game(self, *, seed: str | None = None) -> Record | None:
        """The record of the next game of a match (or money session) once this game is over:
        same game, ruleset and players, starting at the new score; ``None`` when the match is
        won, for games that are not played for points, and before the end."""
        outcome = self.outcome()
        points = self.points()
        if outcome is None or outcome.winner is None or points is None:
            return None
        state: Any = self.state
        following = state.next_game(outcome.winner, points)
        if following is None:
            return None
        return Record.new(self.game_object, start=following.position(), players=self.players,
                          seed=seed)  # fmt: skip

    def resign(self, side: str) -> Outcome:
        """``side`` resigns: the other side wins (reason ``resignation``)."""
        over = self.outcome()
        if over is not None:
            raise IllegalMove("the game is already over", code="already-over")
        game = self.game_object
        if side not in game.sides:
            raise IllegalMove(
                "unknown side {side!r}; the sides are {sides[0]}, {sides[1]}",
                code="unknown-side",
                side=side,
                sides=list(game.sides),
            )
        self.result = Outcome(game.opponent(side), RESIGNATION)
        self.ended = _now()
        return self.result

    def abandon(self) -> Outcome:
        """The game was left unfinished for too long: it ends with no winner (``abandoned``)."""
        over = self.outcome()
        if over is not None:
            raise IllegalMove("the game is already over", code="already-over")
        self.result = Outcome(None, ABANDONED)
        self.ended = _now()
        return self.result

    def copy(self) -> Record:
        """An independent copy (states are values, so they are shared): a change to one of the
        two leaves the other as it was."""
        twin = Record(
            game=self.game, ruleset=self.ruleset, start=self.start, moves=list(self.moves),
            chance=list(self.chance), players=dict(self.players), started=self.started,
            ended=self.ended, result=self.result, seed=self.seed, seed_sha256=self.seed_sha256,
            repetition=self.repetition, turn_limit=self.turn_limit,
        )  # fmt: skip
        twin._states = list(self._states)
        twin._kinds = list(self._kinds)
        twin._seen = Counter(self._seen)
        return twin

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self, *, reveal_seed: bool = True) -> dict[str, Any]:
        """A JSON-ready dict; ``reveal_seed=False`` keeps the dice seed secret (its hash stays)."""
        outcome = self.outcome()
        result: dict[str, Any] | None = None
        if outcome is not None:
            result = {"winner": outcome.winner, "reason": outcome.reason}
            points = self.points()
            if points is not None:
                result["points"] = points
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "ruleset": self.ruleset,
            "start": self.start,
            "moves": list(self.moves),
            "chance": list(self.chance),
            "players": dict(self.players),
            "started": self.started,
            "ended": self.ended,
            "result": result,
            "dice": None
            if self.seed_sha256 is None
            else {"seed": self.seed if reveal_seed else None, "seed_sha256": self.seed_sha256},
            "options": {"repetition": self.repetition, "turn_limit": self.turn_limit},
        }

    def to_json(self, *, reveal_seed: bool = True, indent: int | None = 2) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(reveal_seed=reveal_seed), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record and replay it; raises ``InvalidRecord`` saying what is wrong."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as exc:
            raise InvalidRecord(f"not a JSON record: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Build a record from its dict form, replaying and re-validating every ply."""
        if not isinstance(data, dict):
            raise InvalidRecord("a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise InvalidRecord(f"not a Ludothèque record (format {data.get('format')!r})")
        if data.get("version", VERSION) != VERSION:
            raise InvalidRecord(f"unsupported record version {data.get('version')!r}")
        game_name = _field(data, "game", str)
        ruleset = _field(data, "ruleset", (str, type(None)))
        try:
            game = load(game_name, ruleset)
        except UnknownGame as exc:
            raise InvalidRecord(str(exc)) from None
        start = _field(data, "start", (str, type(None)), default=None)
        moves = _string_list(data, "moves")
        chance = _string_list(data, "chance")
        players = _field(data, "players", dict, default={})
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in players.items()):
            raise InvalidRecord("players must map sides to names (strings)")
        dice = _field(data, "dice", (dict, type(None)), default=None)
        options = _field(data, "options", dict, default={})
        seed = seed_hash = None
        if dice is not None:
            seed = _field(dice, "seed", (str, type(None)), default=None)
            seed_hash = _field(dice, "seed_sha256", (str, type(None)), default=None)
            if seed is not None and seed_hash is not None and seed_digest(seed) != seed_hash:
                raise InvalidRecord("the dice seed does not match its SHA-256 commitment")
        record = cls(
            game=game.name,
            ruleset=game.ruleset,
            start=start,
            players=dict(players),
            started=_field(data, "started", str, default=_now()),
            seed=seed,
            seed_sha256=seed_hash
            if seed_hash is not None
            else (seed_digest(seed) if seed is not None else None),
            repetition=_int_option(options, "repetition"),
            turn_limit=_int_option(options, "turn_limit"),
        )
        try:
            record._reset(game)
        except ValueError as exc:
            raise InvalidRecord(f"bad start position: {exc}") from None
        record._replay(moves, chance)
        record.ended = _field(data, "ended", (str, type(None)), default=record.ended)
        record._check_result(_field(data, "result", (dict, type(None)), default=None))
        return record

    def _replay(self, moves: list[str], chance: list[str]) -> None:
        mi = ci = 0
        ply = 0
        while mi < len(moves) or ci < len(chance):
            ply += 1
            state = self.state
            over = self._history_outcome()
            if over is not None:
                raise InvalidRecord(
                    f"ply {ply}: the game was already over ({over.winner or 'draw'}: "
                    f"{over.reason}) but the record goes on"
                )
            if state.to_move == CHANCE:
                if ci >= len(chance):
                    raise InvalidRecord(f"ply {ply}: a chance outcome (dice) is missing")
                text = chance[ci]
                ci += 1
                what = "chance"
            else:
                if mi >= len(moves):
                    raise InvalidRecord(
                        f"ply {ply}: {len(chance) - ci} chance outcome(s) left over with no move"
                    )
                text = moves[mi]
                mi += 1
                what = str(state.to_move)
            try:
                self.play(text)
            except IllegalMove as exc:
                raise InvalidRecord(f"ply {ply} ({what}, {text!r}): {exc}") from None

    def _check_result(self, result: dict[str, Any] | None) -> None:
        replayed = self._history_outcome()
        if result is None:
            if replayed is not None:
                raise InvalidRecord(
                    f"the record gives no result but the game ended ({replayed.reason})"
                )
            return
        winner = result.get("winner")
        reason = result.get("reason")
        if not isinstance(reason, str) or not (winner is None or isinstance(winner, str)):
            raise InvalidRecord("result must be {'winner': side or null, 'reason': code}")
        claimed = Outcome(winner, reason)
        if replayed is not None:
            if claimed != replayed:
                raise InvalidRecord(
                    f"the record says {winner or 'draw'} ({reason}) but the moves give "
                    f"{replayed.winner or 'draw'} ({replayed.reason})"
                )
            self._check_points(result)
            return
        game = self.game_object
        if reason in (ABANDONED, "aborted") and winner is None:
            self.result = claimed
            return
        if reason in ("time-out", "left") and (winner is None or winner in game.sides):
            self.result = claimed  # the server's clock, or a player who left, ended it
            return
        if reason != RESIGNATION or winner not in game.sides:
            raise InvalidRecord(
                f"the record says {winner or 'draw'} ({reason}) but the game is not over"
            )
        self.result = claimed
        self._check_points(result)

    def _check_points(self, result: dict[str, Any]) -> None:
        """A result's ``points`` (games played for points) must be what the game gives."""
        if "points" not in result:
            return
        claimed = result["points"]
        actual = self.points()
        if isinstance(claimed, bool) or claimed != actual:
            raise InvalidRecord(f"the record says {claimed!r} points but the game gives {actual}")


def _option(value: int | bool | None, default: int | None) -> int | None:
    if value is True:
        return default
    if value is False or value is None:
        return None
    return int(value)


def _field(data: dict[str, Any], key: str, kind: Any, default: Any = ...) -> Any:
    if key not in data:
        if default is ...:
            raise InvalidRecord(f"the record has no {key!r}")
        return default
    value = data[key]
    if not isinstance(value, kind):
        raise InvalidRecord(f"{key!r} has the wrong type ({type(value).__name__})")
    return value


def _string_list(data: dict[str, Any], key: str) -> list[str]:
    value = _field(data, key, list, default=[])
    if not all(isinstance(v, str) for v in value):
        raise InvalidRecord(f"{key!r} must be a list of strings")
    return list(value)


def _int_option(options: dict[str, Any], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRecord(f"option {key!r} must be a positive integer or null")
    return value


__all__ = [
    "REPETITION",
    "RESIGNATION",
    "TURN_LIMIT",
    "InvalidRecord",
    "Record",
    "draw_chance",
    "seed_digest",
]
