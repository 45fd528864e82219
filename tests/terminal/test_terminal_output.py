"""What the terminal game prints: one board per decision, sentences, columns and colour."""

from __future__ import annotations

import re
import subprocess
import sys

import pexpect
import pytest

from tests.terminal.reading import before, group

ENV = {"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"}
ANSI = "\x1b["
PLAY_GENERAL = ["play", "general", "--rebels", "human", "--general", "random", "--seed", "1"]


def spawn(*args: str, width: int = 120, env: dict[str, str] | None = None) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ludotheque", "play", *args],
        encoding="utf-8",
        timeout=30,
        dimensions=(60, width),
        env={**ENV, **(env or {})},
    )


def test_backgammon_draws_one_board_a_round() -> None:
    child = spawn("backgammon", "--seed", "3", "--white", "human", "--black", "random")
    child.expect("white> ")
    assert before(child).count("BAR") == 1  # the opening roll is a line, not a board
    for _ in range(3):  # three rounds, playing the first legal play each time
        child.sendline("?")
        child.expect(r"legal moves:\r?\n(.*)\r?\n")
        first = re.split(r"\s{2,}", group(child, 1).strip())[0]
        child.expect("white> ")
        child.sendline(first)
        child.expect("white> ")
        between = before(child)
        assert between.count("BAR") == 1, between
        assert re.search(r"Black rolls \d\d", between)
        assert re.search(r"(Black plays \S|Black rolls \d\d and cannot move)", between)
        assert re.search(r"White rolls \d\d", between)
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("args", "send", "sentence"),
    [
        (["general", "--rebels", "random", "--general", "human", "--seed", "1"], None,
         r"the rebels play [a-e]\d-[a-e]\d"),
        (["general", "--rebels", "human", "--general", "random", "--seed", "1"], "a2-b2",
         r"the general plays c3-"),
        (["backgammon", "--white", "random", "--black", "human", "--seed", "3"], None,
         r"White plays \d+/\d+"),
        (["defiance", "--rebels", "human", "--imperium", "random", "--seed", "2"], "e5>N",
         r"the Imperium plays [a-j]\d+"),
    ],
)  # fmt: skip
def test_sentences_name_the_sides_properly(
    args: list[str], send: str | None, sentence: str
) -> None:
    child = spawn(*args, env={"NO_COLOR": "1"})
    if send is not None:
        child.expect("> ")
        child.sendline(send)
    child.expect(sentence)
    child.expect("> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_legal_moves_come_in_columns_that_fit_the_terminal() -> None:
    child = spawn("general", "--rebels", "human", "--general", "human", width=60)
    child.expect("rebels> ")
    child.sendline("?")
    child.expect("24 legal moves:")
    child.expect("rebels> ")
    lines = [line for line in before(child).splitlines() if line.strip()]
    assert 2 <= len(lines) <= 8
    assert all(len(line) <= 60 for line in lines)
    moves = [m for line in lines for m in line.split()]
    assert len(moves) == 24 == len(set(moves))
    assert all(re.fullmatch(r"[a-e]\d-[a-e]\d", m) for m in moves)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_no_colour_when_output_is_not_a_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ludotheque", *PLAY_GENERAL],
        input="a2-b2\nquit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert "the general plays" in done.stdout
    assert ANSI not in done.stdout


@pytest.mark.parametrize("no_color", [None, "1"])
def test_colour_on_a_terminal_unless_no_color(no_color: str | None) -> None:
    env = {} if no_color is None else {"NO_COLOR": no_color}
    child = spawn("backgammon", "--white", "human", "--black", "human", "--seed", "3", env=env)
    child.expect("white> ")
    shown = before(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    if no_color is None:
        assert ANSI in shown
        assert re.search(r"\x1b\[[\d;]+mO\x1b\[0m", shown)  # the checkers themselves
    else:
        assert ANSI not in shown
