"""Text drawing of a backgammon board, from white's side: white ``O`` moves from 24 (top right)
round to 1 (bottom right); black ``X`` the other way."""

from __future__ import annotations

from ..games.backgammon import BackgammonState

WHITE, BLACK = "O", "X"
ROWS = 5  # checkers drawn per point; a taller stack shows its count in the last row


def _cell(stack: int, mark: str, row: int) -> str:
    if stack > ROWS and row == ROWS - 1:
        return f"{stack:>2}"[-2:]
    return f" {mark}" if stack > row else "  "


def _stack(state: BackgammonState, point: int) -> tuple[int, str]:
    """(count, mark) on white's point ``point``."""
    white = state.board("white")[point]
    if white:
        return white, WHITE
    black = state.board("black")[25 - point]
    return black, BLACK if black else " "


def _half(state: BackgammonState, points: list[int], bar: tuple[int, str], top: bool) -> list[str]:
    lines = []
    order = range(ROWS) if top else range(ROWS - 1, -1, -1)
    for row in order:
        left = "".join(_cell(*_stack(state, p), row) + " " for p in points[:6])
        right = "".join(_cell(*_stack(state, p), row) + " " for p in points[6:])
        middle = _cell(bar[0], bar[1], row) + " "
        lines.append(f"|{left}|{middle} |{right}|")
    return lines


def render(state: BackgammonState) -> str:
    """The board, the bar in the middle, borne-off counts on the right."""
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    white, black = state.board("white"), state.board("black")
    head = (
        " " + "".join(f"{p:>3}" for p in top[:6]) + "  BAR " + "".join(f"{p:>3}" for p in top[6:])
    )
    foot = (
        " "
        + "".join(f"{p:>3}" for p in bottom[:6])
        + "      "
        + "".join(f"{p:>3}" for p in bottom[6:])
    )
    rule = "+" + "-" * 18 + "+----+" + "-" * 18 + "+"
    lines = [head, rule]
    lines += _half(state, top, (black[25], BLACK), top=True)
    lines.append("|" + " " * 18 + "|    |" + " " * 18 + "|")
    lines += _half(state, bottom, (white[25], WHITE), top=False)
    lines += [rule, foot]
    lines[2] += f"   X black: {black[0]} off"
    lines[-3] += f"   O white: {white[0]} off"
    return "\n".join(lines)


def status(state: BackgammonState) -> str:
    """Whose turn, the dice, both pip counts."""
    pips = state.pip_counts()
    if state.outcome() is not None:
        turn = "game over"
    elif state.side is None:
        turn = "opening roll"
    elif state.dice is None:
        turn = f"{state.side} to roll"
    else:
        turn = f"{state.side} to play {state.dice}"
    return f"{turn} · pips: white {pips['white']}, black {pips['black']}"


def chance_text(before: BackgammonState, after: BackgammonState, outcome: str) -> str:
    """A line announcing a roll."""
    if before.side is None:
        w, b = outcome[1], outcome[3]
        return f"Opening roll: white {w}, black {b}: {after.side} starts with {after.dice}"
    return f"{before.side} rolls {outcome}"
