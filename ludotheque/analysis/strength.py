"""How hard the analysis looks: ``quick``, ``normal`` (the default) and ``deep`` for each game.

``depth`` counts plies from the position judged, the move itself included (1: the evaluation of
the position right after each move). ``sift`` searches every move to a lesser depth first and
only the best there (and the move played) to the full depth: the General's deep analysis, whose
seventh ply costs four times the sixth, finds its best moves among the eight best at five plies
(a move outside them keeps its five-ply line). ``root_beam`` searches only that many of the
best-looking moves (and the move played) beyond one ply; ``beam`` does the same at the inner
nodes. For dice games, ``candidates`` and ``threshold`` are GNU Backgammon's move filter: the
plays looked at deeper are at most that many, within that much equity of the best at one ply.

Every setting is reproducible: a depth, never a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import InvalidPosition, described

QUICK, NORMAL, DEEP = "quick", "normal", "deep"
NAMES = (QUICK, NORMAL, DEEP)
DEFAULT = NORMAL


@dataclass(frozen=True)
class Strength:
    """One setting of the analysis for one game."""

    name: str
    depth: int
    description: str
    beam: int | None = None
    root_beam: int | None = None
    candidates: int = 8
    threshold: float = 0.16
    cache: int = 300_000  # positions the search keeps (evaluations, expansions)
    # (depth, keep): every move is first searched ``depth`` plies, and only the ``keep`` best
    # there and the move played are searched to the full depth (the others keep their lines)
    sift: tuple[int, int] | None = None


_SETTINGS: dict[str, dict[str, Strength]] = {
    "general": {
        QUICK: Strength(QUICK, 3, "three plies, every move"),
        NORMAL: Strength(NORMAL, 5, "five plies, every move (the hard computer looks four ahead)"),
        DEEP: Strength(
            DEEP,
            7,
            "seven plies: every move five plies, the eight best there and the one played seven",
            sift=(5, 8),
        ),
    },
    "backgammon": {
        QUICK: Strength(QUICK, 1, "every play by the network (GNU Backgammon's 0-ply)"),
        NORMAL: Strength(
            NORMAL, 2, "the eight best plays through every reply roll (GNU Backgammon's 1-ply)"
        ),
        DEEP: Strength(
            DEEP,
            2,
            "the sixteen best plays through every reply roll",
            candidates=16,
            threshold=0.32,
        ),
    },
    "defiance": {
        QUICK: Strength(QUICK, 1, "every turn, one ply", cache=40_000),
        NORMAL: Strength(
            NORMAL,
            2,
            "every turn one ply; the best and the one played against every answer",
            root_beam=1,
            cache=40_000,
        ),
        DEEP: Strength(
            DEEP,
            2,
            "every turn one ply; the four best and the one played against every answer",
            root_beam=4,
            cache=60_000,
        ),
    },
}

_GENERIC = {
    QUICK: Strength(QUICK, 1, "one ply"),
    NORMAL: Strength(NORMAL, 3, "three plies", beam=8, root_beam=8),
    DEEP: Strength(DEEP, 4, "four plies", beam=8, root_beam=8),
}


def strengths(game: str) -> dict[str, Strength]:
    """The settings of ``game`` (a registry name), by name."""
    return dict(_SETTINGS.get(game, _GENERIC))


def strength_for(game: str, name: str | Strength) -> Strength:
    """The setting called ``name`` for ``game``; a ``Strength`` is taken as it is."""
    if isinstance(name, Strength):
        return name
    table = _SETTINGS.get(game, _GENERIC)
    if not isinstance(name, str) or name not in table:
        raise InvalidPosition(
            "unknown analysis strength {value} ({type}); choose from: {choices}",
            code="unknown-strength", choices=", ".join(NAMES), **described(name),
        )  # fmt: skip
    return table[name]


__all__ = ["DEEP", "DEFAULT", "NAMES", "NORMAL", "QUICK", "Strength", "strength_for", "strengths"]
