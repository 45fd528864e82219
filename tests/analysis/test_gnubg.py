"""The analysis's best backgammon play against GNU Backgammon's 0-ply choice, on a small sample
(``tools/analysis_gnubg.py`` measures 500 positions and reports the rates)."""

from __future__ import annotations

import random
from typing import Any

import gnubg

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.analysis import Analyst
from ludotheque.core import CHANCE, State

GAME = ludotheque.load("backgammon", "standard")
CUBE = gnubg.cube_info()
ZERO_PLY = gnubg.eval_context(0, 0, 1, 0, 0.0)
CLEAR = 0.05  # GNU Backgammon's best play is at least this much better than its second


def gnubg_equities(state: Any) -> dict[str, float]:
    """GNU Backgammon's 0-ply cubeless equity of every legal play, for the side that plays."""
    side = str(state.to_move)
    other = "black" if side == "white" else "white"
    out = {}
    for play in state.legal_moves():
        after = state.play(play)
        if after.outcome() is not None:
            out[str(play)] = 3.0
            continue
        board = tuple(after.board(side)[1:26]), tuple(after.board(other)[1:26])
        out[str(play)] = -float(gnubg.evaluate(board, CUBE, ZERO_PLY)[5])
    return out


def sample(count: int, seed: int) -> list[State]:
    """Decision nodes with a choice, from seeded games between two medium players."""
    rng = random.Random(seed)
    found: list[State] = []
    game = 0
    while len(found) < count:
        agents = {s: make_agent("backgammon", "medium", seed + 2 * game + i)
                  for i, s in enumerate(GAME.sides)}  # fmt: skip
        state: State = GAME.start()
        while state.outcome() is None and len(found) < count:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            if len(state.legal_moves()) > 1:
                found.append(state)
            state = state.play(agents[str(state.to_move)].choose(state))
        game += 1
    return found


def test_the_best_play_is_gnubgs_where_gnubg_sees_a_clear_best() -> None:
    analyst = Analyst(GAME, "quick")  # our 1 ply is GNU Backgammon's 0-ply
    clear = agree = 0
    for state in sample(60, 3):
        judged = gnubg_equities(state)
        ranked = sorted(judged.values(), reverse=True)
        if ranked[0] - ranked[1] < CLEAR:
            continue
        clear += 1
        ours = analyst.moves(state, top=1)[0].move
        agree += judged[ours] == ranked[0]
    assert clear >= 10
    assert agree / clear > 0.6, f"{agree} of {clear}"
