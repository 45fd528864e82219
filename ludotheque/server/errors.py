"""Refusals and the words that explain them: the common layer under every feature.

A refused request is a ``GameError``: its HTTP status, a stable ``code`` for clients, and its
message as a ``Text``: written in English where it is raised (``say``, ``say_n``), translated
from the catalogue (``i18n.catalog``) into the reader's language when it is shown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .i18n.catalog import gettext, ngettext, npgettext, pgettext


@dataclass(frozen=True)
class Text:
    """A message a person may read: its English (``message``; ``plural`` too when it counts
    ``n`` of something), the context that tells it apart in the catalogue if any (an engine's
    refusal code), and the values of its ``{names}``."""

    message: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int = 1
    context: str | None = None

    def __call__(self, lang: str = "en") -> str:
        """The message in ``lang`` (its English where the catalogue has no translation)."""
        if self.plural is not None:
            template = (
                ngettext(lang, self.message, self.plural, self.n) if self.context is None
                else npgettext(lang, self.context, self.message, self.plural, self.n)
            )  # fmt: skip
        elif self.context is None:
            template = gettext(lang, self.message)
        else:
            template = pgettext(lang, self.context, self.message)
        return template.format(**self.params) if self.params else template

    def given(self, **params: Any) -> Text:
        """The same message with (more) values for its names."""
        return dataclasses.replace(self, params={**self.params, **params})


def say(message: str, **params: Any) -> Text:
    """A message, written in English (see ``Text``); ``{name}`` takes ``params[name]``."""
    return Text(message, params)


def say_n(singular: str, plural: str, n: int, **params: Any) -> Text:
    """A message that counts ``n`` of something, in the plural form each language needs
    (``{n}`` is ``n``)."""
    return Text(singular, {"n": n, **params}, plural=plural, n=n)


Words = Callable[[str], str]
"""Anything that says itself in a language: a ``Text``, an engine's refusal, a ``Within``."""


@dataclass(frozen=True)
class Within:
    """A message with another inside it, each said in the reader's language: ``outer``'s
    ``{text}`` is ``inner`` (``invalid position: {text}`` with an engine's refusal)."""

    outer: Text
    inner: Words

    def __call__(self, lang: str = "en") -> str:
        return self.outer.given(text=self.inner(lang))(lang)


class GameError(Exception):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable word for clients,
    ``text`` the message, said in the reader's language (``message`` is the English one)."""

    def __init__(
        self, message: str | Words, code: str, status: int, *, retry_after: int | None = None
    ) -> None:
        self.text: Words = Text(message) if isinstance(message, str) else message
        self.message = self.text("en")
        super().__init__(self.message)
        self.code = code
        self.status = status
        self.retry_after = retry_after  # seconds, for a 429 or a 503 (``Retry-After``)

    def in_language(self, lang: str) -> str:
        return self.text(lang)


# -- the database failing (see ``store.dberrors``) ---------------------------------------------

DATABASE_BUSY = say(
    "the game is busy (the database refused the change several times); nothing was played: "
    "try again"
)
DATABASE_AWAY = say(
    "the database is unavailable for a moment; nothing was changed: try again shortly"
)
UNCERTAIN = say(
    "the database did not confirm this in time: it may have been recorded; the game will "
    "show it once the connection is back"
)
DATABASE_DOWN = say("the database is unavailable for a moment; try again shortly")
NO_SUCH_PAGE = say("there is no page at this address")
NOT_ALLOWED = say("this address does not take that kind of request")
