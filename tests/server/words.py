"""Every word of the pages and scripts by key, in each language, as the catalogue gives them."""

from __future__ import annotations

from ludotheque.server.i18n.languages import LANGUAGES, analysis_texts, texts

TEXTS = {lang: {**texts(lang), **analysis_texts(lang)} for lang in LANGUAGES}
