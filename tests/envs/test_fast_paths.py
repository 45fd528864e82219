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

import ludotheque
from ludotheque import IllegalMove
from ludotheque.core import Outcome
from ludotheque.envs import TERMINAL_PLAYER, Encoding, Node, encoding, fast
from ludotheque.envs import general as general_encoding
from ludotheque.envs.backgammon import _UNITS
from ludotheque.envs.base import REPETITION, UNFINISHED
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


@pytest.mark.parametrize("ruleset", ["seed", "standard", "money", "match"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_backgammon_steps_are_the_engines(ruleset: str, seed: int) -> None:
    """The encoding's step plays rolls, cube decisions and whole plays as the engine's
    ``play()`` does (the same states; a match goes on to its next game), counts the plays as
    turns, and gives the node the engine's player to move and its legal plays."""
    enc: Any = encoding("backgammon", ruleset, max_turns=80)
    rng = random.Random(seed)
    node = enc.initial()
    for _ in range(400):
        if node.is_terminal:
            break
        state: Any = node.state
        if node.is_chance:
            outcomes = enc.chance_outcomes(node)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            after = enc.apply(node, action)
            expected, turns = state.play(enc.chance_text(node, action)), node.turns
        else:
            action = rng.choice(enc.legal_actions(node))
            after = enc.apply(node, action)
            if after.state is state and after.pending is not None and after.pending.done:
                assert after.player == node.player  # a checker moved, the turn goes on
                assert len(after.pending.done) == len(node.pending.done) + 1
                node = after
                continue
            (move,) = [m for m, plan in enc.turn_plans(node).items() if plan == [action]]
            expected, turns = state.play(move), node.turns + (type(move).__name__ == "Play")
        if expected.outcome() is not None and ruleset == "match":
            expected = expected.next_game() or expected
        assert after.state == expected and after.turns == turns
        if after.outcome is None:
            to_move = expected.to_move
            assert after.player == (-1 if to_move == "chance" else enc.sides.index(to_move))
            if after.player >= 0:
                assert after.pending.plays == tuple(expected.legal_moves())
                assert not after.pending.done
        else:
            assert after.truncated or expected.outcome() is not None
        node = after


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
@pytest.mark.parametrize("ruleset", ["seed", "standard", "money", "match"])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_compiled_backgammon_observation_is_the_reference(ruleset: str, seed: int) -> None:
    """Every number the compiled helper writes (mid-turn boards with hits, the dice left, the
    cube and the match) is the pure-Python reference's, in a buffer of garbage or of zeros."""
    enc: Any = encoding("backgammon", ruleset)
    for node in _walk(enc, seed, 250):
        for player in (0, 1):
            reference = np.zeros(enc.observation_shape, np.float32)
            enc.observe_py(node, player, reference)
            dirty = np.full(enc.observation_shape, np.nan, np.float32)
            enc.observe(node, player, dirty)
            assert dirty.tobytes() == reference.tobytes()
            assert enc.observation(node, player).tobytes() == reference.tobytes()


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
def test_the_compiled_backgammon_observation_refuses_bad_input() -> None:
    core: Any = fast.CORE
    enc: Any = encoding("backgammon", "standard")
    state: Any = enc.apply(enc.initial(), 12).state  # white 3, black 1: white to play 31
    good = (state._white, state._black, ((8, 5, 3, False),), True, 3, 1, 1, False)
    out = np.zeros(215, np.float32)
    core.backgammon_observe(out, *good)
    assert out[196] == 0.25 and out[198] == 0.0 and out[202] == 1.0
    bad_args = [
        (state._white, -1, *good[2:]),  # not a board
        (state._white, 1 << 104, *good[2:]),
        (*good[:2], ((7, 4, 3, False),), *good[3:]),  # no checker on 7
        (*good[:2], ((8, 5, 2, False),), *good[3:]),  # no 2 rolled
        (*good[:2], ((8, 5, 3, True),), *good[3:]),  # no black checker to hit on 5
        (*good[:2], ((8, 5, 3),), *good[3:]),
        (*good[:4], 1, 3, *good[6:]),  # the high die first
        (*good[:6], 3, False),  # no such turn
    ]
    for args in bad_args:
        with pytest.raises((ValueError, OverflowError)):
            core.backgammon_observe(out, *args)
    for buffer in (np.zeros(214, np.float32), np.zeros(215, np.float64), b"\0" * 860):
        with pytest.raises((ValueError, TypeError, BufferError)):
            core.backgammon_observe(buffer, *good)
    with pytest.raises(TypeError):
        core.backgammon_observe(out, *good[:-1])


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


def _defiance_cycle(enc: Any) -> list[Node]:
    """Nodes of an 8 x 8 game whose position repeats (twice, then a draw): six placements,
    then both sides turn a counter and back, twice, the turns made in two decisions."""
    rng = random.Random(5)
    node = enc.initial()
    for _ in range(6):
        node = enc.apply(node, rng.choice([a for a in enc.legal_actions(node) if a < 512]))
        if node.pending is not None:
            node = enc.apply(node, enc.none)
    nodes = [node]
    for words in ["g3@N", "a7@N", "g3@NW", "a7@SE"] * 2:
        (action,) = [a for a in enc.legal_actions(node) if enc.action_words(a) == words]
        nodes.append(enc.apply(node, action))
        node = enc.apply(nodes[-1], enc.none)
        nodes.append(node)
    assert node.outcome is not None and node.outcome.reason == REPETITION
    assert {n.repetitions() for n in nodes} == {0, 1, 2}
    return nodes


def test_defiance_history_keeps_the_positions_without_the_engines_caches() -> None:
    """The positions kept for the repetition rule are the game's (equal, in order), without
    the engine's caches of the states played (their turns, the board after an action); the
    repetitions are still counted, and a draw declared at the third occurrence."""
    from ludotheque.games.defiance.rules import _UNSET, DefianceState

    def defiance(state: ludotheque.State) -> DefianceState:
        assert isinstance(state, DefianceState)
        return state

    enc: Any = encoding("defiance", "8x8")
    nodes = _walk(enc, 3, 120)
    played = [defiance(n.state) for n in nodes if n.pending is None and not n.is_terminal]
    assert all(s._moves is not _UNSET for s in played[:-1])  # their turns were listed
    kept = [defiance(state) for state in nodes[-1].seen_states]
    assert kept == [n.state for n in nodes if n.pending is None]
    for state in kept:
        assert state._moves is _UNSET and state._mid is _UNSET and state._counts is _UNSET
    cycle = _defiance_cycle(enc)
    assert [n.repetitions() for n in cycle[-4:]] == [1, 1, 1, 2]
    assert pickle.loads(pickle.dumps(cycle[-3])).repetitions() == 1


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
@pytest.mark.parametrize("ruleset", ["8x8", "10x10"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_compiled_defiance_observation_is_the_reference(ruleset: str, seed: int) -> None:
    """Every number the compiled helper writes (the board after the action and its captures
    in the second decision, the Commands, the pools, the repetitions, the turns) is the
    pure-Python reference's, in a buffer of garbage or of zeros."""
    enc: Any = encoding("defiance", ruleset, max_turns=70)
    nodes = _walk(enc, seed, 140)
    if ruleset == "8x8":
        nodes += _defiance_cycle(enc)
    for node in nodes:
        for player in (0, 1):
            reference = np.zeros(enc.observation_shape, np.float32)
            enc.observe_py(node, player, reference)
            dirty = np.full(enc.observation_shape, np.nan, np.float32)
            enc.observe(node, player, dirty)
            assert dirty.tobytes() == reference.tobytes()
            assert enc.observation(node, player).tobytes() == reference.tobytes()


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
def test_the_compiled_defiance_observation_refuses_bad_input() -> None:
    core: Any = fast.CORE
    enc: Any = encoding("defiance", "8x8")
    state: Any = enc.initial().state
    masks = state.bitboards()[0]
    pools = state.pools
    wholes = (pools["rebels"] / enc.pool_size, pools["imperium"] / enc.pool_size, 1.0, 0, 0, 0)
    good = (8, masks, -1, state._rebel, *state._imperial, wholes)
    out = np.full((26, 9, 9), np.nan, np.float32)
    core.defiance_observe(out, *good)  # the start seen by the Imperium
    reference = np.zeros((26, 9, 9), np.float32)
    enc.observe_py(enc.initial(), 1, reference)
    assert out.tobytes() == reference.tobytes()
    far = list(masks)
    far[3] = 1 << 64  # cell 64: off an 8 x 8 board
    bad_args = [
        (12, *good[1:]),  # no such board
        (8, masks, 64, *good[3:]),  # no such cell
        (*good[:3], 81, *good[4:]),  # no such point
        (8, tuple(far), *good[2:]),
        (8, (*masks[:3], -1, *masks[4:]), *good[2:]),
    ]
    for args in bad_args:
        with pytest.raises((ValueError, OverflowError)):
            core.defiance_observe(out, *args)
    for args in [(8, masks[:16], *good[2:]), (*good[:6], wholes[:5]), (*good[:6], [*wholes])]:
        with pytest.raises(TypeError):
            core.defiance_observe(out, *args)
    for buffer in (np.zeros((26, 11, 11), np.float32), np.zeros((26, 9, 9)), bytes(8424)):
        with pytest.raises((ValueError, TypeError, BufferError)):
            core.defiance_observe(buffer, *good)


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
    for node in _walk(gen, seed, 40):
        legal = gen.legal_actions(node)
        assert core.mask(legal, 1305) == fast.mask_py(legal, 1305)
    rng = random.Random(seed)
    actions = rng.sample(range(2569), rng.randrange(0, 900))
    assert core.mask(actions, 2569) == fast.mask_py(actions, 2569)
    for bad in ([-1], [2569]):
        with pytest.raises(ValueError):
            core.mask(bad, 2569)
        with pytest.raises(ValueError):
            fast.mask_py(bad, 2569)
    with pytest.raises(ValueError):
        core.group([((),)], 0)  # a play without a first step


# -- the General's whole step on packed positions ------------------------------------------


def _plain_key(state: Any) -> int:
    """The packed position of ``state``, from its public answers."""
    index = general_encoding.POINT_INDEX
    rebels = sum(1 << index[name] for name in state.rebels)
    general = index[state.general] << 29
    return rebels | general | (state.side == "general") << 34 | state.flight_available << 35


def _reverse(text: str) -> str:
    """The step back of a move (``a1-b2``: ``b2-a1``; nothing for a capture or a flight)."""
    src, _, dst = text.partition("-")
    return f"{dst}-{src}" if len(dst) == 2 else ""


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    limit=st.sampled_from([9, 40, 1000]),
    back=st.sampled_from([0.0, 0.6, 0.95]),
)
def test_general_nodes_follow_a_record_kept_by_hand(seed: int, limit: int, back: float) -> None:
    """Nodes of the packed step against the rules applied by hand along a random game (each
    side often steps back where it came from, with probability ``back``, so that positions
    repeat): the engine's states,
    the positions since the last capture or flight compared as values, the draw by threefold
    repetition, the turn limit, the legal actions (by notation), illegal actions, pickling."""
    enc: Any = encoding("general", max_turns=limit)
    rng = random.Random(seed)
    state: Any = ludotheque.load("general").start()
    node = enc.initial()
    since = [state]
    turns = 0
    last: dict[str, str] = {}
    while True:
        assert node.state == state and node.turns == turns
        assert node.key == _plain_key(state) == general_encoding.key_of(state)
        assert list(node.seen_states) == since
        assert node.seen == tuple(map(_plain_key, since))
        repeats = since[:-1].count(state)
        assert node.repetitions() == repeats
        if state.outcome() is not None:
            assert node.outcome == state.outcome() and not node.truncated
        elif repeats + 1 >= 3:
            assert node.outcome == Outcome(None, REPETITION) and not node.truncated
        elif turns >= limit:
            assert node.outcome == Outcome(None, UNFINISHED) and node.truncated
        else:
            assert node.outcome is None and node.player == enc.sides.index(state.to_move)
        if turns % 7 == 0 or node.outcome is not None:
            copy = pickle.loads(pickle.dumps(node))
            fields = ("key", "keys", "count", "legal", "turns", "outcome", "truncated", "player")
            assert [getattr(copy, f) for f in fields] == [getattr(node, f) for f in fields]
        if node.outcome is not None:
            assert node.player == TERMINAL_PLAYER and enc.legal_actions(node) == []
            with pytest.raises(IllegalMove, match="over"):
                enc.apply(node, 0)
            break
        moves = {general_encoding.action_of(str(m)): m for m in state.legal_moves()}
        assert enc.legal_actions(node) == sorted(moves)
        for bad in rng.sample(range(-2, 1310), 8):
            if bad not in moves:
                with pytest.raises(IllegalMove, match="not legal"):
                    enc.apply(node, bad)
        side = state.to_move
        by_text = {str(m): a for a, m in moves.items()}
        undo = by_text.get(_reverse(last[side])) if side in last else None
        action = undo if undo is not None and rng.random() < back else rng.choice(sorted(moves))
        move = moves[action]
        last[side] = str(move)
        node = enc.apply(node, action)
        after = state.play(str(move))
        if (after.rebel_count, after.flight_available) != (
            state.rebel_count,
            state.flight_available,
        ):
            since = [after]  # a capture or the flight: nothing before can occur again
        else:
            since.append(after)
        state = after
        turns += 1


_SQUARES = range(25)  # rebels never stand in the sanctuary (points 25-28)


@st.composite
def _positions(draw: st.DrawFn) -> int:
    """Any position of the General, packed (rebels: an even number, 4 to 16)."""
    rebels = draw(st.lists(st.sampled_from(_SQUARES), min_size=4, max_size=16, unique=True))
    if len(rebels) % 2:
        rebels.pop()
    general = draw(st.sampled_from([p for p in range(29) if p not in rebels]))
    flight = general != 28 and draw(st.booleans())
    side = draw(st.integers(0, 1))
    return sum(1 << p for p in rebels) | general << 29 | side << 34 | flight << 35


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
@settings(max_examples=150, deadline=None)
@given(key=_positions(), data=st.data())
def test_the_compiled_general_step_answers_as_the_engine(key: int, data: st.DataObject) -> None:
    """The compiled step, legal actions and observation against their Python references
    (the engine's own moves and outcome), at any position: flights and shut-in generals
    included."""
    core: Any = fast.CORE
    ref = general_encoding
    legal = core.general_legal(key)
    assert legal == ref.legal_py(key)
    earlier = data.draw(st.lists(_positions(), max_size=6))
    keys = ref.pack([*earlier, key, *earlier[:2], key])
    actions = [*legal, *data.draw(st.lists(st.integers(-5, 1400), max_size=6)), 10**30]
    for action in actions:
        assert core.general_step(key, action, keys) == ref.step_py(key, action, keys)
    count, turns = data.draw(st.integers(1, 3)), data.draw(st.integers(0, 1200))
    for player in (0, 1):
        mine = np.full(ref.SHAPE, np.nan, np.float32)
        core.general_observe(mine, key, player, count, turns, 1000)
        theirs = np.full(ref.SHAPE, np.nan, np.float32)
        ref.observe_py(theirs, key, player, count, turns, 1000)
        assert (mine == theirs).all()  # every number written (no NaN left), the same


@pytest.mark.skipif(fast.CORE is None, reason="the compiled helper is not built")
def test_the_compiled_general_step_refuses_bad_input() -> None:
    core: Any = fast.CORE
    start = general_encoding.key_of(ludotheque.load("general").start())
    for bad in (-1, 1 << 36, 31 << 29, "c3"):
        with pytest.raises((ValueError, OverflowError, TypeError)):
            core.general_legal(bad)
        with pytest.raises((ValueError, OverflowError, TypeError)):
            core.general_step(bad, 5, b"")
    with pytest.raises(ValueError):
        core.general_step(start, 5, b"1234567")  # not whole keys
    with pytest.raises(TypeError):
        core.general_step(start, 5, bytearray(8))
    with pytest.raises(ValueError):
        core.general_observe(np.zeros((8, 7, 4), np.float32), start, 0, 1, 0, 10)
    with pytest.raises(ValueError):
        core.general_observe(np.zeros((8, 7, 5), np.float64), start, 0, 1, 0, 10)
    with pytest.raises(ValueError):
        core.general_observe(np.zeros((8, 7, 5), np.float32), start, 0, 1, 0, 0)
    with pytest.raises((ValueError, BufferError)):
        core.general_observe(np.zeros((8, 7, 5), np.float32)[::-1], start, 0, 1, 0, 10)


RARE = [
    "s1 a1,a2,b5,c5,d5,e1 g 1",  # the general shut in the sanctuary
    "s2 a1,a2,a3,a4,a5,b1,b5,c1,d1,d5,e1,e2,e4,e5,b3,d3 g 1",  # a flight that captures
    "s3 a1,a2,a3,a4,a5,b1,b2,b3,b4,c1,c2,c4,d2,d4,e2,e4 g 1",  # flights, captures on landing
    "a1 a2,b1,b2,e3,e4,e5 g 1",  # the general immobilised
    "c3 a1,a2,b1,b2 r 0",  # twelve rebels captured
    "s4 a1,a2,a3,a4,b1,b2 g 0",  # on the apex, the flight used
    "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1",  # the start
]


@pytest.mark.parametrize("position", RARE)
def test_every_action_of_the_general_step_at_rare_positions(position: str) -> None:
    """Every action (legal or not) at positions that random games seldom reach, through the
    step in use (compiled or not) and through the engine: the next position, legal actions,
    keys and count, and the node's ending."""
    enc: Any = encoding("general")
    node = enc.node_at(position)
    state: Any = node.state
    ref = general_encoding
    keys = ref.pack([node.key, 12345, node.key])
    assert ref.legal_at(node.key) == ref.legal_py(node.key)
    moves = {ref.action_of(str(m)): m for m in state.legal_moves()}
    assert node.legal == sorted(moves) and node.is_terminal == (state.outcome() is not None)
    assert node.outcome == state.outcome()
    for action in range(-1, enc.num_actions + 1):
        found = ref.step(node.key, action, keys)
        assert found == ref.step_py(node.key, action, keys)
        if action not in moves:
            assert found is None
            continue
        assert found is not None
        after = state.play(moves[action])
        key, legal, next_keys, count = found
        assert key == _plain_key(after) and legal == ref.legal_py(key)
        same = (after.rebel_count, after.flight_available) == (
            state.rebel_count,
            state.flight_available,
        )
        assert ref.unpack(next_keys) == ([node.key, 12345, node.key, key] if same else [key])
        assert count == ref.unpack(next_keys).count(key)
