"""Analysis: the engines explain a game, move by move.

>>> from ludotheque.record import Record
>>> rec = Record.new("general")
>>> _ = rec.play("a2-b2")
>>> result = analyse(rec, "quick")
>>> d = result.decisions[0]
>>> d.played.move, 0 <= d.played.win <= 1, d.best[0].win >= d.played.win
('a2-b2', True, True)

``analyse(record, strength)`` judges every decision of a record (the value of the move played,
the best moves and their values, the loss and a label) and, in backgammon, the luck of every
roll; ``best_moves(state, n)`` gives the best moves of one position (hints, an analysis board).
The result serialises with ``to_dict`` / ``from_dict``. The labels and their bands are in
``labels``, the settings in ``strength``, proven results and the endgame-table hook in ``proof``
(the General's solution is asked by default); backgammon played for points (cube decisions,
normalised equity) in ``stakes``.
"""

from .labels import label, luck_label
from .model import (
    Analysis,
    Decision,
    InvalidAnalysis,
    MoveValue,
    Point,
    RollLuck,
    SideSummary,
)
from .proof import Proof, register_oracle, reset_oracle
from .review import Analyst, Progress, analyse, best_moves
from .strength import DEFAULT, NAMES, Strength, strengths

__all__ = [
    "DEFAULT",
    "NAMES",
    "Analysis",
    "Analyst",
    "Decision",
    "InvalidAnalysis",
    "MoveValue",
    "Point",
    "Progress",
    "Proof",
    "RollLuck",
    "SideSummary",
    "Strength",
    "analyse",
    "best_moves",
    "label",
    "luck_label",
    "register_oracle",
    "reset_oracle",
    "strengths",
]
