"""Environment step cost against the engine's own ``play()`` + ``legal_moves()``, same games.

    python bench/envs.py [--games general backgammon:seed ...] [--runs 5] [--turns 2000]

For each game, random games are first played with the engine alone and recorded (every move
and every roll). Each run then replays exactly those games, timing only the stepping, in CPU
time per engine turn (a whole move: a backgammon turn is one decision per checker, a Defiance
turn two), medians of ``--runs`` runs, each with its ratio to the engine measured in the same
run. The columns:

- ``engine``: the reference, ``legal_moves()`` + ``play(move)`` each turn
  (``chance_outcomes()`` + ``play(roll)`` each roll);
- ``engine, factored`` (Defiance): the engine's two-part view of a turn, ``legal_actions()`` +
  ``after_action(action)`` + ``play(turn)``;
- ``encoding``: the raw step of the encoding, what OpenSpiel's state asks of it:
  ``legal_actions(node)`` (a sorted list) + ``apply(node, action)`` per action, and the rolls;
- ``encoding, mask``: ``action_mask(node)`` + ``apply(node, action)``, what a PettingZoo agent
  needs of it;
- ``openspiel``: ``state.legal_actions()`` + ``state.apply_action(action)`` through ``pyspiel``
  (``chance_outcomes()`` at chance nodes), as an OpenSpiel algorithm in Python calls them: our
  states answer ``legal_actions()`` and ``is_chance_node()`` in Python, the rest goes through
  pyspiel's C++ and its calls back into Python;
- ``pz raw``: the bare PettingZoo environment (``raw_env``): ``env.step(action)`` and the next
  action mask (``env.unwrapped.encoding.action_mask(env.unwrapped.node)``: the one thing an
  agent must read), the dice replayed from the record inside the environment;
- ``pz raw + obs``: the same, with ``env.last()`` instead of the mask: the whole observation
  (the board planes and the mask);
- ``pz env()``: ``env()``, the environment a researcher gets, with the checks of PettingZoo's
  classic games (order, bounds, an illegal action loses) made inside it: ``step`` and the
  next action mask, as ``pz raw``;
- ``pz env() + obs``: the same with ``last()``;
- ``pz wrappers + obs``: for comparison, the raw environment in PettingZoo's own standard
  wrappers (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
  ``OrderEnforcingWrapper``, as its classic games are built): ``step`` + ``last()``.

Never run as a test: it prints figures.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludotheque
from ludotheque.core import CHANCE
from ludotheque.envs import Encoding, Node, encoding

# one recorded game: the engine's start state and, per ply, ("chance", outcome) or ("move", move)
Ply = tuple[str, Any]


def record_games(game: ludotheque.Game, turns: int, seed: int) -> list[list[Ply]]:
    """Random games (each cut at 400 turns) until ``turns`` turns are recorded."""
    rng = random.Random(seed)
    games: list[list[Ply]] = []
    total = 0
    while total < turns:
        state = game.start()
        plies: list[Ply] = []
        played = 0
        while state.outcome() is None and played < 400:
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                outcome = rng.choices(outcomes, [p for _, p in outcomes])[0][0]
                plies.append(("chance", outcome))
                state = state.play(outcome)
                continue
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            plies.append(("move", move))
            state = state.play(move)
            played += 1
        games.append(plies)
        total += played
    return games


def to_actions(enc: Encoding, games: list[list[Ply]]) -> list[tuple[list[Ply], list[int]]]:
    """The same games as the encoding's actions (rolls as chance outcome numbers), each cut
    where the encoding ends it (a threefold repetition is a draw there), with its plies cut
    alike."""
    out = []
    for plies in games:
        node = enc.initial()
        actions: list[int] = []
        kept: list[Ply] = []
        for kind, what in plies:
            if node.is_terminal:
                break
            if kind == "chance":
                number = next(
                    a for a, _ in enc.chance_outcomes(node) if enc.chance_text(node, a) == str(what)
                )
                steps = [number]
            else:
                steps = enc.turn_plans(node)[what]
            for a in steps:
                node = enc.apply(node, a)
            actions.extend(steps)
            kept.append((kind, what))
        out.append((kept, actions))
    return out


def time_engine(game: ludotheque.Game, games: list[list[Ply]]) -> float:
    start = time.process_time()
    for plies in games:
        state = game.start()
        for kind, what in plies:
            if kind == "chance":
                state.chance_outcomes()
            else:
                state.legal_moves()
            state = state.play(what)
        state.legal_moves()
    return time.process_time() - start


def time_engine_factored(game: ludotheque.Game, games: list[list[Ply]]) -> float:
    """Defiance through the engine's factored view, as the encoding could use it:
    ``legal_actions()``, ``after_action(action)`` and ``play(turn)`` each turn."""
    start = time.process_time()
    for plies in games:
        state: Any = game.start()
        for _, turn in plies:
            state.legal_actions()
            state.after_action(turn.action)
            state = state.play(turn)
        state.legal_actions()
    return time.process_time() - start


def time_encoding(enc: Encoding, actions: list[list[int]], mask: bool) -> float:
    legal = enc.action_mask if mask else enc.legal_actions
    chance = enc.chance_outcomes
    apply = enc.apply
    start = time.process_time()
    for game_actions in actions:
        node: Node = enc.initial()
        for a in game_actions:
            if node.player == -1:
                chance(node)
            else:
                legal(node)
            node = apply(node, a)
        legal(node)
    return time.process_time() - start


def time_openspiel(name: str, ruleset: str, actions: list[list[int]]) -> float:
    import pyspiel

    import ludotheque.envs.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game(f"ludotheque_{name}", {"ruleset": ruleset, "max_turns": 400})
    start = time.process_time()
    for game_actions in actions:
        state = game.new_initial_state()
        for a in game_actions:
            if state.is_chance_node():
                state.chance_outcomes()
            else:
                state.legal_actions()
            state.apply_action(a)
        state.legal_actions()
    return time.process_time() - start


def time_pettingzoo(
    name: str, ruleset: str, actions: list[list[int]], observe: bool, kind: str
) -> float:
    """``kind``: ``raw`` (``raw_env``), ``env`` (``env()``) or ``wrappers`` (PettingZoo's)."""
    from ludotheque.envs.pettingzoo import checked_env, raw_env, wrap

    base = checked_env if kind == "env" else raw_env

    class Replay(base):  # type: ignore[misc, valid-type]
        """The environment with its dice taken from the recorded game."""

        rolls: list[int]

        def _roll(self, node: Node) -> Node:
            while node.is_chance and self.rolls:  # (a match's next game: not recorded)
                node = self.encoding.apply(node, self.rolls.pop())
            return node

    raw = Replay(name, ruleset, max_turns=400)
    env = wrap(raw) if kind == "wrappers" else raw
    enc = raw.encoding
    total = 0.0
    for game_actions in actions:
        # split the game into rolls (replayed inside) and decisions (timed steps)
        node = enc.initial()
        rolls, decisions = [], []
        for a in game_actions:
            (rolls if node.is_chance else decisions).append(a)
            node = enc.apply(node, a)
        raw.rolls = rolls[::-1]
        env.reset(seed=0)
        step: Callable[[int], None] = env.step
        last: Callable[[], Any] = env.last
        mask = enc.action_mask
        if observe:
            last()
        start = time.process_time()
        for a in decisions:
            step(a)
            if observe:
                last()
            else:
                mask(raw.node)
        total += time.process_time() - start
    return total


def bench(spec: str, runs: int, turns: int, seed: int) -> None:
    name, _, ruleset = spec.partition(":")
    game = ludotheque.load(name, ruleset or None)
    enc = encoding(name, game.ruleset, 400)
    replays = to_actions(enc, record_games(game, turns, seed))
    games = [plies for plies, _ in replays]
    actions = [a for _, a in replays]
    n_turns = sum(1 for plies in games for kind, _ in plies if kind == "move")
    n_actions = sum(len(a) for a in actions)
    timers: dict[str, Callable[[], float]] = {"engine": lambda: time_engine(game, games)}
    if name == "defiance":
        timers["engine, factored"] = lambda: time_engine_factored(game, games)
    timers.update(
        {
            "encoding": lambda: time_encoding(enc, actions, False),
            "encoding, mask": lambda: time_encoding(enc, actions, True),
            "openspiel": lambda: time_openspiel(name, game.ruleset, actions),
            "pz raw": lambda: time_pettingzoo(name, game.ruleset, actions, False, "raw"),
            "pz raw + obs": lambda: time_pettingzoo(name, game.ruleset, actions, True, "raw"),
            "pz env()": lambda: time_pettingzoo(name, game.ruleset, actions, False, "env"),
            "pz env() + obs": lambda: time_pettingzoo(name, game.ruleset, actions, True, "env"),
            "pz wrappers + obs": lambda: time_pettingzoo(
                name, game.ruleset, actions, True, "wrappers"
            ),
        }
    )
    results: dict[str, list[float]] = {k: [] for k in timers}
    ratios: dict[str, list[float]] = {k: [] for k in timers}
    for _ in range(runs):
        gc.collect()
        times = {k: f() for k, f in timers.items()}
        for k, t in times.items():
            results[k].append(t / n_turns * 1e6)
            ratios[k].append(t / times["engine"])
    print(
        f"{name}:{game.ruleset}  {len(games)} games, {n_turns} turns, {n_actions} actions "
        f"(rolls included), medians of {runs} runs"
    )
    for k in timers:
        print(
            f"  {k:<18} {statistics.median(results[k]):9.1f} µs/turn  "
            f"× {statistics.median(ratios[k]):.2f} the engine"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games",
        nargs="*",
        default=["general", "backgammon:seed", "backgammon:standard", "defiance:8x8", "defiance"],
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=2000, help="turns per run (per game)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in args.games:
        turns = args.turns if not spec.startswith("defiance") else max(50, args.turns // 20)
        bench(spec, args.runs, turns, args.seed)


if __name__ == "__main__":
    main()
