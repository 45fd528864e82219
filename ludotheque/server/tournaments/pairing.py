"""Pairings for tournaments, pure: the Swiss system's rounds (FIDE's Dutch system, by
``py4swiss``) and the arena's pairing of whoever is waiting.

A Swiss round is paired by py4swiss's Dutch engine (FIDE Handbook C.04.3, the Dutch system in
force until 2026; its authors test it to give bbpPairings' pairings, the engine FIDE endorses).
It reads the tournament's history as a TRF(x), the FIDE tournament report file as extended by
JaVaFo's user manual, which ``report`` builds in memory, one ``001`` line a player:

- the starting number (columns 5–8): the pairing number, 1 for the highest rating at entry
  (``Entrant.rank``, renumbered 1…N without gaps);
- the name: ``id`` and our player id (read by nobody, it makes a report readable);
- the points (columns 81–84): a win 1, a draw ½, the bye 1, anything else 0;
- the rank (columns 86–89): the place in the pairing order (points, then starting number);
- one result a round played so far (8 characters each from column 92): the opponent's
  starting number (``0000`` for none), the colour (``w`` our first side, ``b`` the second,
  ``-`` without a game) and the result: ``1``, ``=``, ``0`` for a game played; ``-`` for both
  players of a game without a result (aborted, or never made: a double forfeit, which is not a
  game played, so the two may meet again and it weighs on no one's colours); ``U`` for the
  pairing-allocated bye; ``Z`` for a round not paired (not yet entered, or left unpaired).

Then ``XXR`` the rounds planned (the last round's top scorers may break colour rules, C.04.3
A.7), ``XXS`` the points (py4swiss's default, which is ours: a win, the bye 1, a draw ½, a
forfeit loss and a round not paired 0), ``XXC white1`` (the first board's higher player is
white in round 1) and ``XXZ`` the withdrawn players: in the report, for their games, but
paired no more. The engine answers the pairs (white, black) in board order and the bye.

When no pairing satisfies the Dutch system's absolute criteria (no repeated game, no second
bye, no two players who both must have the same colour meet: C.04.3 C1–C3), the engine pairs
nothing and the arbiter decides; here ``_most_pairs`` does, as before py4swiss: a maximum-weight
matching (``networkx``) pairing the most players without a repeat, colour clashes and score
differences last, the bye to the lowest ranked of those who had none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection
from py4swiss.trf.sections.x_section import XSectionConfiguration

from .scoring import DRAW, LOSS, NONE, WIN

WHITE, BLACK = "w", "b"
BYE, ABSENT = "bye", "absent"

HALVES = {WIN: 2, DRAW: 1, BYE: 2}
"""A round's points, in half points (anything else: none)."""
CODES = {WIN: ResultToken.WIN, DRAW: ResultToken.DRAW, LOSS: ResultToken.LOSS,
         NONE: ResultToken.FORFEIT_LOSS, BYE: ResultToken.PAIRING_ALLOCATED_BYE,
         ABSENT: ResultToken.ZERO_POINT_BYE}  # fmt: skip
"""Our results as the TRF writes them (see the module's note)."""
PLAYED = (WIN, DRAW, LOSS)


@dataclass(frozen=True)
class Game:
    """One round of a Swiss player's history, as they saw it: their ``result`` (``win``,
    ``draw``, ``loss``; ``none`` for a game without a result; ``bye``; ``absent`` for a round
    they were not paired in), their ``opponent`` and their ``colour`` (``w`` or ``b``) when
    there was a game."""

    result: str
    opponent: int | None = None
    colour: str | None = None


@dataclass(frozen=True)
class Entrant:
    """A Swiss player as the pairing sees them: ``rank`` is their pairing number (1: the
    highest rated at the start); ``games`` their rounds so far, one a round, in order (every
    entrant has as many); ``withdrawn``: in the history, paired no more."""

    id: int
    rank: int
    games: tuple[Game, ...] = ()
    withdrawn: bool = False

    @property
    def score(self) -> int:
        """Points in half points."""
        return sum(HALVES.get(g.result, 0) for g in self.games)

    @property
    def opponents(self) -> frozenset[int]:
        """Those met in a game played (a game without a result is not one)."""
        return frozenset(g.opponent for g in self.games
                         if g.result in PLAYED and g.opponent is not None)  # fmt: skip

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours of the games played, in order."""
        return tuple(g.colour for g in self.games if g.result in PLAYED and g.colour)

    @property
    def had_bye(self) -> bool:
        return any(g.result == BYE for g in self.games)

    @property
    def difference(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    def preference(self) -> tuple[str | None, int]:
        """The colour this player should get next and how strongly: 2 absolute, 1 strong or
        mild (FIDE C.04.3 A.6), 0 none."""
        d, last = self.difference, self.colours[-2:]
        if d < -1 or last == (BLACK, BLACK):
            return WHITE, 2
        if d > 1 or last == (WHITE, WHITE):
            return BLACK, 2
        if d < 0:
            return WHITE, 1
        if d > 0:
            return BLACK, 1
        if self.colours:
            return (BLACK if self.colours[-1] == WHITE else WHITE), 1
        return None, 0


@dataclass(frozen=True)
class Round:
    """A round's pairings: (white, black) ids, board by board; the bye; those left unpaired
    (only when no pairing without a repeat exists for them)."""

    pairs: list[tuple[int, int]]
    bye: int | None = None
    unpaired: list[int] = field(default_factory=list)


def numbers(players: Sequence[Entrant]) -> dict[int, int]:
    """Each player's starting number in the report: 1…N by pairing number (then id)."""
    seeded = sorted(players, key=lambda p: (p.rank, p.id))
    return {p.id: n for n, p in enumerate(seeded, start=1)}


def _result(game: Game, number: dict[int, int]) -> RoundResult:
    if game.opponent is None or game.result in (BYE, ABSENT):
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=CODES[game.result])
    colour = ColorToken.WHITE if game.colour == WHITE else ColorToken.BLACK
    return RoundResult(id=number[game.opponent], color=colour, result=CODES[game.result])


def report(players: Sequence[Entrant], rounds: int | None = None) -> ParsedTrf:
    """The tournament's history as the TRF(x) py4swiss reads (see the module's note), checked
    by py4swiss (points, and each game's two entries agreeing). ``rounds``: the rounds
    planned; ``None``: more than the next one."""
    number = numbers(players)
    played = max((len(p.games) for p in players), default=0)
    order = sorted(players, key=lambda p: (-p.score, number[p.id]))
    place = {p.id: n for n, p in enumerate(order, start=1)}
    sections = [
        PlayerSection(code=PlayerCode.PLAYER, starting_number=number[p.id], name=f"id {p.id}",
                      points_times_ten=5 * p.score, rank=place[p.id],
                      results=[_result(g, number) for g in p.games])
        for p in sorted(players, key=lambda p: number[p.id])
    ]  # fmt: skip
    x_section = XSection(
        number_of_rounds=max(rounds or 0, played + 1) if rounds else played + 2,
        zeroed_ids={number[p.id] for p in players if p.withdrawn},
        configuration=XSectionConfiguration(first_round_color=True),
    )
    trf = ParsedTrf(player_sections=sections, x_section=x_section)
    trf.validate_contents()
    return trf


def swiss_round(players: Sequence[Entrant], rounds: int | None = None) -> Round:
    """The next round's pairings of ``players`` (the withdrawn among them are not paired):
    the Dutch system's (py4swiss), or, when it finds none, the most pairs without a repeat.
    ``rounds``: the rounds planned (``None``: more than the next one)."""
    field_ = [p for p in players if not p.withdrawn]
    if len(field_) < 2:
        return Round([], field_[0].id if field_ else None)
    by_number = {n: i for i, n in numbers(players).items()}
    try:
        made = DutchEngine.generate_pairings(report(players, rounds))
    except PairingError:
        return _most_pairs(field_)
    pairs = [(by_number[m.white], by_number[m.black]) for m in made if m.black]
    bye = next((by_number[m.white] for m in made if not m.black), None)
    return Round(pairs, bye)


def _order(players: Sequence[Entrant]) -> list[Entrant]:
    """Highest score first, then pairing number."""
    return sorted(players, key=lambda p: (-p.score, p.rank, p.id))


def _clash(a: Entrant, b: Entrant) -> bool:
    """Whether both must have the same colour."""
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    return ca is not None and ca == cb and sa == 2 and sb == 2


def colours(a: Entrant, b: Entrant) -> tuple[int, int]:
    """(white, black) for ``a`` (ranked higher) and ``b``: the stronger preference is granted,
    the higher ranked player's when they are as strong; without any, ``a`` is white."""
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    if ca is None and cb is None:
        return a.id, b.id
    if cb is not None and (ca is None or sb > sa):
        return (b.id, a.id) if cb == WHITE else (a.id, b.id)
    return (a.id, b.id) if ca == WHITE else (b.id, a.id)


def _most_pairs(players: Sequence[Entrant]) -> Round:
    """The round when the Dutch system has none: the most players paired without a repeat,
    then the fewest colour clashes, then the smallest score differences and the pairs
    closest in the pairing order; for an odd count, the bye to the lowest ranked of those
    who had none (of anyone, if all had one)."""
    ordered = _order(players)
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in ordered)
    n = len(ordered)
    top, clash, step = 10**12, 10**9, 10**4
    for i, a in enumerate(ordered):
        for j in range(i + 1, n):
            b = ordered[j]
            if b.id in a.opponents or a.id in b.opponents:
                continue
            gap = abs(a.score - b.score)
            cost = (clash if _clash(a, b) else 0) + step * gap * gap + (j - i)
            graph.add_edge(a.id, b.id, weight=top - cost)
    sentinel = min(p.id for p in ordered) - 1  # the bye, as a node
    if n % 2 == 1:
        fresh = [p for p in ordered if not p.had_bye] or ordered
        for place, p in enumerate(fresh):
            graph.add_edge(p.id, sentinel, weight=top - (len(fresh) - place))
    by_id = {p.id: p for p in ordered}
    bye, pairs = None, []
    for x, y in nx.max_weight_matching(graph, maxcardinality=True):
        if sentinel in (x, y):
            bye = x if y == sentinel else y
            continue
        a, b = sorted((by_id[x], by_id[y]), key=lambda p: (-p.score, p.rank, p.id))
        pairs.append((a, b))
    pairs.sort(key=lambda ab: (-ab[0].score, ab[0].rank, ab[0].id))
    paired = {p.id for ab in pairs for p in ab} | {bye}
    return Round([colours(a, b) for a, b in pairs], bye,
                 [p.id for p in ordered if p.id not in paired])  # fmt: skip


@dataclass(frozen=True)
class Waiting:
    """An arena player waiting for a game: their points, rating, last opponent, and how many
    times they were white and black."""

    id: int
    points: int
    rating: float
    last_opponent: int | None = None
    whites: int = 0
    blacks: int = 0


def arena_pairs(waiting: Sequence[Waiting], others_playing: bool) -> list[tuple[int, int]]:
    """Pair the waiting arena players (white, black): closest by points, then rating; two who
    just met are not paired again while others could come to wait (``others_playing``), or
    when another pairing is as good. Whoever was white less often is white."""
    ranked = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.id))
    graph = nx.Graph()
    for i, a in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            rematch = a.last_opponent == b.id or b.last_opponent == a.id
            if rematch and others_playing:
                continue
            cost = (j - i) * 1000 + int(abs(a.rating - b.rating)) + (10**6 if rematch else 0)
            graph.add_edge(a.id, b.id, weight=10**9 - cost)
    by_id = {w.id: w for w in ranked}
    out = []
    for x, y in nx.max_weight_matching(graph, maxcardinality=True):
        a, b = by_id[x], by_id[y]
        if (a.whites - a.blacks, a.id) > (b.whites - b.blacks, b.id):
            a, b = b, a
        out.append((a.id, b.id))
    return sorted(out)
