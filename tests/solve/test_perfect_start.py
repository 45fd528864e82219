"""The perfect rebels from the start, with only what the package ships (no built table): they win
every game against every general, against the perfect general in exactly the proven 37 plies,
never repeating a position; the perfect general holds out exactly that long. Off the strategy,
the proven winner still never plays into a draw."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import ludotheque
from ludotheque.ai.agent import Agent
from ludotheque.ai.levels import make_agent
from ludotheque.ai.perfect import PerfectAgent
from ludotheque.games.general.rules import GeneralState
from ludotheque.solve import certificate
from ludotheque.solve.tables import PACKAGE_FOLDER, Tables

GAME = ludotheque.load("general")
PROVEN = 37


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    """The package's tables and strategy alone (an empty folder for the user's tables)."""
    yield Tables([tmp_path_factory.mktemp("none"), PACKAGE_FOLDER], certificate.shipped)


def play(rebels: Agent, general: Agent, start: GeneralState | None = None,
         limit: int = 300) -> tuple[str | None, int, GeneralState]:  # fmt: skip
    """A game: (the winner, None for a draw; its plies; the last position)."""
    state = start or GAME.start()
    seen = {state: 1}
    plies = 0
    while state.outcome() is None and plies < limit:
        agent = rebels if state.side == "rebels" else general
        state = state.play(agent.choose(state))
        plies += 1
        seen[state] = seen.get(state, 0) + 1
        assert seen[state] < GAME.repetition_limit, f"a draw by repetition at {state.position()}"
    outcome = state.outcome()
    return (None if outcome is None else outcome.winner), plies, state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_against_hard(tables: Tables, seed: int) -> None:
    rebels = PerfectAgent(seed, tables=tables)
    winner, plies, _ = play(rebels, make_agent("general", "hard", seed=seed))
    assert winner == "rebels" and plies <= PROVEN
    assert rebels.from_strategy == (plies + 1) // 2  # every rebels' move from the strategy


@pytest.mark.parametrize("seed", [1, 2])
def test_against_perfect_in_the_proven_number_of_plies(tables: Tables, seed: int) -> None:
    rebels = PerfectAgent(seed, tables=tables)
    general = PerfectAgent(seed + 10, tables=tables)
    winner, plies, _ = play(rebels, general)
    assert (winner, plies) == ("rebels", PROVEN)
    assert general.from_tables == PROVEN // 2  # the general's every move from known values


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_against_the_other_generals(tables: Tables, level: str) -> None:
    winner, plies, _ = play(PerfectAgent(4, tables=tables), make_agent("general", level, seed=4))
    assert winner == "rebels" and plies <= PROVEN


def test_the_level_is_the_strategy() -> None:
    # make_agent's perfect reads the package's strategy: from the start its first move is the
    # strategy's (without any table built by the user)
    agent = make_agent("general", "perfect", seed=0)
    assert isinstance(agent, PerfectAgent)
    strategy = certificate.shipped()
    assert strategy is not None
    start = GAME.start()
    assert agent.choose(start) == strategy.move(start)


def test_off_the_strategy_the_winner_refuses_draws(tables: Tables) -> None:
    # positions of 14 and 12 rebels the strategy does not hold: the perfect rebels (the proven
    # winners there) never repeat a position into a draw; they play for the win
    for text in (
        "c3 a1,a2,a3,a4,b1,b4,b5,c1,c4,c5,d1,d5,e1,e5 r 1",
        "b3 a1,a3,a5,b1,b5,c1,c4,c5,d1,d2,e3,e5 r 1",
    ):
        start = GAME.parse_position(text)
        assert isinstance(start, GeneralState)
        strategy = tables.strategy
        assert strategy is not None and strategy.entry(start) is None
        rebels = PerfectAgent(5, tables=tables)
        winner, _, last = play(rebels, make_agent("general", "hard", seed=5), start, limit=120)
        assert winner in ("rebels", None), last.position()
