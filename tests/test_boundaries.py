"""The games' boundaries hold: nothing outside a game's package reads its states' private
attributes or imports its private names (the states offer ``parts``, ``from_parts`` and the
other public accessors instead); inside a game's package, no module imports another inside a
function, and no import cycle joins its modules; the record package's modules stay short."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from ludotheque.games.backgammon import BackgammonState
from ludotheque.games.defiance import DefianceState
from ludotheque.games.general import GeneralState

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ludotheque"
GAMES = PACKAGE / "games"
STATES = (GeneralState, BackgammonState, DefianceState)
OUTSIDE = [PACKAGE, ROOT / "bench", ROOT / "tools", ROOT / "examples"]
"""Where code outside the games lives (the tests are white-box: they may look inside)."""
ALLOWED: set[str] = set()
"""``path:line name`` of private reads allowed outside a game's package, each with its reason
(none today)."""
LAZY = {"backgammon/__init__.py .evaluation"}
"""Imports inside a function of a game's package, each with its reason: backgammon's evaluation
loads numpy and the network, on first use only (the rules and the server's pages do without)."""
LONGEST = 600


def private_state_names() -> set[str]:
    """The private attributes of the games' states: their slots and methods (``_white``,
    ``_side``, ``_mid_board``, …), from every class of their games that they inherit."""
    names: set[str] = set()
    for state in STATES:
        for cls in state.__mro__:
            if cls.__module__.startswith("ludotheque.games."):
                names.update(n for n in vars(cls) if n.startswith("_") and not n.endswith("__"))
    return names


def python_files(folder: Path) -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(p for p in folder.rglob("*.py") if "migrations" not in p.parts)


def private_reads(tree: ast.AST, private: set[str]) -> Iterator[tuple[int, str]]:
    """``(line, name)`` of each read of a name of ``private`` on another object than ``self``
    or ``cls`` (``state._side``, ``getattr(state, "_side")``), and of each private name
    imported from a game's package (``from ..games.general.rules import _make``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super":
                continue
            yield node.lineno, node.attr
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            name = node.args[1]
            function = ast.unparse(node.func).split(".")[-1].strip("_")  # object.__setattr__
            if (
                function in ("getattr", "setattr", "delattr", "hasattr")
                and isinstance(name, ast.Constant)
                and name.value in private
            ):
                yield node.lineno, str(name.value)
        elif isinstance(node, ast.ImportFrom) and "games." in f"{'.' * node.level}{node.module}":
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.endswith("__"):
                    yield node.lineno, alias.name


def test_the_state_classes_have_the_private_names_looked_for() -> None:
    names = private_state_names()
    assert {"_white", "_side", "_stakes", "_game", "_mid", "_mid_board", "_flight"} <= names
    tree = ast.parse(
        "from ludotheque.games.backgammon.rules import _make\n"
        "def f(state, env):\n"
        "    object.__setattr__(state, '_mid', state._mid_board(1))\n"
        "    return state._white, self._white, env.unwrapped, getattr(state, '_side')\n"
    )
    assert sorted(private_reads(tree, names)) == [
        (1, "_make"), (3, "_mid"), (3, "_mid_board"), (4, "_side"), (4, "_white"),
    ]  # fmt: skip


def test_no_module_outside_a_game_reads_its_states_private_attributes() -> None:
    private = private_state_names()
    found = []
    for folder in OUTSIDE:
        for path in python_files(folder):
            if GAMES in path.parents:
                continue
            for line, name in private_reads(ast.parse(path.read_text()), private):
                where = f"{path.relative_to(ROOT)}:{line} {name}"
                if where not in ALLOWED:
                    found.append(where)
    assert not found, "private state attributes read outside the games:\n" + "\n".join(found)


# -- inside a game's package ----------------------------------------------------------------


def game_modules() -> Iterator[tuple[str, Path]]:
    for path in python_files(GAMES):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        yield ".".join(["ludotheque", *parts]), path


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str, path: Path) -> tuple[set[str], list[str]]:
    """The package's modules that ``module`` imports at its top level (``TYPE_CHECKING``
    blocks left out), and the imports of the package's modules it makes inside functions
    (``path module``, relative to ``ludotheque/games``)."""
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    known = {m for m, _ in game_modules()}
    found: set[str] = set()
    inside: list[str] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = _absolute(module, is_package, node)
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in targets(child):
                    if target not in known:
                        continue
                    if in_function:
                        text = ast.unparse(child).split(" import ")[0].removeprefix("from ")
                        inside.append(f"{path.relative_to(GAMES)} {text}")
                    else:
                        found.add(target)
            is_function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or is_function)

    visit(tree, False)
    return found, inside


def test_no_import_of_a_games_module_is_hidden_inside_a_function() -> None:
    hidden = {line for m, p in game_modules() for line in imports(m, p)[1]}
    assert hidden == LAZY, "imports inside functions (not in LAZY):\n" + "\n".join(
        sorted(hidden - LAZY)
    )


def test_no_import_cycle_between_the_modules_of_a_game() -> None:
    edges = {m: imports(m, p)[0] for m, p in game_modules()}
    assert edges["ludotheque.games.backgammon.rules"] >= {
        "ludotheque.games.backgammon.notation",
        "ludotheque.games.backgammon.ids",
        "ludotheque.games.backgammon.turn",
        "ludotheque.games.backgammon.moves",
    }
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# -- the record package ---------------------------------------------------------------------


def test_the_record_modules_are_short() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in python_files(PACKAGE / "record")
        if (n := len(p.read_text().splitlines())) > LONGEST
    }
    assert not long, f"modules over {LONGEST} lines: {long}"
