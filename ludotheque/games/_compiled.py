"""The games' optional compiled cores (issue 21): C extension modules built at install beside the
pure-Python code they speed up (see ``hatch_build.py``), which stays the reference and the
fallback. ``LUDOTHEQUE_PURE_PYTHON=1`` makes every game ignore its core, so that the tests can
run the pure-Python path too.
"""

from __future__ import annotations

import os
from importlib import import_module
from types import ModuleType

PURE_PYTHON = bool(os.environ.get("LUDOTHEQUE_PURE_PYTHON"))
"""True when the compiled cores are switched off (``LUDOTHEQUE_PURE_PYTHON`` set)."""


def compiled(module: str) -> ModuleType | None:
    """The compiled core ``module`` (a dotted name), or ``None`` when it was not built or the
    cores are switched off."""
    if PURE_PYTHON:
        return None
    try:
        return import_module(module)
    except ImportError:
        return None
