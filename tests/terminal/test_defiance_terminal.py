"""Defiance and Domain in the terminal, through a pseudo-terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect

from ludotheque.record import Record


def spawn(*args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ludotheque", "play", "defiance", *args],
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 140),
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
    )


def test_both_lattices_turns_errors_undo_save(tmp_path: Path) -> None:
    child = spawn("--rebels", "human", "--imperium", "human")
    child.expect(r"\(points x\)")
    child.expect("10    │")
    child.expect(r"\(cells\)")
    child.expect("the Rebels to move · pools: Rebels 40, Imperium 40")
    child.expect("rebels> ")
    child.sendline("?")
    child.expect("7200 legal turns")
    child.expect("Command moves: P2.2-P1.1")
    child.expect("rebels> ")
    child.sendline("e5>N;P2.2-P3.3")
    child.expect("r↑")
    child.expect("imperium> ")
    child.sendline("e6>S")  # e6 faces e5: no capture alone
    child.expect("rebels> ")
    child.sendline("e5@N")
    child.expect("Illegal: the counter on e5 already faces N")
    child.expect("rebels> ")
    child.sendline("k1>N")
    child.expect("Illegal: k1 is not a cell")
    child.sendline("e5>N;P9.9-P9.8")
    child.expect("Illegal: e5 is occupied")
    child.sendline("a1>NE;P3.3-P5.5")
    child.expect("Illegal: P3.3-P5.5 is not a legal Command move")
    child.sendline("undo")
    child.expect("Undone: back to move 2")
    child.expect("imperium> ")
    path = tmp_path / "dd.json"
    child.sendline(f"save {path}")
    child.expect("Saved")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert Record.from_json(path.read_text(encoding="utf-8")).moves == ["e5>N;P2.2-P3.3"]


def test_8x8_against_the_computer() -> None:
    child = spawn("--ruleset", "8x8", "--rebels", "human", "--imperium", "random", "--seed", "2")
    child.expect(r"R2.2,I6.6|Ï")
    child.expect("rebels> ")
    child.sendline("d4>NE")
    child.expect("the Imperium plays")
    child.expect("rebels> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_turn_limit_draw_names_no_side_to_move() -> None:
    """The record ends the game at the turn limit while the position still names a side to
    move: the last status line said "the Rebels to move" above "Game over" (a review)."""
    child = spawn("--ruleset", "8x8", "--rebels", "random", "--imperium", "random", "--seed", "3")
    child.expect(pexpect.EOF, timeout=120)
    output = str(child.before).replace("\r", "")
    assert "Game over: a draw (turn-limit)." in output
    last_status = [line for line in output.splitlines() if "· pools:" in line][-1]
    assert last_status.startswith("game over ·"), last_status
