"""The encodings' loops over a list of the engine's moves, once per decision: in the compiled
helper ``_cenvs.c`` when it was built (like the games' cores, see ``hatch_build.py``), else in
the pure Python below, which is the reference (the tests check that both agree).

- ``group(plays, k)``: backgammon's legal plays by their ``k``-th single move ``(src, dst, die,
  hit)``: the actions ``(src - 1) * 6 + (die - 1)`` ascending, and for each its single move
  and the plays that go on with it (a tuple, in their order);
- ``mask(actions, size)``: a ``bytearray`` of ``size`` bytes, 1 at each action.

The helper also holds the General's whole step on packed positions (``general_setup``,
``general_legal``, ``general_step``, ``general_observe``), whose references are in
``envs/general.py``, backgammon's and Defiance's observations (``backgammon_observe``,
``defiance_observe``), whose references are ``observe_py`` of ``BackgammonEncoding`` and
``DefianceEncoding`` (``envs/backgammon.py``, ``envs/defiance.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..games._compiled import compiled

Groups = tuple[list[int], dict[int, tuple[Any, tuple[Any, ...]]]]


def group_py(plays: Sequence[Any], k: int) -> Groups:
    """``group`` in Python (see the module docstring)."""
    groups: dict[Any, list[Any]] = {}
    for play in plays:
        step = play[0][k]
        found = groups.get(step)
        if found is None:
            groups[step] = [play]
        else:
            found.append(play)
    by_action = {step[0] * 6 + step[2] - 7: (step, tuple(found)) for step, found in groups.items()}
    return sorted(by_action), by_action


def mask_py(actions: Sequence[int], size: int) -> bytearray:
    """``mask`` in Python (see the module docstring)."""
    marks = bytearray(size)
    for action in actions:
        if not 0 <= action < size:
            raise ValueError(f"action {action} out of 0-{size - 1}")
        marks[action] = 1
    return marks


group: Callable[[Sequence[Any], int], Groups] = group_py
mask: Callable[[Sequence[int], int], bytearray] = mask_py

CORE = compiled("ludotheque.envs._cenvs", 7)
"""The compiled helper (``_cenvs.c``), or ``None``."""
if CORE is not None:
    group = CORE.group
    mask = CORE.mask
