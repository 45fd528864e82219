"""Our games for research frameworks: OpenSpiel games and PettingZoo environments.

Every game and ruleset gets a fixed encoding, documented in its module (``envs.general``,
``envs.backgammon``, ``envs.defiance``): integer actions in a fixed range, each meaning one move
or part of a move, and fixed-shape observation arrays. The adapters need the ``rl`` extra
(``pip install 'ludotheque[rl]'``); this package itself imports neither framework:

- ``import ludotheque.envs.openspiel`` registers ``ludotheque_general``,
  ``ludotheque_backgammon`` and ``ludotheque_defiance`` with ``pyspiel`` (parameters
  ``ruleset`` and ``max_turns``, and backgammon's ``match_length``);
- ``ludotheque.envs.pettingzoo.env(game, ruleset=None, render_mode=None, max_turns=None,
  match_length=None)`` is a PettingZoo AEC environment.

>>> enc = encoding("backgammon", "standard")
>>> enc.num_actions, enc.observation_shape
(157, (215,))
>>> node = enc.apply(enc.initial(), 2 * 6 + 0)   # the opening roll: white 3, black 1
>>> enc.describe(node)
'W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31'
"""

from __future__ import annotations

from .. import InvalidPosition, available_games, load
from ..games.backgammon.cube import MATCH
from ..games.backgammon.rules import BackgammonGame
from .backgammon import BackgammonEncoding
from .base import CHANCE_PLAYER, TERMINAL_PLAYER, Encoding, Node
from .defiance import DefianceEncoding
from .general import GeneralEncoding

_ENCODINGS: dict[str, type[Encoding]] = {
    "general": GeneralEncoding,
    "backgammon": BackgammonEncoding,
    "defiance": DefianceEncoding,
}


def encoding(
    game: str,
    ruleset: str | None = None,
    max_turns: int | None = None,
    match_length: int | None = None,
) -> Encoding:
    """The encoding of ``game`` with ``ruleset`` (its default when ``None``), a turn limit (the
    game's default when ``None``) and, for backgammon's ``match`` ruleset only, the match's
    length in points (1 to 25; ``None``: 7). Raises ``UnknownGame`` for an unknown game or
    ruleset, ``InvalidPosition`` for a turn limit or match length it cannot take."""
    loaded = load(game, ruleset)
    if match_length is None:
        return _ENCODINGS[loaded.name](loaded, max_turns)
    if not isinstance(loaded, BackgammonGame) or loaded.stakes_kind != MATCH:
        raise InvalidPosition(
            "match_length is for backgammon's match ruleset, not {game} {ruleset}",
            code="match-length-not-match", game=loaded.name, ruleset=loaded.ruleset,
        )  # fmt: skip
    return BackgammonEncoding(loaded, max_turns, match_length)


def rulesets() -> dict[str, tuple[str, ...]]:
    """Every game with its rulesets (default first), as ``ludotheque.available_games()``."""
    return available_games()


__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "BackgammonEncoding",
    "DefianceEncoding",
    "Encoding",
    "GeneralEncoding",
    "Node",
    "encoding",
    "rulesets",
]
