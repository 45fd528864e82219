"""The tables shipped in the package: read with numpy alone, in agreement with the engine, and
their verdicts on positions whose value is plain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ludotheque
from ludotheque.solve.check import check_values
from ludotheque.solve.layout import Position, to_state
from ludotheque.solve.tables import (
    PACKAGE_FOLDER,
    Tables,
    Verdict,
    file_name,
    read,
    write,
)

GAME = ludotheque.load("general")
TABLES = Tables([PACKAGE_FOLDER])


def lookup(position: Position) -> int:
    code = TABLES.state_code(to_state(position))
    assert code is not None
    return code


def test_the_package_covers_six_and_eight_rebels() -> None:
    for k in (6, 8):
        for flight in (0, 1):
            assert (PACKAGE_FOLDER / file_name(k, flight)).exists()
    assert TABLES.top() == 8
    assert not TABLES.covers(10)
    assert sum(p.stat().st_size for p in PACKAGE_FOLDER.glob("*.gtb")) < 8 * 2**20


@pytest.mark.parametrize(("k", "flight"), [(6, 0), (6, 1), (8, 0), (8, 1)])
def test_values_agree_with_the_engine(k: int, flight: int) -> None:
    # each sampled position's value is the one its engine moves give with the tables' values
    # of the results (for the rebels to move, two plies of the engine against stored values)
    assert check_values(lookup, k, flight, 150, seed=k + flight) == []


@pytest.mark.parametrize(
    ("text", "verdict", "words"),
    [
        # the general takes his twelfth rebel: c2-b2xa1c3... (c2 between a pair)
        ("c2 a1,c3,e1,e2,a4,a5 g 1", Verdict("general", 1), "the general wins in 1 move"),
        # whatever the rebels do, he takes the last pair next move
        ("a3 a1,a2,a4,b4,c2,c3 r 0", Verdict("general", 2), "the general wins in 1 move"),
        # d4-d5 shuts him in
        ("s3 b5,c5,d4,e4,a1,a2 r 1", Verdict("rebels", 1), "the rebels win in 1 move"),
        # already over
        ("a1 a2,b1,b2,c3,c1,a3 g 0", Verdict("rebels", 0), "the rebels have won"),
        ("c3 a1,a2,a3,a4 r 0", Verdict("general", 0), "the general has won"),
    ],
)
def test_plain_verdicts(text: str, verdict: Verdict, words: str) -> None:
    assert TABLES.verdict(GAME.parse_position(text)) == verdict
    assert verdict.describe() == words


def test_the_twelfth_capture_is_the_only_fast_way() -> None:
    state = GAME.parse_position("a3 a1,a2,a4,b4,c2,c3 r 0")
    for move in state.legal_moves():
        after = state.play(move)
        assert TABLES.verdict(after) == Verdict("general", 1)
        assert any(after.play(m).outcome() is not None for m in after.legal_moves())


def test_beyond_the_tables() -> None:
    # the package's tables stop at 8 rebels; its summary knows that from 10 rebels on, every
    # position is won by the rebels (the distance needs the tables: ludotheque solve general)
    ten = GAME.parse_position("c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1 g 1")
    for state in (GAME.start(), ten):
        assert TABLES.verdict(state) is None
        assert TABLES.probe(state) == Verdict("rebels", None)
    assert TABLES.layer_winner(8, 0, 0) == (True, "rebels")
    assert TABLES.layer_winner(8, 0, 1) == (False, None)
    assert Verdict("rebels", None).describe() == "the rebels win with best play"
    assert Verdict("general", None).describe("fr") == "le général gagne avec le meilleur jeu"
    assert Tables([]).probe(GAME.start()) is None


def test_french() -> None:
    assert Verdict("general", 45).describe("fr") == "le général gagne en 23 coups"
    assert Verdict("rebels", 2).describe("fr") == "les rebelles gagnent en 1 coup"
    assert Verdict("rebels", 0).describe("fr") == "les rebelles ont gagné"
    assert Verdict(None, None).moves is None


def test_raw_tables_are_memory_mapped(tmp_path: Path) -> None:
    shipped = read(PACKAGE_FOLDER / file_name(6, 1))
    path = write(np.asarray(shipped.codes), 6, 1, tmp_path / file_name(6, 1), compress=False)
    again = read(path)
    assert isinstance(again.codes, np.memmap)
    assert np.array_equal(again.codes, shipped.codes)
    mine = Tables([tmp_path])
    assert mine.covers(6, 1) and not mine.covers(6, 0)
    state = GAME.parse_position("s3 b5,c5,d4,e4,a1,a2 r 1")
    assert mine.verdict(state) == TABLES.verdict(state)
    path.write_bytes(path.read_bytes()[:5000])
    with pytest.raises(ValueError, match="truncated"):
        read(path)


def test_reading_needs_no_numba() -> None:
    code = (
        "import sys, ludotheque\n"
        "from ludotheque.solve import probe\n"
        "v = probe(ludotheque.load('general').parse_position('c2 a1,c3,e1,e2,a4,a5 g 1'))\n"
        "assert v is not None and v.winner == 'general', v\n"
        "assert 'numba' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_damaged_package_table_is_refused(tmp_path: Path) -> None:
    data = (PACKAGE_FOLDER / file_name(6, 0)).read_bytes()
    path = tmp_path / file_name(6, 0)
    path.write_bytes(data[:-1000])
    with pytest.raises(ValueError, match="damaged"):
        read(path)


def test_the_command_with_the_package_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ludotheque.cli import main

    pytest.importorskip("numba")
    assert main(["solve", "general", "--top", "8", "--dir", str(tmp_path)]) == 0
    assert "the tables reach 8 rebels" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
