"""Every word of the pages and scripts by key, in each language, as the catalogue gives them."""

from __future__ import annotations

from ludotheque.server.i18n.languages import LANGUAGES, analysis_texts, texts

TEXTS = {lang: {**texts(lang), **analysis_texts(lang)} for lang in LANGUAGES}


def word(lang: str, key: str) -> str:
    """``TEXTS[lang][key]``, a plain word (a counted one is a list of its forms)."""
    text = TEXTS[lang][key]
    assert isinstance(text, str), f"{key!r} is a counted word: {text!r}"
    return text
