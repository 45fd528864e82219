"""Play a game in a terminal: draw the board, read moves in notation, let the computer answer.

The loop is the same for every game; each game brings a ``render(state)`` and ``status(state)``.
Commands at the prompt: a move in notation, ``?`` (legal moves), ``undo``, ``save FILE``,
``help`` and ``quit``. Nothing typed there can end in a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, TextIO

from ..ai import Agent
from ..core import CHANCE, IllegalMove
from ..record import Record

HUMAN = "human"

HELP = """\
Type a move in notation, or:
  ?          list the legal moves
  undo       take back your last move (and the computer's answer)
  save FILE  write the game record (JSON) to FILE
  help       this text
  quit       leave the game"""


@dataclass(frozen=True)
class TextBoard:
    """How one game draws itself in a terminal (``chance_text`` only for dice games)."""

    render: Callable[[Any], str]
    status: Callable[[Any], str]
    chance_text: Callable[[Any, Any, str], str] | None = None
    moves_text: Callable[[Any], str] | None = None


def text_board(game_name: str) -> TextBoard:
    """The terminal drawing functions of a game."""
    module = import_module(f"ludotheque.terminal.{game_name}")
    return TextBoard(
        module.render,
        module.status,
        getattr(module, "chance_text", None),
        getattr(module, "moves_text", None),
    )


class TerminalGame:
    """One game between humans at the keyboard and/or computer agents."""

    def __init__(
        self,
        record: Record,
        players: dict[str, Agent | None],
        *,
        out: TextIO = sys.stdout,
        read: Callable[[str], str] = input,
    ) -> None:
        self.record = record
        self.players = players  # side -> agent, or None for a human
        self.board = text_board(record.game)
        self.out = out
        self.read = read

    # -- output ----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        state = self.record.state
        self.say()
        self.say(self.board.render(state))
        self.say(self.board.status(state))

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends (computer-only games) or the player quits. Returns 0."""
        self.say("Type 'help' for the commands.")
        self.show()
        announced = False
        while True:
            over = self.record.outcome()
            if over is not None:
                if not announced:
                    self.say(self.result_text())
                    announced = True
                if not any(agent is None for agent in self.players.values()):
                    return 0
                if not self.prompt("game over> ", finished=True):
                    return 0
                continue
            announced = False
            state = self.record.state
            if state.to_move == CHANCE:
                after = self.record.roll()
                outcome = self.record.chance[-1]
                describe = self.board.chance_text
                self.say(describe(state, after, outcome) if describe else f"Roll: {outcome}")
                if after.to_move != CHANCE and self.players.get(str(after.to_move)) is None:
                    self.show()
                continue
            side = state.to_move
            assert side is not None
            agent = self.players.get(side)
            if agent is not None:
                move = agent.choose(state)
                self.record.play(move)
                self.say(f"{side} plays {move}")
                self.show()
                continue
            if not self.prompt(f"{side}> ", finished=False):
                return 0

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
        try:
            self.record.play(text)
        except IllegalMove as exc:
            self.say(f"Illegal: {exc}")
            return
        self.show()

    def list_moves(self) -> None:
        if self.board.moves_text is not None:
            self.say(self.board.moves_text(self.record.state))
            return
        moves = self.record.state.legal_moves()
        if not moves:
            self.say("No legal moves.")
            return
        self.say(f"{len(moves)} legal moves:")
        self.say("  ".join(str(m) for m in moves))

    def undo(self) -> None:
        """Take back the last human move and whatever the computer played after it."""
        humans = {side for side, agent in self.players.items() if agent is None}
        record = self.record
        states = record.states
        mine = [
            i
            for i, (kind, _) in enumerate(record.plies)
            if kind == "move" and states[i].to_move in humans
        ]
        if not mine:
            self.say("Nothing to undo.")
            return
        while len(record.states) > mine[-1] + 1:
            record.undo()
        self.say(f"Undone: back to move {len(record.moves) + 1}.")
        self.show()

    def save(self, path: str) -> None:
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
        over = self.record.outcome()
        assert over is not None
        if over.winner is None:
            return f"Game over: a draw ({over.reason})."
        return f"Game over: {over.winner} won ({over.reason})."
