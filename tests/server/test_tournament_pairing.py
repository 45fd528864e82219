"""The tournaments' pure parts: Swiss pairings (a worked example of FIDE's Dutch system and
properties over random tournaments), the arena's pairing and points, the Swiss tie-breaks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.server.clock.controls import Clock, TimeControl, berserk, press
from ludotheque.server.tournaments.pairing import (
    BLACK,
    WHITE,
    Entrant,
    Waiting,
    arena_pairs,
    swiss_round,
)
from ludotheque.server.tournaments.scoring import (
    DRAW,
    LOSS,
    NONE,
    WIN,
    ArenaGame,
    SwissGame,
    arena_line,
    swiss_table,
)


def test_dutch_rounds_one_and_two_of_eight_players() -> None:
    """Eight players by rating, the rules of FIDE's Dutch system (FIDE Handbook C.04.3, "FIDE
    (Dutch) System", sections A.6 colour preferences, B pairing criteria, and its rule that a
    score group's top half S1 meets its bottom half S2 in order): round 1 pairs 1–5, 2–6, 3–7,
    4–8 with the first board's higher player white and colours alternating board by board
    (1–5, 6–2, 3–7, 8–4). When every higher ranked player wins, round 2 pairs the group of 1
    (1, 2, 3, 4): 1–3 and 2–4 would give two players who both want black the same colour, so
    S2 is transposed: 4–1 (1 was white, 4 black) and 2–3; likewise 5–8 and 7–6 in the group of 0.
    This is the example every arbiters' course works by hand from those rules (for instance the
    English Chess Arbiters' Association's "Swiss Pairing" booklet's first rounds); the expected
    boards here were worked from C.04.3, not copied from a table."""
    players = [Entrant(i, i, 0) for i in range(1, 9)]
    first = swiss_round(players)
    assert first.pairs == [(1, 5), (6, 2), (3, 7), (8, 4)] and first.bye is None
    won = {1, 2, 3, 4}
    after = []
    for white, black in first.pairs:
        for me, them, colour in ((white, black, WHITE), (black, white, BLACK)):
            after.append(Entrant(me, me, 2 if me in won else 0, frozenset({them}), (colour,)))
    second = swiss_round(after)
    assert second.pairs == [(4, 1), (2, 3), (5, 8), (7, 6)]


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    players = [Entrant(i, i, 0, had_bye=(i == 7)) for i in range(1, 8)]
    assert swiss_round(players).bye == 6
    assert swiss_round([Entrant(i, i, 0) for i in range(1, 8)]).bye == 7


def _play(n: int, rounds: int, rnd: random.Random) -> list[list[tuple[int, int, int | None]]]:
    """A random Swiss of ``n`` players: each round's (white, black) pairs and its bye, the
    round's pairings checked as they come."""
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    colours: dict[int, list[str]] = {i: [] for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    byes: dict[int, int] = dict.fromkeys(range(n), 0)
    history = []
    for _ in range(rounds):
        field_ = [Entrant(i, i + 1, score[i], frozenset(met[i]), tuple(colours[i]),
                          byes[i] > 0) for i in range(n)]  # fmt: skip
        avoidable = _avoidable(field_)
        made = swiss_round(field_)
        seen = [p for pair in made.pairs for p in pair] + ([made.bye] if made.bye is not None
                                                           else []) + made.unpaired  # fmt: skip
        assert sorted(seen) == list(range(n)), "each player once a round"
        assert (made.bye is not None) == (n % 2 == 1)
        if made.bye is not None:
            fewest = min(byes.values())
            assert byes[made.bye] == fewest, "a second bye while someone has none"
            byes[made.bye] += 1
            score[made.bye] += 2
        for white, black in made.pairs:
            assert black not in met[white], "a repeated pairing"
            met[white].add(black)
            met[black].add(white)
            colours[white].append(WHITE)
            colours[black].append(BLACK)
            result = rnd.choice((2, 1, 0))
            score[white] += result
            score[black] += 2 - result
        history.append([(w, b, made.bye) for w, b in made.pairs])
        if avoidable:  # a pairing kept everyone's colours in bounds: this one does too
            for i in range(n):
                c = colours[i]
                assert abs(c.count(WHITE) - c.count(BLACK)) <= 2, "colours out of balance"
                assert c[-3:] not in ([WHITE] * 3, [BLACK] * 3), "a colour thrice in a row"
    return history


def _fits(a: Entrant, b: Entrant) -> bool:
    """Whether ``a`` and ``b`` may meet with neither going beyond ±2 nor getting a colour a
    third time in a row: no repeat, and not both bound to the same colour."""
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    return b.id not in a.opponents and not (sa == 2 and sb == 2 and ca == cb)


def _avoidable(players: list[Entrant], budget: int = 20_000) -> bool:
    """Whether some complete pairing (a bye to someone without one, for an odd count) keeps
    every colour in bounds (a depth-first search; ``False`` also when it gives up)."""
    left = [budget]

    def search(rest: list[Entrant]) -> bool:
        left[0] -= 1
        if left[0] < 0:
            return False
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            _fits(first, other) and search(others[:i] + others[i + 1 :])
            for i, other in enumerate(others)
        )

    if len(players) % 2 == 0:
        return search(players)
    fewest = min(p.had_bye for p in players)
    return any(search([q for q in players if q.id != p.id])
               for p in players if p.had_bye == fewest)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 16), st.integers(0, 2**32 - 1))
def test_swiss_properties(n: int, seed: int) -> None:
    """No repeats, each player paired at most once a round, one bye a round at most and never
    a second to anyone while another has none; colour differences within ±2 and no colour
    three times in a row in each round where some pairing allowed it (``_play``)."""
    rounds = min(n - 1, 5) if n % 2 == 0 else min(n - 2, 5)
    _play(n, rounds, random.Random(seed))


def _three_in_a_row_avoidable(players: list[Entrant]) -> bool:
    """Whether some complete pairing of ``players`` (even, no repeats) gives nobody the same
    colour a third time in a row (brute force: small fields)."""

    def ok(a: Entrant, b: Entrant) -> bool:
        (ca, sa), (cb, sb) = a.preference(), b.preference()
        return not (sa == 2 and sb == 2 and ca == cb)

    def search(left: list[Entrant]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            fits = other.id not in first.opponents and ok(first, other)
            if fits and search(rest[:i] + rest[i + 1 :]):
                return True
        return False

    return search(players)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4).map(lambda k: 2 * k), st.integers(0, 2**32 - 1))
def test_no_third_same_colour_when_avoidable(n: int, seed: int) -> None:
    rnd = random.Random(seed)
    ids = list(range(n))
    met: dict[int, set[int]] = {i: set() for i in ids}
    cols: dict[int, list[str]] = {i: [] for i in ids}
    score = dict.fromkeys(ids, 0)
    for _ in range(min(n - 1, 4)):
        field_ = [Entrant(i, i + 1, score[i], frozenset(met[i]), tuple(cols[i])) for i in ids]
        made = swiss_round(field_)
        if _three_in_a_row_avoidable(field_):
            for white, black in made.pairs:
                assert cols[white][-2:] != [WHITE, WHITE]
                assert cols[black][-2:] != [BLACK, BLACK]
        for white, black in made.pairs:
            met[white].add(black)
            met[black].add(white)
            cols[white].append(WHITE)
            cols[black].append(BLACK)
            r = rnd.choice((0, 1, 2))
            score[white] += r
            score[black] += 2 - r


def test_arena_points_with_streaks_and_berserk() -> None:
    games = [ArenaGame(WIN), ArenaGame(WIN), ArenaGame(WIN, berserk=True), ArenaGame(DRAW),
             ArenaGame(WIN), ArenaGame(NONE), ArenaGame(LOSS),
             ArenaGame(WIN, berserk=True)]  # fmt: skip
    line = arena_line(games)
    assert line.points == [2, 2, 5, 2, 2, 0, 0, 3]
    assert line.fire == [False, False, True, True, False, False, False, False]
    assert line.total == 16 and not line.on_fire
    assert arena_line([ArenaGame(WIN)] * 3).on_fire


def test_arena_pairs_close_scores_and_no_immediate_rematch() -> None:
    waiting = [Waiting(1, 10, 1500, last_opponent=2), Waiting(2, 10, 1500, last_opponent=1),
               Waiting(3, 9, 1500), Waiting(4, 0, 1500)]  # fmt: skip
    pairs = arena_pairs(waiting, others_playing=True)
    assert {frozenset(p) for p in pairs} == {frozenset({1, 3}), frozenset({2, 4})}
    # the two alone, others still playing: they wait; nobody else left: they play again
    alone = waiting[:2]
    assert arena_pairs(alone, others_playing=True) == []
    assert len(arena_pairs(alone, others_playing=False)) == 1


def test_swiss_tie_breaks() -> None:
    """Four players, three rounds (1 beats 2 and 3 and draws with 4; 2 beats 4 and 3; 3 beats
    4): the table's Buchholz and Sonneborn-Berger, worked by hand, in half and quarter
    points."""
    rounds = {1: [(2, WIN), (3, WIN), (4, DRAW)], 2: [(1, LOSS), (4, WIN), (3, WIN)],
              3: [(4, WIN), (1, LOSS), (2, LOSS)],
              4: [(3, LOSS), (2, LOSS), (1, DRAW)]}  # fmt: skip
    table = swiss_table({p: (p, [SwissGame(o, r) for o, r in games])
                         for p, games in rounds.items()})  # fmt: skip
    by = {line.id: line for line in table}
    assert [line.id for line in table] == [1, 2, 3, 4]
    assert (by[1].score, by[2].score, by[3].score, by[4].score) == (5, 4, 2, 1)
    assert by[1].buchholz == 4 + 2 + 1 and by[2].buchholz == 5 + 1 + 2
    assert by[1].sonneborn == 4 * 2 + 2 * 2 + 1 * 1


def test_berserk_halves_the_time_and_takes_the_increment() -> None:
    control = TimeControl.parse("3+2")
    clock = press(Clock.new(control, ("rebels", "general")), 1000.0, "rebels")
    mad = berserk(clock, "general")
    assert mad.remaining == {"rebels": 180.0, "general": 90.0}
    assert Clock.from_dict(mad.to_dict()) == mad
    after = press(press(mad, 1001.0, "general"), 1011.0, "rebels")  # (the first moves: free)
    after = press(press(after, 1012.0, "general"), 1022.0, "rebels")
    assert after.remaining["general"] == 80.0  # ten seconds spent, no increment
    assert after.remaining["rebels"] == 181.0  # one second spent, two gained
    delay = Clock.new(TimeControl.parse("3+12d"), ("white", "black"))
    for refused, side in ((after, "general"), (mad, "general"), (delay, "white")):
        with pytest.raises(ValueError):
            berserk(refused, side)
    assert "berserk" not in clock.to_dict()  # the clocks stored before it read the same
