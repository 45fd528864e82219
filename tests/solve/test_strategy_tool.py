"""The tool that builds the rebels' strategy (``solve.strategy``), on the layer of 6 rebels solved
here: from a won position it keeps one fastest move per position the rebels meet, resumes from
its checkpoint, and writes a file that the check accepts; the check refuses a strategy that
was tampered with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import ludotheque
from ludotheque.games.general.rules import GeneralState
from ludotheque.solve import certificate
from ludotheque.solve.layout import from_state
from ludotheque.solve.retrograde import RawStore, solve
from ludotheque.solve.strategy import Built, build, layer_counts
from ludotheque.solve.tables import PACKAGE_FOLDER, Tables

pytest.importorskip("numba")

GAME = ludotheque.load("general")
# 6 rebels, the flight available: the rebels win in 41 plies
ROOT = "c3 a1,a2,a3,a4,a5,e1 r 1"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> RawStore:
    raw = RawStore(tmp_path_factory.mktemp("raw"))
    solve(raw, 6, log=lambda _: None)
    return raw


Column = npt.NDArray[Any]


def arrays(built: Built) -> tuple[Column, Column, Column]:
    keys = np.fromiter(built.moves.keys(), dtype=np.uint32)
    moves = np.fromiter((c.move for c in built.moves.values()), dtype=np.uint8)
    plies = np.fromiter((c.plies for c in built.moves.values()), dtype=np.uint8)
    return keys, moves, plies


def test_build_write_check(store: RawStore, tmp_path: Path) -> None:
    root = GAME.parse_position(ROOT)
    assert isinstance(root, GeneralState)
    opening = root.legal_moves()[0]
    after = root.play(opening)
    lines: list[str] = []
    built = build(store, tmp_path / "work", start=from_state(root),
                  general_roots=[from_state(after)], log=lines.append)  # fmt: skip
    assert lines and "41 plies" in lines[0]
    assert layer_counts(built) == {"6": len(built.moves)}
    # every move kept is a fastest win, as the package's tables say
    tables = Tables([PACKAGE_FOLDER])
    verdict = tables.verdict(root)
    assert verdict is not None and verdict.plies == 41
    for key, choice in list(built.moves.items())[::97]:
        position = certificate.position_of(key)
        state = GeneralState.from_parts(position.general, position.rebels, 0,
                                        bool(position.flight))  # fmt: skip
        here = tables.verdict(state)
        assert here is not None and here.winner == "rebels" and here.plies == choice.plies
        child = tables.verdict(state.play(state.legal_moves()[choice.move]))
        assert child is not None and child.plies == choice.plies - 1
    # a second build finds the checkpoint and has nothing left to do
    again = build(store, tmp_path / "work", start=from_state(root), log=lines.append)
    assert again.moves == built.moves
    assert lines[-1].startswith("resumed")
    keys, moves, plies = arrays(built)
    root_after = built.roots[certificate.state_key(after)]
    path = certificate.write(tmp_path / "s.gts", keys, moves, plies, start=root,
                             openings={str(opening): 1 + root_after})  # fmt: skip
    strategy = certificate.Strategy.read(path)
    assert len(strategy) == len(built.moves)
    assert strategy.header["plies"] == 41 and len(strategy.header["line"]) == 41
    report = certificate.check(strategy)
    assert report.ok, report.problems[:5]
    assert report.positions == len(strategy) and report.start_plies == 41
    assert report.openings == {str(opening): 1 + root_after}


def test_the_check_refuses_a_tampered_strategy(store: RawStore, tmp_path: Path) -> None:
    root = GAME.parse_position(ROOT)
    assert isinstance(root, GeneralState)
    keys, moves, plies = arrays(build(store, tmp_path / "work", start=from_state(root)))
    order = np.argsort(keys)
    keys, moves, plies = keys[order], moves[order], plies[order]

    def problems(k: Column, m: Column, p: Column) -> list[str]:
        path = certificate.write(tmp_path / "t.gts", k, m, p, start=root, openings={})
        return certificate.check(certificate.Strategy.read(path)).problems

    assert problems(keys, moves, plies) == []
    # a distance one move too short somewhere
    i = int(np.flatnonzero(plies > 3)[0])
    short = plies.copy()
    short[i] -= 2
    assert any("plies" in p for p in problems(keys, moves, short))
    # another move (legal, but not a fastest win) somewhere
    wrong = moves.copy()
    wrong[i] = 0 if moves[i] else 1
    assert problems(keys, wrong, plies)
    # a position left out: some reply is not answered
    keep = np.ones(keys.size, dtype=bool)
    keep[int(np.flatnonzero(plies == 1)[0])] = False
    assert any("not answered" in p for p in problems(keys[keep], moves[keep], plies[keep]))
    # a damaged file is refused
    path = certificate.write(tmp_path / "d.gts", keys, moves, plies, start=root, openings={})
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ValueError, match="damaged"):
        certificate.Strategy.read(path)
