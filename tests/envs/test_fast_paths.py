"""The encodings' fast paths (issue 20, item 5) against plain ones built from the engine's
public answers and notation: the legal actions and masks, the nodes that actions lead to, the
observations and the repetition counts, along random games of every game."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.envs import Encoding, Node, encoding, fast
from ludotheque.envs import general as general_encoding
from ludotheque.envs.backgammon import _UNITS
from ludotheque.games.defiance import Turn

SETTINGS = settings(max_examples=8, deadline=None)


def _walk(enc: Encoding, seed: int, steps: int) -> list[Node]:
    """The nodes of a random game (chance outcomes by their probabilities)."""
    rng = random.Random(seed)
    node = enc.initial()
    nodes = [node]
    for _ in range(steps):
        if node.is_terminal:
            break
        if node.is_chance:
            outcomes = enc.chance_outcomes(node)
            weights = [p for _, p in outcomes]
            node = enc.apply(node, rng.choices([o for o, _ in outcomes], weights)[0])
        else:
            node = enc.apply(node, rng.choice(enc.legal_actions(node)))
        nodes.append(node)
    return nodes


def _mask_of(enc: Encoding, actions: list[int]) -> Any:
    mask = np.zeros(enc.num_actions, np.int8)
    mask[actions] = 1
    return mask


def _plain_repetitions(node: Node) -> int:
    """Earlier occurrences of the position, by comparing every position kept."""
    return sum(1 for s in node.seen_states[:-1] if s == node.state)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_general_actions_nodes_and_observations(seed: int) -> None:
    enc = encoding("general", max_turns=150)
    for node in _walk(enc, seed, 150):
        if node.is_terminal:
            assert enc.legal_actions(node) == [] and not enc.action_mask(node).any()
            continue
        state: Any = node.state
        moves = {general_encoding.action_of(str(m)): m for m in state.legal_moves()}
        legal = enc.legal_actions(node)
        assert legal == sorted(moves) and (enc.action_mask(node) == _mask_of(enc, legal)).all()
        assert enc.legal(node) == moves
        for a in legal[:3]:
            after = enc.apply(node, a)
            assert after.state == state.play(str(moves[a]))
            assert after.turns == node.turns + 1
        # the observation as it was first written: point by point from the state's answers
        obs = enc.observation(node, 1)
        plain = np.zeros(enc.observation_shape, np.float32)
        for name in state.rebels:
            y, x = general_encoding.GRID[name]
            plain[0, y, x] = 1.0
        plain[1][general_encoding.GRID[state.general]] = 1.0
        for y, x in general_encoding.GRID.values():
            plain[2, y, x] = 1.0
        plain[3] = float(state.flight_available)
        plain[4] = float(state.side == "rebels")
        plain[6] = _plain_repetitions(node) / 2
        plain[7] = min(1.0, node.turns / enc.max_turns)
        assert (obs == plain).all()
        assert node.repetitions() == _plain_repetitions(node)


def test_general_history_survives_pickling_and_counts_repetitions() -> None:
    enc = encoding("general")
    node = enc.initial()
    cycle = ["a1-b2", "c3-b3", "b2-a1", "b3-c3"]
    by_text = {str(m): general_encoding.action_of(str(m)) for m in node.state.legal_moves()}
    node = enc.apply(node, by_text[cycle[0]])
    for text in cycle[1:] + cycle[:3]:
        node = enc.apply(node, general_encoding.action_of(text))
    assert node.repetitions() == 1 == _plain_repetitions(node)
    back = pickle.loads(pickle.dumps(node))
    assert back.seen == node.seen and back.seen_states == node.seen_states
    assert back.repetitions() == 1
    with pytest.raises(Exception, match="not legal"):
        enc.apply(node, general_encoding.action_of("a2-a1"))  # a1 is taken


def _plain_backgammon_observation(enc: Any, node: Node, player: int) -> Any:
    """The backgammon observation as it was first written, number by number."""
    out = np.zeros(enc.observation_shape, np.float32)
    state: Any = node.state
    me, other = enc.sides[player], enc.sides[1 - player]
    boards = enc.boards(node)
    own, opp = boards[me], boards[other]
    for q in range(1, 25):
        out[(q - 1) * 4 : q * 4] = _UNITS[own[q]]
        out[96 + (q - 1) * 4 : 96 + q * 4] = _UNITS[opp[25 - q]]
    out[192], out[193], out[194], out[195] = own[25] / 15, opp[25] / 15, own[0] / 15, opp[0] / 15
    if node.pending is not None:
        for die in node.pending.dice_left(state):
            out[196 + die - 1] += 0.25
    if state.side is not None and node.outcome is None:
        out[202 if state.side == me else 203] = 1.0
    out[204] = float(bool(enc.game.cap))
    stakes = getattr(state, "stakes", None)
    if stakes is not None:
        out[205] = min(1.0, math.log2(stakes.value) / 15)
        if stakes.owner >= 0:
            out[206 if stakes.owner == player else 207] = 1.0
        out[208] = float(stakes.pending == 2)
        out[209] = float(node.outcome is None and state.may_double(me))
        if stakes.length:
            out[210] = min(1.0, stakes.score[player] / stakes.length)
            out[211] = min(1.0, stakes.score[1 - player] / stakes.length)
            out[212] = min(1.0, stakes.length / 25)
        out[213] = float(stakes.crawford)
        out[214] = float(stakes.gammons_count())
    return out


@pytest.mark.parametrize("ruleset", ["seed", "money"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_backgammon_actions_and_observations(ruleset: str, seed: int) -> None:
    enc: Any = encoding("backgammon", ruleset)
    for node in _walk(enc, seed, 120):
        for player in (0, 1):
            assert (
                enc.observation(node, player) == _plain_backgammon_observation(enc, node, player)
            ).all()
        if node.player < 0:
            assert enc.legal_actions(node) == []
            if node.is_chance:  # the table the environment draws from
                outcomes, cumulative = enc.chance_table(node)
                pairs = enc.chance_outcomes(node)
                assert list(outcomes) == [o for o, _ in pairs] and cumulative[-1] == 1.0
                steps = np.diff([0.0, *cumulative])
                assert steps == pytest.approx([p for _, p in pairs])
            continue
        plays, done = node.pending
        legal = enc.legal_actions(node)
        if hasattr(plays[0], "raw") and plays[0].raw:
            k = len(done)
            assert legal == sorted({(p.raw[k][0] - 1) * 6 + p.raw[k][2] - 1 for p in plays})
            for a in legal:
                choice = enc.what(node, a)
                assert set(choice.plays) == {p for p in plays if p.raw[k] == choice.step}
        assert (enc.action_mask(node) == _mask_of(enc, legal)).all()


def _plain_defiance_observation(enc: Any, node: Node, player: int) -> Any:
    """The Defiance observation as it was first written: counter by counter, from the board
    (``board``: ``state.counters()`` with the action of the turn made)."""
    out = np.zeros(enc.observation_shape, np.float32)
    state: Any = node.state
    rebels, imperium = enc.sides
    counters, pools, cell = enc.board(node)
    directions = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    if cell is not None:
        y, x = enc._cell(cell)
        out[22] = 1.0
        out[23, y, x] = 1.0
    for name, (side, direction) in counters.items():
        y, x = enc._cell(name)
        out[directions.index(direction) + (0 if side == rebels else 8), y, x] = 1.0
    y, x = enc._point(state.rebel_command)
    out[16, y, x] = 1.0
    for name in state.imperial_commands:
        y, x = enc._point(name)
        out[17, y, x] += 0.5
    out[18] = pools[rebels] / enc.pool_size
    out[19] = pools[imperium] / enc.pool_size
    out[20] = float(state.side == rebels)
    out[21] = float(player == 0)
    out[24] = _plain_repetitions(node) / 2
    out[25] = min(1.0, node.turns / enc.max_turns)
    return out


@pytest.mark.parametrize("ruleset", ["8x8", "10x10"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_defiance_actions_masks_nodes_and_observations(ruleset: str, seed: int) -> None:
    enc: Any = encoding("defiance", ruleset)
    game = enc.game
    for i, node in enumerate(_walk(enc, seed, 90)):
        if node.is_terminal:
            continue
        state: Any = node.state
        fresh: Any = game.parse_position(state.position())  # answers checked one by one
        legal = enc.legal_actions(node)
        assert (enc.action_mask(node) == _mask_of(enc, legal)).all()
        if node.pending is None:
            assert legal == sorted(enc.action_id(a) for a in fresh.legal_actions())
            rng = random.Random(i)
            for a in rng.sample(legal, 3):
                action = enc.legal(node)[a] if i % 10 == 0 else enc.what(node, a)
                view = fresh.after_action(action)
                after = enc.apply(node, a)
                if view.outcome is not None:
                    assert after.state == fresh.play(Turn(action, None, enc.n))
                else:
                    assert after.pending.options == tuple(c for c, _ in view.command_moves)
                    assert after.state is state and after.player == node.player
        else:
            action = node.pending.action
            view = fresh.after_action(action)
            commands = [enc.command_id(action, c) for c, _ in view.command_moves]
            assert legal == [*sorted(commands), enc.none]
            for c, _ in view.command_moves[:2]:
                after = enc.apply(node, enc.command_id(action, c))
                assert after.state == fresh.play(Turn(action, c, enc.n))
        if i % 3 == 0:
            for player in (0, 1):
                plain = _plain_defiance_observation(enc, node, player)
                assert (enc.observation(node, player) == plain).all()


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_compiled_helper_answers_as_the_python_one(seed: int) -> None:
    core: Any = fast.CORE
    bg: Any = encoding("backgammon", "standard")
    for node in _walk(bg, seed, 60):
        if node.player >= 0 and type(node.pending.plays[0]).__name__ == "Play":
            plays, done = node.pending
            if plays[0].raw:
                assert core.group(plays, len(done)) == fast.group_py(plays, len(done))
                assert core.group(list(plays), len(done)) == fast.group_py(plays, len(done))
    gen: Any = encoding("general")
    table = general_encoding._BY_VALUE
    for node in _walk(gen, seed, 40):
        moves = node.state.legal_moves()
        assert core.actions(moves, table) == fast.actions_py(moves, table)
        legal = core.actions(moves, table)
        assert core.mask(legal, 1305) == fast.mask_py(legal, 1305)
    rng = random.Random(seed)
    actions = rng.sample(range(2569), rng.randrange(0, 900))
    assert core.mask(actions, 2569) == fast.mask_py(actions, 2569)
    for bad in ([-1], [2569]):
        with pytest.raises(ValueError):
            core.mask(bad, 2569)
        with pytest.raises(ValueError):
            fast.mask_py(bad, 2569)
    with pytest.raises(KeyError):
        core.actions([("not", "a", "move")], table)
    with pytest.raises(ValueError):
        core.group([((),)], 0)  # a play without a first step
