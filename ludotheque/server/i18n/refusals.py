"""The engines' refusals in the reader's language, found by their code.

An engine refuses with ``IllegalMove`` or ``InvalidPosition`` carrying a stable ``code``, the
English ``template`` and its ``params`` (see ``ludotheque.core`` and ``ludotheque.messages``).
The catalogue holds each template's translation with the code as its context, extracted with
every other message (``extract``). A translation writes ``{name}`` where the template does
(``{sides[0]}`` too), optionally with a form that French grammar needs:

- ``{name}``: the value as the English shows it, in French: a quoted string (a ``repr``)
  between « », an engine's word (a side, the reason a game ends) as the pages name it;
- ``{name:le}``, ``{name:de}``, ``{name:a}``: a side with its article (« les rebelles », « de
  l’Imperium », « au général »); ``{name:result}``: « victoire des blancs » or « partie nulle »;
  ``{name:point}``: a backgammon point (« la flèche 13 », « la barre »);
- ``{name:or}``, ``{name:list}``: a list as the English wrote it, joined the French way;
- ``{name:type}``: a Python type's name; ``{name:where}``: « un coup », « une position »;
  ``{name:xgid}``: the name of an XGID's field.

A refusal whose code the catalogue does not know (a bare ``IllegalMove("…")`` from code outside
the engines) is shown in English behind a French lead-in.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .catalog import pgettext
from .languages import KEYED, translate

NNBSP = "\u202f"
_SIDES = ("rebels", "general", "white", "black", "imperium")
_PLURAL = {"rebels", "white", "black"}
_PROPER = {"imperium"}  # a name: it keeps its capital (« l’Imperium »)
_FORMATTER = string.Formatter()
_FIELD = re.compile(r"\{([\w.\[\]]+)(?::(\w+))?\}")


def typeset(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    for plain, fine in ((" :", ":"), (" ;", ";"), (" ?", "?"), (" !", "!")):
        text = text.replace(plain, NNBSP + fine)
    return text.replace("« ", "«" + NNBSP).replace(" »", NNBSP + "»")


def quoted(text: str) -> str:
    return f"«{NNBSP}{text}{NNBSP}»"


def _literal(value: str) -> str | None:
    """The string a Python string literal (a ``repr``) writes, else ``None``."""
    if len(value) < 2 or value[0] not in "'\"" or value[-1] != value[0]:
        return None
    try:
        text = ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return text if isinstance(text, str) else None


def _side_noun(side: str) -> str:
    noun = translate("fr", f"side.{side}")
    return noun if side in _PROPER else noun.lower()


def _with_article(side: str, form: str) -> str:
    """A side's name with its article: ``form`` is ``le`` (« les blancs »), ``de`` (« du
    général ») or ``a`` (« à l’Imperium »)."""
    noun = _side_noun(side)
    if side in _PLURAL:
        article = {"le": "les ", "de": "des ", "a": "aux "}[form]
    elif noun[:1].lower() in "aeéèêiîoôuh":
        article = {"le": "l’", "de": "de l’", "a": "à l’"}[form]
    else:
        article = {"le": "le ", "de": "du ", "a": "au "}[form]
    return article + noun


def _words() -> dict[str, str]:
    """The engines' words that the pages already name: sides, the reasons a game ends."""
    words = {side: _side_noun(side) for side in _SIDES}
    words["draw"] = translate("fr", "play.result.draw").lower()
    for key in KEYED:
        if key.startswith("reason."):
            words[key.removeprefix("reason.")] = translate("fr", key)
    return words


WORDS = _words()
TYPES = {
    "int": "nombre entier", "float": "nombre", "bool": "booléen", "str": "texte",
    "bytes": "octets", "list": "liste", "tuple": "n-uplet", "dict": "objet",
    "set": "ensemble", "NoneType": "rien",
}  # fmt: skip
"""French names of the types the engines name (``42 (int)``)."""
WHERE = {"move": "un coup", "position": "une position"}
XGID_FIELDS = {
    "cube": "le videau", "cube position": "la place du videau", "score": "le score",
    "Crawford/Jacoby field": "le champ Crawford/Jacoby", "match length": "la longueur du match",
}  # fmt: skip
_POINTS = {"bar": "la barre", "off": "la sortie"}


def value_in_french(value: str) -> str:
    """A value as the English wrote it, in French: quoted text, an engine's word."""
    text = _literal(value)
    if text is not None:
        return quoted(text)
    return WORDS.get(value, value)


def _side_form(form: str) -> Callable[[str], str]:
    return lambda value: _with_article(value, form) if value in _SIDES else value_in_french(value)


def _result(value: str) -> str:
    if value in _SIDES:
        return "victoire " + _with_article(value, "de")
    return value_in_french(value)


def _alternatives(value: str) -> str:
    if " or the " in value:
        return " ou le ".join(value_in_french(v) for v in value.split(" or the "))
    return " ou ".join(value_in_french(v) for v in value.split(" or "))


FORMS: dict[str, Callable[[str], str]] = {
    "": value_in_french,
    "le": _side_form("le"),
    "de": _side_form("de"),
    "a": _side_form("a"),
    "result": _result,
    "point": lambda value: _POINTS.get(value) or f"la flèche {value}",
    "or": _alternatives,
    "list": lambda value: ", ".join(value_in_french(v) for v in value.split(", ")),
    "type": lambda value: TYPES.get(value, value),
    "where": lambda value: WHERE.get(value, value),
    "xgid": lambda value: XGID_FIELDS.get(value, value),
}
"""How a value goes into a translation, by the ``:form`` after its name."""


def english_values(template: str, params: dict[str, Any]) -> dict[str, str]:
    """Each placeholder of ``template`` (its field, as ``sides[0]``) as the English writes
    it, conversion included: what a translation's forms start from."""
    values = {}
    for _, field, _, conversion in _FORMATTER.parse(template):
        if field:
            mark = f"!{conversion}" if conversion else ""
            values[field] = _FORMATTER.format("{" + field + mark + "}", **params)
    return values


def fill(translation: str, template: str, params: dict[str, Any]) -> str:
    """``translation`` with its placeholders filled from ``params`` (see the module's note)."""
    values = english_values(template, params)
    return _FIELD.sub(lambda m: FORMS[m[2] or ""](values[m[1]]), translation)


@dataclass(frozen=True)
class Refused:
    """An engine's refusal as the pages show it: callable with a language, as ``errors.Text``."""

    code: str
    template: str
    params: dict[str, Any]
    message: str  # the engine's English, whole
    nested: Refused | None = None  # the refusal its ``reason`` quotes (a record's bad move)

    def __call__(self, lang: str = "en") -> str:
        if lang == "en":
            return self.message
        translation = pgettext(lang, self.code, self.template)
        if translation == self.template:  # not in the catalogue: the English, introduced
            return typeset(f"refusé par les règles : {self.message}")
        quoted = self.nested(lang) if self.nested and "reason" in self.params else None
        params = self.params if quoted is None else {**self.params, "reason": _HOLE}
        try:
            said = fill(translation, self.template, params)
        except (KeyError, IndexError, ValueError):  # a translation naming what is not there
            return self.message
        return said if quoted is None else said.replace(_HOLE, quoted)


_HOLE = "\x00"
"""Where a quoted refusal goes, once the outer one is filled (no engine's text holds it)."""


def refused(exc: Exception) -> Refused:
    """The refusal of an engine's error (``IllegalMove``, ``InvalidPosition``), or of any
    ``ValueError`` an engine raised (shown in English behind a French lead-in); a record's
    refusal that quotes another (``InvalidRecord.inner``) says that one in the page's language
    too."""
    message = str(exc) or "this is not allowed by the rules"
    code = getattr(exc, "code", "illegal")
    template = getattr(exc, "template", None)
    params = getattr(exc, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return Refused("illegal", message.replace("{", "{{").replace("}", "}}"), {}, message)
    inner = getattr(exc, "inner", None)
    nested = refused(inner) if isinstance(inner, Exception) else None
    return Refused(str(code), template, dict(params), message, nested)


def reason_in(lang: str, kind: str, template: str, values: dict[str, Any]) -> str:
    """One of backgammon's reasons a single move cannot be played (``notation.WHY``)."""
    translation = pgettext(lang, f"why:{kind}", template)
    if lang == "en" or translation == template:
        return template.format(**values)
    return fill(translation, template, values)


__all__ = ["NNBSP", "Refused", "fill", "reason_in", "refused", "typeset", "value_in_french"]
