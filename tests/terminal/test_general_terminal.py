"""The terminal game, driven through a real pseudo-terminal (pexpect)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
import pytest

from ludotheque.record import Record

TIMEOUT = 20


def spawn(*args: str) -> pexpect.spawn[str]:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ludotheque", "play", *args],
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 120),
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
    )
    return child


def test_board_moves_help_errors_undo_save_quit(tmp_path: Path) -> None:
    child = spawn("general", "--rebels", "human", "--general", "human")
    child.expect("s1 s2 s3: the sanctuary")
    child.expect(r"a   b   c   d   e")
    child.expect("16 rebels on the board, 0 captured")
    child.expect("rebels> ")
    child.sendline("?")
    child.expect("24 legal moves:")
    child.expect("rebels> ")
    child.sendline("a1-a3")  # illegal: the engine's reason, a new prompt
    child.expect("Illegal: a1 and a3 are not next to each other")
    child.expect("rebels> ")
    child.sendline("nonsense")
    child.expect("Illegal: cannot read 'nonsense'")
    child.expect("rebels> ")
    child.sendline("a2-b2")
    child.expect("general> ")
    child.sendline("c3-b4")  # the implied capture
    child.expect("14 rebels on the board, 2 captured")
    child.expect("rebels> ")
    child.sendline("undo")
    child.expect("Undone: back to move 2")
    child.expect("16 rebels on the board")
    child.expect("general> ")
    child.sendline("c3-d4xc5e3")
    child.expect("rebels> ")
    target = tmp_path / "game.json"
    child.sendline(f"save {target}")
    child.expect("Saved the record")
    child.expect("rebels> ")
    child.sendline("save /nonexistent-dir/x.json")
    child.expect("Could not save")
    child.expect("rebels> ")
    child.sendline("help")
    child.expect("list the legal moves")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = Record.from_json(target.read_text())
    assert record.moves == ["a2-b2", "c3-d4xc5e3"]
    assert json.loads(target.read_text())["game"] == "general"


def test_against_the_random_computer_and_eof() -> None:
    child = spawn("general", "--rebels", "human", "--general", "random", "--seed", "7")
    child.expect("rebels> ")
    child.sendline("a2-b2")
    child.expect("the general plays c3-")
    child.expect("rebels> ")
    child.sendline("undo")  # takes back the computer's answer and my move
    child.expect("Undone: back to move 1")
    child.expect("rebels> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_computer_against_computer_plays_to_the_end() -> None:
    child = spawn("general", "--rebels", "random", "--general", "random", "--seed", "1")
    child.expect(
        r"Game over: (the rebels won|the general won|a draw).*"
        r"\((twelve-captured|shut-in|immobilised|repetition)\)"
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_against_a_level() -> None:
    child = spawn("general", "--rebels", "human", "--general", "hard", "--seed", "1")
    child.expect("rebels> ")
    child.sendline("a2-b2")
    child.expect("the general plays c3-", timeout=10)
    child.expect("rebels> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_game_over_prompt_and_start_position() -> None:
    child = spawn(
        "general",
        "--rebels",
        "human",
        "--general",
        "human",
        "--position",
        "c2 a1,c3,e1,e2,a4,a5 g 1",
    )
    child.expect("general> ")
    child.sendline("c2-b2xa1c3")
    child.expect(r"Game over: the general won \(twelve-captured\)")
    child.expect("game over> ")
    child.sendline("a4-a3")
    child.expect("The game is over")
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["general", "--position", "zz"], "invalid position"),
        (["general", "--white", "human"], "has no side white"),
        (["general", "--ruleset", "fast"], "unknown ruleset"),
    ],
)
def test_bad_command_lines(args: list[str], message: str) -> None:
    child = spawn(*args)
    child.expect(message)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
