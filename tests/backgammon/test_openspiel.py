"""Differential test against OpenSpiel's backgammon: over 2,000 turns of random play, our
``standard`` legal plays and OpenSpiel's give the same set of resulting positions (OpenSpiel
splits a double into two decisions; they are chained)."""

from __future__ import annotations

import random

import ludotheque
from tests.backgammon.openspiel_bridge import GAME, boards, dice, turn_results

STANDARD = ludotheque.load("backgammon", "standard")
TURNS = 2_000


def test_same_plays_as_openspiel() -> None:
    rng = random.Random(20261129)
    compared = mismatches = 0
    examples: list[str] = []
    while compared < TURNS:
        state = GAME.new_initial_state()
        while not state.is_terminal() and compared < TURNS:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(
                    rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                )
                continue
            player = state.current_player()
            position = f"{boards(state)} {'wb'[player]} {dice(state)}"
            ours = STANDARD.parse_position(position)
            mine = {ours.play(m).position().rsplit(" ", 2)[0] for m in ours.legal_moves()}
            theirs = turn_results(state)
            compared += 1
            if mine != theirs:
                mismatches += 1
                examples.append(position)
            while (
                not state.is_terminal()
                and not state.is_chance_node()
                and state.current_player() == player
            ):
                state.apply_action(rng.choice(state.legal_actions()))
    assert compared >= TURNS
    assert mismatches == 0, examples[:5]


def test_openspiel_start_matches_ours() -> None:
    state = GAME.new_initial_state()
    assert boards(state) + " - -" == STANDARD.start().position()
