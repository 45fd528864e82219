"""The terminal's helpers in process: columns, the colour test, the Defiance summary, the loop."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

from ludotheque.games.defiance import DefianceState
from ludotheque.record import Record
from ludotheque.terminal.defiance import moves_text
from ludotheque.terminal.play import TerminalGame
from ludotheque.terminal.style import columns, wants_colour

ANSI = "\x1b["


def script(*lines: str) -> Callable[[str], str]:
    """A ``read`` function that types ``lines``, then ends the input."""
    queue: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None

    return read


def test_columns_read_down_then_across_within_the_width() -> None:
    items = [f"m{i}" for i in range(10)]
    lines = columns(items, 20)
    assert all(len(line) <= 20 for line in lines)
    assert lines[0].split()[:2] == ["m0", f"m{len(lines)}"]
    assert sorted(m for line in lines for m in line.split()) == sorted(items)
    assert columns(["a-long-move"], 5) == ["  a-long-move"]  # one column at the least


def test_defiance_summary_wraps_to_the_width() -> None:
    state = Record.new("defiance").state
    assert isinstance(state, DefianceState)
    text = moves_text(state, 50)
    assert "Command moves: P2.2-P1.1" in text
    assert all(len(line) <= 50 for line in text.splitlines())


def test_in_process_one_board_per_decision_and_wording() -> None:
    out = io.StringIO()
    record = Record.new("general")
    game = TerminalGame(
        record, {"rebels": None, "general": None}, out=out, read=script("?", "a2-b2", "c3-b4")
    )
    assert game.run() == 0
    text = out.getvalue()
    assert text.count("a   b   c   d   e") == 3  # before each of the three decisions
    assert ANSI not in text  # a StringIO is not a terminal


def test_wants_colour_follows_no_color_and_isatty() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wants_colour(Tty(), {})
    assert wants_colour(Tty(), {"NO_COLOR": ""})  # no-color.org: set *and* not empty
    assert not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert not wants_colour(Tty(), {"TERM": "dumb"})
    assert not wants_colour(io.StringIO(), {})


def test_forced_passes_are_one_line_and_undo_goes_past_them() -> None:
    """White is on the bar against a closed board that black keeps closed (black moves only its
    checkers from 13): every roll of white's passes at once."""
    record = Record.new(
        "backgammon", start="W[barx1,6x2] B[1x2,2x2,3x2,4x2,5x2,6x2,13x3] w -", seed="passes"
    )
    out = io.StringIO()
    answers = iter(["play", "play", "undo"])

    def read(prompt: str) -> str:
        assert prompt == "black> "  # white is never asked: it can never move
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        if answer == "undo":
            return answer
        plays = [str(m) for m in record.state.legal_moves()]
        return next(p for p in plays if all(int(step.split("/")[0]) > 6 for step in p.split()))

    game = TerminalGame(record, {"white": None, "black": None}, out=out, read=read)
    assert game.run() == 0
    text = out.getvalue()
    passes = [line for line in text.splitlines() if line.startswith("White rolls")]
    assert len(passes) == 3
    assert all(line.endswith("and cannot move: a forced pass") for line in passes)
    assert text.count("BAR") == 4  # before each of black's decisions (the last after undo)
    # undo took back black's second play (and nothing more): the passes around it are no choice
    assert record.moves[0] == record.moves[2] == "pass" and len(record.moves) == 3
    assert "Undone: back to move 4." in text
    assert record.state.to_move == "black"
