"""Our games for research frameworks: OpenSpiel games and PettingZoo environments.

Every game and ruleset gets a fixed encoding, documented in its module (``envs.general``,
``envs.backgammon``, ``envs.defiance``): integer actions in a fixed range, each meaning one move
or part of a move, and fixed-shape observation arrays. The adapters need the ``rl`` extra
(``pip install 'ludotheque[rl]'``); this package itself imports neither framework:

- ``import ludotheque.envs.openspiel`` registers ``ludotheque_general``,
  ``ludotheque_backgammon`` and ``ludotheque_defiance`` with ``pyspiel`` (parameters
  ``ruleset`` and ``max_turns``);
- ``ludotheque.envs.pettingzoo.env(game, ruleset=None, render_mode=None)`` is a PettingZoo AEC
  environment.

>>> enc = encoding("backgammon", "standard")
>>> enc.num_actions, enc.observation_shape
(157, (215,))
>>> node = enc.apply(enc.initial(), 2 * 6 + 0)   # the opening roll: white 3, black 1
>>> enc.describe(node)
'W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31'
"""

from __future__ import annotations

from .. import available_games, load
from .backgammon import BackgammonEncoding
from .base import CHANCE_PLAYER, TERMINAL_PLAYER, Encoding, Node
from .defiance import DefianceEncoding
from .general import GeneralEncoding

_ENCODINGS: dict[str, type[Encoding]] = {
    "general": GeneralEncoding,
    "backgammon": BackgammonEncoding,
    "defiance": DefianceEncoding,
}


def encoding(game: str, ruleset: str | None = None, max_turns: int | None = None) -> Encoding:
    """The encoding of ``game`` with ``ruleset`` (its default when ``None``) and a turn limit
    (the game's default when ``None``). Raises ``UnknownGame`` for an unknown game or ruleset."""
    loaded = load(game, ruleset)
    return _ENCODINGS[loaded.name](loaded, max_turns)


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
