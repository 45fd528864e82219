"""Engine speed: random play-outs and move generation, as medians of several runs.

    python bench/engine.py general [--runs 5] [--seconds 2]

Prints plies per second of random play-outs from the start (``legal_moves`` + ``play`` +
``outcome`` each ply) and microseconds per ``legal_moves()`` on positions never asked before.
Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.core import CHANCE, State


def playouts(
    game: ludotheque.Game, seconds: float, seed: int, max_plies: int | None = None
) -> tuple[float, float, int]:
    """Random play-outs for ``seconds`` (each at most ``max_plies`` moves):
    (plies per second, games per second, games)."""
    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state: State = game.start()
        played = 0
        while state.outcome() is None and time.perf_counter() < deadline:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            plies += 1
            played += 1
            if max_plies is not None and played >= max_plies:
                break
        if state.outcome() is not None or (max_plies is not None and played >= max_plies):
            games += 1  # a game cut by the clock does not count
    elapsed = time.perf_counter() - start
    return plies / elapsed, games / elapsed, games


def sample_positions(game: ludotheque.Game, count: int, seed: int) -> list[State]:
    """Decision positions met in random games."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state: State = game.start()
        while state.outcome() is None and len(found) < count:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            found.append(state)
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    return found


def generation_us(positions: list[State]) -> float:
    """Microseconds per ``legal_moves()`` on fresh copies (no cached answer)."""
    fresh: list[State] = pickle.loads(pickle.dumps(positions))
    start = time.perf_counter()
    for state in fresh:
        state.legal_moves()
    return (time.perf_counter() - start) / len(fresh) * 1e6


def median_of(runs: int, measure: Callable[[int], float]) -> tuple[float, list[float]]:
    values = [measure(i) for i in range(runs)]
    return statistics.median(values), values


def bench_general(runs: int, seconds: float) -> None:
    game = ludotheque.load("general")
    rates = [playouts(game, seconds, seed) for seed in range(runs)]
    plies = statistics.median(r[0] for r in rates)
    games = statistics.median(r[1] for r in rates)
    positions = sample_positions(game, 20_000, 99)
    gen, gens = median_of(runs, lambda _: generation_us(positions))
    print(f"general: random play-outs from the start, {runs} runs of {seconds:g} s")
    print(
        f"  plies per second      median {plies:,.0f}  (runs: "
        + ", ".join(f"{r[0]:,.0f}" for r in rates)
        + ")"
    )
    print(f"  games per second      median {games:,.1f}")
    print(
        f"  legal_moves()         median {gen:.2f} µs over {len(positions):,} positions "
        "(runs: " + ", ".join(f"{g:.2f}" for g in gens) + ")"
    )
    print("  target: 50,000 plies per second")


def openspiel_games(seconds: float, seed: int) -> tuple[float, float]:
    """Random OpenSpiel backgammon games for ``seconds``: (games per second, decisions/s)."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                decisions += 1
            state.apply_action(action)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def bench_backgammon(runs: int, seconds: float) -> None:
    standard = ludotheque.load("backgammon", "standard")
    seed_rules = ludotheque.load("backgammon", "seed")
    ours, theirs, seeds = [], [], []
    for i in range(runs):  # interleaved, so that both see the same machine load
        ours.append(playouts(standard, seconds, i))
        theirs.append(openspiel_games(seconds, i))
        seeds.append(playouts(seed_rules, seconds, i))
    our_games = statistics.median(r[1] for r in ours)
    their_games = statistics.median(r[0] for r in theirs)
    seed_games = statistics.median(r[1] for r in seeds)
    positions = sample_positions(standard, 5_000, 99)
    gen, _ = median_of(runs, lambda _: generation_us(positions))
    print(f"backgammon: random games, {runs} runs of {seconds:g} s each, interleaved")
    print(
        f"  ours (standard)       median {our_games:,.1f} games/s  (runs: "
        + ", ".join(f"{r[1]:,.1f}" for r in ours)
        + ")"
    )
    print(f"  ours (seed)           median {seed_games:,.1f} games/s")
    print(
        f"  OpenSpiel backgammon  median {their_games:,.1f} games/s  (runs: "
        + ", ".join(f"{r[0]:,.1f}" for r in theirs)
        + ")"
    )
    print(f"  ratio ours/OpenSpiel  {our_games / their_games:.2f}  (target ≥ 0.25; goal > 1)")
    print(f"  legal_moves()         median {gen:.1f} µs over {len(positions):,} positions")


MIDGAME_10 = (
    "1RS1IE4INERSE/2RSWISE1IE4/9RSW/IEIN2IEISW1INE2/7RS1ISE/1INEIS3RNW3/IN1RNE1ISE1RWRSE2/"
    "RN7RNERSE/INWRNWRSW1RW2INEIERN/4INWRSE1RSWREINE r21,i21 R3.4,I5.8,I10.9 r"
)


def bench_defiance(runs: int, seconds: float) -> None:
    for ruleset in ("10x10", "8x8"):
        game = ludotheque.load("defiance", ruleset)
        rates = [playouts(game, seconds, seed, max_plies=400) for seed in range(runs)]
        plies = statistics.median(r[0] for r in rates)
        print(
            f"defiance {ruleset}: random whole-turn play-outs (uniform over whole turns, "
            f"at most 400 turns), {runs} runs of {seconds:g} s"
        )
        print(
            f"  turns per second      median {plies:,.1f}  (runs: "
            + ", ".join(f"{r[0]:,.1f}" for r in rates)
            + ")"
        )
    game = ludotheque.load("defiance")
    mid = game.parse_position(MIDGAME_10)
    times = []
    for _ in range(runs):
        fresh = pickle.loads(pickle.dumps(mid))
        start = time.perf_counter()
        count = len(fresh.legal_moves())
        times.append((time.perf_counter() - start) * 1e3)
    start_state = game.start()
    starts = []
    for _ in range(runs):
        fresh = pickle.loads(pickle.dumps(start_state))
        begin = time.perf_counter()
        n_start = len(fresh.legal_moves())
        starts.append((time.perf_counter() - begin) * 1e3)
    print(
        f"  all legal turns of a 10x10 mid-game position ({count:,} turns): median "
        f"{statistics.median(times):.1f} ms (runs: " + ", ".join(f"{t:.1f}" for t in times) + ")"
    )
    print(
        f"  all legal turns of the 10x10 start ({n_start:,} turns): median "
        f"{statistics.median(starts):.1f} ms"
    )


BENCHES: dict[str, Callable[[int, float], None]] = {
    "defiance": bench_defiance,
    "general": bench_general,
    "backgammon": bench_backgammon,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(BENCHES))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    BENCHES[args.game](args.runs, args.seconds)


if __name__ == "__main__":
    main()
