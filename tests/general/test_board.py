"""The board: 29 points, 64 edges, the sanctuary, the gates and the 40 capture triples."""

from __future__ import annotations

from ludotheque.games.general import board
from tests.general import reference


def test_29_points_named_as_the_contract() -> None:
    assert board.NUM_POINTS == 29
    assert set(board.NAMES) == {f"{c}{r}" for c in "abcde" for r in range(1, 6)} | {
        "s1",
        "s2",
        "s3",
        "s4",
    }


def test_64_edges_matching_an_independent_construction() -> None:
    assert len(board.EDGES) == 64
    ours = {frozenset(board.NAMES[i] for i in e) for e in board.EDGES}
    ref = {frozenset((a, b)) for a, bs in reference.ADJ.items() for b in bs}
    assert ours == ref


def test_triangle_touches_square_only_at_three_edges() -> None:
    sanctuary = set(board.SANCTUARY_NAMES)
    crossing = {
        frozenset(board.NAMES[i] for i in e)
        for e in board.EDGES
        if len({board.NAMES[i] in sanctuary for i in e}) == 2
    }
    assert crossing == {frozenset(("b5", "s1")), frozenset(("c5", "s2")), frozenset(("d5", "s3"))}


def test_apex_neighbours() -> None:
    assert {board.NAMES[i] for i in board.NEIGHBOURS[board.S4]} == {"s1", "s2", "s3"}


def test_diagonals_only_through_even_points() -> None:
    for e in board.EDGES:
        a, b = (board.NAMES[i] for i in e)
        if a[0] == "s" or b[0] == "s":
            continue
        dc = abs(ord(a[0]) - ord(b[0]))
        dr = abs(int(a[1]) - int(b[1]))
        if dc == 1 and dr == 1:
            for p in (a, b):
                assert (ord(p[0]) - ord("a") + int(p[1]) - 1) % 2 == 0


def test_40_capture_triples_none_in_the_sanctuary() -> None:
    assert len(board.CAPTURE_TRIPLES) == 40
    for a, m, b in board.CAPTURE_TRIPLES:
        for p in (a, m, b):
            assert not (board.SANCTUARY_MASK >> p) & 1
    ref = {
        (min(a, b), m, max(a, b))
        for a, m, b in reference.TRIPLES
        if not {a, m, b} & reference.SANCTUARY
    }
    ours = {(board.NAMES[a], board.NAMES[m], board.NAMES[b]) for a, m, b in board.CAPTURE_TRIPLES}
    assert ours == {(min(a, b), m, max(a, b)) for a, m, b in ref}


def test_every_line_triple_with_a_sanctuary_point_cannot_capture() -> None:
    # five triples of the contract's lines touch the sanctuary; rebels can never hold their ends
    touching = [t for t in reference.TRIPLES if set(t) & reference.SANCTUARY]
    assert len(touching) == 5
    for a, _, b in touching:
        assert a in reference.SANCTUARY or b in reference.SANCTUARY


def test_gates_and_start() -> None:
    assert board.mask_names(board.GATES_MASK) == ["b5", "c5", "d5"]
    assert len(board.mask_names(board.START_REBELS)) == 16
    assert board.NAMES[board.START_GENERAL] == "c3"
