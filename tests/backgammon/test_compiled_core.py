"""The compiled backgammon core (issue 21) against the pure-Python move generation it replaces:
the same plays, in the same order, with the same canonical single moves, for every roll of
positions from hypothesis (tall stacks, the bar, bearing off) and from random games, in both
rulesets with and without the cap (skipped when the core was not built or
``LUDOTHEQUE_PURE_PYTHON`` is set); random roll-outs, compiled or not, that play legal moves
and end games reproducibly; and the states the core makes, which are the engine's."""

from __future__ import annotations

import gc
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings

import ludotheque
from ludotheque.games.backgammon import movegen, moves, rules
from ludotheque.games.backgammon.rules import BackgammonState
from tests.backgammon.strategies import positions

CORE = movegen.CORE
needs_core = pytest.mark.skipif(
    CORE is None, reason="the compiled core was not built (or LUDOTHEQUE_PURE_PYTHON is set)"
)
GAMES = {cap: ludotheque.load("backgammon", "seed" if cap else "standard") for cap in (5, 0)}


def same_for_every_roll(me: int, opp: int, cap: int) -> None:
    assert CORE is not None
    for high in range(1, 7):
        for low in range(1, high + 1):
            expected, used = movegen.generate_py(me, opp, high, low, cap)
            found, found_used = CORE.generate(me, opp, high, low, cap)
            assert list(found.items()) == list(expected.items()) and found_used == used
            built = CORE.plays(me, opp, high, low, cap)
            assert built == moves.plays_py(me, opp, high, low, cap)
            assert all(type(p) is moves.Play for p in built)


@needs_core
@settings(max_examples=60, deadline=None)
@given(positions(cap=5))
def test_capped_positions(text: str) -> None:
    s = GAMES[5].parse_position(text)
    assert isinstance(s, BackgammonState)
    same_for_every_roll(*s.mover_boards(), 5)


@needs_core
@settings(max_examples=60, deadline=None)
@given(positions(cap=0))
def test_uncapped_positions(text: str) -> None:
    s = GAMES[0].parse_position(text)
    assert isinstance(s, BackgammonState)
    same_for_every_roll(*s.mover_boards(), 0)


@needs_core
@settings(max_examples=30, deadline=None)
@given(positions(cap=5, home_only=True))
def test_bearing_off(text: str) -> None:
    s = GAMES[5].parse_position(text)
    assert isinstance(s, BackgammonState)
    for cap in (5, 0):
        same_for_every_roll(*s.mover_boards(), cap)


@needs_core
@pytest.mark.parametrize("cap", [5, 0])
def test_positions_of_random_games(cap: int) -> None:
    rng = random.Random(cap)
    game = GAMES[cap]
    for _ in range(4):
        s = game.start()
        while s.outcome() is None:
            if s.to_move == "chance":
                outcomes = s.chance_outcomes()
                s = s.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            assert isinstance(s, BackgammonState)
            if rng.random() < 0.2:
                same_for_every_roll(*s.mover_boards(), cap)
            legal = s.legal_moves()
            s = s.play(legal[rng.randrange(len(legal))])


@needs_core
def test_listed_finds_the_object_then_equal_values() -> None:
    assert CORE is not None
    s = GAMES[0].parse_position("W[24x2,13x5,8x3,6x5] B[24x2,13x5,8x3,6x5] w 31")
    legal = s.legal_moves()
    for p in legal:
        assert CORE.listed(p, legal)
        assert CORE.listed(moves.Play(*p), legal)  # equal, not the same object
    assert not CORE.listed(moves.Play((), 0, 0), legal)
    assert not CORE.listed("8/5 6/5", legal)


@needs_core
def test_the_core_refuses_what_is_not_a_board() -> None:
    assert CORE is not None
    for args in ((-1, 0, 3, 1, 0), (1 << 104, 0, 3, 1, 0), (0, 0, 1, 3, 0), (0, 0, 7, 1, 0)):
        with pytest.raises((ValueError, OverflowError)):
            CORE.generate(*args)
    with pytest.raises(TypeError):
        CORE.plays("board", 0, 3, 1, 0)


@settings(max_examples=40, deadline=None)
@given(positions(cap=0))
def test_a_compiled_roll_out_plays_legal_moves(text: str) -> None:
    # one move of a roll-out is one of the state's legal plays; all of them come up
    state = GAMES[0].parse_position(text)
    assert isinstance(state, BackgammonState)
    if state.outcome() is not None:
        return
    legal = {state.play(p) for p in state.legal_moves()}
    rng = random.Random(text)
    seen = set()
    for _ in range(30 * len(legal)):
        after, played = state.random_playout(rng, 1)
        assert played == 1 and after in legal
        seen.add(after)
    assert seen == legal


@pytest.mark.parametrize("cap", [5, 0])
def test_compiled_roll_outs_end_games_reproducibly(cap: int) -> None:
    game = GAMES[cap]
    start = game.start().play("w3b1")
    wins = {"white": 0, "black": 0}
    rng = random.Random(cap)
    for _ in range(100):
        seed = rng.getrandbits(32)
        end, played = start.random_playout(random.Random(seed))
        outcome = end.outcome()
        assert outcome is not None and outcome.reason == "borne-off" and played > 10
        assert end.random_playout(random.Random(seed)) == (end, 0)
        assert start.random_playout(random.Random(seed)) == (end, played)
        assert game.parse_position(end.position()) == end
        wins[str(outcome.winner)] += 1
    # random play from a 31 opening: no side is far ahead
    assert 30 < wins["white"] < 70
    # with a limit, the roll-out stops after that many moves (at a roll or a decision)
    middle, played = start.random_playout(random.Random(1), 7)
    assert played == 7 and middle.outcome() is None
    assert game.parse_position(middle.position()) == middle


def _states_of_random_games(ruleset: str, seed: int, count: int) -> list[BackgammonState]:
    """The states of random games of ``ruleset`` (cube decisions included), ``count`` of them."""
    rng = random.Random(seed)
    game = ludotheque.load("backgammon", ruleset)
    found: list[BackgammonState] = []
    while len(found) < count:
        s: Any = game.start()
        while len(found) < count:
            found.append(s)
            if s.outcome() is not None:
                break
            if s.to_move == "chance":
                outcomes = s.chance_outcomes()
                s = s.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            else:
                legal = s.legal_moves()
                s = s.play(legal[rng.randrange(len(legal))])
    return found


@needs_core
@pytest.mark.parametrize("ruleset", ["seed", "money", "match"])
def test_the_compiled_states_are_the_engines(ruleset: str) -> None:
    """The states the core makes (``from_parts`` and the engine's own moves) are ``_make_py``'s,
    slot by slot, and behave as them (moves, outcome, position, hash, pickling, immutability,
    the collector)."""
    core: Any = CORE
    assert rules._make is core.state
    for s in _states_of_random_games(ruleset, 7, 300):
        parts = s.parts
        made, reference = BackgammonState.from_parts(*parts), rules._make_py(*parts)
        assert type(made) is type(reference) and gc.is_tracked(made)
        for name in rules._FIELDS:
            assert getattr(made, name) is getattr(reference, name)
        assert made == reference and hash(made) == hash(reference) and made == s
        assert made.legal_moves() == reference.legal_moves()
        assert made.outcome() == reference.outcome()
        assert made.position() == s.position() and pickle.loads(pickle.dumps(made)) == s
        with pytest.raises(AttributeError):
            made._white = 0
    cubeless = core.state(*parts[:5])  # no stakes: None
    assert cubeless == rules._make_py(*parts[:5]) and cubeless.stakes is None
    descriptors = tuple(BackgammonState.__dict__[n] for n in rules._FIELDS)
    for bad in [
        (int, descriptors, rules._UNSET),
        (BackgammonState, descriptors[:7], rules._UNSET),
        (BackgammonState, (*descriptors[:7], BackgammonState.__dict__["dice"]), 0),
    ]:
        with pytest.raises(TypeError):
            core.state_setup(*bad)
    with pytest.raises(TypeError):
        core.state(*parts[:4])  # type: ignore[call-arg]  # a part short, on purpose
    assert core.state(*parts) == s  # the bad set-ups changed nothing
