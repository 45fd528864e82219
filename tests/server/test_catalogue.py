"""The words of the server in gettext catalogues: complete, up to date with the code, with the
same blanks in every language; plurals, sides' grammar, language negotiation and dates."""

from __future__ import annotations

import re
import string
from datetime import datetime

import pytest
from babel.messages.pofile import read_po

from ludotheque.server.errors import say, say_n
from ludotheque.server.i18n import extract
from ludotheque.server.i18n.catalog import LANGUAGES, po_path
from ludotheque.server.i18n.languages import format_day, pick_language, translate


def blanks(text: str) -> list[str]:
    """The names a message's blanks take: ``{name}`` (the code's) or ``%(name)s`` (Jinja2's)."""
    braces = [name for _, name, _, _ in string.Formatter().parse(text) if name]
    return sorted({*braces, *re.findall(r"%\((\w+)\)s", text)})


def test_the_catalogues_are_complete_and_up_to_date_with_the_code() -> None:
    """What ``python -m ludotheque.server.i18n.extract`` would change: nothing; no message
    without its French."""
    assert extract.main(["--check"]) == 0


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_translation_keeps_the_blanks_of_its_message(lang: str) -> None:
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        want = blanks(ids[-1])
        wrong += [(message.context, ids[0], s) for s in strings if s and blanks(s) != want]
        assert all(strings), (message.context, message.id)
    assert not wrong, wrong[:10]


def test_sides_are_written_with_each_language_s_grammar() -> None:
    assert translate("en", "play.you_are", side="black") == "You play Black"
    assert translate("fr", "play.you_are", side="black") == "Vous jouez les Noirs"
    assert translate("en", "clock.left", side="general") == "The General's player left the game."
    assert translate("en", "clock.label", side="rebels", time="1:00") == "The Rebels' clock: 1:00"
    assert translate("fr", "clock.label", side="imperium", time="1:00").startswith(
        "Pendule de l’Imperium"
    )
    assert translate("fr", "play.to_move", side="general") == "Au Général de jouer"


def test_counted_words_take_each_language_s_plural() -> None:
    assert translate("en", "chat.muted_count", n=1) == "1 muted message."
    assert translate("en", "chat.muted_count", n=0) == "0 muted messages."
    assert translate("fr", "chat.muted_count", n=0) == "0 message masqué."
    assert translate("fr", "chat.muted_count", n=3) == "3 messages masqués."
    assert say_n("{n} point", "{n} points", 2)("en") == "2 points"
    assert say("there is no such game")("fr") == "cette partie n’existe pas"


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("fr;q=0.1, en;q=0.9", "en"),
        ("en-US,en;q=0.9,fr;q=0.8", "en"),
        ("fr-FR,fr;q=0.9", "fr"),
        ("de-DE, fr;q=0.5", "fr"),
        ("de, es", "en"),
        ("fr;q=0, en;q=0.2", "en"),
        ("", "en"),
        ("*", "en"),
        ("fr;q=abc, en;q=0.5", "en"),
    ],
)
def test_accept_language_is_read_by_its_q_values(header: str, chosen: str) -> None:
    assert pick_language(None, header) == chosen
    assert pick_language("fr", header) == "fr"  # the page's switch wins


def test_dates_are_written_as_each_language_writes_them() -> None:
    day = datetime(2026, 12, 5, 14, 30)
    assert format_day("en", day) == "Dec 5, 2026"
    assert format_day("fr", day) == "5 déc. 2026"
