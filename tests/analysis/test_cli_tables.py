"""``ludotheque analyse`` asks the General's endgame tables: where they know the position, the
analysis says who wins and in how many moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludotheque.analysis.proof import oracle_for
from ludotheque.cli import main
from ludotheque.record import Record


def test_the_command_says_what_the_tables_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # six rebels against the general: the tables say the rebels win in 18 (the search alone,
    # three plies deep, gives them a 10% chance)
    record = Record.new("general", start="c3 a1,a5,e1,e5,b1,d5 r 1")
    record.play("a5-b4")
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["analyse", str(path), "--strength", "quick"]) == 0
    assert oracle_for("general") is None  # the tables were asked for this command only
    out = capsys.readouterr().out
    assert "a5-b4" in out and "the rebels win in 18" in out
