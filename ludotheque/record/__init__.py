"""Game records: the moves of one game from its start, with the dice, players, dates and result.

A record is the history a state does not hold. It replays and re-validates every move when it
is loaded (a tampered record is rejected with the ply and the reason), it owns the game's dice
(a seeded generator, so a game replays exactly from its record), and it decides the draws that
depend on history: threefold repetition and the turn limit.

Games played for points (backgammon's ``money`` and ``match``) keep their stakes in the
position: cube actions are moves like the others, the match score is in the start position,
and the result gains ``points`` (what the winner scored; checked on loading). ``next_game()``
starts the record of a match's next game.

The package's modules, each usable alone: ``history`` (``Record``: the game so far, playing,
replay and verification), ``dice`` (the seed, its commitment and the rolls drawn from it),
``endings`` (the draws by repetition and turn limit; resignation, abandonment), ``format``
(the JSON form and its version), ``match`` (the points a game scored, the next game's start).

>>> rec = Record.new("general")
>>> rec.play("a2-b2").to_move
'general'
>>> Record.from_json(rec.to_json()).moves
['a2-b2']
"""

from __future__ import annotations

from .dice import draw_chance, seed_digest
from .endings import ABANDONED, ABORTED, AGREEMENT, REPETITION, RESIGNATION, TURN_LIMIT
from .format import FORMAT, VERSION, InvalidRecord
from .history import Record

__all__ = [
    "ABANDONED",
    "ABORTED",
    "AGREEMENT",
    "FORMAT",
    "REPETITION",
    "RESIGNATION",
    "TURN_LIMIT",
    "VERSION",
    "InvalidRecord",
    "Record",
    "draw_chance",
    "seed_digest",
]
