"""``pyproject.toml`` declares what the code imports: every third-party module the package (or its
test suite) imports belongs to a declared distribution, and what a module imports as it is
imported is a runtime dependency, or the extra that ``[tool.ludotheque.extra-modules]`` says the
module needs. A module may import an extra's package lazily (inside a function, or guarded by
``except ImportError``); the floors of the declared versions are checked by
``tools/check_floors.py``."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ludotheque"

ALIASES = {"argon2": "argon2-cffi", "pyspiel": "open-spiel", "yaml": "pyyaml"}
"""Import names whose distribution has another name, for when it is not installed here (when it
is, its own metadata says)."""


def normalize(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def requirement_name(line: str) -> tuple[str, list[str]]:
    """The distribution a requirement names (normalized) and the extras it asks for."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?", line)
    assert match is not None, line
    extras = [e.strip() for e in (match.group(2) or "").split(",") if e.strip()]
    return normalize(match.group(1)), extras


@cache
def declared() -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """The runtime dependencies, and each extra's (with the extras it includes of the project's
    own, as ``dev`` includes ``ludotheque[reference,...]``)."""
    table = pyproject()["project"]
    own = normalize(table["name"])
    runtime = frozenset(requirement_name(line)[0] for line in table["dependencies"])
    optional: dict[str, list[str]] = table["optional-dependencies"]

    def closure(extra: str, seen: frozenset[str] = frozenset()) -> frozenset[str]:
        names: set[str] = set()
        for line in optional[extra]:
            name, extras = requirement_name(line)
            if name != own:
                names.add(name)
                continue
            for included in extras:
                assert included not in seen, f"the extra {included!r} includes itself"
                names |= closure(included, seen | {extra})
        return frozenset(names)

    return runtime, {extra: closure(extra) for extra in optional}


def extra_modules() -> dict[str, str]:
    return dict(pyproject()["tool"]["ludotheque"]["extra-modules"])


@dataclass(frozen=True)
class Import:
    """A third-party import: where it is, the top-level module, and when it runs: ``import``
    (as its module is imported), ``optional`` (then too, but ``except ImportError`` catches its
    absence), ``lazy`` (inside a function) or ``typing`` (under ``if TYPE_CHECKING``)."""

    path: Path
    line: int
    top: str
    when: str

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _catches_import_error(handlers: Sequence[ast.excepthandler]) -> bool:
    caught = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    for handler in handlers:
        assert isinstance(handler, ast.ExceptHandler)
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if handler.type is None or any(isinstance(k, ast.Name) and k.id in caught for k in kinds):
            return True
    return False


def _imports(node: ast.AST, when: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement under ``node``, with when it runs."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, when
        return
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        when = "lazy" if when in ("import", "optional") else when
    elif isinstance(node, ast.If) and _type_checking(node.test):
        for statement in node.body:
            yield from _imports(statement, "typing")
        for statement in node.orelse:
            yield from _imports(statement, when)
        return
    elif isinstance(node, ast.Try | ast.TryStar) and _catches_import_error(node.handlers):
        for statement in node.body:
            yield from _imports(statement, "optional" if when == "import" else when)
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            yield from _imports(part, when)
        return
    for child in ast.iter_child_nodes(node):
        yield from _imports(child, when)


def third_party_imports(path: Path, local: frozenset[str] = frozenset()) -> list[Import]:
    """The imports in ``path`` of modules neither of the standard library, nor of this project
    (``ludotheque``, ``tests``, ``local``), nor relative."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node, when in _imports(tree, "import"):
        if isinstance(node, ast.ImportFrom):
            if node.level or node.module is None:
                continue
            names = [node.module]
        else:
            names = [alias.name for alias in node.names]
        for name in names:
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names or top in {"__future__", "ludotheque", "tests"}:
                continue
            if top not in local:
                found.append(Import(path, node.lineno, top, when))
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def installed_distributions() -> Mapping[str, list[str]]:
    return packages_distributions()


def distributions(top: str) -> set[str]:
    """The distributions that install the top-level module ``top`` (normalized)."""
    installed = installed_distributions().get(top)
    if installed:
        return {normalize(name) for name in installed}
    return {normalize(ALIASES.get(top, top))}


def package_imports() -> list[Import]:
    return [i for path in sorted(PACKAGE.rglob("*.py")) for i in third_party_imports(path)]


def test_the_scan_sees_the_imports_it_should() -> None:
    """The scan itself: a known import at import time, a lazy one, a guarded one."""
    by_module = {(module_name(i.path), i.top): i.when for i in package_imports()}
    assert by_module[("ludotheque.server.web.pages", "jinja2")] == "import"
    assert by_module[("ludotheque.solve.kernels", "numba")] == "optional"
    assert by_module[("ludotheque.server.store.bus", "psycopg")] == "lazy"
    assert by_module[("ludotheque.envs.openspiel", "pyspiel")] == "import"


def test_every_third_party_import_of_the_package_is_declared() -> None:
    runtime, extras = declared()
    everything = runtime.union(*extras.values())
    undeclared = [
        f"{i.where()} imports {i.top} ({' or '.join(sorted(distributions(i.top)))})"
        for i in package_imports()
        if not distributions(i.top) & everything
    ]
    assert not undeclared, (
        "not declared in pyproject.toml (neither a runtime dependency nor in an extra):\n"
        + "\n".join(undeclared)
    )


def test_what_a_module_imports_when_imported_is_a_runtime_dependency_or_its_extra() -> None:
    """``pip install ludotheque`` (no extra) imports every module but those of
    ``[tool.ludotheque.extra-modules]``; a module that needs an extra's package elsewhere imports
    it where it uses it."""
    runtime, extras = declared()
    needs = extra_modules()
    wrong = []
    for i in package_imports():
        if i.when != "import":
            continue
        extra = needs.get(module_name(i.path))
        allowed = runtime | extras[extra] if extra else runtime
        if not distributions(i.top) & allowed:
            owners = sorted(e for e, names in extras.items() if distributions(i.top) & names)
            wrong.append(
                f"{i.where()} imports {i.top} at import time: a runtime dependency, an import "
                f"inside the function that uses it, or the module in "
                f"[tool.ludotheque.extra-modules] (the extras that have it: {owners})"
            )
    assert not wrong, "\n".join(wrong)


def test_the_extra_modules_are_modules_and_their_extras_exist() -> None:
    _, extras = declared()
    for module, extra in extra_modules().items():
        path = ROOT / Path(*module.split("."))
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), module
        assert extra in extras, (module, extra)


def test_the_dev_extra_holds_every_other_extra() -> None:
    """``pip install -e '.[dev]'`` (the README's test command) installs everything."""
    _, extras = declared()
    for extra, names in extras.items():
        assert names <= extras["dev"], f"dev lacks {sorted(names - extras['dev'])} of {extra}"


@pytest.mark.parametrize("tree", ["tests", "tools"])
def test_the_tests_and_tools_import_only_declared_packages(tree: str) -> None:
    """What ``pip install -e '.[dev]'`` installs is enough for the test suite and the tools."""
    runtime, extras = declared()
    build = {requirement_name(line)[0] for line in pyproject()["build-system"]["requires"]}
    everything = runtime.union(*extras.values(), build)
    undeclared = []
    for path in sorted((ROOT / tree).rglob("*.py")):
        siblings = frozenset(p.stem for p in path.parent.glob("*.py")) | frozenset(
            p.name for p in path.parent.iterdir() if (p / "__init__.py").is_file()
        )
        for i in third_party_imports(path, siblings):
            if not distributions(i.top) & everything:
                undeclared.append(f"{i.where()} imports {i.top}")
    assert not undeclared, "not in the dev extra:\n" + "\n".join(undeclared)
