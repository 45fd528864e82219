"""The record format: a record as a JSON object, written and read back, with its version.

::

    {"format": "ludotheque-record", "version": 1, "game": "backgammon", "ruleset": "match",
     "start": null | position string, "moves": [notation, …], "chance": [outcome, …],
     "players": {side: name}, "started": ISO date, "ended": ISO date | null,
     "result": null | {"winner": side | null, "reason": code, "points": n (games for points)},
     "dice": null | {"seed": hex | null (kept secret), "seed_sha256": hex,
                     "draws": [n, …], "drawn": n (only after an undo took a roll back)},
     "options": {"repetition": n | null, "turn_limit": n | null}}

Reading checks the shape of every field (``InvalidRecord`` names the one that is wrong, in a
fixed order), and the dice seed against its commitment; the game itself is then replayed and
re-validated by the record (``Record.from_dict``).
"""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import load
from ..core import Game, InvalidPosition, Refusal, UnknownGame, described
from .dice import seed_digest

if TYPE_CHECKING:
    from .history import Record

FORMAT = "ludotheque-record"
"""The ``format`` of a record's JSON object."""
VERSION = 1
"""The ``version`` of the format written; the only one read."""


class InvalidRecord(InvalidPosition):
    """A record that cannot be read or does not replay; the message names the ply and reason.

    An ``InvalidPosition`` (so a ``ValueError``), with its code, template and parameters: the
    public API's bad input raises only ``IllegalMove`` or ``InvalidPosition``."""

    default_code = "invalid-record"
    inner: Refusal | None = None
    """The refusal this one quotes as its ``reason`` (the move the replay refused, the start
    position the game refused), kept so that a page can say it in the reader's language."""

    def quoting(self, inner: BaseException) -> InvalidRecord:
        """This refusal, its ``reason`` noted as quoting ``inner`` when that is a coded one."""
        if isinstance(inner, Refusal):
            self.inner = inner
        return self


def shown(value: object) -> str:
    """``value`` as a refusal shows it: its ``repr``, cut short (a record may hold anything)."""
    return str(described(value)["value"])


def now() -> str:
    """The time now as a record writes its dates: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


# -- writing --------------------------------------------------------------------------------


def to_dict(record: Record, *, reveal_seed: bool = True) -> dict[str, Any]:
    """``record`` as a JSON-ready dict; ``reveal_seed=False`` keeps the dice seed secret (its
    hash stays)."""
    outcome = record.outcome()
    result: dict[str, Any] | None = None
    if outcome is not None:
        result = {"winner": outcome.winner, "reason": outcome.reason}
        points = record.points()
        if points is not None:
            result["points"] = points
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.game,
        "ruleset": record.ruleset,
        "start": record.start,
        "moves": list(record.moves),
        "chance": list(record.chance),
        "players": dict(record.players),
        "started": record.started,
        "ended": record.ended,
        "result": result,
        "dice": _dice(record, reveal_seed),
        "options": {"repetition": record.repetition, "turn_limit": record.turn_limit},
    }


def _dice(record: Record, reveal_seed: bool) -> dict[str, Any] | None:
    """The record's dice: the seed (or only its commitment), and, once an undo took a roll
    back, each chance outcome's draw number and the number of draws made."""
    if record.seed_sha256 is None:
        return None
    dice: dict[str, Any] = {
        "seed": record.seed if reveal_seed else None, "seed_sha256": record.seed_sha256
    }  # fmt: skip
    if record.draws != list(range(len(record.chance))) or record.drawn != len(record.chance):
        dice["draws"] = list(record.draws)
        dice["drawn"] = record.drawn
    return dice


def to_json(record: Record, *, reveal_seed: bool = True, indent: int | None = 2) -> str:
    """``record`` as JSON text."""
    return json.dumps(to_dict(record, reveal_seed=reveal_seed), indent=indent, ensure_ascii=False)


# -- reading --------------------------------------------------------------------------------


class Contents(NamedTuple):
    """What a record's dict says before its game is replayed: the game (with its ruleset) and
    the record's fields, each of the right shape."""

    game: Game
    start: str | None
    moves: list[str]
    chance: list[str]
    players: dict[str, str]
    started: str
    seed: str | None
    seed_sha256: str | None
    repetition: int | None
    turn_limit: int | None
    draws: list[int] | None = None  # each chance outcome's draw number (None: 0, 1, 2…)
    drawn: int = 0  # draws made, those taken back included


def parse_json(text: str | bytes) -> Any:
    """The JSON value of ``text``; raises ``InvalidRecord`` when it is not JSON."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as exc:
        raise InvalidRecord("not a JSON record: {reason}", code="record-not-json",
                            reason=str(exc)[:200]) from None  # fmt: skip
    except RecursionError:  # arrays or objects nested thousands deep
        raise InvalidRecord("not a record: its JSON is nested too deeply",
                            code="record-too-deep") from None  # fmt: skip


def read(data: Any) -> Contents:
    """The contents of a record's dict form, every field checked (the game loaded, the dice seed
    against its commitment); raises ``InvalidRecord`` saying what is wrong. ``ended`` and
    ``result`` are read after the replay (``read_ended``, ``read_result``)."""
    if not isinstance(data, dict):
        raise InvalidRecord("a record is a JSON object, not {value} ({type})",
                            code="record-not-object", **described(data))  # fmt: skip
    if data.get("format", FORMAT) != FORMAT:
        raise InvalidRecord("not a Ludothèque record (format {value})", code="record-format",
                            value=shown(data.get("format")))  # fmt: skip
    if data.get("version", VERSION) != VERSION:
        raise InvalidRecord("unsupported record version {value}", code="record-version",
                            value=shown(data.get("version")))  # fmt: skip
    game_name = _field(data, "game", str)
    ruleset = _field(data, "ruleset", (str, type(None)))
    try:
        game = load(game_name, ruleset)
    except UnknownGame as exc:
        raise InvalidRecord("the record's game: {reason}", code="record-game",
                            reason=str(exc)).quoting(exc) from None  # fmt: skip
    start = _field(data, "start", (str, type(None)), default=None)
    moves = _string_list(data, "moves")
    chance = _string_list(data, "chance")
    players = _field(data, "players", dict, default={})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in players.items()):
        raise InvalidRecord("players must map sides to names (strings)", code="record-players")
    dice = _field(data, "dice", (dict, type(None)), default=None)
    options = _field(data, "options", dict, default={})
    seed = seed_hash = None
    draws, drawn = _draws(dice, len(chance))
    if dice is not None:
        seed = _field(dice, "seed", (str, type(None)), default=None)
        seed_hash = _field(dice, "seed_sha256", (str, type(None)), default=None)
        if seed is not None and seed_hash is not None and seed_digest(seed) != seed_hash:
            raise InvalidRecord("the dice seed does not match its SHA-256 commitment",
                                code="record-seed")  # fmt: skip
    started = _field(data, "started", str, default=now())
    if seed_hash is None and seed is not None:
        seed_hash = seed_digest(seed)
    return Contents(
        game=game,
        start=start,
        moves=moves,
        chance=chance,
        players=dict(players),
        started=started,
        seed=seed,
        seed_sha256=seed_hash,
        repetition=_int_option(options, "repetition"),
        turn_limit=_int_option(options, "turn_limit"),
        draws=draws,
        drawn=drawn,
    )


def _draws(dice: dict[str, Any] | None, chances: int) -> tuple[list[int] | None, int]:
    """The draw number of each chance outcome and the number of draws made (``None`` and the
    number of outcomes when the record took no roll back): increasing whole numbers."""
    if dice is None or ("draws" not in dice and "drawn" not in dice):
        return None, chances
    draws = _field(dice, "draws", list, default=list(range(chances)))
    if not all(_whole(n) for n in draws):
        raise InvalidRecord("the dice's draw numbers must be whole numbers from 0",
                            code="record-draws")  # fmt: skip
    drawn = _field(dice, "drawn", int, default=draws[-1] + 1 if draws else 0)
    numbers = [*draws, drawn]
    if not _whole(drawn) or any(b <= a for a, b in itertools.pairwise(numbers)):
        raise InvalidRecord("the dice's draw numbers must increase, below 'drawn'",
                            code="record-draws-order")  # fmt: skip
    return list(draws), drawn


def _whole(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


def read_ended(data: dict[str, Any], default: str | None) -> str | None:
    """The record's ``ended`` date (``default`` when it has none)."""
    value: str | None = _field(data, "ended", (str, type(None)), default=default)
    return value


def read_result(data: dict[str, Any]) -> dict[str, Any] | None:
    """The record's ``result`` as written (checked against the replay by the record)."""
    value: dict[str, Any] | None = _field(data, "result", (dict, type(None)), default=None)
    return value


def _field(data: dict[str, Any], key: str, kind: Any, default: Any = ...) -> Any:
    if key not in data:
        if default is ...:
            raise InvalidRecord("the record has no '{key}'", code="record-missing", key=key)
        return default
    value = data[key]
    if not isinstance(value, kind):
        raise InvalidRecord("'{key}' has the wrong type ({type})", code="record-field-type",
                            key=key, type=type(value).__name__)  # fmt: skip
    return value


def _string_list(data: dict[str, Any], key: str) -> list[str]:
    value = _field(data, key, list, default=[])
    if not all(isinstance(v, str) for v in value):
        raise InvalidRecord("'{key}' must be a list of strings", code="record-not-strings",
                            key=key)  # fmt: skip
    return list(value)


def _int_option(options: dict[str, Any], key: str) -> int | None:
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRecord("option '{key}' must be a positive integer or null",
                            code="record-option", key=key)  # fmt: skip
    return value


__all__ = [
    "FORMAT",
    "VERSION",
    "Contents",
    "InvalidRecord",
    "now",
    "parse_json",
    "read",
    "read_ended",
    "read_result",
    "to_dict",
    "to_json",
]
