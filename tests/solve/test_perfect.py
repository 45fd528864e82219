"""The ``perfect`` level: from every sampled position the tables call won, it wins (against
a perfect defender, in exactly the tables' number of plies; against anyone, no later); from a
drawn one it never moves into a loss; beyond the tables it searches into them."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import ludotheque
from ludotheque.ai.agent import Budget, RandomAgent
from ludotheque.ai.levels import make_agent
from ludotheque.ai.perfect import PerfectAgent
from ludotheque.games.general.rules import GeneralState
from ludotheque.solve.layout import Position, general_at, to_state, unrank
from ludotheque.solve.tables import PACKAGE_FOLDER, Tables, Verdict

GAME = ludotheque.load("general")
TABLES = Tables([PACKAGE_FOLDER])


def _positions(k: int, flight: int, won: bool, count: int, seed: int) -> list[Position]:
    """Rebels-to-move positions the tables call won (or drawn) for the general or the rebels."""
    sub = TABLES.sub(k, flight)
    assert sub is not None
    codes = np.asarray(sub.codes).astype(np.int64)
    rng = random.Random(seed)
    if won:
        wanted = np.flatnonzero((codes != 0) & (codes != sub.over))
    else:
        wanted = np.flatnonzero(codes == 0)
    if flight:  # the last slot is s4 (all rebels stand below it): unused with the flight unused
        wanted = wanted[wanted // sub.ranks != 28 - k]
    found = []
    for i in rng.sample(range(wanted.size), min(count, wanted.size)):
        slot, r = divmod(int(wanted[i]), sub.ranks)
        rebels = unrank(r, k)
        found.append(Position(general_at(slot, rebels), rebels, 0, flight))
    return found


def _won_states(count: int) -> list[GeneralState]:
    """Won positions for either side, with either side to move."""
    states = []
    for k, flight in ((6, 0), (6, 1), (8, 0), (8, 1)):
        for position in _positions(k, flight, True, count, seed=k * 2 + flight):
            state = to_state(position)
            states.append(state)
            # one ply later, the other side to move (the tables' move keeps the value)
            if state.outcome() is None:
                move = PerfectAgent(0, tables=TABLES).choose(state)
                states.append(state.play(move))
    return states


@pytest.mark.parametrize("defender", ["perfect", "random"])
def test_a_won_position_is_won(defender: str) -> None:
    for n, state in enumerate(_won_states(6)):
        verdict = TABLES.verdict(state)
        assert verdict is not None and verdict.winner is not None and verdict.plies is not None
        if state.outcome() is not None:
            continue
        players = {
            verdict.winner: PerfectAgent(n, tables=TABLES),
            "general" if verdict.winner == "rebels" else "rebels": (
                PerfectAgent(n, tables=TABLES) if defender == "perfect" else RandomAgent(n)
            ),
        }
        plies = 0
        while state.outcome() is None:
            state = state.play(players[str(state.to_move)].choose(state))
            plies += 1
            assert plies <= verdict.plies
        outcome = state.outcome()
        assert outcome is not None and outcome.winner == verdict.winner
        if defender == "perfect":
            assert plies == verdict.plies


def test_a_drawn_position_is_never_lost() -> None:
    drawn = _positions(6, 0, False, 4, seed=6) + _positions(6, 1, False, 4, seed=7)
    assert len(drawn) == 8
    for n, position in enumerate(drawn):
        state = to_state(position)
        players = {
            "general": PerfectAgent(n, tables=TABLES),
            "rebels": PerfectAgent(n, tables=TABLES),
        }
        for _ in range(30):
            if state.outcome() is not None:
                break
            state = state.play(players[str(state.to_move)].choose(state))
            verdict = TABLES.verdict(state)
            assert verdict is not None and verdict.winner is None, state.position()


def test_beyond_the_tables_it_searches_into_them() -> None:
    # 10 rebels: every capture leaves 8 with the rebels to move, which the tables call lost for
    # the general; the perfect general walks away where a plain search takes the pair
    for text in (
        "a5 a1,a2,a3,b2,c1,c4,c5,d3,d5,e3 g 0",
        "c3 a2,a5,b5,c1,c2,d1,d3,d5,e1,e2 g 0",
    ):
        state = GAME.parse_position(text)
        agent = PerfectAgent(1, tables=TABLES, budget=Budget(iterations=2))
        move = agent.choose(state)
        assert not move.captured
        assert agent.from_tables == 0
        assert any(m.captured for m in state.legal_moves())


def test_the_level() -> None:
    agent = make_agent("general", "perfect", seed=1)
    state = GAME.parse_position("c2 a1,c3,e1,e2,a4,a5 g 1")
    assert state.play(agent.choose(state)).outcome() == ludotheque.Outcome(
        "general", "twelve-captured"
    )
    with pytest.raises(ValueError, match="only the General"):
        make_agent("backgammon", "perfect")


def _decided(k: int, flight: int, general_wins: bool, count: int, seed: int) -> list[Position]:
    """Rebels-to-move positions won by the general (or by the rebels), not over yet."""
    sub = TABLES.sub(k, flight)
    assert sub is not None
    codes = np.asarray(sub.codes).astype(np.int64)
    wanted = np.flatnonzero((codes != 0) & (codes != sub.over) & (codes % 2 == general_wins))
    if flight:
        wanted = wanted[wanted // sub.ranks != 28 - k]
    rng = random.Random(seed)
    found = []
    for i in rng.sample(range(wanted.size), min(count, wanted.size)):
        slot, r = divmod(int(wanted[i]), sub.ranks)
        rebels = unrank(r, k)
        found.append(Position(general_at(slot, rebels), rebels, 0, flight))
    return found


def test_the_perfect_level_keeps_every_win() -> None:
    # some 700 won positions of every shipped sub-layer, either winner, either side to move:
    # each move of the perfect level keeps the winner and takes the distance down one ply (the
    # winner's fastest win, the loser's slowest loss), so from a won position the winner wins
    # (by induction on the distance); a fifth are played to the end, against a random defender,
    # the tables' distance never growing and the winner never changing
    rng = random.Random(22)
    states: list[GeneralState] = []
    for k, flight in ((6, 0), (6, 1), (8, 0), (8, 1)):
        for general_wins in (True, False):
            for position in _decided(k, flight, general_wins, 60, seed=rng.randrange(1 << 30)):
                rebels_turn = to_state(position)
                states.append(rebels_turn)
                states.append(rebels_turn.play(rng.choice(rebels_turn.legal_moves())))
    winners: Counter[tuple[str, str]] = Counter()
    for n, start in enumerate(states):
        verdict = TABLES.verdict(start)
        assert verdict is not None
        if verdict.winner is None or start.outcome() is not None:
            continue
        assert verdict.plies is not None
        winners[verdict.winner, str(start.to_move)] += 1
        perfect = PerfectAgent(n, tables=TABLES)
        after = start.play(perfect.choose(start))
        assert TABLES.verdict(after) == Verdict(verdict.winner, verdict.plies - 1), start.position()
        if n % 5:
            continue
        defender = RandomAgent(n)
        plies, state = 1, after
        while state.outcome() is None:
            mover = perfect if state.to_move == verdict.winner else defender
            state = state.play(mover.choose(state))
            plies += 1
            now = TABLES.verdict(state)
            assert now is not None and now.winner == verdict.winner, state.position()
            assert now.plies is not None and now.plies <= verdict.plies - plies
        outcome = state.outcome()
        assert outcome is not None and outcome.winner == verdict.winner
    assert winners.total() >= 600
    assert set(winners) == {(w, m) for w in ("general", "rebels") for m in ("general", "rebels")}
