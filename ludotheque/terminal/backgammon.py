"""Text drawing of a backgammon board, from white's side: white ``O`` moves from 24 (top right)
round to 1 (bottom right); black ``X`` the other way."""

from __future__ import annotations

from ..games.backgammon import BackgammonState
from .style import CYAN, RED, Side, paint

WHITE, BLACK = "O", "X"
ROWS = 5  # checkers drawn per point; a taller stack shows its count in the last row
SIDES = {"white": Side("White", style=CYAN), "black": Side("Black", style=RED)}
_STYLE = {WHITE: CYAN, BLACK: RED}


def _cell(stack: int, mark: str, row: int, colour: bool = False) -> str:
    if stack > ROWS and row == ROWS - 1:
        text = f"{stack:>2}"[-2:]
    elif stack > row:
        text = f" {mark}"
    else:
        return "  "
    return text[0] + paint(text[1:], _STYLE.get(mark, ""), colour)


def _stack(state: BackgammonState, point: int) -> tuple[int, str]:
    """(count, mark) on white's point ``point``."""
    white = state.board("white")[point]
    if white:
        return white, WHITE
    black = state.board("black")[25 - point]
    return black, BLACK if black else " "


def _half(
    state: BackgammonState, points: list[int], bar: tuple[int, str], top: bool, colour: bool
) -> list[str]:
    lines = []
    order = range(ROWS) if top else range(ROWS - 1, -1, -1)
    for row in order:
        left = "".join(_cell(*_stack(state, p), row, colour) + " " for p in points[:6])
        right = "".join(_cell(*_stack(state, p), row, colour) + " " for p in points[6:])
        middle = _cell(bar[0], bar[1], row, colour) + " "
        lines.append(f"|{left}|{middle} |{right}|")
    return lines


def render(state: BackgammonState, *, colour: bool = False) -> str:
    """The board, the bar in the middle, borne-off counts on the right (checkers in colour when
    ``colour``)."""
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
    lines += _half(state, top, (black[25], BLACK), top=True, colour=colour)
    lines.append("|" + " " * 18 + "|    |" + " " * 18 + "|")
    lines += _half(state, bottom, (white[25], WHITE), top=False, colour=colour)
    lines += [rule, foot]
    lines[2] += f"   {paint(BLACK, RED, colour)} Black: {black[0]} off"
    lines[-3] += f"   {paint(WHITE, CYAN, colour)} White: {white[0]} off"
    return "\n".join(lines)


def _name(side: str | None) -> str:
    return SIDES[side].name if side in SIDES else str(side)


def status(state: BackgammonState, over: bool = False) -> str:
    """Whose turn (none once the game is ``over``, by its record or its position), the dice,
    both pip counts."""
    pips = state.pip_counts()
    if over or state.outcome() is not None:
        turn = "game over"
    elif state.side is None:
        turn = "opening roll"
    elif state.dice is None:
        turn = f"{_name(state.side)} to roll"
    else:
        turn = f"{_name(state.side)} to play {state.dice}"
    return f"{turn} · pips: White {pips['white']}, Black {pips['black']}"


def chance_text(before: BackgammonState, after: BackgammonState, outcome: str) -> str:
    """A line announcing a roll, and the pass that follows when no checker can move."""
    if before.side is None:
        w, b = outcome[1], outcome[3]
        starts = SIDES[str(after.side)].does("start")
        return f"Opening roll: White {w}, Black {b}: {starts} with {after.dice}"
    roller = SIDES[str(before.side)]
    moves = after.legal_moves()
    if len(moves) == 1 and moves[0].is_pass:
        return f"{roller.does('roll')} {outcome} and cannot move: a forced pass"
    return f"{roller.does('roll')} {outcome}"
