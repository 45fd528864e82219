"""Agents: only legal moves, budgets respected, reproducible with a seed, chance and terminal
states handled."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import ludotheque
import ludotheque.ai.agent as agent_module
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
    """A decision position of an unfinished game, after up to ``plies`` random plies (moves and
    dice): a move that would end the game is never chosen, and the walk stops early only where
    every move would end it."""
    rng = random.Random(seed)
    state: State = game.start()
    for _ in range(plies):
        child = _random_child(state, rng)
        if child is None:
            break
        state = child
    while state.to_move == CHANCE:
        child = _random_child(state, rng)
        assert child is not None, "a roll of the dice never ends the game"
        state = child
    assert state.outcome() is None and state.to_move in game.sides
    return state


def _random_child(state: State, rng: random.Random) -> State | None:
    """A random child of ``state`` in which the game goes on (dice by their probabilities), or
    None when there is none."""
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        child = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
        return child if child.outcome() is None else None
    moves = list(state.legal_moves())
    first = moves.pop(rng.randrange(len(moves)))
    child = state.play(first)
    if child.outcome() is None:
        return child
    rng.shuffle(moves)
    for move in moves:
        child = state.play(move)
        if child.outcome() is None:
            return child
    return None


def small_agents(game_name: str, seed: int) -> list[object]:
    wide = game_name == "defiance"
    return [
        RandomAgent(seed),
        GreedyAgent(seed, temperature=0.1),
        MCTSAgent(seed, Budget(iterations=30), cutoff=10, widening=0.5 if wide else None),
        AlphaBetaAgent(seed, Budget(iterations=2), beam=3 if wide else None),
        ExpectimaxAgent(seed, Budget(iterations=2), beam=2),
    ]


# No health check is suppressed: none fires (checked over many seeds). With deadline=None,
# too_slow allows 30 s of data generation, and the strategy draws three plain values.
@settings(max_examples=12, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 40))
def test_every_agent_returns_a_legal_move(
    game_id: tuple[str, str | None], seed: int, plies: int
) -> None:
    game = ludotheque.load(*game_id)
    # random_position never ends the game: every example is a decision node with moves to check
    state = random_position(game, seed, plies)
    assert state.outcome() is None and state.to_move in game.sides
    legal = state.legal_moves()
    assert legal
    event(f"checked {game.name}:{game.ruleset}")  # see --hypothesis-show-statistics
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


class VirtualTime:
    """Stands in for the ``time`` module of ``ludotheque.ai.agent`` (where ``Clock`` reads it):
    each reading of the clock advances it by ``step`` seconds. A search's use of its time budget
    is then counted in clock readings, the same on any machine and under any load."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.readings: list[float] = []

    def perf_counter(self) -> float:
        now = (len(self.readings) + 1) * self.step
        self.readings.append(now)
        return now


@pytest.fixture
def virtual_time(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], VirtualTime]:
    def install(step: float) -> VirtualTime:
        clock_time = VirtualTime(step)
        monkeypatch.setattr(agent_module, "time", clock_time)
        return clock_time

    return install


STEP = 2**-10  # seconds per clock reading: powers of two keep the deadline arithmetic exact
SECONDS = 2**-5  # so a time budget of SECONDS lasts 32 readings


BOTH = (("general", None), ("backgammon", "standard"))


@pytest.mark.parametrize(
    ("make", "spent", "games"),
    [
        # the clock is read when started and after each play-out: the reading after the 32nd
        # play-out finds the time up
        (lambda: MCTSAgent(1, Budget(seconds=SECONDS)), lambda a: a.iterations_done == 32, BOTH),
        # the depth budget (30 plies) is far out of reach: only the clock stops it, after a few
        # iterations. (Alpha-beta is for the deterministic games: in backgammon it looks no
        # further than the dice, and finishes all 30 iterations at once.)
        (
            lambda: AlphaBetaAgent(1, Budget(iterations=30, seconds=SECONDS)),
            # and it reads the clock about every 256 nodes: some 8,000 nodes in 32 readings
            lambda a: 1 <= a.depth_reached < 30 and a.nodes <= 32 * 512,
            (("general", None),),
        ),
        # one reading per node searched (after the start): 31 nodes, and the 32nd finds time up
        (
            lambda: ExpectimaxAgent(1, Budget(iterations=3, seconds=SECONDS)),
            lambda a: a.nodes == 31,
            BOTH,
        ),
    ],
    ids=["mcts", "alphabeta", "expectimax"],
)
def test_time_budgets_are_kept(
    make: Callable[[], Any],
    spent: Callable[[Any], bool],
    games: tuple[tuple[str, str | None], ...],
    virtual_time: Callable[[float], VirtualTime],
) -> None:
    for game_id in games:
        state = random_position(ludotheque.load(*game_id), 3, 12)
        assert len(state.legal_moves()) > 1  # else an agent answers without searching
        clock = virtual_time(STEP)
        agent = make()
        assert agent.choose(state) in state.legal_moves()
        deadline = clock.readings[0] + SECONDS
        # the clock ran out, and the search stopped at the first reading that said so
        assert [r for r in clock.readings if r >= deadline] == [deadline], game_id
        assert spent(agent), (game_id, vars(agent))


def test_hard_levels_are_bounded_by_depth_not_by_the_clock(
    virtual_time: Callable[[float], VirtualTime],
) -> None:
    """The hard levels answer within two seconds because their search is bounded by depth and
    beam (the clock only guards slow machines): with a clock that never runs out, each finishes
    its fixed depth within a bounded number of nodes (here: general ~2,200 nodes in ~0.05 s,
    backgammon 220 in ~0.3 s, Defiance 11 in ~0.5 s, each node scoring thousands of turns)."""
    virtual_time(0.0)  # time stands still: only the depth and beam budgets can stop a search
    general = ludotheque.load("general")
    state = random_position(general, 7, 20)
    agent = make_agent("general", "hard", seed=1)
    assert agent.choose(state) in state.legal_moves()
    assert isinstance(agent, AlphaBetaAgent)
    # four plies, searched in full in ~2,200 nodes (~8,600 without the beta cut-offs)
    assert agent.depth_reached == 4
    assert 100 < agent.nodes < 5_000

    backgammon = ludotheque.load("backgammon", "standard")
    state = random_position(backgammon, 2, 20)
    assert len(state.legal_moves()) > 10  # so that the beam matters
    agent = make_agent("backgammon", "hard", seed=1)
    assert agent.choose(state) in state.legal_moves()
    assert isinstance(agent, ExpectimaxAgent)
    # two plies on the ten best candidates (each a chance node and its 21 rolls), then three
    # plies (21 x 21 rolls) on none of them or on two to five close ones
    assert all(state.play(m).outcome() is None for m in state.legal_moves())
    deeper, rest = divmod(agent.nodes - 10 * (1 + 21), 21 * 21)
    assert rest == 0 and deeper in (0, 2, 3, 4, 5), agent.nodes

    defiance = ludotheque.load("defiance", "10x10")
    state = random_position(defiance, 7, 20)
    agent = make_agent("defiance", "hard", seed=1)
    assert agent.choose(state) in state.legal_moves()
    assert isinstance(agent, AlphaBetaAgent)
    # two plies on the three best turns of each side: at most 3 + 3 * 3 nodes
    assert agent.depth_reached == 2
    assert 3 <= agent.nodes <= 3 + 3 * 3


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
