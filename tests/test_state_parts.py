"""The states' public parts (``parts``, ``from_parts``) and accessors (backgammon's
``mover_boards``, ``after_play``, ``after_roll``, Defiance's ``board_after``): what the
encodings and the players read and build instead of the states' private attributes. Every state
of random games, in every game, comes back from its parts; the parts are the values the state
holds, not copies."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ludotheque
from ludotheque.core import CHANCE, Outcome
from ludotheque.games.backgammon import BackgammonState
from ludotheque.games.defiance import DefianceState, Turn
from ludotheque.games.general import GeneralState

SLOTS = {
    GeneralState: ("_general", "_rebels", "_side", "_flight"),
    BackgammonState: ("_game", "_white", "_black", "_side", "_dice", "_stakes"),
    DefianceState: ("_game", "_cells", "_pools", "_rebel", "_imperial", "_side"),
}


def states(name: str, ruleset: str | None, seed: int, count: int) -> list[Any]:
    rng = random.Random(seed)
    game = ludotheque.load(name, ruleset)
    found: list[Any] = []
    while len(found) < count:
        s: Any = game.start()
        while len(found) < count:
            found.append(s)
            if s.outcome() is not None:
                break
            if s.to_move == CHANCE:
                outcomes = s.chance_outcomes()
                s = s.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            else:
                moves = s.legal_moves()
                s = s.play(moves[rng.randrange(len(moves))])
    return found


@pytest.mark.parametrize(
    ("name", "ruleset", "count"),
    [("general", None, 300), ("backgammon", "seed", 300), ("backgammon", "match", 300),
     ("defiance", "8x8", 60)],
)  # fmt: skip
def test_every_state_comes_back_from_its_parts(name: str, ruleset: str | None, count: int) -> None:
    for s in states(name, ruleset, 3, count):
        parts = s.parts
        assert all(p is getattr(s, slot) for p, slot in zip(parts, SLOTS[type(s)], strict=True))
        again = type(s).from_parts(*parts)
        assert type(again) is type(s) and again == s and hash(again) == hash(s)
        assert again.position() == s.position() and again.outcome() == s.outcome()
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in s.legal_moves()]


def test_backgammon_mover_boards() -> None:
    for s in states("backgammon", "standard", 5, 200):
        _, white, black, side, _, _ = s.parts
        assert s.mover_boards() == ((white, black) if side == 0 else (black, white))


@pytest.mark.parametrize("ruleset", ["seed", "money"])
def test_backgammon_after_a_listed_play_or_roll_is_after_playing_it(ruleset: str) -> None:
    """``after_play`` and ``after_roll`` (unchecked) give the states ``play`` gives (checked)."""
    for s in states("backgammon", ruleset, 11, 300):
        if s.to_move == CHANCE and s.side is not None:
            for roll, _ in s.chance_outcomes():
                assert s.after_roll(roll) == s.play(roll)
        elif s.dice is not None and s.to_move == s.side:
            for play in s.legal_moves():
                assert s.after_play(play) == s.play(play)


def test_defiance_board_after_an_action() -> None:
    for s in states("defiance", "8x8", 9, 20):
        if s.outcome() is not None:
            continue
        for action in s.legal_actions()[::37]:
            mid = s.board_after(action)
            assert s.board_after(action) is mid  # kept for the turns with that action
            done, cells, pools, won, _, _ = mid
            after = s.play(Turn(action, None, s.game.geo.n))
            assert done == action and after.parts[1:3] == (cells, pools)
            if won:
                assert after.outcome() == Outcome("rebels", "four-sectors")
