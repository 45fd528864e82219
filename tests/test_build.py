"""``pip install .`` works on a machine without a C compiler (issue 21): the build hook
``hatch_build.py`` then warns, builds no compiled core and goes on, the wheel is pure Python, and
the package it holds imports and plays on the pure-Python fallback. "No compiler" is a ``PATH``
that holds none (and a ``CC`` that names none); "a compiler that does not work" is a ``gcc`` on
``PATH`` that fails."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

CORES = ("general/_cgeneral.c", "backgammon/_cbackgammon.c", "_cenvs.c")
"""The compiled cores there are (the end of each source's path)."""

DATA = (
    "ludotheque/server/web/static",
    "ludotheque/server/web/templates",
    "ludotheque/server/i18n/locale",
)
"""The package's files read at run time (not Python): the pages' static files and templates, and
the words' gettext catalogues (``.pot``, ``.po``)."""


def data_files() -> list[str]:
    """The files under ``DATA`` in the source tree, as the wheel names them."""
    return sorted(
        path.relative_to(ROOT).as_posix()
        for folder in DATA
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


def test_the_data_files_are_wheel_artifacts() -> None:
    """Hatchling reads ``artifacts`` (shipped even when a .gitignore pattern matches them) in the
    wheel target's table, never in a build hook's."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        wheel = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert sorted(wheel["artifacts"]) == sorted(f"{folder}/**" for folder in DATA)
    assert "artifacts" not in wheel.get("hooks", {}).get("custom", {})
    files = data_files()
    assert "ludotheque/server/i18n/locale/ludotheque.pot" in files
    assert "ludotheque/server/i18n/locale/fr/LC_MESSAGES/ludotheque.po" in files


def hook_module() -> ModuleType:
    """``hatch_build.py`` as a module (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def no_compiler(monkeypatch: pytest.MonkeyPatch, bin_dir: Path) -> None:
    """Only ``bin_dir`` on ``PATH`` (no compiler there unless the test puts one)."""
    bin_dir.mkdir(exist_ok=True)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("CC", str(bin_dir / "no-such-cc"))
    monkeypatch.delenv("LUDOTHEQUE_PURE_PYTHON", raising=False)


def assert_warned_for_every_core(record: pytest.WarningsRecorder, reason: str) -> None:
    messages = [str(w.message) for w in record if "was not compiled" in str(w.message)]
    assert len(messages) == len(CORES), messages
    for core in CORES:
        assert any(core in m and reason in m for m in messages), (core, messages)


@pytest.mark.parametrize("compiler", ["none", "failing"])
def test_the_hook_builds_a_pure_python_wheel_when_no_compiler_works(
    compiler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hook = hook_module()
    bin_dir = tmp_path / "bin"
    no_compiler(monkeypatch, bin_dir)
    if compiler == "failing":
        for name in ("cc", "gcc", "clang"):
            fake = bin_dir / name
            fake.write_text("#!/bin/sh\necho 'fake compiler: no' >&2\nexit 1\n")
            fake.chmod(0o755)
    reason = "no C compiler found" if compiler == "none" else "fake compiler: no"
    wheel_dir = tmp_path / "wheel-build"
    build_data: dict[str, Any] = {"pure_python": True, "infer_tag": False, "force_include": {}}
    this_hook = SimpleNamespace(target_name="wheel", directory=str(wheel_dir))
    with pytest.warns(UserWarning, match="was not compiled") as record:
        hook.CompiledCoresHook.initialize(this_hook, "standard", build_data)
    assert_warned_for_every_core(record, reason)
    # nothing built, the wheel stays pure Python (py3-none-any) and holds no extension
    assert build_data == {"pure_python": True, "infer_tag": False, "force_include": {}}
    built = [p for p in wheel_dir.rglob("*") if p.is_file()] if wheel_dir.exists() else []
    assert built == []


def test_the_hook_builds_nothing_when_told_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTHEQUE_PURE_PYTHON", "1")
    assert hook_module().build(tmp_path) == []
    assert list(tmp_path.iterdir()) == []


PLAY = """
import random
from pathlib import Path

import ludotheque
from ludotheque.core import CHANCE
from ludotheque.envs import fast
from ludotheque.games.backgammon import movegen as backgammon
from ludotheque.games.general import movegen as general

assert Path(ludotheque.__file__).resolve().parent == Path.cwd().resolve() / "ludotheque", (
    ludotheque.__file__
)
assert general.CORE is None and backgammon.CORE is None and fast.CORE is None
assert fast.mask([1, 3], 5) == bytearray([0, 1, 0, 1, 0])
rng = random.Random(5)
for name, ruleset in (("general", None), ("backgammon", "standard"), ("defiance", "8x8")):
    state = ludotheque.load(name, ruleset).start()
    plies = 0
    while state.outcome() is None and plies < 300:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            continue
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        plies += 1
    assert plies > 0
    print(name, plies, state.position())
"""


def test_pip_wheel_without_a_compiler_is_pure_python_and_plays(tmp_path: Path) -> None:
    pytest.importorskip("hatchling", reason="the build backend (dev extra) is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "LUDOTHEQUE_PURE_PYTHON"}
    env.update(PATH=str(bin_dir), CC=str(bin_dir / "no-such-cc"), PIP_NO_INDEX="1")
    wheels = tmp_path / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-w", str(wheels), str(ROOT)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    for core in CORES:
        assert f"{core} was not compiled (pure Python instead)" in output, output[-4000:]
    (wheel,) = wheels.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not [n for n in names if n.endswith((".so", ".pyd"))], names
        assert "ludotheque/games/general/movegen.py" in names
        # the General's solution: the tables up to 8 rebels and the rebels' strategy (the
        # proof and the perfect rebels' moves); the wheel stays under 50 MB
        assert "ludotheque/solve/data/strategy.gts" in names
        assert "ludotheque/solve/data/L08F1.gtb" in names
        assert wheel.stat().st_size < 50 * 2**20
        missing = sorted(set(data_files()) - set(names))
        assert not missing, f"files read at run time, not in the wheel: {missing}"
        site = tmp_path / "site"
        archive.extractall(site)
    # the wheel's package, on its own: no LUDOTHEQUE_PURE_PYTHON, no core to load
    played = subprocess.run(
        [sys.executable, "-c", PLAY],
        cwd=site, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-4000:]
    assert [line.split()[0] for line in played.stdout.splitlines()] == [
        "general", "backgammon", "defiance"
    ]  # fmt: skip
