"""Our games as PettingZoo AEC environments, like PettingZoo's classic games.

>>> from ludotheque.envs.pettingzoo import env
>>> e = env("backgammon", ruleset="standard")
>>> e.reset(seed=1)
>>> observation, reward, termination, truncation, info = e.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((215,), (157,))

``env(game, ruleset=None, render_mode=None, max_turns=None, match_length=None)``: ``game`` is
``"general"``, ``"backgammon"`` or ``"defiance"``; ``ruleset`` one of its rulesets (``None``: the
default, as ``ludotheque.available_games()`` lists them); ``match_length`` the points of a match of
backgammon's ``match`` ruleset (1 to 25; ``None``: 7), for that ruleset only. Agents are
``player_0`` and ``player_1``, the game's sides in order (``env.unwrapped.sides`` names them);
player_0 moves first. An observation is ``{"observation": array, "action_mask": int8 array}`` with
the game's encoding (see ``ludotheque.envs.general``, ``.backgammon``, ``.defiance``); the mask is
all 0 for the agent not to move. A backgammon turn or a Defiance turn takes several steps of the
same agent.

Dice are rolled inside the environment with a generator seeded by ``reset(seed=…)``. The reward
is 1 to the winner and -1 to the loser at the end (0 each for a draw). A game ended by its rules
(draws by repetition and Defiance's turn limit included) terminates; one stopped at the turn
limit where the rules have none (backgammon, the General) is truncated. ``render_mode="ansi"``
returns the terminal board.

``env()`` behaves as PettingZoo's classic games do in its standard wrappers: an illegal action
loses the game (with a warning), an action outside the action space fails an assertion, and
calls before ``reset()`` are refused. It checks these itself (``checked_env``) instead of
stacking the three wrappers, which cost more than the game's own step (13-23 µs per action
here); ``wrap(raw_env(...))`` still gives the environment in PettingZoo's own wrappers.
``raw_env`` is the bare environment, which raises ``ludotheque.IllegalMove`` on an illegal
action.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    wrappers,
)
from pettingzoo.utils.env import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    AECIterable,
    AECIterator,
)
from pettingzoo.utils.env_logger import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    EnvLogger,
)

from ..core import IllegalMove, InvalidMove
from . import encoding as make_encoding
from .base import CHANCE_PLAYER, INT8, Node

AGENTS = ("player_0", "player_1")
_PLAYER = {agent: i for i, agent in enumerate(AGENTS)}


def env(
    game: str,
    ruleset: str | None = None,
    render_mode: str | None = None,
    max_turns: int | None = None,
    match_length: int | None = None,
) -> Any:
    """The AEC environment of ``game`` with ``ruleset``, checked as PettingZoo's classic games."""
    return checked_env(game, ruleset, render_mode, max_turns, match_length)


def wrap(environment: raw_env) -> Any:
    """``environment`` in PettingZoo's standard wrappers, as its classic games are: an illegal
    action loses the game (with a warning), an action out of range fails an assertion, and the
    calls must come in order."""
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # type: ignore[misc]
    """A game of ours as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game: str,
        ruleset: str | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        match_length: int | None = None,
    ) -> None:
        super().__init__()
        self.encoding = enc = make_encoding(game, ruleset, max_turns, match_length)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"ludotheque_{enc.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.sides = dict(zip(AGENTS, enc.sides, strict=True))
        observation = spaces.Box(0.0, 1.0, enc.observation_shape, np.float32)
        mask = spaces.Box(0, 1, (enc.num_actions,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in AGENTS}
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]
        self._rng: random.Random | None = None
        self._node: Node = enc.initial()

    # -- the AEC interface -----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def node(self) -> Node:
        """The encoding's node of the game now (``node.state`` is the engine state)."""
        return self._node

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the dice (kept from the last seed when ``None``)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self._node = self._roll(self.encoding.initial())
        self.agent_selection = AGENTS[self._node.player]

    def observe(self, agent: str) -> dict[str, Any]:
        node = self._node
        player = _PLAYER[agent]
        enc = self.encoding
        if node.player == player and agent == self.agent_selection:
            mask = enc.action_mask(node)
        else:
            mask = np.zeros(enc.num_actions, INT8)
        return {"observation": enc.observation(node, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._advance(agent, action if type(action) is int else _as_int(action))

    def _advance(self, agent: str, action: int) -> None:
        """``agent`` (to move, alive) plays ``action``; raises ``IllegalMove`` if it may not."""
        self._cumulative_rewards[agent] = 0.0
        node = self.encoding.apply(self._node, action)
        if node.player == CHANCE_PLAYER:
            node = self._roll(node)
        self._node = node
        if node.outcome is None:
            self.agent_selection = AGENTS[node.player]
            return
        returns = self.encoding.returns(node)
        ended = self.truncations if node.truncated else self.terminations
        for i, a in enumerate(AGENTS):
            self.rewards[a] = returns[i]
            ended[a] = True
            self.infos[a] = {"winner": node.outcome.winner, "reason": node.outcome.reason}
        self._accumulate_rewards()
        self.agent_selection = AGENTS[1 - _PLAYER[agent]]

    def render(self) -> str | None:
        """The terminal board (with ``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode")
            return None
        return board_text(self.encoding.name, self._node, self.encoding.describe(self._node))

    def close(self) -> None:
        """Nothing to release."""

    # -- inside ----------------------------------------------------------------------------

    def _roll(self, node: Node) -> Node:
        """Play chance nodes with the environment's generator until someone decides."""
        enc = self.encoding
        rng = self._rng
        assert rng is not None
        while node.player == CHANCE_PLAYER:
            outcomes, cumulative = enc.chance_table(node)
            i = bisect_right(cumulative, rng.random())
            node = enc.apply(node, outcomes[min(i, len(outcomes) - 1)])
        return node


def _as_int(action: Any) -> int:
    """An action given as another integer type (NumPy's); anything else is no action."""
    if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
        raise InvalidMove(
            "an action is an integer, not {action}", code="action-not-integer", action=repr(action)
        )
    return int(action)


# what PettingZoo's OrderEnforcingWrapper refuses to read before reset() (num_agents counts agents)
_AFTER_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)


class checked_env(raw_env):
    """``raw_env`` with the rules that PettingZoo's standard wrappers give its classic games
    (``TerminateIllegalWrapper(illegal_reward=-1)``, ``AssertOutOfBoundsWrapper``,
    ``OrderEnforcingWrapper``), the same errors and warnings, checked in the environment itself:
    the legality check is the encoding's own (``apply`` raises ``IllegalMove``), so a legal step
    costs no more than the raw one."""

    def __init__(
        self,
        game: str,
        ruleset: str | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        match_length: int | None = None,
    ) -> None:
        super().__init__(game, ruleset, render_mode, max_turns, match_length)
        self._has_reset = False
        self._has_updated = False
        self._num_actions = self.encoding.num_actions
        # read before reset(), these raise AttributeError, as PettingZoo's order enforcing does
        # (with Python's own message: a __getattr__ would slow every attribute read)
        for name in _AFTER_RESET - {"num_agents"}:
            delattr(self, name)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        super().reset(seed, options)

    def observe(self, agent: str) -> dict[str, Any]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return raw_env.observe(self, agent)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """The agents in turn; each must step (or reset) before the next, as PettingZoo's
        order-enforcing iterator asserts."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedIterable(self, max_iter)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        if not (type(action) is int and 0 <= action < self._num_actions) and not (
            action is None and dead
        ):
            assert self.action_spaces[agent].contains(action), "action is not in action space"
        if dead:
            self._was_dead_step(action)
            return
        try:
            self._advance(agent, action if type(action) is int else _as_int(action))
        except IllegalMove:
            self._lose_by_illegal_action(agent)

    def _lose_by_illegal_action(self, agent: str) -> None:
        """What ``TerminateIllegalWrapper`` does: ``agent`` gets -1, the other 0, and both
        are terminated and truncated."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = -1.0
        self._accumulate_rewards()
        self._deads_step_first()


class _CheckedIterable(AECIterable):  # type: ignore[misc]
    def __iter__(self) -> AECIterator:
        return _CheckedIterator(self.env, self.max_iter)


class _CheckedIterator(AECIterator):  # type: ignore[misc]
    def __next__(self) -> str:
        agent: str = super().__next__()
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return agent


def board_text(game: str, node: Node, description: str) -> str:
    """The terminal drawing of ``node``: the board (a backgammon board with the checkers
    already moved this turn), the status line and the position string with the turn so far."""
    from ..terminal.play import text_board

    board = text_board(game)
    state: Any = node.state
    if game == "backgammon" and node.pending is not None and node.pending.done:
        from .backgammon import BackgammonEncoding

        boards = BackgammonEncoding(state.game).boards(node)
        state = state.game.from_boards(
            boards["white"], boards["black"], state.side, str(state.dice)
        )
    elif game == "defiance" and node.pending is not None:
        from .defiance import DefianceEncoding

        text = DefianceEncoding(state.game).position_now(node)
        state = state.game.parse_position(text)
    over = node.outcome is not None  # (a draw of the history names no side to move either)
    return "\n".join([board.render(state), board.status(state, over), description])
