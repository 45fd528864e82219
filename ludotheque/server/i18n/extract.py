"""Bring the catalogues up to date with the code: ``python -m ludotheque.server.i18n.extract``.

Babel extracts every message the server can show: ``say`` and ``say_n`` calls and the
``word`` tables (their key as context) in the Python, the Jinja2 templates' ``_``,
``gettext`` and ``{% trans %}``, and the engines' refusals (their code as context, from
``ludotheque.messages``). The template ``ludotheque.pot`` is written, and each language's
``.po`` file is updated from it: new messages come in untranslated, gone ones are dropped, and
nothing is guessed (no fuzzy matching). ``--check`` writes nothing and fails when a catalogue
is not up to date or a message has no translation (the tests run it).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from ...games.backgammon.notation import WHY
from ...messages import catalogue
from .catalog import DOMAIN, LANGUAGES, LOCALES, po_path

SERVER = Path(__file__).resolve().parents[1]
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {
    "say": None,
    "say_n": (1, 2),
    "word": ((1, "c"), 2),
    "word_n": ((1, "c"), 2, 3),
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
}
METHODS = [
    ("**/migrations/**", "ignore"),
    ("**.py", "python"),
    ("**/templates/**.html", "jinja2.ext:babel_extract"),
]
WIDTH = 100
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
"""gettext's classic plural rule for French (CLDR's three forms are more than our words need)."""


def engine_messages() -> Iterator[tuple[str, str, str]]:
    """The engines' refusals (their code as context) and backgammon's reasons a single move
    cannot be played (``why:<kind>``): (context, English template, where)."""
    for entry in catalogue():
        yield entry.code, entry.template, f"ludotheque ({entry.error})"
    for kind, template in WHY.items():
        yield f"why:{kind}", template, "ludotheque/games/backgammon/notation.py"


def template() -> Catalog:
    """Every message of the code, as a gettext template."""
    catalog = Catalog(project="Ludothèque", version="1", domain=DOMAIN, fuzzy=False,
                      copyright_holder="Ludothèque developers", charset="utf-8")  # fmt: skip
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    for filename, lineno, message, comments, context in extract_from_dir(
        SERVER, METHODS, options, KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        place = (f"ludotheque/server/{filename}", lineno)
        catalog.add(message, None, [place], auto_comments=comments, context=context)
    for code, text, source in engine_messages():
        catalog.add(text, None, [(source, 0)], context=code)
    return catalog


def updated(lang: str, pot: Catalog) -> Catalog:
    """``lang``'s catalogue brought up to ``pot``: translations kept, gone messages dropped."""
    with po_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    catalog.update(pot, no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    if lang in PLURAL_FORMS:  # the header's rule, whatever Babel's locale data say
        catalog._num_plurals, catalog._plural_expr = 2, "(n > 1)"  # type: ignore[assignment]
    return catalog


def text_of(catalog: Catalog, *, template: bool = False) -> bytes:
    out = io.BytesIO()
    # no line numbers in the references: a catalogue changes when its messages do, not when
    # the code around them moves
    write_po(out, catalog, width=WIDTH, omit_header=False, sort_output=False,
             ignore_obsolete=True, include_previous=False, include_lineno=False)  # fmt: skip
    del template
    return out.getvalue()


def untranslated(catalog: Catalog) -> list[str]:
    """The messages of ``catalog`` without a translation (or marked fuzzy)."""
    missing = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple | list) else [message.string]
        if message.fuzzy or not all(strings):
            missing.append(f"{message.context or ''}|{message.id!r}")
    return missing


def _body(data: bytes) -> bytes:
    """A catalogue without its header's dates (they change on every run)."""
    dated = (b'"POT-Creation-Date', b'"PO-Revision-Date', b'"Generated-By')
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith(dated))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail if stale")
    args = parser.parse_args(argv)
    pot = template()
    problems: list[str] = []
    outputs = {TEMPLATE: text_of(pot, template=True)}
    for lang in LANGUAGES[1:]:
        catalog = updated(lang, pot)
        outputs[po_path(lang)] = text_of(catalog)
        problems += [f"{lang}: no translation for {m}" for m in untranslated(catalog)]
    for path, data in outputs.items():
        old = path.read_bytes() if path.exists() else b""
        if _body(old) != _body(data):
            if args.check:
                problems.append(f"{path.relative_to(SERVER.parent.parent)} is not up to date")
            else:
                path.write_bytes(data)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
