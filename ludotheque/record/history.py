"""A game's record: the moves of one game from its start, with the dice, players, dates and
result; the history a state does not hold.

A record replays and re-validates every move when it is loaded (a tampered record is rejected
with the ply and the reason), it owns the game's dice (``dice``: a seeded generator, so that a
game replays exactly from its record), and it decides the draws that depend on history
(``endings``: threefold repetition and the turn limit). Its JSON form is in ``format``; games
played for points chain their records (``match``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .. import load
from ..core import CHANCE, Game, IllegalMove, Outcome, State
from . import format as record_format
from . import match
from .dice import draw_chance, new_seed, seed_digest
from .endings import ABANDONED, ABORTED, AGREEMENT, RESIGNATION, draw, draw_options
from .format import InvalidRecord, now, shown


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
    started: str = field(default_factory=now)
    ended: str | None = None
    result: Outcome | None = None
    seed: str | None = None
    seed_sha256: str | None = None
    # the dice's draw number of each chance outcome, and how many draws were made (those taken
    # back by an undo included): a roll taken back is never drawn again (see ``dice``)
    draws: list[int] = field(default_factory=list)
    drawn: int = 0
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
        record.repetition, record.turn_limit = draw_options(g, repetition, turn_limit)
        if seed is None and getattr(g, "has_chance", False):
            seed = new_seed()
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

    def occurrences(self, state: State) -> int:
        """How many times ``state`` has occurred in the game so far (for the repetition draw)."""
        return self._seen[state]

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
        return draw(self._seen[state], len(self.moves), self.repetition, self.turn_limit)

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
            self.draws.append(self.drawn)
            self.drawn += 1
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
        """The outcome of the next draw: the draw number counts every roll made, those an
        undo took back included, so that taking a play back never shows the same dice again
        (without an undo the numbers are 0, 1, 2…, as they always were)."""
        assert self.seed is not None
        return draw_chance(self.seed, self.drawn, state.chance_outcomes())

    def _push(self, state: State, is_chance: bool) -> None:
        self._states.append(state)
        self._kinds.append(is_chance)
        self._seen[state] += 1
        if self._history_outcome() is not None and self.ended is None:
            self.ended = now()

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
            self.draws.pop()  # (``drawn`` stays: that draw is spent)
        else:
            self.moves.pop()
        return self.state

    def points(self) -> int | None:
        """In a game played for points (its ruleset has stakes): the points the winner scored
        once the game is over (a record's resignation gives up everything the resigning side
        could still lose); ``None`` otherwise."""
        return match.points(self)

    def next_game(self, *, seed: str | None = None) -> Record | None:
        """The record of the next game of a match (or money session) once this game is over:
        same game, ruleset and players, starting at the new score; ``None`` when the match is
        won, for games that are not played for points, and before the end."""
        start = match.next_start(self)
        if start is None:
            return None
        return Record.new(self.game_object, start=start, players=self.players, seed=seed)

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
        self.ended = now()
        return self.result

    def abandon(self) -> Outcome:
        """The game was left unfinished for too long: it ends with no winner (``abandoned``)."""
        over = self.outcome()
        if over is not None:
            raise IllegalMove("the game is already over", code="already-over")
        self.result = Outcome(None, ABANDONED)
        self.ended = now()
        return self.result

    def end(self, outcome: Outcome) -> Outcome:
        """The game ended outside its moves (a clock fell, a player left, it was aborted):
        ``outcome`` is its result, and now its end."""
        self.result = outcome
        self.ended = self.ended or now()
        return outcome

    def copy(self) -> Record:
        """An independent copy (states are values, so they are shared): a change to one of the
        two leaves the other as it was."""
        twin = Record(
            game=self.game, ruleset=self.ruleset, start=self.start, moves=list(self.moves),
            chance=list(self.chance), players=dict(self.players), started=self.started,
            ended=self.ended, result=self.result, seed=self.seed, seed_sha256=self.seed_sha256,
            draws=list(self.draws), drawn=self.drawn, repetition=self.repetition,
            turn_limit=self.turn_limit,
        )  # fmt: skip
        twin._states = list(self._states)
        twin._kinds = list(self._kinds)
        twin._seen = Counter(self._seen)
        return twin

    # -- JSON (see ``format``) ---------------------------------------------------------------

    def to_dict(self, *, reveal_seed: bool = True) -> dict[str, Any]:
        """A JSON-ready dict; ``reveal_seed=False`` keeps the dice seed secret (its hash stays)."""
        return record_format.to_dict(self, reveal_seed=reveal_seed)

    def to_json(self, *, reveal_seed: bool = True, indent: int | None = 2) -> str:
        """The record as JSON text."""
        return record_format.to_json(self, reveal_seed=reveal_seed, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record and replay it; raises ``InvalidRecord`` saying what is wrong."""
        return cls.from_dict(record_format.parse_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Build a record from its dict form, replaying and re-validating every ply."""
        contents = record_format.read(data)
        game = contents.game
        record = cls(
            game=game.name,
            ruleset=game.ruleset,
            start=contents.start,
            players=contents.players,
            started=contents.started,
            seed=contents.seed,
            seed_sha256=contents.seed_sha256,
            repetition=contents.repetition,
            turn_limit=contents.turn_limit,
        )
        try:
            record._reset(game)
        except ValueError as exc:
            raise InvalidRecord("bad start position: {reason}", code="record-start",
                                reason=str(exc)).quoting(exc) from None  # fmt: skip
        record._replay(contents.moves, contents.chance, contents.draws)
        record.drawn = max(record.drawn, contents.drawn)
        record.ended = record_format.read_ended(data, record.ended)
        record._check_result(record_format.read_result(data))
        return record

    def _replay(self, moves: list[str], chance: list[str], draws: list[int] | None = None
                ) -> None:  # fmt: skip
        """Play the record's moves and chance outcomes again, each chance outcome at its
        draw number (``draws``; ``None``: 0, 1, 2…)."""
        if draws is not None and len(draws) != len(chance):
            raise InvalidRecord(
                "the dice give {draws} draw numbers for {outcomes} chance outcomes",
                code="record-draw-count", draws=len(draws), outcomes=len(chance),
            )  # fmt: skip
        mi = ci = 0
        ply = 0
        while mi < len(moves) or ci < len(chance):
            ply += 1
            state = self.state
            over = self._history_outcome()
            if over is not None:
                raise InvalidRecord(
                    "ply {ply}: the game was already over ({winner}: {reason}) but the record "
                    "goes on", code="record-goes-on", ply=ply, winner=over.winner or "draw",
                    reason=over.reason,
                )  # fmt: skip
            if state.to_move == CHANCE:
                if ci >= len(chance):
                    raise InvalidRecord("ply {ply}: a chance outcome (dice) is missing",
                                        code="record-chance-missing", ply=ply)  # fmt: skip
                text = chance[ci]
                if draws is not None:
                    if draws[ci] < self.drawn:
                        raise InvalidRecord(
                            "ply {ply}: draw number {draw} comes after {last}",
                            code="record-draw-back", ply=ply, draw=draws[ci],
                            last=self.drawn - 1,
                        )  # fmt: skip
                    self.drawn = draws[ci]
                ci += 1
                what = "chance"
            else:
                if mi >= len(moves):
                    raise InvalidRecord(
                        "ply {ply}: {left} chance outcome(s) left over with no move",
                        code="record-chance-left", ply=ply, left=len(chance) - ci,
                    )  # fmt: skip
                text = moves[mi]
                mi += 1
                what = str(state.to_move)
            try:
                self.play(text)
            except IllegalMove as exc:
                raise InvalidRecord(
                    "ply {ply} ({side}, {text}): {reason}", code="record-illegal-move",
                    ply=ply, side=what, text=shown(text), reason=str(exc)[:300],
                ).quoting(exc) from None  # fmt: skip

    def _check_result(self, result: dict[str, Any] | None) -> None:
        replayed = self._history_outcome()
        if result is None:
            if replayed is not None:
                raise InvalidRecord(
                    "the record gives no result but the game ended ({reason})",
                    code="record-no-result", reason=replayed.reason,
                )  # fmt: skip
            return
        winner = result.get("winner")
        reason = result.get("reason")
        if not isinstance(reason, str) or not (winner is None or isinstance(winner, str)):
            raise InvalidRecord(
                "the result is an object with 'winner' (a side or null) and 'reason' (a code)",
                code="record-result-shape",
            )  # fmt: skip
        claimed = Outcome(winner, reason)
        if replayed is not None:
            if claimed != replayed:
                raise InvalidRecord(
                    "the record says {winner} ({reason}) but the moves give {result} ({why})",
                    code="record-result-differs", winner=(winner or "draw")[:60],
                    reason=reason[:60], result=replayed.winner or "draw", why=replayed.reason,
                )  # fmt: skip
            self._check_points(result)
            return
        game = self.game_object
        if reason in (ABANDONED, ABORTED, AGREEMENT) and winner is None:
            self.result = claimed
            return
        if reason in ("time-out", "left") and (winner is None or winner in game.sides):
            self.result = claimed  # the server's clock, or a player who left, ended it
            return
        if reason != RESIGNATION or winner not in game.sides:
            raise InvalidRecord(
                "the record says {winner} ({reason}) but the game is not over",
                code="record-result-early", winner=(winner or "draw")[:60], reason=reason[:60],
            )  # fmt: skip
        self.result = claimed
        self._check_points(result)

    def _check_points(self, result: dict[str, Any]) -> None:
        """A result's ``points`` (games played for points) must be what the game gives."""
        if "points" not in result:
            return
        claimed = result["points"]
        actual = self.points()
        if isinstance(claimed, bool) or claimed != actual:
            raise InvalidRecord(
                "the record says {claimed} points but the game gives {actual}",
                code="record-points", claimed=shown(claimed), actual=shown(actual),
            )  # fmt: skip


__all__ = ["Record"]
