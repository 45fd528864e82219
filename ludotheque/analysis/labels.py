"""How big an error is: the label bands, and the luck of a roll.

Two measures, as the programs players know use them:

- **Backgammon** judges a play or a cube decision by the *equity* it gives up (the points won
  per game on average: cubeless equity in ``seed`` and ``standard``, in [-1, 1] there; in
  ``money`` and ``match`` normalised equity, per unit of the cube, the match winning chances
  turned into equity in a match: see ``stakes``), with GNU Backgammon's thresholds
  (``arSkillLevel`` in its ``gnubg.c``): a loss above 0.04 is *doubtful* (``?!``), above 0.08
  *bad* (``?``), above 0.16 *very bad* (``??``). The luck of a roll is its equity against the
  average roll, with GNU Backgammon's ``arLuckLevel``: above +0.3 *lucky*, above +0.6 *very
  lucky*, below -0.3 *unlucky*, below -0.6 *very unlucky*. GNU Backgammon compares strictly
  (a loss of exactly 0.04 is not yet doubtful); so do we.
- **The General and Defiance** judge a move by the *winning chance* it gives up (the expected
  score of the side to move, a draw counting one half, in [0, 1]), with lichess's bands
  (``winningChanceJudgements`` in lila's ``Advice.scala``: 0.1, 0.2 and 0.3 on lichess's
  [-1, 1] scale, that is 5, 10 and 15 points of winning chance): a loss of at least 0.05 is an
  *inaccuracy* (``?!``), at least 0.10 a *mistake* (``?``), at least 0.15 a *blunder* (``??``).
  Where the best move's win is proven (by the search, or by a game's solution: the General's),
  the proof judges instead of the chance: a move that keeps the win is no error, however its
  evaluation looks; one that gives the win away is a blunder; one that keeps it but
  ``SLOWER_PLIES`` plies or more later than the fastest (both distances known) an inaccuracy.
"""

from __future__ import annotations

EQUITY = "equity"
WIN = "win"

# backgammon, by equity lost (strictly above the threshold), worst first
DOUBTFUL, BAD, VERY_BAD = "doubtful", "bad", "very-bad"
EQUITY_BANDS: tuple[tuple[float, str], ...] = ((0.16, VERY_BAD), (0.08, BAD), (0.04, DOUBTFUL))

# the General and Defiance, by winning chance lost (at least the threshold), worst first
INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
WIN_BANDS: tuple[tuple[float, str], ...] = ((0.15, BLUNDER), (0.10, MISTAKE), (0.05, INACCURACY))

SYMBOLS = {
    DOUBTFUL: "?!",
    BAD: "?",
    VERY_BAD: "??",
    INACCURACY: "?!",
    MISTAKE: "?",
    BLUNDER: "??",
}
"""The annotation symbol of each label."""

SLOWER_PLIES = 8
"""A proven win kept this many plies later than the fastest (four moves of the winner) is an
inaccuracy."""

LABELS = {EQUITY: (DOUBTFUL, BAD, VERY_BAD), WIN: (INACCURACY, MISTAKE, BLUNDER)}
"""The labels of each measure, mildest first."""

# the luck of a roll (equity against the average roll), strictly beyond the threshold
VERY_LUCKY, LUCKY, UNLUCKY, VERY_UNLUCKY = "very-lucky", "lucky", "unlucky", "very-unlucky"
LUCK_LABELS = (VERY_LUCKY, LUCKY, UNLUCKY, VERY_UNLUCKY)
LUCK_BANDS = 0.3, 0.6

# a small tolerance, so that rounding in a batch of evaluations never labels the best move
_EPSILON = 1e-9


def label(loss: float, measure: str) -> str | None:
    """The label of a move that gives up ``loss`` (equity or winning chance), or ``None``.

    >>> label(0.05, "equity"), label(0.04, "equity"), label(0.12, "win")
    ('doubtful', None, 'mistake')
    """
    if measure == EQUITY:
        for threshold, name in EQUITY_BANDS:
            if loss > threshold + _EPSILON:
                return name
        return None
    for threshold, name in WIN_BANDS:
        if loss >= threshold - _EPSILON:
            return name
    return None


def symbol(name: str | None) -> str:
    """``?!``, ``?`` or ``??`` for a label; empty for none."""
    return SYMBOLS.get(name, "") if name else ""


def luck_label(luck: float) -> str | None:
    """The label of a roll whose luck is ``luck`` (equity against the average roll)."""
    lucky, very = LUCK_BANDS
    if luck > very:
        return VERY_LUCKY
    if luck > lucky:
        return LUCKY
    if luck < -very:
        return VERY_UNLUCKY
    if luck < -lucky:
        return UNLUCKY
    return None


__all__ = [
    "BAD",
    "BLUNDER",
    "DOUBTFUL",
    "EQUITY",
    "EQUITY_BANDS",
    "INACCURACY",
    "LABELS",
    "LUCK_BANDS",
    "LUCK_LABELS",
    "MISTAKE",
    "SLOWER_PLIES",
    "SYMBOLS",
    "VERY_BAD",
    "WIN",
    "WIN_BANDS",
    "label",
    "luck_label",
    "symbol",
]
