"""Our games as PettingZoo AEC environments: PettingZoo's own API and seed tests for every game
and ruleset, rewards, truncation, illegal actions and the text board."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove

pytest.importorskip("pettingzoo")
pz_test = pytest.importorskip("pettingzoo.test")
envs = pytest.importorskip("ludotheque.envs.pettingzoo")

RULESETS = [(g, r) for g, rs in ludotheque.available_games().items() for r in rs]


def _quiet(check: Any, *args: Any, **kwargs: Any) -> None:
    """Run a PettingZoo check without its advice (dict observations, like its classic games)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(*args, **kwargs)


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_pettingzoo_api_test(game: str, ruleset: str) -> None:
    _quiet(pz_test.api_test, envs.env(game, ruleset))


@pytest.mark.parametrize(("game", "ruleset"), RULESETS)
def test_pettingzoo_seed_test(game: str, ruleset: str) -> None:
    _quiet(pz_test.seed_test, lambda: envs.env(game, ruleset))


def _play(
    env: Any, rng: np.random.Generator
) -> dict[str, tuple[float, bool, bool, dict[str, Any]]]:
    """Random legal actions to the end; each agent's last (reward, terminated, truncated, info)."""
    final = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, terminated, truncated, info)
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert observation["observation"].shape == env.observation_space(agent)["observation"].shape
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return final


def test_agents_sides_and_a_whole_game() -> None:
    env = envs.env("general")
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.unwrapped.sides == {"player_0": "rebels", "player_1": "general"}
    assert env.agent_selection == "player_0"
    observation, *_ = env.last()
    assert observation["action_mask"].dtype == np.int8 and observation["action_mask"].sum() > 0
    assert not env.observe("player_1")["action_mask"].any()  # not its turn
    final = _play(env, np.random.default_rng(1))
    (r0, t0, c0, info0), (r1, _, _, info1) = final["player_0"], final["player_1"]
    assert t0 and not c0 and r0 == -r1 and info0 == info1
    winner = info0["winner"]
    assert (r0 == 1.0) == (winner == "rebels") and (r1 == 1.0) == (winner == "general")


def test_a_turn_is_several_steps_of_one_agent_and_dice_follow_the_seed() -> None:
    env = envs.env("backgammon", "standard")
    env.reset(seed=4)
    first = env.unwrapped.node.state.position()
    env.reset(seed=4)
    assert env.unwrapped.node.state.position() == first  # the same opening roll
    agent = env.agent_selection
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agent_selection == agent  # the second checker of the roll
    rolls = set()
    for seed in range(12):
        env.reset(seed=seed)
        rolls.add(env.unwrapped.node.state.position())
    assert len(rolls) > 3

    env = envs.env("defiance", "8x8")
    env.reset(seed=0)
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agent_selection == "player_0"  # now its Command move (or none)
    observation, *_ = env.last()
    assert observation["action_mask"][env.unwrapped.encoding.none] == 1
    assert observation["observation"][22].all()


def test_the_turn_limit_truncates_where_the_rules_have_none() -> None:
    env = envs.env("general", max_turns=2)
    env.reset(seed=0)
    final = _play(env, np.random.default_rng(0))
    assert all(c and not t and r == 0 for r, t, c, _ in final.values())
    assert final["player_0"][3] == {"winner": None, "reason": "unfinished"}

    env = envs.env("defiance", "8x8", max_turns=2)  # Defiance's own turn limit: a draw
    env.reset(seed=0)
    final = _play(env, np.random.default_rng(0))
    assert all(t and not c and r == 0 for r, t, c, _ in final.values())
    assert final["player_1"][3]["reason"] == "turn-limit"


def test_money_rewards_are_the_points_won() -> None:
    if "money" not in ludotheque.available_games()["backgammon"]:
        pytest.skip("no money ruleset here")
    env = envs.env("backgammon", "money")
    for seed in range(4):
        env.reset(seed=seed)
        final = _play(env, np.random.default_rng(seed))
        rewards = [final[a][0] for a in env.possible_agents]
        assert rewards[0] == -rewards[1] and abs(rewards[0]) >= 1 and abs(rewards[0]) % 1 == 0


def test_a_match_of_any_length() -> None:
    """``match_length`` sets the points of backgammon's match; whole matches end at them."""
    _quiet(pz_test.api_test, envs.env("backgammon", "match", match_length=2))
    env = envs.env("backgammon", "match", match_length=1)
    for seed in range(2):
        env.reset(seed=seed)
        assert env.unwrapped.encoding.initial().state.stakes.length == 1
        final = _play(env, np.random.default_rng(seed))
        rewards = sorted(final[a][0] for a in env.possible_agents)
        assert rewards == [-1, 1] and all(t and not c for _, t, c, _ in final.values())
    with pytest.raises(ValueError, match="match ruleset"):
        envs.env("backgammon", "money", match_length=3)
    with pytest.raises(ludotheque.InvalidPosition, match="1 to 25 points"):
        envs.env("backgammon", "match", match_length=0)


def test_illegal_actions() -> None:
    raw = envs.raw_env("general")
    raw.reset(seed=0)
    with pytest.raises(IllegalMove):
        raw.step(0)  # not legal at the start
    with pytest.raises(IllegalMove):
        raw.step("a2-b2")
    env = envs.env("general")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(0)  # PettingZoo's classic rule: an illegal action loses
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values())


@pytest.mark.parametrize(
    ("game", "ruleset"), [("general", None), ("backgammon", "standard"), ("defiance", "8x8")]
)
def test_ansi_render_draws_the_terminal_board(game: str, ruleset: str | None) -> None:
    env = envs.env(game, ruleset, render_mode="ansi")
    env.reset(seed=2)
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    text = env.render()
    assert isinstance(text, str) and env.unwrapped.node.state.position().split()[0] in text
    if game == "defiance":  # in the middle of a turn: the counter just placed is drawn
        assert "| action " in text and "r" in text.split("(points x)")[1]
    if game == "backgammon" and env.unwrapped.encoding.in_turn(env.unwrapped.node):
        assert "| moved " in text
    quiet = envs.env(game, ruleset)
    quiet.reset(seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        envs.env(game, ruleset, render_mode="human")


def _trace(env: Any, choices: list[int], seed: int) -> list[Any]:
    """What an agent sees stepping ``env`` with ``choices``: each a legal action (by its rank
    in the mask), or now and then an illegal one; every error is recorded and the game goes on."""
    seen: list[Any] = []
    env.reset(seed=seed)
    for choice in choices:
        if not env.agents:
            break
        observation, reward, terminated, truncated, info = env.last()
        seen.append(
            (
                env.agent_selection,
                reward,
                terminated,
                truncated,
                info,
                observation["observation"].tobytes(),
                observation["action_mask"].tobytes(),
            )
        )
        legal = np.flatnonzero(observation["action_mask"])
        if terminated or truncated:
            action: Any = None
        elif choice < 0:
            action = choice  # out of the action space
        elif choice % 7 == 0:
            action = int(np.flatnonzero(observation["action_mask"] == 0)[0])  # illegal
        else:
            action = int(legal[choice % len(legal)])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                env.step(action)
                seen.append(("ok", dict(env.rewards), [str(w.message) for w in caught]))
            except Exception as error:  # what the agent would see
                seen.append((type(error).__name__, str(error)))
    return seen


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from([("general", None), ("backgammon", "standard"), ("defiance", "8x8")]),
    choices=st.lists(st.integers(min_value=-1, max_value=60), min_size=1, max_size=60),
    seed=st.integers(0, 50),
)
def test_env_checks_as_pettingzoo_wrappers_do(
    game: tuple[str, str | None], choices: list[int], seed: int
) -> None:
    """``env()`` checks order, bounds and legality itself; an agent sees exactly what
    PettingZoo's own three wrappers show it (the same errors, warnings, rewards and ends)."""
    ours = _trace(envs.env(*game), choices, seed)
    theirs = _trace(envs.wrap(envs.raw_env(*game)), choices, seed)
    assert ours == theirs


def test_env_refuses_calls_before_reset_and_steps_outside_its_space() -> None:
    env = envs.env("general")
    for name in ("agents", "num_agents", "rewards", "agent_selection", "infos"):
        with pytest.raises(AttributeError):
            getattr(env, name)
    for call in (lambda: env.step(1), lambda: env.observe("player_0"), env.agent_iter):
        with pytest.raises(AssertionError, match="reset"):
            call()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        env.step(env.action_space("player_0").n)
    with pytest.raises(AssertionError, match="step"):
        for _ in env.agent_iter():  # the loop never steps
            pass
