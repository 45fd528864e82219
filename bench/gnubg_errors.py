"""Error rates of a backgammon player as GNU Backgammon 2-ply judges them: checker play, cube
decisions and overall, in mEMG per move, over money games (cube, Jacoby) and 7-point matches that
two copies of the player play against each other (PyPI package ``gnubg``; bench only).

    nice -n 10 python bench/gnubg_errors.py --games 40 --player hard --seed 1 --jobs 1 \\
        --progress bench/results/gnubg-errors-hard-seed1.jsonl

``--player`` is ``hard`` (our level, its cube decisions included, as it makes them) or
``gnubg0`` / ``gnubg1`` (GNU Backgammon at 0 or 1 ply: checker play through
``gnubg.find_best_move`` with the game's cube and match score, cubeful; cube decisions through
its ``hint`` command on the position set by its GNU Backgammon ID, read from the text it prints:
the module's own ``hint`` function answers "not yet implemented" for the cube). Half the
``--games`` are money games, the other half the games of as many 7-point matches as it takes
(matches in order, each whole); the dice come from ``--seed`` alone, so every player meets the
same dice where the games run alike.

Each money game or match is written as ``.mat`` (``ludotheque.games.backgammon.mat``), imported
by GNU Backgammon in a subprocess, analysed with ``analyse match`` at ``--plies`` (2) for checker
play and cube, and its ``show statistics game`` read for every game: unforced moves and their
error total, close-or-actual cube decisions and theirs (EMG: normalised money equity, match
winning chances turned to money equity in a match), both sides added (they are the same
player). The rates are GNU Backgammon's own: error total / unforced moves (checker play),
/ close or actual cube decisions (cube), / both (overall), times 1000, summed over all games.
``--progress FILE`` appends each analysed game as a JSON line; a rerun skips the money games and
matches already in it. ``--network FILE`` has ``hard`` evaluate with another network than the
shipped one (a candidate, measured before it ships).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gnubg
from gnubg_match import CUBE, ZERO_PLY, _match_partial, gnubg_board

import ludotheque
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import Play, mat
from ludotheque.games.backgammon.cube import (
    ACCEPT,
    DOUBLE,
    DOUBLED,
    DROP,
    RESIGNING,
    ROLL,
    TAKE,
)
from ludotheque.games.backgammon.rules import SIDES, BackgammonState
from ludotheque.record import Record

MATCH_LENGTH = 7
ABSURD = 100.0  # EMG: no game of fifty moves loses that much; GNU Backgammon's overflow does
PLAYERS = ("hard", "gnubg0", "gnubg1")
CUBE_ERRORS = ("Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
               "Wrong doubles above TG", "Wrong takes", "Wrong passes")  # fmt: skip
"""GNU Backgammon's kinds of cube error, each counted with its EMG in the rows (``_key``)."""
_COUNTED = re.compile(r"(?<![\d.(+-])(\d+)(?:\s*\(\s*([-+]?\d+\.\d+)\s*\([^()]*\)\s*\))?")
ESSENTIAL = ("checker_decisions", "checker_emg", "cube_decisions", "cube_emg")
_CUBEFUL = re.compile(r"^\s*\d\.\s+(No double|Double, take|Double, pass)\s+([-+]?\d+(?:\.\d+)?)")


def _quiet(network_file: str | None = None) -> None:
    """Worker start: GNU Backgammon prints a board at every ``set_gnubg_id``; send it away.
    With ``network_file``, our player evaluates with that network instead of the shipped one."""
    sys.stdout.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    if network_file:
        from ludotheque.games.backgammon import network

        network.use(network.Network.load(network_file))


def _gnubg_text(command: str) -> str:
    """What a GNU Backgammon command prints (on file descriptor 1, from its C code)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode("utf-8", "replace")


class GnubgPlayer:
    """GNU Backgammon at ``plies`` (0: its network alone; 1: one roll ahead) as a player."""

    def __init__(self, plies: int) -> None:
        self.plies = plies
        self.context = gnubg.eval_context(1, plies, 1, 0, 0.0)
        for command in (
            "set threads 1",
            "set jacoby on",
            f"set evaluation cubedecision evaluation plies {plies}",
            f"set evaluation chequerplay evaluation plies {plies}",
        ):
            _gnubg_text(command)
        self._doubler: BackgammonState | None = None

    @staticmethod
    def _set(state: BackgammonState) -> None:
        """Make the state GNU Backgammon's current position (it prints it: kept quiet)."""
        sys.stdout.flush()
        saved = os.dup(1)
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 1)
            try:
                gnubg.set_gnubg_id(state.gnubg_id())
            finally:
                os.dup2(saved, 1)
                os.close(saved)

    def cube(self, state: BackgammonState) -> tuple[float, float, float]:
        """GNU Backgammon's cubeful (no double, double take, double pass) for the side on roll
        of a state before its roll, from its ``hint``."""
        self._set(state)
        found: dict[str, float] = {}
        for line in _gnubg_text("hint").splitlines():
            match = _CUBEFUL.match(line)
            if match:
                found[match[1]] = float(match[2])
        if len(found) != 3:
            raise RuntimeError(f"no cube analysis from GNU Backgammon for {state.gnubg_id()}")
        return found["No double"], found["Double, take"], found["Double, pass"]

    def choose(self, state: BackgammonState) -> Any:
        """A move for the side to move: a cube action or a checker play."""
        moves = state.legal_moves()
        stakes = state.stakes
        if stakes is not None and stakes.pending == RESIGNING:
            return ACCEPT  # our players offer only what is lost for sure
        if stakes is not None and stakes.pending == DOUBLED:
            assert self._doubler is not None
            _, take, drop = self.cube(self._doubler)  # the doubler's equities
            return TAKE if take <= drop else DROP
        if state.dice is None:
            if DOUBLE not in moves:
                return moves[0]
            no_double, take, drop = self.cube(state)
            return DOUBLE if min(take, drop) > no_double else ROLL
        if len(moves) == 1:
            return moves[0]
        return self.play(state)

    def play(self, state: BackgammonState) -> Play:
        """The checker play ``gnubg.find_best_move`` picks, cubeful, with the game's cube and
        score (the board and cube information GNU Backgammon reads from the state's ID)."""
        self._set(state)
        dice = state.dice
        assert dice is not None
        board, cube = gnubg.board(), gnubg.cube_info()
        raw = list(gnubg.find_best_move(board, cube, self.context, (dice.high, dice.low)))
        if len(raw) % 2:  # gnubg 1.1.0a16 stops the tuple at the first bear-off, "to" included
            raw.append(0)
        pairs = [(raw[i], raw[i + 1]) for i in range(0, len(raw), 2)]
        text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in pairs)
        try:
            played: Play = state.parse_move(text)
            return played
        except ludotheque.IllegalMove:
            pass
        candidates = _match_partial(state, [(a, max(b, 0)) for a, b in pairs])
        if len(candidates) == 1:
            return candidates[0]
        other = "black" if str(state.to_move) == "white" else "white"

        def value(play: Play) -> float:  # several completions: as gnubg_match.gnubg_play
            after = state.play(play)
            if after.outcome() is not None:
                return 10.0
            return -float(gnubg.evaluate(gnubg_board(after, other), CUBE, ZERO_PLY)[5])

        return max(candidates or state.legal_plays(), key=value)

    def seen(self, state: BackgammonState, move: Any) -> None:
        """Remember the doubler's state, for the take decision that follows."""
        if move == DOUBLE:
            self._doubler = state


def players(name: str, seed: int) -> dict[str, Any]:
    """Two copies of the player, one a side."""
    if name == "hard":
        return {s: make_agent("backgammon", "hard", seed=seed * 2 + k) for k, s in enumerate(SIDES)}
    shared = GnubgPlayer(int(name.removeprefix("gnubg")))
    return dict.fromkeys(SIDES, shared)


def play_unit(kind: str, index: int, name: str, seed: int) -> list[Record]:
    """A money game (``kind`` "money") or a whole 7-point match: its games, in order."""
    game = ludotheque.load("backgammon", kind)
    start = game.start(length=MATCH_LENGTH).position() if kind == "match" else None
    agents = players(name, seed * 100_003 + index * 2 + (kind == "match"))
    tag = f"errors-{seed}-{kind}-{index}"
    rec: Record | None = Record.new(game, start=start, seed=tag)
    games: list[Record] = []
    while rec is not None:
        while rec.outcome() is None:
            state = rec.state
            if state.to_move == CHANCE:
                rec.roll()
                continue
            assert isinstance(state, BackgammonState)
            agent = agents[str(state.to_move)]
            move = agent.choose(state)
            for other in {id(a): a for a in agents.values()}.values():
                if isinstance(other, GnubgPlayer):
                    other.seen(state, move)
            rec.play(move)
        games.append(rec)
        rec = rec.next_game(seed=f"{tag}-{len(games)}") if start else None
    return games


_STATS = textwrap.dedent("""
    import sys
    import gnubg
    import json
    path, plies, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for command in ("set player 0 human", "set player 1 human", "set threads 1", "set jacoby on",
                    "import mat " + path,
                    "set analysis chequerplay evaluation plies %d" % plies,
                    "set analysis cubedecision evaluation plies %d" % plies,
                    "analyse match", "first game"):
        gnubg.command(command)
    read = [(g["info"]["winner"], g["info"]["points-won"])
            for g in gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"]]
    with open(sys.argv[4], "w") as out:
        json.dump(read, out)
    for number in range(len(read)):
        if number:
            gnubg.command("next game")
        gnubg.command("show statistics game")
""")


def _key(kind: str) -> str:
    """A kind of cube error as a row's key: ``Wrong takes`` is ``wrong_takes``."""
    return kind.lower().replace(" ", "_")


def _two(line: str) -> tuple[float, float]:
    """The two players' first numbers of a statistics line (``-1.280 ( -2.224)  -0.5 ...``)."""
    _, _, rest = line.partition("  ")
    rest = re.sub(r"\([^()]*\)", " ", rest.strip())
    numbers = re.findall(r"[-+]?\d+(?:\.\d+)?", rest)
    if len(numbers) < 2:
        raise ValueError(f"unreadable statistics line: {line!r}")
    return float(numbers[0]), float(numbers[1])


def parse_statistics(text: str) -> list[dict[str, float]]:
    """Each game's figures from the printed ``show statistics game`` blocks, both sides added:
    unforced moves and their error (EMG), close or actual cube decisions and theirs."""
    games = []
    for block in text.split("Chequerplay statistics")[1:]:
        chequer, _, rest = block.partition("Cube statistics")
        cube, _, _ = rest.partition("Overall statistics")
        figures: dict[str, float] = {}
        for part, section in (("checker", chequer), ("cube", cube)):
            for line in section.splitlines():
                stripped = line.strip()
                if stripped.startswith(("Unforced moves", "Close or actual cube decisions")):
                    figures[f"{part}_decisions"] = sum(_two(stripped))
                elif stripped.startswith("Error total EMG"):
                    figures[f"{part}_emg"] = sum(abs(v) for v in _two(stripped))
                elif part == "cube" and stripped.startswith(CUBE_ERRORS):
                    # "Wrong takes (EMG (Points))   1 (-0.031 ( -0.031))   0": count and EMG
                    # of each side
                    kind = next(k for k in CUBE_ERRORS if stripped.startswith(k))
                    found = _COUNTED.findall(stripped[len(kind) :].replace("(EMG (Points))", ""))
                    key = _key(kind)
                    figures[key] = float(sum(int(n) for n, _ in found))
                    figures[f"{key}_emg"] = sum(abs(float(e)) for _, e in found if e)
        if sum(1 for k in figures if k in ESSENTIAL) != 4:
            raise ValueError(f"incomplete statistics: {figures}")
        games.append(figures)
    return games


def analyse(games: list[Record], plies: int) -> list[dict[str, Any]]:
    """GNU Backgammon's statistics of each game, after its analysis at ``plies``.

    A game GNU Backgammon did not read as we played it (another winner or other points: once
    it read a redouble to 4 in a 7-point match as none, then stopped at the next game's score) or
    whose figures are beyond belief (an error total above ``ABSURD`` EMG: its normalisation of
    match equity overflowing, seen in such a misread game) is kept with ``left_out`` saying why,
    and counted apart in the table."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.mat"
        mat.write(path, games)
        done = subprocess.run(
            [sys.executable, "-c", _STATS, str(path), str(plies), str(len(games)),
             str(path.with_suffix(".json"))],
            check=True,
            capture_output=True,
            timeout=3600,
            cwd=folder,
        )  # fmt: skip
        read = json.loads(path.with_suffix(".json").read_text())
    figures: list[dict[str, Any]] = list(parse_statistics(done.stdout.decode("utf-8", "replace")))
    if len(figures) != len(read):
        raise RuntimeError(f"GNU Backgammon gave statistics of {len(figures)} of {len(read)} games")
    for number, record in enumerate(games):
        if number >= len(read):
            figures.append({"checker_decisions": 0.0, "checker_emg": 0.0, "cube_decisions": 0.0,
                            "cube_emg": 0.0, "left_out": "not read by GNU Backgammon"})  # fmt: skip
            continue
        outcome, state = record.outcome(), record.state
        assert outcome is not None and isinstance(state, BackgammonState)
        ours = ("X" if outcome.winner == "white" else "O", state.points())
        if tuple(read[number]) != ours:
            figures[number]["left_out"] = f"read as {read[number]}, played as {list(ours)}"
        elif max(figures[number]["checker_emg"], figures[number]["cube_emg"]) > ABSURD:
            figures[number]["left_out"] = "error total beyond belief"
    return figures


def run_unit(kind: str, index: int, name: str, seed: int, plies: int) -> list[dict[str, Any]]:
    """Play and analyse one money game or match: one row a game."""
    begun = time.perf_counter()
    games = play_unit(kind, index, name, seed)
    played = time.perf_counter() - begun
    rows = []
    for number, figures in enumerate(analyse(games, plies)):
        turns = sum(1 for k, _ in games[number].plies if k != "chance")
        rows.append({"player": name, "seed": seed, "plies": plies, "kind": kind, "unit": index,
                     "game": number, "games": len(games), "turns": turns, **figures,
                     "seconds": round(played, 1)})  # fmt: skip
    return rows


def rate(rows: list[dict[str, Any]], parts: tuple[str, ...]) -> tuple[float, float]:
    """GNU Backgammon's error rate (mEMG a decision) over ``rows`` and the decisions counted."""
    rows = [r for r in rows if "left_out" not in r]
    error = sum(r[f"{p}_emg"] for r in rows for p in parts)
    count = sum(r[f"{p}_decisions"] for r in rows for p in parts)
    return (1000 * error / count if count else float("nan")), count


def chosen(rows: list[dict[str, Any]], games: int) -> list[dict[str, Any]]:
    """The rows the table rests on: money games ``0 .. ceil(games / 2) - 1``, and matches from 0
    on while their games come short of ``games // 2`` (as many as are there, in order)."""
    money = [r for r in rows if r["kind"] == "money" and r["unit"] < (games + 1) // 2]
    by_match: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r["kind"] == "match":
            by_match.setdefault(r["unit"], []).append(r)
    matches: list[dict[str, Any]] = []
    index = 0
    while len(matches) < games // 2 and index in by_match:
        matches += by_match[index]
        index += 1
    return money + matches


def table(rows: list[dict[str, Any]], name: str) -> str:
    """One line of the table: player, games (money + match), checker, cube and overall rates."""
    apart = sum(1 for r in rows if "left_out" in r)
    rows = [r for r in rows if "left_out" not in r]
    money = sum(1 for r in rows if r["kind"] == "money")
    checker, moves = rate(rows, ("checker",))
    cube, decisions = rate(rows, ("cube",))
    overall, _ = rate(rows, ("checker", "cube"))
    kept = f"{len(rows)} ({money} money, {len(rows) - money} match" + (
        f"; {apart} left out)" if apart else ")"
    )
    return (f"| {name} | {kept} | "
            f"{checker:.2f} ({moves:.0f} moves) | {cube:.2f} ({decisions:.0f} decisions) | "
            f"{overall:.2f} |")  # fmt: skip


def breakdown(rows: list[dict[str, Any]]) -> str:
    """The cube errors by GNU Backgammon's kind: count and share of the cube rate (mEMG over all
    close or actual decisions), for the games analysed with the breakdown."""
    rows = [r for r in rows if "left_out" not in r and "wrong_takes" in r]
    decisions = sum(r["cube_decisions"] for r in rows)
    if not decisions:
        return "no cube breakdown (games analysed before it was kept)"
    parts = []
    for kind in CUBE_ERRORS:
        key = _key(kind)
        count = sum(r.get(key, 0.0) for r in rows)
        share = 1000 * sum(r.get(f"{key}_emg", 0.0) for r in rows) / decisions
        parts.append(f"{kind.lower()} {count:.0f} ({share:.2f})")
    return f"cube errors over {len(rows)} games: " + "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="half money, half 7-point match")
    parser.add_argument("--player", choices=PLAYERS, default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's analysis")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--progress", help="a JSON-lines file of analysed games, to resume from")
    parser.add_argument("--network", help="a network file for hard instead of the shipped one")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    progress = Path(args.progress) if args.progress else None
    if progress is not None and progress.exists():
        for line in progress.read_text().splitlines():
            row = json.loads(line) if line.strip() else None
            if row and (row["player"], row["seed"], row["plies"], row.get("network")) == (
                args.player, args.seed, args.plies, args.network,
            ):  # fmt: skip
                rows.append(row)
        print(f"{len(rows)} games already analysed, from {progress}")
    done_units = {(r["kind"], r["unit"]) for r in rows}
    money_todo = [i for i in range((args.games + 1) // 2) if ("money", i) not in done_units]
    match_games = len(chosen(rows, args.games)) - sum(
        1 for r in chosen(rows, args.games) if r["kind"] == "money"
    )
    next_match = 1 + max((u for k, u in done_units if k == "match"), default=-1)
    begun = time.perf_counter()
    pending: dict[Future[list[dict[str, Any]]], str] = {}
    with ProcessPoolExecutor(
        max_workers=args.jobs, initializer=_quiet, initargs=(args.network,)
    ) as pool:
        while True:
            while len(pending) < args.jobs:
                in_matches = sum(1 for k in pending.values() if k == "match")
                want_match = match_games + 4 * in_matches < args.games // 2
                money_done = (args.games + 1) // 2 - len(money_todo)
                if want_match and (not money_todo or match_games <= money_done):
                    work = ("match", next_match)
                    next_match += 1
                elif money_todo:
                    work = ("money", money_todo.pop(0))
                elif want_match:
                    work = ("match", next_match)
                    next_match += 1
                else:
                    break
                future = pool.submit(run_unit, *work, args.player, args.seed, args.plies)
                pending[future] = work[0]
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                kind = pending.pop(future)
                new = future.result()
                if args.network:
                    for row in new:
                        row["network"] = args.network
                rows += new
                if kind == "match":
                    match_games += len(new)
                if progress is not None:
                    with progress.open("a") as log:
                        log.writelines(json.dumps(r) + "\n" for r in new)
                used = chosen(rows, args.games)
                print(f"{len(used)}/{args.games} games, {time.perf_counter() - begun:.0f} s: "
                      f"{table(used, args.player)}", flush=True)  # fmt: skip
    used = chosen(rows, args.games)
    print(f"GNU Backgammon {args.plies}-ply's error rates (mEMG a move), seed {args.seed}:")
    print("| player | games | checker play | cube | overall |")
    print("| --- | --- | --- | --- | --- |")
    print(table(used, args.player))
    print(breakdown(used))


if __name__ == "__main__":
    main()
