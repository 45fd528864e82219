"""Proven results ("the rebels win in 9"), and the hook for endgame tables.

A search proves a result when every line it looked at ends with the game (a win, or a draw by
repetition): alpha-beta scores such lines by their distance, as chess engines score mates. An
endgame table knows more: a game may register an *oracle*, a function that takes a state and
returns its verdict with best play and the distance in plies, or ``None`` when it does not know
the position. The searches consult it wherever they meet a position:

    from ludotheque.analysis import register_oracle
    register_oracle("general", lambda state: table.verdict(state))  # (winner or None, plies)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import State

_THE = {"rebels", "general", "imperium"}  # sides named with an article


@dataclass(frozen=True)
class Proof:
    """``winner`` (a side, or ``None`` for a draw) reaches the end of the game in ``plies``
    plies with best play from both sides, counted from the position before the move judged;
    ``moves`` counts the winner's own moves among them ("win in 9"). A draw has no distance,
    nor a win proven without it (``plies`` and ``moves`` ``None``: "the rebels win")."""

    winner: str | None
    plies: int | None
    moves: int | None

    def text(self) -> str:
        """English words: ``the rebels win in 9``, ``the rebels win``, ``a draw``."""
        if self.winner is None:
            return "a draw"
        name = f"the {self.winner}" if self.winner in _THE else self.winner
        verb = "win" if self.winner.endswith("s") else "wins"
        if self.moves is None:
            return f"{name} {verb}"
        return f"{name} {verb} in {self.moves}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "plies": self.plies,
            "moves": self.moves,
            "text": self.text(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Proof:
        return cls(data["winner"], data["plies"], data["moves"])


def make_proof(winner: str | None, plies: int | None, to_move: str) -> Proof:
    """A proof counted from a position where ``to_move`` moves first (sides alternate);
    ``plies`` ``None``: the result without its distance."""
    if winner is None or plies is None:
        return Proof(winner, None, None)
    moves = (plies + 1) // 2 if winner == to_move else plies // 2
    return Proof(winner, plies, max(moves, 1))


Verdict = tuple[str | None, int | None]
"""An oracle's answer: the winner with best play (``None``: a draw) and the distance in plies
from the position given (``None`` for a draw that has no end, and for a win whose distance the
oracle does not know)."""

Oracle = Callable[[State], Verdict | None]

_ORACLES: dict[str, Oracle] = {}


def register_oracle(game: str, oracle: Oracle | None) -> None:
    """Let the analysis of ``game`` (a registry name: ``"general"``) ask ``oracle`` about the
    positions it meets; ``None`` removes it. The oracle returns ``(winner, plies)`` or
    ``None`` for a position it does not know, and must be fast (it is called at every node)."""
    if oracle is None:
        _ORACLES.pop(game, None)
    else:
        _ORACLES[game] = oracle


def oracle_for(game: str) -> Oracle | None:
    """The oracle registered for ``game``, if any."""
    return _ORACLES.get(game)


__all__ = ["Oracle", "Proof", "Verdict", "make_proof", "oracle_for", "register_oracle"]
