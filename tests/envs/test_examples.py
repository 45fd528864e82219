"""The examples run (short versions), and the core package stays free of the frameworks."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium")


def _run(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_openspiel_mcts_against_our_hard_player() -> None:
    pytest.importorskip("pyspiel")
    out = _run(
        "examples/openspiel_mcts_vs_hard.py",
        *("--game", "general", "--games", "2", "--simulations", "10", "--max-turns", "6"),
    )
    assert "game 1 (mcts as rebels, hard as general)" in out
    assert "game 2 (hard as rebels, mcts as general)" in out
    assert "score over 2 games: MCTS" in out


def test_openspiel_mcts_reports_money_games_in_points() -> None:
    pytest.importorskip("pyspiel")
    out = _run(
        "examples/openspiel_mcts_vs_hard.py",
        *("--game", "backgammon", "--ruleset", "money", "--games", "2", "--simulations", "5"),
    )
    games = re.findall(r"game \d \((\w+) as white, (\w+) as black\): returns \[(\S+), (\S+)\]", out)
    assert len(games) == 2, out
    points = {"mcts": 0.0, "hard": 0.0}
    for white, black, white_return, black_return in games:
        points[white] += float(white_return)
        points[black] += float(black_return)
    assert all(abs(float(g[2])) >= 1 for g in games)  # a game is worth a point or more
    assert "score over" not in out  # no win-draw-loss reading of points
    assert (
        f"points over 2 games: MCTS {points['mcts']:+g} ({points['mcts'] / 2:+.2f} a game), "
        f"hard {points['hard']:+g} ({points['hard'] / 2:+.2f} a game)"
    ) in out


def test_pettingzoo_random_game() -> None:
    pytest.importorskip("pettingzoo")
    out = _run("examples/pettingzoo_random.py", "--game", "defiance", "--ruleset", "8x8",
               "--max-turns", "10")  # fmt: skip
    found = re.search(r"(\d+) steps; rewards \{'player_0': (\S+), 'player_1': (\S+)\}", out)
    assert found is not None, out
    assert 0 < int(found[1]) <= 20 and float(found[2]) == -float(found[3])
    assert "(cells)" in out  # the board


def test_only_the_envs_package_imports_the_frameworks() -> None:
    offenders = []
    for path in sorted((ROOT / "ludotheque").rglob("*.py")):
        if "envs" in path.relative_to(ROOT / "ludotheque").parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] in FRAMEWORKS]
    assert not offenders
    code = (
        "import sys, ludotheque, ludotheque.ai, ludotheque.record, ludotheque.envs\n"
        "import ludotheque.envs.general, ludotheque.envs.backgammon, ludotheque.envs.defiance\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r}))"
    )
    assert _run("-c", code).strip() == "[]"
