"""Our games in OpenSpiel: registration, OpenSpiel's own conformance test with serialization,
and OpenSpiel's algorithms playing them (MCTS against random over whole games, evaluate_bots)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.envs import encoding

pyspiel = pytest.importorskip("pyspiel")
adapter = pytest.importorskip("ludotheque.envs.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
uniform_random = pytest.importorskip("open_spiel.python.bots.uniform_random")
envs = pytest.importorskip("ludotheque.envs.pettingzoo")

RULESETS = [(g, r) for g, rs in ludotheque.available_games().items() for r in rs]


def test_the_three_games_are_registered_with_their_parameters() -> None:
    names = pyspiel.registered_names()
    assert {"ludotheque_general", "ludotheque_backgammon", "ludotheque_defiance"} <= set(names)
    for game, ruleset in RULESETS:
        loaded = pyspiel.load_game(f"ludotheque_{game}", {"ruleset": ruleset})
        enc = encoding(game, ruleset)
        assert loaded.num_distinct_actions() == enc.num_actions
        assert tuple(loaded.observation_tensor_shape()) == enc.observation_shape
        assert loaded.max_game_length() == enc.max_game_length
        assert loaded.max_chance_outcomes() == enc.max_chance_outcomes
        expected: dict[str, Any] = {"ruleset": ruleset, "max_turns": enc.max_turns}
        if ruleset == "match":
            expected["match_length"] = 7
        assert loaded.get_parameters() == expected
        assert loaded.num_players() == 2 and loaded.max_utility() == -loaded.min_utility()
    game = pyspiel.load_game("ludotheque_backgammon")
    assert game.get_parameters()["ruleset"] == "seed"  # the default ruleset
    kinds = pyspiel.GameType.ChanceMode
    assert game.get_type().chance_mode == kinds.EXPLICIT_STOCHASTIC
    assert pyspiel.load_game("ludotheque_general").get_type().chance_mode == kinds.DETERMINISTIC
    short = pyspiel.load_game("ludotheque_defiance", {"ruleset": "8x8", "max_turns": 12})
    assert short.max_game_length() == 24
    with pytest.raises(Exception, match="12x12"):
        pyspiel.load_game("ludotheque_defiance", {"ruleset": "12x12"})


def test_a_backgammon_match_of_any_length() -> None:
    """``match_length`` sets the match's points; a game string names it, and loads it again."""
    three = pyspiel.load_game("ludotheque_backgammon", {"ruleset": "match", "match_length": 3})
    assert three.get_parameters() == {"ruleset": "match", "max_turns": 5000, "match_length": 3}
    state = three.new_initial_state()
    assert state.node.state.stakes.length == 3
    assert state.observation_tensor(0)[212] == pytest.approx(3 / 25)  # the match length over 25
    again = pyspiel.load_game(str(three))
    assert again.new_initial_state().node.state.stakes.length == 3
    pyspiel.random_sim_test(three, num_sims=2, serialize=True, verbose=False)
    rng = np.random.RandomState(3)
    ends = []
    for _ in range(2):  # whole one-point matches: one game each, the winner's point ends it
        state = pyspiel.load_game(
            "ludotheque_backgammon", {"ruleset": "match", "match_length": 1}
        ).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        ends.append(state.node.state)
    assert all(s.stakes.length == 1 and s.next_game() is None for s in ends)
    with pytest.raises(Exception, match="1 to 25 points"):
        pyspiel.load_game("ludotheque_backgammon", {"ruleset": "match", "match_length": 26})
    with pytest.raises(Exception, match="match ruleset"):
        pyspiel.load_game("ludotheque_backgammon", {"ruleset": "standard", "match_length": 3})
    with pytest.raises(Exception):  # noqa: B017 - OpenSpiel's own error for a parameter it lacks
        pyspiel.load_game("ludotheque_general", {"match_length": 3})


def test_zero_is_refused_as_the_other_framework_and_the_rules_refuse_it() -> None:
    """OpenSpiel gives each parameter its default before the game sees it; a default of 0 made
    ``match_length=0`` a 7-point match and ``max_turns=0`` 1,000 turns, where PettingZoo and
    the rules refuse both (an outsider's review). Every refusal is a coded ``InvalidPosition``."""
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("ludotheque_backgammon", {"ruleset": "match", "match_length": 0}, "bad-match-length"),
        ("ludotheque_general", {"max_turns": 0}, "bad-max-turns"),
        ("ludotheque_general", {"max_turns": -5}, "bad-max-turns"),
        (
            "ludotheque_backgammon",
            {"ruleset": "money", "match_length": 3},
            "match-length-not-match",
        ),
    ]
    for name, params, code in cases:
        with pytest.raises(InvalidPosition) as refused:
            pyspiel.load_game(name, params)
        assert refused.value.code == code
        kwargs = {k: v for k, v in params.items() if k != "ruleset"}
        with pytest.raises(InvalidPosition) as again:  # PettingZoo says the same
            envs.env(name.removeprefix("ludotheque_"), params.get("ruleset"), **kwargs)
        assert again.value.code == code
    made = pyspiel.load_game("ludotheque_backgammon", {"ruleset": "match"})
    assert made.get_parameters()["match_length"] == 7
    assert pyspiel.load_game("ludotheque_general").get_parameters()["max_turns"] == 1000


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_openspiel_random_simulation_test_with_serialization(game: str, ruleset: str) -> None:
    loaded = pyspiel.load_game(f"ludotheque_{game}", {"ruleset": ruleset})
    pyspiel.random_sim_test(loaded, num_sims=1 if game == "defiance" else 3, serialize=True,
                            verbose=False)  # fmt: skip


def _play_some(state: Any, actions: int, rng: np.random.RandomState) -> Any:
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(
    ("game", "params", "actions"),
    [
        ("general", {}, 9),
        ("backgammon", {"ruleset": "standard"}, 6),  # part of a turn played
        ("defiance", {"ruleset": "8x8"}, 5),  # an action made, its Command move not yet
    ],
)
def test_states_clone_serialize_and_observe(
    game: str, params: dict[str, str], actions: int
) -> None:
    loaded = pyspiel.load_game(f"ludotheque_{game}", params)
    rng = np.random.RandomState(3)
    state = _play_some(loaded.new_initial_state(), actions, rng)
    while state.is_chance_node():
        state = _play_some(state, 1, rng)
    assert not state.is_terminal()
    text = pyspiel.serialize_game_and_state(loaded, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(loaded)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    assert state2.observation_tensor(0) == state.observation_tensor(0)

    clone = state.clone()
    before = str(state)
    _play_some(clone, 3, np.random.RandomState(4))
    assert str(state) == before and str(clone) != before

    enc = encoding(game, params.get("ruleset"))
    node = state.node
    for player in (0, 1):
        expected = enc.observation(node, player).ravel()
        assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
        assert state.observation_string(player) == enc.describe(node)
    assert [state.action_to_string(state.current_player(), a) for a in state.legal_actions()] == [
        enc.action_text(node, a) for a in enc.legal_actions(node)
    ]


def _answer(method: Any, *args: Any) -> Any:
    """What ``method(*args)`` returns, or the type of the error it raises."""
    try:
        return method(*args)
    except Exception as error:
        return type(error)


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_legal_actions_answered_in_python_are_pyspiels(game: str, ruleset: str) -> None:
    """The state's own ``legal_actions`` and ``is_chance_node`` (answered in Python at decision
    nodes) give what pyspiel's methods give, at decision, chance and terminal nodes, for each
    player and for a pseudo-player."""
    params: dict[str, Any] = {"ruleset": ruleset, "max_turns": 6 if game == "defiance" else 40}
    loaded = pyspiel.load_game(f"ludotheque_{game}", params)
    rng = np.random.RandomState(2)
    state = loaded.new_initial_state()
    kinds = set()
    while True:
        kinds.add(state.current_player())
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in (0, 1):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        assert _answer(state.legal_actions, -3) == _answer(
            lambda p: pyspiel.State.legal_actions(state, p), -3
        )
        if state.is_terminal():
            break
        _play_some(state, 1, rng)
    assert {0, 1, pyspiel.PlayerId.TERMINAL} <= kinds
    if game == "backgammon":
        assert pyspiel.PlayerId.CHANCE in kinds


def test_an_illegal_action_is_refused() -> None:
    state = pyspiel.load_game("ludotheque_general").new_initial_state()
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(0)
    assert state.history() == []


# (game, ruleset, seat of the MCTS bot, simulations, max_turns, seed): whole games, played to
# their natural end (the rules': a win, a dropped double, the end of a whole 7-point match), in
# every game and ruleset, with the MCTS bot in either seat; None keeps the ruleset's own turn
# limit, which these games never reach. A Defiance game costs far more (each simulation's
# rollout plays up to 400 random turns of tens of microseconds: a whole game takes 2 to 37 s by
# seed), so its seeds are among the first few that end in a short game, and on 10 x 10 the
# MCTS bot plays its second seat in a game cut at a turn limit.
MATCHES = [
    ("general", "default", 0, 4, None, 11),
    ("general", "default", 1, 4, None, 11),
    *[("backgammon", r, seat, 2, None, 11) for r in ("seed", "standard", "money", "match")
      for seat in (0, 1)],
    ("defiance", "8x8", 0, 2, None, 0),  # 90 turns: the Imperium captures a Command
    ("defiance", "8x8", 1, 2, None, 2),  # 20 turns
    ("defiance", "10x10", 0, 2, None, 3),  # 96 turns
    ("defiance", "10x10", 1, 4, 8, 11),  # cut at 8 turns (a draw)
]  # fmt: skip


@pytest.mark.parametrize(("game", "ruleset", "seat", "simulations", "max_turns", "seed"), MATCHES)
def test_openspiel_mcts_plays_whole_games_against_random(
    game: str, ruleset: str, seat: int, simulations: int, max_turns: int | None, seed: int
) -> None:
    if ruleset not in ludotheque.available_games()[game]:
        pytest.skip(f"no ruleset {ruleset} here")
    params: dict[str, Any] = {"ruleset": ruleset}
    if max_turns is not None:
        params["max_turns"] = max_turns
    loaded = pyspiel.load_game(f"ludotheque_{game}", params)
    rng = np.random.RandomState(seed)
    searcher = mcts.MCTSBot(
        loaded,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    opponent = uniform_random.UniformRandomBot(1 - seat, rng)
    bots = [searcher, opponent] if seat == 0 else [opponent, searcher]
    state = loaded.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal() and returns == state.returns()
    assert returns[0] == -returns[1] and abs(returns[0]) <= loaded.max_utility()
    node = state.node
    if max_turns is not None:
        assert node.turns <= max_turns
        return
    # the rules ended it (a win here), not the frameworks' turn limit
    assert not node.truncated and node.state.outcome() is not None and returns[0] != 0
    if ruleset == "match":  # the whole match: the winner reached its length (7 points)
        stakes: Any = node.state.stakes
        assert stakes.length == 7 and node.state.next_game() is None


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_evaluate_bots_with_our_own_players(game: str, ruleset: str) -> None:
    params: dict[str, Any] = {"ruleset": ruleset}
    if game == "defiance":
        params["max_turns"] = 8  # greedy weighs each of thousands of turns
    loaded = pyspiel.load_game(f"ludotheque_{game}", params)
    rng = np.random.RandomState(5)
    bots = [adapter.AgentBot(loaded, "greedy", seed=1), uniform_random.UniformRandomBot(1, rng)]
    returns = evaluate_bots.evaluate_bots(loaded.new_initial_state(), bots, rng)
    assert returns[0] == -returns[1]


def test_our_player_finishes_a_turn_it_did_not_start() -> None:
    loaded = pyspiel.load_game("ludotheque_defiance", {"ruleset": "8x8"})
    state = loaded.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # a Rebel action; the Command move is open
    bot = adapter.AgentBot(loaded, "random", seed=2)
    action = bot.step(state)
    assert action in state.legal_actions()
    game = pyspiel.load_game("ludotheque_backgammon", {"ruleset": "standard"})
    state = game.new_initial_state()
    state.apply_action(12)  # white 3, black 1: white plays 31
    state.apply_action(state.legal_actions()[0])  # one checker moved
    bot = adapter.AgentBot(game, "random", seed=2)
    state.apply_action(bot.step(state))
    assert state.is_chance_node()  # the turn is over, black rolls
