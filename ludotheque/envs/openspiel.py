"""Our games in OpenSpiel: importing this module registers them with ``pyspiel``.

>>> import pyspiel
>>> import ludotheque.envs.openspiel
>>> game = pyspiel.load_game("ludotheque_backgammon", {"ruleset": "standard"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 157)

Registered games: ``ludotheque_general``, ``ludotheque_backgammon`` (chance nodes for the dice) and
``ludotheque_defiance``, each with the parameters ``ruleset`` (the game's rulesets, as
``ludotheque.available_games()`` lists them) and ``max_turns`` (the turn limit, see each game's
encoding; 0, the default, is the ruleset's own); ``ludotheque_backgammon`` also takes
``match_length``, the points of its ``match`` ruleset's match (1 to 25, 7 by default). OpenSpiel
gives every parameter its default before the game sees it: -1, the default of both, stands for
the ruleset's own (so that 0 is refused, as the rules and the PettingZoo environments refuse it).
Actions, chance outcomes and observation tensors follow the encodings of
``ludotheque.envs.general``, ``.backgammon`` and ``.defiance``; players are numbered as the game
lists its sides (player 0 moves first). Returns are 1 for a win, -1 for a loss and 0 for a draw or a
game stopped at the turn limit (backgammon's ``money`` ruleset: the points won).

``AgentBot`` plays one of our computer players (a level such as ``"hard"``) as an OpenSpiel
bot, so that OpenSpiel's algorithms can meet them (``evaluate_bots``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.observation import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
    IIGObserverForPublicInfoGame,
)

from .. import available_games
from ..ai import Agent, make_agent
from . import encoding as make_encoding
from .base import CHANCE_PLAYER, Encoding, Node

GAMES = {
    "ludotheque_general": "general",
    "ludotheque_backgammon": "backgammon",
    "ludotheque_defiance": "defiance",
}
"""OpenSpiel's name of each game."""

_LONG_NAMES = {
    "general": "Ludothèque: Le Général et les rebelles",
    "backgammon": "Ludothèque: backgammon",
    "defiance": "Ludothèque: Defiance and Domain",
}
OWN = -1
"""The default of ``max_turns`` and ``match_length``: the ruleset's own."""

_ENCODINGS: dict[tuple[str, str, int, int | None], Encoding] = {}


def _encoding(game: str, ruleset: str, max_turns: int, match_length: int | None) -> Encoding:
    """One encoding per game, ruleset, turn limit and match length, shared by every state (its
    caches too)."""
    key = (game, ruleset, max_turns, match_length)
    enc = _ENCODINGS.get(key)
    if enc is None:
        enc = _ENCODINGS[key] = make_encoding(game, ruleset, max_turns, match_length)
    return enc


def _parameters(game: str) -> dict[str, Any]:
    """A game's parameters with their defaults (``OWN``: the ruleset's own)."""
    params: dict[str, Any] = {"ruleset": available_games()[game][0], "max_turns": OWN}
    if game == "backgammon":
        params["match_length"] = OWN
    return params


def _game_type(short_name: str, game: str) -> Any:
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if make_encoding(game).max_chance_outcomes
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    return pyspiel.GameType(
        short_name=short_name,
        long_name=_LONG_NAMES[game],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class LudothequeGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games as an OpenSpiel game (see the module docstring)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = self.game_name
        ruleset = str(params.get("ruleset", available_games()[game][0]))
        max_turns, match_length = (
            None if params.get(key, OWN) == OWN else params[key]
            for key in ("max_turns", "match_length")
        )  # fmt: skip
        enc = make_encoding(game, ruleset, max_turns, match_length)
        self.encoding = _encoding(game, enc.ruleset, enc.max_turns, match_length)
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=enc.max_chance_outcomes,
            num_players=2,
            min_utility=-enc.max_utility,
            max_utility=enc.max_utility,
            utility_sum=0.0,
            max_game_length=enc.max_game_length,
        )
        given: dict[str, Any] = {"ruleset": enc.ruleset, "max_turns": enc.max_turns}
        stakes = getattr(enc.initial().state, "stakes", None)
        if stakes is not None and stakes.length:  # backgammon's match ruleset
            given["match_length"] = stakes.length
        super().__init__(_TYPES[game], info, given)

    def new_initial_state(self) -> LudothequeState:
        """The state at the start of a game."""
        return LudothequeState(self, self.encoding)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """The observer of the encoding's tensors (or OpenSpiel's public-information observer
        for the other kinds of observation)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.encoding, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class LudothequeState(pyspiel.State):  # type: ignore[misc]
    """A state of one of our games in OpenSpiel. ``node`` is the encoding's node, and
    ``node.state`` the engine state (at the start of the turn while it is half chosen).

    Its Python attributes are the encoding (shared by clones, pickled by name) and the node
    (an immutable value: clones share it)."""

    def __init__(self, game: LudothequeGame, enc: Encoding) -> None:
        super().__init__(game)
        self._enc = enc
        self._node = enc.initial()

    @property
    def encoding(self) -> Encoding:
        """The game's encoding."""
        return self._enc

    @property
    def node(self) -> Node:
        """The encoding's node of this state."""
        return self._node

    def current_player(self) -> int:
        return self._node.player

    def is_chance_node(self) -> bool:
        """OpenSpiel's answer (the player to move is chance), without a round trip through
        C++ for a caller in Python."""
        return self._node.player == CHANCE_PLAYER

    def legal_actions(self, *player: int) -> list[int]:
        """OpenSpiel's ``legal_actions([player])``: at a decision node, for its player, the
        encoding's answer given directly to a caller in Python (pyspiel's own method asks
        Python four times through C++ for the same list); everywhere else pyspiel's."""
        node = self._node
        if node.player >= 0 and (not player or player[0] == node.player):
            return self._enc.legal_actions(node)
        return list(pyspiel.State.legal_actions(self, *player))

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if player != node.player:
            return []
        return self._enc.legal_actions(node)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._enc.chance_outcomes(self._node)

    def _apply_action(self, action: int) -> None:
        self._node = self._enc.apply(self._node, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._node.is_chance:
            return self._enc.chance_text(self._node, int(action))
        return self._enc.action_text(self._node, int(action))

    def is_terminal(self) -> bool:
        return self._node.outcome is not None

    def returns(self) -> list[float]:
        return self._enc.returns(self._node)

    def __str__(self) -> str:
        return self._enc.describe(self._node)


class BoardObserver:
    """The encoding's observation tensor, in OpenSpiel's observer interface."""

    def __init__(self, enc: Encoding, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.encoding = enc
        shape = enc.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: LudothequeState, player: int) -> None:
        """Fill the tensor with ``state`` seen by ``player``."""
        self.tensor.fill(0.0)
        self.encoding.observe(state.node, player, self.dict["observation"])

    def string_from(self, state: LudothequeState, player: int) -> str:
        """The position (and the part of the turn already chosen), the same for both players."""
        return self.encoding.describe(state.node)


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our computer players as an OpenSpiel bot for our games.

    ``agent`` is an ``ai.Agent`` or a name ``make_agent`` knows (``"hard"``, ``"mcts"``, …). At
    the start of each turn the agent chooses a whole move; the bot then gives its actions one
    decision at a time (a backgammon play checker by checker, a Defiance turn as its action and
    Command move). Asked to finish a turn it did not start, it takes the completion the game's
    evaluation prefers.
    """

    def __init__(self, game: LudothequeGame, agent: Agent | str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self._encoding = game.encoding
        self.agent = (
            make_agent(game.encoding.name, agent, seed) if isinstance(agent, str) else agent
        )
        self._plan: list[int] = []

    def restart_at(self, state: LudothequeState) -> None:
        self._plan = []

    def inform_action(self, state: LudothequeState, player_id: int, action: int) -> None:
        pass

    def step(self, state: LudothequeState) -> int:
        enc = self._encoding
        node = state.node
        if not enc.in_turn(node):
            move = self.agent.choose(node.state)
            self._plan = list(enc.turn_plans(node)[move])
        elif not self._plan or self._plan[0] not in enc.choices(node)[0]:
            self._plan = enc.best_plan(node, [])
        return self._plan.pop(0)


def _register() -> dict[str, Any]:
    types = {}
    for short_name, game in GAMES.items():
        game_type = types[game] = _game_type(short_name, game)
        cls = type(
            f"{game.capitalize()}Game",
            (LudothequeGame,),
            {"game_name": game, "__doc__": f"{_LONG_NAMES[game]} as an OpenSpiel game."},
        )
        globals()[cls.__name__] = cls
        if short_name not in pyspiel.registered_names():
            pyspiel.register_game(game_type, cls)
    return types


_TYPES = _register()

__all__ = ["GAMES", "AgentBot", "BoardObserver", "LudothequeGame", "LudothequeState"]
