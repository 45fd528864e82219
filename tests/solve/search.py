"""An exhaustive search of the engine (its own moves and outcomes only): the exact distance to
the end within a bound, to compare with the solver's tables."""

from __future__ import annotations

from ludotheque.games.general.rules import GeneralState


class BoundedSearch:
    """``distance(state, bound)``: +d if the side to move can force a win in d plies (d the
    fewest), -d if the other side can force one in d plies whatever he does (d the most he can
    hold out), ``None`` if neither happens within ``bound`` plies."""

    def __init__(self) -> None:
        self.wins: dict[tuple[GeneralState, int], bool] = {}
        self.losses: dict[tuple[GeneralState, int], bool] = {}

    def lose_within(self, state: GeneralState, n: int) -> bool:
        """Whatever the side to move does, the game ends with his loss within ``n`` plies."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner != state.side
        if n <= 0:
            return False
        key = (state, n)
        if key not in self.losses:
            self.losses[key] = all(
                self.win_within(state.play(m), n - 1) for m in state.legal_moves()
            )
        return self.losses[key]

    def win_within(self, state: GeneralState, n: int) -> bool:
        """The side to move can force his win within ``n`` plies."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner == state.side
        if n <= 0:
            return False
        key = (state, n)
        if key not in self.wins:
            self.wins[key] = any(
                self.lose_within(state.play(m), n - 1) for m in state.legal_moves()
            )
        return self.wins[key]

    def distance(self, state: GeneralState, bound: int) -> int | None:
        for n in range(bound + 1):
            if self.win_within(state, n):
                return n
            if self.lose_within(state, n):
                return -n
        return None
