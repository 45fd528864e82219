"""The public API: load(), the registry, errors, outcomes, and the state protocol in every game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import ludotheque
from ludotheque import CHANCE, IllegalMove, InvalidPosition, Outcome, UnknownGame


def test_load_default_ruleset() -> None:
    game = ludotheque.load("general")
    assert game.name == "general"
    assert game.ruleset == "default"
    assert ludotheque.load("general", ruleset="default") is game


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame, match="general") as info:
        ludotheque.load("chess")
    assert "chess" in str(info.value)
    assert isinstance(info.value, ValueError)
    # the public API's bad input raises only IllegalMove or InvalidPosition
    assert isinstance(info.value, InvalidPosition)
    assert info.value.code == "unknown-game"


def test_unknown_ruleset_lists_the_rulesets() -> None:
    with pytest.raises(UnknownGame, match="default"):
        ludotheque.load("general", ruleset="fast")


@pytest.mark.parametrize("name", [None, 3, ["general"]])
def test_load_non_string(name: object) -> None:
    with pytest.raises(UnknownGame):
        ludotheque.load(name)  # type: ignore[call-overload]  # not a name, on purpose


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(InvalidPosition, ValueError)
    assert issubclass(UnknownGame, ValueError)


def test_outcome_value() -> None:
    o = Outcome("rebels", "shut-in")
    assert o.winner == "rebels" and o.reason == "shut-in" and not o.is_draw
    assert Outcome(None, "repetition").is_draw
    assert o == Outcome("rebels", "shut-in") and hash(o) == hash(Outcome("rebels", "shut-in"))
    with pytest.raises(AttributeError):
        o.winner = "general"  # type: ignore[misc]


def test_games_registry() -> None:
    assert "general" in ludotheque.available_games()


EVERY_RULESET = [
    (name, ruleset)
    for name, rulesets in ludotheque.available_games().items()
    for ruleset in rulesets
]


def _sample(items: list[Any], rng: random.Random, at_most: int = 40) -> list[Any]:
    """All of ``items``, or ``at_most`` of them (Defiance offers thousands of turns)."""
    return items if len(items) <= at_most else rng.sample(items, at_most)


def check_state(game: ludotheque.Game, s: ludotheque.State, rng: random.Random) -> list[Any]:
    """Check every method of the state protocol on ``s``; return its children (moves or chance
    outcomes)."""
    assert isinstance(s, ludotheque.State)
    assert s.game is game
    text = s.position()
    assert isinstance(text, str) and str(s) == text
    # the position round-trips, and equal states hash equal
    again = game.parse_position(text)
    assert again is not s
    assert again == s and hash(again) == hash(s) and again.position() == text
    assert {again, s} == {s}
    # to_move is a side, "chance", or None exactly when the game is over
    assert s.to_move in (*game.sides, CHANCE, None)
    assert (s.to_move is None) == (s.outcome() is not None) == s.is_terminal
    assert s.is_chance == (s.to_move == CHANCE)
    if s.to_move is None:
        outcome = s.outcome()
        assert isinstance(outcome, Outcome) and outcome.winner in (*game.sides, None)
        assert list(s.legal_moves()) == [] and s.chance_outcomes() == []
        return []
    if s.is_chance:
        assert list(s.legal_moves()) == []
        pairs = s.chance_outcomes()
        assert pairs and math.isclose(sum(p for _, p in pairs), 1.0)
        assert all(p > 0 for _, p in pairs)
        children = [o for o, _ in pairs]
    else:
        assert s.chance_outcomes() == []
        children = list(s.legal_moves())
        assert children, "a decision node has moves (a forced pass is a move)"
    assert len(set(children)) == len(children), "each move once"
    for m in _sample(children, rng):
        # its notation names it: parsed back, it is an equal (and equally hashed) move
        back = s.parse_move(str(m))
        assert back == m and hash(back) == hash(m) and str(back) == str(m)
        # play returns a new state and leaves this one as it was
        child = s.play(m)
        assert isinstance(child, ludotheque.State) and child is not s
        assert child != s
        assert s.position() == text and s == again and hash(s) == hash(again)
        assert s.play(str(m)) == child  # notation text plays the same move
    return children


@pytest.mark.parametrize(("name", "ruleset"), EVERY_RULESET)
def test_state_protocol_behaviour(name: str, ruleset: str) -> None:
    """Every game and ruleset, along a seeded random game: the protocol's methods behave."""
    game = ludotheque.load(name, ruleset)
    assert game.name == name and game.ruleset == ruleset and len(game.sides) == 2
    rng = random.Random(f"{name}:{ruleset}")
    s = game.start()
    kinds = set()
    for _ in range(12):
        children = check_state(game, s, rng)
        kinds.add("chance" if s.is_chance else "decision")
        if not children:
            break
        s = s.play(rng.choice(children))
    assert "decision" in kinds
    if name == "backgammon":
        assert "chance" in kinds


def test_a_finished_state_follows_the_protocol() -> None:
    game = ludotheque.load("general")
    check_state(game, game.parse_position("c3 a1,a2,e1,e2 r 1"), random.Random(0))


class _LooksLikeAState:
    """Every method of a state, but not one: the protocol must not take it for a state."""

    game = ludotheque.load("general")
    to_move = "rebels"
    is_chance = is_terminal = False

    def position(self) -> str:
        return "c3 a1,a2,a3,a4,a5,b1,b5,c1,c5,d1,d5,e1,e2,e3,e4,e5 r 1"

    def legal_moves(self) -> list[Any]:
        return []

    def chance_outcomes(self) -> list[Any]:
        return []

    def outcome(self) -> None:
        return None

    def parse_move(self, text: str) -> Any:
        return text

    def play(self, move: Any) -> Any:
        return self


@pytest.mark.parametrize(("name", "ruleset"), EVERY_RULESET)
def test_non_states_and_non_moves_are_rejected(name: str, ruleset: str) -> None:
    game = ludotheque.load(name, ruleset)
    s = game.start()
    for impostor in (_LooksLikeAState(), s.position(), object(), None, 42):
        assert not isinstance(impostor, ludotheque.State)
    # a state plays only its own moves: anything else is an IllegalMove, and changes nothing
    other = "backgammon" if name != "backgammon" else "general"
    foreign = ludotheque.load(other).start()
    foreign_move = (
        foreign.chance_outcomes()[0][0] if foreign.is_chance else foreign.legal_moves()[0]
    )
    before = s.position()
    for bad in (None, 42, object(), "", "zz", foreign_move, s, _LooksLikeAState()):
        with pytest.raises(IllegalMove):
            s.play(bad)
    assert s.position() == before


def test_opponent() -> None:
    game = ludotheque.load("general")
    assert game.opponent("rebels") == "general"
    assert game.opponent("general") == "rebels"
    with pytest.raises(ValueError):
        game.opponent("white")
