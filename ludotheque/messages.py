"""The catalogue of the engines' refusals: every code, with its English template and class.

Every ``IllegalMove`` and ``InvalidPosition`` (and their subclasses) that the package raises
carries a stable ``code``, its English ``template`` and the ``params`` it is filled with (see
``core.Refusal``). This module reads the package's own sources (their syntax trees, not their
behaviour) and lists each code with its template, so that a translator can put every message
into another language without ever parsing the English: the web server builds its French from
``catalogue()``, and the tests check that no raise is left out of it.

A raise site is a call of one of the refusal classes by name (or of a parameter annotated with
them, as ``read_number``'s ``error``); each must pass its template as a string literal and its
``code=`` as a string literal. The server's own package is not read: it translates, it does not
refuse moves.

>>> by_code = {m.code: m for m in catalogue()}
>>> by_code["occupied"].template
'{place} is occupied'
>>> by_code["occupied"].error.__name__
'IllegalMove'
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from . import core
from . import record as _record  # noqa: F401  (its ``InvalidRecord`` is a refusal class too)

PACKAGE = Path(__file__).resolve().parent
"""The package whose sources are read."""

SKIPPED = ("server",)
"""What is not read: the web server translates refusals and raises none."""


class Message(NamedTuple):
    """One message an engine may raise: its ``code``, English ``template`` and class."""

    code: str
    template: str
    error: type[core.Refusal]


class Site(NamedTuple):
    """One raise site in the sources, as read: ``code`` and ``template`` are ``None`` when the
    call does not pass them as literals; ``params`` names its keyword values (``None`` when
    some come from a ``**mapping``, which the reading cannot name)."""

    path: str
    line: int
    errors: tuple[type[core.Refusal], ...]
    code: str | None
    template: str | None
    params: tuple[str, ...] | None


def _refusal_classes() -> dict[str, type[core.Refusal]]:
    """The refusal classes of ``core`` by name (``Refusal`` and every subclass)."""
    found: dict[str, type[core.Refusal]] = {}
    pending: list[type[core.Refusal]] = [core.Refusal]
    while pending:
        cls = pending.pop()
        found[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    return found


def _callee(node: ast.Call) -> str | None:
    """The name a call calls: ``IllegalMove`` for ``IllegalMove(…)`` or ``core.IllegalMove(…)``."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _parameter_errors(
    function: ast.FunctionDef | ast.AsyncFunctionDef, classes: dict[str, type[core.Refusal]]
) -> dict[str, tuple[type[core.Refusal], ...]]:
    """The parameters of ``function`` annotated with refusal classes (``error: type[InvalidMove]
    | type[InvalidPosition]``), with the classes each may be."""
    out: dict[str, tuple[type[core.Refusal], ...]] = {}
    arguments = function.args
    for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if arg.annotation is None:
            continue
        names = re.findall(r"\w+", ast.unparse(arg.annotation))
        # (``type[Refusal]`` alone rebuilds a pickled refusal of any class: ``core._restore``)
        errors = tuple(classes[n] for n in names if n in classes and n != "Refusal")
        if errors:
            out[arg.arg] = errors
    return out


def _site(path: str, node: ast.Call, errors: tuple[type[core.Refusal], ...]) -> Site:
    """The site of one call of a refusal class: its literal template and code, if literal."""
    template = None
    if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        template = node.args[0].value
    code = None
    params: list[str] | None = []
    for keyword in node.keywords:
        if keyword.arg is None:
            params = None
        elif keyword.arg == "code":
            if isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
                code = keyword.value.value
        elif params is not None:
            params.append(keyword.arg)
    return Site(
        path, node.lineno, errors, code, template, None if params is None else tuple(params)
    )


def read_sites(path: Path, root: Path = PACKAGE) -> list[Site]:
    """The raise sites of one source file (``path`` named relative to ``root``)."""
    classes = _refusal_classes()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = path.relative_to(root).as_posix()
    sites: dict[int, Site] = {}
    # the module first, then each function with its own parameters (inner functions last, so
    # that a parameter's meaning is the innermost one's)
    scopes: list[tuple[ast.AST, dict[str, tuple[type[core.Refusal], ...]]]] = [(tree, {})]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scopes.append((node, _parameter_errors(node, classes)))
    for scope, parameters in scopes:
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call):
                continue
            callee = _callee(node)
            if callee in parameters:
                sites[id(node)] = _site(name, node, parameters[callee])
            elif callee in classes and id(node) not in sites:
                sites[id(node)] = _site(name, node, (classes[callee],))
    return sorted(sites.values(), key=lambda s: s.line)


def source_files(root: Path = PACKAGE) -> list[Path]:
    """The package's Python sources that may raise refusals (all but ``SKIPPED``)."""
    return [
        path
        for path in sorted(root.rglob("*.py"))
        if path.relative_to(root).parts[0] not in SKIPPED
    ]


@cache
def raise_sites() -> tuple[Site, ...]:
    """Every raise site of a refusal in the package, in file and line order."""
    return tuple(site for path in source_files() for site in read_sites(path))


@cache
def catalogue() -> tuple[Message, ...]:
    """Every ``(code, template, error class)`` the package raises, sorted by code then class
    name; a code raised by two classes (``read_number``'s, for moves and positions) comes once
    for each. Sites without a literal code and template are left out (the tests refuse them).
    """
    found = {
        Message(site.code, site.template, error)
        for site in raise_sites()
        if site.code is not None and site.template is not None
        for error in site.errors
    }
    return tuple(sorted(found, key=lambda m: (m.code, m.error.__name__)))


__all__ = ["Message", "Site", "catalogue", "raise_sites", "read_sites", "source_files"]
