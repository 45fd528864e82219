"""Refusals of the engines, as the server tells them (a 422 with the engine's message, in the
reader's language), and the positions a game may start from."""

from __future__ import annotations

from typing import Any

from ..errors import GameError, Within, Words, say
from ..i18n.refusals import refused

INVALID_POSITION = say("invalid position: {text}")


def reads_back(game: Any, text: str, state: Any) -> bool:
    """Whether the position string ``text`` (what is stored) reads back as ``state``."""
    try:
        return bool(game.parse_position(text) == state)
    except ValueError:
        return False


def bad_position(exc: Exception) -> Words:
    """An engine's refusal of a position, as the reader is told it."""
    return Within(INVALID_POSITION, refused(exc))


def engine_error(exc: Exception) -> GameError:
    """An engine's refusal as a request's refusal: a 422 with the engine's message, in the
    reader's language from the catalogue by its code (see ``i18n.refusals``)."""
    return GameError(refused(exc), "illegal", 422)
