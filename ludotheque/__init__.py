"""Ludothèque: rules engines for three board games, and the tools around them.

>>> import ludotheque
>>> game = ludotheque.load("general")
>>> state = game.start().play("a2-b2")
>>> state.to_move
'general'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Literal, overload

if "numpy" not in sys.modules:
    # One BLAS thread: the backgammon network's matrices are small, and BLAS threads cost more
    # than they give (a 2-ply search was 4x slower with two threads on a busy two-core
    # machine, and a thread per core in every server and worker process fights over the
    # cores). Set here, before any module of the package imports numpy; an explicit setting
    # wins, and OpenMP's (torch's, numba's) is left alone.
    for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_name, "1")

from .core import (
    CHANCE,
    AmbiguousMove,
    Game,
    IllegalMove,
    InvalidMove,
    InvalidPosition,
    Move,
    NotAState,
    Outcome,
    Refusal,
    State,
    UnknownGame,
    UnknownSide,
    perft,
    perft_table,
)

if TYPE_CHECKING:  # the games' own types, for type checkers (they load on first use)
    from .games.backgammon.rules import BackgammonGame
    from .games.defiance.rules import DefianceGame
    from .games.general.rules import GeneralGame

__version__ = "0.1.0"

# name -> (module, rulesets with the default first). Each module has ``get_game(ruleset)``,
# which returns that ruleset's one game object; modules load on first use.
_REGISTRY: dict[str, tuple[str, tuple[str, ...]]] = {
    "general": ("ludotheque.games.general", ("default",)),
    "backgammon": ("ludotheque.games.backgammon", ("seed", "standard", "money", "match")),
    "defiance": ("ludotheque.games.defiance", ("10x10", "8x8")),
}


def available_games() -> dict[str, tuple[str, ...]]:
    """The available games and their rulesets (default first)."""
    return {name: rulesets for name, (_, rulesets) in _REGISTRY.items()}


@overload
def load(name: Literal["general"], ruleset: str | None = None) -> GeneralGame: ...
@overload
def load(name: Literal["backgammon"], ruleset: str | None = None) -> BackgammonGame: ...
@overload
def load(name: Literal["defiance"], ruleset: str | None = None) -> DefianceGame: ...
@overload
def load(name: str, ruleset: str | None = None) -> Game: ...


def load(name: str, ruleset: str | None = None) -> Game:
    """The game ``name`` with ``ruleset`` (its default when ``None``).

    Raises ``UnknownGame`` (an ``InvalidPosition``, so a ``ValueError``) naming what exists when
    either is unknown.
    """
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGame(
            "unknown game {name}; the games are: {known}",
            code="unknown-game", name=repr(name), known=known,
        )  # fmt: skip
    module_name, rulesets = entry
    chosen = rulesets[0] if ruleset is None else ruleset
    if chosen not in rulesets:
        raise UnknownGame(
            "unknown ruleset {ruleset} for {name}; its rulesets are: {rulesets}",
            code="unknown-ruleset", ruleset=repr(ruleset), name=repr(name),
            rulesets=", ".join(rulesets),
        )  # fmt: skip
    get_game: Callable[[str], Game] = import_module(module_name).get_game
    return get_game(chosen)


__all__ = [
    "CHANCE",
    "AmbiguousMove",
    "Game",
    "IllegalMove",
    "InvalidMove",
    "InvalidPosition",
    "Move",
    "NotAState",
    "Outcome",
    "Refusal",
    "State",
    "UnknownGame",
    "UnknownSide",
    "__version__",
    "available_games",
    "load",
    "perft",
    "perft_table",
]
