"""Pairings for tournaments, pure: the Swiss system's rounds (after FIDE's Dutch system) and the
arena's pairing of whoever is waiting.

No well-kept Python library pairs by the Dutch system, so a round is a maximum-weight matching
(``networkx``) over the pairs that may meet, each pair's weight encoding, in this order of
priority (each level outweighs everything below it together):

1. no repeated pairing: a pair that met is no edge at all (a hard constraint);
2. colours: two players whose absolute preferences (a colour difference beyond ±1, or the same
   colour twice in a row: FIDE C.04.3 A.6) are the same colour are no edge either, unless no
   complete pairing is left without them (then they are the heaviest penalty below 1);
3. score groups: pair within one's score; else float the fewest players, by the smallest
   score differences (the difference squared is paid);
4. colour preferences: two mild preferences for the same colour cost a little;
5. the Dutch order inside a score group: its top half (S1) meets its bottom half (S2) in
   order (1–5, 2–6, …); a pair away from that order pays its distance, more for the higher
   ranked, and more again when both are in one half (the Dutch system swaps inside S2 before
   it exchanges players between S1 and S2). A player who floats down meets the highest ranked
   of the group below first.

This reproduces the Dutch system's usual pairings; it is not a certified implementation of
every rule of C.04.3 (floats remembered from earlier rounds, for one, are not weighed).

The bye (odd counts): the lowest ranked player who has had none, among those whose leaving
the others can still be paired completely. Colours in a pair: both preferences granted when
they differ; else the stronger one; else the one of the higher ranked player; in the first
round the top half alternates colours board by board (the first board's higher ranked player
is white).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

WHITE, BLACK = "w", "b"


@dataclass(frozen=True)
class Entrant:
    """A Swiss player as the pairing sees them: ``rank`` is their pairing number (1: the
    highest rated at the start); ``score`` in half points; ``colours`` the colours they
    played, in order (``w`` or ``b``; rounds without a game are left out)."""

    id: int
    rank: int
    score: int
    opponents: frozenset[int] = field(default_factory=frozenset)
    colours: tuple[str, ...] = ()
    had_bye: bool = False

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


# the levels of a pair's weight (see the module's note)
COLOUR_CLASH = 10**12
FLOAT = 10**9
SCORE_STEP = 10**7
MILD_CLASH = 10**5
ORDER = 1


def _order(players: Sequence[Entrant]) -> list[Entrant]:
    """Highest score first, then pairing number."""
    return sorted(players, key=lambda p: (-p.score, p.rank))


def _positions(players: Sequence[Entrant]) -> dict[int, tuple[int, int]]:
    """Each player's place in their score group and the group's size."""
    groups: dict[int, list[Entrant]] = {}
    for p in _order(players):
        groups.setdefault(p.score, []).append(p)
    return {p.id: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}


def _penalty(a: Entrant, b: Entrant, places: dict[int, tuple[int, int]]) -> int:
    """What pairing ``a`` (ranked higher) with ``b`` costs, colours' absolute clash aside."""
    cost = 0
    (pa, na), (pb, _) = places[a.id], places[b.id]
    if a.score != b.score:
        gap = abs(a.score - b.score)
        cost += FLOAT + SCORE_STEP * gap * gap
        cost += ORDER * (pb * 4 + pa)  # the downfloater meets the top of the group below
    else:
        half = na // 2
        distance = abs((pb - pa) - half)
        cost += ORDER * distance * (na - pa) * 4
        if (pa < half) == (pb < half):
            cost += ORDER * na * na * 8
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    if ca is not None and ca == cb and sa < 2 and sb < 2:
        cost += MILD_CLASH
    return cost


def _clash(a: Entrant, b: Entrant) -> bool:
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    return ca is not None and ca == cb and sa == 2 and sb == 2


def _match(players: Sequence[Entrant], strict: bool) -> list[tuple[Entrant, Entrant]]:
    """The best matching of ``players`` (maximum cardinality first, then weight)."""
    ordered = _order(players)
    places = _positions(ordered)
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in ordered)
    by_id = {p.id: p for p in ordered}
    top = 4 * COLOUR_CLASH
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.id in a.opponents or a.id in b.opponents:
                continue
            clash = _clash(a, b)
            if clash and strict:
                continue
            cost = _penalty(a, b, places) + (COLOUR_CLASH if clash else 0)
            graph.add_edge(a.id, b.id, weight=top - cost)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for x, y in matched:
        a, b = by_id[x], by_id[y]
        pairs.append((a, b) if (-a.score, a.rank) < (-b.score, b.rank) else (b, a))
    return sorted(pairs, key=lambda ab: (-ab[0].score, ab[0].rank))


def _best(players: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """A complete matching without colour clashes if there is one, else the best there is."""
    pairs = _match(players, strict=True)
    if 2 * len(pairs) == len(players):
        return pairs
    loose = _match(players, strict=False)
    return loose if len(loose) > len(pairs) else pairs


def colours(a: Entrant, b: Entrant, board: int) -> tuple[int, int]:
    """(white, black) for ``a`` (ranked higher) and ``b`` on ``board`` (0: the first)."""
    (ca, sa), (cb, sb) = a.preference(), b.preference()
    if ca is None and cb is None:
        return (a.id, b.id) if board % 2 == 0 else (b.id, a.id)
    if ca is None:
        return (b.id, a.id) if cb == WHITE else (a.id, b.id)
    if cb is None or ca != cb or sa >= sb:
        return (a.id, b.id) if ca == WHITE else (b.id, a.id)
    return (b.id, a.id) if cb == WHITE else (a.id, b.id)


def swiss_round(players: Sequence[Entrant]) -> Round:
    """The next round's pairings of ``players`` (those still in the tournament)."""
    ordered = _order(players)
    bye: int | None = None
    field_ = list(ordered)
    if len(ordered) % 2 == 1:
        candidates = [p for p in reversed(ordered) if not p.had_bye] or list(reversed(ordered))
        best: tuple[Entrant, list[tuple[Entrant, Entrant]]] | None = None
        # the lowest ranked whose leaving lets the others pair without a colour clash; else
        # the lowest ranked whose leaving lets them pair at all; else the most pairs
        for strict in (True, False):
            for candidate in candidates:
                rest = [p for p in ordered if p.id != candidate.id]
                pairs = _match(rest, strict=strict)
                if best is None or len(pairs) > len(best[1]):
                    best = (candidate, pairs)
                if 2 * len(pairs) == len(rest):
                    break
            if best is not None and 2 * len(best[1]) == len(ordered) - 1:
                break
        assert best is not None
        bye, pairs = best[0].id, best[1]
    else:
        pairs = _best(field_)
    paired = {p.id for ab in pairs for p in ab}
    unpaired = [p.id for p in ordered if p.id not in paired and p.id != bye]
    return Round([colours(a, b, n) for n, (a, b) in enumerate(pairs)], bye, unpaired)


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
