"""Refusals and the words that explain them: the common layer under every feature.

A refused request is a ``GameError``: its HTTP status, a stable ``code`` for clients, and its
message as a ``Text`` in each language the pages speak, chosen when it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Text:
    """A message a player may read, in English and French: both are written where the
    message is raised (one source for each message); ``{name}`` takes ``params``."""

    en: str
    fr: str
    params: dict[str, Any] = field(default_factory=dict)

    def __call__(self, lang: str = "en") -> str:
        template = self.fr if lang == "fr" else self.en
        return template.format(**self.params)


def say(en: str, fr: str, **params: Any) -> Text:
    """A message in both languages (see ``Text``)."""
    return Text(en, fr, params)


class GameError(Exception):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable word for clients,
    ``text`` the message in both languages (``message`` is the English one)."""

    def __init__(
        self, message: str | Text, code: str, status: int, *, retry_after: int | None = None
    ) -> None:
        self.text = message if isinstance(message, Text) else Text(message, message)
        self.message = self.text("en")
        super().__init__(self.message)
        self.code = code
        self.status = status
        self.retry_after = retry_after  # seconds, for a 429 or a 503 (``Retry-After``)

    def in_language(self, lang: str) -> str:
        return self.text(lang)


# -- the database failing (see ``store.dberrors``) ---------------------------------------------

DATABASE_BUSY = Text(
    "the game is busy (the database refused the change several times); nothing was played: "
    "try again",
    "la partie est occupée (la base de données a refusé la modification plusieurs fois) ; rien "
    "n'a été joué : réessayez",
)
DATABASE_AWAY = Text(
    "the database is unavailable for a moment; nothing was changed: try again shortly",
    "la base de données est indisponible un instant ; rien n'a changé : réessayez bientôt",
)
UNCERTAIN = Text(
    "the database did not confirm this in time: it may have been recorded; the game will "
    "show it once the connection is back",
    "la base de données ne l'a pas confirmé à temps : ce peut être enregistré ; la partie "
    "l'affichera quand la connexion reviendra",
)
DATABASE_DOWN = Text(
    "the database is unavailable for a moment; try again shortly",
    "la base de données est indisponible un instant ; réessayez bientôt",
)
