"""Our backgammon agent against GNU Backgammon 0-ply, or deeper (standard rules, cubeless, games
counted as wins), through the PyPI package ``gnubg`` (bench only: never a dependency of the
package).

    python bench/gnubg_match.py --games 1000 --agent hard --jobs 2 --seed 1
    python bench/gnubg_match.py --games 400 --agent bg:1 --network run1/net-100000.npz
    python bench/gnubg_match.py --games 1000 --agent bg:3 --progress bg3.jsonl  # resumable
    python bench/gnubg_match.py --games 4000 --agent bg:1 --duplicate --seed 5
    python bench/gnubg_match.py --games 1000 --agent hard --gnubg-plies 1 --seed 40

``--agent`` is a level (``easy``, ``medium``, ``hard``), an algorithm name,
``bg:PLIES[:BEAM[:DEEP[:MARGIN]]]`` (the backgammon player with that search: three plies on the
``DEEP`` best two-ply plays within ``MARGIN``) or ``expectimax:PLIES:BEAM[:SECONDS]``; ``--network``
evaluates with another network file than the shipped one (to measure a training checkpoint);
``--progress FILE`` appends each finished game to FILE (one JSON line) and, when started again
with the same FILE, plays only the games that are not in it yet, so a long match resumes.
``--gnubg-plies N`` has GNU Backgammon look N plies ahead (its own count: 0 is its network
alone, 1 one roll ahead; deterministic, no pruning net, its default move filters).
``--duplicate`` plays every set of dice twice, our side white in the even game and black in the
odd one (game ``2k`` and ``2k + 1`` share the dice ``k``): luck cancels much more, which is
what comparing networks or searches needs (the pairs are not independent games: a Wilson
interval over them is wider than it need be).

gnubg 1.1.0a16 cuts a move tuple at its first bear-off; such a partial move is completed by
matching it against our legal plays (and, if several plays complete it, by gnubg's own 0-ply
evaluation of their results).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg

import ludotheque
from ludotheque.ai import Budget, ExpectimaxAgent
from ludotheque.ai.backgammon import BackgammonAgent
from ludotheque.ai.levels import make_agent
from ludotheque.core import CHANCE
from ludotheque.games.backgammon import BackgammonState, Play
from ludotheque.stats import wilson

GAME = ludotheque.load("backgammon", "standard")
CUBE = gnubg.cube_info()
ZERO_PLY = gnubg.eval_context(0, 0, 1, 0, 0.0)


def gnubg_context(plies: int) -> Any:
    """GNU Backgammon's evaluation context: cubeless, ``plies`` ahead, deterministic, no
    pruning net, no noise."""
    return gnubg.eval_context(0, plies, 1, 0, 0.0)


def gnubg_board(state: BackgammonState, on_roll: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's board: (the other side, the side on roll), points 1-24 then the bar."""
    other = "black" if on_roll == "white" else "white"
    return tuple(state.board(other)[1:26]), tuple(state.board(on_roll)[1:26])


def _completions(state: BackgammonState, steps: list[Any]) -> list[Play]:
    """Every legal play that starts with the single moves ``steps``."""
    found: dict[str, Play] = {}

    def walk(done: list[Any]) -> None:
        turn = state.partial_turn(done)
        if turn.play is not None:
            found[str(turn.play)] = turn.play
            return
        for step in turn.next_steps:
            walk([*done, step])

    walk(steps)
    return list(found.values())


def _match_partial(state: BackgammonState, pairs: list[tuple[int, int]]) -> list[Play]:
    """The legal plays whose single moves can begin with gnubg's (src, dst) pairs."""
    results: dict[str, Play] = {}

    def walk(done: list[Any], rest: list[tuple[int, int]]) -> None:
        if not rest:
            for play in _completions(state, done):
                results[str(play)] = play
            return
        src, dst = rest[0]
        for step in state.partial_turn(done).next_steps:
            if step.src == src and step.dst == dst:
                walk([*done, step], rest[1:])

    walk([], pairs)
    return list(results.values())


def gnubg_play(state: BackgammonState, context: Any = ZERO_PLY) -> Play:
    """gnubg's choice for the side to move (0-ply unless ``context`` says otherwise)."""
    side = str(state.to_move)
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    dice = state.dice
    assert dice is not None
    raw = list(gnubg.find_best_move(gnubg_board(state, side), CUBE, context, (dice.high, dice.low)))
    if len(raw) % 2:  # the known bug: the tuple stops at the first bear-off, "to" included
        raw.append(0)
    pairs = [(raw[i], raw[i + 1]) for i in range(0, len(raw), 2)]
    text = " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in pairs)
    try:
        return state.parse_move(text)
    except ludotheque.IllegalMove:
        pass
    candidates = _match_partial(state, [(a, max(b, 0)) for a, b in pairs]) or list(moves)
    other = "black" if side == "white" else "white"

    def gnubg_equity(play: Play) -> float:
        after = state.play(play)
        if after.outcome() is not None:
            return 10.0
        # gnubg evaluates for the side on roll next: the opponent; our equity is the opposite
        return -gnubg.evaluate(gnubg_board(after, other), CUBE, ZERO_PLY)[5]

    return max(candidates, key=gnubg_equity)


def build_agent(spec: str, seed: int) -> Any:
    """A level or algorithm name, ``bg:PLIES[:BEAM[:DEEP[:MARGIN]]]`` or
    ``expectimax:PLIES:BEAM[:SECONDS]``."""
    if spec.startswith("bg:"):
        parts = spec.split(":")[1:]
        beam = int(parts[1]) if len(parts) > 1 else 10
        deep = {"deep": int(parts[2])} if len(parts) > 2 else {}
        margin = {"margin": float(parts[3])} if len(parts) > 3 else {}
        return BackgammonAgent(
            seed, Budget(iterations=int(parts[0])), beam=beam or None, name=spec, **deep, **margin
        )
    if spec.startswith("expectimax:"):
        parts = spec.split(":")[1:]
        plies, beam = int(parts[0]), int(parts[1])
        seconds = float(parts[2]) if len(parts) > 2 else None
        return ExpectimaxAgent(seed, Budget(iterations=plies, seconds=seconds), beam=beam or None)
    return make_agent("backgammon", spec, seed=seed, ruleset="standard")


def use_network(path: str | None) -> None:
    """Evaluate with the network in ``path`` instead of the shipped one (in this process)."""
    if path:
        from ludotheque.games.backgammon import network

        network.use(network.Network.load(path))


def play_game(args: tuple[int, str, int, int, bool]) -> tuple[int, bool, str, int]:
    """One game: (its index, our side won, our side, turns)."""
    index, agent_name, seed, plies, duplicate = args
    rng = random.Random(seed * 100_003 + (index // 2 if duplicate else index))
    ours = "white" if index % 2 == 0 else "black"
    agent = build_agent(agent_name, seed * 7919 + index)
    context = gnubg_context(plies)
    state: ludotheque.State = GAME.start()
    turns = 0
    while state.outcome() is None:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            continue
        assert isinstance(state, BackgammonState)
        move = agent.choose(state) if state.to_move == ours else gnubg_play(state, context)
        state = state.play(move)
        turns += 1
    outcome = state.outcome()
    assert outcome is not None
    return index, outcome.winner == ours, ours, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent", default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--network", help="a network file to use instead of the shipped one")
    parser.add_argument("--progress", help="a JSON-lines file of finished games, to resume from")
    parser.add_argument("--gnubg-plies", type=int, default=0, help="GNU Backgammon's plies")
    parser.add_argument("--duplicate", action="store_true", help="every set of dice twice")
    args = parser.parse_args()
    setting = {"gnubg": args.gnubg_plies, "duplicate": args.duplicate}
    start = time.perf_counter()
    results: dict[int, tuple[bool, str]] = {}
    if args.progress and Path(args.progress).exists():
        for line in Path(args.progress).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                same = (row.get("gnubg", 0), row.get("duplicate", False)) == tuple(setting.values())
                if row["agent"] == args.agent and row["seed"] == args.seed and same:
                    results[row["index"]] = (row["won"], row["side"])
        print(f"{len(results)} games already played, from {args.progress}")
    log = open(args.progress, "a") if args.progress else None  # noqa: SIM115
    work = [(i, args.agent, args.seed, args.gnubg_plies, args.duplicate)
            for i in range(args.games) if i not in results]  # fmt: skip
    with ProcessPoolExecutor(
        max_workers=args.jobs, initializer=use_network, initargs=(args.network,)
    ) as pool:
        for future in as_completed([pool.submit(play_game, w) for w in work]):
            index, won, side, turns = future.result()
            results[index] = (won, side)
            if log is not None:
                row = {"agent": args.agent, "seed": args.seed, "index": index, **setting}
                log.write(json.dumps({**row, "won": won, "side": side, "turns": turns}) + "\n")
                log.flush()
            done = sum(1 for i in results if i < args.games)
            if done % 20 == 0 or done == args.games:
                wins = sum(won for i, (won, _) in results.items() if i < args.games)
                low, high = wilson(wins, done)
                print(
                    f"\r{done}/{args.games} games: {wins / done:.1%} [{low:.1%}, {high:.1%}]",
                    end="",
                    flush=True,
                )
    if log is not None:
        log.close()
    played = {i: r for i, r in results.items() if i < args.games}
    wins = sum(won for won, _ in played.values())
    by_side = {"white": [0, 0], "black": [0, 0]}
    for won, side in played.values():
        by_side[side][0] += won
        by_side[side][1] += 1
    print()
    low, high = wilson(wins, args.games)
    elapsed = time.perf_counter() - start
    kind = ", duplicate" if args.duplicate else ""
    print(f"{args.agent} vs gnubg {args.gnubg_plies}-ply (standard, cubeless{kind}), "
          f"{args.games} games, seed {args.seed}:")  # fmt: skip
    print(f"  our wins: {wins} = {wins / args.games:.1%}, 95% interval [{low:.1%}, {high:.1%}]")
    for side, (w, n) in by_side.items():
        print(f"  as {side}: {w}/{n}")
    print(f"  {elapsed:.0f} s in this run")


if __name__ == "__main__":
    main()
