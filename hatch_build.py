"""Build hook: the games' optional compiled cores (``ludotheque/**/_c*.c``, issue 21).

Each core is a small C extension module beside the pure-Python code it speeds up; the Python code
stays the reference and the fallback. At install, each core is compiled when a C compiler works
(``cc``/``gcc``/``clang`` as Python was built with, through ``sysconfig``); when none does, or
``LUDOTHEQUE_PURE_PYTHON=1`` is set, the install goes on without it and the package runs in pure
Python. An editable install compiles the cores in place; ``python hatch_build.py`` does the same
by hand (after editing a ``.c`` file). ``LUDOTHEQUE_PURE_PYTHON=1`` at run time makes the package
ignore built cores, so that the test suite can run on both paths.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "ludotheque"


def sources() -> list[Path]:
    """The C sources of the compiled cores."""
    return sorted(PACKAGE.rglob("_c*.c"))


def target_name(source: Path) -> str:
    """The file name of the extension module built from ``source``."""
    return source.stem + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def compiler() -> tuple[list[str], list[str]]:
    """The commands that compile and link an extension: Python's own compiler (``CC`` and
    ``LDSHARED`` of ``sysconfig``), or ``cc``, ``gcc`` or ``clang`` in its place when that one
    is not installed here."""
    cc = shlex.split(str(sysconfig.get_config_var("CC") or ""))
    ldshared = shlex.split(str(sysconfig.get_config_var("LDSHARED") or ""))
    if not cc or not ldshared:
        raise RuntimeError("this Python does not say how C extensions are built")
    if shutil.which(cc[0]) is None:
        found = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
        if found is None:
            raise RuntimeError("no C compiler found (cc, gcc or clang)")
        if ldshared[0] == cc[0]:
            ldshared[0] = found
        cc[0] = found
    return cc, ldshared


def compile_core(source: Path, output: Path) -> None:
    """Compile ``source`` into the extension module ``output`` (raises on failure)."""
    cc, ldshared = compiler()
    include = sysconfig.get_paths()["include"]
    flags = shlex.split(str(sysconfig.get_config_var("CCSHARED") or "-fPIC"))
    with tempfile.TemporaryDirectory() as scratch:
        obj = Path(scratch) / (source.stem + ".o")
        subprocess.run(
            [*cc, *flags, "-O2", "-std=c99", "-Wall", "-I", include, "-c",
             str(source), "-o", str(obj)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        output.parent.mkdir(parents=True, exist_ok=True)
        # linked beside, then renamed over the old module: a process that has the old one
        # loaded keeps its file (writing into a loaded library can crash that process)
        fresh = output.with_name(f".{output.name}.{os.getpid()}.tmp")
        try:
            subprocess.run(
                [*ldshared, str(obj), "-o", str(fresh)],
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            os.replace(fresh, output)
        finally:
            fresh.unlink(missing_ok=True)


def build(destination: Path | None = None) -> list[tuple[Path, str]]:
    """Compile every core: in place (beside its source) without ``destination``, else under it.
    Returns ``(built file, its path in the package)`` for each core built; a core that does not
    compile is left out with a warning."""
    if os.environ.get("LUDOTHEQUE_PURE_PYTHON"):
        return []
    built = []
    for source in sources():
        relative = source.parent.relative_to(ROOT) / target_name(source)
        output = (destination / relative) if destination else ROOT / relative
        try:
            compile_core(source, output)
        except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
            detail = getattr(error, "stderr", "") or str(error)
            warnings.warn(
                f"{source.relative_to(ROOT)} was not compiled (pure Python instead): {detail}",
                stacklevel=2,
            )
            continue
        built.append((output, relative.as_posix()))
    return built


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run by hand, without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


class CompiledCoresHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Hatchling's hook: compiled cores in the wheel (platform-tagged), or in place for an
    editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if version == "editable":
            build()
            return
        built = build(Path(self.directory) / "compiled-cores")
        if built:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            for path, relative in built:
                build_data["force_include"][str(path)] = relative


if __name__ == "__main__":
    for path, _ in build():
        print(f"built {path.relative_to(ROOT)}")
    sys.exit(0)
