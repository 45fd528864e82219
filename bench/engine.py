"""Engine speed against the code as it was before issue 21, and against OpenSpiel.

    python bench/engine.py [general defiance backgammon] [--runs 7]

Every ratio of issue 21 is measured in one run: the engines of today (``ludotheque``), the engines
as they were before the issue (``BEFORE``, checked out from git by this script into a temporary
directory and imported as the package ``ludotheque_before``), and OpenSpiel's C++ backgammon
through ``pyspiel``. Each run measures every contender in turn (interleaved), so that all see the
same machine; figures are medians over ``--runs`` runs, each ratio the median of the ratios of the
runs. Times are the CPU time of this process (``time.process_time``): the machine is shared, and
wall-clock time would count the other processes' turns. Each figure of the issue's goal table is
said "met" or "missed" against its goal where it is measured, and again in the table at the end.

- The General: random play-outs from the start (``outcome()``, ``legal_moves()``, ``play()``
  each ply), the same seeded games for both engines (the move lists are in the same order).
- Defiance: ``legal_moves()`` on fresh copies of 10x10 mid-game positions (turns 20–60 of random
  games), the same with every turn listed (``list(legal_moves())``), random whole-turn play-outs
  (at most 400 turns, the same games for both engines), and the memory a state takes once its
  moves are listed (``tracemalloc``: what parsing the position and ``legal_moves()`` keep).
- Backgammon: see ``bench_backgammon``.

The games' optional compiled cores (issue 21) are used when they were built; with
``LUDOTHEQUE_PURE_PYTHON=1`` the same run measures the pure-Python fallback. The first line says
which. Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _before import extract_before, lend

import ludotheque
from ludotheque.core import CHANCE, Game, State

BEFORE = "351ddd093599efc7b10e58782acb9e9ac8f12f0f"
"""The last commit before issue 21's engine work: the reference "today's code" of the issue."""

clock = time.process_time


# -- the code before the issue --------------------------------------------------------------


def before_package() -> ModuleType:
    """The package ``ludotheque`` at ``BEFORE`` (its core and games), as ``ludotheque_before``.

    Extracted once with ``git archive`` into the temporary directory (``_before``)."""
    extract_before(BEFORE)
    return importlib.import_module("ludotheque_before")


def load_before(name: str, ruleset: str | None = None) -> Game:
    """Game ``name`` as it was at ``BEFORE``, with the attributes that today's agents read and
    it lacks (``calibration``) lent by today's game (``_before.lend``): the greedy player and
    MCTS measured on it are today's."""
    before_package()
    module = importlib.import_module(f"ludotheque_before.games.{name}")
    game: Game = module.get_game() if ruleset is None else module.get_game(ruleset)
    lend(game, ludotheque.load(name) if ruleset is None else ludotheque.load(name, ruleset))
    return game


# -- measures -------------------------------------------------------------------------------


def playouts(game: Game, plies: int, seed: int, max_plies: int | None = None) -> float:
    """Random play-outs from the start until ``plies`` decisions are played: decisions per
    second of CPU time (each game stops at its end or after ``max_plies`` decisions)."""
    rng = random.Random(seed)
    played = 0
    start = clock()
    while played < plies:
        state: State = game.start()
        in_game = 0
        while state.outcome() is None:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            played += 1
            in_game += 1
            if max_plies is not None and in_game >= max_plies:
                break
    return played / (clock() - start)


def sample_positions(
    game: Game, count: int, seed: int, first: int = 0, last: int | None = None
) -> list[str]:
    """Position strings of decision nodes met in random games, from decision ``first`` to
    ``last`` of each game."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state: State = game.start()
        decisions = 0
        while state.outcome() is None and len(found) < count:
            if last is not None and decisions > last:
                break
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            if decisions >= first:
                found.append(state.position())
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
            decisions += 1
    return found


def listing_us(game: Game, texts: Sequence[str], every: bool = False) -> float:
    """Microseconds of CPU per ``legal_moves()`` (with ``every``: per ``list(legal_moves())``)
    on fresh states (parsed before the clock starts; nothing cached)."""
    states = [game.parse_position(t) for t in texts]
    gc.collect()
    start = clock()
    if every:
        for state in states:
            list(state.legal_moves())
    else:
        for state in states:
            state.legal_moves()
    elapsed = clock() - start
    return elapsed / len(states) * 1e6


def listed_state_kb(game: Game, text: str) -> float:
    """Kilobytes that a state parsed from ``text`` keeps once its moves are listed."""
    warm = game.parse_position(text)
    warm.legal_moves()  # tables, caches and interned values of the engine are not the state's
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = game.parse_position(text)
    moves = state.legal_moves()
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del state, moves
    return kept / 1024


def greedy_ms(game: Game, texts: Sequence[str]) -> float:
    """Milliseconds of CPU a move for the one-ply greedy player (it plays and evaluates every
    legal move) on the positions ``texts``."""
    from ludotheque.ai import GreedyAgent

    states = [game.parse_position(t) for t in texts]
    agent = GreedyAgent(seed=1)
    start = clock()
    for state in states:
        agent.choose(state)
    return (clock() - start) / len(states) * 1e3


def runs_of(runs: int, contenders: dict[str, Callable[[int], float]]) -> dict[str, list[float]]:
    """Each contender measured once per run, interleaved; run ``i`` passes ``i`` (a seed)."""
    out: dict[str, list[float]] = {name: [] for name in contenders}
    for i in range(runs):
        for name, measure in contenders.items():
            out[name].append(measure(i))
    return out


def ratios(a: list[float], b: list[float]) -> float:
    """The median of the run-by-run ratios ``a / b``."""
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


Goal = tuple[str, float]
"""A goal of issue 21: ``("≥", bound)`` or ``("≤", bound)``."""

Row = tuple[float, Goal]
"""A row of issue 21's goal table as measured: the figure and its goal."""


def met(value: float, goal: Goal) -> bool:
    """Whether ``value`` meets ``goal``."""
    sign, bound = goal
    return value >= bound if sign == "≥" else value <= bound


def judged(value: float, goal: Goal, unit: str = "") -> str:
    """``goal ≥ 5: met`` (or ``missed``): ``value`` against ``goal``."""
    sign, bound = goal
    return f"goal {sign} {bound:g}{unit}: {'met' if met(value, goal) else 'missed'}"


def line(label: str, values: list[float], unit: str, digits: int = 0) -> None:
    shown = ", ".join(f"{v:,.{digits}f}" for v in values)
    print(f"  {label:<34} median {statistics.median(values):>12,.{digits}f} {unit}  ({shown})")


# -- the General ----------------------------------------------------------------------------


def bench_general(runs: int) -> dict[str, Row]:
    now, before = ludotheque.load("general"), load_before("general")
    plies = 100_000
    rates = runs_of(
        runs,
        {
            "before": lambda i: playouts(before, plies, i),
            "now": lambda i: playouts(now, plies, i),
        },
    )
    texts = sample_positions(now, 20_000, 99)
    listing = runs_of(
        runs,
        {"before": lambda _: listing_us(before, texts), "now": lambda _: listing_us(now, texts)},
    )
    ratio = ratios(rates["now"], rates["before"])
    print(f"the General: random play-outs, {plies:,} plies a run, {runs} runs")
    line("plies/s, before issue 21", rates["before"], "/s")
    line("plies/s, now", rates["now"], "/s")
    goal: Goal = ("≥", 2)
    print(f"  {'ratio now / before':<34} {ratio:.2f}  ({judged(ratio, goal)})")
    line("legal_moves(), before", listing["before"], "µs", 2)
    line("legal_moves(), now", listing["now"], "µs", 2)
    return {"the General random plies/s, now / before": (ratio, goal)}


# -- Defiance -------------------------------------------------------------------------------

MIDGAME_10 = (
    "1RS1IE4INERSE/2RSWISE1IE4/9RSW/IEIN2IEISW1INE2/7RS1ISE/1INEIS3RNW3/IN1RNE1ISE1RWRSE2/"
    "RN7RNERSE/INWRNWRSW1RW2INEIERN/4INWRSE1RSWREINE r21,i21 R3.4,I5.8,I10.9 r"
)


def bench_defiance(runs: int) -> dict[str, Row]:
    now, before = ludotheque.load("defiance"), load_before("defiance")
    texts = sample_positions(now, 100, 7, first=20, last=60)
    listing = runs_of(
        runs,
        {
            "before": lambda _: listing_us(before, texts),
            "now": lambda _: listing_us(now, texts),
            "now, every turn": lambda _: listing_us(now, texts, every=True),
        },
    )
    turns = sum(len(now.parse_position(t).legal_moves()) for t in texts) / len(texts)
    out: dict[str, Row] = {}
    faster: Goal = ("≥", 5)
    print(f"Defiance 10x10: {len(texts)} mid-game positions (turns 20–60), {turns:,.0f} turns each")
    line("legal_moves(), before issue 21", listing["before"], "µs")
    line("legal_moves(), now", listing["now"], "µs")
    line("list(legal_moves()), now", listing["now, every turn"], "µs")
    ratio = ratios(listing["before"], listing["now"])
    out["Defiance 10x10 legal_moves(), before / now (time)"] = (ratio, faster)
    print(f"  {'ratio before / now (time)':<34} {ratio:.1f}  ({judged(ratio, faster)})")
    every = ratios(listing["before"], listing["now, every turn"])
    print(f"  {'ratio, every turn listed':<34} {every:.1f}")
    for ruleset, plies in (("10x10", 3_000), ("8x8", 3_000)):
        g_now, g_before = ludotheque.load("defiance", ruleset), load_before("defiance", ruleset)
        rates = runs_of(
            runs,
            {
                "before": partial(playouts, g_before, plies // 5, max_plies=400),
                "now": partial(playouts, g_now, plies, max_plies=400),
            },
        )
        ratio = ratios(rates["now"], rates["before"])
        out[f"Defiance {ruleset} random play-outs/s, now / before"] = (ratio, faster)
        print(f"Defiance {ruleset}: random whole-turn play-outs (at most 400 turns a game)")
        line("turns/s, before issue 21", rates["before"], "/s")
        line("turns/s, now", rates["now"], "/s")
        print(f"  {'ratio now / before':<34} {ratio:.1f}  ({judged(ratio, faster)})")
    think = runs_of(
        runs,
        {
            "before": lambda _: greedy_ms(before, texts[::10]),
            "now": lambda _: greedy_ms(now, texts[::10]),
        },
    )
    print("Defiance 10x10: the greedy player (every turn played and evaluated), same positions")
    line("ms a move, before issue 21", think["before"], "ms", 1)
    line("ms a move, now", think["now"], "ms", 1)
    print(f"  {'ratio before / now (time)':<34} {ratios(think['before'], think['now']):.1f}")
    start = now.start().position()
    small: Goal = ("≤", 50)
    for label, text in (("mid-game position", MIDGAME_10), ("start", start)):
        kb_before, kb_now = listed_state_kb(before, text), listed_state_kb(now, text)
        print(f"Defiance memory, the 10x10 {label} with its moves listed")
        print(f"  {'before issue 21':<34} {kb_before:>12,.1f} KB")
        print(f"  {'now':<34} {kb_now:>12,.1f} KB  ({judged(kb_now, small, ' KB')})")
        out[f"Defiance 10x10 state with its moves listed, KB ({label})"] = (kb_now, small)
    return out


# -- backgammon -----------------------------------------------------------------------------


def openspiel_games(games: int, seed: int) -> float:
    """Random OpenSpiel backgammon games: games per second of CPU time."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
            state.apply_action(action)
    return games / (clock() - start)


def our_games(game: Game, games: int, seed: int) -> float:
    """Random games of one of our engines: games per second of CPU time."""
    rng = random.Random(seed)
    start = clock()
    for _ in range(games):
        state: State = game.start()
        while state.outcome() is None:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.play(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    return games / (clock() - start)


def openspiel_turns(count: int, seed: int) -> tuple[list[Any], list[str]]:
    """Mid-game OpenSpiel backgammon positions at the first decision of a turn (turns 5 to 40 of
    random games), as OpenSpiel states and as our ``standard`` position strings (OpenSpiel's
    player x is our white)."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    states: list[Any] = []
    texts: list[str] = []
    while len(states) < count:
        state = game.new_initial_state()
        turn = 0
        rolled = False
        while not state.is_terminal() and len(states) < count and turn <= 40:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(
                    rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                )
                rolled = True
                continue
            if rolled and turn >= 5:
                states.append(state.clone())
                texts.append(openspiel_position(state))
            rolled = False
            turn += 1
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return states, texts


def openspiel_position(state: Any) -> str:
    """Our position string of an OpenSpiel backgammon decision node."""
    text = str(state)
    bar = next((line[4:] for line in text.splitlines() if line.startswith("Bar:")), "")
    dice = next(line[6:] for line in text.splitlines() if line.startswith("Dice:"))
    counts: list[dict[int, int]] = [{}, {}]
    for pos in range(24):
        if state.board(0, pos):
            counts[0][24 - pos] = state.board(0, pos)
        if state.board(1, pos):
            counts[1][pos + 1] = state.board(1, pos)
    for side, mark in ((0, "x"), (1, "o")):
        if bar.count(mark):
            counts[side][25] = bar.count(mark)
    listings = [
        ",".join(
            ("bar" if p == 25 else str(p)) + ("" if n == 1 else f"x{n}")
            for p, n in sorted(c.items(), reverse=True)
        )
        for c in counts
    ]
    high, low = max(dice[0], dice[1]), min(dice[0], dice[1])
    return f"W[{listings[0]}] B[{listings[1]}] {'wb'[state.current_player()]} {high}{low}"


def openspiel_listing_us(states: Sequence[Any]) -> float:
    """Microseconds of CPU per OpenSpiel ``legal_actions()`` on fresh copies of ``states``."""
    fresh = [s.clone() for s in states]
    gc.collect()
    start = clock()
    for state in fresh:
        state.legal_actions()
    return (clock() - start) / len(fresh) * 1e6


def openspiel_mcts(simulations: int, seed: int) -> float:
    """OpenSpiel's C++ MCTS (random roll-outs to the end, one per simulation) choosing the
    first move of a game: simulations per second of CPU time."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 1000, False, seed, False)
    start = clock()
    bot.step(state)
    return simulations / (clock() - start)


def our_mcts(game: Game, simulations: int, seed: int) -> float:
    """Our MCTS (``ai.mcts``, random roll-outs to the end) choosing white's first move after a
    31 opening: simulations per second of CPU time."""
    from ludotheque.ai import Budget, MCTSAgent

    state = game.start().play("w3b1")
    agent = MCTSAgent(seed, Budget(iterations=simulations))
    start = clock()
    agent.choose(state)
    return simulations / (clock() - start)


def bench_backgammon(runs: int) -> dict[str, Row]:
    now, before = ludotheque.load("backgammon", "standard"), load_before("backgammon", "standard")
    games = 100
    rates = runs_of(
        runs,
        {
            "OpenSpiel": lambda i: openspiel_games(games, i),
            "before": lambda i: our_games(before, games // 5, i),
            "now": lambda i: our_games(now, games, i),
        },
    )
    out: dict[str, Row] = {}
    ahead: Goal = ("≥", 1)
    print(f"backgammon (standard): random games, {runs} runs")
    line("OpenSpiel (C++ through pyspiel)", rates["OpenSpiel"], "games/s", 1)
    line("ours, before issue 21", rates["before"], "games/s", 1)
    line("ours, now", rates["now"], "games/s", 1)
    ratio = ratios(rates["now"], rates["OpenSpiel"])
    out["backgammon random games/s, ours / OpenSpiel"] = (ratio, ahead)
    print(f"  {'ratio ours / OpenSpiel':<34} {ratio:.2f}  ({judged(ratio, ahead)}; before issue 21 "
          f"{ratios(rates['before'], rates['OpenSpiel']):.2f})")  # fmt: skip
    states, texts = openspiel_turns(300, 99)
    listing = runs_of(
        runs,
        {
            "OpenSpiel": lambda _: openspiel_listing_us(states),
            "before": lambda _: listing_us(before, texts),
            "now": lambda _: listing_us(now, texts),
        },
    )
    print(f"backgammon: legal moves of the same {len(texts)} mid-game positions (a turn's first "
          "decision)")  # fmt: skip
    line("OpenSpiel legal_actions()", listing["OpenSpiel"], "µs", 1)
    line("ours legal_moves(), before", listing["before"], "µs", 1)
    line("ours legal_moves(), now", listing["now"], "µs", 1)
    ratio = ratios(listing["OpenSpiel"], listing["now"])
    out["backgammon legal-move listing, OpenSpiel's time / ours"] = (ratio, ahead)
    print(f"  {'ratio OpenSpiel time / ours':<34} {ratio:.2f}  ({judged(ratio, ahead)}; "
          f"before issue 21 {ratios(listing['OpenSpiel'], listing['before']):.2f})")  # fmt: skip
    sims = 300
    mcts = runs_of(
        runs,
        {
            "OpenSpiel": lambda i: openspiel_mcts(sims, i),
            "before": lambda i: our_mcts(before, sims // 5, i),
            "now": lambda i: our_mcts(now, sims * 5, i),
        },
    )
    print("backgammon: MCTS with random roll-outs to the end, the first move of a game")
    line("OpenSpiel C++ MCTSBot", mcts["OpenSpiel"], "sims/s")
    line("ours (ai.mcts), before", mcts["before"], "sims/s")
    line("ours (ai.mcts), now", mcts["now"], "sims/s")
    ratio = ratios(mcts["now"], mcts["OpenSpiel"])
    out["backgammon MCTS simulations/s, ours / OpenSpiel's C++ MCTS"] = (ratio, ahead)
    print(f"  {'ratio ours / OpenSpiel':<34} {ratio:.2f}  ({judged(ratio, ahead)}; before issue 21 "
          f"{ratios(mcts['before'], mcts['OpenSpiel']):.2f})")  # fmt: skip
    return out


BENCHES: dict[str, Callable[[int], dict[str, Row]]] = {
    "general": bench_general,
    "defiance": bench_defiance,
    "backgammon": bench_backgammon,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"among {', '.join(BENCHES)} (default: all)")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    unknown = set(args.games) - set(BENCHES)
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    from ludotheque.games.backgammon import movegen as backgammon_movegen
    from ludotheque.games.general import movegen as general_movegen

    cores = {"general": general_movegen.CORE, "backgammon": backgammon_movegen.CORE}
    shown = [f"{game} {'yes' if core else 'no (pure Python)'}" for game, core in cores.items()]
    print(f"compiled cores: {', '.join(shown)} (Defiance is pure Python)\n")
    table: dict[str, Row] = {}
    for name in args.games or list(BENCHES):
        table.update(BENCHES[name](args.runs))
        print()
    print(f"issue 21's goals, this run ({args.runs} runs):")
    for label, (value, goal) in table.items():
        print(f"  {label:<62} {value:>8,.2f}  {judged(value, goal)}")
    missed = [label for label, (value, goal) in table.items() if not met(value, goal)]
    print(f"  {len(table) - len(missed)} of {len(table)} goals met"
          + (f"; missed: {'; '.join(missed)}" if missed else ""))  # fmt: skip


if __name__ == "__main__":
    main()
