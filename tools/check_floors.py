"""Check that the runtime dependencies' floors in ``pyproject.toml`` hold.

In a fresh virtual environment (under the system's temporary directory), install every runtime
dependency at exactly its floor (``name==floor``), then the package itself with ``--no-deps`` (a
regular, non-editable install: what ``pip install .`` ships) and the test tools, then:

1. import every module of the installed package, from outside the source tree; a module listed in
   ``[tool.ludotheque.extra-modules]`` may fail for want of its extra (it is reported as skipped),
   any other failure fails the check;
2. run a subset of the test suite that needs the runtime dependencies alone: the server (on
   SQLite; the PostgreSQL half is deselected), its API, pages, catalogue, a real ``serve`` process,
   and the engines. The tests run in the source tree (pytest puts it first on ``sys.path``), with
   the environment's packages.

Usage::

    python tools/check_floors.py                      # the floors of pyproject.toml
    python tools/check_floors.py --floor fastapi=0.140 # try another floor without editing it
    python tools/check_floors.py --extra postgresql   # also the extra's packages at their floors
    python tools/check_floors.py --keep               # keep the environment (its path is printed)

Exit status 0 when every step passed. The test tools (pytest, pytest-xdist, hypothesis, httpx2)
are installed at their newest versions: they are not what is checked. ``PIP_CONSTRAINT`` is
dropped from the environment (CI's constraints file would contradict the floors).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TEST_TOOLS = ("pytest", "pytest-xdist", "hypothesis", "httpx2")
"""What the tests need besides the runtime dependencies (from the ``dev`` extra, unpinned)."""

SMOKE_TESTS = (
    "tests/server/test_api.py",
    "tests/server/test_api_schema.py",
    "tests/server/test_hardening.py",
    "tests/server/test_pages.py",
    "tests/server/test_catalogue.py",
    "tests/server/test_serve_process.py",
    "tests/server/test_live.py",
    "tests/server/test_lobby.py",
    "tests/server/test_accounts.py",
    "tests/server/test_languages.py",
    "tests/server/test_operating.py",
    "tests/test_core.py",
    "tests/general",
)
"""Tests that need only the runtime dependencies: the server on SQLite (its routes, WebSockets,
pages, the API's schema, the word catalogues, a real ``ludotheque serve`` with uvicorn and
websockets, the lobby, accounts (Argon2), dates in each language (Babel), metrics and limits)
and the engines."""

SMOKE_DESELECT = (
    "not postgresql and not test_the_catalogues_are_complete_and_up_to_date_with_the_code"
)
"""The server tests are parametrized on ``sqlite`` and ``postgresql``: the second needs the
``postgresql`` extra and a database server. The catalogues' check compares their header, which
names the Babel that wrote them (``Generated-By``): it passes with that Babel only."""

IMPORT_ALL = r"""
import importlib, json, sys, traceback
from pathlib import Path

import ludotheque

root = Path(ludotheque.__file__).resolve().parent
names = []
for path in sorted(root.rglob("*.py")):
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] in ("__main__", "conftest") or "migrations" in parts:
        continue  # run as programs, by pytest or by alembic: not imported
    if parts[-1] == "__init__":
        parts.pop()
    names.append(".".join(parts))
results = {}
for name in names:
    try:
        importlib.import_module(name)
    except BaseException as error:
        missing = error.name if isinstance(error, ModuleNotFoundError) else None
        results[name] = {"error": f"{type(error).__name__}: {error}", "missing": missing,
                         "trace": traceback.format_exc(limit=-3)}
    else:
        results[name] = None
print(json.dumps({"location": str(root), "modules": results}))
"""


@dataclass(frozen=True)
class Requirement:
    """One line of the dependency lists: ``name[extras]>=floor...``."""

    name: str
    extras: str
    floor: str

    def pinned(self, floor: str | None = None) -> str:
        return f"{self.name}{self.extras}=={floor or self.floor}"


REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*?)\s*(;.*)?$")


def normalize(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse(line: str) -> Requirement:
    """The name, extras and floor (``>=``) of a requirement; raises when it has no floor."""
    match = REQUIREMENT.match(line)
    if match is None:
        raise ValueError(f"cannot read the requirement {line!r}")
    name, extras, specifiers = match.group(1), match.group(2) or "", match.group(3)
    floors = [s.strip()[2:].strip() for s in specifiers.split(",") if s.strip().startswith(">=")]
    exact = [s.strip()[2:].strip() for s in specifiers.split(",") if s.strip().startswith("==")]
    if len(floors) + len(exact) != 1:
        raise ValueError(f"{line!r}: a floor (>=) or an exact version (==) is needed")
    return Requirement(name, extras, (floors or exact)[0])


def project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def requirements(extras: Sequence[str]) -> list[Requirement]:
    """The runtime dependencies, then those of ``extras`` (not the package's own extras)."""
    table = project()["project"]
    assert isinstance(table, dict)
    lines: list[str] = list(table["dependencies"])
    optional: dict[str, list[str]] = table.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"no extra {extra!r} in pyproject.toml (there are {sorted(optional)})")
        lines += [line for line in optional[extra] if not line.startswith(table["name"])]
    return [parse(line) for line in lines]


def extra_modules() -> dict[str, str]:
    """``[tool.ludotheque.extra-modules]``: the modules that need an extra, and which."""
    tool = project().get("tool", {})
    assert isinstance(tool, dict)
    return dict(tool.get("ludotheque", {}).get("extra-modules", {}))


def run(command: Sequence[str | Path], env: Mapping[str, str], cwd: Path, what: str) -> str:
    """Run ``command``; its output is printed only when it fails (then the check stops)."""
    started = time.monotonic()
    print(f"--- {what}", flush=True)
    result = subprocess.run(
        [str(part) for part in command], env=dict(env), cwd=cwd,
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        print(result.stdout[-6000:] + result.stderr[-6000:])
        raise SystemExit(f"FAILED: {what} (exit status {result.returncode})")
    print(f"    done in {time.monotonic() - started:.0f} s", flush=True)
    return result.stdout


def clean_environment(venv: Path) -> dict[str, str]:
    """This process's environment without what would change what is installed or imported."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PIP_CONSTRAINT", "VIRTUAL_ENV", "PYTHONHOME"}
    }
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def check_imports(python: Path, env: Mapping[str, str], cwd: Path) -> bool:
    """Import every module of the installed package; report and say whether all is well."""
    report = json.loads(run([python, "-c", IMPORT_ALL], env, cwd, "import every module"))
    allowed = extra_modules()
    imported, skipped, failed = [], [], []
    for name, error in report["modules"].items():
        if error is None:
            imported.append(name)
        elif name in allowed and error["missing"]:
            skipped.append(f"{name} (extra {allowed[name]}: {error['missing']} is not installed)")
        else:
            failed.append(f"{name}: {error['error']}\n{error['trace']}")
    print(f"    {len(imported)} modules imported from {report['location']}")
    for line in skipped:
        print(f"    skipped {line}")
    for line in failed:
        print(f"    FAILED {line}")
    return not failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--floor", action="append", default=[], metavar="NAME=VERSION",
        help="install NAME at VERSION instead of its floor in pyproject.toml (to try one)",
    )  # fmt: skip
    parser.add_argument(
        "--extra", action="append", default=[], metavar="EXTRA",
        help="also install this extra's packages at their floors",
    )  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the virtual environment")
    parser.add_argument(
        "--python", default=sys.executable, help="the Python to make the environment with"
    )
    parser.add_argument(
        "--no-tests", action="store_true", help="install and import only (no test run)"
    )
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest")
    args = parser.parse_args(argv)

    overrides = {}
    for item in args.floor:
        name, _, version = item.partition("=")
        if not version:
            parser.error(f"--floor {item!r}: NAME=VERSION")
        overrides[normalize(name)] = version
    wanted = requirements(args.extra)
    unknown = set(overrides) - {normalize(r.name) for r in wanted}
    if unknown:
        parser.error(f"--floor: {sorted(unknown)} are not dependencies")
    pins = [r.pinned(overrides.get(normalize(r.name))) for r in wanted]

    venv = Path(tempfile.mkdtemp(prefix="ludotheque-floors-"))
    ok = False
    try:
        env = clean_environment(venv)
        python = venv / "bin" / "python"
        run([args.python, "-m", "venv", "--clear", venv], env, venv, f"a fresh venv in {venv}")
        run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], env, venv,
            "pip upgraded")  # fmt: skip
        print("    the floors: " + " ".join(pins))
        run([python, "-m", "pip", "install", "--quiet", *pins, *TEST_TOOLS], env, venv,
            "the runtime dependencies at their floors, and the test tools")  # fmt: skip
        run([python, "-m", "pip", "install", "--quiet", "--no-deps", ROOT], env, venv,
            "the package (--no-deps)")  # fmt: skip
        run([python, "-m", "pip", "check"], env, venv, "pip check")
        freeze = run([python, "-m", "pip", "freeze"], env, venv, "what is installed")
        chosen = {normalize(p.split("==")[0].split("[")[0]) for p in pins}
        installed = [
            line for line in freeze.splitlines() if normalize(line.split("==")[0]) in chosen
        ]
        print("    " + " ".join(installed))
        ok = check_imports(python, env, venv)
        if not args.no_tests:
            command: list[str | Path] = [
                python, "-m", "pytest", "-o", "addopts=", "-ra", "--strict-markers",
                "-p", "no:cacheprovider", "-n", "0", "-q", "-k", SMOKE_DESELECT,
                *SMOKE_TESTS, *args.pytest_args,
            ]  # fmt: skip
            print(f"--- the smoke tests: {shlex.join(str(part) for part in command[1:])}")
            started = time.monotonic()
            result = subprocess.run(
                [str(part) for part in command], env=env, cwd=ROOT,
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            lines = result.stdout.strip().splitlines()
            if result.returncode != 0:
                print("\n".join(lines[-80:]) + result.stderr[-4000:])
            print(f"    {lines[-1] if lines else '(no output)'}")
            print(f"    done in {time.monotonic() - started:.0f} s")
            ok = ok and result.returncode == 0
    finally:
        if args.keep:
            print(f"kept {venv}")
        else:
            shutil.rmtree(venv, ignore_errors=True)
    print("the floors hold" if ok else "FAILED: the floors do not hold")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
