"""Proven results ("the rebels win in 9"), and the hook for endgame tables.

A search proves a result when every line it looked at ends with the game (a win, or a draw by
repetition): alpha-beta scores such lines by their distance, as chess engines score mates. An
endgame table knows more: an *oracle* is a function that takes a state and returns its verdict
with best play and the distance in plies, or ``None`` when it does not know the position. The
searches consult it wherever they meet a position. The General has one by default, its solution
(``ludotheque.solve``: the tables installed and the rebels' strategy), loaded on first need, so
that every caller (Python, ``ludotheque analyse``, the server) gets the same proven results; a
caller may put another in its place, or none:

    from ludotheque.analysis import register_oracle, reset_oracle
    register_oracle("general", lambda state: table.verdict(state))  # (winner or None, plies)
    register_oracle("general", None)  # the search alone
    reset_oracle("general")  # the default again
"""

from __future__ import annotations

import threading
import warnings
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

_ORACLES: dict[str, Oracle | None] = {}
"""The oracles callers registered, by game (``None``: none wanted, not even the default)."""


class _Solution:
    """The General's solution as an oracle (``ludotheque.solve.tables.oracle``) that never fails
    an analysis: where no table is installed the solution does not know (``None``), and if the
    tables cannot be read (a damaged file), a warning says so once and the analyses of this
    process go on with the search alone (rather than read the file again at every node)."""

    def __init__(self, ask: Callable[[Any], Verdict | None]) -> None:
        self._ask: Callable[[Any], Verdict | None] | None = ask

    def __call__(self, state: State) -> Verdict | None:
        ask = self._ask
        if ask is None:
            return None
        try:
            return ask(state)
        except Exception as exc:  # the tables are an aid: an analysis goes on without them
            self._ask = None
            warnings.warn(
                f"the General's solution tables cannot be read ({exc}); the analysis goes on "
                "with the search alone",
                RuntimeWarning,
                stacklevel=2,
            )
            return None


def _general_solution() -> Oracle | None:
    """The General's default oracle, or ``None`` if the solution's module cannot be loaded."""
    try:
        from ..solve.tables import oracle
    except ImportError:  # pragma: no cover - numpy is a dependency: a broken install
        return None
    return _Solution(oracle)


_DEFAULTS: dict[str, Callable[[], Oracle | None]] = {"general": _general_solution}
"""The oracle a game's analysis asks when no caller registered one, made on first need (the
solution's module is imported only then: importing the analysis stays cheap)."""
_LOADED: dict[str, Oracle | None] = {}
_LOCK = threading.Lock()


def register_oracle(game: str, oracle: Oracle | None) -> None:
    """Let the analysis of ``game`` (a registry name: ``"general"``) ask ``oracle`` about the
    positions it meets, in place of the game's default (the General's solution); ``None``: no
    oracle at all, the search alone (``reset_oracle`` gives the default back). The oracle
    returns ``(winner, plies)`` or ``None`` for a position it does not know, and must be fast
    (it is called at every node). An ``Analyst`` keeps the oracle in place when it was made."""
    _ORACLES[game] = oracle


def reset_oracle(game: str) -> None:
    """Forget what was registered for ``game``: its analysis asks the default oracle again."""
    _ORACLES.pop(game, None)


def default_oracle(game: str) -> Oracle | None:
    """The oracle ``game``'s analysis asks when none is registered (the General: its solution),
    made on first call; ``None`` for a game without one."""
    make = _DEFAULTS.get(game)
    if make is None:
        return None
    with _LOCK:
        if game not in _LOADED:
            _LOADED[game] = make()
        return _LOADED[game]


def oracle_for(game: str) -> Oracle | None:
    """The oracle the analysis of ``game`` asks: the one registered, else the default."""
    if game in _ORACLES:
        return _ORACLES[game]
    return default_oracle(game)


__all__ = [
    "Oracle",
    "Proof",
    "Verdict",
    "default_oracle",
    "make_proof",
    "oracle_for",
    "register_oracle",
    "reset_oracle",
]
