"""pytest collects this package's doctests; without the ``rl`` extra the adapters cannot be
imported, so their doctests are left out instead of failing collection."""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore = [
    module
    for module, needs in (("openspiel.py", "pyspiel"), ("pettingzoo.py", "pettingzoo"))
    if find_spec(needs) is None
]
