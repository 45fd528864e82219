"""Words the pages and the scripts ask for by key: each written once, in English, beside its key;
the key is gettext's context (``msgctxt``) for its translations.

A word that names a side is written once per side, its key followed by ``@`` and the side
(``play.you_are@black``: "You play Black", « Vous jouez les Noirs »), so that each language
writes each side with its own grammar; ``translate`` and the pages' ``t`` pick that form
when they are given the side.
"""

from __future__ import annotations

English = str | tuple[str, str]
"""A word's English: its text, or its singular and plural when it counts ``{n}`` things."""


def word(key: str, english: str) -> tuple[str, English]:
    """One word: its key and its English (extracted for the catalogue with its key)."""
    return key, english


def word_n(key: str, singular: str, plural: str) -> tuple[str, English]:
    """A word that counts ``{n}`` things: its singular and plural English, each language
    giving its own plural forms."""
    return key, (singular, plural)


def words(*entries: tuple[str, English]) -> dict[str, English]:
    """A table of words by key; a key written twice is a mistake."""
    table: dict[str, English] = {}
    for key, english in entries:
        if key in table:
            raise ValueError(f"the word {key!r} is written twice")
        table[key] = english
    return table
