"""The encodings for the frameworks, without the frameworks: fixed numbers, exact masks, every
engine move reachable by exactly one path of actions, observations, and the ends of a game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove, InvalidPosition, UnknownGame
from ludotheque.envs import CHANCE_PLAYER, TERMINAL_PLAYER, Encoding, Node, encoding
from ludotheque.envs.base import REPETITION, TURN_LIMIT, UNFINISHED

RULESETS = [(g, r) for g, rs in ludotheque.available_games().items() for r in rs]

# the README table: actions, observation shape, longest game (actions, rolls included)
SIZES = {
    ("general", "default"): (1305, (8, 7, 5), 1000),
    ("backgammon", "seed"): (157, (215,), 5001),
    ("backgammon", "standard"): (157, (215,), 5001),
    ("backgammon", "money"): (157, (215,), 8001),
    ("backgammon", "match"): (157, (215,), 40001),
    ("defiance", "10x10"): (2569, (26, 11, 11), 800),
    ("defiance", "8x8"): (1673, (26, 9, 9), 800),
}
CUBE = [r for r in RULESETS if r[1] in ("money", "match")]


def test_every_game_and_ruleset_has_an_encoding_of_the_documented_size() -> None:
    assert set(RULESETS) <= set(SIZES)
    assert {("general", "default"), ("backgammon", "seed"), ("defiance", "8x8")} <= set(RULESETS)
    for game, ruleset in RULESETS:
        actions, shape, length = SIZES[game, ruleset]
        enc = encoding(game, ruleset)
        assert (enc.num_actions, enc.observation_shape, enc.max_game_length) == (
            actions,
            shape,
            length,
        )
        assert enc.sides == ludotheque.load(game, ruleset).sides


def test_defaults_and_bad_arguments() -> None:
    assert encoding("backgammon").ruleset == "seed"
    assert encoding("defiance").ruleset == "10x10"
    assert encoding("defiance").max_turns == 400  # the contract's turn limit
    assert encoding("defiance", "8x8", max_turns=10).max_game_length == 20
    with pytest.raises(UnknownGame):
        encoding("chess")
    with pytest.raises(UnknownGame):
        encoding("defiance", "12x12")
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="max_turns"):
            encoding("general", max_turns=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidPosition):
        encoding("general").node_at("c3 nowhere r 1")
    with pytest.raises(InvalidPosition):
        encoding("general").node_at(ludotheque.load("backgammon").start())


def _action(enc: Encoding, node: Node, text: str) -> int:
    """The action whose text is ``text`` at ``node`` (one exactly)."""
    found = [a for a in enc.legal_actions(node) if enc.action_text(node, a) == text]
    assert len(found) == 1, (text, [enc.action_text(node, a) for a in enc.legal_actions(node)])
    return found[0]


def test_general_numbers_are_fixed() -> None:
    enc = encoding("general")
    node = enc.initial()
    assert _action(enc, node, "a2-b2") == (1 * 8 + 2) * 5  # a2 = point 1, east, no capture
    node = enc.node_at("c3 a1,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5,d3 g 1")
    # c3 = point 12, south-west to b2, taking a3 and c1 (orientation SE–NW = 4)
    assert _action(enc, node, "c3-b2xa3c1") == (12 * 8 + 5) * 5 + 4
    node = enc.node_at("s2 a1,a2,a3,a4,a5,b1,b5,c1,d1,d5,e1,e2,e4,e5,b3,d3 g 1")
    # a flight from s2 landing on c3 (point 12), taking b3 and d3 (orientation E–W = 3)
    assert _action(enc, node, "s2-s4*c3xb3d3") == 1160 + 12 * 5 + 3
    assert enc.action_of("c3-b2") == (12 * 8 + 5) * 5  # type: ignore[attr-defined]


def test_backgammon_numbers_are_fixed() -> None:
    enc = encoding("backgammon", "standard")
    node = enc.initial()
    assert dict(enc.chance_outcomes(node))[12] == pytest.approx(1 / 30)  # white 3, black 1
    assert enc.chance_text(node, 12) == "w3b1"
    node = enc.apply(node, 12)  # the higher die starts: white plays 31
    assert _action(enc, node, "13/10") == (13 - 1) * 6 + (3 - 1)
    assert _action(enc, node, "6/5") == (6 - 1) * 6 + (1 - 1)
    node = enc.node_at("W[bar,6x4] B[1x2] w 51")
    assert enc.legal_actions(node) == [(25 - 1) * 6 + (5 - 1)]  # bar/20 with the 5 first
    node = enc.node_at("W[6,3] B[24x2] w 55")  # the contract's case 6: no move
    assert enc.legal_actions(node) == [150]
    assert enc.action_text(node, 150) == "pass"
    after = enc.apply(node, 150)
    assert after.is_chance and after.state.position() == "W[6,3] B[24x2] b -"
    roll = enc.chance_outcomes(after)
    assert [o for o, _ in roll] == sorted(
        (h - 1) * 6 + (lo - 1) for h in range(1, 7) for lo in range(1, h + 1)
    )
    assert sum(p for _, p in roll) == pytest.approx(1)


def test_defiance_numbers_are_fixed() -> None:
    enc = encoding("defiance", "10x10")
    node = enc.initial()
    assert _action(enc, node, "e5>N") == (4 * 10 + 4) * 8 + 0
    mid = enc.apply(node, (4 * 10 + 4) * 8)
    assert mid.player == 0 and enc.in_turn(mid)
    # the Rebel Command from P2.2 one step east: point 2 * 11 + 2, direction E = 2
    assert _action(enc, mid, "P2.2-P3.2") == 1600 + (2 * 11 + 2) * 8 + 2
    assert _action(enc, mid, "no Command move") == 2568
    after = enc.apply(mid, 1600 + (2 * 11 + 2) * 8 + 2)
    assert after.state.position() == "10/10/10/10/10/4RN5/10/10/10/10 r39,i40 R3.2,I7.8,I8.7 i"
    node = enc.node_at("10/10/10/10/10/10/10/10/2RN7/10 r39,i40 R2.2,I7.8,I8.7 r")
    assert _action(enc, node, "c2@W") == 800 + (1 * 10 + 2) * 8 + 6
    small = encoding("defiance", "8x8")
    assert small.none == 1672 and small.action_words(512) == "a1@N"  # type: ignore[attr-defined]


def _step(enc: Encoding, node: Node, rng: random.Random) -> Node:
    """``node`` after one random action (or chance outcome, by its probability)."""
    if node.is_chance:
        outcomes = enc.chance_outcomes(node)
        return enc.apply(node, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
    return enc.apply(node, rng.choice(enc.legal_actions(node)))


def _decision_node(enc: Encoding, seed: int) -> Node:
    """A node at the start of a turn, somewhere in a random game."""
    rng = random.Random(seed)
    while True:
        node = enc.initial()
        for _ in range(rng.randrange(0, 60)):
            if node.is_terminal:
                break
            node = _step(enc, node, rng)
        while not node.is_terminal and (node.is_chance or enc.in_turn(node)):
            node = _step(enc, node, rng)
        if not node.is_terminal:
            return node


def _paths(enc: Encoding, node: Node) -> dict[Any, list[list[int]]]:
    """Every path of actions from ``node`` to the end of its decision (a whole move of the
    engine), by the state it reaches."""
    out: dict[Any, list[list[int]]] = {}

    def walk(n: Node, path: list[int]) -> None:
        for a in enc.legal_actions(n):
            nxt = enc.apply(n, a)
            if nxt.turns > node.turns or nxt.player != node.player:  # (a cube decision too)
                out.setdefault(nxt.state, []).append([*path, a])
            else:
                walk(nxt, [*path, a])

    walk(node, [])
    return out


@pytest.mark.parametrize(("game", "ruleset"), [r for r in RULESETS if r[0] != "defiance"])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_move_is_exactly_one_path_of_actions(game: str, ruleset: str, seed: int) -> None:
    enc = encoding(game, ruleset)
    node = _decision_node(enc, seed)
    state = node.state
    paths = _paths(enc, node)
    plans = enc.turn_plans(node)
    assert len(plans) == len(state.legal_moves())
    assert set(paths) == {_after(state, m) for m in state.legal_moves()}
    for move, plan in plans.items():
        assert paths[_after(state, move)] == [plan]  # one path, and it is the plan


def _after(state: Any, move: Any) -> Any:
    """The state after ``move``; a match goes on with its next game."""
    after = state.play(move)
    if after.outcome() is not None and ruleset_of(state) == "match":
        return after.next_game() or after
    return after


def ruleset_of(state: Any) -> str:
    return str(state.game.ruleset)


@pytest.mark.parametrize("ruleset", ["10x10", "8x8"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_defiance_turn_is_its_action_then_its_command_move(ruleset: str, seed: int) -> None:
    enc = encoding("defiance", ruleset, max_turns=400)
    node = _decision_node(enc, seed)
    state: Any = node.state
    actions = state.legal_actions()
    assert len(enc.legal_actions(node)) == len(actions)
    plans = enc.turn_plans(node)
    turns = state.legal_moves()
    assert len(plans) == len(turns)
    assert len({tuple(p) for p in plans.values()}) == len(turns)
    rng = random.Random(seed)
    for turn in rng.sample(turns, min(25, len(turns))):
        after = node
        for a in plans[turn]:
            assert a in enc.legal_actions(after)
            after = enc.apply(after, a)
        assert after.state == state.play(turn)
    first = rng.choice(enc.legal_actions(node))
    mid = enc.apply(node, first)
    if not mid.is_terminal:
        view = state.after_action(enc.legal(node)[first])
        assert len(enc.legal_actions(mid)) == len(view.command_moves) + 1


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_random_games_stay_in_range_and_end(game: str, ruleset: str) -> None:
    rng = random.Random(7)
    enc = encoding(game, ruleset, max_turns=30 if game == "defiance" else None)
    for _ in range(3 if game != "defiance" else 1):
        node = enc.initial()
        length = 0
        while not node.is_terminal:
            length += 1
            if node.is_chance:
                assert node.player == CHANCE_PLAYER and not enc.legal_actions(node)
                node = _step(enc, node, rng)
                continue
            legal = enc.legal_actions(node)
            assert legal == sorted(set(legal)) and legal[0] >= 0 and legal[-1] < enc.num_actions
            mask = enc.action_mask(node)
            assert mask.dtype == np.int8 and mask.sum() == len(legal) and all(mask[legal])
            for player in (0, 1):
                obs = enc.observation(node, player)
                assert obs.shape == enc.observation_shape and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
            texts = [enc.action_text(node, a) for a in legal]
            assert len(set(texts)) == len(texts)
            node = enc.apply(node, rng.choice(legal))
        assert length <= enc.max_game_length
        assert node.player == TERMINAL_PLAYER and sum(enc.returns(node)) == 0
        assert not enc.legal_actions(node) and not enc.action_mask(node).any()


def test_observations_at_the_start() -> None:
    general = encoding("general")
    obs = general.observation(general.initial(), 0)
    assert obs[0].sum() == 16 and obs[1, 2, 2] == 1 and obs[2].sum() == 29
    assert obs[3].all() and obs[4].all() and obs[5].all() and not obs[6:].any()
    assert not general.observation(general.initial(), 1)[5].any()

    bg = encoding("backgammon", "seed")
    node = bg.apply(bg.initial(), (1 - 1) * 6 + (3 - 1))  # w1b3: white (lower) starts with 31
    obs = bg.observation(node, 0)
    assert list(obs[(24 - 1) * 4 : 24 * 4]) == [1, 1, 0, 0]  # two on the 24-point
    assert list(obs[(6 - 1) * 4 : 6 * 4]) == pytest.approx([1, 1, 1, 2 / 12])  # five on the 6
    assert list(obs[96 + (1 - 1) * 4 : 96 + 4]) == [1, 1, 0, 0]  # black's 24 is white's 1
    assert obs[196] == 0.25 and obs[198] == 0.25  # dice 3 and 1 to play
    assert obs[202] == 1 and obs[203] == 0 and obs[204] == 1  # white to move; the seed's cap
    assert bg.observation(node, 1)[203] == 1
    assert encoding("backgammon", "standard").observation(node, 0)[204] == 0

    df = encoding("defiance", "8x8")
    obs = df.observation(df.initial(), 0)
    assert obs[16, 2, 2] == 1 and obs[17, 6, 6] == 1.0  # both Imperial Commands on P6.6
    assert obs[18].all() and obs[19].all() and obs[20].all() and obs[21].all()


def test_observations_in_the_middle_of_a_turn() -> None:
    df = encoding("defiance", "10x10")
    mid = df.apply(df.initial(), (4 * 10 + 4) * 8 + 1)  # e5>NE
    obs = df.observation(mid, 1)
    assert obs[0 + 1, 4, 4] == 1 and obs[23, 4, 4] == 1 and obs[22].all()
    assert obs[18, 0, 0] == pytest.approx(39 / 40) and obs[19, 0, 0] == 1
    assert df.describe(mid).endswith("| action e5>NE; the Command move next")
    assert "e5" not in df.node_at(df.position_now(df.initial())).state.counters()  # type: ignore[attr-defined]
    assert df.node_at(df.position_now(mid)).state.counters() == {"e5": ("rebels", "NE")}  # type: ignore[attr-defined]

    bg = encoding("backgammon", "standard")
    node = bg.node_at("W[13x2] B[13,1x2] w 31")  # a black blot on white's 12
    hit = _action(bg, node, "13/12*")
    mid = bg.apply(node, hit)
    obs = bg.observation(mid, 0)
    assert list(obs[(12 - 1) * 4 : 12 * 4]) == [1, 0, 0, 0]  # the hitter on 12
    assert obs[193] == pytest.approx(1 / 15)  # black's checker on the bar
    assert obs[196] == 0 and obs[198] == 0.25  # the 1 is used, the 3 is left
    assert bg.describe(mid).endswith("| moved 13/12*; dice left 3")


def test_threefold_repetition_is_a_draw() -> None:
    enc = encoding("general")
    node = enc.initial()
    cycle = ["a1-b2", "c3-b3", "b2-a1", "b3-c3"]
    for text in cycle * 2:
        assert not node.is_terminal
        node = enc.apply(node, _action(enc, node, text))
    assert node.outcome is not None and node.outcome.reason == REPETITION
    assert node.outcome.winner is None and not node.truncated
    assert enc.returns(node) == [0.0, 0.0]
    # the observation counts earlier occurrences
    again = enc.initial()
    for text in cycle:
        again = enc.apply(again, _action(enc, again, text))
    assert enc.observation(again, 0)[6, 0, 0] == 0.5

    df = encoding("defiance", "8x8")
    node = df.node_at("8/8/8/8/8/8/8/RN6IS r39,i39 R2.2,I6.6,I6.6 r")
    cycle = ["a1@E", "no Command move", "h1@W", "no Command move"] * 2
    back = ["a1@N", "no Command move", "h1@S", "no Command move"]
    for text in (cycle[:4] + back) * 2:
        assert not node.is_terminal
        node = df.apply(node, _action(df, node, text))
    assert node.outcome is not None and node.outcome.reason == REPETITION


def test_turn_limits() -> None:
    general = encoding("general", max_turns=2)
    node = general.initial()
    for text in ["a1-b2", "c3-b3"]:
        node = general.apply(node, _action(general, node, text))
    assert node.outcome is not None and node.outcome.reason == UNFINISHED and node.truncated
    assert general.max_game_length == 2

    defiance = encoding("defiance", "8x8", max_turns=1)
    node = defiance.apply(defiance.initial(), 0)
    assert not node.is_terminal
    node = defiance.apply(node, defiance.none)  # type: ignore[attr-defined]
    assert node.outcome is not None and node.outcome.reason == TURN_LIMIT and not node.truncated

    bg = encoding("backgammon", max_turns=1)
    node = bg.apply(bg.initial(), 0 * 6 + 1)  # w1b2
    node = bg.apply(node, bg.legal_actions(node)[0])
    node = bg.apply(node, bg.legal_actions(node)[0])
    assert node.truncated and node.outcome is not None and node.outcome.reason == UNFINISHED


def test_illegal_actions_raise_illegal_move() -> None:
    enc = encoding("general")
    node = enc.initial()
    for bad in (-1, 1305, 10**9, None, "a2-b2", 3.0, True, [1]):
        with pytest.raises(IllegalMove):
            enc.apply(node, bad)  # type: ignore[arg-type]
    # a numpy integer, as OpenSpiel passes them (the signature says int)
    after = enc.apply(node, np.int64(50))  # type: ignore[arg-type]
    assert after.state.position().startswith("c3 a1,a3")
    bg = encoding("backgammon")
    with pytest.raises(IllegalMove):
        bg.apply(bg.initial(), 0)  # white 1, black 1: not an opening roll
    done = encoding("general").node_at("c3 a1,a2,b1,b2 r 0")  # twelve captured
    assert done.is_terminal and done.outcome is not None
    with pytest.raises(IllegalMove, match="over"):
        enc.apply(done, 0)
    assert enc.returns(done) == [-1.0, 1.0]


def test_nodes_are_shared_by_copies_and_survive_pickling() -> None:
    import copy
    import pickle

    enc = encoding("backgammon", "standard")
    node = enc.apply(enc.initial(), 12)
    node = enc.apply(node, enc.legal_actions(node)[0])
    assert copy.deepcopy(node) is node and copy.copy(node) is node
    back = pickle.loads(pickle.dumps(node))
    assert back.state == node.state and back.pending == node.pending
    assert enc.legal_actions(back) == enc.legal_actions(node)


def test_a_match_length_is_kept_by_the_encoding_and_its_pickles() -> None:
    import pickle

    enc = encoding("backgammon", "match", match_length=5)
    assert enc.initial().state.stakes.length == 5  # type: ignore[attr-defined]
    assert enc.observation(enc.initial(), 0)[212] == pytest.approx(5 / 25)
    back = pickle.loads(pickle.dumps(enc))
    assert back.initial().state.stakes.length == 5
    assert encoding("backgammon", "match").initial().state.stakes.length == 7  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="match ruleset"):
        encoding("general", match_length=3)
    for bad in (0, 26, True, "3"):
        with pytest.raises(InvalidPosition, match="1 to 25 points"):
            encoding("backgammon", "match", match_length=bad)  # type: ignore[arg-type]
