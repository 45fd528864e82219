"""Agents: only legal moves, budgets respected, reproducible with a seed, chance and terminal
states handled."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove
from ludotheque.ai import (
    AlphaBetaAgent,
    Budget,
    ExpectimaxAgent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    game_levels,
    make_agent,
)
from ludotheque.core import CHANCE, State

GAMES = [("general", None), ("backgammon", "seed"), ("backgammon", "standard"), ("defiance", "8x8")]


def random_position(game: ludotheque.Game, seed: int, plies: int) -> State:
    """A decision position reached by random play."""
    rng = random.Random(seed)
    state: State = game.start()
    for _ in range(plies):
        if state.outcome() is not None:
            break
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
        else:
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    while state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
    return state


def small_agents(game_name: str, seed: int) -> list[object]:
    wide = game_name == "defiance"
    return [
        RandomAgent(seed),
        GreedyAgent(seed, temperature=0.1),
        MCTSAgent(seed, Budget(iterations=30), cutoff=10, widening=0.5 if wide else None),
        AlphaBetaAgent(seed, Budget(iterations=2), beam=3 if wide else None),
        ExpectimaxAgent(seed, Budget(iterations=2), beam=2),
    ]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 40))
def test_every_agent_returns_a_legal_move(
    game_id: tuple[str, str | None], seed: int, plies: int
) -> None:
    game = ludotheque.load(*game_id)
    state = random_position(game, seed, plies)
    if state.outcome() is not None:
        return
    legal = state.legal_moves()
    for agent in small_agents(game.name, seed):
        move = agent.choose(state)  # type: ignore[attr-defined]
        assert move in legal, (agent, str(move))


@pytest.mark.parametrize(("game_name", "ruleset"), GAMES)
def test_levels_return_legal_moves(game_name: str, ruleset: str | None) -> None:
    game = ludotheque.load(game_name, ruleset)
    state = random_position(game, 4, 6)
    for name in ("easy", "medium"):
        assert make_agent(game_name, name, seed=1).choose(state) in state.legal_moves()


@pytest.mark.parametrize(
    "make",
    [
        lambda s: RandomAgent(s),
        lambda s: GreedyAgent(s, temperature=0.2),
        lambda s: MCTSAgent(s, Budget(iterations=60)),
        lambda s: AlphaBetaAgent(s, Budget(iterations=3)),
        lambda s: ExpectimaxAgent(s, Budget(iterations=2)),
    ],
)
def test_reproducible_with_a_seed(make: object) -> None:
    for game_id in (("general", None), ("backgammon", "standard")):
        game = ludotheque.load(*game_id)
        for seed in (1, 2, 3):
            state = random_position(game, seed, 10)
            first = make(seed).choose(state)  # type: ignore[operator]
            again = make(seed).choose(state)  # type: ignore[operator]
            assert first == again


def test_general_levels_are_reproducible_with_a_seed() -> None:
    """The General's levels are bounded by depth, not by the clock: a game between two levels
    replays move for move from the same seeds, on any machine."""
    game = ludotheque.load("general")

    def game_moves() -> list[str]:
        players = {"rebels": make_agent("general", "hard", seed=5),
                   "general": make_agent("general", "easy", seed=6)}  # fmt: skip
        state, moves = game.start(), []
        for _ in range(8):
            move = players[str(state.to_move)].choose(state)
            moves.append(str(move))
            state = state.play(move)
        return moves

    assert game_moves() == game_moves()


def test_mcts_counts_its_iterations() -> None:
    agent = MCTSAgent(1, Budget(iterations=77))
    agent.choose(ludotheque.load("general").start())
    assert agent.iterations_done == 77


@pytest.mark.parametrize(
    "agent",
    [
        MCTSAgent(1, Budget(seconds=0.3)),
        AlphaBetaAgent(1, Budget(iterations=30, seconds=0.3)),
        ExpectimaxAgent(1, Budget(iterations=3, seconds=0.3)),
    ],
    ids=["mcts", "alphabeta", "expectimax"],
)
def test_time_budgets_are_kept(agent: object) -> None:
    for game_id in (("general", None), ("backgammon", "standard")):
        state = random_position(ludotheque.load(*game_id), 3, 12)
        start = time.perf_counter()
        assert agent.choose(state) in state.legal_moves()  # type: ignore[attr-defined]
        assert time.perf_counter() - start < 1.5


def test_hard_levels_answer_within_two_seconds() -> None:
    for game_id in (("general", None), ("backgammon", "standard"), ("defiance", "10x10")):
        game = ludotheque.load(*game_id)
        state = random_position(game, 7, 20)
        start = time.perf_counter()
        make_agent(game.name, "hard", seed=1).choose(state)
        assert time.perf_counter() - start < 2.0, game_id


def test_chance_and_terminal_states() -> None:
    bg = ludotheque.load("backgammon", "standard")
    chance = bg.start()
    over = ludotheque.load("general").parse_position("c3 a1,a2,e1,e2 r 1")
    for agent in small_agents("general", 1):
        with pytest.raises(IllegalMove, match="chance node"):
            agent.choose(chance)  # type: ignore[attr-defined]
        with pytest.raises(IllegalMove, match="over"):
            agent.choose(over)  # type: ignore[attr-defined]
    # searches pass through chance nodes: both dice searches see every roll
    state = random_position(bg, 2, 8)
    assert ExpectimaxAgent(1, Budget(iterations=2)).choose(state) in state.legal_moves()
    assert MCTSAgent(1, Budget(iterations=40)).choose(state) in state.legal_moves()


def test_alphabeta_finds_a_winning_capture() -> None:
    # the general can take the last pair needed: twelve captured
    state = ludotheque.load("general").parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    for agent in (AlphaBetaAgent(1, Budget(iterations=2)), GreedyAgent(1)):
        after = state.play(agent.choose(state))
        assert after.outcome() == ludotheque.Outcome("general", "twelve-captured")


def test_alphabeta_avoids_the_immediate_loss() -> None:
    # the rebels can shut the general in with d4-d5
    state = ludotheque.load("general").parse_position("s1 b5,c5,d4,e4,a1,a2 r 0")
    assert str(AlphaBetaAgent(1, Budget(iterations=1)).choose(state)) == "d4-d5"


def test_levels_and_names() -> None:
    for game in ("general", "backgammon", "defiance"):
        assert set(game_levels(game)) == {"easy", "medium", "hard"}
    with pytest.raises(ValueError, match="unknown player"):
        make_agent("general", "grandmaster")
    with pytest.raises(ValueError, match="unknown game"):
        make_agent("chess", "easy")
