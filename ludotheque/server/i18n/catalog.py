"""The catalogues of the app's words: gettext ``.po`` files, read with Babel.

Every word is written in English where it is used: a message raised in the code (``say``,
``say_n``), a word of the pages and scripts (``words.word``, its key as gettext's context), an
engine's refusal (its code as the context). ``locale/<lang>/LC_MESSAGES/ludotheque.po`` holds
each language's translation; ``python -m ludotheque.server.i18n.extract`` brings the template
(``ludotheque.pot``) and the catalogues up to date with the code (a test checks they are).
English needs no catalogue: its words are the messages themselves, and its plurals are
gettext's own (one, other).

The ``.po`` files are read once per process, through Babel's reader and compiled in memory
(no ``.mo`` file to build or ship), into ``babel.support.Translations``.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LANGUAGES = ("en", "fr")
"""The languages the pages speak; the first is the one messages are written in."""
DOMAIN = "ludotheque"
LOCALES = Path(__file__).parent / "locale"


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The translations of ``lang`` (English, or a language without a catalogue: the
    messages as written)."""
    path = po_path(lang)
    if lang == LANGUAGES[0] or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def gettext(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


def pgettext(lang: str, context: str, message: str) -> str:
    return str(translations(lang).pgettext(context, message))


def npgettext(lang: str, context: str, singular: str, plural: str, n: int) -> str:
    return str(translations(lang).npgettext(context, singular, plural, n))
