"""The tournaments' pure parts: Swiss pairings (py4swiss's Dutch engine on a published case,
our TRF report read back as written, properties over random tournaments), the arena's pairing
and points, the Swiss tie-breaks."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py4swiss.trf import TrfParser
from py4swiss.trf.results import ColorToken

from ludotheque.server.clock.controls import Clock, TimeControl, berserk, press
from ludotheque.server.tournaments.pairing import (
    ABSENT,
    BLACK,
    BYE,
    CODES,
    WHITE,
    Entrant,
    Game,
    Waiting,
    arena_pairs,
    numbers,
    report,
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


def test_dutch_pairs_a_published_case() -> None:
    """bbpPairings' test case ``test/tests/dutch_2025_C9`` (github.com/BieremaBoyzProgramming/
    bbpPairings: ``dutch_2025_C9.input`` and ``.output.expected``, paired by FIDE's endorsed
    engine with ``--dutch``): five players, three rounds; in round 1, 1 (white) beat 3 and 2
    (black) beat 4, 5 was not paired. Round 2: 2–1 and 3–5, the bye to 4. Our players' ids
    are not their pairing numbers here, and come in any order: the report renumbers them."""
    g = Game
    history = {1: (g(WIN, 103, WHITE),), 2: (g(WIN, 104, BLACK),), 3: (g(LOSS, 101, BLACK),),
               4: (g(LOSS, 102, WHITE),), 5: (g(ABSENT),)}  # fmt: skip
    players = [Entrant(100 + n, 10 * n, games) for n, games in reversed(history.items())]
    made = swiss_round(players, rounds=3)
    assert made.pairs == [(102, 101), (103, 105)] and made.bye == 104 and not made.unpaired


def test_first_round_top_half_meets_bottom_half() -> None:
    """C.04.3's first round (and TRF's ``XXC white1``): S1 meets S2 in order, the first
    board's higher player white, colours alternating board by board."""
    first = swiss_round([Entrant(i, i) for i in range(1, 9)])
    assert first.pairs == [(1, 5), (6, 2), (3, 7), (8, 4)] and first.bye is None


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    """Seven players: the bye to 7 in round 1 (1–4, 5–2, 3–6 are played); when the higher
    ranked win, the group of 0 (4, 5, 6) is odd and its lowest, 6, has the bye in round 2."""
    first = swiss_round([Entrant(i, i) for i in range(1, 8)])
    assert first.bye == 7
    games: dict[int, tuple[Game, ...]] = {7: (Game(BYE),)}
    for white, black in first.pairs:
        won = min(white, black)
        for me, them, colour in ((white, black, WHITE), (black, white, BLACK)):
            games[me] = (Game(WIN if me == won else LOSS, them, colour),)
    second = swiss_round([Entrant(i, i, games[i]) for i in range(1, 8)])
    assert second.bye == 6 and len(second.pairs) == 3


def _read_back(path: Path, players: list[Entrant]) -> tuple[list[Entrant], set[int]]:
    """The players of the TRF file at ``path`` as py4swiss parses it, in our terms."""
    trf = TrfParser.parse(path, strict=True)
    by_number = {n: i for i, n in numbers(players).items()}
    results = {token: ours for ours, token in CODES.items()}
    out = []
    for section in trf.player_sections:
        games = []
        for r in section.results:
            result = results[r.result]
            if r.color == ColorToken.BYE_OR_NOT_PAIRED:
                games.append(Game(result))
            else:
                colour = WHITE if r.color == ColorToken.WHITE else BLACK
                games.append(Game(result, by_number[r.id], colour))
        rank = next(p.rank for p in players if p.id == by_number[section.starting_number])
        withdrawn = section.starting_number in trf.x_section.zeroed_ids
        out.append(Entrant(by_number[section.starting_number], rank, tuple(games), withdrawn))
        assert section.points_times_ten == 5 * out[-1].score
    return out, {by_number[n] for n in trf.x_section.zeroed_ids}


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 11), st.integers(0, 2**32 - 1))
def test_the_report_reads_back_as_written(n: int, seed: int) -> None:
    """Random Swiss tournaments (results of every kind: games without a result, byes, players
    left unpaired, withdrawals), paired round after round: each round's TRF report, written
    to a file and parsed back by py4swiss (strictly), holds the history we gave it."""
    rnd = random.Random(seed)
    ids = rnd.sample(range(1, 1000), n)
    games: dict[int, list[Game]] = {i: [] for i in ids}
    withdrawn: set[int] = set()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.trf"
        for _ in range(rnd.randint(1, 5)):
            players = [Entrant(i, rank, tuple(games[i]), i in withdrawn)
                       for rank, i in enumerate(ids, start=1)]  # fmt: skip
            report(players, rounds=6).write_to_file(path)
            back, zeroed = _read_back(path, players)
            assert sorted(back, key=lambda p: p.id) == sorted(players, key=lambda p: p.id)
            assert zeroed == withdrawn
            made = swiss_round(players, rounds=6)
            busy = {p for pair in made.pairs for p in pair}
            for white, black in made.pairs:
                result = rnd.choice((WIN, DRAW, LOSS, NONE))
                theirs = {WIN: LOSS, LOSS: WIN}.get(result, result)
                games[white].append(Game(result, black, WHITE))
                games[black].append(Game(theirs, white, BLACK))
            if made.bye is not None:
                games[made.bye].append(Game(BYE))
            for i in ids:
                if i not in busy and i != made.bye:
                    games[i].append(Game(ABSENT))
            if rnd.random() < 0.3:
                withdrawn.add(rnd.choice(ids))


def test_withdrawn_players_are_not_paired() -> None:
    """A withdrawn player stays in the report (their opponents' games need them) but is not
    paired; nor are two who played a game without a result kept apart (a double forfeit in
    the TRF is no game played)."""
    g = Game
    one = {1: (g(WIN, 3, WHITE),), 2: (g(NONE, 4, BLACK),), 3: (g(LOSS, 1, BLACK),),
           4: (g(NONE, 2, WHITE),), 5: (g(DRAW, 6, WHITE),), 6: (g(DRAW, 5, BLACK),)}  # fmt: skip
    players = [Entrant(i, i, one[i], withdrawn=i in (1, 5)) for i in one]
    made = swiss_round(players)
    assert sorted(p for pair in made.pairs for p in pair) == [2, 3, 4, 6] and made.bye is None
    assert report(players).x_section.zeroed_ids == {1, 5}
    left = [Entrant(i, i, one[i], withdrawn=i not in (2, 4)) for i in one]
    assert [set(pair) for pair in swiss_round(left).pairs] == [{2, 4}]


def test_when_the_dutch_system_pairs_nobody() -> None:
    """The Dutch engine answers nothing when its absolute rules leave no pairing: then the
    most players are paired without a repeat, whatever their colours. Four players who all
    met: nobody is paired. Two who must both have black (white twice in a row) and never
    met: they play all the same, one of them black."""
    history: dict[int, tuple[Game, ...]] = dict.fromkeys(range(1, 5), ())
    for white, black in ((1, 2), (4, 3), (3, 1), (2, 4), (1, 4), (3, 2)):  # white wins
        history[white] += (Game(WIN, black, WHITE),)
        history[black] += (Game(LOSS, white, BLACK),)
    met = [Entrant(i, i, games) for i, games in history.items()]
    nobody = swiss_round(met)
    assert nobody.pairs == [] and nobody.bye is None and sorted(nobody.unpaired) == [1, 2, 3, 4]
    twice = [Entrant(i, i, (Game(WIN, 10 + i, WHITE), Game(WIN, 20 + i, WHITE))) for i in (1, 2)]
    g, out = Game, Game(ABSENT)
    gone = {11: (g(LOSS, 1, BLACK), out), 12: (g(LOSS, 2, BLACK), out),
            21: (out, g(LOSS, 1, BLACK)), 22: (out, g(LOSS, 2, BLACK))}  # fmt: skip
    others = [Entrant(i, i, g, withdrawn=True) for i, g in gone.items()]
    made = swiss_round(twice + others)
    assert [set(pair) for pair in made.pairs] == [{1, 2}] and not made.unpaired


def _play(n: int, rounds: int, rnd: random.Random) -> None:
    """A random Swiss of ``n`` players, each round's pairings checked as they come."""
    games: dict[int, list[Game]] = {i: [] for i in range(n)}
    byes: dict[int, int] = dict.fromkeys(range(n), 0)
    for _ in range(rounds):
        field_ = [Entrant(i, i + 1, tuple(games[i])) for i in range(n)]
        met = {p.id: p.opponents for p in field_}
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
            games[made.bye].append(Game(BYE))
        for i in made.unpaired:
            games[i].append(Game(ABSENT))
        for white, black in made.pairs:
            assert black not in met[white], "a repeated pairing"
            result = rnd.choice((WIN, DRAW, LOSS))
            games[white].append(Game(result, black, WHITE))
            games[black].append(Game({WIN: LOSS, LOSS: WIN}.get(result, result), white, BLACK))
        if avoidable:  # a pairing kept everyone's colours in bounds: this one does too
            for i in range(n):
                c = [g.colour for g in games[i] if g.colour]
                assert abs(c.count(WHITE) - c.count(BLACK)) <= 2, "colours out of balance"
                assert c[-3:] not in ([WHITE] * 3, [BLACK] * 3), "a colour thrice in a row"


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


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4).map(lambda k: 2 * k), st.integers(0, 2**32 - 1))
def test_no_third_same_colour_when_avoidable(n: int, seed: int) -> None:
    """Small even fields played to (almost) a round robin: whenever some complete pairing
    gives nobody a colour a third time in a row, the round's pairing does not either."""
    rnd = random.Random(seed)
    games: dict[int, list[Game]] = {i: [] for i in range(n)}
    for _ in range(min(n - 1, 4)):
        field_ = [Entrant(i, i + 1, tuple(games[i])) for i in range(n)]
        avoidable = _avoidable(field_, budget=10**6)
        made = swiss_round(field_)
        for white, black in made.pairs:
            if avoidable:
                assert field_[white].colours[-2:] != (WHITE, WHITE)
                assert field_[black].colours[-2:] != (BLACK, BLACK)
            result = rnd.choice((WIN, DRAW, LOSS))
            games[white].append(Game(result, black, WHITE))
            games[black].append(Game({WIN: LOSS, LOSS: WIN}.get(result, result), white, BLACK))
        for i in made.unpaired:
            games[i].append(Game(ABSENT))


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
