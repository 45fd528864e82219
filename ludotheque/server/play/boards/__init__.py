"""Server halves of the board modules: what each game's board needs beyond the position.

Adding a game to the app is adding ``boards/<game>.py`` here (``extra`` and ``legal``), its
browser half ``static/boards/<game>.js`` and its rules pages ``templates/rules/<game>.*.html``.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

from .... import available_games


def board(game: str) -> ModuleType:
    """The server half of a game's board."""
    return import_module(f"ludotheque.server.play.boards.{game}")


def available() -> list[str]:
    """The games the app can show: those with a board module (in registry order)."""
    return [g for g in available_games() if find_spec(f"ludotheque.server.play.boards.{g}")]
