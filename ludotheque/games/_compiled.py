"""The games' optional compiled cores (issue 21): C extension modules built at install beside the
pure-Python code they speed up (see ``hatch_build.py``), which stays the reference and the
fallback. ``LUDOTHEQUE_PURE_PYTHON=1`` makes every game ignore its core, so that the tests can
run the pure-Python path too.
"""

from __future__ import annotations

import os
import warnings
from importlib import import_module
from types import ModuleType

PURE_PYTHON = bool(os.environ.get("LUDOTHEQUE_PURE_PYTHON"))
"""True when the compiled cores are switched off (``LUDOTHEQUE_PURE_PYTHON`` set)."""


def compiled(module: str, version: int) -> ModuleType | None:
    """The compiled core ``module`` (a dotted name) of interface ``version``, or ``None`` when
    it was not built, the cores are switched off, or it was built from another version of its
    source (then with a warning: ``python hatch_build.py`` builds it again)."""
    if PURE_PYTHON:
        return None
    try:
        core = import_module(module)
    except ImportError:
        return None
    if getattr(core, "VERSION", None) != version:
        warnings.warn(
            f"{module} was built from another version of its source: ignored (pure Python "
            "instead); rebuild it with `python hatch_build.py` or reinstall the package",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    return core
