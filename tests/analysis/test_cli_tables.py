"""The General's analysis asks its solution (the endgame tables and the rebels' strategy) by
default: from Python as from ``ludotheque analyse`` and the server, the same record gets the same
labels and proofs, with no oracle to register. A caller may register another oracle, or none, and
the command keeps what the caller chose."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import ludotheque
from ludotheque.analysis import analyse, best_moves, register_oracle, reset_oracle
from ludotheque.analysis import proof as proof_module
from ludotheque.analysis.proof import default_oracle, oracle_for
from ludotheque.cli import main
from ludotheque.core import State
from ludotheque.record import Record
from ludotheque.solve import tables as tables_module
from ludotheque.solve.tables import Tables

# six rebels against the general: the tables say the rebels win in 18 (the search alone, three
# plies deep, gives them a 10% chance)
SIX_REBELS = "c3 a1,a5,e1,e5,b1,d5 r 1"


def saved(record: Record, folder: Path) -> Path:
    path = folder / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def six_rebels() -> Record:
    record = Record.new("general", start=SIX_REBELS)
    record.play("a5-b4")
    return record


def test_the_command_says_what_the_tables_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved(six_rebels(), tmp_path)
    assert main(["analyse", str(path), "--strength", "quick"]) == 0
    assert oracle_for("general") is default_oracle("general")  # the command registered nothing
    out = capsys.readouterr().out
    assert "a5-b4" in out and "the rebels win in 18" in out


def test_python_and_the_command_give_the_same_analysis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the game an outside researcher analysed both ways (Python judged one side's moves a
    # mistake and two blunders, the command none, with every move proven)
    assert main(["arena", "general", "hard", "medium", "--games", "1", "--seed", "1",
                 "--save", str(tmp_path)]) == 0  # fmt: skip
    path = tmp_path / "general-00000.json"
    ours = analyse(Record.from_json(path.read_text(encoding="utf-8")), "quick")  # from Python
    capsys.readouterr()
    assert main(["analyse", str(path), "--strength", "quick", "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert json.loads(ours.to_json()) == theirs
    assert {s: v.labels for s, v in ours.summary.items()} == {
        s: v["labels"] for s, v in theirs["summary"].items()
    }
    # and both speak the proof: every move of the game has its proven result
    assert ours.decisions and all(d.played.proof is not None for d in ours.decisions)


def test_best_moves_on_the_start_carry_the_proof() -> None:
    moves = best_moves(ludotheque.load("general").start(), 3)
    assert len(moves) == 3
    for m in moves:
        assert m.proof is not None and m.proof.winner == "rebels" and m.win == 1.0
    assert moves[0].proof is not None and moves[0].proof.text() == "the rebels win in 19"


def test_a_caller_may_register_another_oracle_or_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[str] = []

    def mine(state: State) -> tuple[str | None, int | None] | None:
        asked.append(state.position())
        return None

    path = saved(six_rebels(), tmp_path)
    register_oracle("general", mine)
    assert analyse(six_rebels(), "quick").decisions[0].played.proof is None
    assert asked
    asked.clear()
    # the command asks the caller's oracle, and leaves it registered
    assert main(["analyse", str(path), "--strength", "quick", "--json"]) == 0
    assert asked and oracle_for("general") is mine
    assert json.loads(capsys.readouterr().out)["decisions"][0]["played"]["proof"] is None
    register_oracle("general", None)  # the search alone
    assert oracle_for("general") is None
    assert analyse(six_rebels(), "quick").decisions[0].played.proof is None
    reset_oracle("general")  # the default again
    played = analyse(six_rebels(), "quick").decisions[0].played
    assert played.proof is not None and played.proof.text() == "the rebels win in 18"


def test_importing_the_analysis_does_not_load_the_solution() -> None:
    code = (
        "import sys, ludotheque.analysis\n"
        "assert not [m for m in sys.modules if m.startswith('ludotheque.solve')], 'loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.fixture
def fresh_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default oracle made again for this test (and the process's own kept for later)."""
    monkeypatch.setattr(proof_module, "_LOADED", {})


def test_without_the_tables_the_analysis_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_default: None
) -> None:
    # no table installed, no strategy: the solution knows nothing, the search alone judges
    monkeypatch.setattr(tables_module, "default_tables", lambda: Tables([tmp_path / "none"]))
    played = analyse(six_rebels(), "quick").decisions[0].played
    assert played.proof is None and 0.0 < played.win < 1.0


def test_damaged_tables_never_fail_an_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_default: None
) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    for name in ("L06F0.gtb", "L06F1.gtb"):  # cut short
        (folder / name).write_bytes((tables_module.PACKAGE_FOLDER / name).read_bytes()[:5000])
    monkeypatch.setattr(tables_module, "default_tables", lambda: Tables([folder]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        analysis = analyse(six_rebels(), "quick")
        again = analyse(six_rebels(), "quick")
    said = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert len(said) == 1, said  # once, and the tables are not read again
    assert said[0].startswith("the General's solution tables cannot be read (")
    assert "is truncated or damaged" in said[0] and said[0].endswith("with the search alone")
    assert analysis.decisions[0].played.proof is None
    assert again == analysis
