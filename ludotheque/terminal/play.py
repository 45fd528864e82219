"""Play a game in a terminal: draw the board, read moves in notation, let the computer answer.

The loop is the same for every game; each game brings a ``render(state)`` and a
``status(state, over)``.
Commands at the prompt: a move in notation, ``?`` (legal moves), ``undo``, ``save FILE``,
``help`` and ``quit``. Nothing typed there can end in a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol, TextIO

from ..ai import Agent
from ..ai.agent import tell as follow_game
from ..core import CHANCE, IllegalMove, State
from ..record import Record
from .style import Side, columns, paint, side, terminal_width, wants_colour

HUMAN = "human"

HELP = """\
Type a move in notation, or:
  ?          list the legal moves
  undo       take back your last move (and the computer's answer)
  save FILE  write the game record (JSON) to FILE
  help       this text
  quit       leave the game"""


class Render(Protocol):
    """A game's board drawing: ``render(state, colour=...)``."""

    def __call__(self, state: Any, *, colour: bool = ...) -> str: ...


class MovesText(Protocol):
    """A game's own listing of the legal moves, fitted to ``width`` characters."""

    def __call__(self, state: Any, width: int = ...) -> str: ...


@dataclass(frozen=True)
class TextBoard:
    """How one game draws itself in a terminal (``chance_text`` only for dice games)."""

    render: Render
    status: Callable[[Any, bool], str]
    chance_text: Callable[[Any, Any, str], str] | None = None
    moves_text: MovesText | None = None
    sides: Mapping[str, Side] = field(default_factory=dict)


def text_board(game_name: str) -> TextBoard:
    """The terminal drawing functions of a game."""
    module = import_module(f"ludotheque.terminal.{game_name}")
    return TextBoard(
        module.render,
        module.status,
        getattr(module, "chance_text", None),
        getattr(module, "moves_text", None),
        getattr(module, "SIDES", {}),
    )


def forced_pass(state: State) -> Any | None:
    """The pass, when it is the only legal move of a side to move; else ``None``."""
    if state.to_move in (None, CHANCE):
        return None
    moves = state.legal_moves()
    if len(moves) == 1 and str(moves[0]) == "pass":
        return moves[0]
    return None


class TerminalGame:
    """One game between humans at the keyboard and/or computer agents.

    The board is drawn once per decision: before a human is asked for a move, before each move
    of a game between computers, and once at the end. Rolls, forced passes and the computer's
    moves are one line each. Colour only when ``out`` is a terminal and ``NO_COLOR`` is unset.
    """

    def __init__(
        self,
        record: Record,
        players: dict[str, Agent | None],
        *,
        out: TextIO = sys.stdout,
        read: Callable[[str], str] = input,
        colour: bool | None = None,
        width: int | None = None,
    ) -> None:
        self.record = record
        self.players = players  # side -> agent, or None for a human
        for agent in players.values():
            if agent is not None:
                follow_game(agent, record)  # its repetitions and turn limit, undos included
        self.board = text_board(record.game)
        self.out = out
        self.read = read
        self.colour = wants_colour(out) if colour is None else colour
        self.width = width  # None: the terminal's width at the time of listing
        self.stale = True  # the board on the screen (if any) is not the current position

    # -- output ----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write one line (or several)."""
        print(text, file=self.out, flush=True)

    def side(self, key: str) -> Side:
        """How the side ``key`` is named in sentences."""
        return side(self.board.sides, key)

    def tell(self, key: str, text: str) -> None:
        """Write a line about side ``key``, in its colour."""
        self.say(paint(text, self.side(key).style, self.colour))

    def show(self) -> None:
        """Draw the board and the status line."""
        state = self.record.state
        self.say()
        self.say(self.board.render(state, colour=self.colour))
        self.say(self.board.status(state, self.record.outcome() is not None))
        self.stale = False

    def refresh(self) -> None:
        """Draw the board if the position changed since it was last drawn."""
        if self.stale:
            self.show()

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends (computer-only games) or the player quits. Returns 0."""
        self.say("Type 'help' for the commands.")
        humans = any(agent is None for agent in self.players.values())
        announced = False
        while True:
            over = self.record.outcome()
            if over is not None:
                if not announced:
                    self.refresh()
                    self.say(self.result_text())
                    announced = True
                if not humans:
                    return 0
                if not self.prompt("game over> ", finished=True):
                    return 0
                continue
            announced = False
            state = self.record.state
            if state.to_move == CHANCE:
                self.roll()
                continue
            side = state.to_move
            assert side is not None
            agent = self.players.get(side)
            if agent is not None:
                if not humans:
                    self.refresh()
                move = agent.choose(state)
                self.record.play(move)
                self.stale = True
                self.tell(side, f"{self.side(side).does('play')} {move}")
                continue
            self.refresh()
            if not self.prompt(f"{side}> ", finished=False):
                return 0

    def roll(self) -> None:
        """Roll the dice: one line, and a forced pass played at once on the same line."""
        before = self.record.state
        after = self.record.roll()
        outcome = self.record.chance[-1]
        self.stale = True
        passing = forced_pass(after)
        describe = self.board.chance_text
        if describe is not None:
            line = describe(before, after, outcome)
        else:
            line = f"Roll: {outcome}" + ("; no legal move: a forced pass" if passing else "")
        self.tell(str(after.to_move), line)
        if passing is not None:
            self.record.play(passing)

    def prompt(self, text: str, *, finished: bool) -> bool:
        """Read and carry out one line; False when the player leaves."""
        try:
            line = self.read(text)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return False
        line = line.strip()
        if not line:
            return True
        command, _, rest = line.partition(" ")
        command = command.lower()
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "h"):
            self.say(HELP)
        elif command == "?":
            self.list_moves()
        elif command == "undo":
            self.undo()
        elif command == "save":
            self.save(rest.strip())
        elif finished:
            self.say("The game is over: undo, save FILE or quit.")
        else:
            self.move(line)
        return True

    def move(self, text: str) -> None:
        """Play a human's move; the board is drawn before the next decision."""
        try:
            self.record.play(text)
        except IllegalMove as exc:
            self.say(f"Illegal: {exc}")
            return
        self.stale = True

    def list_moves(self) -> None:
        """The legal moves, in columns that fit the terminal."""
        width = self.width or terminal_width()
        if self.board.moves_text is not None:
            self.say(self.board.moves_text(self.record.state, width))
            return
        moves = self.record.state.legal_moves()
        if not moves:
            self.say("No legal moves.")
            return
        self.say(f"{len(moves)} legal moves:")
        self.say("\n".join(columns([str(m) for m in moves], width)))

    def undo(self) -> None:
        """Take back the last human move and whatever the computer played after it."""
        humans = {side for side, agent in self.players.items() if agent is None}
        record = self.record
        states = record.states
        mine = [  # a forced pass is no choice: undo goes past it
            i
            for i, (kind, text) in enumerate(record.plies)
            if kind == "move"
            and states[i].to_move in humans
            and not (text == "pass" and forced_pass(states[i]) is not None)
        ]
        if not mine:
            self.say("Nothing to undo.")
            return
        while len(record.states) > mine[-1] + 1:
            record.undo()
        self.say(f"Undone: back to move {len(record.moves) + 1}.")
        self.stale = True

    def save(self, path: str) -> None:
        """Write the game record to ``path``."""
        if not path:
            self.say("Say where: save FILE")
            return
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(self.record.to_json())
        except OSError as exc:
            self.say(f"Could not save to {path}: {exc.strerror or exc}")
            return
        self.say(f"Saved the record to {path}.")

    def result_text(self) -> str:
        """The line announcing the end (in the winner's colour)."""
        over = self.record.outcome()
        assert over is not None
        if over.winner is None:
            return f"Game over: a draw ({over.reason})."
        winner = self.side(over.winner)
        return paint(f"Game over: {winner.name} won ({over.reason}).", winner.style, self.colour)
