"""Refusals of the engines, as the server tells them: a 422 with the engine's message (in
French from ``i18n.engine_words``), and the positions a game may start from."""

from __future__ import annotations

from typing import Any

from ..errors import GameError, Text, say
from ..i18n.engine_words import french


def reads_back(game: Any, text: str, state: Any) -> bool:
    """Whether the position string ``text`` (what is stored) reads back as ``state``."""
    try:
        return bool(game.parse_position(text) == state)
    except ValueError:
        return False


def bad_position(exc: Exception) -> Text:
    text = str(exc)
    return say("invalid position: {text}", text=text,
               said=french(text) or text)  # fmt: skip


def engine_error(exc: Exception) -> GameError:
    """An engine's refusal as a request's refusal (the engine's message, a 422), in French
    from ``engine_words`` (the English behind a French lead-in when it is not known there)."""
    text = str(exc) or "this is not allowed by the rules"
    fr = french(text)
    said = say("{text}", text=text, said=fr) if fr else (
        say("{text}", text=text))  # fmt: skip
    return GameError(said, "illegal", 422)
