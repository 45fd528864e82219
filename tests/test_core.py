"""The public API: load(), the registry, errors and outcomes."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import IllegalMove, InvalidPosition, Outcome, UnknownGame


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


def test_unknown_ruleset_lists_the_rulesets() -> None:
    with pytest.raises(UnknownGame, match="default"):
        ludotheque.load("general", ruleset="fast")


@pytest.mark.parametrize("name", [None, 3, ["general"]])
def test_load_non_string(name: object) -> None:
    with pytest.raises(UnknownGame):
        ludotheque.load(name)  # type: ignore[arg-type]


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


def test_state_protocol_basics() -> None:
    s = ludotheque.load("general").start()
    assert isinstance(s, ludotheque.State)
    assert str(s) == s.position()
    assert s.game is ludotheque.load("general")
    assert all(isinstance(m, ludotheque.Move) for m in s.legal_moves())


def test_opponent() -> None:
    game = ludotheque.load("general")
    assert game.opponent("rebels") == "general"
    assert game.opponent("general") == "rebels"
    with pytest.raises(ValueError):
        game.opponent("white")
