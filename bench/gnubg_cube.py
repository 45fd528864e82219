"""Our cube decisions against GNU Backgammon's, on the cube decisions of real games (money play
and matches), through the PyPI package ``gnubg`` (bench only: never a dependency).

    python bench/gnubg_cube.py --money-games 120 --match-games 80 --plies 2 --seed 1

The ``gnubg`` module cannot evaluate a cube decision directly (its ``hint`` answers "Hints for
cube actions not yet implemented", and ``evaluate`` returns cubeless numbers even with a
cubeful context), but it analyses whole matches: our games are written as ``.mat`` files,
GNU Backgammon imports them, analyses them (``analyse match`` at ``--plies``) and saves them as
SGF, whose ``DA[...]`` properties hold its cubeful equities of every cube decision it found
worth analysing: no double and double/take (money: per cube; match: match winning chances).

For each of those decisions we compute ours (the ``hard`` level's: two rolls ahead;
``--cube-plies 1``: one) and report
how often we agree (double or not; take or drop) and what our choices lose by GNU Backgammon's
own numbers: in money play points per decision (a cube of 1), in match play match winning
chances. The games themselves are played by ``--players`` (``medium`` by default) on both sides.
``--dump FILE`` writes every decision (kind, position, both programs' three equities) as JSON
lines, to study where we differ.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.ai import Budget
from ludotheque.ai.backgammon import BackgammonAgent
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import equity, mat
from ludotheque.games.backgammon.cube import DOUBLED
from ludotheque.games.backgammon.rules import SIDES, BackgammonState
from ludotheque.record import Record


@dataclass
class Decision:
    """One cube decision: the state, whether it is a double (else a take) decision, and both
    programs' (no double, double take, double pass) for the side on roll."""

    kind: str  # "double" or "take"
    state: BackgammonState
    money: bool
    gnubg: tuple[float, float, float]
    ours: tuple[float, float, float]


def play_games(ruleset: str, count: int, players: str, seed: int) -> list[list[Record]]:
    """Matches (or money sessions of one game) played by ``players`` against itself."""
    game = ludotheque.load("backgammon", ruleset)
    sessions: list[list[Record]] = []
    for index in range(count):
        agents = {s: make_agent("backgammon", players, seed=seed * 1000 + index * 2 + k)
                  for k, s in enumerate(SIDES)}  # fmt: skip
        start = None
        if ruleset == "match":
            length = (3, 5, 7, 9, 11)[index % 5]
            start = game.start(length=length).position()  # type: ignore[call-arg]
        rec: Record | None = Record.new(game, start=start, seed=f"cube-{seed}-{index}")
        games: list[Record] = []
        while rec is not None:
            while rec.outcome() is None:
                state = rec.state
                if state.to_move == CHANCE:
                    rec.roll()
                else:
                    rec.play(agents[str(state.to_move)].choose(state))
            games.append(rec)
            rec = rec.next_game(seed=f"cube-{seed}-{index}-{len(games)}") if start else None
        sessions.append(games)
    return sessions


def decision_states(record: Record) -> list[tuple[str, BackgammonState]]:
    """For each entry of the record's ``.mat`` text, in order: what GNU Backgammon would
    analyse there (a double decision before a roll or a double, a take decision) and the state
    it concerns (the doubler's state before its decision)."""
    out: list[tuple[str, BackgammonState]] = []
    states = record.states
    decision: BackgammonState | None = None
    for (kind, text), before in zip(record.plies, states[:-1], strict=True):
        assert isinstance(before, BackgammonState)
        if kind == "chance":
            continue
        stakes = before.stakes
        assert stakes is not None
        if text in ("roll", "double") and stakes.pending == 0:
            decision = before
        if text == "double":
            out.append(("double", before))
        elif text in ("take", "drop"):
            assert stakes.pending == DOUBLED
            out.append(("take", before))
        elif text not in ("roll", "accept", "decline") and not text.startswith("resign"):
            out.append(("play", decision if decision is not None else before))
            decision = None
    return out


def gnubg_analyse(path: Path, plies: int) -> str:
    """GNU Backgammon's analysed SGF of a .mat file (in a subprocess: its session is global)."""
    sgf = path.with_suffix(".sgf")
    script = textwrap.dedent(f"""
        import gnubg
        for command in ("set player 0 human", "set player 1 human", "set threads 1",
                        "import mat {path}",
                        "set analysis chequerplay evaluation plies 0",
                        "set analysis cubedecision evaluation plies {plies}",
                        "analyse match", "save match {sgf}"):
            gnubg.command(command)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, timeout=3600)
    return sgf.read_text(encoding="utf-8", errors="replace")


def sgf_games(text: str) -> list[list[tuple[str, str, tuple[float, ...] | None]]]:
    """Each game's move nodes: (player, move, DA numbers or None)."""
    games = []
    for tree in text.split("(;FF[")[1:]:
        nodes = []
        for node in re.finditer(r";([WB])\[([^\]]*)\]((?:[A-Z]+(?:\[[^\]]*\])+)*)", tree):
            props = node[3]
            da = re.search(r"DA\[E ver \d+ \S+ \S+ \S+ \S+((?: -?[\d.]+){14})\]", props)
            numbers = tuple(float(v) for v in da[1].split()) if da else None
            nodes.append((node[1], node[2], numbers))
        games.append(nodes)
    return games


def compare(sessions: list[list[Record]], plies: int, hard: BackgammonAgent) -> list[Decision]:
    """Every cube decision GNU Backgammon analysed in these games, with both programs'
    equities."""
    decisions: list[Decision] = []
    unmatched = 0
    with tempfile.TemporaryDirectory() as folder:
        for number, games in enumerate(sessions):
            path = Path(folder) / f"s{number}.mat"
            mat.write(path, games)
            analysed = sgf_games(gnubg_analyse(path, plies))
            if len(analysed) != len(games):
                raise SystemExit(f"session {number}: GNU Backgammon read {len(analysed)} games")
            for record, nodes in zip(games, analysed, strict=True):
                for (kind, state), (_, _, numbers) in zip(decision_states(record), nodes,
                                                          strict=False):  # fmt: skip
                    if numbers is None:
                        continue
                    if kind == "play" and state.dice is not None:
                        unmatched += 1  # a decision GNU Backgammon sees and our rules do not
                        continue
                    decisions.append(_decision(kind, state, numbers, hard))
    if unmatched:
        print(f"  ({unmatched} cube decisions analysed by GNU Backgammon where ours had none)")
    return decisions


def _decision(kind: str, state: BackgammonState, numbers: tuple[float, ...],
              hard: BackgammonAgent) -> Decision:  # fmt: skip
    """GNU Backgammon's numbers (no double, double take from its DA property; double pass
    from the match equity table) and ours for one decision, money per cube of 1."""
    stakes = state.stakes
    assert stakes is not None and state.side is not None
    nd, dt = numbers[6], numbers[13]
    money = not stakes.length
    if money:
        dp = 1.0
    else:
        ctx = equity.Context.of(stakes, SIDES.index(state.side))
        dp = equity.mwc(ctx.away[0] - ctx.cube, ctx.away[1], ctx.crawford or ctx.post)
    ours = hard.cube_equities(state)
    if money:
        cube = stakes.value
        ours = (ours[0] / cube, ours[1] / cube, ours[2] / cube)
    return Decision("take" if kind == "take" else "double", state, money, (nd, dt, dp), ours)


def report(decisions: list[Decision], label: str) -> None:
    """Agreement and equity lost, over all decisions and over the ones that matter: where GNU
    Backgammon doubles, or where doubling is within 0.1 (money) / 0.02 (match) of its best."""
    doubles = [d for d in decisions if d.kind == "double"]
    takes = [d for d in decisions if d.kind == "take"]
    unit = "points" if decisions and decisions[0].money else "match winning chance"
    near = 0.1 if decisions and decisions[0].money else 0.02

    def double_stats(subset: list[Decision]) -> tuple[int, float, float]:
        agree, lost = 0, 0.0
        for d in subset:
            nd, dt, dp = d.gnubg
            best = max(nd, min(dt, dp))
            g_double = min(dt, dp) > nd
            o_double = min(d.ours[1], d.ours[2]) > d.ours[0]
            agree += g_double == o_double
            lost += best - (min(dt, dp) if o_double else nd)
        return len(subset), agree / max(len(subset), 1), lost

    for name, subset in (
        ("all", doubles),
        ("that matter", [d for d in doubles if min(d.gnubg[1], d.gnubg[2]) > d.gnubg[0] - near]),
        ("GNU Backgammon doubles", [d for d in doubles if min(d.gnubg[1:]) > d.gnubg[0]]),
    ):
        n, share, lost = double_stats(subset)
        print(f"{label}: double decisions ({name}): {n}, agreement {share:.1%}, our choices "
              f"lose {lost / max(n, 1):.4f} {unit} a decision ({lost:.3f} in all)")  # fmt: skip
    take_agree = 0
    take_lost = 0.0
    for d in takes:
        _, dt, dp = d.gnubg
        g_take = dt <= dp
        o_take = d.ours[1] <= d.ours[2]
        take_agree += g_take == o_take
        if g_take != o_take:
            take_lost += abs(dp - dt)
    print(f"{label}: take decisions: {len(takes)}, agreement "
          f"{take_agree / max(len(takes), 1):.1%}, our choices lose "
          f"{take_lost / max(len(takes), 1):.4f} {unit} a decision")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--money-games", type=int, default=120)
    parser.add_argument("--match-games", type=int, default=60)
    parser.add_argument("--players", default="medium")
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's cube analysis")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--network", help="a network file to use instead of the shipped one")
    parser.add_argument("--dump", help="a JSON-lines file of every decision, both sides' numbers")
    parser.add_argument(
        "--cube-plies", type=int, default=2,
        help="our cube decisions: 1 one roll ahead, 2 two rolls ahead (hard's)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.network:
        from ludotheque.games.backgammon import network

        network.use(network.Network.load(args.network))
    hard = BackgammonAgent(1, Budget(iterations=2), cube_plies=args.cube_plies)
    begun = time.perf_counter()
    money = compare(play_games("money", args.money_games, args.players, args.seed), args.plies,
                    hard)  # fmt: skip
    report(money, f"money (GNU Backgammon {args.plies}-ply)")
    match = compare(play_games("match", args.match_games, args.players, args.seed), args.plies,
                    hard)  # fmt: skip
    report(match, f"match (GNU Backgammon {args.plies}-ply)")
    if args.dump:
        with open(args.dump, "w") as out:
            for d in money + match:
                out.write(json.dumps({"kind": d.kind, "money": d.money,
                                      "position": d.state.position(), "gnubg": d.gnubg,
                                      "ours": d.ours}) + "\n")  # fmt: skip
    print(f"{time.perf_counter() - begun:.0f} s")


if __name__ == "__main__":
    main()
