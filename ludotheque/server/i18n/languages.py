"""The language of a page, and its words, dates and numbers in that language.

Pages are rendered in the visitor's language: a cookie set by the switch in the page, else the
browser's ``Accept-Language`` (its q-values honoured); the browser gets the same words as JSON
for what it writes itself. Words are looked up by key (``translate``) in the catalogue (see
``catalog`` and ``keyed``); dates, times and numbers are written by Babel, per locale.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

from babel.dates import format_date, format_datetime, format_timedelta
from babel.numbers import format_decimal

from .account_words import ACCOUNT
from .analysis_words import ANALYSIS
from .board_words import BOARD
from .catalog import LANGUAGES, npgettext, pgettext
from .keyed import English
from .lesson_words import LESSONS
from .list_words import LISTS
from .place_words import PLACE
from .puzzle_words import PUZZLES
from .result_words import RESULT
from .site_words import SITE
from .tournament_words import TOURNAMENT

__all__ = ["LANGUAGES", "pick_language", "texts", "translate"]

PAGE_WORDS: dict[str, English] = {
    **SITE, **PLACE, **ACCOUNT, **BOARD, **LISTS, **RESULT, **PUZZLES, **TOURNAMENT,
}  # fmt: skip
"""The words every page gives its scripts (the analysis's come with its own module)."""
KEYED: dict[str, English] = {**PAGE_WORDS, **ANALYSIS, **LESSONS}
"""Every word the pages and scripts ask for by key, in English."""
SIDE_MARK = "@"


def pick_language(cookie: str | None, accept_language: str | None) -> str:
    """The cookie's language if it is one of ours, else the supported language the browser
    prefers (``Accept-Language``, by q-value, then by order), else English."""
    if cookie in LANGUAGES:
        return cookie
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")[:30]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = tag.strip().lower()[:2]
        if code in LANGUAGES and quality > 0:
            wanted.append((-quality, order, code))
    return min(wanted)[2] if wanted else LANGUAGES[0]


def translate(lang: str, key: str, **values: object) -> str:
    """The word of ``key`` in ``lang`` (its English when the catalogue lacks it, the key
    itself when no word has it), its ``{names}`` filled with ``values``. Given a ``side``, the
    side's own form of the word (``key@side``) is taken where there is one."""
    side = values.get("side")
    if isinstance(side, str) and f"{key}{SIDE_MARK}{side}" in KEYED:
        key = f"{key}{SIDE_MARK}{side}"
    english = KEYED.get(key)
    if english is None:
        return key
    if isinstance(english, tuple):
        n = values.get("n")
        count = n if isinstance(n, int) else 1
        text = npgettext(lang, key, english[0], english[1], count)
    else:
        text = pgettext(lang, key, english)
    return text.format(**values) if values else text


def _forms(lang: str, key: str, english: English) -> str | list[str]:
    """A word in ``lang`` as the browser gets it: its text, or its plural forms."""
    if isinstance(english, tuple):  # our catalogues' plurals: n = 1, then n = 2 (two forms)
        return [npgettext(lang, key, english[0], english[1], n) for n in (1, 2)]
    return pgettext(lang, key, english)


@functools.cache
def _texts(lang: str, table: str) -> dict[str, str | list[str]]:
    words = PAGE_WORDS if table == "page" else ANALYSIS
    return {key: _forms(lang, key, english) for key, english in words.items()}


def texts(lang: str) -> dict[str, str | list[str]]:
    """Every page word in ``lang``, for the browser (the page's JSON data)."""
    return _texts(lang, "page")


def analysis_texts(lang: str) -> dict[str, str | list[str]]:
    """The analysis's words in ``lang``, for the browser's module."""
    return _texts(lang, "analysis")


def analysis_module() -> str:
    """The analysis's words as an ES module for the browser (``/analysis/words.js``):
    ``w(key, values)`` in the page's language."""
    data = json.dumps({lang: analysis_texts(lang) for lang in LANGUAGES}, ensure_ascii=False,
                      separators=(",", ":"))  # fmt: skip
    return (
        "// The analysis's words (ludotheque/server/i18n/analysis_words.py): w(key, values).\n"
        'import { pick } from "/static/i18n.js";\n'
        f"export const WORDS = {data};\n"
        "const lang = () =>\n"
        '  (document.documentElement.lang in WORDS ? document.documentElement.lang : "en");\n'
        "export function w(key, values = {}) {\n"
        "  return pick(WORDS[lang()], key, values);\n"
        "}\n"
    )


def format_day(lang: str, day: date | datetime) -> str:
    """A date as people of ``lang`` write it (5 Dec 2026; 5 déc. 2026)."""
    return format_date(day, format="medium", locale=lang)


def format_ago(lang: str, moment: datetime, now: datetime) -> str:
    """When something happened, as ``lang`` says it: how long ago within a day (3 hours
    ago; il y a 3 heures), else its date."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    ago = now - moment
    if timedelta(0) <= ago < timedelta(days=1):  # (this very second: "1 second ago")
        return format_timedelta(-max(ago, timedelta(seconds=1)), add_direction=True, locale=lang)
    return format_day(lang, moment)


def format_moment(lang: str, moment: datetime) -> str:
    """A date and time as people of ``lang`` write it."""
    return format_datetime(moment, format="medium", locale=lang)


def format_number(lang: str, number: Any) -> str:
    """A number as people of ``lang`` write it (1,500.5; 1 500,5)."""
    return format_decimal(number, locale=lang)
