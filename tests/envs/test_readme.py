"""The README's environment snippets run as written, and the PettingZoo one gives the same game
on every run (its comment says so)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def _snippet(marker: str) -> str:
    """The README's Python block that contains ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if marker in b]
    assert len(found) == 1, f"{len(found)} README blocks contain {marker!r}"
    return found[0]


def test_the_openspiel_snippet_runs() -> None:
    pytest.importorskip("pyspiel")
    space: dict[str, Any] = {}
    exec(_snippet("pyspiel.load_game"), space)  # the README's own code
    assert space["state"].is_chance_node()


def test_the_pettingzoo_snippet_plays_the_same_game_each_run() -> None:
    pytest.importorskip("pettingzoo")
    code = _snippet("ludotheque.envs.pettingzoo import env")
    games = []
    for _ in range(2):
        space: dict[str, Any] = {}
        exec(code, space)  # the README's own code
        e = space["e"]
        games.append((e.render(), dict(e.unwrapped._cumulative_rewards)))
    assert games[0] == games[1]
