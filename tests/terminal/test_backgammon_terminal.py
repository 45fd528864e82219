"""Backgammon in the terminal, through a pseudo-terminal: dice, pip counts, plays, errors."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

from ludotheque.record import Record
from tests.terminal.reading import group


def spawn(*args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ludotheque", "play", "backgammon", *args],
        encoding="utf-8",
        timeout=20,
        dimensions=(60, 120),
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
    )


def test_human_against_random_with_seeded_dice(tmp_path: Path) -> None:
    child = spawn("--ruleset", "standard", "--seed", "3", "--white", "human", "--black", "random")
    child.expect(r"Opening roll: White (\d), Black (\d): (White|Black) starts with (\d\d)")
    child.expect(r"White to play (\d\d) · pips: White (\d+), Black (\d+)")
    dice = group(child, 1)
    child.expect("white> ")
    child.sendline("?")
    child.expect(r"(\d+) legal moves:")
    child.expect("white> ")
    child.sendline("13/x")
    child.expect("Illegal: cannot read 'x'")
    child.expect("white> ")
    child.sendline("pass")
    child.expect("Illegal: you cannot pass")
    child.expect("white> ")
    child.sendline("?")
    child.expect(r"legal moves:\r?\n(.*)\r?\n")
    first = re.split(r"  ", group(child, 1).strip())[0]
    child.sendline(first)
    child.expect("Black rolls")
    child.expect("Black plays")
    child.expect("White rolls")
    child.expect("white> ")
    path = f"{tmp_path}/bg.json"
    child.sendline(f"save {path}")
    child.expect("Saved")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    record = Record.from_json(Path(path).read_text(encoding="utf-8"))
    assert record.moves[0] == first or record.moves[1] == first
    assert record.ruleset == "standard"
    assert dice


def test_two_computers_play_a_whole_game() -> None:
    child = spawn("--white", "random", "--black", "random", "--seed", "11")
    child.expect(r"Game over: (White|Black) won \(borne-off\)", timeout=60)
    child.expect(pexpect.EOF)


def test_start_from_a_position() -> None:
    child = spawn("--white", "human", "--black", "human", "--position", "W[6,3] B[24x2] w 55")
    child.expect("White to play 55")
    child.expect("white> ")
    child.sendline("6/1 3/off")
    child.expect("only play is 'pass'")
    child.sendline("pass")
    child.expect("Black rolls")
    child.sendline("quit")
    child.expect(pexpect.EOF)
