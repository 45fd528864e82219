"""The server's structure holds: feature packages over a small common layer, no import cycle,
no import hidden inside a function, no module much over 600 lines."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "ludotheque" / "server"
PACKAGE = "ludotheque.server"
COMMON = {"errors", "settings", "metrics", "i18n"}
"""The common layer (modules, and the i18n package): they import nothing of the server but
each other."""
LONGEST = 650
OPTIONAL = {"psycopg", "prometheus_client.multiprocess", "gnubg", "numba"}
"""Third-party modules imported where they are needed: optional at install, or heavy."""


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SERVER.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        rel = path.relative_to(SERVER).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        yield ".".join([PACKAGE, *parts]), path


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str, path: Path) -> tuple[set[str], list[str]]:
    """The server modules ``module`` imports at its top level (``TYPE_CHECKING`` blocks
    left out), and the imports it makes inside functions."""
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    inside: list[str] = []
    known = {m for m, _ in modules()}

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = _absolute(module, is_package, node)
        out = []
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.append(sub if sub in known else base)
        return out

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in targets(child):
                    if in_function:
                        if target.split(".")[0] != "ludotheque" and any(
                            target == o or target.startswith(o + ".") for o in OPTIONAL
                        ):
                            continue
                        inside.append(f"{path.relative_to(SERVER)}:{child.lineno} {target}")
                    elif target.startswith(PACKAGE + ".") or target == PACKAGE:
                        found.add(target)
            is_function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or is_function)

    visit(tree, False)
    return found, inside


def graph() -> dict[str, set[str]]:
    return {m: imports(m, p)[0] for m, p in modules()}


def test_no_import_is_hidden_inside_a_function() -> None:
    hidden = [line for m, p in modules() for line in imports(m, p)[1]]
    assert not hidden, "imports inside functions:\n" + "\n".join(hidden)


def test_no_import_cycle_between_server_modules() -> None:
    edges = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in edges:
                continue
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles[:10])


def test_the_common_layer_imports_nothing_above_it() -> None:
    for module, path in modules():
        name = module.removeprefix(PACKAGE + ".")
        if name.split(".")[0] not in COMMON:
            continue
        above = {
            t for t in imports(module, path)[0]
            if t.removeprefix(PACKAGE + ".").split(".")[0] not in COMMON
        }  # fmt: skip
        assert not above, f"{name} imports {sorted(above)}"


def test_no_module_is_much_over_600_lines() -> None:
    long = {
        str(p.relative_to(SERVER)): n
        for _, p in modules()
        if (n := len(p.read_text().splitlines())) > LONGEST
    }
    assert not long, f"modules over {LONGEST} lines: {long}"
