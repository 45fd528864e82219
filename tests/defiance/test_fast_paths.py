"""The engine's fast paths against the plain ones (issue 21): the lazy sequence of turns holds the
same turns in the same order as asking every action through the checked path (``after_action``),
answers indexing, slicing, membership and ``index`` as the list of those turns would, and a
turn played from it gives what the checked path gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque import IllegalMove
from ludotheque.games.defiance import Action, CommandMove, DefianceState, Turn
from ludotheque.games.defiance.moves import PLACE, ROTATE
from ludotheque.games.defiance.turns import Turns
from tests.defiance.strategies import position, positions

GAMES = {10: ludotheque.load("defiance"), 8: ludotheque.load("defiance", "8x8")}
SETTINGS = settings(max_examples=25, deadline=None)


def parse(n: int, text: str) -> DefianceState:
    s = GAMES[n].parse_position(text)
    assert isinstance(s, DefianceState)
    return s


def plain_turns(s: DefianceState) -> list[Turn]:
    """Every turn, by asking each conceivable action through the checked path, in the order
    of the first engine: placements by cell and direction, then rotations, each action alone
    and then with each of its Command moves."""
    n = s.game.geo.n
    s = parse(n, s.position())  # a fresh copy: nothing listed, so every answer is checked
    out: list[Turn] = []
    for kind in (PLACE, ROTATE):
        for c in range(n * n):
            for d in range(8):
                action = Action(kind, c, d)
                try:
                    view = s.after_action(action)
                except IllegalMove:
                    continue
                out.append(Turn(action, None, n))
                if view.outcome is None:
                    out.extend(Turn(action, cm, n) for cm, _ in view.command_moves)
    return out


def check(s: DefianceState, rng: random.Random) -> None:
    if s.outcome() is not None:
        assert s.legal_moves() == [] and s.count_legal_moves() == 0
        return
    expected = plain_turns(s)
    turns = s.legal_moves()
    assert isinstance(turns, Turns)
    assert len(turns) == len(expected) == s.count_legal_moves()
    assert list(turns) == expected and turns == expected
    actions = list(dict.fromkeys(t.action for t in expected))
    assert s.legal_actions() == actions == turns.actions()
    check_factored_view(s, actions, rng)
    for i in rng.sample(range(len(expected)), min(60, len(expected))):
        t = expected[i]
        assert turns[i] == t and turns[i - len(expected)] == t
        assert t in turns and turns.index(t) == i and turns.count(t) == 1
    assert turns[5:40:3] == expected[5:40:3] and turns[-3:] == expected[-3:]
    with pytest.raises(IndexError):
        turns[len(expected)]
    n = s.game.geo.n
    # near misses are not turns: a command after a winning or unknown action, a wrong board
    for t in rng.sample(expected, min(15, len(expected))):
        assert Turn(t.action, t.command, 18 - n) not in turns
        assert Turn(t.action, CommandMove(0, n * (n + 2)), n) not in turns
        assert (
            Turn(Action(t.action.kind, t.action.cell, (t.action.direction + 8)), None, n)
            not in turns
        )
    legal = set(expected)
    for kind in (PLACE, ROTATE):
        for c in rng.sample(range(n * n), 6):
            for d in range(8):
                t = Turn(Action(kind, c, d), None, n)
                assert (t in turns) == (t in legal)
    # a listed turn plays as the checked path plays it (a fresh copy has nothing listed)
    for t in rng.sample(expected, min(25, len(expected))):
        fresh = parse(n, s.position())
        assert s.play(t) == fresh.play(t) == fresh.play(str(t))


@SETTINGS
@given(st.sampled_from([10, 8]).flatmap(lambda n: st.tuples(st.just(n), positions(n=n))))
def test_lazy_turns_are_the_plain_turns(board: tuple[int, str]) -> None:
    n, text = board
    check(parse(n, text), random.Random(text))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([10, 8]))
def test_lazy_turns_along_random_games(seed: int, n: int) -> None:
    # random games make captures (the actions whose Command moves differ) and empty pools
    rng = random.Random(seed)
    s = GAMES[n].start()
    for ply in range(120):
        assert isinstance(s, DefianceState)
        if s.outcome() is not None:
            break
        if ply % 15 == 14:
            check(s, rng)
        moves = s.legal_moves()
        s = s.play(moves[rng.randrange(len(moves))])


def test_winning_placements_and_captures_together() -> None:
    # the Rebels hold three sectors and need one cell of a block in sector (1,1); an Imperial
    # counter can be captured from two cells
    cells = {
        "b2": "RN", "c2": "RN", "b3": "RN", "c3": "RN",  # sector (0,0)
        "g2": "RN", "h2": "RN", "g3": "RN", "h3": "RN",  # sector (1,0)
        "b7": "RN", "c7": "RN", "b8": "RN", "c8": "RN",  # sector (0,1)
        "g7": "RN", "h7": "RN", "g8": "RN",  # sector (1,1): h8 wins
        "e5": "IN", "e6": "RS",  # e4 facing N captures e5
    }  # fmt: skip
    s = parse(10, position(cells, rebel="4.2", imperial=("9.9", "10.10")))
    check(s, random.Random(1))
    turns = s.legal_moves()
    win = Turn(Action(PLACE, s.game.geo.cell_index["h8"], 0), None, 10)
    assert win in turns and s.play(win).outcome() == ludotheque.Outcome("rebels", "four-sectors")
    after_win = Turn(win.action, CommandMove(s.game.geo.point(4, 2), s.game.geo.point(4, 3)), 10)
    assert after_win not in turns
    with pytest.raises(IllegalMove, match="wins the game"):
        s.play(after_win)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([10, 8]))
def test_shared_boards_and_kept_features_are_exact(seed: int, n: int) -> None:
    # the turns of one action share their board (cells and bitboards), and the evaluation keeps
    # the features of the last bitboards: every child equals, and evaluates exactly as, the same
    # position parsed afresh
    from ludotheque.games.defiance.board import bitboards_of

    rng = random.Random(seed)
    game = GAMES[n]
    s = game.start()
    for _ in range(rng.randrange(10, 50)):
        if s.outcome() is not None:
            return
        moves = s.legal_moves()
        s = s.play(moves[rng.randrange(len(moves))])
    if s.outcome() is not None:
        return
    turns = list(s.legal_moves())
    start = rng.randrange(len(turns))
    children = [s.play(t) for t in turns[start : start + 300]]
    values = [game.evaluate(c, side) for c in children for side in ("rebels", "imperium")]
    for c in children:
        assert isinstance(c, DefianceState)
        assert c.bitboards() == bitboards_of(c._cells)
    fresh = [parse(n, c.position()) if c.outcome() is None else c for c in children]
    assert fresh == children
    again = [game.evaluate(c, side) for c in fresh for side in ("rebels", "imperium")]
    assert values == again


def check_factored_view(s: DefianceState, actions: list[Action], rng: random.Random) -> None:
    """The factored view of a position whose turns are listed (answered from them) against a
    fresh copy's (checked action by action): the same views, numbers and winning actions."""
    n = s.game.geo.n
    turns = s.legal_moves()
    assert isinstance(turns, Turns)
    assert turns.action_count() == len(actions)
    assert [c for c, _ in turns.own] == sorted({a.cell for a in actions if a.kind == ROTATE})
    assert list(turns.places) == sorted({a.cell for a in actions if a.kind == PLACE})
    for k in rng.sample(range(len(actions)), min(40, len(actions))):
        action = actions[k]
        assert turns.action_at(k) == action and turns.action_index(action) == k
        fresh = parse(n, s.position())
        view = s.after_action(action)
        assert view == fresh.after_action(action)
        assert turns.wins(k) == (view.outcome is not None)
        assert turns.options(k) == tuple(cm for cm, _ in view.command_moves)
    for kind in (PLACE, ROTATE):  # actions not listed: -1, and the checked path's error
        for c in rng.sample(range(n * n), 5):
            for d in range(8):
                action = Action(kind, c, d)
                if action in actions:
                    continue
                assert turns.action_index(action) == -1
                with pytest.raises(IllegalMove) as listed:
                    s.after_action(action)
                with pytest.raises(IllegalMove) as fresh_error:
                    parse(n, s.position()).after_action(action)
                assert str(listed.value) == str(fresh_error.value)
    assert turns.action_index((PLACE, 0, 0)) == turns.action_index(Action(PLACE, 0, 0))
    with pytest.raises(IllegalMove):
        s.after_action((PLACE, 0, 0))  # type: ignore[arg-type]  # not an Action
