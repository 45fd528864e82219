"""The backgammon evaluation: the network's inputs, its symmetry, batches, and what the shipped
network knows (clear races, closed boards, textbook opening plays)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

import ludotheque
from ludotheque.ai.greedy import GreedyAgent
from ludotheque.games.backgammon import board as B
from ludotheque.games.backgammon.network import Network, encode, shipped, unpack_many
from tests.backgammon.strategies import positions

GAME = ludotheque.load("backgammon", "standard")
ROOT = Path(__file__).resolve().parents[2]


def reference_inputs(board: int) -> list[float]:
    """TD-Gammon's raw encoding of one side, written out plainly."""
    counts = B.unpack(board)
    out: list[float] = []
    for p in range(1, 25):
        n = counts[p]
        out += [float(n >= 1), float(n >= 2), float(n >= 3), max(n - 3, 0) / 2]
    return [*out, counts[25] / 2, counts[0] / 15, sum(i * n for i, n in enumerate(counts)) / 100]


@settings(max_examples=150, deadline=None)
@given(positions(cap=0))
def test_inputs_are_the_raw_encoding(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = state._packed("white"), state._packed("black")
    assert unpack_many([white, black]).tolist() == [B.unpack(white), B.unpack(black)]
    assert np.allclose(
        encode([white], [black])[0], reference_inputs(white) + reference_inputs(black)
    )


@settings(max_examples=150, deadline=None)
@given(positions(cap=0))
def test_values_are_zero_sum_and_batches_agree(text: str) -> None:
    state = GAME.parse_position(text)
    white, black = GAME.evaluate(state, "white"), GAME.evaluate(state, "black")
    assert -1 <= white <= 1
    assert white == pytest.approx(-black)
    children = [state.play(m) for m in state.legal_moves()]
    one_by_one = [GAME.evaluate(c, "white") for c in children]
    assert GAME.evaluate_many(children, "white") == pytest.approx(one_by_one)


def test_finished_and_opening_states() -> None:
    assert GAME.evaluate(GAME.start(), "white") == 0.0
    won = GAME.parse_position("W[] B[6x5,5x5,4x5] - -")
    assert won.outcome() is not None
    assert GAME.evaluate(won, "white") == 1.0
    assert GAME.evaluate_many([won, GAME.start()], "black") == [-1.0, 0.0]


@pytest.mark.parametrize(
    ("text", "side", "at_least"),
    [
        # a race all but won: two checkers left against fifteen at home
        ("W[1x2] B[6x5,5x5,4x5] b -", "white", 0.9),
        # a closed board with two opposing checkers on the bar
        ("W[6x3,5x2,4x2,3x2,2x2,1x2,8x2] B[barx2,6x4,5x3,4x3,3x3] w -", "white", 0.6),
        # far ahead in the race, on roll
        ("W[6x3,5x3,4x3,3x3,2x3] B[24x2,13x5,8x3,6x5] w -", "white", 0.6),
    ],
)
def test_the_network_knows_clear_positions(text: str, side: str, at_least: float) -> None:
    assert GAME.evaluate(GAME.parse_position(text), side) >= at_least


@pytest.mark.parametrize(
    ("roll", "play"),
    [("w3b1", "8/5 6/5"), ("w4b2", "8/4 6/4"), ("w6b1", "13/7 8/7"), ("w5b3", "8/3 6/3")],
)
def test_textbook_opening_plays(roll: str, play: str) -> None:
    state = GAME.start().play(roll)
    assert str(GreedyAgent(1).choose(state)) == play


def test_save_and_load(tmp_path: Path) -> None:
    net = Network.random(7, np.random.default_rng(1))
    net.save(tmp_path / "net.npz")
    back = Network.load(tmp_path / "net.npz")
    x = encode([B.pack({6: 5, 8: 3})], [B.pack({24: 2, 13: 5})])
    assert back.win_chance(x) == pytest.approx(net.win_chance(x), abs=1e-6)
    assert shipped().w1.shape[0] == x.shape[1]


def _training_tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_bg", ROOT / "tools/train_backgammon.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_bg"] = module
    spec.loader.exec_module(module)
    return module


def test_the_training_tool_learns() -> None:
    tool = _training_tool()
    net = Network.random(8, np.random.default_rng(2))
    before = net.w1.copy()
    trainer = tool.Trainer(net, 0.7)
    plays = tool.train_game(trainer, random.Random(3), 0.1, 0)
    assert plays > 10
    assert not np.allclose(before, net.w1)


def test_the_training_tool_measures(monkeypatch: pytest.MonkeyPatch) -> None:
    """``versus`` credits the wins to the right network on both colours, and a seed replays
    the same match. 20 games of the shipped network against an untrained one take ~0.1 s."""
    tool = _training_tool()
    seen: list[tuple[int, int, tuple[int, int]]] = []
    real_best_leaf = tool.best_leaf

    def recording(
        net: Network, me: int, opp: int, roll: tuple[int, int], cap: int
    ) -> tuple[int, int]:
        seen.append((me, opp, roll))
        return real_best_leaf(net, me, opp, roll, cap)  # type: ignore[no-any-return]

    monkeypatch.setattr(tool, "best_leaf", recording)
    strong, weak = shipped(), Network.random(8, np.random.default_rng(4))
    # the shipped network crushes an untrained one, whichever of the two is named first
    share = tool.versus(strong, weak, 20, 1)
    assert share >= 0.9
    match = list(seen)
    assert len(match) > 20 * 10  # every game was played out, play by play
    assert tool.versus(weak, strong, 20, 1) <= 0.1
    # the same seed replays the same match, roll for roll; another seed plays another one
    seen.clear()
    assert tool.versus(strong, weak, 20, 1) == share
    assert seen == match
    seen.clear()
    tool.versus(strong, weak, 20, 2)
    assert seen != match
