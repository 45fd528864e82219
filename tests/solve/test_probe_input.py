"""``probe`` reads the General's positions only: another game's state is bad input, refused
with the public API's ``InvalidPosition`` (it used to fail with an ``AttributeError``)."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import InvalidPosition
from ludotheque.solve import probe


@pytest.mark.parametrize(("game", "ruleset"), [("backgammon", "seed"), ("defiance", "8x8")])
def test_probe_refuses_another_games_state(game: str, ruleset: str) -> None:
    with pytest.raises(InvalidPosition, match="positions of the General") as info:
        probe(ludotheque.load(game, ruleset).start())  # type: ignore[arg-type]  # on purpose
    assert info.value.code == "not-a-general-position"


def test_probe_counts_plies() -> None:
    verdict = probe(ludotheque.load("general").parse_position("c2 a1,c3,e1,e2,a4,a5 g 1"))
    assert verdict is not None and (verdict.winner, verdict.plies) == ("general", 1)
